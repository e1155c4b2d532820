"""The published JSON Schemas: generated from the same specs the loaders check with, so they cannot drift.

The shipped copies live in `content/schemas/`; `donjon content schema --out DIR` writes them anew, and a test
fails if the shipped copies differ from what the specs generate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.fields import Type, json_schema

SCHEMA_BASE = "https://donjon.invalid/schemas/"


def catalog_schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The catalog kinds: a game folder's game.yaml, a user deck's deck.yaml, and every game's catalog files."""
    from generator.catalog.game import game_spec
    from generator.catalog.userdeck import DECK_SPEC
    from generator.sheets.own import SHEET_SPEC
    from generator.registry import game_ids, games

    every = games()
    sources = tuple(dict.fromkeys(s for g in every for s in g.deck_sources))
    found: dict[str, tuple[str, Type[Any]]] = {
        "game": ("A game folder's game.yaml: the game and the decks donjon prints of it",
                 game_spec(game_ids(), sources)),
        "deck": ("A user deck's deck.yaml", DECK_SPEC),
        "sheet": ("A sheet of your own's sheet.yaml", SHEET_SPEC),
    }
    for game in every:
        found.update(game.catalog_schemas())
    return found


def end_state_schemas() -> dict[str, tuple[str, Type[Any]]]:
    """The end-state format of every game, with the names of the shipped catalogs."""
    from generator.content import load_content
    from generator.registry import games

    every = games()
    content = load_content(games=[g.id for g in every])
    return {f"end-state-{g.schema_prefix}": (f"A {g.name} end state, scored by `donjon score`",
                                             g.end_state(content.game(g.id))) for g in every}


def all_schemas() -> Mapping[str, dict[str, Any]]:
    """Every published schema by name: catalogs, decks, layouts, sheet layouts and end states."""
    from generator.layout.spec import schemas as layout_schemas
    from generator.sheets.layout import schemas as sheet_schemas

    out: dict[str, dict[str, Any]] = {}
    for provider in (catalog_schemas, layout_schemas, sheet_schemas, end_state_schemas):
        for key, (title, spec) in provider().items():
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
