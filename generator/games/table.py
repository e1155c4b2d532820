"""How a game's end-state format is presented at the table (`donjon serve`): the types of a game's table hints.

The companion's forms are built by walking a game's end-state format (`generator.fields`: Record, ListOf, MapOf,
Choice, Int, Bool...). A format says what a value is, not how a player at a table enters it best; a game's
:class:`TableHints` (its package's `table.py`, reached through its `GAME.table_hints()`) add that, as data: which
list of the format holds the players' parts, which fields are chosen when the table is set, and for a few fields
a better control than the generic one. Choices are read from the game's catalog by small functions, so a
corrected catalog (`--content`) changes them too. Nothing in `generator/web/` names a game's field.

Labels, helps and titles are marked `N_()` and said in the table's language by the companion; choices come from
the catalog in that language (the companion gives a localised one), and a choice function finds the language
itself under `options["_lang"]` (:func:`in_language`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.i18n import N_, language

#: (value, label) pairs offered by a control, read from the catalog and the table's options.
Choices = list[tuple[str, str]]
#: catalog, table options -> choices
ChoiceSource = Callable[[Any, Mapping[str, Any]], Choices]
#: catalog, table options -> a bound
BoundSource = Callable[[Any, Mapping[str, Any]], int | None]


@dataclass(frozen=True)
class TableControl:
    """A control better than the format's generic one for one field.

    kind: `grid` (a mapping of row -> list of columns, as checkboxes), `tap` (a list of numbers, entered by tapping
    the values that exist), `pick` (a list of names, each picked at most once), `count` (a whole number with - and
    + buttons), `tiles` (Guédelon's `built`: tiles per building, or all), `player` (one of the table's players).
    """

    kind: str
    #: what can be picked or tapped (`grid`: the columns)
    choices: ChoiceSource | None = None
    #: the rows of a `grid`
    rows: ChoiceSource | None = None
    #: colours to show beside `grid` columns, by value
    swatches: Callable[[Any], Mapping[str, str]] | None = None
    low: BoundSource | None = None
    high: BoundSource | None = None
    #: most items of a list control
    most: BoundSource | None = None
    #: small print under the control, e.g. that the values offered are not from a rulebook
    note: Callable[[Any, Mapping[str, Any]], str] | None = None
    #: a `player` control naming whose turn ended the game: the score from which a player can be the one (for
    #: Guildhall, the VP that end it). While it is empty and several players have that score, the table is asked
    #: whose turn it was: the scorer cannot tell, and the answer says whose part is wrong
    ask_from: BoundSource | None = None


@dataclass(frozen=True)
class TableHints:
    #: the list of the format whose items are the players' parts; None for a cooperative game (one team part)
    parts: str | None
    #: the key of a part that names its player
    part_name: str = "name"
    #: fields of the whole game chosen when the table is set (in this order)
    options: tuple[str, ...] = ()
    #: fields of the whole game entered at the table by anyone (after the parts)
    shared: tuple[str, ...] = ()
    #: a cooperative game's option that is the number of names in the team
    team_size: str | None = None
    #: controls by field path within a part, a shared field or an option (`walls.flags` for every wall's flags)
    widgets: Mapping[str, TableControl] = field(default_factory=dict)
    #: labels of fields, by name (otherwise the field's name, in words)
    labels: Mapping[str, str] = field(default_factory=dict)
    #: a game's own labels of its fields in a language (a `Language`), by name, over `labels` and never looked up
    #: in donjon's catalogs: a sheet of one's own labels its fields in its sheet.yaml, in each language it gives
    labels_in: Callable[[Any], Mapping[str, str]] | None = None
    #: the names of a result's breakdown keys that name catalog entries (`guest:queen`: the guest's name), read
    #: from the catalog (in the table's language) with words in that language (`lang`, a `Language`) for keys
    #: that hold a number (`guest:2`: an Apprentice's guest of floor 2); other keys are named by `labels`, else in
    #: words
    entry_labels: Callable[[Any, Any], Mapping[str, str]] | None = None
    #: what one item of a list of records is called in a sentence, by field ("wall": "Add wall", "wall 1");
    #: otherwise its label, less an English plural's s, in lower case
    item_labels: Mapping[str, str] = field(default_factory=dict)
    #: a game's own words for one item of a list field and for several, in a language (a `Language`), by field
    #: (`goods`: ("good", "goods")), never looked up in donjon's catalogs: a sheet of one's own's `item_words`. Its
    #: label names the whole list ("Goods traded"), never one item
    item_words_in: Callable[[Any], Mapping[str, tuple[str, str]]] | None = None
    #: help under a control, by field, where the format's own description speaks of the file rather than the form
    helps: Mapping[str, str] = field(default_factory=dict)
    #: the value a new part starts with, by field (otherwise 0, false, an empty list or mapping)
    initial: Mapping[str, Any] = field(default_factory=dict)
    #: choices of an option whose format type offers none directly (a set, or a list)
    option_choices: Mapping[str, ChoiceSource] = field(default_factory=dict)
    #: the heading of the form of the shared fields
    shared_title: str = N_("The end of the game")
    #: its Undo, which names that form as its heading does (Guédelon's shared form is the whole castle: its Undo
    #: said "the end of the game" under the heading "The castle")
    shared_undo: str = N_("Undo the last change to the end of the game")
    #: a player may upload their filled score sheet (PDF) instead of typing their part
    sheet_upload: bool = False
    #: the parts are in seat order, first player first (BG Stats' `startPlayer`)
    seat_order: bool = False
    #: the highest score wins (False: Guédelon's score is the rounds taken, fewer is better)
    highest_wins: bool = True
    #: BoardGameGeek's id of the game, where a rulebook prints it (for BG Stats); None otherwise
    bgg_id: int | None = None


def result_labels(hints: TableHints, catalog: Any, lang: Any) -> dict[str, str]:
    """How a result's breakdown names its parts, in `lang` (a :class:`generator.i18n.Language`): the form's labels
    translated, and the catalog's names of the entries it scores (`catalog` in that language)."""
    out = {key: str(lang._(label)) for key, label in hints.labels.items()}
    if hints.entry_labels is not None:
        out.update(hints.entry_labels(catalog, lang))
    return out


def in_language(options: Mapping[str, Any]) -> Any:
    """The language a table's choices are said in (`options["_lang"]`, which the companion sets), else English."""
    return options.get("_lang") or language()


def not_official(provenance: Any, name: str, options: Mapping[str, Any]) -> str:
    inferred = provenance.of(name)
    if inferred is None:
        return ""
    lang = in_language(options)
    said: str = lang._("These values are not printed in the rulebook (confidence {confidence}): {source}")
    return said.format(confidence=inferred.confidence, source=inferred.source)
