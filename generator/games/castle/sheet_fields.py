"""The fillable fields of the castle score sheet: their names and kinds, shared by the drawer and the reader.

The sheet drawer puts one field over each box a player writes in or ticks; the reader of filled sheets knows a
field only by these names, so the two can never disagree. The names are stable (documented in
generator/games/castle/README.md):

| field | kind | holds |
|---|---|---|
| `version` | hidden, read-only text | the version the sheet is for (`apprentice`, `great-architect`) |
| `player` | text | the player's name |
| `floor_1` ... | checkbox | a floor of the donjon, floor 1 at the bottom |
| `tower_1_value` ... | number | the value written on a tower; a tower with a value is built |
| `wall_1` ... | checkbox | a wall, numbered left to right |
| `wall_1_flag_1` ... | number | the value of a flag on that wall |
| `sun`, `cloud` | checkbox | the Sun, the end Cloud |
| `sky_clouds` | number | extra clouds drawn through the Shepherdess (Great Architect) |
| `residents` | number | residents coloured in |
| `guest_1` ... | text or number | Great Architect: a guest's name; Apprentice: the VP printed on a guest card |
| `total_towers` ... `total` | number | the score banner: the player's own sums, never read back |

Counts (floors, towers, walls, flags per wall) come from the castle catalog, so a corrected catalog changes the
fields with the drawing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

from generator.games.castle.catalog import Castle, SheetFacts

Kind = Literal["text", "number", "checkbox"]

VERSION = "version"
PLAYER = "player"
SUN = "sun"
CLOUD = "cloud"
SKY_CLOUDS = "sky_clouds"
RESIDENTS = "residents"
#: The banner's boxes, in the banner's order: the player's own arithmetic, which the scorer redoes from the parts.
BANNER = ("total_towers", "total_sky", "total_residents", "total_flags", "total_guests", "total")
#: Guest slots beyond one per floor on a Great Architect sheet: a castle can steal guests from others
#: (004 Great Architect Version: a Stone, Food and Gold line steals a guest).
STOLEN_SLOTS = 2
#: What the reader accepts in a number field: a whole number, maybe signed (the rules judge its value)...
NUMBER = re.compile(r"[+-]?\d+")
#: ... of at most this many digits.
DIGITS = 9


def floor(number: int) -> str:
    return f"floor_{number}"


def tower(number: int) -> str:
    return f"tower_{number}_value"


def wall(number: int) -> str:
    return f"wall_{number}"


def flag(wall_number: int, number: int) -> str:
    return f"{wall(wall_number)}_flag_{number}"


def guest(number: int) -> str:
    return f"guest_{number}"


#: A numbered field's name: (what, its number, the flag's number on a wall).
_NUMBERED = re.compile(r"(floor|guest|wall)_([1-9]\d{0,2})(?:_flag_([1-9]\d{0,2}))?|tower_([1-9]\d{0,2})_value")


class Numbered(NamedTuple):
    part: Literal["floor", "tower", "wall", "flag", "guest"]
    number: int
    #: the flag's number on its wall (flags only)
    flag: int = 0


def numbered(name: str) -> Numbered | None:
    """What a numbered field name stands for (`wall_2_flag_1` is flag 1 of wall 2), or None."""
    found = _NUMBERED.fullmatch(name)
    if found is None:
        return None
    part, number, flag_number, tower_number = found.groups()
    if tower_number is not None:
        return Numbered("tower", int(tower_number))
    if flag_number is not None:
        return Numbered("flag", int(number), int(flag_number)) if part == "wall" else None
    return Numbered(part, int(number))  # type: ignore[arg-type]  # the pattern allows only these three


class FieldSpec(NamedTuple):
    name: str
    kind: Kind
    #: what a viewer shows over the field, in words
    tooltip: str
    #: the reader takes its value into the end state (the banner's boxes are not read)
    read: bool = True


class Part(NamedTuple):
    """One part of the castle's row, left to right: a tower, a wall (with how many flags it carries) or the donjon."""

    kind: Literal["tower", "wall", "donjon"]
    #: 1 and up for towers and walls, left to right; 0 for the donjon
    number: int
    flags: int = 0


