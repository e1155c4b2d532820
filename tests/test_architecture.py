"""The architecture holds: layers import only downwards, every record is built by a constructor that matches its
fields, and every public class name is unique (generator/README.md draws the layers)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.fields import AnyOf, ListOf, MapOf, Nullable, Record, Type
from tests.conftest import REPO

LINT = Path(sys.executable).parent / "lint-imports"


def _lint(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT), "--config", str(folder / "pyproject.toml"), "--no-cache"], cwd=folder,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"})


@pytest.mark.skipif(not LINT.exists(), reason="import-linter is a test extra")
def test_layers_import_only_downwards() -> None:
    result = _lint(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Layers import only downwards KEPT" in result.stdout


@pytest.mark.skipif(not LINT.exists(), reason="import-linter is a test extra")
def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    for part in ("generator", "scoring"):
        shutil.copytree(REPO / part, tmp_path / part, ignore=shutil.ignore_patterns("_data", "__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    model = tmp_path / "generator" / "render" / "model.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n\ndef _up() -> None:\n    import generator.build.decks\n",
                     encoding="utf-8")
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "generator.render.model -> generator.build.decks" in result.stdout


def _records(spec: Type[Any], seen: set[int]) -> Iterator[Record[Any]]:
    if id(spec) in seen:
        return
    seen.add(id(spec))
    if isinstance(spec, Record):
        yield spec
        for field in spec.fields.values():
            yield from _records(field.type, seen)
        for variant in getattr(spec, "variants", {}).values():
            yield from _records(variant, seen)
    elif isinstance(spec, ListOf):
        yield from _records(spec.item, seen)
    elif isinstance(spec, Nullable):
        yield from _records(spec.inner, seen)
    elif isinstance(spec, MapOf):
        yield from _records(spec.key, seen)
        yield from _records(spec.value, seen)
    elif isinstance(spec, AnyOf):
        for option in spec.options:
            yield from _records(option, seen)


def every_record() -> list[Record[Any]]:
    from generator.schemas import catalog_schemas, end_state_schemas
    from generator.layout.spec import schemas as layout_schemas

    seen: set[int] = set()
    found: list[Record[Any]] = []
    for provider in (catalog_schemas, end_state_schemas, layout_schemas):
        for _title, spec in provider().values():
            found.extend(_records(spec, seen))
    return found


def test_every_record_is_built_by_a_constructor_that_matches_its_fields() -> None:
    records = every_record()
    assert len(records) > 40  # catalogs, decks, layouts and end states of three games
    assert [r.build_mismatch() for r in records if r.build_mismatch() is not None] == []


def test_a_record_drifting_from_its_dataclass_is_seen() -> None:
    from dataclasses import dataclass

    from generator.fields import Field, Int

    @dataclass
    class Point:
        x: int
        y: int

    drifted: Record[Point] = Record(name="point", fields={"x": Field(Int()), "z": Field(Int())}, build=Point)
    assert drifted.build_mismatch() == ("point: field 'z' is not a parameter of "
                                        f"{Point.__qualname__}; {Point.__qualname__} needs 'y', which no field gives")


def test_public_class_names_are_unique() -> None:
    where: dict[str, list[str]] = {}
    for path in sorted((*REPO.glob("generator/**/*.py"), *REPO.glob("scoring/**/*.py"))):
        if "_data" in path.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(path.relative_to(REPO)))
    assert {name: files for name, files in where.items() if len(files) > 1} == {}
