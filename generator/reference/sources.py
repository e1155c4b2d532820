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

from generator.catalog.common import CONFIDENCE_WORDS, CONFIDENCES, Provenance
from generator.catalog.game import GameInfo
from generator.reference.document import (
    Block,
    Cell,
    Column,
    Heading,
    Para,
    Row,
    Table,
    cell,
)
from generator.render.text import escape_markup

#: How the reference names the fields catalogs list as inferred (others: the field's name in words).
FIELD_LABELS: Mapping[str, str] = {
    "levels": "levels",
    "levels.at": "level thresholds",
    "levels.effect": "level effect",
    "copies": "copies",
    "removed_in_small_game": "2-3 player copies",
    "value": "value",
    "cost": "cost",
    "timing": "timing",
    "floors": "number of floors",
    "id": "the tile's building and floor",
    "ropes": "ropes",
    "products": "products",
    "values": "values",
    "groups": "resident groups",
    "min": "lowest",
    "max": "highest",
}

MARK = "{inferred}"


def label(field_name: str) -> str:
    return FIELD_LABELS.get(field_name) or field_name.replace("_", " ").replace(".", " ")


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
        self.notes: dict[tuple[str, str], Note] = {}

    def inferred(self, prov: Provenance, field_name: str) -> bool:
        return prov.of(field_name) is not None

    def value(self, shown: str, prov: Provenance, *fields: str) -> str:
        """`shown` (markup), with the mark when any of `fields` is inferred."""
        if any(prov.of(f) is not None for f in fields):
            return f"{shown} {MARK}"
        return shown

    def note(self, record: str, prov: Provenance) -> list[Note]:
        """Register the inferences of a record (named `record` in the notes) and return their notes."""
        found: list[Note] = []
        for entry in prov.inferred:
            key = (entry.source, entry.confidence)
            note = self.notes.get(key)
            if note is None:
                note = self.notes[key] = Note(len(self.notes) + 1, entry.confidence, entry.source)
            for name in entry.fields:
                cover = (record, label(name))
                if cover not in note.covers:
                    note.covers.append(cover)
            if note not in found:
                found.append(note)
        return found

    def column(self, record: str, prov: Provenance, rulebook: bool = True) -> Cell:
        """The provenance cell of a row: the rulebook section (unless the table gives it once), then a line per
        note, linked to it."""
        paras = []
        if prov.rulebook and rulebook:
            paras.append(Para(f"Rulebook {text(prov.rulebook)}", "cell-note", after=0.0))
        for entry in prov.inferred:
            note = self.note(record, Provenance(None, (entry,)))[0]
            fields = ", ".join(label(f) for f in entry.fields)
            paras.append(Para(f"{MARK} note {note.number} ({text(entry.confidence)}): {text(fields)}", "cell-note",
                              after=0.0, link=note.key))
        return Cell(tuple(paras))

    def line(self, record: str, prov: Provenance) -> Para:
        """The provenance of a record told in a paragraph (for values given outside a table)."""
        parts = []
        if prov.rulebook:
            parts.append(f"Rulebook {text(prov.rulebook)}.")
        for entry in prov.inferred:
            note = self.note(record, Provenance(None, (entry,)))[0]
            fields = ", ".join(label(f) for f in entry.fields)
            parts.append(f"{MARK} Note {note.number}: {text(fields)}, {CONFIDENCE_WORDS[entry.confidence]}.")
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
        cited = [p for p in provs if p is not None]
        blocks: list[Block] = []
        common = cited[0].rulebook if cited and all(p.rulebook == cited[0].rulebook for p in cited) else None
        inferred = any(p.inferred for p in cited)
        if common:
            but = f", except the values marked {MARK}" if inferred else ""
            blocks.append(Para(f"All values below: rulebook {text(common)}{but}.", "small", after=3.0))
        if not cited or (common and not inferred):
            return [*blocks, Table(tuple(columns), tuple(rows), tuple(groups), after=after)]
        with_source = tuple(
            row + (self.column(record, prov, rulebook=not common) if prov is not None else Cell(),)
            for row, record, prov in zip(rows, records, provs))
        return [*blocks, Table((*columns, Column("Source", source_share)), with_source, tuple(groups), after=after)]

    # --- the Sources section ---

    def key(self) -> list[Block]:
        """How to read the marks: for the first page."""
        rows = [(cell(f"{MARK} **{c}**"), cell(text(CONFIDENCE_WORDS[c]))) for c in CONFIDENCES]
        return [
            Para(f"{MARK} marks a value that no rulebook states: it is not official. The **Source** column of each "
                 "table (or the line above it) gives the rulebook section that states the other values, and a note "
                 "for each marked value; "
                 "the notes, in **Sources** at the end, say where each value comes from and how sure donjon is:",
                 "body", after=4.0),
            Table((Column("Confidence", 1), Column("How the reference says it", 4)), tuple(rows), after=6.0),
        ]

    def section(self, rulebooks_key: str, notes_key: str) -> list[Block]:
        blocks: list[Block] = [
            Heading("Sources", 1, "sources"),
            Heading("Rulebooks", 2, rulebooks_key),
            Para("Values without a mark are stated in these rulebooks, at the section each row cites. "
                 "The effects are donjon's own wording: read the rulebooks for the rules themselves.", after=4.0),
            Table((Column("Rulebook", 1), Column("What it is", 6)),
                  tuple((cell(text(r.id), style="cell-bold"), cell(text(r.title))) for r in self.game.rulebooks)),
            Heading("Notes on the marked values", 2, notes_key),
        ]
        if not self.notes:
            blocks.append(Para("Every value in this reference is stated in a rulebook."))
            return blocks
        blocks.append(Para(f"Each note covers values marked {MARK}: what they are, how sure donjon is of them, and "
                           "where they come from, as the catalog records it.", after=4.0))
        rows = []
        for note in sorted(self.notes.values(), key=lambda n: n.number):
            covers = "; ".join(f"{text(record)}: {text(what)}" for record, what in _grouped(note.covers))
            rows.append((Cell((Para(f"**{note.number}**", "cell", after=0.0, anchor=note.key),)),
                         cell(f"{MARK} {text(CONFIDENCE_WORDS[note.confidence])} ({text(note.confidence)})"),
                         cell(f"**Covers** {covers}", f"**Source** {text(note.source)}")))
        blocks.append(Table((Column("Note", 0.5), Column("Confidence", 1.6), Column("Values and source", 5.4)),
                            tuple(rows)))
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
