"""Damaged and hostile filled sheets: the reader answers with a score or a clear error, never anything else."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.errors import DonjonError, ExitCode
from scoring.engine import Scorer
from scoring.result import Result
from tests.sheets.helpers import castle_values, filled


@cache
def good_sheet() -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        values = castle_values("Ana", floors=2, towers=(5, 2), walls={2: (2, 1)}, guests=("queen", "jester"),
                               residents=9, sun=False)
        return filled(Path(folder), "ana.pdf", values).read_bytes()


def check(scratch: Path, data: bytes) -> None:
    path = scratch / "sheet.pdf"
    path.write_bytes(data)
    try:
        assert isinstance(Scorer().score(path), Result)
    except DonjonError as err:
        assert err.exit_code == ExitCode.UNREADABLE, str(err)
        assert str(err).startswith(str(path)), str(err)


mutations = st.lists(st.tuples(st.integers(min_value=0), st.binary(min_size=0, max_size=8)), min_size=1, max_size=6)


def mutate(data: bytes, edits: list[tuple[int, bytes]]) -> bytes:
    out = bytearray(data)
    for at, junk in edits:
        at %= len(out) + 1
        out[at:at + len(junk)] = junk
    return bytes(out)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("damaged")


@pytest.mark.fuzz
@given(edits=mutations, cut=st.none() | st.integers(min_value=0))
def test_a_damaged_sheet_never_crashes(scratch: Path, edits: list[tuple[int, bytes]], cut: int | None) -> None:
    """A sheet with a few bytes overwritten, and perhaps cut short (at `cut`, at least 8 bytes kept)."""
    data = mutate(good_sheet(), edits)
    check(scratch, data if cut is None else data[: max(8, cut % (len(data) + 1))])


@pytest.mark.parametrize("value", ["x" * 100_000, "9" * 50, "-0", "+3", " 12 ", "\u0663"])
def test_odd_values(tmp_path: Path, value: str) -> None:
    data = filled(tmp_path, "odd.pdf", castle_values("Odd", towers=(value,))).read_bytes()
    check(tmp_path, data)
