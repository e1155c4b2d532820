"""Once Upon a Castle sheets: the rules the scorer enforces, and how castles are scored and ranked.

Violations (numbered as in end-states.md; each rests on facts rulebook 004 states, and each check below cites
its section):

1. At most 4 donjon floors, 4 towers and 4 walls.
2. A wall carries at most 2 flags, at most two walls carry 2, so at most 6 flags in all.
3. The Sun needs 4 towers; the end Cloud needs all 12 parts (4 floors, 4 towers, 4 walls).
4. Across the sheets of one game: at most one Sun, at most one end Cloud, and a Great Architect guest is in at
   most one castle (each card exists once). With the Apprentice version a castle holds exactly one guest per
   donjon floor.
5. Exactly one of `residents` and `resident_points`.
6. 1 to 4 sheets in one game (the box holds 4 personal boards and 4 sets of tokens), one per player: no two
   sheets share a player's name.
7. Sky clouds come only from the Shepherdess, a Great Architect guest: none in the Apprentice version.

Warnings (checks on values no rulebook states; the spec's bullets in order, W1 to W3). Each is reported through
:meth:`scoring.findings.Findings.check` with the catalog value's `inferred` record, so it warns while that value
is M, L or house, and would be a violation in a catalog that cites a rulebook for it:

W1. A tower's value and a flag's value are among the values the catalog holds (towers 2 or 5, flags 1 or 2: M,
    from a review).
W2. A resident count within the catalog's resident track, and `resident_points` among the track's group values
    (house: donjon's own track).
W3. An Apprentice guest's VP within the catalog's range (house).

Not a rule here: how many Great Architect guests a castle holds. A floor brings one, but guests are stolen from
castle to castle (004 Great Architect Version), and a file need not hold every sheet of the game.

Score: towers + Sun + end Cloud + sky clouds + the residents' points + flags + guests. The numbers (parts of a
castle, allowed tower and flag values, Sun, Cloud and cloud points, the resident track, the Apprentice guests'
VP range, how each Great Architect guest scores) come from the castle catalog. A breakdown entry computed from a
catalog value below H (the residents' points through the house track) is listed in the player's `inferred`.
Castles are ranked by score; tied castles share a place, and a tie for first has no winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum

from generator.games.castle.catalog import Castle, Guest
from generator.games.castle.end_state import CastleEndState, PlayerCastle
from generator.wording import listing, plural
from scoring.findings import Findings, below_h
from scoring.result import PlayerScore, Result, ranked_by

GAME = "once-upon-a-castle"


class CastleRule(IntEnum):
    """The rules of end-states.md, by number."""

    PARTS = 1
    FLAGS = 2
    SUN_AND_CLOUD = 3
    ONE_OF_EACH = 4
    RESIDENTS = 5
    SHEETS = 6
    SKY_CLOUDS = 7


#: The warnings of end-states.md (its bullets, in order).
VALUES, RESIDENT_TRACK, APPRENTICE_VP = "w1", "w2", "w3"


def name_key(name: str) -> str:
    """Names are compared without regard to case or surrounding spaces (`ana ` is Ana)."""
    return name.strip().casefold()


def check(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Report every rule the sheets break, and every warning, to `found`."""
    sheet = catalog.sheet
    _check_sheets(state, catalog, found)
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

        # W1. 004 Towers: a tower's drawing sets the points written on it; 004 Flags: 4 ways to draw a flag, each
        # worth its points. Which values those are no rulebook says: the catalog's, with their source.
        towers = sheet.tower_values
        for position, value in enumerate(castle.towers):
            if value not in towers.values:
                found.check(VALUES, (*at, "towers", position),
                            f"is {value}; a tower is worth {listing(towers.values, 'or')}", towers.provenance.of("values"))
        flags = sheet.flag_values
        for wall_index, wall in enumerate(castle.walls):
            for position, value in enumerate(wall.flags):
                if value not in flags.values:
                    found.check(VALUES, (*at, "walls", wall_index, "flags", position),
                                f"is {value}; a flag is worth {listing(flags.values, 'or')}", flags.provenance.of("values"))

        # Rule 2. 004 Flags: flags go on walls already built, two walls carry up to 2 flags and two carry 1,
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

        # Rule 3. 004 Towers: the Sun goes to the first castle with 4 towers; 004 End of the game: the Cloud goes
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

        # Rule 7. 004 Shepherdess: a "?" face may draw a 2-point cloud in the sky; she is a Great Architect guest,
        # and the Apprentice version has no guest powers (004 Great Architect Version), so no sky clouds.
        if state.version != "great-architect" and castle.sky_clouds:
            found.add(CastleRule.SKY_CLOUDS, (*at, "sky_clouds"),
                      f"is {castle.sky_clouds}; sky clouds come only from the Shepherdess, a Great Architect guest, "
                      f"so the {_version_name(catalog, state.version)} version has none")

    _check_across(state, catalog, found)

    track = sheet.resident_track
    basis = track.provenance.of("groups")
    for index, castle in enumerate(state.sheets):
        at = ("sheets", index)
        # Rule 5. 004 End of the game: a castle scores the group of its last resident drawn; the file gives
        # either the residents drawn or the points read off that group, not both.
        if (castle.residents is None) == (castle.resident_points is None):
            found.add(CastleRule.RESIDENTS, at,
                      "gives both residents and resident_points; give one" if castle.residents is not None
                      else "gives neither residents nor resident_points; give one (0 residents if none)")
        # W2. The sheet's resident groups are not known (game-facts 2(c)): the track is the catalog's.
        elif castle.residents is not None and castle.residents > track.length:
            found.check(RESIDENT_TRACK, (*at, "residents"),
                        f"is {castle.residents}; the resident track holds {track.length}", basis)
        elif castle.resident_points is not None:
            allowed = sorted({0, *(g.points for g in track.groups)})
            if castle.resident_points not in allowed:
                found.check(RESIDENT_TRACK, (*at, "resident_points"),
                            f"is {castle.resident_points}; a group of the resident track gives "
                            f"{', '.join(str(p) for p in allowed)}", basis)


