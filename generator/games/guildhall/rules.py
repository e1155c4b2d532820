"""Guildhall end states: the rules the scorer enforces, and how players are scored and ranked.

Rules enforced (numbered as in end-states.md; each check below cites the rulebook section it comes from,
002 for Old World Economy and 003 for Job Faire). Every rule is a violation, as the facts it rests on are stated
(H), except where a check rests on a value no rulebook states: rule 7 on Job Faire VP cards, whose values and
counts are an inference (M), and rule 5 on Yucata's handling of the last turn (undocumented). Those checks go
through :meth:`scoring.findings.Findings.check` with the record of what they rest on and give **warnings**
(violations with `--strict`, or with a catalog that cites a rulebook for them):

1. 2 to 4 players, names unique and non-empty.
2. Professions are ones of the chosen sets; six in play (or all twelve, for the combined game).
3. No colour appears twice in one profession of one guildhall.
4. No face-up chapter holds all five colours (it would have been completed and turned face down).
5. 0 to 3 completed chapters per player. With `variant: yucata` (002: Yucata discards extra chapters only on
   their owner's next turn) a player other than the one who ended the game may hold more, bounded by rule 6
   alone; the one who ended it holding more than 3 is a warning (whether Yucata discards a chapter completed
   during its owner's own last turn is not documented).
6. Cards are finite: no (profession, colour) card appears face up more than the 4 copies that exist, and the
   completed chapters of all players together are at most, summed over the professions in play, the fewest
   copies of one of that profession's five cards left beside those face up (each completed chapter holds one
   card of each colour of one profession). So the cards face up plus five per completed chapter never exceed
   the deck (120 cards with six professions).
7. Each VP card value exists in the chosen VP set, and across all players no value is bought more often than
   the set holds copies of it, after the cards that a 2- or 3-player game removes. Old World Economy: violations
   (002 states the values; the counts follow from them by arithmetic, H). Job Faire: warnings (M).
8. VP tokens and VP card values are whole numbers, zero or more.
9. A player's VP is their VP cards plus their tokens. The game ends at the end of a player's own turn with 20 VP
   or more: that player has 20 or more and every other player fewer. When exactly one player has 20 or more,
   that player ended the game (`ended_by` may be left out; when given, it must name that player). With nobody
   at 20 the game is in progress.

The numbers the rules use (players, copies, colours, VP supply, 20 VP, 3 chapters) come from the Guildhall
catalog, so a corrected catalog changes them.

Ranking: the one who ended the game first, then the others by VP, ties broken by completed chapters; players
still tied share a place (002 Game End, the Yucata rule). A game in progress shows the standings the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from generator.catalog.common import Inferred
from generator.games.guildhall.catalog import Guildhall
from generator.games.guildhall.end_state import GuildhallEndState, GuildhallPlayer
from generator.i18n import N_, Figure, Language, language
from generator.sayings import Words
from scoring.findings import Findings, NumberedRule, weakest
from scoring.formats import NAMES_IN_FILE, name_key
from scoring.result import PlayerScore, Ranking, Standing, breakdown, ranked_by


class GuildhallRule(NumberedRule):
    """The rules of end-states.md, by number, each with the rulebook sections it comes from (002 Old World
    Economy, 003 Job Faire; rule 1's unique names are the format's own: places and `ended_by` name the players)."""

    PLAYERS = 1, N_("002 game info (2-4 players), 003 cover (a game for 2-4 players)")
    PROFESSIONS = 2, "003 Guildhall the First"
    NO_DUPLICATE_CARD = 3, "002/003 Duplicate Dos and Don'ts"
    NO_FULL_CHAPTER_FACE_UP = 4, "002/003 Completed Chapters"
    COMPLETED_CHAPTERS = 5, "002/003 Completed Chapters"
    CARD_COPIES = 6, "002 Game Components, 003 Components; 002/003 Completed Chapters"
    VP_CARDS = 7, "002 Appendix: VP Cards; 002/003 Smaller Games"
    VP_TOKENS = 8, "002/003 Buy 1 VP Card; 003 VP Tokens"
    GAME_END = 9, "002 End of Turn, Game End; 003 End of Turn, End of Game"




#: What the Yucata check of rule 5 on the player who ended the game rests on: no source says it (a warning).
YUCATA_LAST_TURN = Inferred(
    ("completed_chapters",),
    N_("002 says Yucata discards completed chapters beyond 3 only when their owner's turn comes again; whether that "
    "holds for a chapter completed during its owner's own last turn, which ends the game, is not documented"),
    "L")


def vp(player: GuildhallPlayer) -> int | float:
    """A player's VP: the printed values of their VP cards plus their tokens (002/003 End of Turn)."""
    return sum(player.vp_cards) + player.vp_tokens


