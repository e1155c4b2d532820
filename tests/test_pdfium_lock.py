"""pdfium called from many threads at once, as the companion's photo reads call it (generator.pdfium_lock).

PDFium traps (SIGTRAP) or crashes when two threads call it at once. The companion reads two phones' photos at once
in its thread pool, and each read drew the scan-ready sheet as printed (and a PDF scan's pages) with pypdfium2,
leaving the document and the bitmap to finalizers in any thread: four PDF scans read at once, ten times each, killed
the process twice in two runs (rc 133, the trap in libpdfium seen in the README's test runs). The drawing runs in a
child process here, so that a crash is the test's failure, not its worker's death.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: Threads drawing at once, and drawings each: without the lock (the drawing as it was), 8 x 60 killed the process in
#: 5 runs of 5 (8 x 30: 2 of 3); with it, the 480 drawings take some 15 s on two busy cores.
THREADS, EACH = 8, 60

CHILD = """
import hashlib, sys, threading
from generator.content import content_dir, load_content
from generator.games.castle.sheets import kinds
from generator.pdfium_lock import page_image
from generator.sheets.photo_marks import SCALE, rasterise
from generator.backends.pdf import write_pdf
import io

castle = load_content(content_dir(), games=["once-upon-a-castle"]).game("once-upon-a-castle")
page = kinds(castle)[0].drawn("scan", "a4").page()
buffer = io.BytesIO()
write_pdf([page], buffer, title="scan-ready sheet")
pdf = buffer.getvalue()
seen, failed = set(), []

def work(number):
    try:
        for _ in range(EACH):
            if number % 2:  # the sheet as printed, which every photo read draws to compare with
                seen.add(hashlib.sha256(rasterise(page, SCALE).tobytes()).hexdigest())
            else:  # a PDF scan's page, drawn in colour as the reader draws one
                seen.add(hashlib.sha256(page_image(pdf, 0, scale=1.0).tobytes()).hexdigest())
    except Exception as err:
        failed.append(repr(err))

threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(seen), failed)
"""


@pytest.mark.slow
def test_pages_drawn_by_many_threads_at_once_do_not_kill_the_process() -> None:
    child = CHILD.replace("EACH", str(EACH)).replace("THREADS", str(THREADS))
    done = subprocess.run([sys.executable, "-c", child], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the process died (rc {done.returncode}): {done.stderr[-2000:]}"
    # every drawing of the same page is the same: two kinds of drawing, two pictures, and nothing failed
    assert done.stdout.split(maxsplit=1) == ["2", "[]\n"], done.stdout
