"""Incremental builds for `donjon build --watch`: what the last build of a deck made is kept in the watch's
process, so that a save redraws only the cards it changes and writes only the files that changed.

What a drawing is made from, and so what it is kept by (:class:`DeckMemo`):

- a card's face: its face layout (the contents of every file it was made from: itself, the layouts it extends,
  its fonts and icons: :attr:`Layout.files`), the card's row (every value, its copies, its layout and back
  columns; not the line it is on, which only messages name), the deck (`deck.name`, `deck.cards`...) when the
  layout reads it, and the picture files it shows, by their stat (inode, size, modification and change times:
  what the picture module keys them by too, as reading every picture again on every save would cost more than
  drawing);
- a card's back: the same with its back layout (a back that reads nothing of the card is the deck's one back);
- what the whole deck shares (card size and shape, its folder, the deck's fonts and icons, the build's options):
  when that changes, nothing is kept.

Files (:meth:`DeckMemo.put`): a card's SVG whose drawing is the one kept, under the same title, is not written
again, after checking that the file in place is the one this watch wrote (its inode, size and modification
time), so a file changed or replaced by anything else is written anew. When the folder in place holds exactly the
files this build writes, all of them this watch's (:meth:`DeckMemo.in_place`: the usual save, a row's text
changed), it is updated file by file (generator.output.UpdatedFolder): each file written is staged in the build's
transaction and replaces its old version when it commits, and a file kept is left where it is. Otherwise (a card
added or removed, a file missing or one no build writes) the folder is staged whole and swapped in, taking each
file kept from the folder in place by a hard link (generator.output.StagedFolder.link). Either way a failed build
leaves every file as it was. A redrawn card whose file comes out the same bytes is kept too. The document of
sheets is written whole (it places every card), in memory, with what the PDF writer kept of the last one
(generator.backends.pdf.PdfMemo: the operators of every drawing it places again, of each page's own marks and
page line, each page's compressed stream), and put in place only when its bytes changed.

An incremental build writes exactly the files a new build of the same files writes (tests/test_incremental.py
compares them byte for byte after each kind of change).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from generator.backends import CardWriter, Memo
from generator.build.decks import DeckLayouts, Drawer, pictures
from generator.catalog.deck import Card
from generator.errors import InputError
from generator.files import read_bytes
from generator.layout.draw import DeckView
from generator.layout.load import Layout
from generator.output import StagedFolder
from generator.render.model import Drawing


class Stamp(NamedTuple):
    """What tells that a file in place is still the one written, without reading it."""

    inode: int
    size: int
    mtime_ns: int


def stamp(path: str | Path) -> Stamp | None:
    """The stamp of the file at `path` (not followed if a link), None when there is none."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return Stamp(found.st_ino, found.st_size, found.st_mtime_ns)


#: A picture's stat, as the picture module keys what it read of it: inode, size, modification and change times.
PictureStamp = tuple[int, int, int, int] | None


def _picture_stamp(path: str) -> PictureStamp:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


#: The largest file a layout is made from (a font or an icon among them) that is read to tell whether it changed:
#: the largest picture the picture module reads (generator.render.images.MAX_BYTES, not imported here: a deck without
#: pictures never loads that module). A larger file is refused where it is loaded anyway.
LARGEST_FILE = 64 * 1024 * 1024


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class _Drawn(NamedTuple):
    """A drawing kept, with what it was made from (see the module's notes)."""

    key: tuple[object, ...]
    pictures: tuple[tuple[str, PictureStamp], ...]
    drawing: Drawing


class _File(NamedTuple):
    """A per-card file this watch wrote: what it holds, and the stamp of the file written."""

    drawing: Drawing
    title: str
    digest: bytes
    stamp: Stamp | None


class _Document(NamedTuple):
    digest: bytes
    stamp: Stamp | None


def _plain(card: Card) -> Card:
    """A card as its drawing sees it: its line in the table only names it in messages."""
    return card._replace(origin="")


