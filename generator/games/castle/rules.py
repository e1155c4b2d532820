"""Once Upon a Castle sheets: the rules the scorer enforces, and how castles are scored and ranked.

Violations (numbered as in end-states.md; each rests on facts rulebook 004 states, and each check below cites
its section):

0. Every value is a whole number, zero or more (floors, towers, flags, an Apprentice guest's VP, residents,
   resident points, sky clouds): points in this game are never negative. A fraction breaks it too, except in
   the number of donjon floors, which the format reads as a count of parts (as the towers and walls are counted
   by their lists): a fraction of a floor cannot be read (exit 2).
1. At most 4 donjon floors, 4 towers and 4 walls.
2. A wall carries at most 2 flags, at most two walls carry 2, so at most 6 flags in all.
3. The Sun needs 4 towers; the end Cloud needs all 12 parts (4 floors, 4 towers, 4 walls).
4. Across the sheets of one game: at most one Sun, at most one end Cloud, and a Great Architect guest is in at
   most one castle (each card exists once). With the Apprentice version a castle holds exactly one guest per
   donjon floor; with the Great Architect version the castles of the file hold no more guests than their floors
   plus 4 per player not in the file (a steal only moves a guest), exactly one per floor with 4 sheets.
5. Exactly one of `residents` and `resident_points`.
6. 1 to 4 sheets in one game (the box holds 4 personal boards and 4 sets of tokens), one per player: no two
   sheets share a player's name.
7. Sky clouds come only from the Shepherdess, a Great Architect guest: none in the Apprentice version. She
   never leaves the castles (a steal moves her, and the clouds stay), so with 4 sheets (every player's) a castle
   with sky clouds means one of them holds her.

Warnings (checks on values no rulebook states, or on what a file may leave out; the spec's bullets in order, W1
to W4). Each is reported through :meth:`scoring.findings.Findings.check` with the record it rests on (a catalog
value's `inferred` record), so it warns while that is M, L or house, and would be a violation in a catalog that
cites a rulebook for it:

W1. A tower's value and a flag's value are among the values the catalog holds (towers 2 or 5, flags 1 or 2: M,
    from a review).
W2. A resident count within the catalog's resident track, and `resident_points` among the track's group values
    (house: donjon's own track). Beyond the track a count scores the last group's points, marked `inferred`.
W3. An Apprentice guest's VP within the catalog's range (house).
W4. Some sheet has the end Cloud: the game ends when it is drawn (004 End of the game), but a file may hold
    only some players' sheets, so a file without it is scored with a warning (the game is not over, or the sheet
    that drew it is missing). The result's :class:`CastleOutcome` says so; the companion, whose table holds every
    player's sheet, does not save the game then.

Not a rule here: how many Great Architect guests one castle holds. A floor brings one, but guests are stolen from
castle to castle (004 Great Architect Version), and a file need not hold every sheet of the game. Across the
castles of a file, though, rule 4 counts them: the guests came in with the floors, those of the file's castles and
at most 4 per player whose sheet is not in it; with 4 sheets (every player) they are exactly one per floor.

Score: towers + Sun + end Cloud + sky clouds + the residents' points + flags + guests. The numbers (parts of a
castle, allowed tower and flag values, Sun, Cloud and cloud points, the resident track, the Apprentice guests'
VP range, how each Great Architect guest scores) come from the castle catalog. A breakdown entry computed from a
catalog value below H (the residents' points through the house track) is listed in the player's `inferred`.
Castles are ranked by score; tied castles share a place, and a tie for first has no winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from generator.catalog.common import Inferred
from generator.fields import name_languages, normalise_name
from generator.games.castle.catalog import Castle, Guest
from generator.games.castle.end_state import CastleEndState, PlayerCastle
from generator.i18n import N_, Figure, Language, language
from generator.sayings import Words
from scoring.findings import CheckedValue, Findings, NumberedRule, below_h
from scoring.formats import NAMES_IN_FILE, name_key
from scoring.result import PlayerScore, Ranking, ResultPart, Standing, ranked_by


class CastleRule(NumberedRule):
    """The rules of end-states.md, by number, each with the sections of rulebook 004 it comes from (a check
    that rests on one of them alone names that one)."""

    NOT_NEGATIVE = 0, N_("004 End of the game (the score); Towers; Flags; Shepherdess")
    PARTS = 1, "004 The different parts of the Castle"
    FLAGS = 2, "004 Flags"
    SUN_AND_CLOUD = 3, N_("004 Towers (the Sun); End of the game (the Cloud)")
    ONE_OF_EACH = 4, "004 Towers; End of the game; Game components; The Donjon's floors"
    RESIDENTS = 5, N_("004 End of the game (the group of the last resident drawn)")
    SHEETS = 6, N_("004 Game components (4 personal boards, 4 sets of tokens)")
    SKY_CLOUDS = 7, "004 Shepherdess; Great Architect Version"


#: The sections of rule 3's and rule 4's checks, each of which rests on one of them.
SUN_SECTION, CLOUD_SECTION = "004 Towers", "004 End of the game"
GUESTS_SECTION, FLOORS_SECTION = N_("004 Game components (20 Great Architect guests)"), "004 The Donjon's floors"
GUESTS_COME_IN = N_("004 Great Architect Version (a floor takes a guest; a steal moves one); Game components")
#: The guest whose power draws the sky clouds (004 Shepherdess), by its catalog id; the catalog keeps no field
#: saying which power that is, only its words.
SHEPHERDESS = "shepherdess"
SHEPHERDESS_KEPT = N_("004 Shepherdess (the clouds stay if she is stolen); Great Architect Version (a steal moves a "
                      "guest)")


class CastleWarning(CheckedValue):
    """The warnings of end-states.md (its bullets, in order), each with the section of 004 whose rule it checks
    on a value no rulebook states (named when it is a violation: `--strict`)."""

    VALUES = "w1", "004 Towers; Flags"
    RESIDENT_TRACK = "w2", N_("004 End of the game (the group of the last resident drawn)")
    APPRENTICE_VP = "w3", "004 The Donjon's floors"
    END_CLOUD = "w4", "004 End of the game"


VALUES, RESIDENT_TRACK, APPRENTICE_VP, END_CLOUD = CastleWarning

#: What W4 rests on: not a catalog value, but what a file may leave out (end-states.md: a file may hold only some
#: players' sheets), so the check is a guess about the file.
SOME_SHEETS = Inferred(
    ("cloud",),
    N_("004 End of the game: the game ends when a player completes the twelfth part and draws the end Cloud; a file "
    "may hold only some of the players' sheets, so one without it may be a game not over or a sheet missing"),
    "L")


class CastleEnd(Enum):
    """How the sheets of a file end the game (004 End of the game)."""

    #: a sheet has the end Cloud: its player completed the twelfth part and the game ended
    END_CLOUD = "end cloud"
    #: no sheet has it: the game is not over, or the sheet that drew it is not in the file
    NO_END_CLOUD = "no end cloud"


@dataclass(frozen=True, slots=True)
class CastleOutcome(ResultPart):
    """The castle's own part of a result: how the sheets end the game. It adds no key to the JSON result (a
    castle file is always `finished`, W4 warns), but a table of the companion holds every player's sheet, and is
    not saved before one has the end Cloud (:attr:`end_missing`)."""

    termination: CastleEnd

    @property
    def end_missing(self) -> str | None:
        if self.termination is CastleEnd.END_CLOUD:
            return None
        # said to a table, which holds every player's sheet: no sheet can be missing there (unlike W4's file)
        return N_("the game ends when a player completes the twelfth part and draws the end Cloud, and no sheet "
                  "has it yet")

    @property
    def end_warning(self) -> str:
        # Findings names a rule by the game's id and its number
        return "" if self.termination is CastleEnd.END_CLOUD else f"once-upon-a-castle-{END_CLOUD}"


def check(state: CastleEndState, catalog: Castle, found: Findings) -> Standing:
    """Report every rule the sheets break, and every warning, to `found`, and say how the game stands."""
    sheet = catalog.sheet
    _check_sheets(state, catalog, found)
    for index, castle in enumerate(state.sheets):
        at = ("sheets", index)
        _check_not_negative(state, castle, at, found)
        # Rule 1. 004 The different parts of the Castle: a castle is finished with 4 donjon floors, 4 towers and
        # 4 walls, and there is nothing more of those to draw.
        for part, built, most, said in (
                ("donjon_floors", castle.donjon_floors, sheet.donjon_floors,
                 N_("has {built} donjon floors; a castle has at most {most}")),
                ("towers", len(castle.towers), sheet.towers, N_("has {built} towers; a castle has at most {most}")),
                ("walls", len(castle.walls), sheet.walls, N_("has {built} walls; a castle has at most {most}"))):
            if built > most:
                found.add(CastleRule.PARTS, (*at, part), found._(said, built=Figure(built), most=most))

        # W1. 004 Towers: a tower's drawing sets the points written on it; 004 Flags: 4 ways to draw a flag, each
        # worth its points. Which values those are no rulebook says: the catalog's, with their source.
        towers = sheet.tower_values
        for position, value in enumerate(castle.towers):
            if isinstance(value, int) and value >= 0 and value not in towers.values:  # a fraction breaks rule 0
                found.check(VALUES, (*at, "towers", position),
                            found._("is {value}; a tower is worth {values}", value=Figure(value),
                                    values=found.listing(towers.values, "or")), towers.provenance.of("values"))
        flags = sheet.flag_values
        for wall_index, wall in enumerate(castle.walls):
            for position, value in enumerate(wall.flags):
                if isinstance(value, int) and value >= 0 and value not in flags.values:  # a fraction: rule 0
                    found.check(VALUES, (*at, "walls", wall_index, "flags", position),
                                found._("is {value}; a flag is worth {values}", value=Figure(value),
                                        values=found.listing(flags.values, "or")), flags.provenance.of("values"))

        # Rule 2. 004 Flags: flags go on walls already built, two walls carry up to 2 flags and two carry 1,
        # so a castle has 6 flags at most.
        most_per_wall = 2 if sheet.walls_with_two_flags else 1
        overfull = False
        for wall_index, wall in enumerate(castle.walls):
            if len(wall.flags) > most_per_wall:
                overfull = True
                found.add(CastleRule.FLAGS, (*at, "walls", wall_index, "flags"),
                          found._("has {flags} flags; a wall carries at most {most}", flags=len(wall.flags),
                                  most=most_per_wall))
        doubles = sum(1 for wall in castle.walls if len(wall.flags) == 2)
        if most_per_wall == 2 and doubles > sheet.walls_with_two_flags:
            overfull = True
            found.add(CastleRule.FLAGS, (*at, "walls"),
                      found._("{doubles} walls carry 2 flags; only {walls} walls of a castle can (the others carry "
                              "1)", doubles=doubles, walls=sheet.walls_with_two_flags))
        if not overfull and len(castle.flags) > sheet.max_flags:
            found.add(CastleRule.FLAGS, (*at, "walls"),
                      found._("carry {flags} flags; a castle holds at most {most}", flags=len(castle.flags),
                              most=sheet.max_flags))

        # Rule 3. 004 Towers: the Sun goes to the first castle with 4 towers; 004 End of the game: the Cloud goes
        # to whoever completes their twelfth part.
        if castle.sun and len(castle.towers) < sheet.towers:
            found.add(CastleRule.SUN_AND_CLOUD, (*at, "sun"),
                      found._("is drawn with {towers}; the Sun needs {needed}",
                              towers=found.ngettext("{n} tower", "{n} towers", len(castle.towers)),
                              needed=sheet.towers), SUN_SECTION)
        parts = castle.donjon_floors + len(castle.towers) + len(castle.walls)
        # each part counted as a list writes it (German "2 Türme", not the "mit 2 Türmen" of the Sun's message)
        if castle.cloud and not (castle.donjon_floors >= sheet.donjon_floors and len(castle.towers) >= sheet.towers
                                 and len(castle.walls) >= sheet.walls):
            found.add(CastleRule.SUN_AND_CLOUD, (*at, "cloud"),
                      found._("is drawn with {parts} of the {all} parts ({floors}, {towers}, {walls}); the end Cloud "
                              "needs all of them", parts=parts, all=sheet.parts,
                              floors=found.npgettext("a part in a list", "{n} floor", "{n} floors", castle.donjon_floors),
                              towers=found.npgettext("a part in a list", "{n} tower", "{n} towers", len(castle.towers)),
                              walls=found.npgettext("a part in a list", "{n} wall", "{n} walls", len(castle.walls))),
                      CLOUD_SECTION)

        # Rule 7. 004 Shepherdess: a "?" face may draw a 2-point cloud in the sky; she is a Great Architect guest,
        # and the Apprentice version has no guest powers (004 Great Architect Version), so no sky clouds.
        if state.version != "great-architect" and castle.sky_clouds:
            found.add(CastleRule.SKY_CLOUDS, (*at, "sky_clouds"),
                      found._("is {clouds}; sky clouds come only from the Shepherdess, a Great Architect guest, so "
                              "the {version} version has none", clouds=Figure(castle.sky_clouds),
                              version=_version_name(catalog, state.version)))

    _check_across(state, catalog, found)

    track = sheet.resident_track
    basis = track.provenance.of("groups")
    for index, castle in enumerate(state.sheets):
        at = ("sheets", index)
        # Rule 5. 004 End of the game: a castle scores the group of its last resident drawn; the file gives
        # either the residents drawn or the points read off that group, not both.
        if (castle.residents is None) == (castle.resident_points is None):
            found.add(CastleRule.RESIDENTS, at,
                      found._("gives both residents and resident_points; give one") if castle.residents is not None
                      else found._("gives neither residents nor resident_points; give one (0 residents if none)"))
        # W2. The sheet's resident groups are not known (game-facts 2(c)): the track is the catalog's. Beyond it,
        # the residents score its last group (ResidentTrack.points_for), marked inferred.
        elif isinstance(castle.residents, int) and castle.residents > track.length:  # a fraction: rule 0
            found.check(RESIDENT_TRACK, (*at, "residents"),
                        found._("is {residents}; the resident track holds {length} (scored as its last group, "
                                "{points})", residents=Figure(castle.residents), length=track.length,
                                points=found.ngettext("{n} point", "{n} points", track.points_for(castle.residents))),
                        basis)
        elif isinstance(castle.resident_points, int) and castle.resident_points >= 0:  # a fraction: rule 0
            allowed = sorted({0, *(g.points for g in track.groups)})
            if castle.resident_points not in allowed:
                found.check(RESIDENT_TRACK, (*at, "resident_points"),
                            found._("is {points}; a group of the resident track gives {allowed}",
                                    points=Figure(castle.resident_points),
                                    allowed=", ".join(str(p) for p in allowed)), basis)

    # W4. 004 End of the game: the player who completes the twelfth part draws the end Cloud, which ends the game.
    # A file may hold only some players' sheets, so a file in which none has it may still be a finished game.
    ended = any(castle.cloud for castle in state.sheets)
    if not ended:
        found.check(END_CLOUD, ("sheets",),
                    found._("no sheet has the end Cloud: the game is not over, or the sheet of the player who drew "
                            "it is missing"), SOME_SHEETS)
    termination = CastleEnd.END_CLOUD if ended else CastleEnd.NO_END_CLOUD
    # the heading is read by players: the version by its name in the messages' language (`--lang fr`: Grands
    # Architectes, a photo of an English sheet too), else as the file names things (the catalog the rules are given)
    printed = found.said if isinstance(found.said, Castle) else catalog
    return Standing(finished=True, setting=((found._("version"), _version_name(printed, state.version)),
                                            (found._("sheets"), str(len(state.sheets)))),
                    parts=(CastleOutcome(termination),))


def _check_not_negative(state: CastleEndState, castle: PlayerCastle, at: tuple[str, int], found: Findings) -> None:
    """Rule 0: no value of a sheet is negative."""
    # Rule 0. 004 End of the game: a castle scores its towers, the group of its last resident, its flags and its
    # guests; each is a part drawn or a number printed, never less than nothing. 004 Shepherdess: each sky cloud
    # is one drawn. Parts and residents are counted, so none is below 0 either.
    counts = (("donjon_floors", castle.donjon_floors, N_("is {count}; a castle has 0 floors or more")),
              ("sky_clouds", castle.sky_clouds, N_("is {count}; a castle has 0 sky clouds or more")),
              ("residents", castle.residents, N_("is {count}; a castle has 0 residents or more")))
    for key, count, said in counts:
        if count is not None and count < 0:
            found.add(CastleRule.NOT_NEGATIVE, (*at, key), found._(said, count=Figure(count)))
    # Rule 0. Values are points written or things counted: whole numbers. The format reads 5.0 as 5, so a float
    # left here is a fraction (2.5).
    fractions: list[tuple[tuple[str | int, ...], float]] = [
        ((key,), value) for key, value in (("sky_clouds", castle.sky_clouds), ("residents", castle.residents),
                                           ("resident_points", castle.resident_points)) if isinstance(value, float)]
    fractions += [(("towers", i), v) for i, v in enumerate(castle.towers) if isinstance(v, float)]
    fractions += [(("walls", w, "flags", i), v) for w, wall in enumerate(castle.walls)
                  for i, v in enumerate(wall.flags) if isinstance(v, float)]
    if state.version != "great-architect":
        fractions += [(("guests", i), v) for i, v in enumerate(castle.guests) if isinstance(v, float)]
    for where, value in fractions:
        if value < 0:  # said above: below 0
            continue
        found.add(CastleRule.NOT_NEGATIVE, (*at, *where),
                  found._("is {value}; a castle's points and counts are whole numbers", value=Figure(value)))
    if castle.resident_points is not None and castle.resident_points < 0:
        found.add(CastleRule.NOT_NEGATIVE, (*at, "resident_points"),
                  found._("is {points}; a group of residents is worth 0 points or more",
                          points=Figure(castle.resident_points)))
    for position, value in enumerate(castle.towers):
        if value < 0:
            found.add(CastleRule.NOT_NEGATIVE, (*at, "towers", position),
                      found._("is {value}; a tower is worth 0 or more", value=Figure(value)))
    for wall_index, wall in enumerate(castle.walls):
        for position, value in enumerate(wall.flags):
            if value < 0:
                found.add(CastleRule.NOT_NEGATIVE, (*at, "walls", wall_index, "flags", position),
                          found._("is {value}; a flag is worth 0 or more", value=Figure(value)))
    if state.version != "great-architect":
        for position, guest in enumerate(castle.guests):
            if isinstance(guest, int) and guest < 0:
                found.add(CastleRule.NOT_NEGATIVE, (*at, "guests", position),
                          found._("is {value}; a guest card is worth 0 VP or more", value=Figure(guest)))


def _version_name(catalog: Castle, version: str) -> str:
    return next((v.name for v in catalog.versions if v.id == version), version)


def _check_sheets(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 6: how many sheets one game has, and one per player."""
    # Rule 6. 004 Game components: 4 personal boards and 4 sets of tokens, one of each per player.
    most = catalog.components.personal_boards
    if not state.sheets:
        # a game is played by one player at least: a file with no sheet records no game
        found.add(CastleRule.SHEETS, ("sheets",),
                  found._("lists no sheet; a game has 1 to {most} players, each with a sheet", most=most))
    elif len(state.sheets) > most:
        found.add(CastleRule.SHEETS, ("sheets",),
                  found._("lists {sheets}; a game has at most {most} players (the box holds {most} personal boards "
                          "and {most} sets of tokens)",
                          sheets=found.ngettext("{n} sheet", "{n} sheets", len(state.sheets)), most=most))
    # Rule 6. Each player draws one castle (004 setup: each player gets one sheet), so a name appears once.
    seen: dict[str, int] = {}
    for index, castle in enumerate(state.sheets):
        key = name_key(castle.player)
        if not key:
            # the format's rule, as Guildhall's rule 1 (end-states.md: names non-empty): a broken rule (exit 1),
            # where it was a format error (exit 2) in one game and a rule in the other
            found.add(CastleRule.SHEETS, ("sheets", index, "player"), found._("is empty; every player needs a name"),
                      NAMES_IN_FILE)
        elif key in seen:
            found.add(CastleRule.SHEETS, ("sheets", index, "player"),
                      found._("{name!r} is also the player of sheets[{other}]; each player has one sheet",
                              name=castle.player, other=seen[key]), N_("004 setup: each player gets one sheet"))
        else:
            seen[key] = index


