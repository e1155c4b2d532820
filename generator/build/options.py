"""What a build is asked for and what it reports having written."""

from pathlib import Path
from typing import NamedTuple

from generator.backends import names
from generator.render.imposition import PrintOptions
from generator.render.ink import PressSettings


class BuildOptions(NamedTuple):
    print_options: PrintOptions = PrintOptions()
    #: the backends to write, by name (`--format`), in the order of the backends table
    formats: tuple[str, ...] = names()
    #: one copy of each card instead of the deck's counts
    unique: bool = False
    #: "light": every card drawn to spare ink (generator.render.ink_light); "normal" as designed
    ink: str = "normal"
    #: how the sheets' colours print: RGB, or CMYK through an ICC profile (`--colour cmyk`)
    press: PressSettings = PressSettings()
    #: the language to build in (None: each deck's own), and a second language for the cards' names (`--also`)
    lang: str | None = None
    also: str | None = None
    #: a proof: the cut line, the bleed's edge and the safe area drawn over every card (`--guides`)
    guides: bool = False


class Written:
    """One output file (or folder of files) and what it holds, for the end-of-build report."""

    __slots__ = ("path", "what", "pages", "cards", "files", "folder", "rewritten")

    path: Path
    #: what it is, in words (the backend's label for a deck's files: `PDF`, `SVG`)
    what: str
    pages: int
    cards: int
    #: files written: 1 for a document, the number of files of a folder
    files: int
    #: a folder of files (one per card) rather than one document
    folder: bool
    #: how many of its files this build wrote, when it kept the others as they were (`--watch`); None: all
    rewritten: int | None

    def __init__(self, path: Path, what: str, pages: int = 0, cards: int = 0, files: int = 1, folder: bool = False,
                 rewritten: int | None = None) -> None:
        self.path = path
        self.what = what
        self.pages = pages
        self.cards = cards
        self.files = files
        self.folder = folder
        self.rewritten = rewritten
