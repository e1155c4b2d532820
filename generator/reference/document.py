"""A small document layout engine on the drawing model: flowing blocks on pages, for the card references.

A :class:`ReferenceDocument` is a list of blocks (headings, paragraphs, tables, a table of contents) poured into the
frame of each page, top to bottom, a new page when the frame is full:

- text is the markup of card layouts (`**bold**`, `*italic*`, `{icon}`), wrapped at spaces to its width at a
  fixed size (a reference never shrinks text: body text stays at least 8 pt); a word wider than its column is
  broken between characters rather than refused;
- a paragraph may break between lines across pages, keeping at least two lines on each side;
- a table's rows never split: a row that does not fit goes to the next page, under the table's header row,
  which is repeated on every page the table runs over; rows of one group (a profession's levels) stay
  together when the group fits on a page;
- a heading keeps with what follows it, and a heading of level 1 starts a page;
- headings are anchors and entries of the PDF outline; a paragraph may be an anchor or link to one;
- every page gets a running header (the document's name, the section) and a footer with `page n of N`.

What depends on the whole document (page numbers in the contents, `N` in `page n of N`) is drawn once the
blocks are placed: placing records each anchor's page, and deferred drawings are resolved at the end. So the
document is laid out in one pass.

Sizes are in points, as in the drawing model; the origin is the page's top-left corner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from typing import NamedTuple

from generator.errors import FitError
from generator.i18n import Language, language
from generator.render import fonts
from generator.render.icons import ICON_ADVANCE
from generator.render.model import (
    Anchor,
    Line,
    Link,
    Page,
    Paint,
    Primitive,
    Rect,
    TextRun,
    mm,
)
from generator.render.text import (
    Fitted,
    Paragraph,
    Piece,
    Style,
    TextProblem,
    Word,
    WrappedLine,
    block_height,
    layout_runs,
    parse,
    wrap,
)

# --- the look ---------------------------------------------------------------------------------------------------

INK = "#1f1b16"
MUTED = "#5a544b"
RULE = "#b9b1a3"
HAIRLINE = "#ddd6c9"
SHADE = "#f4f0e8"
HEAD_FILL = "#3d3a34"
HEAD_INK = "#ffffff"
ACCENT = "#7a2e1d"

#: The text styles of a document, by name. Body text is 10 pt Cardo; tables use Open Sans, which stays legible
#: small on paper and on screen; nothing is smaller than 8 pt.
STYLES: Mapping[str, Style] = {
    "title": Style("cardo-bold", 28, 28, INK, leading=1.1),
    "subtitle": Style("cardo", 15, 15, MUTED, leading=1.2),
    "h1": Style("cardo-bold", 18, 18, ACCENT, leading=1.15),
    "h2": Style("cardo-bold", 13, 13, INK, leading=1.2),
    "h3": Style("open-sans-bold", 10, 10, INK, leading=1.2),
    "body": Style("cardo", 10.5, 10.5, INK, leading=1.3),
    "small": Style("open-sans", 8, 8, MUTED, leading=1.3),
    "cell": Style("open-sans", 8.5, 8.5, INK, leading=1.3),
    "cell-bold": Style("open-sans-bold", 8.5, 8.5, INK, leading=1.3),
    "cell-note": Style("open-sans", 8, 8, MUTED, leading=1.3),
    "head": Style("open-sans-bold", 8.5, 8.5, HEAD_INK, leading=1.25),
    "toc1": Style("cardo-bold", 11.5, 11.5, INK, leading=1.25),
    "toc2": Style("cardo", 10.5, 10.5, INK, leading=1.25),
    "toc3": Style("cardo", 9.5, 9.5, MUTED, leading=1.25),
    "running": Style("open-sans", 8, 8, MUTED, leading=1.2),
}

MARGIN_X = mm(17)
MARGIN_TOP = mm(12)
MARGIN_BOTTOM = mm(12)
#: The running header's band above the frame, and the footer's below it.
HEADER_H = mm(9)
FOOTER_H = mm(9)
CELL_PAD_X = 3.0
CELL_PAD_Y = 2.6
#: Between the paragraphs of one table cell.
CELL_GAP = 1.5
#: Space before headings of levels 1 to 3, and after them.
HEADING_BEFORE = {1: 0.0, 2: 12.0, 3: 8.0}
HEADING_AFTER = {1: 8.0, 2: 5.0, 3: 4.0}
#: Indent of the contents entries of levels 1 to 3, and the room kept for their page numbers.
TOC_INDENT = {1: 0.0, 2: 14.0, 3: 28.0}
TOC_NUMBER = 28.0


# --- blocks -----------------------------------------------------------------------------------------------------

class Para(NamedTuple):
    """A paragraph of markup text in one of :data:`STYLES`."""

    text: str
    style: str = "body"
    #: space below it, in points
    after: float = 5.0
    #: an anchor at its top, for links (not in the outline)
    anchor: str | None = None
    #: the paragraph links to this anchor
    link: str | None = None
    align: str = "left"
    #: a colour other than the style's (the symbol on a colour swatch)
    colour: str | None = None


class Heading(NamedTuple):
    """A heading of level 1 (a section, on a new page), 2 or 3; an anchor and an outline entry.

    `text` is plain text, not markup: it is also the outline entry's title."""

    text: str
    level: int
    key: str
    #: a style other than the level's (the title of a document)
    style: str | None = None


