"""Pixels from the drawing model: pages written as a PDF in memory by the PDF backend, rendered by pdfium.

Each image is rendered at an exact pixel size: pdfium maps the page onto the bitmap given, so a page of
`px / dpi` inches becomes exactly `px` pixels whatever rounding its size took in the PDF.

PNGs are written here rather than by Pillow: RGB, 8 bits, every row with filter type 0 (none), one zlib
stream at level 1, the dpi in a pHYs chunk (so an image editor prints them at their size) and nothing else:
no time, no software name, so the same card gives the same bytes. A piece that is not a rectangle (a hexagonal
tile, a round token) is rendered on a transparent bitmap instead of white, and written with its alpha (RGBA):
transparent outside its outline and bleed. Cards are flat colours and text: without
filters deflate packs them a fifth smaller than Pillow's adaptive filtering does, in half the time, and
encoding was the larger part of an export's time. pdfium renders straight into PNG rows (a filter byte before
each row), so nothing is copied to encode.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from generator.errors import InputError
from generator.export.geometry import Canvas
from generator.pdfium_lock import PDFIUM
from generator.render.model import Drawing, Page, Placed

if TYPE_CHECKING:
    from PIL.Image import Image

PNG_LEVEL = 1
WHITE = 0xFFFFFFFF
#: Transparent (alpha 0), what a piece that is not a rectangle is rendered on.
CLEAR = 0x00000000
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Raster(NamedTuple):
    """An RGB image (RGBA with `alpha`), top to bottom: rows of `width` x 3 (or 4) bytes, each preceded by a 0 byte
    when `scanlines` (the layout of PNG's filter type 0, which pdfium renders into directly, so that encoding
    copies nothing)."""

    width: int
    height: int
    data: bytes | bytearray
    scanlines: bool = False
    alpha: bool = False

    @property
    def mode(self) -> str:
        return "RGBA" if self.alpha else "RGB"

    def image(self) -> Image:
        from PIL import Image as PILImage

        if not self.scanlines:
            return PILImage.frombytes(self.mode, (self.width, self.height), bytes(self.data))
        stride = self.width * len(self.mode) + 1
        return PILImage.frombytes(self.mode, (self.width, self.height), bytes(self.data[1:]), "raw", self.mode,
                                  stride)

    @staticmethod
    def of(image: Image) -> Raster:
        if image.mode == "RGBA":
            return Raster(image.width, image.height, image.tobytes(), alpha=True)
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        return Raster(rgb.width, rgb.height, rgb.tobytes())


def canvas_page(drawing: Drawing, canvas: Canvas, number: int = 1) -> Page:
    """A page of the canvas's size with the drawing's trim box where the canvas puts it; its TrimBox is the
    service's cut."""
    return Page(canvas.page_w, canvas.page_h, (Placed(drawing, canvas.x, canvas.y),), (), "sheet", number,
                trim=canvas.cut)


def pdf_bytes(pages: Sequence[Page], title: str) -> bytes:
    from generator.backends.pdf import write_pdf

    buffer = io.BytesIO()
    write_pdf(pages, buffer, title=title, subject="card images by donjon")
    return buffer.getvalue()