class DeckMemo:
    """What the last build of one deck made (see the module's notes), for the next build of it in this process.

    `build_deck(..., kept=memo)` takes from it what did not change; :meth:`commit` (the build's outputs are in
    place) makes this build's drawings and files the ones kept, :meth:`abandon` (the build failed) keeps the last
    good build's files and every drawing made (a drawing is the same whatever became of the build)."""

    def __init__(self, context: tuple[object, ...]) -> None:
        #: what the whole deck shares (see the module's notes): a memo serves builds of one context only
        self.context = context
        self.drawn: dict[tuple[str, str], _Drawn] = {}
        #: the per-card files in place, by path
        self.files: dict[str, _File] = {}
        self.documents: dict[Path, _Document] = {}
        self.memos: dict[str, Memo] = {}
        #: drawings made and files written by the build under way (the others were kept)
        self.redrawn = 0
        self._drawn: dict[tuple[str, str], _Drawn] = {}
        self._files: dict[str, _File] = {}
        self._documents: dict[Path, _Document] = {}
        self._layouts: dict[int, tuple[Layout, tuple[object, ...]]] = {}
        self._pictures: dict[str, PictureStamp] = {}
        #: the picture files each drawing shows, by the drawing's id (the drawing kept with them): this build's, and
        #: the last one's
        self._shown: dict[int, tuple[Drawing, frozenset[Path]]] = {}
        self._shown_last: dict[int, tuple[Drawing, frozenset[Path]]] = {}

    def begin(self) -> None:
        """A build starts: files and pictures are looked at anew."""
        self.redrawn = 0
        self._drawn, self._files, self._documents = {}, {}, {}
        self._layouts.clear()
        self._pictures.clear()
        if self._shown:
            self._shown_last, self._shown = self._shown, {}

    def commit(self) -> None:
        """The build's outputs are in place: they are what the next build compares with."""
        self.drawn = self._drawn
        self.files = self._files
        for target, document in self._documents.items():
            self.documents[target] = document if document.stamp is not None else document._replace(
                stamp=stamp(target))
        self.begin()

    def abandon(self) -> None:
        """The build failed: the files in place are still the last good build's."""
        self.drawn.update(self._drawn)
        self.begin()

    # --- drawings --------------------------------------------------------------------------------------------------

    def drawer(self, layouts: DeckLayouts, view: DeckView, bleed: float, light: bool, guides: bool) -> Drawer:
        return _KeptDrawer(self, layouts, view, bleed, light, guides)

    def layout_key(self, layout: Layout) -> tuple[object, ...]:
        """A layout by the contents of every file it was made from (read once a build)."""
        found = self._layouts.get(id(layout))
        if found is None or found[0] is not layout:
            parts: list[object] = [layout.ref, layout.file]
            for path in layout.files:
                try:
                    parts.append((str(path), _digest(read_bytes(path, max_bytes=LARGEST_FILE))))
                except InputError:  # gone since it was loaded: this build fails or the next one reads it
                    parts.append(object())  # equal to nothing
            found = self._layouts[id(layout)] = (layout, tuple(parts))
        return found[1]

    def _picture(self, path: str) -> PictureStamp:
        if path not in self._pictures:
            self._pictures[path] = _picture_stamp(path)
        return self._pictures[path]

    def drawing(self, slot: tuple[str, str], key: tuple[object, ...], make: Callable[[], Drawing]) -> Drawing:
        """The drawing in `slot` (a card's face or back, the deck's back) made from `key`: the one kept when it was
        made from the same and its pictures did not change, else `make()`."""
        found = self._drawn.get(slot)  # made by this build already (the deck's one back)
        if found is None or found.key != key:
            found = self.drawn.get(slot)
            if found is None or found.key != key or any(self._picture(p) != s for p, s in found.pictures):
                drawing = make()
                used = sorted(str(p) for p in pictures(drawing))
                found = _Drawn(key, tuple((p, self._picture(p)) for p in used), drawing)
                self.redrawn += 1
            self._drawn[slot] = found
        return found.drawing

    def shown(self, drawing: Drawing) -> frozenset[Path]:
        """The picture files `drawing` shows, found once for as long as it is kept (a thousand cards' drawings are
        looked through again with every save otherwise)."""
        key = id(drawing)
        found = self._shown.get(key) or self._shown_last.get(key)
        if found is None or found[0] is not drawing:
            found = (drawing, frozenset(pictures(drawing)))
        self._shown[key] = found
        return found[1]

    # --- files -----------------------------------------------------------------------------------------------------

    def put(self, folder: StagedFolder, name: str, drawing: Drawing, title: str, write: CardWriter) -> bool:
        """Put a card's file into its staged folder: the one in place, by a hard link, when it holds this very
        drawing (or the same bytes) and nothing changed it since this watch wrote it; else written. Whether it was
        written."""
        final = f"{folder.final}/{name}"  # a string: Path objects for a thousand cards would cost more than linking
        old = self.files.get(final)
        if old is not None and old.drawing is drawing and old.title == title and stamp(final) == old.stamp \
                and folder.link(name, final):
            self._files[final] = old
            return False
        data = write(drawing, title).encode("utf-8")
        digest = _digest(data)
        if old is not None and old.digest == digest and stamp(final) == old.stamp and folder.link(name, final):
            self._files[final] = _File(drawing, title, digest, old.stamp)
            return False
        folder.write(name, data)
        self._files[final] = _File(drawing, title, digest, stamp(folder.written(name)))
        return True

    def in_place(self, folder: Path, names: frozenset[str]) -> bool:
        """Whether the per-card folder in place holds exactly the files `names` (relative paths), all of them files
        this watch wrote there: then it is updated file by file (generator.output.UpdatedFolder), each file that
        changed replacing its old version, rather than staged whole (a second name for every file kept)."""
        prefix = f"{folder}/"
        known = {path[len(prefix):] for path in self.files if path.startswith(prefix)}
        if known != names or os.path.islink(folder):
            return False
        folders = {name.rsplit("/", 1)[0] + "/" for name in names if "/" in name}
        return _listing(folder) == names | folders

    def memo(self, backend: str) -> Memo:
        """What the document writer `backend` keeps between the documents of this deck."""
        return self.memos.setdefault(backend, Memo())

    def unchanged(self, target: Path, data: bytes) -> bool:
        """Whether the document in place at `target` is the one this watch wrote, with these very bytes (then it
        is left in place, not written again)."""
        digest = _digest(data)
        old = self.documents.get(target)
        same = old is not None and old.digest == digest and old.stamp is not None and stamp(target) == old.stamp
        self._documents[target] = old if same and old is not None else _Document(digest, None)
        return same


