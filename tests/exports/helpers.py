"""Helpers shared by the export tests: decks of one's own, reading PNGs, checking HTML."""

from __future__ import annotations

import csv
import html.parser
from pathlib import Path
from typing import TYPE_CHECKING

from render_helpers import COLOURS, FLAT, MARKED_BACK, make_deck, run

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["COLOURS", "FLAT", "MARKED_BACK", "coloured_deck", "make_deck", "manifest", "open_png", "run",
           "HtmlChecker", "check_html"]


def coloured_deck(folder: Path, count: int, *, copies: int = 1, size: str | None = None, deck_id: str = "test-deck",
                  layout: str | None = FLAT, back: str | None = MARKED_BACK) -> Path:
    """A deck of `count` flat-coloured cards (a colour per card from COLOURS, repeating) with a marked back."""
    rows = [{"name": f"Card {i + 1}", "colour": COLOURS[i % len(COLOURS)], "copies": str(copies + i % 2)}
            for i in range(count)]
    extra = "count_column: copies\n" + (f"card_size: {size}\n" if size else "")
    return make_deck(folder, rows, layout=layout, back=back, deck_id=deck_id, extra=extra)


def open_png(path: Path) -> Image:
    """A PNG fully decoded (Pillow checks every chunk's CRC and the zlib stream)."""
    from PIL import Image

    with Image.open(path) as probe:
        assert probe.format == "PNG", path
        probe.verify()
    image = Image.open(path)
    image.load()
    return image


def manifest(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class HtmlChecker(html.parser.HTMLParser):
    """Parses a page and records what a strict reader would object to: a tag closed that is not open, an element
    left open, a doubled id, markup the parser could not read. Also collects tags, attributes and text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.ids: set[str] = set()
        self.text: list[str] = []
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.tags.append((tag, values))
        if "id" in values:
            if values["id"] in self.ids:
                self.problems.append(f"id {values['id']!r} twice")
            self.ids.add(values["id"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_html(text: str) -> HtmlChecker:
    """Parse a page; fail on anything malformed."""
    checker = HtmlChecker()
    checker.feed(text)
    checker.close()
    assert checker.doctype, "no <!DOCTYPE html>"
    assert not checker.problems, checker.problems
    assert checker.stack == [], f"elements left open: {checker.stack}"
    return checker