def professions_in_play(state: GuildhallEndState, catalog: Guildhall) -> tuple[str, ...]:
    """The professions the file says were in play: a set's, a list's, or by default those of the VP set."""
    if state.professions is None:
        return tuple(p.id for p in catalog.professions_of(state.vp_set))
    if isinstance(state.professions, str):
        return tuple(p.id for p in catalog.professions_of(state.professions))
    return tuple(dict.fromkeys(state.professions))


def check(state: GuildhallEndState, catalog: Guildhall, found: Findings) -> Standing:
    """Report every rule the end state breaks (and every warning) to `found`, and say how the game stands."""
    comp = catalog.components
    info = catalog.info
    players = state.players
    colours = tuple(c.id for c in catalog.colours)
    # what messages call a colour: its name in the catalog's language (the rules see the catalog in the language of
    # their messages), never its id
    colour_names = {c.id: c.name for c in catalog.colours}
    # a set, a profession and a colour the rules name besides: as the file writes them, else as it would (by their
    # names in its language, or by their ids: Findings.called)
    set_name = found.written(("vp_set",), state.vp_set,
                             next((s.name for s in catalog.sets if s.id == state.vp_set), state.vp_set))

    # Rule 1. 002 header and 003 cover: Guildhall is a game for 2 to 4 players.
    if not info.players_min <= len(players) <= info.players_max:
        found.add(GuildhallRule.PLAYERS, ("players",),
                  found._("lists {players}; Guildhall is played by {low} to {high}",
                          players=found.ngettext("{n} player", "{n} players", len(players)), low=info.players_min,
                          high=info.players_max))
    # Rule 1. Every player is named once, so that places and `ended_by` can name them.
    seen: dict[str, int] = {}
    for index, player in enumerate(players):
        key = name_key(player.name)
        if not key:
            found.add(GuildhallRule.PLAYERS, ("players", index, "name"), found._("is empty; every player needs a name"),
                      NAMES_IN_FILE)
        elif key in seen:
            found.add(GuildhallRule.PLAYERS, ("players", index, "name"),
                      found._("{name!r} is also the name of players[{other}]; names must be unique",
                              name=player.name, other=seen[key]), NAMES_IN_FILE)
        else:
            seen[key] = index

    # Rule 2. 003 Guildhall the First: six professions are chosen (from either set, or both), or all twelve
    # play together; the cards of the other professions stay in the box.
    in_play = professions_in_play(state, catalog)
    if isinstance(state.professions, tuple):
        counts = Counter(state.professions)
        for index, profession in enumerate(state.professions):
            if counts[profession] > 1 and state.professions.index(profession) < index:
                found.add(GuildhallRule.PROFESSIONS, ("professions", index),
                          found._("names {profession} a second time", profession=found.written(
                              ("professions", index), profession, _profession_name(catalog, profession))))
        every = len(catalog.professions)
        if len(in_play) not in (comp.professions_per_set, every):
            found.add(GuildhallRule.PROFESSIONS, ("professions",),
                      found._("names {professions}; a game has {per_set} in play, or all {every} combined",
                              professions=found.ngettext("{n} profession", "{n} professions", len(in_play)),
                              per_set=comp.professions_per_set, every=every))
    for index, player in enumerate(players):
        for chapter in player.guildhall:
            if chapter.profession not in in_play:
                # the profession as the player wrote it (Händler), the set it comes from and those in play as the
                # catalog names them in the file's language: a German table reads German names, not ids
                place = ("players", index, "guildhall", chapter.profession)
                its_set = next((found.called(s.id, s.name) for p in catalog.professions if p.id == chapter.profession
                                for s in catalog.sets if s.id == p.set), "")
                found.add(GuildhallRule.PROFESSIONS, place,
                          found._("{profession} ({set}) is not in play in this game (in play: {in_play})",
                                  profession=found.written(place, chapter.profession,
                                                           _profession_name(catalog, chapter.profession)),
                                  set=its_set,
                                  in_play=", ".join(found.called(p, _profession_name(catalog, p)) for p in in_play)))

    every_colour = frozenset(colours)
    for index, player in enumerate(players):
        for chapter in player.guildhall:
            path = ("players", index, "guildhall", chapter.profession)
            present = set(chapter.colours)
            # Rule 3. 002/003 Duplicate Dos and Don'ts: a guildhall never holds two cards of the same
            # profession and colour; a duplicate is discarded at once.
            if len(present) != len(chapter.colours):
                doubled = [found.called(c, colour_names.get(c, c)) for c, n in Counter(chapter.colours).items()
                           if n > 1]
                found.add(GuildhallRule.NO_DUPLICATE_CARD, path,
                          found._("holds {cards} more than once; a guildhall never holds two cards of the same "
                                  "profession and colour", cards=found.listing(doubled)))
            # Rule 4. 002/003 Completed Chapters: the fifth colour completes the chapter, which is turned face
            # down at once (even on another player's turn), so no face-up chapter has all five.
            if every_colour <= present:
                found.add(GuildhallRule.NO_FULL_CHAPTER_FACE_UP, path,
                          found._("holds all {colours} colours; a complete chapter is turned face down at once "
                                  "(count it in completed_chapters instead)", colours=len(colours)))

    points = [vp(player) for player in players]
    ender = _ender(state, points, comp.win_vp)

    # Rule 5. 002/003 Completed Chapters: at most 3 are held; a fourth forces a discard down to 3 at once. On
    # Yucata (002) the discard waits for the owner's next turn, so another player's action (a Trader's swap) can
    # leave a player with more than 3 until then: only rule 6 bounds them. The player who ended the game
    # completed theirs on their own last turn, and what Yucata does then is not documented: a warning.
    most = comp.max_completed_chapters
    for index, player in enumerate(players):
        at = ("players", index, "completed_chapters")
        held = player.completed_chapters
        if held < 0 or (held > most and state.variant != "yucata"):
            found.add(GuildhallRule.COMPLETED_CHAPTERS, at,
                      found._("is {held}; a player holds 0 to {most} completed chapters", held=Figure(held), most=most))
        elif held > most and index == ender:
            found.check(GuildhallRule.COMPLETED_CHAPTERS, at,
                        found._("is {held}; {name} ended the game on Yucata holding more than {most} completed "
                                "chapters, which Yucata may have discarded during that last turn", held=Figure(held),
                                name=players[index].name, most=most), YUCATA_LAST_TURN)

    # Rule 6. 002/003 Components: each profession comes in 5 colours and 4 copies of each card (120 cards with six
    # professions). Cards face up and cards in completed chapters all come from that deck, and a completed chapter
    # holds one card of each colour of one profession (002/003 Completed Chapters).
    copies: Counter[tuple[str, str]] = Counter()
    for index, player in enumerate(players):
        for chapter in player.guildhall:
            for colour in chapter.colours:
                copies[chapter.profession, colour] += 1
                if copies[chapter.profession, colour] == comp.copies_per_card + 1:
                    found.add(GuildhallRule.CARD_COPIES, ("players", index, "guildhall", chapter.profession),
                              found._("holds the {colour} {profession}, which makes a {nth} copy face up; only "
                                      "{copies} exist", colour=colour_names.get(colour, colour),
                                      profession=_profession_name(catalog, chapter.profession),
                                      nth=found.ordinal(comp.copies_per_card + 1), copies=comp.copies_per_card))
    chapters = sum(max(0, player.completed_chapters) for player in players)
    sets_left = {p: min(max(0, comp.copies_per_card - copies[p, c]) for c in colours) for p in in_play}
    bound = sum(sets_left.values())
    if chapters > bound:
        left = [f"{_profession_name(catalog, p)} {n}" for p, n in sets_left.items() if n]
        found.add(GuildhallRule.CARD_COPIES, ("players",),
                  found._("hold {chapters} in all; each holds one card of each of the {colours} colours of one "
                          "profession in play, and beside the cards face up the deck has {sets} left",
                          chapters=found.ngettext("{n} completed chapter", "{n} completed chapters", chapters),
                          colours=len(colours),
                          sets=found.ngettext("only {n} such set", "only {n} such sets", bound) if bound
                          else found._("no such set"))
                  + (f" ({found.listing(left)})" if left else ""))

    # Rule 8. 003 VP Tokens, 002/003 VP cards: each token is 1 VP and a VP card is worth its printed number, so a
    # player holds a whole number of tokens and no card is worth less than nothing.
    for index, player in enumerate(players):
        tokens = player.vp_tokens
        if isinstance(tokens, float) and not tokens.is_integer():
            found.add(GuildhallRule.VP_TOKENS, ("players", index, "vp_tokens"),
                      found._("is {tokens}; tokens are counted whole", tokens=Figure(tokens)))
        elif tokens < 0:
            found.add(GuildhallRule.VP_TOKENS, ("players", index, "vp_tokens"),
                      found._("is {tokens}; a player cannot hold fewer than 0 tokens", tokens=Figure(tokens)))
        for position, value in enumerate(player.vp_cards):
            if isinstance(value, float):  # the format reads a whole number written 9.0 as 9: this is a fraction
                found.add(GuildhallRule.VP_TOKENS, ("players", index, "vp_cards", position),
                          found._("is {value}; a VP card is worth the whole number printed on it",
                                  value=Figure(value)))
            elif value < 0:
                found.add(GuildhallRule.VP_TOKENS, ("players", index, "vp_cards", position),
                          found._("is {value}; a VP card is worth 0 or more", value=Figure(value)))

    # Rule 7. 002 Appendix: VP Cards, 003 Guildhall the First: the VP cards come from one set only;
    # 002/003 Smaller Games: a 2- or 3-player game removes two 5s and one of every other card first. Which
    # values a set holds and how many of each rest on the catalog's cards (Job Faire's are inferred, M).
    cards = catalog.vp_cards_of(state.vp_set)
    supply = catalog.vp_supply(state.vp_set, len(players))
    every_value = weakest(c.provenance.of("value") for c in cards)
    bought: Counter[int] = Counter()
    for index, player in enumerate(players):
        for position, value in enumerate(player.vp_cards):
            card = ("players", index, "vp_cards", position)
            if isinstance(value, float) or value < 0:  # rule 8 says so
                continue
            if value not in supply:
                found.check(GuildhallRule.VP_CARDS, card,
                            found._("is {value}; no VP card of {set} is worth that (values: {values})",
                                    value=Figure(value), set=set_name, values=", ".join(str(v) for v in supply)),
                            every_value)
                continue
            bought[value] += 1
            if bought[value] == supply[value] + 1:
                total = sum(1 for p in players for v in p.vp_cards if v == value)
                counted = [field for field in ("value", "copies", "removed_in_small_game")
                           if field != "removed_in_small_game" or len(players) <= 3]
                basis = weakest(c.provenance.of(field) for c in cards if c.value == value for field in counted)
                found.check(GuildhallRule.VP_CARDS, card,
                            found._("is a {nth} VP card worth {value} ({total} bought in all); a {players}-player "
                                    "game of {set} has {copies}", nth=found.ordinal(bought[value]), value=value,
                                    total=total, players=len(players), set=set_name,
                                    copies=found.ngettext("{n} copy", "{n} copies", supply[value])), basis)

    # Rule 9. 002 End of Turn, Game End; 003 End of Turn, End of Game: a player with 20 VP or more at the end of
    # their own turn wins, and VP are gained only on one's own turn, so when the game ends nobody else has 20.
    reached = [index for index, total in enumerate(points) if total >= comp.win_vp]
    named = find_player(state, state.ended_by) if state.ended_by is not None else None
    if state.ended_by is not None and named is None:
        found.add(GuildhallRule.GAME_END, ("ended_by",),
                  found._("{name!r} is not one of the players ({players})", name=state.ended_by,
                          players=", ".join(p.name for p in players) or found._("none")), NAMES_IN_FILE)
    if reached:
        if named is not None and named not in reached:
            found.add(GuildhallRule.GAME_END, ("ended_by",),
                      found._("{name} has {vp} VP; the game ends at the end of the turn of a player with {win} or "
                              "more", name=players[named].name, vp=Figure(points[named]), win=Figure(comp.win_vp)))
        others = [i for i in reached if i != named] if named in reached else reached[1:]
        for index in others:
            found.add(GuildhallRule.GAME_END, ("players", index),
                      found._("{name} has {vp} VP; when the game ends only the player whose turn ended it can "
                              "have {win} or more (anyone else would have won on their own turn)",
                              name=players[index].name, vp=Figure(points[index]), win=Figure(comp.win_vp)))

    # the result's header is read by players: the set and the professions by their names, as the cards print them,
    # never by ids: in the language of the messages (`--lang fr`: Chasseur, whatever the file calls the Hunter), or
    # in English in the language the file names things in (the catalog the rules are given: Bricklayer, Maurer)
    printed: Guildhall = found.said if isinstance(found.said, Guildhall) else catalog
    setting: tuple[tuple[str, str], ...] = (
        (found._("VP cards"), next((s.name for s in printed.sets if s.id == state.vp_set), state.vp_set)),
        (found._("professions"), ", ".join(_profession_name(printed, p) for p in in_play)),
        (found._("players"), str(len(players))))
    if state.variant != "rulebook":
        setting += ((found._("variant"), state.variant),)
    return Standing(finished=bool(reached), setting=setting)