def _check_across(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 4: what holds across the sheets of one game; and W3, the Apprentice guests' VP."""
    # Rule 4. 004 Towers: the Sun goes to the first player whose castle has 4 towers; 004 End of the
    # game: the first to complete the twelfth part draws the Cloud, which ends the game at once. One of each per
    # game, so two sheets holding it are refused whatever the turn: players build at the end of each turn, so two
    # can complete their 4th tower in the same turn, and the rulebook does not say which of them is first then
    # (the message says so, and leaves the choice to the table, naming both players).
    for flag in ("sun", "cloud"):
        holders = [i for i, castle in enumerate(state.sheets) if getattr(castle, flag)]
        for index in holders[1:]:
            first = holders[0]
            said = (N_("{name} and {other} (sheets[{first}]) both drew the Sun; a game has one, drawn by the first "
                       "castle with 4 towers (for 4th towers completed in the same turn the rulebook does not say "
                       "who: the table chooses which sheet keeps it)") if flag == "sun"
                    else N_("{name} and {other} (sheets[{first}]) both drew the end Cloud; a game has one, drawn by "
                            "the first castle to complete its twelfth part, which ends the game"))
            found.add(CastleRule.ONE_OF_EACH, ("sheets", index, flag),
                      found._(said, name=state.sheets[index].player, other=state.sheets[first].player, first=first),
                      SUN_SECTION if flag == "sun" else CLOUD_SECTION)
    if state.version == "great-architect":
        # Rule 4. 004 Game components: 20 Great Architect guests, each card once; stealing moves a guest from one
        # castle to another, it never copies it.
        first_seen: dict[str, tuple[int, int]] = {}
        for index, castle in enumerate(state.sheets):
            for position, guest in enumerate(castle.guests):
                assert isinstance(guest, str)  # the format gives names in this version
                if guest in first_seen:
                    owner, slot = first_seen[guest]
                    where = ("sheets", index, "guests", position)
                    found.add(CastleRule.ONE_OF_EACH, where,
                              found._("{guest} is already in {name}'s castle (sheets[{owner}].guests[{slot}]); there "
                                      "is one card of each guest",
                                      guest=_guest_written(catalog, guest, found, where),
                                      name=state.sheets[owner].player, owner=owner, slot=slot), GUESTS_SECTION)
                else:
                    first_seen[guest] = (index, position)
        _check_guests_came_with_floors(state, catalog, found)
        _check_shepherdess_kept(state, catalog, found)
        return
    span = catalog.sheet.apprentice_guest_vp
    for index, castle in enumerate(state.sheets):
        # Rule 4. 004 The Donjon's floors: each floor added draws one guest card at once, and in the Apprentice
        # version nothing moves a guest afterwards.
        if castle.donjon_floors >= 0 and len(castle.guests) != castle.donjon_floors:
            found.add(CastleRule.ONE_OF_EACH, ("sheets", index, "guests"),
                      found._("lists {guests} for {floors}; in the Apprentice version each floor brings exactly one "
                              "guest", guests=found.ngettext("{n} guest", "{n} guests", len(castle.guests)),
                              floors=found.ngettext("{n} donjon floor", "{n} donjon floors", castle.donjon_floors)),
                      FLOORS_SECTION)
        # W3. 004 The Donjon's floors: a guest scores the VP printed on its card; no source lists those values,
        # so the range is the catalog's.
        for position, value in enumerate(castle.guests):
            # the format gives numbers in this version; a fraction breaks rule 0
            if isinstance(value, int) and value >= 0 and not span.min <= value <= span.max:
                found.check(APPRENTICE_VP, ("sheets", index, "guests", position),
                            found._("is {value}; an Apprentice guest card is worth {low} to {high} VP",
                                    value=Figure(value), low=span.min, high=span.max),
                            span.provenance.of("min") or span.provenance.of("max"))


def _check_guests_came_with_floors(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 4, Great Architect: the guests of all the castles are as many as the donjon floors of all the castles.

    004 Great Architect Version: drawing a donjon floor takes one of the 3 face-up guests into one's castle, and
    the board's steal moves a guest from a castle to another; nothing else brings a guest in or takes one out (the
    20 cards outnumber the 16 floors of 4 castles, so a floor always finds one). A file may hold only some sheets:
    the players whose sheets are not in it (4 at most in all, 004 Game components) may have built up to 4 floors
    each, whose guests may have been stolen into the castles here. With every possible player's sheet in the file,
    the guests are exactly one per floor."""
    floors = sum(max(0, castle.donjon_floors) for castle in state.sheets)
    guests = sum(len(castle.guests) for castle in state.sheets)
    missing = max(0, catalog.components.personal_boards - len(state.sheets))
    elsewhere = missing * catalog.sheet.donjon_floors  # floors the players not in the file can have built
    counted = dict(guests=found.ngettext("{n} guest", "{n} guests", guests),
                   floors=found.ngettext("{n} donjon floor", "{n} donjon floors", floors))
    if guests > floors + elsewhere:
        said = (found._("hold {guests} for {floors} in all; each guest comes in with a donjon floor (stealing "
                        "only moves one from castle to castle), and every player's sheet is here", **counted)
                if not missing else
                found._("hold {guests} for {floors} in all; each guest comes in with a donjon floor (stealing only "
                        "moves one from castle to castle), and the {players} not in this file can have built at most "
                        "{more} more", **counted, more=elsewhere,
                        players=found.ngettext("{n} player", "{n} players", missing)))
        found.add(CastleRule.ONE_OF_EACH, ("sheets",), said, GUESTS_COME_IN)
    elif not missing and guests < floors:
        found.add(CastleRule.ONE_OF_EACH, ("sheets",),
                  found._("hold {guests} for {floors} in all; each floor brings a guest and no guest ever leaves the "
                          "castles (stealing only moves one), and every player's sheet is here", **counted),
                  GUESTS_COME_IN)


def _check_shepherdess_kept(state: CastleEndState, catalog: Castle, found: Findings) -> None:
    """Rule 7, Great Architect: with every player's sheet in the file, sky clouds mean some castle holds the
    Shepherdess.

    004 Shepherdess: only she lets a castle draw a cloud in its sky, and the clouds stay when she is stolen; 004
    Great Architect Version: a steal moves her to the thief's castle, and nothing else takes a guest out of the
    castles. So she is in some castle at the end of any game in which a sky cloud was drawn. A file may hold only
    some players' sheets (she may be in a castle not in it); with 4 sheets (the box's 4 personal boards) it holds
    every player's."""
    if len(state.sheets) < catalog.components.personal_boards:
        return
    if catalog.guest(SHEPHERDESS) is None or any(SHEPHERDESS in castle.guests for castle in state.sheets):
        return  # she is here (or a catalog of one's own has no such guest: nothing to say)
    for index, castle in enumerate(state.sheets):
        if castle.sky_clouds > 0:
            found.add(CastleRule.SKY_CLOUDS, ("sheets", index, "sky_clouds"),
                      found._("is {clouds}; sky clouds come only from the Shepherdess, who is in no castle here, and "
                              "every player's sheet is here (a steal moves a guest from castle to castle, never out "
                              "of them)", clouds=Figure(castle.sky_clouds)), SHEPHERDESS_KEPT)


