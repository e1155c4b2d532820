"""benchmarks/results.md written again by `benchmarks/run.py --cases X` (and by `scan_photos.py`): the blocks of the
cases measured are rewritten, every other block and every note written by hand stays as it was, byte for byte, and
results.json keeps the cases not measured. A fake measurement stands for the run: no benchmark is run here."""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "benchmarks"
NOTE = "A note written by hand under the table: why the figure moved."


def _load(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, ModuleType]:
    """run.py and scan_report.py writing into a copy of benchmarks/ in tmp_path."""
    for name in ("results.md", "results.json", "scan-results.json", "scan-families.json"):
        shutil.copy(BENCH / name, tmp_path / name)
    run = _load("run")
    scan_report = sys.modules["scan_report"]  # the one run.py imported, beside it

    monkeypatch.setattr(run, "HERE", tmp_path)
    monkeypatch.setattr(scan_report, "HERE", tmp_path)
    monkeypatch.setattr(scan_report, "RESULTS", tmp_path / "scan-results.json")
    monkeypatch.setattr(scan_report, "FAMILIES", tmp_path / "scan-families.json")
    monkeypatch.setattr(sys, "argv", ["benchmarks/run.py", "--cases", "help"])
    return run, scan_report


def _fake_help(run: ModuleType) -> object:
    return run.Measure("donjon --help", "donjon --help", [0.5], [1024], 0.5, 1.0, 0, 0, None, [0])


def _outside(text: str, keys: set[str]) -> list[str]:
    """The lines of `text` but those of the blocks `keys` (their markers included)."""
    lines, out, skipping = text.split("\n"), [], None
    for line in lines:
        if skipping is None and any(line == f"<!-- generated: {k} -->" for k in keys):
            skipping = line.replace("<!-- ", "<!-- /")
        if skipping is None:
            out.append(line)
        elif line == skipping:
            skipping = None
    return out


def test_one_case_run_again_keeps_the_notes_and_every_other_section(bench: tuple[ModuleType, ModuleType],
                                                                   tmp_path: Path) -> None:
    run, _ = bench
    report = tmp_path / "results.md"
    before = report.read_text(encoding="utf-8")
    before_json = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    # the notes people wrote under the photo tables, and their own sections, are in the committed report
    assert "## The photo reader's processor time (issue 27)" in before
    run.write_report({"help": [_fake_help(run)]}, argparse.Namespace(runs=1, warmup=0), "donjon")
    after = report.read_text(encoding="utf-8")
    # everything but the header, the targets and the case measured, byte for byte
    assert _outside(after, {"head", "targets", "help"}) == _outside(before, {"head", "targets", "help"})
    assert "| donjon --help | 0.500 | 1.00x | 1.0 |  |  |" in after
    assert "| `donjon --help` under 0.25 s | 0.500 s | MISSED |" in after
    payload = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert payload["cases"]["help"][0]["median_s"] == 0.5
    assert {k: v for k, v in payload["cases"].items() if k != "help"} == \
        {k: v for k, v in before_json["cases"].items() if k != "help"}
    assert {k: v for k, v in payload["dates"].items() if k != "help"} == \
        {k: v for k, v in before_json["dates"].items() if k != "help"}


def test_a_note_under_a_case_stays_under_it_when_a_new_case_is_added(bench: tuple[ModuleType, ModuleType],
                                                                    tmp_path: Path) -> None:
    run, _ = bench
    report = tmp_path / "results.md"
    for name in ("results.json", "scan-results.json", "scan-families.json"):  # a report of these blocks alone
        (tmp_path / name).unlink()
    report.write_text("<!-- generated: score -->\n## scoring\n\nold figures\n<!-- /generated: score -->\n\n"
                      f"{NOTE}\n\n## My own section\n\nWritten by hand.\n", encoding="utf-8")
    run.write_report({"help": [_fake_help(run)]}, argparse.Namespace(runs=1, warmup=0), "donjon")
    after = report.read_text(encoding="utf-8")
    # the score case, not measured, kept as it was, its note under it; start-up (after it in the report's order)
    # comes after the note, the hand-written section after all
    assert after.index("old figures") < after.index(NOTE) < after.index("## start-up") < after.index("## My own")
    assert after.index("# Benchmark results") < after.index("## Targets") < after.index("## scoring")
    assert after.endswith("## My own section\n\nWritten by hand.\n")


def test_the_family_table_written_again_keeps_its_notes(bench: tuple[ModuleType, ModuleType],
                                                       tmp_path: Path) -> None:
    _, scan_report = bench
    report = tmp_path / "results.md"
    before = report.read_text(encoding="utf-8")
    result = json.loads((tmp_path / "scan-families.json").read_text(encoding="utf-8"))
    result["seed"] = 4321
    scan_report.update_families(result)
    after = report.read_text(encoding="utf-8")
    assert "--seed 4321`" in after
    assert _outside(after, {"families"}) == _outside(before, {"families"})


def test_markers_that_do_not_pair_up_are_refused_naming_the_line(bench: tuple[ModuleType, ModuleType],
                                                                 tmp_path: Path) -> None:
    run, _ = bench
    report = tmp_path / "results.md"
    broken = "# mine\n<!-- generated: score -->\n## scoring\n"
    report.write_text(broken, encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        run.write_report({"help": [_fake_help(run)]}, argparse.Namespace(runs=1, warmup=0), "donjon")
    assert "line 2" in str(stopped.value) and "results.md" in str(stopped.value)
    assert report.read_text(encoding="utf-8") == broken  # nothing half-written


def test_a_report_written_before_the_markers_is_refused_not_doubled(bench: tuple[ModuleType, ModuleType],
                                                                    tmp_path: Path) -> None:
    run, _ = bench
    report = tmp_path / "results.md"
    old = "# Benchmark results\n\n## start-up\n\n| donjon --help | 0.106 |\n"
    report.write_text(old, encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        run.write_report({"help": [_fake_help(run)]}, argparse.Namespace(runs=1, warmup=0), "donjon")
    assert "no generated blocks" in str(stopped.value)
    assert report.read_text(encoding="utf-8") == old
