"""Where each value of a reference comes from: the marks, the provenance column, and the Sources section.

A value that no rulebook states is printed with the `inferred` mark beside it. A table says where its values
come from in one line above it when all its rows cite the same rulebook section, else in a Source column: the
rulebook section of each row's stated values, then one line per inference covering the row,
`{inferred} note 3 (M): level thresholds`, which links to note 3. The notes are collected as the tables are
written; the Sources section at the end lists the game's rulebooks and each note: the values it covers, how
sure donjon is of them (in the words of `CONFIDENCE_WORDS`, which the first page's key explains) and the
catalog's own account of where they come from. Inferences that share a source and a confidence (the timing of
eighteen events, the ropes of many tiles) share one note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from generator.catalog.common import CONFIDENCE_WORDS, CONFIDENCES, HOUSE_MARK, Provenance
from generator.catalog.game import GameInfo
from generator.i18n import N_, Language, language
from generator.reference.document import (
    Block,
    Cell,
    Column,
    Heading,
    NoteData,
    Para,
    Row,
    RowSource,
    Table,
    as_written,
    cell,
)
from generator.render.text import escape_markup

#: How the reference names the fields catalogs list as inferred (others: the field's name in words).
FIELD_LABELS: Mapping[str, str] = {
    "levels": N_("levels"),
    "levels.at": N_("level thresholds"),
    "levels.effect": N_("level effect"),
    "copies": N_("copies"),
    "removed_in_small_game": N_("2-3 player copies"),
    "value": N_("value"),
    "cost": N_("cost"),
    "timing": N_("timing"),
    "floors": N_("number of floors"),
    "id": N_("the tile's building and floor"),
    "ropes": N_("ropes"),
    "products": N_("products"),
    "values": N_("values"),
    "groups": N_("resident groups"),
    "min": N_("lowest"),
    "max": N_("highest"),
    "name": N_("name"),
    "effect": N_("effect"),
    "apprentice": N_("apprentice"),
    "ability": N_("ability"),
    "power": N_("power"),
    "summary": N_("summary"),
    "use": N_("use"),
    "effects": N_("effects"),
    # the fields a translation cites a rulebook for (Guédelon's materials and the buildings its ropes name)
    "building": N_("building"),
    "made_at": N_("gathered at"),
    "finished_name": N_("product"),
    "finished_at": N_("finished at"),
}

MARK = "{inferred}"
#: The confidence of a house default, as a word (H, M and L are letters in every language; the companion's pages
#: show them so too, generator.web.languages)
HOUSE = N_("house")


def confidence_code(code: str, lang: Language) -> str:
    """A confidence as the reference shows it beside a value: its letter, or `house` in the reader's language."""
    return lang._(HOUSE) if code == "house" else code


def label(field_name: str, lang: Language | None = None) -> str:
    known = FIELD_LABELS.get(field_name)
    if known:
        return (lang or language())._(known)
    return field_name.replace("_", " ").replace(".", " ")


def text(value: object) -> str:
    """Catalog text as markup that prints it as it is (its `{icon}` tokens still draw icons, as on the cards)."""
    return escape_markup(value)


