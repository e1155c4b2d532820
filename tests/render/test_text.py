"""Card text: templates (strict, sandboxed, data printed literally), markup, icons, wrapping and shrinking."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layout import templates as TT
from generator.render import colour
from generator.render import text as T
from generator.render import fonts
from generator.render.icons import ICON_ADVANCE, ICON_RISE
from generator.render.model import IconUse, TextRun, mm


def style(size: float = 10, min_size: float = 6.5, **kw: Any) -> T.Style:
    return T.Style(kw.pop("face", "cardo"), size, min_size, "#000000", **kw)


def words(text: str, face: str = "cardo") -> list[list[tuple[str, str | None, str]]]:
    return [[(p.face, p.icon, p.text) for p in w.pieces] for para in T.parse(text, face) for w in para]


# --- templates ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Thing:
    name: str
    value: int | None = None


CONTEXT = {"thing": Thing("Lamp & <b>", 3), "row": {"Card Text": "x", "cost": 2}, "n": None, "words": "a*b\\c"}


@pytest.mark.parametrize("source", [
    "plain text", "{{ thing.name }}", "Cost: {{ row.cost }} and {{ thing.value }}", "{{ n }}|{{ words }}",
    "{{thing.name}}{{thing.value}}", "}} {{ thing.name }} {",
])
def test_simple_templates_render_as_jinja_does(source: str) -> None:
    fast = TT.compile_template(source)
    jinja = TT.Template(source, TT.environment().from_string(source))
    assert fast.render(CONTEXT) == jinja.render(CONTEXT)


def test_simple_templates_skip_jinja() -> None:
    assert TT.compile_template("{{ a.b }} x").simple
    assert not TT.compile_template("{{ a.b | upper }}").simple
    assert not TT.compile_template("{% if a %}x{% endif %}").simple


@pytest.mark.parametrize("source", ["{{ missing }}", "{{ thing.nothing }}", "{% if missing %}x{% endif %}",
                                    "{{ thing.name | upper }}{{ missing }}"])
def test_a_missing_value_is_an_error_not_an_empty_string(source: str) -> None:
    with pytest.raises(TT.Undefined):
        TT.compile_template(source).render(CONTEXT)


def test_the_sandbox_refuses_internals() -> None:
    with pytest.raises(TT.TemplateFailure):
        TT.compile_template("{{ thing.__class__.__mro__[1].__subclasses__() }}").render(CONTEXT)


def test_card_data_is_never_a_template_and_markup_in_it_is_escaped() -> None:
    data = {"text": "{{ 7 * 7 }} {% if x %}y{% endif %} **not bold** </svg> & <"}
    out = TT.compile_template("{{ text }}").render(data)
    assert out == "{{ 7 \\* 7 }} {% if x %}y{% endif %} \\*\\*not bold\\*\\* </svg> & <"
    printed = " ".join(piece[2] for word in words(out) for piece in word)
    assert printed == "{{ 7 * 7 }} {% if x %}y{% endif %} **not bold** </svg> & <"
    assert {piece[0] for word in words(out) for piece in word} == {"cardo"}  # nothing turned bold


def test_filters() -> None:
    assert TT.compile_template("{{ 3 | icons('rope') }}").render({}) == "{rope}{rope}{rope}"
    assert TT.compile_template("{{ 'star' | icon }}").render({}) == "{star}"
    assert colour.ink_on("#c99a06") == "#1d1a16"  # dark ink on the Guildhall yellow
    assert {colour.ink_on(c) for c in ("#b3261e", "#1f5fa8", "#2e7d32", "#6a3d9a")} == {"#ffffff"}
    with pytest.raises(ValueError, match="'Dragon!' is not an icon name"):
        TT.compile_template("{{ 'Dragon!' | icon }}").render({})
    # a well-formed name passes the filter: whether the deck has it is for the text to say (with its own icons)
    assert TT.compile_template("{{ 'dragon' | icon }}").render({}) == "{dragon}"
    with pytest.raises(T.UnknownIcons, match=r"\{dragon\} is not an icon donjon has"):
        T.parse("{dragon}", "cardo")


def test_syntax_errors_carry_their_line() -> None:
    with pytest.raises(TT.TemplateFailure) as caught:
        TT.compile_template("line one\n{% if %}")
    assert caught.value.line == 2


# --- markup -------------------------------------------------------------------------------------------------------

def test_bold_italic_and_icons() -> None:
    assert words("Gain **2** {wood}.") == [
        [("cardo", None, "Gain")],
        [("cardo-bold", None, "2")],
        [("cardo", "wood", ""), ("cardo", None, ".")],
    ]
    assert words("*so* \\*literal\\*") == [[("cardo-italic", None, "so")], [("cardo", None, "*literal*")]]


def test_braces_that_are_not_icons_print_as_they_are() -> None:
    assert words("{{x}} {Big} { 3 } {") == [[("cardo", None, "{{x}}")], [("cardo", None, "{Big}")],
                                           [("cardo", None, "{")], [("cardo", None, "3")], [("cardo", None, "}")],
                                           [("cardo", None, "{")]]


@pytest.mark.parametrize(("source", "message"), [
    ("Gain {wod}", "{wod} (did you mean {wood}?) is not an icon donjon has"),
    ("{wod} and {stne} and {wod}", "{wod} (did you mean {wood}?), {stne} (did you mean {stone}?) are not icons"),
    ("[colour=red]x[/colour]", "'red' is neither '#rrggbb' nor a colour of the layout's palette"),
    ("[size=12pt]x[/size]", "[size=12pt] must be a percentage of the text's size"),
    ("[size=150%]x", "[size=...] is opened but not closed"),
    ("[colour=#aa0000]x[/size]", "[/size] closes nothing here ([/colour] first)"),
    ("**open", "** is opened but not closed"),
    ("*open", "* is opened but not closed"),
    ("say ☃", "the font Cardo has no glyph for '☃' (U+2603)"),
])
def test_markup_problems(source: str, message: str) -> None:
    with pytest.raises(T.TextProblem, match=re.escape(message)):
        T.parse(source, "cardo")


def test_a_font_without_italic_is_an_error() -> None:
    with pytest.raises(T.TextProblem, match="Open Sans has no italic face"):
        T.parse("*x*", "open-sans")


# --- fitting ------------------------------------------------------------------------------------------------------

def test_text_that_fits_keeps_its_size() -> None:
    fitted = T.fit(T.parse("Short text.", "cardo"), mm(40), mm(10), style())
    assert fitted.size == 10 and len(fitted.lines) == 1


def test_text_shrinks_to_fit_the_height() -> None:
    text = T.parse(" ".join(["word"] * 40), "cardo")
    fitted = T.fit(text, mm(40), mm(20), style())
    assert 6.5 <= fitted.size < 10
    assert fitted.height <= mm(20)
    bigger = fitted.size + T.STEP
    lines = T.wrap(text, bigger, mm(40))
    assert lines is not None and T.block_height(len(lines), bigger, style()) > mm(20)  # the largest size that fits


def test_text_shrinks_to_fit_the_width() -> None:
    fitted = T.fit(T.parse("Supercalifragilistic", "cardo"), mm(25), mm(20), style(size=14, min_size=6.5))
    assert fitted.size < 14 and len(fitted.lines) == 1
    assert fitted.lines[0].w1 * fitted.size <= mm(25)


def test_unwrapped_text_shrinks_instead_of_wrapping() -> None:
    fitted = T.fit(T.parse("A fairly long title here", "cardo"), mm(30), mm(20), style(size=14, min_size=6.5,
                                                                                        wrap=False))
    assert len(fitted.lines) == 1 and fitted.lines[0].w1 * fitted.size <= mm(30)


def test_text_that_never_fits_says_why() -> None:
    with pytest.raises(T.NoFit, match=r"it needs \d+ lines .* at 6.5 pt, the smallest size allowed"):
        T.fit(T.parse(" ".join(["word"] * 400), "cardo"), mm(40), mm(20), style())
    with pytest.raises(T.NoFit, match="the word 'Pneumonoultramicroscopic' is .* mm wide at 9 pt"):
        T.fit(T.parse("Pneumonoultramicroscopic", "cardo"), mm(15), mm(20), style(size=9, min_size=9))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "word", "longer", "**bold**", "{wood}", "x{vp}", "*it*", "\n"]),
                min_size=1, max_size=80),
       st.floats(min_value=20, max_value=60), st.floats(min_value=8, max_value=60))
def test_fitted_text_never_leaves_its_box(tokens: list[str], width_mm: float, height_mm: float) -> None:
    paragraphs = T.parse(" ".join(tokens), "cardo")
    if not paragraphs:
        return
    s = style(size=12, min_size=5, align="center", valign="middle")
    try:
        fitted = T.fit(paragraphs, mm(width_mm), mm(height_mm), s)
    except T.NoFit:
        return
    x, y, w, h = mm(10), mm(10), mm(width_mm), mm(height_mm)
    m = fonts.metrics("cardo")
    for item in T.layout_runs(fitted, x, y, w, h, s):
        if isinstance(item, TextRun):
            assert x - 1e-3 <= item.x and item.x + item.width <= x + w + 1e-3
            assert y - 1e-3 <= item.y - m.ascent * item.size and item.y + m.descent * item.size <= y + h + 1e-3
        else:
            assert isinstance(item, IconUse)
            assert x - 1e-3 <= item.x and item.x + item.size <= x + w + 1e-3


def test_icons_sit_on_the_baseline_at_the_text_size() -> None:
    fitted = T.fit(T.parse("Pay {stone}", "cardo"), mm(40), mm(10), style(size=10, min_size=10))
    runs = T.layout_runs(fitted, 0, 0, mm(40), mm(10), style(size=10, min_size=10))
    text, icon = runs
    assert isinstance(text, TextRun) and isinstance(icon, IconUse)
    assert icon.y + icon.size == pytest.approx(text.y, abs=1e-3)  # the icon's square stands on the baseline
    assert icon.size == pytest.approx(ICON_RISE * 10, abs=1e-3)
    assert fitted.lines[0].w1 * 10 == pytest.approx(fonts.width("cardo", "Pay ") * 10 + ICON_ADVANCE * 10)


def test_runs_merge_words_of_one_face_and_measure_exactly() -> None:
    s = style(size=9, min_size=9)
    runs = T.layout_runs(T.fit(T.parse("one two **three** four", "cardo"), mm(60), mm(10), s), 0, 0, mm(60),
                         mm(10), s)
    assert [(r.text, r.font) for r in runs if isinstance(r, TextRun)] == [
        ("one two", "cardo"), ("three", "cardo-bold"), ("four", "cardo")]
    first = runs[0]
    assert isinstance(first, TextRun)
    assert first.width == pytest.approx(fonts.width("cardo", "one two") * 9, abs=1e-3)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "word", "**", "*", "[colour=ink]", "[colour=#aa0000]", "[/colour]", "[color=x]",
                                 "[size=150%]", "[size=30%]", "[size=9000%]", "[/size]", "[/color]", "[", "]", "{wood}",
                                 "{nope}", "\\", "\n", " "]), max_size=40))
def test_markup_from_a_cell_parses_or_says_why(tokens: list[str]) -> None:
    """Whatever a cell holds, markup gives paragraphs or a TextProblem naming what is wrong: never another error,
    and printed escaped it always parses, as itself."""
    text = "".join(tokens)
    try:
        T.parse(text, "cardo", {"ink": "#111111"})
    except T.TextProblem as err:
        assert str(err)
    shown = T.parse(T.escape_markup(text), "cardo", {"ink": "#111111"}) if "{nope}" not in text else None
    if shown is not None:
        printed = "\n".join(" ".join("".join(p.text if p.icon is None else "{" + p.icon + "}" for p in w.pieces)
                                     for w in para) for para in shown)
        assert printed.split() == text.split() or "{" in text


# --- right-to-left text (issue 12, item 12) ---------------------------------------------------------------------

def _runs(text: str, face: str = "cardo") -> list[str]:
    from generator.render.model import TextRun
    from generator.render.text import Style, fit, layout_runs, parse

    style = Style(face, 10, 6, "#000000")
    fitted = fit(parse(text, face), 300, 60, style)
    return [r.text if isinstance(r, TextRun) else "{icon}" for r in layout_runs(fitted, 0, 0, 300, 60, style)]


def test_hebrew_is_drawn_in_the_order_it_is_read() -> None:
    # runs are listed left to right as drawn: a Hebrew word's letters reversed, a Hebrew paragraph's words too
    assert _runs("שלום world") == ["world", "םולש"]
    assert _runs("hello שלום עולם 123!") == ["hello", "123", "םלוע", "םולש!"]
    assert _runs("ספר (א) בראשית {wood}") == ["{icon}", "תישארב", "(א)", "רפס"]  # brackets mirrored
    assert _runs("שָׁלוֹם") == ["םוֹלשָׁ"]  # each mark stays after its letter
    assert _runs("plain text only") == ["plain", "text", "only"] or _runs("plain text only") == ["plain text only"]


def test_the_page_line_of_a_hebrew_deck_reads_right_to_left() -> None:
    from generator.render.text import visual

    assert visual("Guildhall · דק שלי · page 1") == "Guildhall · ילש קד · page 1"
    assert visual("no right-to-left text") == "no right-to-left text"


def test_a_script_without_glyphs_is_refused_by_name() -> None:
    from generator.render.text import TextProblem, parse

    with pytest.raises(TextProblem, match="the font Cardo has no glyph for 'م'"):
        parse("مرحبا", "cardo")


def test_right_to_left_text_keeps_its_markup() -> None:
    """A Hebrew word in colour and at another size, from a markup cell: laid out right to left, each run keeps
    the colour and size its piece was given (the bidirectional layout and rich text meet in one line)."""
    from generator.render.model import TextRun
    from generator.render.text import Style, fit, layout_runs, parse

    style = Style("cardo", 10, 6, "#000000")
    fitted = fit(parse("[colour=#aa0000]שלום[/colour] [size=150%]big[/size] end", "cardo"), 300, 60, style)
    runs = [r for r in layout_runs(fitted, 0, 0, 300, 60, style) if isinstance(r, TextRun)]
    # a right-to-left paragraph: the Hebrew word read first stands rightmost; "big end" keeps its own order
    assert [(r.text, r.colour, r.size) for r in runs] == [("big", "#000000", 15), ("end", "#000000", 10),
                                                         ("םולש", "#aa0000", 10)]
    assert [r.x for r in runs] == sorted(r.x for r in runs)


class _AlwaysMarkup:
    """Stands in for the set of markup characters so that :func:`T.parse` takes its full, token by token, path."""

    def isdisjoint(self, _text: str) -> bool:
        return False


def _shipped_texts() -> list[str]:
    """Every string in the shipped catalogs and example decks: real card text, names, notes."""
    import csv
    from pathlib import Path

    import yaml

    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    content = Path(__file__).resolve().parents[2] / "content"
    for path in sorted(content.rglob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    for path in sorted(content.rglob("*.csv")):
        for row in csv.reader(path.read_text(encoding="utf-8").splitlines()):
            found.extend(row)
    return found


@pytest.mark.parametrize("face", ["cardo", "cardo-bold"])
def test_plain_text_reads_as_the_full_markup_parser_reads_it(face: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Text without markup is split into words the short way (the common case, for speed); it must give exactly
    the paragraphs, words, widths and missing-glyph report the token by token parser gives."""
    texts = _shipped_texts() + [
        "", "   ", "a", " a\tb\r c ", "Château fort : « tour »", "word\u00a0joined", "漢字 and ☃", "x" * 300]
    plain = [t for t in texts if T._MARKUP_START.isdisjoint(t)]
    assert len(plain) > 200  # the shipped catalogs hold hundreds of such texts: the comparison is not empty

    def read(text: str) -> object:
        try:
            return T.parse(text, face, spacing=0.02)
        except T.MissingGlyphs as problem:
            return ("missing", problem.lacking)

    short = [read(t) for t in plain]
    monkeypatch.setattr(T, "_MARKUP_START", _AlwaysMarkup())
    full = [read(t) for t in plain]
    for text, a, b in zip(plain, short, full):
        assert a == b, text


