"""Many files at once: forked workers give the same output, in the same order, as scoring one file after another."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import batch
from scoring.engine import Scorer
from tests.conftest import REPO

EXAMPLES = sorted((REPO / "content" / "examples").glob("*.yaml"))
CASES = REPO / "tests" / "scoring" / "cases"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """250 files: the examples, a file that breaks rules and one that cannot be read, in a fixed order."""
    folder = tmp_path_factory.mktemp("many")
    sources = [*EXAMPLES, CASES / "guildhall" / "rule3-duplicate-colour.yaml",
               CASES / "castle" / "format-types.yaml"]
    paths = []
    for index in range(250):
        source = sources[index % len(sources)]
        target = folder / f"{index:03d}-{source.name}"
        shutil.copy(source, target)
        paths.append(str(target))
    return paths


def test_how_many_workers() -> None:
    assert batch.workers_for(1) == 1
    assert batch.workers_for(batch.PARALLEL_MIN - 1) == 1
    assert batch.workers_for(10_000) >= 1


@linux_only
@pytest.mark.parametrize("as_json", [True, False])
def test_workers_change_nothing(many: list[str], as_json: bool) -> None:
    alone = list(batch.score_paths(many, Scorer(), as_json, workers=1))
    shared = list(batch.score_paths(many, Scorer(), as_json, workers=3))
    assert shared == alone
    assert [o.exit_code for o in alone[:5]] == [0, 0, 0, 1, 2]
    assert alone[4].error is not None and "format-types.yaml" in alone[4].error


@linux_only
def test_the_command_with_many_files(many: list[str]) -> None:
    exe = Path(sys.executable).with_name("donjon")
    if not exe.exists():
        pytest.skip("the donjon command is not installed")
    done = subprocess.run([str(exe), "score", "--json", *many], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    expected = [o.output for o in batch.score_paths(many, Scorer(), True, workers=1) if o.output is not None]
    assert done.stdout.splitlines() == expected
    assert done.stderr.count("error: ") == 50 and "Traceback" not in done.stderr