def _render(page: Any, width: int, height: int, alpha: bool = False) -> Raster:
    """One pdfium page as RGB pixels, exactly `width` x `height`, on white, as PNG scanlines; `alpha`: RGBA pixels on
    a transparent bitmap. Called with PDFIUM held (generator.pdfium_lock)."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    # RGB rows each after its filter byte; RGBA rows as pdfium wants four-byte pixels, aligned (it stops on a
    # misaligned one), the filter bytes added when the PNG is written
    stride = width * 4 if alpha else width * 3 + 1
    buffer = (ctypes.c_ubyte * (stride * height))()
    bitmap = pdfium_c.FPDFBitmap_CreateEx(width, height, pdfium_c.FPDFBitmap_BGRA if alpha else pdfium_c.FPDFBitmap_BGR,
                                          ctypes.addressof(buffer) + (0 if alpha else 1), stride)
    if not bitmap:
        raise MemoryError(f"pdfium could not make a bitmap of {width}x{height} px")
    try:
        pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, CLEAR if alpha else WHITE)
        flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER  # RGB rather than BGR
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page.raw, 0, 0, width, height, 0, flags)
        formenv = getattr(page, "formenv", None)
        if formenv:  # fillable fields (the castle score sheets) drawn as a viewer shows them
            pdfium_c.FPDF_FFLDraw(formenv, bitmap, page.raw, 0, 0, width, height, 0, flags)
    finally:
        pdfium_c.FPDFBitmap_Destroy(bitmap)
    data = bytearray(buffer)
    if alpha:
        return Raster(width, height, data, alpha=True)
    data[::stride] = bytes(height)  # the filter bytes: pdfium draws inside the rows, but make sure
    return Raster(width, height, data, scanlines=True)


def render_pages(pages: Sequence[Page], sizes: Sequence[tuple[int, int]], title: str) -> Iterator[Raster]:
    """Each page as pixels of its size in `sizes`, through one PDF written in memory; a page showing a piece that
    is not a rectangle as RGBA, transparent where nothing is drawn."""
    data = pdf_bytes(pages, title)
    # pdfium one call at a time (generator.pdfium_lock), held while a page is drawn, not while its pixels are used
    with PDFIUM:
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(data)
    try:
        for index, (width, height) in enumerate(sizes):
            shaped = any(placed.drawing.outline is not None for placed in pages[index].placed)
            with PDFIUM:
                page = doc[index]
                try:
                    raster = _render(page, width, height, shaped)
                finally:
                    page.close()
            yield raster
    finally:
        with PDFIUM:
            doc.close()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_bytes(raster: Raster, dpi: float | None = None) -> bytes:
    """An RGB PNG of the pixels: deterministic bytes (no time, no text chunks)."""
    width, height, data, scanlines, alpha = raster
    row = width * (4 if alpha else 3) + (1 if scanlines else 0)
    if len(data) != row * height:
        raise ValueError(f"{len(data)} bytes are not {width}x{height} {raster.mode} pixels")
    if not scanlines:
        view = memoryview(data)
        none = b"\x00"  # filter type 0 before every row
        data = b"".join(part for y in range(0, row * height, row) for part in (none, view[y:y + row]))
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)  # 8 bits, RGB(A), deflate
    out = [_SIGNATURE, _chunk(b"IHDR", header)]
    if dpi:
        per_metre = round(dpi / 0.0254)
        out.append(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
    out += [_chunk(b"IDAT", zlib.compress(data, PNG_LEVEL)), _chunk(b"IEND", b"")]
    return b"".join(out)


def pdfium_reason(err: Exception) -> str:
    """What pdfium said, in words: it sometimes reports a failure as "Success" (its last error code), which
    would only mislead."""
    text = str(err).strip().rstrip(".")
    if not text or "success" in text.lower():
        return "pdfium cannot read it"
    return text


class PdfFile:
    """A PDF from the output folder opened for its page images (the preview shows other outputs this way).

    Any PDF may lie there, damaged or hostile (a page tree that loops): every failure to read it is an
    InputError naming the file, never an exception of pdfium's."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with PDFIUM:  # pdfium one call at a time (generator.pdfium_lock), each method's calls under the lock
            import pypdfium2 as pdfium

            try:
                self.doc = pdfium.PdfDocument(path)
            except (pdfium.PdfiumError, OSError) as err:
                raise InputError(path, f"cannot read this PDF ({pdfium_reason(err)})") from None
            try:
                self.doc.init_forms()
            except Exception:  # noqa: BLE001 - a PDF whose forms pdfium cannot set up still shows its pages
                pass

    def __enter__(self) -> PdfFile:
        return self

    def __exit__(self, *_: object) -> None:
        with PDFIUM:
            self.doc.close()

    def _page(self, index: int) -> Any:
        try:
            return self.doc[index]
        except Exception as err:  # noqa: BLE001 - pdfium's errors on a damaged page tree take many forms
            raise InputError(self.path, f"page {index + 1} cannot be read ({pdfium_reason(err)})") from None

    def __len__(self) -> int:
        with PDFIUM:
            try:
                return len(self.doc)
            except Exception as err:  # noqa: BLE001
                raise InputError(self.path, f"its pages cannot be counted ({pdfium_reason(err)})") from None

    def page_size(self, index: int) -> tuple[float, float]:
        with PDFIUM:
            page = self._page(index)
            try:
                width, height = page.get_size()
            finally:
                page.close()
        return float(width), float(height)

    def render(self, index: int, width: int, height: int) -> Raster:
        """Page `index` scaled to `width` x `height` pixels."""
        with PDFIUM:
            page = self._page(index)
            try:
                return _render(page, width, height)
            finally:
                page.close()