# --- Arabic letters joined ----------------------------------------------------------------------------------------

#: The Arabic letters of the words below (sin, yeh, feh, lam, alef, meem), their shapes in Arabic Presentation
#: Forms-B (isolated, final, initial, medial; alef and lam-alef have only the first two) and the lam-alef ligature.
_ARABIC_SHAPES = {"س": "ﺱﺲﺳﺴ", "ي": "ﻱﻲﻳﻴ", "ف": "ﻑﻒﻓﻔ", "ل": "ﻝﻞﻟﻠ", "م": "ﻡﻢﻣﻤ", "ا": "ﺍﺎ", "لا": "ﻻﻼ"}


def _arabic_font(tmp_path: Any, shapes: bool) -> str:
    """A font of one's own with the Arabic letters above, with their presentation forms or without them (as a
    font that only shapes through OpenType tables maps them)."""
    chars = [c for key in _ARABIC_SHAPES for c in (key if len(key) == 1 else "")] + [" "]
    if shapes:
        chars += [c for forms in _ARABIC_SHAPES.values() for c in forms]
    return _box_font(tmp_path, "joined" if shapes else "plain", chars)


def _box_font(tmp_path: Any, stem: str, chars: list[str]) -> str:
    """A font of one's own drawing each of `chars` as a box half an em wide, registered as donjon does."""
    from render_helpers import box_font

    path = box_font(tmp_path / f"{stem}.ttf", stem.title(), "".join(chars))
    return fonts.register_family(stem, {"regular": path})[stem]


