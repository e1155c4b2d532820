"""`donjon preview`: one static HTML page showing every card of every deck, and every PDF the output folder holds.

`OUT/preview/index.html` (from `templates/preview/index.html`, jinja2 with autoescaping: a card named
`<script>` or `{{ x }}` is shown as those characters), `OUT/preview/img/`: an image of every card face and
every back, rasterised like the PNG export (plain preset, PREVIEW_DPI), and of the first pages of every other
PDF found under OUT; and `OUT/preview/thumbs/`, each card's image at the size the page shows it. Images load
as they come into view (`loading="lazy"`), so a phone fetches what it shows, not the whole deck at once; an
index of every deck heads the page. The page is self-contained: inline CSS, no script, no font or file from the network, and
relative links, so the folder works offline and can be moved with the output folder.

One small inline script (allowed by the page's Content-Security-Policy by its hash, nothing else may run) makes
the page reload itself while `donjon build --watch --serve` rebuilds: when the page is served over HTTP from this
machine (localhost, 127.0.0.1 or ::1), it asks for `version.txt` every second and reloads when that differs from
the version written into the page. The version is a digest of everything the preview folder holds, so it changes
exactly when a card, a back or a page image does. Opened as a file, or from another machine, the script does
nothing.

Other PDFs are found, not registered: whatever `donjon build` wrote (deck sheets, castle score sheets, card
references, and any output added later) is shown, grouped under its game when it lies in a game's folder. A
PDF that cannot be read is listed with the reason, never fatal.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, cast
from urllib.parse import quote

from generator.catalog.deck import Deck
from generator.content import Content
from generator.errors import DonjonError, InputError, OutputError
from generator.export import jobs
from generator.export.cards import Prepared, prepare
from generator.export.geometry import PRESETS, Canvas, card_canvas
from generator.i18n import N_, Language, language
from generator.export.raster import PdfFile, Raster, canvas_page, pdfium_reason, png_bytes, render_pages
from generator.output import EXPORT_KINDS, StagedFolder, inside, safe_name, staged, transaction

#: Card images at 150 dpi, shown at 80 CSS px per inch (five poker cards across a laptop screen): sharp on
#: screens of high density, and 40 KB or so each.
PREVIEW_DPI = 150
CSS_PX_PER_INCH = 80
#: Pages of other PDFs: this many pixels across (or down, for a page more than twice as tall as it is wide),
#: shown at half that.
DOCUMENT_PX = 640
#: The first pages of each other PDF are shown, and a link to the whole.
DOCUMENT_PAGES = 4
#: The file the page compares its version with, beside index.html.
VERSION_FILE = "version.txt"
#: How often (ms) a page served from this machine asks whether it has changed.
RELOAD_EVERY_MS = 1000
#: The page's one script (see the module's notes); the page's CSP allows it by its SHA-256.
RELOAD_SCRIPT = """(function () {
  var here = ["localhost", "127.0.0.1", "[::1]", "::1"];
  if (location.protocol.indexOf("http") !== 0 || here.indexOf(location.hostname) < 0) { return; }
  var version = document.documentElement.getAttribute("data-version");
  setInterval(function () {
    fetch("%s", {cache: "no-store"}).then(function (answer) {
      return answer.ok ? answer.text() : version;
    }).then(function (text) {
      if (text.trim() !== version) { location.reload(); }
    }, function () {});
  }, %d);
})();""" % (VERSION_FILE, RELOAD_EVERY_MS)


#: Thumbnails on the page are this many image pixels per CSS pixel: sharp enough on a phone's dense screen; a
#: click opens the full image.
THUMB_DENSITY = 1.25
#: An image of few colours (a card's flat colours and the smoothed edges of its text: up to PALETTE_COLOURS) is
#: written with a palette of 256 when that moves no pixel by more than PALETTE_MOST_OFF in a channel, nor all by
#: more than PALETTE_MEAN_OFF on average: the shipped games' 294 images took 10.4 MB, 3.4 MB so (their worst
#: image 1.2 off on average, 15 at its worst pixel, an edge of a letter; pieces cut round keep their rim's
#: transparency: _see_through_palette). A photo or a gradient keeps its colours.
PALETTE_COLOURS = 4096
PALETTE_MOST_OFF = 16
PALETTE_MEAN_OFF = 1.5


class Picture(NamedTuple):
    """An image on the page: its path relative to index.html, its size in CSS pixels, and (for cards) the full
    image a click opens (the thumbnail itself when empty)."""

    src: str
    width: int
    height: int
    full: str = ""

    @property
    def href(self) -> str:
        return self.full or self.src


@dataclass
class CardEntry:
    name: str
    copies: int
    picture: Picture
    #: the card's own back, in a deck whose cards have backs of their own
    back: Picture | None = None


@dataclass
class PdfListing:
    """A PDF found under OUT: where it is (relative to OUT), a link to it, and images of its first pages."""

    path: str
    href: str
    pages: int
    pictures: list[Picture] = field(default_factory=list)
    problem: str = ""
    #: the anchor of the section showing it ("" for "Other documents")
    where: str = ""


@dataclass
class DeckEntry:
    deck: Deck
    anchor: str
    size: str
    cards: list[CardEntry]
    #: the one back of every card (None when each card shows its own)
    back: Picture | None
    documents: list[PdfListing] = field(default_factory=list)
    #: its pieces are cut along a shape (a circle, a hexagon, rounded corners): drawn on the page's paper with a
    #: shadow of their outline, not on a white card-shaped box
    shaped: bool = False


@dataclass
class GameEntry:
    id: str
    name: str
    anchor: str
    decks: list[DeckEntry] = field(default_factory=list)
    documents: list[PdfListing] = field(default_factory=list)

    @property
    def solo(self) -> bool:
        """Whether it is one deck of the same name (a deck of one's own is a "game" of its own): the page names it
        once, not as a game and again as its deck."""
        return len(self.decks) == 1 and self.decks[0].deck.name == self.name

    @property
    def cards(self) -> int:
        return sum(d.deck.total for d in self.decks)


class PreviewChunk(NamedTuple):
    #: a deck (index) and its items, or -1 and a document (index) whose first pages to render
    deck: int
    items: tuple[int, ...]
    document: int = -1


@dataclass(frozen=True)
class _Context:
    decks: list[Prepared]
    canvases: list[Canvas]
    #: each PDF with its pages to show: file name, width and height in pixels
    documents: list[tuple[Path, list[tuple[str, int, int]]]]
    folder: StagedFolder


#: How the preview names the card size presets.
SIZE_NAMES = {"poker": N_("poker"), "bridge": N_("bridge"), "tarot": N_("tarot"), "mini": N_("mini"),
              "square": N_("square"), "custom": N_("custom")}


def card_path(deck: Deck, name: str) -> str:
    return f"img/{safe_name(deck.namespace)}/{safe_name(deck.id)}/{name}"


def thumb_path(deck: Deck, name: str) -> str:
    return f"thumbs/{safe_name(deck.namespace)}/{safe_name(deck.id)}/{name}"


def _thumbnail(raster: Raster, canvas: Canvas) -> bytes:
    """The card's image at the size the page shows it (THUMB_DENSITY pixels per CSS pixel)."""
    from PIL import Image

    size = (max(1, round(_css(canvas.px_w, canvas.dpi) * THUMB_DENSITY)),
            max(1, round(_css(canvas.px_h, canvas.dpi) * THUMB_DENSITY)))
    small = raster.image().resize(size, Image.Resampling.LANCZOS)
    return _preview_png(Raster.of(small))


def _preview_png(raster: Raster, dpi: float | None = None) -> bytes:
    """The PNG of an image of the page: with a palette where it shows the image as it is (PALETTE_MOST_OFF),
    else as the PNG export writes it. The same pixels give the same bytes."""
    import io

    from PIL import Image, ImageChops, ImageStat

    image = raster.image()
    if image.getcolors(PALETTE_COLOURS) is None:
        return png_bytes(raster, dpi)
    palette = _see_through_palette(image) if image.mode == "RGBA" else image.quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if palette is None:
        return png_bytes(raster, dpi)
    off = ImageChops.difference(image, palette.convert(image.mode))  # transparency too (a piece cut round)
    means = ImageStat.Stat(off).mean
    extremes = cast("tuple[tuple[int, int], ...]", off.getextrema())  # one (low, high) a channel
    if max(high for _low, high in extremes) > PALETTE_MOST_OFF or sum(means) / len(means) > PALETTE_MEAN_OFF:
        return png_bytes(raster, dpi)
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=6, **({"dpi": (dpi, dpi)} if dpi else {}))
    return out.getvalue()


