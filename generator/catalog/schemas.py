"""The published JSON Schemas: generated from the same specs the loaders check with, so they cannot drift.

The shipped copies live in `content/schemas/`; `donjon content schema --out DIR` writes them anew, and a test
fails if the shipped copies differ from what the specs generate.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.fields import Type, json_schema

SCHEMA_BASE = "https://donjon.invalid/schemas/"

#: Modules that publish schemas: each has `schemas() -> {name: (title, spec)}`.
PROVIDERS = ("generator.catalog.schemas", "generator.layout.spec", "scoring.formats")


def schemas() -> dict[str, tuple[str, Type]]:
    """The catalog kinds: one schema per kind of file in a game folder, plus a user deck's deck.yaml."""
    from generator.catalog import castle, guedelon, guildhall
    from generator.catalog.common import game_spec
    from generator.catalog.userdeck import DECK_SPEC

    found: dict[str, tuple[str, Type]] = {
        "game": ("A game folder's game.yaml: the game and the decks donjon prints of it",
                 game_spec(("professions", "vp-cards", "vp-tokens", "events", "floor-tiles", "guests"))),
        "deck": ("A user deck's deck.yaml", DECK_SPEC),
    }
    for prefix, module, titles in (
        ("guildhall", guildhall, {"components.yaml": "Guildhall components, sets and colours",
                                  "professions.yaml": "Guildhall professions", "vp-cards.yaml": "Guildhall VP cards"}),
        ("guedelon", guedelon, {"components.yaml": "Guédelon components, materials and tokens",
                                "events.yaml": "Guédelon event series and cards",
                                "floor-tiles.yaml": "Guédelon buildings and floor tiles"}),
        ("castle", castle, {"components.yaml": "Once Upon a Castle components and versions",
                            "guests.yaml": "Once Upon a Castle guests",
                            "castle-sheet.yaml": "Once Upon a Castle score sheet"}),
    ):
        for file, spec in module.specs().items():
            stem = file.removesuffix(".yaml")
            found[stem if stem.startswith(prefix) else f"{prefix}-{stem}"] = (titles[file], spec)
    return found


def all_schemas() -> Mapping[str, dict[str, Any]]:
    """Every published schema by name, from every provider that is present."""
    out: dict[str, dict[str, Any]] = {}
    for name in PROVIDERS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name is not None and name.startswith(err.name):
                continue  # that part of donjon is not there (yet): nothing of it to publish
            raise
        for key, (title, spec) in module.schemas().items():
            out[key] = json_schema(spec, title=title, schema_id=f"{SCHEMA_BASE}{key}.schema.json")
    return dict(sorted(out.items()))


def render(schema: Mapping[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """Write `NAME.schema.json` for every schema into `folder` (atomically, file by file)."""
    from generator.output import write_text

    written = []
    for key, schema in all_schemas().items():
        path = folder / f"{key}.schema.json"
        write_text(path, render(schema))
        written.append(path)
    return written
