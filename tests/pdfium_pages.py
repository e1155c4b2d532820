"""Pages of a PDF drawn by pdfium for the tests, every pdfium object closed before the pixels are handed back.

PDFium must never be called from two threads at once, not even for two documents (pypdfium2's documentation,
"Incompatibility with Threading"). A page, a bitmap or a document left to the garbage collector is closed by its
finalizer in whichever thread collects it; in a test process full of threads (the companion's, its database's
writer) that close met a render in the main thread and killed the pytest-xdist worker (SIGTRAP in libpdfium, seen
three times in full runs), which then left the whole run waiting forever. So nothing of pdfium's outlives a call
here: the pixels are copied out first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def _drawn(source: bytes | Path | str, index: int, convert: Callable[[Any], T], **render: Any) -> T:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(source) if isinstance(source, Path) else source)
    try:
        page = document[index]
        try:
            bitmap = page.render(**render)
            try:
                return convert(bitmap)
            finally:
                bitmap.close()
        finally:
            page.close()
    finally:
        document.close()


def page_image(source: bytes | Path | str, index: int = 0, **render: Any) -> Any:
    """Page `index` of a PDF (its bytes or its path) as a PIL image of its own; `render`: PdfPage.render's."""
    return _drawn(source, index, lambda bitmap: bitmap.to_pil().copy(), **render)


def page_grey(source: bytes | Path | str, index: int = 0, **render: Any) -> Any:
    """Page `index` of a PDF drawn in grey (`render`: PdfPage.render's, `grayscale` set) as a 2-D numpy array of
    its own."""
    import numpy as np

    def grey(bitmap: Any) -> Any:
        pixels = bitmap.to_numpy()
        return np.array(pixels[:, :, 0] if pixels.ndim == 3 else pixels, copy=True, order="C")

    return _drawn(source, index, grey, grayscale=True, **render)
