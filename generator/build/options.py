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


class Written(NamedTuple):
    """One output file (or folder of files) and what it holds, for the end-of-build report."""

    path: Path
    #: what it is, in words (the backend's label for a deck's files: `PDF`, `SVG`)
    what: str
    pages: int = 0
    cards: int = 0
    #: files written: 1 for a document, the number of files of a folder
    files: int = 1
    #: a folder of files (one per card) rather than one document
    folder: bool = False
    #: how many of its files this build wrote, when it kept the others as they were (`--watch`); None: all
    rewritten: int | None = None
