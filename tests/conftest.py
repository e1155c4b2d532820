"""Shared test switches: `--regenerate` rewrites golden files; `-m fuzz` runs the fuzzing properties long;
`-m "not slow"` leaves out the slow tests (processes, browsers, fuzzing, photos) for a developer's quick run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent

# Hypothesis budgets, as settings profiles: each property is written once, without a budget of its own, and
# the profile says how many inputs it gets. `default`: a few dozen per property, for the normal run. `fuzz`:
# thousands, loaded when `-m fuzz` asks for the fuzzing properties (the tests marked `fuzz`), or with
# hypothesis' own `--hypothesis-profile fuzz`. No deadline: a slow input is the benchmark's business, not a
# failure; `too_slow` is the health check that would fail a property whose inputs take long to build.
settings.register_profile("default", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regenerate", action="store_true", default=False,
                     help="rewrite golden files from the current output instead of comparing against them")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # Before the test modules are imported: a property's settings are fixed when its module is.
    if not config.getoption("--hypothesis-profile", None):
        settings.load_profile("fuzz" if asks_for_fuzzing(config.getoption("-m")) else "default")


def asks_for_fuzzing(markexpr: str) -> bool:
    """Whether a `-m` expression selects the fuzzing properties (`fuzz`, `fuzz and not browser`; not
    `not fuzz`): then they run with the long budgets."""
    return re.search(r"(?<!\bnot )\bfuzz\b", markexpr or "") is not None


#: Test modules whose tests start processes (donjon commands, servers, workers, form fillers, librsvg, mypy, a
#: wheel's install), build every output of the shipped content, or read photos at length: marked `slow`, so that
#: `pytest -m "not slow"` is a developer's quick run. The README's command, and CI, run every test.
SLOW_MODULES = frozenset({
    "tests/test_signals.py", "tests/test_install.py", "tests/test_corpus.py", "tests/test_readme.py",
    "tests/test_watch.py", "tests/test_typing.py", "tests/test_print.py", "tests/test_generated_files.py",
    "tests/test_sample_decks.py", "tests/web/test_serve_process.py", "tests/web/test_serve_ctrl_c.py",
    "tests/exports/test_png.py",
    "tests/exports/test_tts.py", "tests/exports/test_preview.py", "tests/render/test_svg_fonts.py",
    "tests/reference/test_reference_cli.py", "tests/sheets/test_sheet_fillers.py", "tests/scan/test_photos.py",
    "tests/reference/test_reference_pdf.py", "tests/test_fuzz_loaders.py",
})
#: Single tests of other modules that start processes (a donjon command, forked workers) or build every deck.
SLOW_TESTS = frozenset({
    "tests/render/test_build.py::test_every_shipped_deck_builds_with_its_pages",
    "tests/render/test_build.py::test_builds_are_byte_identical",
    "tests/test_userdeck.py::test_files_that_are_not_spreadsheets_or_bombs_are_refused",
    "tests/test_cli_content.py::test_subprocess_runs_from_another_folder",
    "tests/scoring/test_scoring_cli.py::test_installed_command_json_lines_and_highest_exit_code",
    "tests/scoring/test_scoring_cli.py::test_installed_command_scores_the_examples",
    "tests/scoring/test_scoring_cli.py::test_installed_command_bad_input_has_no_traceback",
    "tests/scoring/test_scoring_batch.py::test_the_command_with_many_files",
    "tests/scoring/test_scoring_batch.py::test_workers_change_nothing",
    "tests/render/test_images.py::test_start_up_stays_lean_for_a_deck_without_pictures",
    "tests/render/test_images.py::test_a_pdf_rebuild_imports_nothing_for_its_bookkeeping",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `slow` the tests of SLOW_MODULES and SLOW_TESTS, the browser tests and the fuzzing properties."""
    slow = pytest.mark.slow
    for item in items:
        path, _, name = item.nodeid.partition("::")
        test = f"{path}::{name.split('[', 1)[0]}"
        if path in SLOW_MODULES or test in SLOW_TESTS or item.get_closest_marker("browser") or \
                item.get_closest_marker("fuzz"):
            item.add_marker(slow)


@pytest.fixture
def regenerate(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regenerate"))


def check_golden(path: Path, actual: bytes | str, regenerate: bool) -> None:
    """Compare `actual` with the golden file at `path`, or rewrite it when regenerating."""
    data = actual.encode("utf-8") if isinstance(actual, str) else actual
    if _wrote_golden(path, data, regenerate):
        return
    expected = path.read_bytes()
    assert data == expected, f"output differs from golden file {path}; if the change is intended, run pytest --regenerate"


def check_golden_pdf(path: Path, actual: bytes, regenerate: bool) -> None:
    """Compare the PDF `actual` with the golden PDF at `path` for what they draw, not byte for byte (reportlab is
    not pinned: see `tests/pdfnormal.py`), or rewrite the golden file when regenerating."""
    from tests.pdfnormal import differences, normalised

    if _wrote_golden(path, actual, regenerate):
        return
    diff = differences(normalised(path), normalised(actual))
    assert not diff, (f"the PDF draws something else than golden file {path}; if the change is intended, run "
                      "pytest --regenerate\n" + "\n".join(diff))


def _wrote_golden(path: Path, data: bytes, regenerate: bool) -> bool:
    """Write the golden file when regenerating (or, outside CI, when it is missing); whether it was written."""
    if regenerate or not path.exists():
        if not regenerate and os.environ.get("CI"):
            pytest.fail(f"golden file {path} is missing; run pytest --regenerate and commit it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if not regenerate:
            pytest.fail(f"golden file {path} did not exist; it has been written: review and commit it")
        return True
    return False


def modules_a_build_loads(out: Path, modules: Sequence[str]) -> list[str]:
    """Which of `modules` a build of the benchmark deck (benchmarks/deck100) into `out` loads, in a fresh Python as
    a user's process runs it: how the lean start-up promises are held."""
    script = ("import sys\nfrom generator.cli import app\n"
              "try:\n    app(['build', '--content', sys.argv[1], '--out', sys.argv[2]])\nexcept SystemExit:\n    pass\n"
              "print('LOADED', ','.join(m for m in sys.argv[3:] if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", script, str(REPO / "benchmarks" / "deck100"), str(out), *modules],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    said = [line for line in result.stdout.splitlines() if line.startswith("LOADED ")]
    assert said, result.stdout + result.stderr
    return [m for m in said[-1].removeprefix("LOADED ").split(",") if m]