def test_arabic_letters_are_drawn_joined(tmp_path: Any) -> None:
    """reportlab draws each character alone: a card's سيف printed as three isolated letters. Each letter is now
    drawn in the shape its neighbours give it (initial, medial, final), lam-alef as one ligature, right to left."""
    face = _arabic_font(tmp_path, shapes=True)
    sin, yeh, feh = _ARABIC_SHAPES["س"], _ARABIC_SHAPES["ي"], _ARABIC_SHAPES["ف"]
    # the runs drawn, left to right: feh final, yeh medial, sin initial
    assert _runs("سيف", face) == [feh[1] + yeh[3] + sin[2]]
    # salam: sin initial, lam-alef final (one ligature), meem isolated; a lone "la" is the isolated ligature
    lam_alef, meem = _ARABIC_SHAPES["لا"], _ARABIC_SHAPES["م"]
    assert _runs("سلام لا", face) == [lam_alef[0], meem[0] + lam_alef[1] + sin[2]]
    # rich text reads the same letters the same way
    assert _runs("[colour=#aa0000]سيف[/colour]", face) == [feh[1] + yeh[3] + sin[2]]
    # a letter alone is isolated, and so is one after an alef, which never joins the letter after it
    assert _runs("س اس", face) == [sin[0] + _ARABIC_SHAPES["ا"][0], sin[0]]


