"""templates/README.md documents every key of the layout and deck formats.

The keys are read from the specs themselves (the schemas `donjon content schema` publishes), so a key added to the
format fails this test until the README explains it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from generator.schemas import all_schemas
from tests.conftest import REPO

README = (REPO / "templates" / "README.md").read_text(encoding="utf-8")


def _keys(node: Any) -> Iterator[str]:
    """Every property name in a JSON Schema, at any depth."""
    if isinstance(node, dict):
        yield from (node.get("properties") or {})
        for value in node.values():
            yield from _keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from _keys(value)


def _documented(key: str) -> bool:
    """Named as code (`key`, `key: ...`) or set in an example (`key:` in a YAML block)."""
    return re.search(rf"`{re.escape(key)}[`:]|^\s*{re.escape(key)}:|[{{,]\s*{re.escape(key)}:", README,
                     re.MULTILINE) is not None


@pytest.mark.parametrize("schema", ["layout", "deck"])
def test_every_key_of_the_format_is_documented(schema: str) -> None:
    keys = sorted(set(_keys(all_schemas()[schema])))
    assert len(keys) > 10
    missing = [key for key in keys if not _documented(key)]
    assert missing == [], f"templates/README.md does not explain these keys of the {schema} format: {missing}"


def test_the_check_finds_an_undocumented_key() -> None:
    assert _documented("stroke_width") and not _documented("no_such_key_anywhere")
