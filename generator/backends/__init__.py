"""Backends: each turns pages and drawings of :mod:`generator.render.model` into one file format.

:data:`BACKENDS` is the one table of them: the build, the check of `--format`, its help text and the build's
report all read it, so a new backend is one module and one row. A backend either writes *imposed* pages (a
deck's sheets of cards in one document; such a backend can also write the score sheets and the card
references) or one file *per card* (each face, and the back, in a folder of the deck).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from generator.render.ink import PressSettings
    from generator.render.model import Drawing, Page


class PagesWritten(Protocol):
    """What an imposed backend says it wrote."""

    @property
    def pages(self) -> int: ...


class Memo:
    """What a writer keeps of the documents it wrote, to write the next one of the same series faster (`donjon
    build --watch` keeps one per deck): each writer keeps what it needs under its own name (`kept`), and only it
    reads it. A memo never changes what is written: a document written with one is byte for byte the one written
    without."""

    def __init__(self) -> None:
        self.kept: dict[str, object] = {}


class PageWriter(Protocol):
    """Writes pages into a file (or a binary stream), with the document's title, subject and language."""

    def __call__(self, pages: Iterable[Page], path: Path | IO[bytes], *, title: str, subject: str = "",
                 ink: PressSettings = ..., memo: Memo | None = None, lang: str = "en") -> PagesWritten: ...


#: A drawing (a card face or a back) as the text of one file, with its title.
CardWriter = Callable[["Drawing", str], str]


class Backend:
    """One output format of `donjon build`."""

    __slots__ = ("name", "label", "suffix", "imposed", "writer", "makes")

    #: the word `--format` takes
    name: str
    #: how reports and help name its files
    label: str
    #: the suffix of the files it writes
    suffix: str
    #: True: the imposed pages of a deck in one document (`OUT/GAME/DECK.SUFFIX`, or `OUT/decks/DECK.SUFFIX` for
    #: a deck of your own), and documents such as score sheets and references; False: one file per card face
    #: and one for the back (`OUT/GAME/DECK/NAME/`)
    imposed: bool
    #: `module:function` writing it: a PageWriter for imposed backends, a CardWriter for the others
    writer: str
    #: what it makes, for `--help`
    makes: str

    def __init__(self, name: str, label: str, suffix: str, imposed: bool, writer: str, makes: str) -> None:
        self.name = name
        self.label = label
        self.suffix = suffix
        self.imposed = imposed
        self.writer = writer
        self.makes = makes

    def page_writer(self) -> PageWriter:
        if not self.imposed:
            raise TypeError(f"the {self.name} backend writes one file per card, not pages")
        return cast(PageWriter, _load(self.writer))

    def card_writer(self) -> CardWriter:
        if self.imposed:
            raise TypeError(f"the {self.name} backend writes imposed pages, not one file per card")
        return cast(CardWriter, _load(self.writer))


BACKENDS: tuple[Backend, ...] = (
    Backend("pdf", "PDF", "pdf", True, "generator.backends.pdf:write_pdf",
            "sheets of cards with crop marks and duplex backs, plus score sheets and references"),
    Backend("svg", "SVG", "svg", False, "generator.backends.svg:drawing_svg",
            "an SVG file of every card and the back, and of each score sheet to print (as designed, at no printer's "
            "scale; with svg alone, beside its map of marks)"),
)


def _load(reference: str) -> Any:
    module, _, function = reference.partition(":")
    return getattr(importlib.import_module(module), function)


def names() -> tuple[str, ...]:
    return tuple(b.name for b in BACKENDS)


def backend(name: str) -> Backend:
    """The backend called `name` (KeyError for an unknown one: the command line checks names first)."""
    for found in BACKENDS:
        if found.name == name:
            return found
    raise KeyError(name)


def write_pages(name: str, pages: Iterable[Page], path: Path | IO[bytes], *, title: str,
                subject: str = "") -> PagesWritten:
    """Write pages with the imposed backend `name` (the score sheets and references use it)."""
    return backend(name).page_writer()(pages, path, title=title, subject=subject)


#: Numbers already written: a card's shapes are drawn in its own coordinates, so the same few hundred values come
#: back on every card of a deck. Bounded: a new table starts when it is full.
_WRITTEN: dict[float, str] = {}
_WRITTEN_MOST = 50_000


def number(value: float) -> str:
    """A coordinate as both backends write it: at most three decimals (a thousandth of a point), no trailing
    zeros, never `-0`, so equal geometry gives equal bytes."""
    found = _WRITTEN.get(value)
    if found is None:
        text = f"{value:.3f}".rstrip("0").rstrip(".")
        found = "0" if text in ("-0", "") else text
        if len(_WRITTEN) >= _WRITTEN_MOST:
            _WRITTEN.clear()
        _WRITTEN[value] = found
    return found