def _guest_written(catalog: Castle, guest_id: str, found: Findings, path: tuple[str | int, ...]) -> str:
    """A guest as the sheet at `path` writes it. Sheets of one game may be printed in two languages (Amy's English
    sheet beside Jürgen's German one): the file's names are told by most of them, but Amy wrote `Queen`, and is
    answered so, not with Königin. With the article of the message's language when the name is in it (a name in
    the format's own words, the id's, is English, as the ids are), else bare."""
    guest = catalog.guest(guest_id)
    written = found.locator.name(path, "")
    if guest is None or not written or normalise_name(written) == normalise_name(guest.name):
        return _guest_name(catalog, guest_id, found)  # as the file names things
    from scoring.formats import aliases_of, spellings_of

    # the languages that spell the guest so, by the rule every guess of a document's language asks
    # (generator.fields.name_languages); the id is English's word, as the format's ids are
    great = catalog.guests_of("great-architect")
    key = normalise_name(written)
    said_in = name_languages(spellings_of(great, catalog.info.lang), aliases_of(great)).get(
        key, ("en",) if key == guest.id else ())
    return found._("the {guest}", guest=written) if found.lang.base in said_in else written


def _guest_name(catalog: Castle, guest_id: str, found: Findings) -> str:
    guest = catalog.guest(guest_id)
    if guest is None:
        return guest_id
    if found.names is not None and found.names != found.lang.base:
        # a name in the file's language inside a sentence in another: the sentence's article would not fit it
        # (an English sentence around a French file's guest read "the Reine is already in Ana's castle")
        return guest.name
    return found._("the {guest}", guest=guest.name)


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
    # every value is whole in a castle that keeps rule 0 (the only one ranked): int() changes none of them
    residents = (int(castle.resident_points) if castle.resident_points is not None
                 else sheet.resident_track.points_for(int(castle.residents or 0)))
    items: list[tuple[str, int]] = [
        ("towers", int(sum(castle.towers))),
        ("sun", sheet.sun_points if castle.sun else 0),
        ("cloud", sheet.cloud_points if castle.cloud else 0),
        ("sky_clouds", int(sheet.sky_cloud_points * castle.sky_clouds)),
        ("residents", residents),
        ("flags", int(sum(castle.flags))),
    ]
    for number, guest_ref in enumerate(castle.guests, start=1):
        if version == "great-architect":
            assert isinstance(guest_ref, str)
            guest = by_id[guest_ref]
            items.append((f"guest:{guest.id}", guest_points(guest, castle, by_id)))
        else:
            assert not isinstance(guest_ref, str)
            items.append((f"guest:{number}", int(guest_ref)))
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


def rank(state: CastleEndState, catalog: Castle, lang: Language | None = None) -> Ranking:
    """Score and rank the castles of sheets that keep every rule; the summary in `lang` (English)."""
    say = Words(lang or language())
    guests = {g.id: g for g in catalog.guests}
    items = [points(castle, state.version, catalog, guests) for castle in state.sheets]
    totals = [sum(p for _, p in item) for item in items]
    places = ranked_by([(t,) for t in totals])
    firsts = [i for i, place in enumerate(places) if place == 1]
    winner = state.sheets[firsts[0]].player if len(firsts) == 1 else None
    best = say.ngettext("{n} point", "{n} points", totals[firsts[0]])
    summary = (say._("winner: {winner}, with {points}", winner=winner, points=best) if winner is not None
               else say._("no winner: {players} tie for first with {points}",
                          players=say.listing(state.sheets[i].player for i in firsts), points=best))
    scores = tuple(PlayerScore(castle.player, totals[i], places[i], items[i], inferred=inferred(castle, catalog))
                   for i, castle in enumerate(state.sheets))
    return Ranking(scores, winner, summary)