class Cell(NamedTuple):
    """A table cell: paragraphs stacked top to bottom, on an optional background colour."""

    paras: tuple[Para, ...] = ()
    fill: str | None = None


#: a table row: one cell per column
Row = tuple[Cell, ...]


class Column(NamedTuple):
    title: str
    #: the column's share of the table's width (relative to the other columns)
    share: float
    align: str = "left"


class RowSource(NamedTuple):
    """Where the values of one table row come from, for the reference's data files (CSV, JSON): the record the
    row shows, the rulebook section stating its unmarked values, and the numbers of the notes on its marked ones."""

    record: str
    rulebook: str | None = None
    notes: tuple[int, ...] = ()
    #: False for a row that cites no source of its own: a total, or a row going on with the one above it
    cites: bool = True
    #: where the texts of a record localised to the page's language come from: (field, "rulebook", section) or
    #: (field, "source", the source and its confidence); a field not listed is donjon's own translation or untranslated
    translation: tuple[tuple[str, str, str], ...] = ()


class Table(NamedTuple):
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    #: a group number per row (or none): rows of a group stay on one page, shading alternates by group, and a
    #: rule separates groups
    groups: tuple[int, ...] = ()
    header: bool = True
    after: float = 8.0
    #: the table's width as a share of the frame's (from its left edge)
    width: float = 1.0
    #: a row's provenance per row (None: a row citing none, a total), for the data files; empty: not known
    sources: tuple[RowSource | None, ...] = ()
    #: whether the last column is the Source column (the data files give it from `sources` instead)
    source_column: bool = False


class Contents(NamedTuple):
    """The table of contents: (title, anchor key, level) entries, each with its page number and a link."""

    entries: tuple[tuple[str, str, int], ...]
    after: float = 6.0


class Spacer(NamedTuple):
    height: float


class PageBreak(NamedTuple):
    pass


Block = Para | Heading | Table | Contents | Spacer | PageBreak


class NoteData(NamedTuple):
    """A note of the Sources section as the data files give it."""

    number: int
    confidence: str
    source: str
    #: (record, field) pairs it covers
    covers: tuple[tuple[str, str], ...]


class ReferenceDocument(NamedTuple):
    #: the document's title (PDF metadata) and the left part of the running header
    title: str
    subject: str
    blocks: tuple[Block, ...]
    #: the footer's text on every page, before the page number
    footer: str = ""
    #: the language it is written in: its page numbers and typography
    lang: Language = language()
    #: the blocks that hold the cards and values (neither the first page nor the Sources section): the data files'
    body: tuple[Block, ...] = ()
    #: the notes on marked values and the rulebooks, for the data files
    notes: tuple[NoteData, ...] = ()
    rulebooks: tuple[tuple[str, str], ...] = ()
    #: faces that draw what the document's own fonts lack, first to last (a deck of one's own named in Georgian or
    #: Japanese: its layouts' fonts, as its cards and its page line draw it)
    faces: tuple[str, ...] = ()


def cell(*texts: str, style: str = "cell", fill: str | None = None) -> Cell:
    """A cell of paragraphs of one style (empty texts left out)."""
    return Cell(tuple(Para(t, style, after=0.0) for t in texts if t), fill)


# --- layout -----------------------------------------------------------------------------------------------------

