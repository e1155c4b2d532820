"""A colour photo whose sides are odd (a phone's 3001 x 4001 JPEG, a cropped 2449 x 3265 one, a PNG) read end to end by
`donjon score PHOTO --json`, the command a player runs: the same score and the same fields as the photo at even size.

A JPEG's grey is decoded reduced (at half for 12 megapixels) and its colour at half that, each side rounded up by the
decoder, then laid onto the grey pixel by pixel (generator/sheets/photos.py `decode`): the residents are coloured in
with a yellow felt tip, which luminance alone reads as marks rubbed out, so the colour must land where it was."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from generator.games.castle.sheets import read_sheets  # noqa: E402
from tests.scan.helpers import (  # noqa: E402
    BLUE_BALLPOINT, GREAT, YELLOW_FELT, coloured_sheet, expected, photograph)
from tests.sheets.helpers import REPO, shipped  # noqa: E402

#: (name, odd size, even size): width x height, portrait as a phone holds it for a sheet
SIZES = [("jpeg-12mp", "jpg", (3001, 4001), (3000, 4000)),  # its grey decoded at half, its colour at a quarter
         ("jpeg-8mp", "jpg", (2449, 3265), (2448, 3264)),  # its grey decoded whole, its colour at half
         ("png", "png", (1501, 2001), (1500, 2000))]  # decoded whole, colour and all


def _photo(size: tuple[int, int], kind: str) -> bytes:
    """The Great Architect sheet, residents in yellow felt tip and bubbles in blue ballpoint, photographed turned by
    5 degrees at `size`, as a JPEG or a PNG (a phone's screenshot or a scanner app's export)."""
    data = photograph(coloured_sheet(YELLOW_FELT, BLUE_BALLPOINT, GREAT), turn=5, size=size, quality=90)
    if kind == "jpg":
        return data
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert pixels.shape[:2] == (size[1], size[0]) and pixels.ndim == 3
    ok, png = cv2.imencode(".png", pixels)
    assert ok
    return bytes(png.tobytes())


def _score(photo: Path) -> dict[str, Any]:
    """`donjon score PHOTO --json`, as a process."""
    run = subprocess.run([sys.executable, "-m", "generator", "score", str(photo), "--json"],
                         capture_output=True, text=True, cwd=REPO, timeout=300)
    assert run.returncode == 0, f"{photo.name}: {run.stderr}{run.stdout}"
    scored: dict[str, Any] = json.loads(run.stdout)
    return scored


@pytest.mark.parametrize(("kind", "odd", "even"), [(kind, odd, even) for _, kind, odd, even in SIZES],
                         ids=[name for name, *_ in SIZES])
def test_an_odd_sided_colour_photo_reads_as_its_even_sided_twin(kind: str, odd: tuple[int, int],
                                                                  even: tuple[int, int], tmp_path: Path) -> None:
    paths = []
    for size in (odd, even):
        paths.append(tmp_path / f"photo-{size[0]}x{size[1]}.{kind}")
        paths[-1].write_bytes(_photo(size, kind))
    read_odd, read_even = _score(paths[0]), _score(paths[1])
    assert read_odd["uncertain"] == [] and read_odd["unread"] == [] and read_odd["valid"]
    # towers 12, flags 5, two sky clouds 4, 12 residents 4, the Queen 3, the Jester 3 floors
    assert [p["score"] for p in read_odd["players"]] == [31]
    assert read_odd == read_even  # the breakdown, what was inferred, the warnings: everything said
    # the fields themselves, as the reader gives them to the rules: the values filled, odd side or even
    want = expected("great-architect", "a4", GREAT)
    for path in paths:
        read = read_sheets([(path.read_bytes(), path.name)], shipped())
        assert read.uncertain == (), path.name
        sheet = read.document.data["sheets"][0]
        assert {k: v for k, v in sheet.items() if k != "player"} == want, path.name
