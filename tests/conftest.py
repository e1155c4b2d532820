"""Shared test switches: `--regenerate` rewrites golden files; `-m fuzz` runs the fuzzing properties long."""

from __future__ import annotations

import os
import re
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
