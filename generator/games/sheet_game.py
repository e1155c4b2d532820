"""A sheet of one's own (`generator.sheets.own`) as a game donjon knows: registered while its content folder is in
use, so that everything a game gets, it gets: `donjon build` writes its sheets, `donjon score` reads them (or a
YAML end state of it) and scores them by its own rules, and the table companion opens a table for it.

Its end state is `game: ID` and `sheets:`, one entry per player: `player` and the value of each field of the
layout (a text, true/false, a whole number within what its marks record, a choice, a list of item ids). Its one
rule: as many sheets as the sheet's `players` say. Its score: the categories of its `scoring:` (none: the values
are only read).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.games.base import ScoreSheetFile, SheetOptions, scan_what
from generator.i18n import phrase
from generator.render.imposition import PAPER_NAMES

if TYPE_CHECKING:
    from generator.catalog.deck import Card
    from generator.catalog.game import DeckSpec, GameInfo
    from generator.catalog.reader import CatalogReader
    from generator.fields import Record, Type
    from generator.games.table import TableHints
    from generator.i18n import Language
    from generator.reference.document import Block
    from generator.reference.sources import Sources
    from generator.sheets.draw import DrawnSheet
    from generator.sheets.own import UserSheet
    from generator.sheets.read import FilledSheets, SheetKind
    from scoring.findings import Findings
    from scoring.result import Ranking, Standing

#: The bounds of a count or number field no mark bounds (a sheet's marks record every field it reads, so this is
#: the fallback of a layout content check would refuse): far past any game, short of numbers a person cannot read.
COUNT_MOST = 1_000_000
#: Files that hold filled sheets: the fillable PDF, and photos of the scan-ready sheet.
SHEET_SUFFIXES = (".pdf", ".jpg", ".jpeg", ".png", ".heic", ".heif")


@dataclass(frozen=True)
class SheetCatalog:
    """What donjon holds of a sheet of one's own: the game it stands for, and the sheet."""

    info: GameInfo
    sheet: UserSheet


def catalog_of(sheet: UserSheet) -> SheetCatalog:
    from generator.catalog.common import Provenance
    from generator.catalog.game import GameInfo

    low, high = sheet.players
    return SheetCatalog(GameInfo(sheet.id, sheet.name, low, high, "", (), (), Provenance(None, ()), lang=sheet.lang),
                        sheet)


def _zero(catalog: Any, options: Mapping[str, Any]) -> int:
    return 0


def file_name(sheet: UserSheet, paper: str, fillable: bool) -> str:
    """`ID-PAPER[-fillable]`, without its suffix."""
    return f"{sheet.id}-{paper}{'-fillable' if fillable else ''}"