def test_arabic_letters_join_across_a_colour_or_a_weight_changed_inside_a_word(tmp_path: Any) -> None:
    """Markup inside a word (`س[colour=..]ي[/colour]ف`, one letter in colour or bold) cut the word into pieces, each
    joined alone: the letters at each cut printed in their isolated shapes. A word's letters now take their shapes
    from their neighbours in the word, whatever piece they are in; each piece keeps its colour and face."""
    from generator.render.model import TextRun
    from generator.render.text import Style, fit, layout_runs, parse

    chars = [c for key in _ARABIC_SHAPES for c in (key if len(key) == 1 else "")] + [" "]
    chars += [c for forms in _ARABIC_SHAPES.values() for c in forms]
    _box_font(tmp_path, "arabic-regular", chars), _box_font(tmp_path, "arabic-bold", chars)
    faces = fonts.register_family("arj", {"regular": tmp_path / "arabic-regular.ttf",
                                          "bold": tmp_path / "arabic-bold.ttf"})
    face = faces["arj"]
    sin, yeh, feh = _ARABIC_SHAPES["س"], _ARABIC_SHAPES["ي"], _ARABIC_SHAPES["ف"]
    style = Style(face, 10, 6, "#000000")

    def drawn(text: str) -> list[tuple[str, str, str]]:
        fitted = fit(parse(text, face, {"red": "#aa0000"}), 300, 60, style)
        return [(r.text, r.colour, "bold" if r.font == faces["arj-bold"] else "regular")
                for r in layout_runs(fitted, 0, 0, 300, 60, style) if isinstance(r, TextRun)]

    # left to right as drawn: feh final, yeh medial (red), sin initial
    assert drawn("س[colour=red]ي[/colour]ف") == [(feh[1], "#000000", "regular"), (yeh[3], "#aa0000", "regular"),
                                                  (sin[2], "#000000", "regular")]
    assert drawn("س**يف**") == [(feh[1] + yeh[3], "#000000", "bold"), (sin[2], "#000000", "regular")]
    # a lam and an alef in two pieces join each other, each in its own shape (no ligature spans two pieces)
    lam, alef = _ARABIC_SHAPES["ل"], _ARABIC_SHAPES["ا"]
    assert drawn("س**ل**ا") == [(alef[1], "#000000", "regular"), (lam[3], "#000000", "bold"),
                               (sin[2], "#000000", "regular")]
    # an icon inside a word still parts its letters
    assert [t for t, _c, _w in drawn("س{wood}ف")] == [feh[0], sin[0]]