def _listing(folder: Path) -> frozenset[str] | None:
    """The files in `folder` and in its folders (`backs/NAME`), each folder too (`backs/`); None when it cannot be
    read or goes deeper."""
    out: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False):
                    out.append(entry.name)
                    continue
                out.append(f"{entry.name}/")
                with os.scandir(entry.path) as inner:
                    for file in inner:
                        if file.is_dir(follow_symlinks=False):
                            return None
                        out.append(f"{entry.name}/{file.name}")
    except OSError:
        return None
    return frozenset(out)


class _KeptDrawer(Drawer):
    """A deck's drawer that takes from a DeckMemo every drawing made from what it was made from before."""

    def __init__(self, memo: DeckMemo, layouts: DeckLayouts, view: DeckView, bleed: float, light: bool,
                 guides: bool) -> None:
        super().__init__(layouts, view, bleed, light, guides)
        self.memo = memo

    def _view(self, layout: Layout) -> DeckView | None:
        return self.view if "deck" in layout.reads else None

    def face(self, card: Card) -> Drawing:
        layout = self.layouts.face(card)
        key = (self.memo.layout_key(layout), _plain(card), self._view(layout))
        return self.memo.drawing(("face", card.id), key, lambda: Drawer.face(self, card))

    def pictures(self, drawing: Drawing) -> frozenset[Path]:
        return self.memo.shown(drawing)

    def back(self, card: Card) -> Drawing:
        layout = self.layouts.back(card)
        slot = ("back", card.id) if layout.per_card else ("deck back", layout.file)
        key = (self.memo.layout_key(layout), _plain(card) if layout.per_card else None, self._view(layout))
        return self.memo.drawing(slot, key, lambda: Drawer.back(self, card))
