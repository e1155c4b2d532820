"""Pages of a PDF drawn by pdfium for the tests: through donjon's own helpers (generator.pdfium_lock), which call
pdfium one thread at a time and close every pdfium object before the pixels are handed back.

PDFium must never be called from two threads at once, not even for two documents (pypdfium2's documentation,
"Incompatibility with Threading"), and a test process is full of threads (the companion's app driven in process,
its database's writer): a test drawing a page in its main thread while the companion reads a photo in another
must wait for it, as the companion's own threads wait for each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def page_image(source: bytes | Path | str, index: int = 0, **render: Any) -> Any:
    """Page `index` of a PDF (its bytes or its path) as a PIL image of its own; `render`: PdfPage.render's."""
    from generator.pdfium_lock import page_image as drawn

    return drawn(Path(source) if isinstance(source, str) else source, index, **render)


def page_grey(source: bytes | Path | str, index: int = 0, **render: Any) -> Any:
    """Page `index` of a PDF drawn in grey (`render`: PdfPage.render's, `grayscale` set) as a 2-D numpy array of
    its own."""
    from generator.pdfium_lock import page_grey as drawn

    return drawn(Path(source) if isinstance(source, str) else source, index, **render)