def test_a_font_without_presentation_forms_draws_the_letters_as_before(tmp_path: Any) -> None:
    face = _arabic_font(tmp_path, shapes=False)
    assert _runs("سيف", face) == ["فيس"]


# --- Chinese and Japanese, written without spaces ---------------------------------------------------------------

def test_japanese_and_chinese_wrap_between_their_characters(tmp_path: Any) -> None:
    """A sentence of Japanese or Chinese has no spaces: it was one word, refused as wider than any card's box. A
    line now breaks between two ideographs or kana, never before a closing mark (。、」ー) nor after an opening one
    (「), and nothing is drawn between the parts of a word."""
    from generator.render.model import TextRun

    japanese = "日本語の「テキスト」です。カードを使う、Dragonに三点"
    face = _box_font(tmp_path, "cjk", sorted(set(japanese + " ")))
    style = T.Style(face, 10, 10, "#000000")
    # a box 8.2 characters wide (a character is half an em: 5 pt at 10 pt)
    fitted = T.fit(T.parse(japanese, face), 41, 400, style)
    lines = ["".join(p.text for w in line.words for p in w.pieces) for line in fitted.lines]
    assert "".join(lines) == japanese
    # 「 stays with テ, 」 and 。 with what they close, and Dragon (a word of another script) is not broken
    assert lines == ["日本語の「テキス", "ト」です。カード", "を使う、", "Dragonに三", "点"]
    runs = [r for r in T.layout_runs(fitted, 0, 0, 41, 400, style) if isinstance(r, TextRun)]
    assert [r.text for r in runs] == lines  # one run a line, no space inside
    # the short way for plain text and the markup parser read it alike
    assert T.parse(japanese, face) == T.parse("[size=100%]" + japanese + "[/size]", face)