#: The styles of a table's cells: what they hold is a catalog's or a designer's, written in any direction.
CELL_STYLES = frozenset({"cell", "cell-bold", "cell-note"})


class LayoutProblem(FitError):
    """Text a document cannot draw (bad markup, an unknown icon, a missing glyph, a row taller than a page)."""


Deferred = Callable[[Mapping[str, int], int], list[Primitive]]


@dataclass
class _Page:
    items: list[Primitive] = field(default_factory=list)
    #: drawings made at the end, each with the place in `items` it goes (so text keeps its reading order)
    deferred: list[tuple[int, Deferred]] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    section: str = ""


class _Text(NamedTuple):
    """Text measured for a width: its lines at its style's size; `direction` as layout_runs takes it (0: a sentence
    of the document, left to right as its language reads, whatever name it holds; None: a table's cell, which runs
    as its first strong letter does)."""

    style: Style
    lines: tuple[WrappedLine, ...]
    direction: int | None = 0

    def height(self, count: int | None = None) -> float:
        n = len(self.lines) if count is None else count
        return block_height(n, self.style.size, self.style)

    def runs(self, first: int, last: int, x: float, y: float, width: float, align: str,
             colour: str | None = None) -> list[Primitive]:
        part = self.lines[first:last]
        h = block_height(len(part), self.style.size, self.style)
        style = self.style._replace(align=align, colour=colour or self.style.colour)
        return layout_runs(Fitted(self.style.size, part, h), x, y, width, h, style, self.direction)


def _split_wide(paragraphs: Sequence[Paragraph], limit: float) -> list[Paragraph]:
    """Paragraphs whose words wider than `limit` (at 1 pt) are broken between characters into several words."""
    out: list[Paragraph] = []
    for para in paragraphs:
        words: list[Word] = []
        for word in para:
            if word.w1 <= limit:
                words.append(word)
                continue
            pieces: list[Piece] = []
            used = 0.0
            for piece in word.pieces:
                chars = [piece] if piece.icon is not None else [Piece(piece.face, c) for c in piece.text]
                for part in chars:
                    w1 = ICON_ADVANCE if part.icon is not None else fonts.width(part.face, part.text)
                    if pieces and used + w1 > limit:
                        words.append(Word(_merge(pieces), used, 0.0))
                        pieces, used = [], 0.0
                    pieces.append(part)
                    used += w1
            if pieces:
                words.append(Word(_merge(pieces), used, word.space1))
        out.append(tuple(words))
    return out


def _merge(pieces: list[Piece]) -> tuple[Piece, ...]:
    """Adjacent characters of one face as one piece."""
    merged: list[Piece] = []
    for piece in pieces:
        if merged and piece.icon is None and merged[-1].icon is None and merged[-1].face == piece.face:
            merged[-1] = Piece(piece.face, merged[-1].text + piece.text)
        else:
            merged.append(piece)
    return tuple(merged)


