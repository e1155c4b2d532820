"""The Guildhall end-state format (`docs/end-states.md`): its typed records and the spec that checks a
file against it, with the names the catalog in use knows.

A file that does not fit this format cannot be scored (exit 2, every problem listed); a file that fits it is
judged by the rules (:mod:`generator.games.guildhall.rules`). Bounds here are loose where a rule has the final word.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.fields import AnyOf, Field, ListOf, MapOf, Nullable, Record, Text
from generator.games.guildhall import TITLES
from generator.games.guildhall.catalog import Guildhall
from generator.i18n import N_
from scoring.formats import LONGEST, Quantity, game_key, names, number


@dataclass(frozen=True, slots=True)
class Chapter:
    """A face-up chapter: the colours of one profession present in a guildhall, as listed."""

    profession: str
    colours: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GuildhallPlayer:
    name: str
    guildhall: tuple[Chapter, ...]
    completed_chapters: int
    #: numbers; rule 8 requires whole ones, zero or more
    vp_cards: tuple[int | float, ...]
    #: a number; rule 8 requires a whole one, zero or more
    vp_tokens: int | float


#: How a game was played: by the rulebooks, or on Yucata (which discards extra completed chapters late).
VARIANTS = ("rulebook", "yucata")


@dataclass(frozen=True, slots=True)
class GuildhallEndState:
    vp_set: str
    #: a set id, the list of professions in play, or None for the professions of `vp_set`
    professions: str | tuple[str, ...] | None
    #: in seat order, first player first
    players: tuple[GuildhallPlayer, ...]
    ended_by: str | None
    #: `rulebook` or `yucata` (002: Yucata discards a fourth completed chapter only on its owner's next turn)
    variant: str = "rulebook"


def _player(name: str, guildhall: dict[str, tuple[str, ...]], completed_chapters: int,
            vp_cards: tuple[int | float, ...], vp_tokens: int | float) -> GuildhallPlayer:
    return GuildhallPlayer(name, tuple(Chapter(p, c) for p, c in guildhall.items()), completed_chapters, vp_cards,
                           vp_tokens)


def _end_state(game: str, vp_set: str, variant: str, professions: str | tuple[str, ...] | None,
               players: tuple[GuildhallPlayer, ...], ended_by: str | None) -> GuildhallEndState:
    return GuildhallEndState(vp_set, professions, players, ended_by, variant)


def spec(catalog: Guildhall) -> Record[GuildhallEndState]:
    sets = catalog.sets
    professions = catalog.professions
    colours = catalog.colours
    lang = catalog.info.lang
    player: Record[GuildhallPlayer] = Record(
        name="player",
        fields={
            "name": Field(Text(min_len=0, max_len=200, drawn=False), doc=N_("the player's name, unique in the game")),
            "guildhall": Field(MapOf(names(professions, N_("profession"), lang=lang),
                                     ListOf(names(colours, N_("colour"), lang=lang), max_items=LONGEST),
                                     max_items=LONGEST),
                               doc=N_("the face-up chapters: profession -> the colours present")),
            "completed_chapters": Field(number(), doc=N_("face-down completed chapters held: 0 to 3")),
            "vp_cards": Field(ListOf(Quantity(), max_items=LONGEST),
                              doc=N_("the printed value of each VP card bought")),
            "vp_tokens": Field(Quantity(), doc=N_("VP tokens held: a whole number, zero or more")),
        },
        build=_player,
    )
    return Record(
        name="Guildhall end state",
        doc="A finished (or stopped) game of Guildhall, for `donjon score`.",
        fields={
            "game": game_key("guildhall", TITLES),
            "vp_set": Field(names(sets, N_("set"), lang=lang), doc=N_("the set whose VP cards were used")),
            "variant": Field(names(VARIANTS, N_("variant")), required=False, default="rulebook",
                             doc="rulebook (default), or yucata for games played on Yucata, where a fourth completed "
                                 "chapter is discarded only on its owner's next turn"),
            "professions": Field(
                AnyOf((names(sets, N_("set"), lang=lang),
                       ListOf(names(professions, N_("profession"), lang=lang), max_items=LONGEST)),
                      what=N_("a set name or a list of professions")),
                required=False,
                doc="the professions in play: a set name, or a list of six or of all twelve; default: those of vp_set"),
            "players": Field(ListOf(player, max_items=LONGEST), doc=N_("in seat order, first player first: 2 to 4")),
            "ended_by": Field(Nullable(Text(min_len=0, max_len=200, drawn=False)), required=False,
                              doc=N_("the player whose turn had just ended when the game stopped")),
        },
        build=_end_state,
    )