def castle_row(sheet: SheetFacts) -> tuple[Part, ...]:
    """The castle as drawn, left to right: towers and walls in turn on each side of the donjon in the middle.

    Each side starts with a tower at its outer end. The walls that carry 2 flags are the ones nearest the donjon,
    the others carry 1 (004 Flags: 2 walls carry 2 flags and 2 carry 1; the counts are the catalog's)."""
    left_towers, left_walls = (sheet.towers + 1) // 2, (sheet.walls + 1) // 2
    sides = [_side(left_towers, left_walls), _side(sheet.towers - left_towers, sheet.walls - left_walls)[::-1]]
    kinds = [*sides[0], "donjon", *sides[1]]
    # flags: the walls nearest the donjon first, left before right
    middle = len(sides[0])
    walls = [i for i, kind in enumerate(kinds) if kind == "wall"]
    by_nearness = sorted(walls, key=lambda i: (abs(i - middle), i))
    capacity = [2] * sheet.walls_with_two_flags + [1] * sheet.walls_with_one_flag
    flags = {index: capacity[rank] if rank < len(capacity) else 0 for rank, index in enumerate(by_nearness)}
    out: list[Part] = []
    counters = {"tower": 0, "wall": 0}
    for index, kind in enumerate(kinds):
        if kind == "donjon":
            out.append(Part("donjon", 0))
            continue
        counters[kind] += 1
        out.append(Part("tower" if kind == "tower" else "wall", counters[kind], flags.get(index, 0)))
    return tuple(out)


def _side(towers: int, walls: int) -> list[str]:
    """One side of the donjon from its outer end inwards: a tower, a wall, a tower... then what is left over."""
    out: list[str] = []
    while towers or walls:
        if towers:
            out.append("tower")
            towers -= 1
        if walls:
            out.append("wall")
            walls -= 1
    return out


def guest_slots(sheet: SheetFacts, version: str) -> int:
    """One guest slot per donjon floor, and room for stolen guests on a Great Architect sheet."""
    return sheet.donjon_floors + (STOLEN_SLOTS if version == "great-architect" else 0)


def specs(castle: Castle, version: str) -> tuple[FieldSpec, ...]:
    """Every field of a sheet of `version`, in the order a player fills them in (a viewer's tab order): the name,
    the sky, the castle left to right, the residents, the guests, and the banner's sums last."""
    return tuple(_specs(castle.sheet, version))


def _specs(sheet: SheetFacts, version: str) -> Iterator[FieldSpec]:
    yield FieldSpec(VERSION, "text", "the version this sheet is for (filled in by donjon)")
    yield FieldSpec(PLAYER, "text", "your name")
    yield FieldSpec(SUN, "checkbox", "tick if you drew the Sun (first castle with all its towers)")
    yield FieldSpec(CLOUD, "checkbox", "tick if you drew the end Cloud (first to finish every part)")
    if version == "great-architect":
        yield FieldSpec(SKY_CLOUDS, "number", "how many extra clouds you drew (Shepherdess)")
    for part in castle_row(sheet):
        if part.kind == "donjon":
            for number in range(1, sheet.donjon_floors + 1):
                yield FieldSpec(floor(number), "checkbox", f"tick when you draw floor {number} of the donjon")
        elif part.kind == "tower":
            yield FieldSpec(tower(part.number), "number", f"the value written on tower {part.number}, once built")
        else:
            yield FieldSpec(wall(part.number), "checkbox", f"tick when you draw wall {part.number}")
            for number in range(1, part.flags + 1):
                yield FieldSpec(flag(part.number, number), "number",
                                f"the value of flag {number} on wall {part.number}")
    yield FieldSpec(RESIDENTS, "number", "how many residents you coloured in")
    named = version == "great-architect"
    for number in range(1, guest_slots(sheet, version) + 1):
        yield FieldSpec(guest(number), "text" if named else "number",
                        f"guest {number}: " + ("the guest's name" if named else "the VP printed on the guest card"))
    for name, tooltip in zip(BANNER, ("points of your towers", "Sun, end Cloud and extra clouds",
                                      "points of your last resident's group", "points of your flags",
                                      "points of your guests", "your total"), strict=True):
        yield FieldSpec(name, "number", tooltip, read=False)
