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


def test_every_slow_module_and_test_exists() -> None:
    """The quick run (`pytest -m "not slow"`) leaves out what tests/conftest.py names: each name must still be a
    test, or a renamed slow test would quietly join the quick run."""
    import ast

    from tests.conftest import REPO, SLOW_MODULES, SLOW_TESTS

    for module in SLOW_MODULES:
        assert (REPO / module).is_file(), module
    for test in SLOW_TESTS:
        module, _, name = test.partition("::")
        tree = ast.parse((REPO / module).read_text(encoding="utf-8"))
        assert any(isinstance(node, ast.FunctionDef) and node.name == name for node in tree.body), test


@pytest.mark.slow
def test_the_quick_run_leaves_out_processes_and_browsers(pytestconfig: pytest.Config) -> None:
    """Collected as the quick run collects: the browser tests, the fuzzing properties and the modules that start
    processes are marked slow; this module is not."""
    import subprocess
    import sys

    from tests.conftest import REPO

    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not slow", "-p",
                           "no:cacheprovider", "tests/test_switches.py", "tests/test_signals.py",
                           "tests/web/test_browser.py", "tests/scoring/test_scoring_batch.py"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert collected and all(line.startswith("tests/test_switches.py") or "test_scoring_batch" in line
                             for line in collected), done.stdout
    assert not any("test_the_command_with_many_files" in line for line in collected)
