"""Once Upon a Castle sheets: the rules the scorer enforces, and how castles are scored and ranked.

Rules enforced (numbered as in end-states.md; each check below cites the section of rulebook 004):

1. At most 4 donjon floors, 4 towers and 4 walls.
2. A tower's value and a flag's value are among the values the castle sheet allows.
3. A wall carries at most 2 flags, at most two walls carry 2, so at most 6 flags in all.
4. The Sun needs 4 towers; the end Cloud needs all 12 parts (4 floors, 4 towers, 4 walls).
5. Across the sheets of one game: at most one Sun, at most one end Cloud, and a Great Architect guest is in at
   most one castle (each card exists once). With the Apprentice version a castle holds exactly one guest per
   donjon floor, each worth a VP within the range the catalog allows.
6. Exactly one of `residents` and `resident_points`; a resident count within the sheet's track, or points that
   one of the track's groups gives (or 0).

Not a rule here: how many Great Architect guests a castle holds. A floor brings one, but guests are stolen from
castle to castle (004 Great Architect Version), and a file need not hold every sheet of the game.

Score: towers + Sun + end Cloud + sky clouds + the residents' points + flags + guests. The numbers (parts of a
castle, allowed tower and flag values, Sun, Cloud and cloud points, the resident track, the Apprentice guests'
VP range, how each Great Architect guest scores) come from the castle catalog. Castles are ranked by score;
tied castles share a place, and a tie for first has no winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum

from generator.games.castle.catalog import Castle, Guest
from generator.games.castle.end_state import CastleEndState, PlayerCastle
from generator.wording import listing, plural
from scoring.findings import Findings
from scoring.result import PlayerScore, Result, ranked_by

GAME = "once-upon-a-castle"


class CastleRule(IntEnum):
    """The rules of end-states.md, by number."""

    PARTS = 1
    VALUES = 2
    FLAGS = 3
    SUN_AND_CLOUD = 4
    ONE_OF_EACH = 5
    RESIDENTS = 6


def check(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Report every rule the sheets break to `found`."""
    sheet = catalog.sheet
    for index, castle in enumerate(state.sheets):
        at = ("sheets", index)
        # Rule 1. 004 The different parts of the Castle: a castle is finished with 4 donjon floors, 4 towers and
        # 4 walls, and there is nothing more of those to draw.
        for part, built, most in (("donjon_floors", castle.donjon_floors, sheet.donjon_floors),
                                  ("towers", len(castle.towers), sheet.towers),
                                  ("walls", len(castle.walls), sheet.walls)):
            if built > most:
                found.add(CastleRule.PARTS, (*at, part),
                          f"has {built} {part.replace('_', ' ')}; a castle has at most {most}")

        # Rule 2. 004 Towers: a tower's drawing sets the points written on it; 004 Flags: 4 ways to draw a flag,
        # each worth its points. The values the sheet allows are in the catalog, with their source.
        for position, value in enumerate(castle.towers):
            if value not in sheet.tower_values.values:
                found.add(CastleRule.VALUES, (*at, "towers", position),
                          f"is {value}; a tower is worth {listing(sheet.tower_values.values, 'or')}")
        for wall_index, wall in enumerate(castle.walls):
            for position, value in enumerate(wall.flags):
                if value not in sheet.flag_values.values:
                    found.add(CastleRule.VALUES, (*at, "walls", wall_index, "flags", position),
                              f"is {value}; a flag is worth {listing(sheet.flag_values.values, 'or')}")

        # Rule 3. 004 Flags: flags go on walls already built, two walls carry up to 2 flags and two carry 1,
        # so a castle has 6 flags at most.
        most_per_wall = 2 if sheet.walls_with_two_flags else 1
        overfull = False
        for wall_index, wall in enumerate(castle.walls):
            if len(wall.flags) > most_per_wall:
                overfull = True
                found.add(CastleRule.FLAGS, (*at, "walls", wall_index, "flags"),
                          f"has {len(wall.flags)} flags; a wall carries at most {most_per_wall}")
        doubles = sum(1 for wall in castle.walls if len(wall.flags) == 2)
        if most_per_wall == 2 and doubles > sheet.walls_with_two_flags:
            overfull = True
            found.add(CastleRule.FLAGS, (*at, "walls"),
                      f"{doubles} walls carry 2 flags; only {sheet.walls_with_two_flags} walls of a castle can "
                      f"(the others carry 1)")
        if not overfull and len(castle.flags) > sheet.max_flags:
            found.add(CastleRule.FLAGS, (*at, "walls"),
                      f"carry {len(castle.flags)} flags; a castle holds at most {sheet.max_flags}")

        # Rule 4. 004 Towers: the Sun goes to the first castle with 4 towers; 004 End of the game: the Cloud goes
        # to whoever completes their twelfth part.
        if castle.sun and len(castle.towers) < sheet.towers:
            found.add(CastleRule.SUN_AND_CLOUD, (*at, "sun"),
                      f"is drawn with {plural(len(castle.towers), 'tower')}; the Sun needs {sheet.towers}")
        parts = castle.donjon_floors + len(castle.towers) + len(castle.walls)
        if castle.cloud and not (castle.donjon_floors >= sheet.donjon_floors and len(castle.towers) >= sheet.towers
                                 and len(castle.walls) >= sheet.walls):
            found.add(CastleRule.SUN_AND_CLOUD, (*at, "cloud"),
                      f"is drawn with {parts} of the {sheet.parts} parts ({castle.donjon_floors} floors, "
                      f"{len(castle.towers)} towers, {len(castle.walls)} walls); the end Cloud needs all of them")

    _check_across(state, catalog, found)

    for index, castle in enumerate(state.sheets):
        at = ("sheets", index)
        track = sheet.resident_track
        # Rule 6. 004 End of the game: a castle scores the group of its last resident drawn; the file gives
        # either the residents drawn or the points read off that group, not both.
        if (castle.residents is None) == (castle.resident_points is None):
            found.add(CastleRule.RESIDENTS, at,
                      "gives both residents and resident_points; give one" if castle.residents is not None
                      else "gives neither residents nor resident_points; give one (0 residents if none)")
        elif castle.residents is not None and castle.residents > track.length:
            found.add(CastleRule.RESIDENTS, (*at, "residents"),
                      f"is {castle.residents}; the sheet's resident track holds {track.length}")
        elif castle.resident_points is not None:
            allowed = sorted({0, *(g.points for g in track.groups)})
            if castle.resident_points not in allowed:
                found.add(CastleRule.RESIDENTS, (*at, "resident_points"),
                          f"is {castle.resident_points}; a group of the resident track gives "
                          f"{', '.join(str(p) for p in allowed)}")


