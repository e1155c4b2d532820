"""Our icons: every one the cards and sheets name exists, is well formed, and stays inside its square."""

from __future__ import annotations

import pytest

from generator.games.guildhall.catalog import SYMBOLS
from generator.backends.svg import path_data
from generator.render.icons import icons, layers
from generator.games.guedelon import GAME as GUEDELON

NAMED = ("wood", "stone", "clay", "beam", "cut-stone", "tile", "rope", "mortar", "vp", "chapter", "bolt", "hourglass",
         "crown", "tower", "wall", "flag", "resident", "gold", "food", "inferred")


def test_every_icon_the_games_need_exists() -> None:
    for name in (*NAMED, *SYMBOLS):
        assert name in icons(), name


def test_finished_products_of_guedelon_have_icons() -> None:
    from generator.content import load_content

    game = load_content().catalog(GUEDELON)
    assert game is not None
    for material in game.materials:
        assert material.id in icons() and material.finished in icons()


@pytest.mark.parametrize("name", sorted(icons()))
def test_icons_are_closed_paths_inside_their_square(name: str) -> None:
    for layer in layers(name):
        assert layer[0][0] == "M" and layer[-1] == ("Z",)
        for op in layer:
            assert op[0] in ("M", "L", "C", "Z")
            for value in op[1:]:
                assert -0.01 <= float(value) <= 100.01, (name, op)
        assert path_data(layer).startswith("M")
