"""The published JSON Schemas: identical to what the specs generate, and usable by an editor's checker."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from generator.schemas import all_schemas, render
from generator.resources import content_dir

SCHEMAS = content_dir() / "schemas"
CATALOGS = sorted(p for p in content_dir().glob("*/*.yaml") if p.parent.name not in ("schemas", "examples"))


def test_published_schemas_match_the_specs(regenerate: bool) -> None:
    generated = {f"{name}.schema.json": render(schema) for name, schema in all_schemas().items()}
    if regenerate:
        for name, text in generated.items():
            (SCHEMAS / name).write_text(text, encoding="utf-8")
    published = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.schema.json")}
    assert sorted(published) == sorted(generated), "run `pytest --regenerate` or `donjon content schema --out content/schemas`"
    for name, text in generated.items():
        assert published[name] == text, f"{name} is stale: run `donjon content schema --out content/schemas`"


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_catalog_names_and_passes_its_schema(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=../schemas/"), "editors find the schema from this line"
    schema = json.loads((path.parent / first.split("$schema=", 1)[1]).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
    assert errors == []


def test_the_schema_catches_what_the_loader_catches() -> None:
    schema = json.loads((SCHEMAS / "guildhall-vp-cards.schema.json").read_text(encoding="utf-8"))
    card = {"id": "x", "set": "job-faire", "value": 3, "cost": 1, "copies": 3, "removed_in_small_game": 1,
            "rulebook": "003"}
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors({"vp_cards": [card]})) == []
    assert list(validator.iter_errors({"vp_cards": [{**card, "copis": 3}]}))          # unknown key
    assert list(validator.iter_errors({"vp_cards": [{**card, "value": "three"}]}))    # wrong type
    assert list(validator.iter_errors({"vp_cards": [{**card, "id": "Bad Id"}]}))      # not an id
