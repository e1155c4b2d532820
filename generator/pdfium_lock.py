"""pdfium, called by one thread at a time in a process, and nothing of it left to the garbage collector.

PDFium must never be called from two threads at once, not even on two documents (pypdfium2's documentation,
"Incompatibility with Threading"); a call that meets another traps inside libpdfium (SIGTRAP) and the whole process
dies. The companion (`donjon serve`) reads photos in its thread pool, two phones' at once: each draws the
scan-ready sheet as printed to compare the photo with, and a PDF scan's pages. And pypdfium2 closes a document, a page
or a bitmap it was not asked to close by a finalizer, which runs in whichever thread collects the object, whatever
that thread is doing. So every use of pypdfium2 in donjon holds PDFIUM from opening a document to closing it with all
it made (pages, text pages, bitmaps): the pixels are copied out before the bitmap is closed.

Seen in the README's test runs: a pytest-xdist worker killed by a trap in libpdfium, in one of its threads that was
not its main one (the companion's tests drive its app in threads), even after the tests' own pages were all closed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: Held around every call into pdfium (re-entrant: a helper holding it may call another that takes it too).
PDFIUM = threading.RLock()


@contextmanager
def pdf_document(source: bytes | Path) -> Iterator[Any]:
    """A pypdfium2 PdfDocument of `source` (a PDF's bytes or its path), with PDFIUM held until it is closed (with the
    pages and text pages it made) on leaving. Its bitmaps are the caller's to close, inside."""
    with PDFIUM:
        import pypdfium2 as pdfium  # imported under the lock too: the import starts the library

        document = pdfium.PdfDocument(str(source) if isinstance(source, Path) else source)
        try:
            yield document
        finally:
            document.close()


def page_drawn(document: Any, index: int, convert: Callable[[Any], T], **render: Any) -> T:
    """Page `index` of an open `document` rendered (`render`: PdfPage.render's), `convert`ed from its bitmap to
    what the caller keeps (a copy: the bitmap is closed before this returns), the page closed too."""
    with PDFIUM:
        page = document[index]
        try:
            bitmap = page.render(**render)
            try:
                return convert(bitmap)
            finally:
                bitmap.close()
        finally:
            page.close()


def page_image(source: bytes | Path, index: int = 0, **render: Any) -> Any:
    """Page `index` of a PDF (its bytes or its path) as a PIL image of its own (`render`: PdfPage.render's)."""
    with pdf_document(source) as document:
        return page_drawn(document, index, lambda bitmap: bitmap.to_pil().copy(), **render)


def page_grey(source: bytes | Path, index: int = 0, **render: Any) -> Any:
    """Page `index` of a PDF drawn in grey (`render`: PdfPage.render's, `grayscale` set) as a 2-D numpy array of
    its own."""
    import numpy as np

    def grey(bitmap: Any) -> Any:
        pixels = bitmap.to_numpy()
        return np.array(pixels[:, :, 0] if pixels.ndim == 3 else pixels, copy=True, order="C")

    with pdf_document(source) as document:
        return page_drawn(document, index, grey, grayscale=True, **render)