class Pagination:
    """Places the blocks of one document on pages of one size."""

    def __init__(self, doc: ReferenceDocument, page_size: tuple[float, float]) -> None:
        self.doc = doc
        self.page_w, self.page_h = page_size
        self.x = MARGIN_X
        self.width = self.page_w - 2 * MARGIN_X
        self.top = MARGIN_TOP + HEADER_H
        self.bottom = self.page_h - MARGIN_BOTTOM - FOOTER_H
        self.pages: list[_Page] = []
        self.y = self.top
        self.section = ""
        self.anchor_pages: dict[str, int] = {}
        self._measured: dict[tuple[str, str, float], _Text] = {}
        self._new_page()

    # --- measuring ---

    def measure(self, text: str, style_name: str, width: float) -> _Text:
        key = (text, style_name, round(width, 3))
        found = self._measured.get(key)
        if found is not None:
            return found
        style = STYLES[style_name]
        text = _typeset(self.doc.lang, style.face, text)
        try:
            paragraphs = parse(text, style.face, fallback=self.doc.faces)
        except TextProblem as err:
            raise LayoutProblem(f"{self.doc.title}: cannot draw {_quote(text)}: {err}") from None
        limit = width / style.size
        lines = wrap(paragraphs, style.size, width)
        if lines is None:
            lines = wrap(_split_wide(paragraphs, limit), style.size, width)
            assert lines is not None
        # the designer's values in a table run as they are written (an Arabic sentence ends at its left); donjon's
        # sentences around them left to right ("التنانين: card reference" was drawn
        # "card reference :التنانين")
        found = self._measured[key] = _Text(style, tuple(lines), None if style_name in CELL_STYLES else 0)
        return found

    # --- pages ---

    def _new_page(self) -> None:
        self.pages.append(_Page(section=self.section))
        self.y = self.top

    @property
    def page(self) -> _Page:
        return self.pages[-1]

    @property
    def at_top(self) -> bool:
        return self.y <= self.top + 1e-6

    def room(self) -> float:
        return self.bottom - self.y

    def ensure(self, height: float) -> None:
        """A new page unless `height` fits below the cursor (on an empty page, whatever fits is placed)."""
        if height > self.room() + 1e-6 and not self.at_top:
            self._new_page()

    def anchor(self, key: str, y: float, title: str = "", level: int = 0) -> None:
        if key in self.anchor_pages:
            raise LayoutProblem(f"{self.doc.title}: two places are named {key!r}")
        self.anchor_pages[key] = len(self.pages)
        self.page.anchors.append(Anchor(key, max(0.0, round(y, 3)), title, level))

    # --- blocks ---

    def run(self) -> list[Page]:
        blocks = self.doc.blocks
        for index, block in enumerate(blocks):
            if isinstance(block, Heading):
                self.heading(block, self.first_height(blocks, index + 1))
            elif isinstance(block, Para):
                self.para(block)
            elif isinstance(block, Table):
                self.table(block)
            elif isinstance(block, Contents):
                self.contents(block)
            elif isinstance(block, Spacer):
                if not self.at_top:
                    self.y = min(self.y + block.height, self.bottom)
            elif isinstance(block, PageBreak):
                if not self.at_top:
                    self._new_page()
        return self.finish()

    def first_height(self, blocks: Sequence[Block], index: int) -> float:
        """The least of the blocks from `index` on that must follow a heading on its page: the first lines of a
        paragraph, or a table's header and first row; a short paragraph (an introduction) keeps with what
        follows it in turn."""
        if index >= len(blocks):
            return 0.0
        block = blocks[index]
        if isinstance(block, Para):
            text = self.measure(block.text, block.style, self.width)
            if len(text.lines) <= 2:
                return text.height() + block.after + self.first_height(blocks, index + 1)
            return text.height(2)
        if isinstance(block, Table):
            # what `table` will keep on its first page: a short table whole, else its header and first group
            return self.table_start(block)
        if isinstance(block, Contents) and block.entries:
            title, _key, level = block.entries[0]
            return self.measure(title, f"toc{level}", self.width - TOC_INDENT[level] - TOC_NUMBER).height()
        if isinstance(block, Heading):
            heading = self.measure(_escape(block.text), block.style or f"h{block.level}", self.width)
            return heading.height() + HEADING_AFTER[block.level]
        return 0.0

    def heading(self, block: Heading, following: float) -> None:
        """A heading, on a new page when `following` (the height that must come with it) does not fit."""
        if block.level not in HEADING_BEFORE:
            raise LayoutProblem(f"{self.doc.title}: heading {block.text!r} has level {block.level}; levels are 1 to 3")
        if block.level == 1:
            self.section = block.text
            if not self.at_top:
                self._new_page()
            self.page.section = block.text
        text = self.measure(_escape(block.text), block.style or f"h{block.level}", self.width)
        before = 0.0 if self.at_top else HEADING_BEFORE[block.level]
        need = before + text.height() + HEADING_AFTER[block.level] + following
        if need > self.room() and not self.at_top:
            self._new_page()
            before = 0.0
        self.y += before
        self.anchor(block.key, self.y - 4.0, block.text, block.level - 1)
        self.page.items.extend(text.runs(0, len(text.lines), self.x, self.y, self.width, "left"))
        self.y += text.height() + HEADING_AFTER[block.level]

    def para(self, block: Para, x: float | None = None, width: float | None = None) -> None:
        x = self.x if x is None else x
        width = self.width if width is None else width
        text = self.measure(block.text, block.style, width)
        total = len(text.lines)
        done = 0
        first = True
        while done < total:
            fit = done
            while fit < total and text.height(fit + 1 - done) <= self.room() + 1e-6:
                fit += 1
            count = fit - done
            if 0 < count < total - done:
                # never one line alone on either side of a page break
                if count == 1:
                    count = 0
                elif total - done - count == 1:
                    count = count - 1 if count > 2 else 0
            if count == 0:
                if self.at_top:
                    count = 1  # a single line taller than the frame: place it and move on
                else:
                    self._new_page()
                    continue
            if first and block.anchor:
                self.anchor(block.anchor, self.y - 2.0)
            first = False
            h = text.height(count)
            self.page.items.extend(text.runs(done, done + count, x, self.y, width, block.align, block.colour))
            if block.link:
                self.page.links.append(Link(x, self.y, width, h, block.link))
            self.y += h
            done += count
            if done < total:
                self._new_page()
        self.y += block.after

    # --- tables ---

    def column_widths(self, table: Table) -> list[float]:
        total = sum(c.share for c in table.columns)
        return [self.width * table.width * c.share / total for c in table.columns]

    def header_cells(self, table: Table) -> tuple[Cell, ...]:
        return tuple(Cell((Para(c.title, "head", after=0.0, align=c.align),)) for c in table.columns)

    def cell_texts(self, cell_: Cell, width: float) -> list[_Text]:
        return [self.measure(p.text, p.style, width - 2 * CELL_PAD_X) for p in cell_.paras]

    def row_height(self, row: Sequence[Cell], widths: Sequence[float]) -> float:
        tallest = 0.0
        for cell_, width in zip(row, widths):
            texts = self.cell_texts(cell_, width)
            h = sum(t.height() for t in texts) + CELL_GAP * max(0, len(texts) - 1)
            tallest = max(tallest, h)
        return tallest + 2 * CELL_PAD_Y

    def draw_row(self, row: Sequence[Cell], widths: Sequence[float], aligns: Sequence[str], height: float,
                 fill: str | None) -> None:
        items = self.page.items
        if fill is not None:
            items.append(Rect(round(self.x, 3), round(self.y, 3), round(sum(widths), 3), round(height, 3),
                              Paint(fill=fill)))
        x = self.x
        for cell_, width, align in zip(row, widths, aligns):
            if cell_.fill is not None:
                items.append(Rect(round(x, 3), round(self.y, 3), round(width, 3), round(height, 3),
                                  Paint(fill=cell_.fill)))
            y = self.y + CELL_PAD_Y
            for para, text in zip(cell_.paras, self.cell_texts(cell_, width)):
                h = text.height()
                items.extend(text.runs(0, len(text.lines), x + CELL_PAD_X, y, width - 2 * CELL_PAD_X,
                                       para.align if para.align != "left" else align, para.colour))
                if para.anchor:
                    self.anchor(para.anchor, y - 2.0)
                if para.link:
                    self.page.links.append(Link(x, y - 1.0, width, h + 2.0, para.link))
                y += h + CELL_GAP
            x += width
        self.y += height

    def table_start(self, block: Table) -> float:
        """The height a table needs on the page it starts on: a short table (a third of the frame at most) stays
        on one page whole; a longer one starts where its header and first group fit. A heading before the table
        keeps with this much, so it never stays behind at a page's foot when the table moves on."""
        widths = self.column_widths(block)
        head_h = self.row_height(self.header_cells(block), widths) if _has_header(block) else 0.0
        heights = [self.row_height(row, widths) for row in block.rows]
        groups = block.groups or tuple(range(len(block.rows)))
        first_unit = sum(h for h, _g in takewhile(lambda hg: hg[1] == groups[0], zip(heights, groups)))
        whole = head_h + sum(heights)
        frame = self.bottom - self.top
        return whole if whole <= frame / 3 else head_h + min(first_unit, frame - head_h)

    def table(self, block: Table) -> None:
        if any(len(row) != len(block.columns) for row in block.rows):
            raise LayoutProblem(f"{self.doc.title}: a table row has a number of cells other than its "
                                f"{len(block.columns)} columns")
        widths = self.column_widths(block)
        aligns = [c.align for c in block.columns]
        head = self.header_cells(block)
        head_h = self.row_height(head, widths) if _has_header(block) else 0.0
        heights = [self.row_height(row, widths) for row in block.rows]
        groups = block.groups or tuple(range(len(block.rows)))
        units: list[list[int]] = []
        for index, group in enumerate(groups):
            if units and groups[units[-1][0]] == group:
                units[-1].append(index)
            else:
                units.append([index])
        frame = self.bottom - self.top

        def start() -> None:
            if head_h:
                self.draw_row(head, widths, aligns, head_h, HEAD_FILL)

        def rule(y: float, colour: str, width: float) -> None:
            self.page.items.append(Line(round(self.x, 3), round(y, 3), round(self.x + sum(widths), 3), round(y, 3),
                                        colour, width))

        self.ensure(self.table_start(block))
        start()
        for number, unit in enumerate(units):
            unit_h = sum(heights[i] for i in unit)
            if unit_h <= frame - head_h and unit_h > self.room() + 1e-6:
                self._new_page()
                start()
            shade = SHADE if number % 2 else None
            for position, index in enumerate(unit):
                h = heights[index]
                if h > frame - head_h:
                    raise LayoutProblem(f"{self.doc.title}: a table row is {h / mm(1):.0f} mm tall, taller than a "
                                        f"page ({_quote(_row_text(block.rows[index]))})")
                if h > self.room() + 1e-6:
                    self._new_page()
                    start()
                under_header = abs(self.y - (self.top + head_h)) < 1e-6
                y0 = self.y
                self.draw_row(block.rows[index], widths, aligns, h, shade)
                # rules go on top of the rows' shading: a hairline between the rows of a group, a rule between groups
                if position:
                    rule(y0, HAIRLINE, 0.3)
                elif number and not under_header:
                    rule(y0, RULE, 0.5)
        if units:
            rule(self.y, RULE, 0.5)
        self.y += block.after

    # --- contents ---

    def contents(self, block: Contents) -> None:
        for title, key, level in block.entries:
            style = f"toc{level}"
            indent = TOC_INDENT[level]
            width = self.width - indent - TOC_NUMBER
            text = self.measure(_escape(title), style, width)
            before = 5.0 if level == 1 and not self.at_top else 1.5
            h = text.height()
            self.ensure(before + h)
            if not self.at_top:
                self.y += before
            x = self.x + indent
            runs = text.runs(0, len(text.lines), x, self.y, width, "left")
            self.page.items.extend(runs)
            last = text.lines[-1]
            st = text.style
            baseline = self.y + fonts.metrics(st.face).ascent * st.size + (len(text.lines) - 1) * st.size * st.leading
            end = x + last.w1 * st.size + 4.0
            right = self.x + self.width
            if end < right - TOC_NUMBER + 4.0:
                self.page.items.append(Line(round(end, 3), round(baseline, 3), round(right - TOC_NUMBER + 4.0, 3),
                                            round(baseline, 3), RULE, 0.6, (0.6, 2.4)))
            self.page.deferred.append((len(self.page.items), _page_number(key, right, baseline, st)))
            self.page.links.append(Link(x, self.y - 1.0, right - x, h + 2.0, key))
            self.y += h
        self.y += block.after

    # --- the end ---

    def finish(self) -> list[Page]:
        total = len(self.pages)
        pages = []
        for number, page in enumerate(self.pages, start=1):
            items = list(page.items)
            for at, deferred in reversed(page.deferred):
                items[at:at] = deferred(self.anchor_pages, total)
            # the running header first and the footer last, so that text comes out in reading order
            items = [*self.header(number, page.section), *items, *self.footer(number, total)]
            for link in page.links:
                if link.key not in self.anchor_pages:
                    raise LayoutProblem(f"{self.doc.title}: a link goes to {link.key!r}, which is nowhere")
            pages.append(Page(self.page_w, self.page_h, (), tuple(items), "sheet", number,
                              f"{self.doc.title} · {self.page_of(number, total)}", tuple(page.anchors),
                              tuple(page.links)))
        return pages

    def header(self, number: int, section: str) -> list[Primitive]:
        """The running header, on every page but the first: the document's title, and the section."""
        if number == 1:
            return []
        style = STYLES["running"]
        left, right = self.x, self.x + self.width
        base = MARGIN_TOP + fonts.metrics(style.face).ascent * style.size
        out = self._running(self.doc.title, left, base, "left")
        if section:
            out += self._running(section, right, base, "right")
        rule_y = round(MARGIN_TOP + HEADER_H * 0.55, 3)
        out.append(Line(round(left, 3), rule_y, round(right, 3), rule_y, HAIRLINE, 0.5))
        return out

    def _running(self, text: str, x: float, baseline: float, align: str) -> list[Primitive]:
        """One line of the running header at `x` (its right end, right-aligned); what its font lacks drawn in the
        document's other faces (a deck named in Georgian), on half the line's width, so that a left and a right
        part both fit."""
        style = STYLES["running"]
        if not (self.doc.faces and fonts.missing(style.face, text)):
            return [_run(x, baseline, text, style, align=align)]
        width = self.width / 2
        top = baseline - fonts.metrics(style.face).ascent * style.size
        return self.measure(text, "running", width).runs(0, 1, x - width if align == "right" else x, top, width,
                                                          align)

    def footer(self, number: int, total: int) -> list[Primitive]:
        """The footer: the document's footer text, and `page n of N`."""
        style = STYLES["running"]
        m = fonts.metrics(style.face)
        left, right = self.x, self.x + self.width
        foot = self.page_h - MARGIN_BOTTOM - style.size * m.descent
        rule_y = round(self.page_h - MARGIN_BOTTOM - FOOTER_H * 0.55, 3)
        out: list[Primitive] = [Line(round(left, 3), rule_y, round(right, 3), rule_y, HAIRLINE, 0.5)]
        if self.doc.footer:
            out.extend(self.measure(self.doc.footer, "running", self.width * 0.75)
                       .runs(0, 1, left, foot - m.ascent * style.size, self.width * 0.75, "left"))
        out.append(_run(right, foot, self.page_of(number, total), style, align="right"))
        return out

    def page_of(self, number: int, total: int) -> str:
        lang = self.doc.lang
        return lang._("page {number} of {total}").format(number=lang.number(number), total=lang.number(total))