def _check_across(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 5: what holds across the sheets of one game."""
    # Rule 5. 004 Towers: only the first castle with 4 towers draws the Sun; 004 End of the game: the first to
    # complete the twelfth part draws the Cloud, which ends the game at once. One of each per game.
    for flag in ("sun", "cloud"):
        holders = [i for i, castle in enumerate(state.sheets) if getattr(castle, flag)]
        for index in holders[1:]:
            first = holders[0]
            found.add(CastleRule.ONE_OF_EACH, ("sheets", index, flag),
                      f"the {'Sun' if flag == 'sun' else 'end Cloud'} was already drawn by "
                      f"{state.sheets[first].player} (sheets[{first}]); a game has only one")
    if state.version == "great-architect":
        # Rule 5. 004 Game components: 20 Great Architect guests, each card once; stealing moves a guest from one
        # castle to another, it never copies it.
        first_seen: dict[str, tuple[int, int]] = {}
        for index, castle in enumerate(state.sheets):
            for position, guest in enumerate(castle.guests):
                assert isinstance(guest, str)  # the format gives names in this version
                if guest in first_seen:
                    owner, slot = first_seen[guest]
                    found.add(CastleRule.ONE_OF_EACH, ("sheets", index, "guests", position),
                              f"{_guest_name(catalog, guest)} is already in {state.sheets[owner].player}'s castle "
                              f"(sheets[{owner}].guests[{slot}]); there is one card of each guest")
                else:
                    first_seen[guest] = (index, position)
        return
    span = catalog.sheet.apprentice_guest_vp
    for index, castle in enumerate(state.sheets):
        # Rule 5. 004 The Donjon's floors: each floor added draws one guest card at once, and in the Apprentice
        # version nothing moves a guest afterwards.
        if len(castle.guests) != castle.donjon_floors:
            found.add(CastleRule.ONE_OF_EACH, ("sheets", index, "guests"),
                      f"lists {plural(len(castle.guests), 'guest')} for {plural(castle.donjon_floors, 'donjon floor')}"
                      "; in the Apprentice version each floor brings exactly one guest")
        # Rule 5. 004 The Donjon's floors: a guest scores the VP printed on its card, within the catalog's range.
        for position, value in enumerate(castle.guests):
            assert isinstance(value, int)  # the format gives numbers in this version
            if not span.min <= value <= span.max:
                found.add(CastleRule.ONE_OF_EACH, ("sheets", index, "guests", position),
                          f"is {value}; an Apprentice guest card is worth {span.min} to {span.max} VP")



def _guest_name(catalog: Castle, guest_id: str) -> str:
    guest = catalog.guest(guest_id)
    return f"the {guest.name}" if guest is not None else guest_id


def guest_points(guest: Guest, castle: PlayerCastle, guests: Mapping[str, Guest]) -> int:
    """What a Great Architect guest scores in `castle` (004 The guests in the Great Architect version).

    `guests` are the catalog's guests by id."""
    if guest.scoring.flat is not None:
        return guest.scoring.flat
    per = guest.scoring.per
    if per == "crown-guest":  # the Courtesan counts every Crown guest of the castle, herself included
        return sum(1 for g in castle.guests if isinstance(g, str) and g in guests and guests[g].kind == "crown")
    counts = {"donjon-floor": castle.donjon_floors, "wall": len(castle.walls), "tower": len(castle.towers),
              "flag": len(castle.flags)}
    return counts.get(per or "", 0)


def points(castle: PlayerCastle, version: str, catalog: Castle,
           guests: Mapping[str, Guest] | None = None) -> tuple[tuple[str, int], ...]:
    """Where each point of a castle comes from (004 End of the game: towers, Sun/Cloud, the last resident's
    group, flags and guests; 004 Shepherdess: 2 per cloud in the sky)."""
    sheet = catalog.sheet
    by_id = guests if guests is not None else {g.id: g for g in catalog.guests}
    residents = (castle.resident_points if castle.resident_points is not None
                 else sheet.resident_track.points_for(castle.residents or 0))
    items: list[tuple[str, int]] = [
        ("towers", sum(castle.towers)),
        ("sun", sheet.sun_points if castle.sun else 0),
        ("cloud", sheet.cloud_points if castle.cloud else 0),
        ("sky_clouds", sheet.sky_cloud_points * castle.sky_clouds),
        ("residents", residents),
        ("flags", sum(castle.flags)),
    ]
    for number, guest_ref in enumerate(castle.guests, start=1):
        if version == "great-architect":
            assert isinstance(guest_ref, str)
            guest = by_id[guest_ref]
            items.append((f"guest:{guest.id}", guest_points(guest, castle, by_id)))
        else:
            assert isinstance(guest_ref, int)
            items.append((f"guest:{number}", guest_ref))
    return tuple(items)


def score(state: CastleEndState, catalog: Castle, found: Findings, source: str = "") -> Result:
    """Check every rule, then score and rank the castles (or only report, when a rule is broken)."""
    check(state, catalog, found)
    version = next((v.name for v in catalog.versions if v.id == state.version), state.version)
    setting = (("version", version), ("sheets", str(len(state.sheets))))
    if found:
        return Result(GAME, False, True, tuple(found.violations), None, (), source=source,
                      summary=f"{plural(len(found.violations), 'rule')} broken: not scored", setting=setting)
    guests = {g.id: g for g in catalog.guests}
    items = [points(castle, state.version, catalog, guests) for castle in state.sheets]
    totals = [sum(p for _, p in item) for item in items]
    places = ranked_by([(t,) for t in totals])
    firsts = [i for i, place in enumerate(places) if place == 1]
    winner = state.sheets[firsts[0]].player if len(firsts) == 1 else None
    summary = (f"winner: {winner}, with {totals[firsts[0]]} points" if winner is not None
               else f"no winner: {listing(state.sheets[i].player for i in firsts)} tie for first with "
                    f"{totals[firsts[0]]} points")
    scores = tuple(PlayerScore(castle.player, totals[i], places[i], items[i]) for i, castle in enumerate(state.sheets))
    return Result(GAME, True, True, (), winner, scores, source=source, summary=summary, setting=setting)
