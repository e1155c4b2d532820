"""What a deck or a layout brings besides its cards: fonts and icons of its own.

Both `deck.yaml` and a layout file may declare them, with paths relative to the file that declares them and
inside the content folder:

    fonts:
      dejavu: {regular: fonts/DejaVuSerif.ttf, bold: fonts/DejaVuSerif-Bold.ttf, italic: fonts/DejaVuSerif-Italic.ttf}
      title: fonts/Title.otf              # a family of one face
    icons:
      mana: icons/mana.svg                # {mana} in text, or `icon: mana` in an icon box
      sword: icons/sword.png
    # or every .svg and .png of a folder, each named after its file: `icons: icons/`

The specs here check the declarations; :func:`resolve_assets` turns checked values into :class:`Assets`, with
absolute paths and where each was declared (for messages). What the files hold is checked where they are used
(generator.render.fonts, generator.render.images).
"""

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from generator.errors import Problem
from generator.fields import AnyOf, Field, MapOf, Record, Slug, Text
from generator.files import inside, resolve_within
from generator.i18n import phrase
from generator.sayings import quote
from generator.yamlio import Document

#: The styles a family may give, as `deck.yaml` and layouts spell them.
FONT_STYLES = ("regular", "bold", "italic", "bold_italic")
#: The kinds of file an icon may be.
ICON_SUFFIXES = (".svg", ".png")
#: The most icons a folder may give (a typical game has a few dozen).
MAX_ICONS = 500

_FILE = Text(max_len=300, doc="a file, relative to the file that declares it")

FONT_FAMILY: Record[dict[str, Any]] = Record(
    name="font family",
    doc="A font family of one's own: a TTF or OTF file per style (regular is required).",
    fields={style: Field(_FILE, required=style == "regular",
                         doc=f"the {style.replace('_', ' ')} face" + (" (needed)" if style == "regular" else ""))
            for style in FONT_STYLES},
)

FONTS = MapOf(key=Slug(), value=AnyOf(options=(_FILE, FONT_FAMILY), what="a font file or its styles"),
              max_items=50,
              doc="fonts of one's own by name: a file, or {regular, bold, italic, bold_italic} files; a style uses "
                  "`font: NAME` (regular) or NAME-bold, NAME-italic, NAME-bold-italic")
ICONS = AnyOf(options=(Text(max_len=300), MapOf(key=Slug(), value=_FILE, max_items=MAX_ICONS)),
              what="a folder of icons, or icon files by name",
              doc="icons of one's own (SVG or PNG): a folder whose files are named after them, or files by name; "
                  "used as {name} in text and in icon boxes")


class FontFamily(NamedTuple):
    """A family of one's own: its files by style (absolute paths), and where it was declared (a named tuple, as
    the deck records are: a frozen dataclass costs half a millisecond to define at start-up)."""

    files: tuple[tuple[str, Path], ...]
    #: `decks/fantasy/deck.yaml:7`, for messages
    origin: str


class Assets(NamedTuple):
    """Fonts and icons by name (hashable, so a layout compiled with them can be cached)."""

    fonts: tuple[tuple[str, FontFamily], ...] = ()
    #: (name, file, where it was declared)
    icons: tuple[tuple[str, Path, str], ...] = ()

    def over(self, other: "Assets") -> "Assets":
        """These assets with `other`'s on top (a name both give takes `other`'s)."""
        fonts = dict(self.fonts) | dict(other.fonts)
        icons = {name: (name, path, origin) for name, path, origin in self.icons}
        icons |= {name: (name, path, origin) for name, path, origin in other.icons}
        return Assets(tuple(sorted(fonts.items())), tuple(sorted(icons.values())))

    def files(self) -> tuple[Path, ...]:
        """Every file the assets name (for `donjon build --watch`)."""
        return tuple(p for _n, f in self.fonts for _s, p in f.files) + tuple(p for _n, p, _o in self.icons)