def _version_name(catalog: Castle, version: str) -> str:
    return next((v.name for v in catalog.versions if v.id == version), version)


def _check_sheets(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 6: how many sheets one game has, and one per player."""
    # Rule 6. 004 Game components: 4 personal boards and 4 sets of tokens, one of each per player.
    most = catalog.components.personal_boards
    if len(state.sheets) > most:
        found.add(CastleRule.SHEETS, ("sheets",),
                  f"lists {plural(len(state.sheets), 'sheet')}; a game has at most {most} players (the box holds "
                  f"{most} personal boards and {most} sets of tokens)")
    # Rule 6. Each player draws one castle (004 Setting up: one sheet each), so a name appears once.
    seen: dict[str, int] = {}
    for index, castle in enumerate(state.sheets):
        key = name_key(castle.player)
        if key in seen:
            found.add(CastleRule.SHEETS, ("sheets", index, "player"),
                      f"{castle.player!r} is also the player of sheets[{seen[key]}]; each player has one sheet")
        else:
            seen[key] = index


def _check_across(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 4: what holds across the sheets of one game; and W3, the Apprentice guests' VP."""
    # Rule 4. 004 Towers: only the first castle with 4 towers draws the Sun; 004 End of the game: the first to
    # complete the twelfth part draws the Cloud, which ends the game at once. One of each per game.
    for flag in ("sun", "cloud"):
        holders = [i for i, castle in enumerate(state.sheets) if getattr(castle, flag)]
        for index in holders[1:]:
            first = holders[0]
            found.add(CastleRule.ONE_OF_EACH, ("sheets", index, flag),
                      f"the {'Sun' if flag == 'sun' else 'end Cloud'} was already drawn by "
                      f"{state.sheets[first].player} (sheets[{first}]); a game has only one")
    if state.version == "great-architect":
        # Rule 4. 004 Game components: 20 Great Architect guests, each card once; stealing moves a guest from one
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
        # Rule 4. 004 The Donjon's floors: each floor added draws one guest card at once, and in the Apprentice
        # version nothing moves a guest afterwards.
        if len(castle.guests) != castle.donjon_floors:
            found.add(CastleRule.ONE_OF_EACH, ("sheets", index, "guests"),
                      f"lists {plural(len(castle.guests), 'guest')} for {plural(castle.donjon_floors, 'donjon floor')}"
                      "; in the Apprentice version each floor brings exactly one guest")
        # W3. 004 The Donjon's floors: a guest scores the VP printed on its card; no source lists those values,
        # so the range is the catalog's.
        for position, value in enumerate(castle.guests):
            assert isinstance(value, int)  # the format gives numbers in this version
            if not span.min <= value <= span.max:
                found.check(APPRENTICE_VP, ("sheets", index, "guests", position),
                            f"is {value}; an Apprentice guest card is worth {span.min} to {span.max} VP",
                            span.provenance.of("min") or span.provenance.of("max"))


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


def inferred(castle: PlayerCastle, catalog: Castle) -> tuple[tuple[str, str], ...]:
    """The breakdown entries of a castle computed from a catalog value below H, with its confidence: the points
    the catalog gives for the Sun, the Cloud and sky clouds, and the residents' points when they are read off the
    resident track (not when the file gives them)."""
    sheet = catalog.sheet
    out: list[tuple[str, str]] = []
    for label, used, field in (("sun", castle.sun, "sun_points"), ("cloud", castle.cloud, "cloud_points"),
                               ("sky_clouds", castle.sky_clouds, "sky_cloud_points")):
        confidence = below_h(sheet.provenance.of(field))
        if used and confidence is not None:
            out.append((label, confidence))
    if castle.resident_points is None and castle.residents:
        confidence = below_h(sheet.resident_track.provenance.of("groups"))
        if confidence is not None:
            out.append(("residents", confidence))
    return tuple(out)


def score(state: CastleEndState, catalog: Castle, found: Findings, source: str = "") -> Result:
    """Check every rule, then score and rank the castles (or only report, when a rule is broken)."""
    check(state, catalog, found)
    setting = (("version", _version_name(catalog, state.version)), ("sheets", str(len(state.sheets))))
    warnings = tuple(found.warnings)
    if found:
        return Result(GAME, False, True, tuple(found.violations), None, (), source=source,
                      summary=f"{plural(len(found.violations), 'rule')} broken: not scored", setting=setting,
                      warnings=warnings)
    guests = {g.id: g for g in catalog.guests}
    items = [points(castle, state.version, catalog, guests) for castle in state.sheets]
    totals = [sum(p for _, p in item) for item in items]
    places = ranked_by([(t,) for t in totals])
    firsts = [i for i, place in enumerate(places) if place == 1]
    winner = state.sheets[firsts[0]].player if len(firsts) == 1 else None
    summary = (f"winner: {winner}, with {totals[firsts[0]]} points" if winner is not None
               else f"no winner: {listing(state.sheets[i].player for i in firsts)} tie for first with "
                    f"{totals[firsts[0]]} points")
    scores = tuple(PlayerScore(castle.player, totals[i], places[i], items[i], inferred=inferred(castle, catalog))
                   for i, castle in enumerate(state.sheets))
    return Result(GAME, True, True, (), winner, scores, source=source, summary=summary, setting=setting,
                  warnings=warnings)