def _see_through_palette(image: Any) -> Any:
    """A palette of 256 for an image with transparency (a piece cut round), or None: each colour that is not
    opaque (the smoothed rim, a few dozen) kept as it is, with its alpha, and the opaque ones brought down to the
    rest of the palette. Octree over all four channels merged the rim's alphas with the opaque colours (107 off at
    worst): the shipped games' 46 round tiles kept all their colours, 1.5 MB; 0.46 MB so (worst 0.7 off on
    average, 15 at a pixel)."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(image)
    see_through = pixels[..., 3] < 255
    kinds, at = np.unique(pixels[see_through], axis=0, return_inverse=True)
    room = 256 - len(kinds)
    if room < 16:
        return None
    rgb = pixels[..., :3].copy()
    if see_through.any() and not see_through.all():
        rgb[see_through] = rgb[~see_through][0]  # a colour the opaque ones hold: it takes no place of its own
    opaque = Image.fromarray(rgb, "RGB").quantize(room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    index = np.asarray(opaque).copy()
    index[see_through] = room + at.reshape(-1)
    palette = Image.fromarray(index.astype(np.uint8), "P")
    colours = list(opaque.getpalette() or [])[:3 * room]
    palette.putpalette(colours + [0] * (3 * room - len(colours)) + [int(v) for v in kinds[:, :3].reshape(-1)])
    palette.info["transparency"] = bytes([255] * room + [int(v) for v in kinds[:, 3]])
    return palette


def render_chunk(context: _Context, chunk: PreviewChunk) -> tuple[int, str]:
    """Render a chunk's card images, or a document's first pages, into the staging folder: (bytes written, the
    reason a document could not be shown or "")."""
    written = 0
    if chunk.document >= 0:
        path, shown = context.documents[chunk.document]
        try:
            with PdfFile(path) as pdf:
                for index, (name, width, height) in enumerate(shown):
                    written += context.folder.write(name, _preview_png(pdf.render(index, width, height)))
        except OutputError:
            raise
        except DonjonError as err:
            return written, f"its pages cannot be drawn ({err})"
        except Exception as err:  # noqa: BLE001 - pdfium failing on a PDF someone put there (or changed since)
            return written, f"its pages cannot be drawn ({pdfium_reason(err)})"
        return written, ""
    prepared, canvas = context.decks[chunk.deck], context.canvases[chunk.deck]
    pages = [canvas_page(prepared.drawing(item, 0.0), canvas, n) for n, item in enumerate(chunk.items, start=1)]
    for item, raster in zip(chunk.items, render_pages(pages, [(canvas.px_w, canvas.px_h)] * len(pages),
                                                       prepared.deck.name)):
        name = prepared.name(item)
        written += context.folder.write(card_path(prepared.deck, name), _preview_png(raster, canvas.dpi))
        written += context.folder.write(thumb_path(prepared.deck, name), _thumbnail(raster, canvas))
    return written, ""


def find_documents(out: Path) -> list[Path]:
    """Every PDF under OUT, outside the export folders and hidden files, in a stable order; links not followed."""
    found = []
    root = out.resolve()
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (here == root and d in EXPORT_KINDS))
        for name in sorted(files):
            path = here / name
            if name.lower().endswith(".pdf") and not name.startswith(".") and not path.is_symlink():
                found.append(path)
    return found


def _css(pixels: int, dpi: float) -> int:
    return max(1, round(pixels * CSS_PX_PER_INCH / dpi))


class PreviewReport(NamedTuple):
    page: Path
    games: list[GameEntry]
    others: list[PdfListing]
    images: int
    bytes: int
    seconds: float
    warnings: list[str]


def export_preview(content: Content, decks: list[Deck], out: Path, jobs_count: int,
                   progress: Callable[[int], None], lang: str | None = None) -> PreviewReport:
    """Write OUT/preview/: the page and its images, its words in `lang` (English)."""
    speaks = language(lang or "en")
    start = time.perf_counter()
    final = inside(out, "preview")
    prepared = prepare(content, decks, {d.key: inside(final, "img", d.namespace, d.id) for d in decks})
    canvases = [card_canvas(p.deck.card_size, PRESETS["plain"], PREVIEW_DPI) for p in prepared]

    games: dict[str, GameEntry] = {}
    deck_entries = []
    for p, canvas in zip(prepared, canvases):
        deck = p.deck
        game = games.setdefault(deck.game, GameEntry(deck.game, deck.game_name, f"game-{safe_name(deck.game)}"))
        css = (_css(canvas.px_w, canvas.dpi), _css(canvas.px_h, canvas.dpi))
        own_backs: list[Picture | None] = [None] * len(deck.cards) if p.uniform else [
            Picture(thumb_path(deck, p.name(item)), *css, card_path(deck, p.name(item))) for item in p.backs()]
        cards = [CardEntry(card.name, card.copies, Picture(thumb_path(deck, name), *css, card_path(deck, name)), back)
                 for card, name, back in zip(deck.cards, p.names, own_backs)]
        size = deck.card_size
        entry = DeckEntry(deck, f"deck-{safe_name(deck.game)}-{safe_name(deck.id)}",
                          speaks._("{size} {width} x {height} mm").format(
                              size=speaks._(SIZE_NAMES[size.name]) if size.name in SIZE_NAMES else size.name,
                              width=speaks.number(size.width_mm), height=speaks.number(size.height_mm)), cards,
                          Picture(thumb_path(deck, "back.png"), *css, card_path(deck, "back.png")) if p.uniform
                          else None,
                          shaped=deck.shape is not None and (deck.shape.kind != "rect" or any(deck.shape.radii)))
        game.decks.append(entry)
        deck_entries.append(entry)

    warnings: list[str] = []
    found = _documents(out, games, deck_entries, warnings)
    documents = [(path, [(p.src, 2 * p.width, 2 * p.height) for p in document.pictures])
                 for path, document in found if document.pictures]
    shown = [document for _path, document in found if document.pictures]
    others = [document for _path, document in found if document.where == ""]

    with transaction(out), staged([final], "the preview") as [folder]:
        chunks: list[PreviewChunk] = []
        total = sum(len(p.deck.cards) + len(p.backs()) for p in prepared)
        per_chunk = jobs.chunk_size(total, jobs_count)
        for index, p in enumerate(prepared):
            items = [*range(len(p.deck.cards)), *p.backs()]
            chunks += [PreviewChunk(index, tuple(part)) for part in jobs.split(items, -(-len(items) // per_chunk))]
        chunks += [PreviewChunk(-1, (), i) for i in range(len(documents))]
        weights = [len(c.items) if c.document < 0 else len(documents[c.document][1]) for c in chunks]
        results = jobs.run(render_chunk, _Context(prepared, canvases, documents, folder), chunks, jobs=jobs_count,
                           weights=weights, progress=progress,
                           counts=[len(c.items) for c in chunks])  # the command's bar counts the cards
        written = sum(n for n, _problem in results)
        for chunk, (_n, problem) in zip(chunks, results):
            if problem:
                document = shown[chunk.document]
                document.problem, document.pictures = N_("its pages cannot be shown"), []
                warnings.append(f"preview: {document.path}: {problem}; it is listed without pictures")
        html = render_page(list(games.values()), others, speaks)
        version = _version(folder.tmp, html)
        written += folder.write("index.html", html.replace(_NO_VERSION, version).encode("utf-8"))
        written += folder.write(VERSION_FILE, (version + "\n").encode("ascii"))
    images = 2 * total + sum(len(document.pictures) for document in shown)
    return PreviewReport(final / "index.html", list(games.values()), others, images, written,
                         time.perf_counter() - start, warnings)


def _documents(out: Path, games: dict[str, GameEntry], decks: list[DeckEntry],
               warnings: list[str]) -> list[tuple[Path, PdfListing]]:
    """The PDFs under OUT, each attached where the page shows it: a deck's print sheets under the deck, a file of
    a game (:func:`_owner`) under the game, anything else under "Other documents" (`where` left empty)."""
    sheets = {inside(out, e.deck.namespace, f"{e.deck.id}.pdf"): e for e in decks}
    root = out.resolve()
    found = []
    for number, path in enumerate(find_documents(out), start=1):
        relative = path.relative_to(root).as_posix()
        document = PdfListing(relative, "../" + quote(relative), 0)
        sizes: list[tuple[float, float]] = []
        try:
            with PdfFile(path) as pdf:
                document.pages = len(pdf)
                sizes = [pdf.page_size(i) for i in range(min(DOCUMENT_PAGES, len(pdf)))]
            if any(w <= 0 or h <= 0 for w, h in sizes):
                raise InputError(path, "a page has no size")
        except DonjonError as err:
            document.problem, sizes = N_("this PDF cannot be read"), []
            warnings.append(f"preview: {err}; it is listed without pictures")
        # numbered, since two paths can make one safe name (a/b.pdf and a-b.pdf)
        stem = f"img/documents/{number:03d}-{safe_name(relative.removesuffix('.pdf'))}"
        for page, (w, h) in enumerate(sizes, start=1):
            scale = DOCUMENT_PX / max(w, h / 2)  # pixels per point: a tall page is no taller than 2 x DOCUMENT_PX
            # shown at half size, so rendered at even sizes
            shown_w, shown_h = max(1, round(w * scale / 2)), max(1, round(h * scale / 2))
            document.pictures.append(Picture(f"{stem}-page-{page}.png", shown_w, shown_h))
        owner = _owner(relative, games)
        if path in sheets:
            sheets[path].documents.append(document)
            document.where = sheets[path].anchor
        elif owner is not None:
            games[owner].documents.append(document)
            document.where = games[owner].anchor
        found.append((path, document))
    return found


#: Written into the page where its version goes, and replaced once everything else is written.
_NO_VERSION = "version-to-come"


def _version(folder: Path, html: str) -> str:
    """A digest of the page and every file beside it: it changes exactly when something shown does."""
    import hashlib

    digest = hashlib.sha256(html.encode("utf-8"))
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def script_hash(script: str) -> str:
    """The CSP source allowing one inline script: `'sha256-...'` of its text."""
    import base64
    import hashlib

    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def _owner(relative: str, games: dict[str, GameEntry]) -> str | None:
    """The game a PDF under OUT belongs to: one whose id names a folder on its path (`guildhall/...`,
    `score-sheets/once-upon-a-castle/...`) or begins its file name (`references/guildhall-reference.pdf`)."""
    *folders, name = relative.split("/")
    return next((g for g in games if g in folders or name.startswith(f"{g}-")), None)


def render_page(games: list[GameEntry], others: list[PdfListing], lang: Language | None = None) -> str:
    """The HTML of the preview page in `lang` (English; autoescaped: every value is shown as text, never read as
    HTML). Its words are `_("...", name=value)` and `ngettext("{n} card", "{n} cards", n)` (generator.i18n)."""
    import jinja2

    from generator.resources import templates_dir

    speaks = lang or language()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir() / "preview")), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    template = env.get_template("index.html")
    cards = sum(g.cards for g in games)
    return template.render(games=games, others=others, cards=cards, _=speaks.format, ngettext=speaks.nformat,
                           lang=speaks.code,
                           decks=sum(len(g.decks) for g in games), version=_NO_VERSION,
                           # the note on values no rulebook states is about the shipped games' cards: decks of
                           # one's own have no rulebook
                           shipped=any(d.deck.folder is None for g in games for d in g.decks),
                           # decks of one's own alone: "in 5 games" would count each deck as a game
                           all_solo=all(g.solo for g in games),
                           script=RELOAD_SCRIPT, script_hash=script_hash(RELOAD_SCRIPT))
