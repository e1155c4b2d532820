"""The castle sheets as `donjon build` writes them, against golden copies: what each PDF draws (normalised by
`tests/pdfnormal.py`: every shape, text and form field at its place, within a hundredth of a point) and each map of
marks byte for byte.

The golden copies were first written by the sheets drawn in code, before they became data (`templates/sheets/`):
the layouts drew the same pages, byte for byte. `pytest --regenerate` writes them anew from the build (review the
change: a golden file is only rewritten for a change meant to be seen).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.conftest import _wrote_golden
from tests.pdfnormal import Line, differences, normalised
from tests.sheets.helpers import GOLDEN, PAPERS, VERSIONS

DRAWN = GOLDEN / "drawn"
NAMES = [f"castle-sheet-{v}-{p}{f}" for v in VERSIONS for p in PAPERS for f in ("", "-fillable")]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from generator.backends import backend
    from generator.build.options import BuildOptions
    from generator.build.score_sheets import make_score_sheets
    from generator.content import load_content
    from generator.output import transaction

    out = tmp_path_factory.mktemp("built")
    content = load_content(games=["once-upon-a-castle"])
    with transaction(out):
        make_score_sheets(content, list(content.games()), out, backend("pdf"), BuildOptions())
    return out / "score-sheets" / "once-upon-a-castle"


def dumped(lines: list[Line]) -> bytes:
    """Normalised lines as JSON lines (numbers to a thousandth), gzipped without a timestamp: a golden file."""
    text = "".join(json.dumps([round(t, 3) if isinstance(t, float) else t for t in line], ensure_ascii=False) + "\n"
                   for line in lines)
    return gzip.compress(text.encode("utf-8"), mtime=0)


def loaded(data: bytes) -> list[Line]:
    return [tuple(float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else t
                  for t in json.loads(row)) for row in gzip.decompress(data).decode("utf-8").splitlines()]


@pytest.mark.parametrize("name", NAMES)
def test_each_sheet_draws_what_its_golden_copy_draws(built: Path, name: str, regenerate: bool) -> None:
    golden = DRAWN / f"{name}.jsonl.gz"
    lines = normalised(built / f"{name}.pdf")
    if _wrote_golden(golden, dumped(lines), regenerate):
        return
    diff = differences(loaded(golden.read_bytes()), lines)
    assert not diff, f"{name}.pdf draws something else than {golden}\n" + "\n".join(diff)


@pytest.mark.parametrize("name", [n for n in NAMES if not n.endswith("-fillable")])
def test_each_map_of_marks_is_its_golden_copy(built: Path, name: str, regenerate: bool) -> None:
    from tests.conftest import check_golden

    check_golden(DRAWN / f"{name}.marks.json", (built / f"{name}.marks.json").read_bytes(), regenerate)
