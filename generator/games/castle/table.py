"""How Once Upon a Castle is entered at the table (`donjon serve`): its end-state format's parts, options and controls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.catalog.common import HOUSE_MARK
from generator.games.castle.catalog import marked
from generator.games.table import Choices, TableControl, TableHints, in_language, not_official
from generator.i18n import N_


def _guests(catalog: Any, options: Mapping[str, Any]) -> Choices:
    return [(g.id, marked(g)) for g in catalog.guests_of("great-architect")]


def _translated_by_donjon(catalog: Any, options: Mapping[str, Any]) -> str:
    """The note beside guests whose names donjon translated itself (marked †, as the sheets and the reference mark
    them): never shown as the publisher's."""
    if options.get("version") != "great-architect" or all(
            marked(g) == g.name for g in catalog.guests_of("great-architect")):
        return ""
    lang = in_language(options)
    return f"{HOUSE_MARK} {lang._('Names translated by donjon, not official.')}"


def _guest_labels(catalog: Any, lang: Any) -> dict[str, str]:
    """A result's guest entries in words: a Great Architect's guest by its name (`guest:queen`), an Apprentice's
    by the donjon floor that brought it (`guest:2`; 004 The Donjon's floors: each floor brings one guest, whose
    VP are written on the sheet), never a bare number."""
    labels = {f"guest:{g.id}": marked(g) for g in catalog.guests}
    for floor in range(1, int(catalog.sheet.donjon_floors) + 1):
        labels[f"guest:{floor}"] = lang._("Guest of floor {n}").format(n=lang.number(floor))
    return labels


def _apprentice_vp(catalog: Any, options: Mapping[str, Any]) -> Choices:
    vp = catalog.sheet.apprentice_guest_vp
    return [(str(v), str(v)) for v in range(vp.min, vp.max + 1)]


HINTS = TableHints(
    parts="sheets",
    part_name="player",
    options=("version",),
    widgets={
        "donjon_floors": TableControl("count", low=lambda c, o: 0, high=lambda c, o: int(c.sheet.donjon_floors)),
        "towers": TableControl("tap", choices=lambda c, o: [(str(v), str(v)) for v in c.sheet.tower_values.values],
                         most=lambda c, o: int(c.sheet.towers),
                         note=lambda c, o: not_official(c.sheet.tower_values.provenance, "values", o)),
        "walls": TableControl("records", most=lambda c, o: int(c.sheet.walls)),
        "walls.flags": TableControl("tap", choices=lambda c, o: [(str(v), str(v)) for v in c.sheet.flag_values.values],
                              most=lambda c, o: 2,
                              note=lambda c, o: not_official(c.sheet.flag_values.provenance, "values", o)),
        "sky_clouds": TableControl("count", low=lambda c, o: 0),
        "residents": TableControl("count", low=lambda c, o: 0, high=lambda c, o: int(c.sheet.resident_track.length)),
        "resident_points": TableControl("count", low=lambda c, o: 0),
        "guests": TableControl("pick", choices=lambda c, o: (_guests(c, o) if o.get("version") == "great-architect"
                                                        else _apprentice_vp(c, o)),
                               note=_translated_by_donjon),
    },
    labels={"version": N_("Version"), "donjon_floors": N_("Donjon floors"), "towers": N_("Towers (value of each)"),
            "walls": N_("Walls"), "flags": N_("Flags (value of each)"), "sun": N_("Sun (first to 4 towers)"),
            "cloud": N_("End cloud (12th part first)"), "sky_clouds": N_("Sky clouds (Shepherdess)"),
            "residents": N_("Residents coloured in"), "resident_points": N_("or: resident points read off the sheet"),
            "guests": N_("Guests")},
    item_labels={"walls": N_("wall")},
    entry_labels=_guest_labels,
    helps={"guests": N_("Tap each guest card in your castle.")},
    option_choices={"version": lambda c, o: [(v.id, marked(v)) for v in c.versions]},
    initial={"residents": 0},
    sheet_upload=True,
)
