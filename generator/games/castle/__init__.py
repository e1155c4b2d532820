"""Once Upon a Castle (Blue Orange): the guests of both versions, the castle score sheet and the scoring of the
sheets of one game by the rules of rulebook 004.

Modules: :mod:`~.catalog` (records and loading), :mod:`~.decks` (the guest cards), :mod:`~.reference` (the card
reference), :mod:`~.end_state` (the end-state format), :mod:`~.rules` (the rules and the ranking), :mod:`~.table`
(entering the format at the table) and :mod:`~.sheets` (the score sheet: its layouts in `templates/sheets/`, drawn and
read by the sheet engine, `generator.sheets`, and their fields mapped to the end state). `GAME` declares the game to
the registry; a module is imported when one of its parts is first needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.games.base import Declared, Game, Modules

if TYPE_CHECKING:
    from generator.games.base import Parts
    from generator.games.castle import catalog, decks, end_state, reference, rules, sheets, table
    from generator.games.castle.catalog import Castle
    from generator.games.castle.end_state import CastleEndState

    _PARTS = Parts[Castle, CastleEndState](catalog, decks, reference, end_state, rules, table, sheets, sheets)

#: The titles of the game's editions in other languages, which their players write in `game:`: the French edition's,
#: on its box and on donjon's French sheets (game-facts 2, H; game.yaml's `fr` name).
TITLES = ("Oh mon château",)
#: The catalogs a deck of the game can draw its cards from (game.yaml `decks[].cards`).
DECK_SOURCES: tuple[str, ...] = ("guests",)

GAME: Game[Castle, CastleEndState] = Declared(
    "once-upon-a-castle", "Once Upon a Castle", deck_sources=DECK_SOURCES, schema_prefix="castle",
    modules=Modules(catalog=f"{__name__}.catalog", decks=f"{__name__}.decks", reference=f"{__name__}.reference",
                    end_state=f"{__name__}.end_state", rules=f"{__name__}.rules", table=f"{__name__}.table",
                    score_sheets=f"{__name__}.sheets", filled_sheets=f"{__name__}.sheets"),
    # filled score sheets: the fillable PDF donjon prints, and photos of the scan-ready sheet (JPEG, PNG, HEIC)
    sheet_suffixes=(".pdf", ".jpg", ".jpeg", ".png", ".heic", ".heif"), titles=TITLES)
