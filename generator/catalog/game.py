"""A game's `game.yaml`: the game (names, players, publisher, rulebooks) and the decks donjon prints of it.

Only game folders have one; a deck of the user's own (`deck.yaml`) does not, so building it imports none of this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.catalog.common import (
    CARD_SIZE,
    CardSize,
    Inferred,
    Provenance,
    Translation,
    make_translations,
    provenance_fields,
    report_duplicates,
    resolve_card_size,
    translations_field,
)
from generator.catalog.shapes import SHAPE, Shape
from generator.fields import Checker, Choice, Field, Int, ListOf, Record, Slug, Text
from generator.i18n import N_
from generator.yamlio import PathKey


@dataclass(frozen=True, slots=True)
class Rulebook:
    id: str
    title: str


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """A printable deck a game declares: its id and name, the layouts of its faces and back, its card size,
    and which catalog entries become its cards (`cards`, optionally narrowed to one `set`)."""

    id: str
    name: str
    layout: str
    back: str
    card_size: CardSize
    cards: str
    set: str | None
    #: the outline the pieces are cut along (None: the card's rectangle)
    shape: Shape | None = None
    #: its name in other languages (generator.catalog.translations)
    translations: Mapping[str, Translation] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    name: str
    players_min: int
    players_max: int
    publisher: str
    rulebooks: tuple[Rulebook, ...]
    decks: tuple[DeckSpec, ...]
    #: where the player count comes from (a box or rulebook, or an inference: marked where it is printed)
    players_provenance: Provenance = Provenance(None, ())
    #: its name in other languages (a title an edition in that language is sold under)
    translations: Mapping[str, Translation] = field(default_factory=dict, hash=False)
    #: the language the catalog holding it was localised to (generator.catalog.translations)
    lang: str = "en"


@dataclass(frozen=True, slots=True)
class PlayerCount:
    min: int
    max: int
    provenance: Provenance = Provenance(None, ())


def _player_count(min: int, max: int, rulebook: str | None = None,  # noqa: A002 - the keys of game.yaml
                  inferred: tuple[Inferred, ...] = ()) -> PlayerCount:
    return PlayerCount(min, max, Provenance(rulebook, inferred or ()))


@dataclass(frozen=True, slots=True)
class GameHeader:
    """The `game:` part of a game.yaml."""

    id: str
    name: str
    players: PlayerCount
    publisher: str
    rulebooks: tuple[Rulebook, ...]
    translations: Mapping[str, Translation] = field(default_factory=dict, hash=False)


def deck_spec(id: str, name: str, layout: str, back: str, card_size: str | CardSize, cards: str,  # noqa: A002
              set: str | None, shape: Shape | None = None,  # noqa: A002 - the keys of game.yaml
              translations: Mapping[str, Any] | None = None) -> DeckSpec:
    return DeckSpec(id, name, layout, back, resolve_card_size(card_size), cards, set, shape,
                    make_translations(translations))


def game_header(id: str, name: str, players: PlayerCount, publisher: str,  # noqa: A002 - the keys of game.yaml
                rulebooks: tuple[Rulebook, ...], translations: Mapping[str, Any] | None = None) -> GameHeader:
    return GameHeader(id, name, players, publisher, rulebooks, make_translations(translations))


def game_info(game: GameHeader, decks: tuple[DeckSpec, ...]) -> GameInfo:
    return GameInfo(game.id, game.name, game.players.min, game.players.max, game.publisher, game.rulebooks, decks,
                    game.players.provenance, game.translations)


def _name_translations(**more: Field) -> Field:
    """A game's or deck's name (and `more` of its texts) in other languages, each saying where it comes from."""
    found = translations_field({"name": Field(Text(max_len=120)), **more})
    assert found is not None  # a name is text: it has translations
    return found


_NAME_TRANSLATIONS = _name_translations()
#: a game's name and its publisher line in other languages (the line may say more than names: "German edition")
_GAME_TRANSLATIONS = _name_translations(publisher=Field(Text(max_len=200)))


def game_spec(game_ids: tuple[str, ...], deck_sources: tuple[str, ...],
              sets: tuple[str, ...] | None = None) -> Record[GameInfo]:
    """The `game.yaml` of one game: `game_ids` are the games donjon knows, `deck_sources` the catalogs the game's
    decks can draw cards from, `sets` the sets a deck may be narrowed to (None: any id, for the schema)."""
    deck: Record[DeckSpec] = Record(
        name="deck",
        fields={
            "id": Field(Slug(), doc="the deck's id, used in file names and `donjon build GAME/DECK`"),
            "name": Field(Text(max_len=120), doc="the deck's name as printed"),
            "layout": Field(Slug(), doc="the layout of the card faces (templates/layouts/ID.yaml)"),
            "back": Field(Slug(), doc="the layout of the card backs"),
            "card_size": Field(CARD_SIZE, required=False, default="poker"),
            "shape": Field(SHAPE, required=False),
            "cards": Field(Choice(deck_sources, what="card source"), doc="the catalog the cards come from"),
            "set": Field(Choice(sets or (), what="set") if sets else Slug(), required=False,
                         doc="only the entries of this set"),
            "translations": _NAME_TRANSLATIONS,
        },
        build=deck_spec,
    )
    rulebook: Record[Rulebook] = Record(
        name="rulebook",
        fields={"id": Field(Text(max_len=40)), "title": Field(Text(max_len=200))},
        build=Rulebook,
    )
    game: Record[GameHeader] = Record(
        name="game",
        fields={
            "id": Field(Choice(game_ids, what="game")),
            "name": Field(Text(max_len=80)),
            "players": Field(Record(name="player count", fields={
                "min": Field(Int(1, 10)), "max": Field(Int(1, 10)),
                # optional here (most boxes print their player count): a count no rulebook states says so
                **provenance_fields()}, build=_player_count)),
            "publisher": Field(Text(max_len=200)),
            "rulebooks": Field(ListOf(rulebook, min_items=1)),
            "translations": _GAME_TRANSLATIONS,
        },
        build=game_header,
    )

    def unique_decks(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        report_duplicates(values["decks"], lambda d: d.id, (*path, "decks"), ck, N_("repeats the deck id {value}{at}"))

    return Record(
        name="game file",
        fields={"game": Field(game), "decks": Field(ListOf(deck, label="id"))},
        rules=(unique_decks,),
        build=game_info,
    )
