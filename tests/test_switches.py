"""The test suite's own switches (tests/conftest.py): which `-m` expressions load the long fuzzing budgets."""

from __future__ import annotations

import pytest

from tests.conftest import asks_for_fuzzing


@pytest.mark.parametrize(("markexpr", "fuzzing"), [
    ("fuzz", True), ("fuzz and not browser", True), ("browser or fuzz", True), ("(fuzz)", True),
    ("", False), ("not fuzz", False), ("browser", False), ("not browser and not fuzz", False), ("fuzzy", False),
])
def test_which_mark_expressions_ask_for_fuzzing(markexpr: str, fuzzing: bool) -> None:
    assert asks_for_fuzzing(markexpr) is fuzzing
