"""The README's reliability promises are each backed by tests that exist: every row of its "Reliability" table
names at least one test function (`tests/FILE.py::NAME`, or `::NAME` in the file named before it), corpus case
(`CORPUS:ID`, `*` for any run of characters) or test file, and every one it names is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

README = REPO / "README.md"


def promises(readme: str) -> list[tuple[str, str]]:
    """Each promise of the Reliability table: its words (bold) and the cell naming what backs it."""
    section = readme.split("\n## Reliability\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = line.split(" | ")
        if line.startswith("| **") and len(cells) == 2:
            rows.append((re.search(r"\*\*(.+?)\*\*", cells[0]).group(1), cells[1]))  # type: ignore[union-attr]
    return rows


def missing(backing: str, repo: Path) -> tuple[int, list[str]]:
    """How many tests, cases and files `backing` names, and those of them that do not exist."""
    named, absent = 0, []
    current: Path | None = None
    for reference in re.findall(r"`([^`]+)`", backing):
        if "::" in reference:
            file, _, name = reference.partition("::")
            if file:
                current = repo / file
            named += 1
            if current is None or not current.is_file() or not re.search(
                    rf"^(?:async )?def {re.escape(name)}\(", current.read_text(encoding="utf-8"), flags=re.M):
                absent.append(f"{current.relative_to(repo) if current else ''}::{name}")
        elif re.fullmatch(r"[a-z-]+:[a-z0-9*-]+", reference):
            corpus, _, case = reference.partition(":")
            named += 1
            path = repo / "tests" / "corpus" / f"{corpus}.yaml"
            ids = [c["id"] for c in yaml.safe_load(path.read_text(encoding="utf-8"))] if path.is_file() else []
            if not any(re.fullmatch(re.escape(case).replace(r"\*", ".*"), i) for i in ids):
                absent.append(reference)
        elif reference.startswith("tests/"):
            named += 1
            if not list(repo.glob(reference)):
                absent.append(reference)
    return named, absent


def test_the_readme_makes_reliability_promises() -> None:
    assert len(promises(README.read_text(encoding="utf-8"))) >= 10


@pytest.mark.parametrize(("promise", "backing"), promises(README.read_text(encoding="utf-8")),
                         ids=lambda value: value[:40])
def test_every_reliability_promise_is_backed_by_tests_that_exist(promise: str, backing: str) -> None:
    named, absent = missing(backing, REPO)
    assert named, f"the promise {promise!r} names no test"
    assert not absent, f"the promise {promise!r} names tests that do not exist: {absent}"


def test_a_promise_naming_a_test_that_is_gone_is_seen() -> None:
    backing = ("`tests/test_transaction.py::test_nothing_is_replaced_until_every_output_is_made`, "
               "`::test_that_was_renamed`; corpus `reliability:no-such-case`, `reliability:template-*`, "
               "`tests/no_such_file.py`")
    assert missing(backing, REPO) == (5, ["tests/test_transaction.py::test_that_was_renamed",
                                          "reliability:no-such-case", "tests/no_such_file.py"])