def _run(x: float, baseline: float, text: str, style: Style, align: str = "left") -> TextRun:
    """One line of plain text (no markup) at a baseline, its right end at `x` when right-aligned."""
    w = fonts.measure(style.face, text) * style.size
    left = x - w if align == "right" else x
    return TextRun(round(left, 3), round(baseline, 3), text, style.face, style.size, style.colour, round(w, 3))


def _page_number(key: str, right: float, baseline: float, style: Style) -> Deferred:
    def draw(anchor_pages: Mapping[str, int], total: int) -> list[Primitive]:
        page = anchor_pages.get(key)
        if page is None:
            raise LayoutProblem(f"the contents name {key!r}, which is nowhere in the document")
        return [_run(right, baseline, str(page), style, align="right")]

    return draw


def _has_header(table: Table) -> bool:
    return table.header and any(c.title for c in table.columns)


#: Brackets around text that keeps the catalogs' own language inside a page in another (the notes on sources, in
#: English): two characters of Unicode's private use area, which no font donjon ships draws (a catalog text holding
#: one could not be printed anyway), taken out before the text is drawn.
AS_WRITTEN = ("\ue000", "\ue001")


def as_written(text: str) -> str:
    """`text` to be set as its own language writes it, without the page language's typography (French spaces
    before `;`, its quotes and apostrophes): for English text on a French or German page."""
    return f"{AS_WRITTEN[0]}{text}{AS_WRITTEN[1]}"


def _typeset(lang: Language, face: str, text: str) -> str:
    """`text` with `lang`'s typography, but for the parts :func:`as_written` brackets, which keep theirs."""
    if AS_WRITTEN[0] not in text:
        return fonts.typeset(lang, face, text)
    out = []
    for index, part in enumerate(re.split(f"[{AS_WRITTEN[0]}{AS_WRITTEN[1]}]", text)):
        out.append(part if index % 2 else fonts.typeset(lang, face, part))
    return "".join(out)


def plain(text: str) -> str:
    """Plain text (a designer's cell) as markup that prints it as it is: its `**`, brackets and braces shown."""
    return _escape(text)


def _escape(text: str) -> str:
    """Plain text as markup that prints it as it is."""
    from generator.render.text import escape_markup

    return escape_markup(text).replace("{", "\\{")


def _quote(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _row_text(row: Sequence[Cell]) -> str:
    return " | ".join(p.text for c in row for p in c.paras)


def layout(doc: ReferenceDocument, page_size: tuple[float, float]) -> list[Page]:
    """The pages of a document on paper of `page_size` (points, portrait)."""
    return Pagination(doc, page_size).run()
