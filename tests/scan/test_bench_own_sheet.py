"""`benchmarks/scan_photos.py --families ... --sheet FOLDER`: the hard photo families on a sheet of one's own, one
line per family with the castle families' columns (read right, asked, refused, wrong), and no report written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sheets.helpers import REPO

pytest.importorskip("cv2")

LANTERN_HARBOUR = REPO / "content" / "examples" / "sheets" / "lantern-harbour"
LINE = re.compile(r"^clean +1 photos: +(\d+) right, +(\d+) asked, +(\d+) refused, +(\d+) wrong \(\d+ marks wrong\); "
                  r"confidently wrong marks \d+ ", re.M)


def test_one_photo_of_one_family_on_an_own_sheet_is_counted_like_a_castle_family(tmp_path: Path) -> None:
    report = REPO / "benchmarks" / "results.md"
    before = report.read_bytes() if report.exists() else None
    run = subprocess.run([sys.executable, str(REPO / "benchmarks" / "scan_photos.py"), "--families", "clean",
                          "--per-family", "1", "--seed", "54", "--sheet", str(LANTERN_HARBOUR)],
                         capture_output=True, text=True, cwd=str(tmp_path), timeout=300)
    assert run.returncode == 0, run.stderr
    found = LINE.search(run.stdout)
    assert found is not None, run.stdout
    assert sum(int(n) for n in found.groups()) == 1  # the one photo, counted once
    assert int(found.group(4)) == 0  # a clean photo of the sheet is never scored wrong
    summary = json.loads(run.stdout[run.stdout.index("{"):])
    assert summary["per_family"] == 1 and summary["seed"] == 54
    assert (report.read_bytes() if report.exists() else None) == before  # an own sheet writes no castle report


def test_a_folder_that_is_no_sheet_is_refused_by_name(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(REPO / "benchmarks" / "scan_photos.py"), "--families", "clean",
                          "--per-family", "1", "--sheet", str(REPO / "no-such-sheet")],
                         capture_output=True, text=True, cwd=str(tmp_path), timeout=300)
    assert run.returncode != 0
    assert "no-such-sheet" in run.stderr and "Traceback" not in run.stderr