NO_ASSETS = Assets()


def resolve_assets(values: Mapping[str, Any], doc: Document, base: Path, root: Path) -> tuple[Assets, list[Problem]]:
    """The `fonts` and `icons` of a checked deck or layout file whose folder is `base`; every problem found."""
    problems: list[Problem] = []
    fonts: list[tuple[str, FontFamily]] = []

    def path_of(ref: str, where: tuple[str | int, ...]) -> Path | None:
        try:
            found = resolve_within(root, base, ref)
        except ValueError as err:
            problems.append(Problem(doc.file, doc.line(where), ".".join(map(str, where)), str(err)))
            return None
        if not found.is_file():
            problems.append(Problem(doc.file, doc.line(where), ".".join(map(str, where)),
                                    phrase("{ref}: there is no such file", ref=quote(ref))))
            return None
        return found

    for name, given in (values.get("fonts") or {}).items():
        styles = {"regular": given} if isinstance(given, str) else {k: v for k, v in given.items() if v is not None}
        files = []
        for style, ref in styles.items():
            where: tuple[str | int, ...] = ("fonts", name) if isinstance(given, str) else ("fonts", name, style)
            found = path_of(ref, where)
            if found is not None:
                files.append((style, found))
        if len(files) == len(styles):
            fonts.append((name, FontFamily(tuple(files), f"{doc.file}:{doc.line(('fonts', name)) or '?'}")))
    icons: list[tuple[str, Path, str]] = []
    given_icons = values.get("icons")
    if isinstance(given_icons, str):
        icons += _icon_folder(given_icons, doc, base, root, problems)
    elif given_icons:
        for name, ref in given_icons.items():
            found = path_of(ref, ("icons", name))
            if found is not None:
                if found.suffix.lower() not in ICON_SUFFIXES:
                    problems.append(Problem(doc.file, doc.line(("icons", name)), f"icons.{name}",
                                            phrase("{ref} is neither an .svg nor a .png file", ref=quote(ref))))
                    continue
                icons.append((name, found, f"{doc.file}:{doc.line(('icons', name)) or '?'}"))
    return Assets(tuple(sorted(fonts)), tuple(sorted(icons))), problems


def _icon_folder(ref: str, doc: Document, base: Path, root: Path,
                 problems: list[Problem]) -> list[tuple[str, Path, str]]:
    line = doc.line(("icons",))
    try:
        folder = resolve_within(root, base, ref)
    except ValueError as err:
        problems.append(Problem(doc.file, line, "icons", str(err)))
        return []
    if not folder.is_dir():
        problems.append(Problem(doc.file, line, "icons", phrase("{ref} is not a folder (give a folder of .svg and .png "
                                                                "files, or icon files by name)", ref=quote(ref))))
        return []
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in ICON_SUFFIXES or not path.is_file() or path.name.startswith("."):
            continue
        name = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
        if not name:
            continue
        if name in found:
            problems.append(Problem(doc.file, line, "icons", phrase("{first} and {second} both give the icon {name}; "
                                                                    "rename one", first=found[name].name,
                                                                    second=path.name, name=quote(name))))
            continue
        if not inside(root.resolve(), path.resolve()):
            problems.append(Problem(doc.file, line, "icons", phrase("{file} in {ref} is a link leading outside the "
                                                                    "content folder; donjon reads only files inside "
                                                                    "it", file=path.name, ref=quote(ref))))
            continue
        found[name] = path.resolve()
        if len(found) > MAX_ICONS:
            problems.append(Problem(doc.file, line, "icons", phrase("{ref} holds more than {most} icons",
                                                                    ref=quote(ref), most=str(MAX_ICONS))))
            break
    if not found:
        problems.append(Problem(doc.file, line, "icons", phrase("{ref} holds no .svg or .png file", ref=quote(ref))))
    origin = f"{doc.file}:{line or '?'}"
    return [(name, path, origin) for name, path in found.items()]
