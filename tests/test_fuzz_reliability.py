"""Fuzzing what issue 12 made reliable: templates on a budget, SVGs that stay well-formed XML whatever the card
says, spreadsheet cells that never run, safe output names, ids in any script and right-to-left layout.

Each property is written once and marked `fuzz`; its budget is the hypothesis settings profile's (tests/conftest.py)
times CHEAP: these inputs take well under a millisecond to a few milliseconds each, so they get more of them than
the properties that build a deck or a PDF.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.fields import control_character

#: How many times the profile's budget these properties get (the profile is loaded before this module is imported:
#: a few dozen inputs each in the normal run, thousands with `pytest -m fuzz`).
CHEAP = 5
MANY = settings(max_examples=CHEAP * settings().max_examples)

# --- templates: always text within the budget, or an error of the template's own -------------------------------

FRAGMENTS = ["x", " ", "{{ n }}", "{{ n * 1000 }}", "{{ 'ab' * n }}", "{{ range(n) | list | length }}",
             "{% for i in range(n) %}", "{% endfor %}", "{% if n %}", "{% endif %}", "{{ card.name }}",
             "{{ card.fields.items }}", "{{ card.fields }}", "{{ lipsum(3) }}", "{{ 10 ** n }}", "{{ n ** 10 }}",
             "{% macro f(k) %}{{ f(k) }}{% endmacro %}", "{{ f(1) }}", "{{ '%0' ~ n ~ 'd' | format(1) }}",
             "{{ 'x'.ljust(n) }}", "{{ 'x' | center(n) }}", "{{ '{:>' ~ n ~ '}' }}", "{{ [1, 2] }}", "{{ none }}",
             "{% set ns = namespace(s='') %}", "{% set ns.s = ns.s ~ 'xxxxxxxxxx' %}", "{{ ns.s | length }}",
             "{{ undefined_name }}", "{{ 1 / 0 }}", "{{", "}}", "{%", "%}", "{{ n | string * n }}"]


class _Card:
    name = "Ember"
    fields = {"Cost": 3, "Text": "Burn."}  # noqa: RUF012 - read only

    def get(self, name: str) -> object:
        return self.fields.get(name)


def check_template(parts: list[str], n: int, markup: bool = False) -> None:
    from generator.layout.draw import _RUNTIME
    from generator.layout.templates import MAX_OUTPUT, TemplateFailure, compile_template

    source = "".join(parts)
    try:
        template = compile_template(source, markup=markup)
        text = template.render({"n": n, "card": _Card()})
    except (TemplateFailure, *_RUNTIME):
        return
    assert isinstance(text, str) and len(text) <= MAX_OUTPUT
    assert " at 0x" not in text  # no memory address ever prints


TEMPLATES = st.lists(st.sampled_from(FRAGMENTS), max_size=12)
NUMBERS = st.one_of(st.integers(-5, 300), st.sampled_from([10_000, 100_000, 10**9]))


@pytest.mark.fuzz
@MANY
@given(TEMPLATES, NUMBERS, st.booleans())
def test_templates_stay_within_their_budget(parts: list[str], n: int, markup: bool) -> None:
    """Boxes with `markup: true` have a jinja2 environment of their own, on the same budget."""
    check_template(parts, n, markup)


@pytest.mark.parametrize("markup", [False, True])
def test_a_markup_box_is_on_the_same_budget(markup: bool) -> None:
    from generator.layout.templates import TemplateBudget, compile_template

    loops = compile_template("{% for i in range(9000) %}{% for j in range(9000) %}x{% endfor %}{% endfor %}",
                             markup=markup)
    with pytest.raises(TemplateBudget, match="takes more than 100,000 steps"):
        loops.render({})
    with pytest.raises(TemplateBudget, match="only text and numbers can be printed"):
        compile_template("{{ card.items }}", markup=markup).render({"card": {"a": 1}})


# --- SVG: well-formed whatever the text, once control characters are refused ----------------------------------

TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=40).filter(
    lambda s: control_character(s) is None)


def check_svg(text: str, face: str) -> None:
    from generator.backends.svg import drawing_svg
    from generator.render import fonts
    from generator.render.model import Drawing, TextRun

    shown = "".join(c for c in text if not fonts.missing(face, c)) or "x"
    svg = drawing_svg(Drawing(100, 100, (TextRun(5, 20, shown, face, 9, "#000000", 50.0),)), title=text)
    root = ET.fromstring(svg)
    texts = [e for e in root.iter() if e.tag.endswith("}text")]
    assert [t.text for t in texts] == [shown]


@pytest.mark.fuzz
@MANY
@given(TEXT, st.sampled_from(["cardo", "cardo-bold", "cardo-italic", "open-sans", "open-sans-bold"]))
def test_svgs_are_well_formed(text: str, face: str) -> None:
    check_svg(text, face)


# --- manifest cells never start a formula ------------------------------------------------------------------------

def check_cell(text: str) -> None:
    from generator.export.png import cell

    shown = cell(text)
    assert shown == text or shown == "'" + text
    assert not shown.startswith(("=", "+", "@", "\t", "\r")) or re.fullmatch(r"[+-]?\d+(\.\d+)?", shown)
    assert not shown.startswith("-") or re.fullmatch(r"-\d+(\.\d+)?", shown)


CELLS = st.one_of(st.text(max_size=20), st.tuples(st.sampled_from("=+-@\t\r"), st.text(max_size=20)).map("".join))


@pytest.mark.fuzz
@MANY
@given(CELLS)
def test_manifest_cells_never_run(text: str) -> None:
    check_cell(text)


# --- output names stay inside the output folder, ids in any script stay ids ------------------------------------

def check_names(parts: list[str], root: Path) -> None:
    from generator.catalog.userdeck import _slug
    from generator.fields import SLUG_PATTERN
    from generator.output import inside

    path = inside(root, *parts)
    assert root.resolve() in path.parents
    for part in parts:
        slug = _slug(part)
        assert slug == "card" or re.fullmatch(SLUG_PATTERN, slug), slug


NAME_PARTS = st.lists(st.text(max_size=30), min_size=1, max_size=4)


@pytest.mark.fuzz
@MANY
@given(NAME_PARTS)
def test_names_stay_inside(parts: list[str]) -> None:
    check_names(parts, Path("/tmp/donjon-fuzz-out"))


# --- right-to-left text: every character drawn once, marks after their letters ---------------------------------

BIDI = st.lists(st.sampled_from(["שלום", "עולם", "ספר", "שָׁלוֹם", "word", "ab", "12", "3.5", " ", "(", ")", "[", "]",
                                 "!", "-", "«", "»", ",", "א"]), max_size=12).map("".join)


def check_bidi(text: str) -> None:
    import unicodedata

    from generator.render.text import base_level, mirrored, visual_order

    if not text:
        return
    order = visual_order(list(range(len(text))), text, base_level(text))
    assert sorted(i for i, _rtl in order) == list(range(len(text)))  # a permutation: nothing lost or doubled
    for place, (index, rtl) in enumerate(order):
        if unicodedata.combining(text[index]) and place:
            # a mark is drawn right after a letter (its own, or one of the same run)
            assert not unicodedata.combining(text[order[place - 1][0]]) or unicodedata.combining(text[index])
        assert mirrored(text[index]) == text[index] or rtl in (True, False)


@pytest.mark.fuzz
@MANY
@given(BIDI)
def test_bidi_keeps_every_character(text: str) -> None:
    check_bidi(text)
