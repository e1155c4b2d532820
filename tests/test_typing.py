"""donjon is a typed package: `mypy --strict` (configured in pyproject.toml) finds nothing in generator/, scoring/
or tests/."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


def test_mypy_strict_is_clean() -> None:
    if not _has_mypy():
        pytest.skip("mypy is not installed (it comes with the [test] extras)")
    result = subprocess.run([sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=REPO, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def _has_mypy() -> bool:
    try:
        import mypy  # noqa: F401
    except ImportError:
        return False
    return True