def _ender(state: GuildhallEndState, points: Sequence[float], win_vp: int) -> int | None:
    """The player who ended the game: the one `ended_by` names, else the only player with `win_vp` or more (rule
    9); None for a game in progress, or when the file does not say (then rule 9 reports it)."""
    if state.ended_by is not None:
        return find_player(state, state.ended_by)
    reached = [index for index, total in enumerate(points) if total >= win_vp]
    return reached[0] if len(reached) == 1 else None


def find_player(state: GuildhallEndState, name: str) -> int | None:
    key = name_key(name)
    return next((i for i, p in enumerate(state.players) if name_key(p.name) == key), None)


def rank(state: GuildhallEndState, catalog: Guildhall, lang: Language | None = None) -> Ranking:
    """Score and rank the players of an end state that keeps every rule; the summary in `lang` (English)."""
    say = Words(lang or language())
    win_vp = catalog.components.win_vp
    points = [int(vp(p)) for p in state.players]
    keys = [(points[i], p.completed_chapters) for i, p in enumerate(state.players)]
    ender = _ender(state, points, win_vp)  # rule 9 holds: someone has 20 and ended the game, or nobody has 20
    winner: str | None = None
    if ender is not None and points[ender] >= win_vp:
        winner = state.players[ender].name
        others = [i for i in range(len(keys)) if i != ender]
        places = dict(zip(others, ranked_by([keys[i] for i in others], start=2), strict=True))
        places[ender] = 1
        summary = say._("winner: {winner}, with {vp} VP", winner=winner, vp=Figure(points[ender]))
    else:
        places = dict(enumerate(ranked_by(keys)))
        leader = max(points, default=0)
        summary = say._("game in progress: nobody has {win} VP yet (the most is {leader}), so no winner yet",
                        win=Figure(win_vp), leader=Figure(leader))
    scores = tuple(
        PlayerScore(p.name, points[i], places[i],
                    breakdown((("vp_cards", int(sum(p.vp_cards))), ("vp_tokens", int(p.vp_tokens)))),
                    notes=(("completed_chapters", p.completed_chapters),))
        for i, p in enumerate(state.players))
    return Ranking(scores, winner, summary)


def _profession_name(catalog: Guildhall, profession_id: str) -> str:
    """A profession as messages name it: its name in the catalog's language (Hunter, Chasseur), its id when the
    catalog lacks it."""
    return next((p.name for p in catalog.professions if p.id == profession_id), profession_id)