class SheetGame:
    """A sheet of one's own as a game (the `Game` protocol of generator.games.base)."""

    deck_sources: tuple[str, ...] = ()
    sheet_suffixes: tuple[str, ...] = SHEET_SUFFIXES
    titles: tuple[str, ...] = ()  # a sheet of one's own is named by its id or its name

    def __init__(self, sheet: UserSheet) -> None:
        self.sheet = sheet
        self.id = sheet.id
        self.name = sheet.name
        self.schema_prefix = f"sheet-{sheet.id}"
        self._drawn: dict[tuple[str, str, str], DrawnSheet] = {}

    # --- the catalog ---

    def catalog_type(self) -> type[SheetCatalog]:
        return SheetCatalog

    def load(self, reader: CatalogReader) -> SheetCatalog | None:
        reader.fail("game.yaml", (), "a sheet of your own is a folder with a sheet.yaml, not a game folder")
        return None

    def summary(self, catalog: SheetCatalog) -> Mapping[str, int | str]:
        return {"fields": len(catalog.sheet.layout.fields), "scoring categories": len(catalog.sheet.scoring)}

    def catalog_schemas(self) -> Mapping[str, tuple[str, Type[Any]]]:
        return {}

    # --- what is printed ---

    def cards(self, catalog: SheetCatalog, deck: DeckSpec) -> Iterable[Card]:
        return ()

    def reference(self, catalog: SheetCatalog, sources: Sources) -> list[Block]:
        return []  # a sheet has no cards: no reference

    def drawn(self, variant: str, paper: str, lang: str | None = None) -> DrawnSheet:
        """The sheet drawn for `variant` on `paper`, in `lang` (default: its own language)."""
        from generator.i18n import language
        from generator.sheets.draw import draw_sheet

        sheet = self.sheet
        code = lang or sheet.lang
        key = (variant, paper, code)
        if key not in self._drawn:
            name, layout, values = sheet.in_language(code)
            self._drawn[key] = draw_sheet(layout, variant, paper, values, file_name(sheet, paper, False), name,
                                          language(code))
        return self._drawn[key]

    def score_sheets(self, catalog: SheetCatalog) -> Sequence[ScoreSheetFile]:
        """For each paper of its layout: the scan-ready sheet to print with its map of marks, and the fillable
        one."""
        from functools import partial

        from generator.i18n import language

        sheet = catalog.sheet
        lang = language(catalog.info.lang)
        name = sheet.in_language(lang.code)[0]
        title = lang._("{game}: score sheet").format(game=name)
        scan_ready, fillable = lang._("scan-ready"), lang._("fillable")
        found = []
        for paper in sheet.layout.papers:
            # what the build's report says, in the language of its messages (`build --lang fr`)
            what = phrase("{name} sheet, {paper}", name=sheet.name, paper=phrase(PAPER_NAMES[paper]))
            paper_name = lang._(PAPER_NAMES[paper])
            found.append(ScoreSheetFile(
                file_name(sheet, paper, False), f"{title} ({paper_name}, {scan_ready})",
                lang._("a score sheet by donjon; fill its marks and score a photo of it with `donjon score --sheet`"),
                scan_what(what), partial(self._page, "scan", paper, lang.code),
                ((".marks.json", phrase("{what}: its map of marks", what=what), partial(self._map_json, paper)),),
                lang.code, svg=True))
            found.append(ScoreSheetFile(
                file_name(sheet, paper, True), f"{title} ({paper_name}, {fillable})",
                lang._("a score sheet by donjon; score it filled in with `donjon score --sheet`"),
                phrase("{what}, fillable", what=what), partial(self._page, "fillable", paper, lang.code),
                lang=lang.code))
        return found

    def _page(self, variant: str, paper: str, lang: str) -> Any:
        return self.drawn(variant, paper, lang).page()

    def _map_json(self, paper: str) -> bytes:
        found = self.drawn("scan", paper).map
        assert found is not None
        return found.to_json()

    # --- scoring ---

    def fields(self, catalog: SheetCatalog) -> list[tuple[str, str]]:
        """The fields read back (name, type), in the layout's order."""
        return [(f.name, f.type) for f in self.drawn("fillable", catalog.sheet.layout.papers[0]).fields if f.read]

    def names_of(self, name: str) -> dict[str, str]:
        """The names of a choice field's values or a list field's items in every language the sheet is given in
        (folded, `generator.fields.normalise_name`) -> the value: a German player types "Sommer" in the German
        fillable sheet, as its bubble says, and the end state holds `summer`. The sheet's own language first, a
        name that is another value's in an earlier language left to that one."""
        from generator.fields import normalise_name

        found: dict[str, str] = {}
        paper = self.sheet.layout.papers[0]
        for code in dict.fromkeys((self.sheet.lang, *self.sheet.languages)):
            drawn = self.drawn("fillable", paper, code)
            for value, word in (*drawn.choice_names.get(name, ()), *drawn.items.get(name, ())):
                found.setdefault(normalise_name(word), value)
        return found

    def value_names(self, lang: str) -> dict[str, dict[str, str]]:
        """The names of its choice fields' values and its list fields' items in language `lang` (its own where
        that language gives none), by field (id -> name): what people are told of a value the end state holds by
        id (`ete` is "Sommer" in German)."""
        drawn = self.drawn("fillable", self.sheet.layout.papers[0], lang)
        return {name: dict(pairs) for name, pairs in (*drawn.choice_names.items(), *drawn.items.items())}

    def values_shown(self, lang: str) -> dict[str, dict[str, str]]:
        """Its choices' values and its lists' items as a message lists them to a player, in language `lang`, by
        field (id -> words): by the name the sheet prints (`Blé`), the id beside where typing the name is not
        typing the id (`Seeleute (sailors)`); both are taken."""
        from generator.fields import named_value

        return {name: {value: named_value(value, word) for value, word in pairs.items()}
                for name, pairs in self.value_names(lang).items()}

    def recorded(self, catalog: SheetCatalog) -> dict[str, int]:
        """The largest whole number each count or number field's marks record on the scan-ready sheet (six bubbles:
        6; two digits: 99), by field, the largest of its papers: an end state holding more is a game the sheet could
        not have recorded, refused as `--set` refuses it (generator.sheets.marks.largest). A field marked otherwise
        (a number by bubbles of its values) is not here: see :meth:`marked`."""
        from generator.sheets.marks import largest

        found: dict[str, int] = {}
        for paper in catalog.sheet.layout.papers:
            mark_map = self.drawn("scan", paper).map
            if mark_map is None:
                continue
            for name, kind in mark_map.types.items():
                most = largest(mark_map, name) if kind in ("count", "number") else None
                if most is not None:
                    found[name] = max(found.get(name, 0), most)
        return found

    def marked(self, catalog: SheetCatalog) -> dict[str, tuple[int, ...]]:
        """The numbers each number field marked by bubbles of its values can take (2, 4 or 6), those of all its
        papers, by field: an end state holding another is a game the sheet could not have recorded, refused as
        `--set` refuses it (generator.sheets.marks.marked_numbers)."""
        from generator.sheets.marks import marked_numbers

        found: dict[str, tuple[int, ...]] = {}
        for paper in catalog.sheet.layout.papers:
            mark_map = self.drawn("scan", paper).map
            if mark_map is None:
                continue
            for name in mark_map.types:
                numbers = marked_numbers(mark_map, name)
                if numbers is not None:
                    found[name] = tuple(dict.fromkeys((*found.get(name, ()), *numbers)))
        return found

    def end_state(self, catalog: SheetCatalog) -> Record[dict[str, Any]]:
        from generator.fields import Bool, Choice, Field, Int, ListOf, Nullable, Record, Text
        from scoring.formats import game_key

        drawn = self.drawn("fillable", catalog.sheet.layout.papers[0])
        shown = self.values_shown(catalog.info.lang)  # a value refused lists the values as the sheet prints them
        fields: dict[str, Field] = {"player": Field(Text(max_len=80, drawn=False), doc="the player's name")}
        recorded, marked = self.recorded(catalog), self.marked(catalog)
        for name, kind in self.fields(catalog):
            if name == "player":
                continue
            if kind == "text":
                fields[name] = Field(Text(min_len=0, max_len=400, drawn=False), required=False, default="")
            elif kind == "yes-no":
                fields[name] = Field(Bool(), required=False, default=False)
            elif kind == "count":
                fields[name] = Field(Int(0, recorded.get(name, COUNT_MOST)), required=False, default=0)
            elif kind == "number":
                low, high = (0, recorded[name]) if name in recorded else (-COUNT_MOST, COUNT_MOST)
                among = marked.get(name)
                if among:  # its bubbles' numbers: the companion's stepper runs from the least to the most
                    low, high = min(among), max(among)
                fields[name] = Field(Nullable(Int(low, high, among=among)), required=False)
            elif kind == "choice" and _numbers(drawn.choices.get(name, ())):
                # a choice of numbers (`values: [1, 2, 3]`) holds the number, as a photo of its bubbles reads it
                # and a filled PDF gives it: as text choices, 2 was refused ("expected one of 1, 2, 3, got 2")
                numbers = tuple(int(v) for v in drawn.choices[name])
                fields[name] = Field(Nullable(Int(min(numbers), max(numbers), among=numbers)), required=False)
            elif kind == "choice":
                choices = tuple(str(v) for v in drawn.choices.get(name, ()))
                fields[name] = Field(Nullable(Choice(choices, loose=True, what=f"{name} value",
                                                     aliases=self.names_of(name), shown=shown.get(name))),
                                     required=False)
            else:
                items = tuple(i for i, _ in drawn.items.get(name, ()))
                # an item is named by its sheet's word for one ("unknown good 'gold'"), in the catalog's language
                what = catalog.sheet.item_word(name, catalog.info.lang)
                # and so is the list, where it holds too many ("has 9 goods"), where the sheet gives item words
                words = catalog.sheet.item_words_in(catalog.info.lang).get(name)
                fields[name] = Field(ListOf(Choice(items, loose=True, what=what, aliases=self.names_of(name),
                                                   shown=shown.get(name)),
                                            max_items=len(items), items=words), required=False, default=())
        player: Record[dict[str, Any]] = Record(name=f"{self.name} sheet", fields=fields)
        return Record(name=f"{self.name} end state", fields={
            "game": game_key(self.id), "sheets": Field(ListOf(player, min_items=1, max_items=100)),
        })

    def check(self, state: dict[str, Any], catalog: SheetCatalog, found: Findings) -> Standing:
        from scoring.result import Standing

        sheet = catalog.sheet
        sheets = state["sheets"]
        low, high = sheet.players
        # Rule 1: a game has as many sheets as the sheet's `players` say, one per player.
        if not low <= len(sheets) <= high:
            found.add(1, ("sheets",), found.ngettext("holds {n} sheet; {sheet} is for {low} to {high} players",
                                                     "holds {n} sheets; {sheet} is for {low} to {high} players",
                                                     len(sheets), sheet=sheet.name, low=low, high=high))
        return Standing(True, ((found._("sheets"), str(len(sheets))),))

    def rank(self, state: dict[str, Any], catalog: SheetCatalog, lang: Language | None = None) -> Ranking:
        from generator.sheets.own import points, values_of
        from scoring.result import PlayerScore, Ranking, ranked_by

        sheet = catalog.sheet
        sheets = state["sheets"]
        names = [name for name, _ in self.fields(catalog) if name != "player"]
        items = [points(sheet, record) for record in sheets]
        totals = [sum(p for _, p in item) for item in items]
        places = ranked_by([(t,) for t in totals])
        firsts = [i for i, place in enumerate(places) if place == 1]
        winner = sheets[firsts[0]]["player"] if sheet.scoring and len(firsts) == 1 else None
        from generator.i18n import language
        from generator.sayings import Words

        say = Words(lang or language())
        best = say.ngettext("{n} point", "{n} points", totals[firsts[0]]) if firsts else ""
        if not sheet.scoring:
            summary = say._("the values read (the sheet declares no scoring)")
        elif winner is not None:
            summary = say._("winner: {winner}, with {points}", winner=winner, points=best)
        else:
            summary = say._("no winner: {players} tie for first with {points}",
                            players=say.listing([sheets[i]["player"] for i in firsts]), points=best)
        labels = tuple((name, label) for name, label in sheet.labels_in(catalog.info.lang).items() if name in names)
        # the values the table shows by their names (the JSON keeps the ids, as the end state does)
        named = tuple((name, tuple(pairs.items())) for name, pairs in self.value_names(catalog.info.lang).items()
                      if name in names)
        scores = tuple(PlayerScore(record["player"], totals[i], places[i], items[i], values=values_of(record, names),
                                   labels=labels, names=named, lang=catalog.info.lang)
                       for i, record in enumerate(sheets))
        return Ranking(scores, winner, summary)

    def kind(self) -> SheetKind:
        from functools import partial

        from generator.i18n import INTERFACE
        from generator.sheets.read import SheetKind

        def printed_in() -> list[tuple[str, Callable[[str, str], DrawnSheet]]]:
            # it may be printed in any language it gives words for, or donjon speaks (`donjon build --lang`: donjon's
            # own words on it change too): a photo is compared with the print it shows (photo_marks.printed_language)
            codes = dict.fromkeys([*self.sheet.languages, *INTERFACE])
            return [(code, partial(self.drawn, lang=code)) for code in codes if code != self.sheet.lang]

        return SheetKind(self.sheet.layout, self.drawn, f"{self.id}-PAPER.pdf", self.names_of, printed_in,
                         self.sheet.lang)

    def read_sheets(self, files: Sequence[tuple[bytes, str]], catalog: SheetCatalog,
                    options: SheetOptions | None = None) -> FilledSheets:
        from generator.sheets.read import read_filled

        fields = self.fields(catalog)

        def to_data(read: Mapping[str, Any], where: Mapping[str, tuple[str, ...]]
                    ) -> tuple[dict[str, Any], dict[str, tuple[str, ...]]]:
            data: dict[str, Any] = {}
            origin: dict[str, tuple[str, ...]] = {"": ()}
            for name, _ in fields:
                if name == "player" or name not in read:
                    continue
                value = read[name]
                data[name] = list(value) if isinstance(value, (list, tuple)) else value
                origin[name] = where.get(name, (name,))
                if isinstance(value, (list, tuple)):
                    for index in range(len(value)):
                        origin[f"{name}[{index}]"] = where.get(f"{name}[{index}]", origin[name])
            return data, origin

        def document(sheets: Sequence[Any]) -> dict[str, Any]:
            return {"game": self.id, "sheets": [s.data for s in sheets]}

        # its fields are named to people by the labels its sheet.yaml gives them (in the language of `--lang` where
        # it is not English: "Frappé par la tempête", as the companion's French page does; else in the sheet's
        # own), its values by their names (in the sheet's language: the reader's English sentences name them)
        options = options or SheetOptions()
        said = options.lang.code if options.lang is not None and not options.lang.english else catalog.info.lang
        return read_filled(files, [self.kind()], options, to_data, document, catalog.sheet.labels_in(said),
                           self.value_names(catalog.info.lang))

    # --- at the table ---

    def _items(self, name: str, catalog: Any, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The items (id, name) a list field offers at the table, named in the catalog's language: the table asks
        with the catalog localised to the phone's (its GameInfo says which), and the sheet gives its names in that
        language under `languages:` (its own where it gives none)."""
        info = getattr(catalog, "info", None)
        lang = getattr(info, "lang", None) or self.sheet.lang
        return list(self.drawn("fillable", self.sheet.layout.papers[0], lang).items.get(name, ()))

    def _values(self, name: str, catalog: Any, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The values (value, name) a choice field offers at the table, named in the catalog's language (as
        :meth:`_items`)."""
        info = getattr(catalog, "info", None)
        lang = getattr(info, "lang", None) or self.sheet.lang
        return list(self.drawn("fillable", self.sheet.layout.papers[0], lang).choice_names.get(name, ()))

    def table_hints(self) -> TableHints:
        from functools import partial

        from generator.games.table import TableControl, TableHints

        catalog = catalog_of(self.sheet)
        widgets: dict[str, TableControl] = {}
        for name, kind in self.fields(catalog):
            if kind == "count":
                widgets[name] = TableControl("count", low=_zero)
            elif kind == "list":
                widgets[name] = TableControl("pick", choices=partial(self._items, name))
            elif kind == "choice":  # its values by their names in the phone's language ("Sommer", not "summer")
                widgets[name] = TableControl("select", choices=partial(self._values, name))
        labels = {name: name.replace("_", " ").capitalize() for name, _ in self.fields(catalog)}
        return TableHints(parts="sheets", part_name="player", widgets=widgets, labels=labels, sheet_upload=True,
                          labels_in=self._labels_in, item_words_in=self._item_words_in,
                          entry_labels=self._categories_in)

    def _categories_in(self, catalog: Any, lang: Any) -> Mapping[str, str]:
        """The breakdown's rows in `lang` (a `Language`): its scoring categories' names that sheet.yaml gives in that
        language (`languages: fr: categories:`), by the breakdown's keys (their own names)."""
        return self.sheet.categories_in(lang.code)

    def _item_words_in(self, lang: Any) -> Mapping[str, tuple[str, str]]:
        """The item words (one, many) its sheet.yaml gives its list fields in `lang` (a `Language`), by field."""
        return self.sheet.item_words_in(lang.code)

    def _labels_in(self, lang: Any) -> Mapping[str, str]:
        """The labels its sheet.yaml gives its fields in `lang` (a `Language`), its own where that language gives
        none; a field without a label is left to the table (its id in words)."""
        return self.sheet.labels_in(lang.code)


def _numbers(values: Sequence[Any]) -> bool:
    """Whether a choice's values are all whole numbers (`values: [1, 2, 3]`), and there are some."""
    return bool(values) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
