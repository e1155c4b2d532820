"""Fuzzing the catalog loader and the deck loader (and the drawing of what they load) with hypothesis.

Whatever a catalog, a table or a card text holds, donjon answers with a result or with problems that name a
file, never with an exception of its own. The budgets are hypothesis settings profiles (tests/conftest.py): a
few dozen inputs per property in the normal run; `pytest -m fuzz` runs the properties marked `fuzz` with
thousands.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import event, given
from hypothesis import strategies as st

from generator.content import check_content
from generator.content import all_decks
from generator.errors import DonjonError
from generator.resources import content_dir

CATALOG_FILES = sorted(str(p.relative_to(content_dir())) for p in content_dir().glob("*/*.yaml")
                       if p.parent.name not in ("schemas", "examples"))

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**40), 10**40), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30), st.sampled_from(["", "red", "job-faire", "A0", "house", "M", "-1", "1e999", "{{ x }}"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                      max_leaves=12)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "content"
    shutil.copytree(content_dir(), root, ignore=shutil.ignore_patterns("schemas", "examples"))
    return root


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*prefix, index))
    return out


@st.composite
def mutated_catalog(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped catalog file with one random change: a value replaced, a key removed or added, an entry doubled."""
    name = draw(st.sampled_from(CATALOG_FILES))
    data = yaml.safe_load((content_dir() / name).read_text(encoding="utf-8"))
    path = draw(st.sampled_from(_paths(data)[1:]))
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    action = draw(st.sampled_from(["replace", "delete", "add-key", "double"]))
    if action == "replace":
        parent[key] = draw(VALUES)
    elif action == "delete":
        del parent[key]
    elif action == "add-key" and isinstance(parent[key], dict):
        parent[key][draw(st.text(min_size=1, max_size=10))] = draw(SCALARS)
    elif action == "double" and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = draw(VALUES)
    return name, yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _check_catalog(workspace: Path, name: str, text: str | bytes) -> None:
    target = workspace / name
    original = (content_dir() / name).read_bytes()
    try:
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        content, problems = check_content(workspace)
        event(f"catalog: {'problems' if problems else 'loaded'}")
        for problem in problems:
            assert problem.file and problem.message
        if not problems:
            for deck in all_decks(content):  # what loads cleanly also expands into decks
                assert deck.total >= 0
    finally:
        target.write_bytes(original)


@pytest.mark.fuzz
@given(mutated_catalog())
def test_mutated_catalogs_give_problems_not_exceptions(workspace: Path, change: tuple[str, str]) -> None:
    _check_catalog(workspace, *change)


@given(st.sampled_from(CATALOG_FILES), st.one_of(st.binary(max_size=300), st.text(max_size=300)))
def test_junk_catalogs_give_problems_not_exceptions(workspace: Path, name: str, junk: str | bytes) -> None:
    _check_catalog(workspace, name, junk)


# --- user decks: random tables and card texts, loaded, checked and drawn -------------------------------------------

CELL = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=60)
MARKUP = st.lists(st.sampled_from(["word", " ", "**", "*", "{wood}", "{vp}", "{nosuch}", "{{ x }}", "{% if %}", "<b>",
                                   "&amp;", "</svg>", "\n", "\t", "é", "—", "🏰", "x" * 40]), max_size=25).map("".join)


def _deck_folder(root: Path, table: str, delimiter: str = ",") -> Path:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    (root / "deck.yaml").write_text(f"id: fuzz\nname: Fuzz\nlayout: generic\ncards: cards.csv\n"
                                    f"delimiter: {yaml.safe_dump(delimiter).strip()}\n", encoding="utf-8")
    (root / "cards.csv").write_text(table, encoding="utf-8")
    return root


def _check_deck(folder: Path) -> None:
    from generator.build.check import check_layouts

    try:
        content, problems = check_content(folder)
        stage = "table problems"
        if not problems:
            problems = check_layouts(content)
            stage = "drawing problems" if problems else "every card drawn"
    except DonjonError as err:
        event(f"deck: refused ({type(err).__name__})")
        return
    event(f"deck: {stage}")
    for problem in problems:
        assert problem.file and problem.message


#: A table: random text, or a proper header over a random body (so that loading gets past the header).
TABLES = st.one_of(
    st.text(alphabet=st.sampled_from(list('abc,;"\n\r\t 1é')), max_size=120),
    st.text(alphabet=st.sampled_from(list('abc,"\n\r 1é{}*')), max_size=200).map(lambda body: "Name,Cost,Text\n" + body),
)


@pytest.mark.fuzz
@given(TABLES, st.sampled_from([",", ";", "\t", "|"]))
def test_random_tables_give_problems_not_exceptions(tmp_path_factory: pytest.TempPathFactory, table: str,
                                                    delimiter: str) -> None:
    _check_deck(_deck_folder(tmp_path_factory.getbasetemp() / "table", table, delimiter))


@pytest.mark.fuzz
@given(st.lists(st.tuples(CELL.filter(lambda s: s.strip() != ""), MARKUP, st.integers(-5, 99)), min_size=1,
                max_size=8))
def test_random_card_texts_draw_or_fail_cleanly(tmp_path_factory: pytest.TempPathFactory,
                                                rows: list[tuple[str, str, int]]) -> None:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Name", "Cost", "Text"])
    for name, text, cost in rows:
        writer.writerow([name.replace("\r", " "), cost, text.replace("\r", " ")])
    _check_deck(_deck_folder(tmp_path_factory.getbasetemp() / "cards", buffer.getvalue()))