@dataclass
class Note:
    number: int
    confidence: str
    source: str
    #: what the note covers: (record, field label), in the order met
    covers: list[tuple[str, str]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"note-{self.number}"


class Sources:
    """The notes of one reference, numbered in the order the reference meets them."""

    def __init__(self, game: GameInfo) -> None:
        self.game = game
        self.lang = language(game.lang)
        self.notes: dict[tuple[str, str], Note] = {}
        #: whether any text shown is donjon's own translation (the key then explains its mark)
        self.house = False

    def inferred(self, prov: Provenance, field_name: str) -> bool:
        return prov.of(field_name) is not None

    def value(self, shown: str, prov: Provenance, *fields: str) -> str:
        """`shown` (markup), with the mark when any of `fields` is inferred, and the translation mark when any is
        donjon's own translation."""
        if any(self.translated_by_us(prov, f) for f in fields):
            shown = f"{shown}{HOUSE_MARK}"
        if any(prov.of(f) is not None for f in fields):
            return f"{shown} {MARK}"
        return shown

    def translated_by_us(self, prov: Provenance, field_name: str) -> bool:
        if prov.by_donjon(field_name):
            self.house = True
            return True
        return False

    def words(self, shown: str, prov: Provenance, field_name: str = "name") -> str:
        """A text of the catalog (`shown`, markup), with the translation mark when donjon translated it."""
        return f"{shown}{HOUSE_MARK}" if self.translated_by_us(prov, field_name) else shown

    def note(self, record: str, prov: Provenance) -> list[Note]:
        """Register the inferences of a record (named `record` in the notes) and return their notes."""
        found: list[Note] = []
        for entry in prov.inferred:
            key = (entry.source, entry.confidence)
            note = self.notes.get(key)
            if note is None:
                note = self.notes[key] = Note(len(self.notes) + 1, entry.confidence, entry.source)
            for name in entry.fields:
                cover = (record, label(name, self.lang))
                if cover not in note.covers:
                    note.covers.append(cover)
            if note not in found:
                found.append(note)
        return found

    def column(self, record: str, prov: Provenance, rulebook: bool = True) -> Cell:
        """The provenance cell of a row: the rulebook section (unless the table gives it once), then a line per
        note, linked to it."""
        _ = self.lang._
        paras = []
        if prov.rulebook and rulebook:
            paras.append(Para(_("Rulebook {section}").format(section=text(prov.rulebook)), "cell-note", after=0.0))
        for entry in prov.inferred:
            note = self.note(record, Provenance(None, (entry,)))[0]
            fields = ", ".join(label(f, self.lang) for f in entry.fields)
            paras.append(Para(_("{mark} note {number} ({confidence}): {fields}").format(
                mark=MARK, number=note.number, confidence=text(confidence_code(entry.confidence, self.lang)),
                fields=text(fields)), "cell-note",
                after=0.0, link=note.key))
        translation = prov.translations.get(prov.lang) if prov.lang else None
        if translation is not None:
            for name, section in translation.rulebook.items():
                paras.append(Para(_("{field}: rulebook {section}").format(field=text(label(name, self.lang)),
                                                                          section=text(section)), "cell-note", after=0.0))
            for entry in translation.inferred:
                paras.append(Para(_("{fields}: {source} ({confidence})").format(
                    fields=text(", ".join(label(f, self.lang) for f in entry.fields)), source=text(entry.source),
                    confidence=text(confidence_code(entry.confidence, self.lang))), "cell-note", after=0.0))
        return Cell(tuple(paras))

    def line(self, record: str, prov: Provenance) -> Para:
        """The provenance of a record told in a paragraph (for values given outside a table)."""
        _ = self.lang._
        parts = []
        if prov.rulebook:
            parts.append(_("Rulebook {section}.").format(section=text(prov.rulebook)))
        for entry in prov.inferred:
            note = self.note(record, Provenance(None, (entry,)))[0]
            fields = ", ".join(label(f, self.lang) for f in entry.fields)
            parts.append(_("{mark} Note {number}: {fields}, {confidence}.").format(
                mark=MARK, number=note.number, fields=text(fields), confidence=_(CONFIDENCE_WORDS[entry.confidence])))
        return Para(" ".join(parts), "small", link=self.notes_link(prov))

    def notes_link(self, prov: Provenance) -> str | None:
        for entry in prov.inferred:
            note = self.notes.get((entry.source, entry.confidence))
            if note is not None:
                return note.key
        return None

    def table(self, columns: Sequence[Column], rows: Sequence[Row], records: Sequence[str],
              provs: Sequence[Provenance | None], groups: Sequence[int] = (), source_share: float = 1.6,
              after: float = 8.0) -> list[Block]:
        """A table with its provenance. A rulebook section that every row cites is said once, above the table;
        otherwise, and whenever a row has an inferred value, a Source column gives each row's. A row whose
        provenance is None cites none: a total, or a row going on with the record of the row above it (the
        levels of a profession after its first)."""
        _ = self.lang._
        cited = [p for p in provs if p is not None]
        blocks: list[Block] = []
        common = cited[0].rulebook if cited and all(p.rulebook == cited[0].rulebook for p in cited) else None
        inferred = any(p.inferred for p in cited)
        cites_translation = any(p.lang and (t := p.translations.get(p.lang)) and (t.rulebook or t.inferred)
                                for p in cited)
        if common:
            message = (_("All values below: rulebook {section}, except the values marked {mark}.") if inferred
                       else _("All values below: rulebook {section}."))
            blocks.append(Para(message.format(section=text(common), mark=MARK), "small", after=3.0))
        if not cited or (common and not inferred and not cites_translation):
            return [*blocks, Table(tuple(columns), tuple(rows), tuple(groups), after=after,
                                   sources=self.row_sources(records, provs))]
        with_source = tuple(
            row + (self.column(record, prov, rulebook=not common) if prov is not None else Cell(),)
            for row, record, prov in zip(rows, records, provs))
        # after the Source column: its notes are numbered as the page shows them
        return [*blocks, Table((*columns, Column(_("Source"), source_share)), with_source, tuple(groups),
                               after=after, sources=self.row_sources(records, provs), source_column=True)]

    def row_sources(self, records: Sequence[str], provs: Sequence[Provenance | None]) -> tuple[RowSource | None, ...]:
        """Each row's provenance for the data files: its record, rulebook section and the numbers of its notes."""
        found: list[RowSource | None] = []
        for record, prov in zip(records, provs):
            if prov is None:  # a total, or a row going on with the record above it
                found.append(RowSource(record, cites=False))
                continue
            numbers: list[int] = []
            for entry in prov.inferred:
                number = self.note(record, Provenance(None, (entry,)))[0].number
                if number not in numbers:
                    numbers.append(number)
            translation = prov.translations.get(prov.lang) if prov.lang else None
            cited: list[tuple[str, str, str]] = []
            if translation is not None:
                cited += [(name, "rulebook", section) for name, section in translation.rulebook.items()]
                cited += [(name, "source", f"{entry.source} ({entry.confidence})")
                          for entry in translation.inferred for name in entry.fields]
            found.append(RowSource(record, prov.rulebook, tuple(numbers), translation=tuple(cited)))
        return tuple(found)

    def note_data(self) -> tuple[NoteData, ...]:
        return tuple(NoteData(n.number, n.confidence, n.source, tuple(n.covers))
                     for n in sorted(self.notes.values(), key=lambda n: n.number))

    # --- the Sources section ---

    def key(self) -> list[Block]:
        """How to read the marks: for the first page."""
        _ = self.lang._
        rows = [(cell(f"{MARK} **{text(confidence_code(c, self.lang))}**"), cell(text(_(CONFIDENCE_WORDS[c]))))
                for c in CONFIDENCES]
        blocks: list[Block] = [
            Para(_("{mark} marks a value that no rulebook states: it is not official. The **Source** column of each "
                   "table (or the line above it) gives the rulebook section that states the other values, and a note "
                   "for each marked value; the notes, in **Sources** at the end, say where each value comes from and "
                   "how sure donjon is:").format(mark=MARK), "body", after=4.0),
            Table((Column(_("Confidence"), 1), Column(_("How the reference says it"), 4)), tuple(rows), after=6.0),
        ]
        if not self.lang.english:
            blocks.append(Para(_("{mark} marks a name or a text that donjon translated itself: translation by donjon, "
                                 "not official. Names without it are those a rulebook or an edition in this language "
                                 "prints (the Source column says which). The notes on sources are in English, as the "
                                 "catalogs record them.").format(mark=HOUSE_MARK), "body", after=6.0))
        return blocks

    def section(self, rulebooks_key: str, notes_key: str) -> list[Block]:
        _ = self.lang._
        blocks: list[Block] = [
            Heading(_("Sources"), 1, "sources"),
            Heading(_("Rulebooks"), 2, rulebooks_key),
            Para(_("Values without a mark are stated in these rulebooks, at the section each row cites. "
                   "The effects are donjon's own wording: read the rulebooks for the rules themselves."), after=4.0),
            Table((Column(_("Rulebook"), 1), Column(_("What it is"), 6)),
                  tuple((cell(text(r.id), style="cell-bold"), cell(text(r.title))) for r in self.game.rulebooks)),
            Heading(_("Notes on the marked values"), 2, notes_key),
        ]
        if not self.notes:
            blocks.append(Para(_("Every value in this reference is stated in a rulebook.")))
            return blocks
        blocks.append(Para(_("Each note covers values marked {mark}: what they are, how sure donjon is of them, and "
                             "where they come from, as the catalog records it.").format(mark=MARK), after=4.0))
        rows = []
        for note in sorted(self.notes.values(), key=lambda n: n.number):
            covers = "; ".join(f"{text(record)}: {text(what)}" for record, what in _grouped(note.covers))
            rows.append((Cell((Para(f"**{note.number}**", "cell", after=0.0, anchor=note.key),)),
                         cell(f"{MARK} {text(_(CONFIDENCE_WORDS[note.confidence]))} "
                              f"({text(confidence_code(note.confidence, self.lang))})"),
                         cell(_("**Covers** {covers}").format(covers=covers),
                              _("**Source** {source}").format(source=as_written(text(note.source))))))
        blocks.append(Table((Column(_("Note"), 0.5), Column(_("Confidence"), 1.6),
                             Column(_("Values and source"), 5.4)), tuple(rows)))
        return blocks


def _grouped(covers: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(record, field) pairs as (records, fields): records that share their fields are joined,
    `2 VP, 3 VP: copies, 2-3 player copies`."""
    by_record: dict[str, list[str]] = {}
    for record, what in covers:
        fields = by_record.setdefault(record, [])
        if what not in fields:
            fields.append(what)
    by_fields: dict[str, list[str]] = {}
    for record, fields in by_record.items():
        names = by_fields.setdefault(", ".join(fields), [])
        if record not in names:
            names.append(record)
    return [(", ".join(records), fields) for fields, records in by_fields.items()]
