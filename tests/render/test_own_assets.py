"""Fonts and icons of one's own, and rich text read from the data: declared by a deck or a layout, checked with
file and line, embedded as subsets; markup from a cell only in boxes that ask for it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from generator.layout.load import clear_cache
import pictures
from render_helpers import make_deck, run

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "http://www.w3.org/1999/xlink"

TEXT_LAYOUT = """\
background: "#ffffff"
palette: {ink: "#111111", blood: "#aa0000"}
styles:
  body: {font: FONT, size: 10pt, min_size: 6pt, colour: ink}
boxes:
  body: {kind: text, MARKUP x: 5mm, y: 5mm, width: 100% - 10mm, height: 40mm, style: body, text: "{{ Text }}"}
"""


def _layout(font: str = "cardo", markup: bool = False) -> str:
    return TEXT_LAYOUT.replace("FONT", font).replace("MARKUP ", "markup: true, " if markup else "")


def _build(deck: Path, out: Path, *args: str) -> Any:
    clear_cache()
    return run("build", "--content", str(deck), "--out", str(out), *args)


def _svg_texts(out: Path, card: str = "001-a") -> list[ET.Element]:
    root = ET.parse(out / "decks" / "test-deck" / "svg" / f"{card}.svg").getroot()
    return list(root.iter(f"{SVG_NS}text"))


def _ink(out: Path, card: str = "001-a") -> dict[str, str]:
    """The colour each run of text is drawn in, by its text: the fill of the glyphs drawn just before the
    invisible text that carries it."""
    children = list(ET.parse(out / "decks" / "test-deck" / "svg" / f"{card}.svg").getroot())
    return {str(el.text): children[i - 1].get("fill", "") for i, el in enumerate(children) if el.tag == f"{SVG_NS}text"}


# --- fonts --------------------------------------------------------------------------------------------------------

def _with_font(tmp_path: Path, declaration: str, font: str, text: str = "Hello **bold** *slanted*") -> Path:
    fonts = tmp_path / "d" / "fonts"
    fonts.mkdir(parents=True, exist_ok=True)
    for name in ("DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf", "DejaVuSerifCondensed-Italic.ttf"):
        (fonts / name).write_bytes((pictures.dejavu().parent / name).read_bytes())
    return make_deck(tmp_path / "d", [{"name": "A", "Text": text}], layout=_layout(font, markup=True),
                     extra=declaration)


DEJAVU = ("fonts:\n  mine:\n    regular: fonts/DejaVuSerifCondensed.ttf\n    bold: fonts/DejaVuSerifCondensed-Bold.ttf\n"
          "    italic: fonts/DejaVuSerifCondensed-Italic.ttf\n")


def test_a_deck_font_is_used_embedded_as_subsets_with_its_bold_and_italic(tmp_path: Path) -> None:
    import pikepdf

    deck = _with_font(tmp_path, DEJAVU, "mine")
    out = tmp_path / "out"
    result = _build(deck, out)
    assert result.exit_code == 0, result.stderr
    with pikepdf.open(out / "decks" / "test-deck.pdf") as doc:
        fonts = {str(o.BaseFont): o for o in doc.objects if isinstance(o, pikepdf.Dictionary)
                 and o.get("/Type") == "/Font"}
        names = {re.sub(r"^/[A-Z]{6}\+", "", n) for n in fonts}
        assert {"DejaVuSerifCondensed", "DejaVuSerifCondensed-Bold", "DejaVuSerifCondensed-Italic"} <= names
        for name, font in fonts.items():
            if "DejaVu" in name:
                embedded = font.FontDescriptor.FontFile2.read_bytes()
                assert len(embedded) < pictures.dejavu().stat().st_size / 4  # a subset, not the whole file
    texts = _svg_texts(out)
    assert {t.get("font-family") for t in texts} == {"'DejaVu Serif Condensed', serif"}
    assert [t.get("font-weight") for t in texts if t.text == "bold"] == ["bold"]
    assert [t.get("font-style") for t in texts if t.text == "slanted"] == ["italic"]


def test_a_layout_may_declare_its_font_relative_to_itself(tmp_path: Path) -> None:
    shared = tmp_path / "c" / "shared"
    (shared / "f").mkdir(parents=True)
    (shared / "f" / "x.ttf").write_bytes(pictures.dejavu().read_bytes())
    (shared / "card.yaml").write_text("fonts: {plain: f/x.ttf}\n" + _layout("plain"), encoding="utf-8")
    make_deck(tmp_path / "c" / "d", [{"name": "A", "Text": "Hi"}], layout="../shared/card.yaml")
    result = _build(tmp_path / "c", tmp_path / "out", "--format", "svg")
    assert result.exit_code == 0, result.stderr
    assert _svg_texts(tmp_path / "out")[0].get("font-family") == "'DejaVu Serif Condensed', serif"


@pytest.mark.parametrize(("declaration", "font", "message"), [
    ("", "DejaVuSerif.ttf", "'DejaVuSerif.ttf' is a file, not a font name: declare it under `fonts:`"),
    (DEJAVU, "mien", "unknown font 'mien' (did you mean 'mine'?); expected one of cardo, cardo-bold"),
    ("fonts: {cardo: fonts/DejaVuSerifCondensed.ttf}\n", "cardo", "fonts.cardo: 'cardo' is already a font donjon has"),
    ("fonts: {mine: fonts/nothing.ttf}\n", "mine", "fonts.mine: 'fonts/nothing.ttf': there is no such file"),
    ("fonts: {mine: ../../outside.ttf}\n", "mine", "is outside the content folder"),
    ("fonts: {mine: cards.csv}\n", "mine", "cards.csv: it is not a TrueType or OpenType font"),
])
def test_font_problems_name_the_declaration(tmp_path: Path, declaration: str, font: str, message: str) -> None:
    deck = _with_font(tmp_path, declaration, font)
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr


def test_a_family_with_a_broken_face_is_one_problem_not_every_style_using_it(tmp_path: Path) -> None:
    """A family whose bold file is no font is named once, where it is declared: the styles using the family (its
    regular face too) were each reported besides as an "unknown font ... or a font declared under `fonts:`", which
    it is; a font no one declared still is."""
    broken = DEJAVU.replace("bold: fonts/DejaVuSerifCondensed-Bold.ttf", "bold: cards.csv")
    deck = _with_font(tmp_path, broken, "mine")
    layout = deck / "layout.yaml"
    layout.write_text(layout.read_text() + "  title: {kind: text, x: 5mm, y: 50mm, width: 40mm, height: 10mm, "
                                           "font: mine-bold, size: 9pt, colour: ink, text: x}\n"
                                           "  other: {kind: text, x: 5mm, y: 62mm, width: 40mm, height: 10mm, "
                                           "font: theirs, size: 9pt, colour: ink, text: x}\n")
    clear_cache()
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert "fonts.mine: cards.csv: it is not a TrueType or OpenType font" in result.stderr, result.stderr
    assert "unknown font 'mine" not in result.stderr, result.stderr
    assert "unknown font 'theirs'" in result.stderr, result.stderr


def test_a_cff_opentype_font_is_converted_to_truetype(tmp_path: Path) -> None:
    import pikepdf

    pictures.cff_font(tmp_path / "d" / "cff.otf")
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "ABC DEF"}], layout=_layout("post"),
                     extra="fonts: {post: cff.otf}\n")
    out = tmp_path / "out"
    result = _build(deck, out)
    assert result.exit_code == 0, result.stderr
    with pikepdf.open(out / "decks" / "test-deck.pdf") as doc:
        fonts = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"
                 and "Test-CFF" in str(o.BaseFont)]
        assert fonts and all(f.Subtype == "/TrueType" and "/FontFile2" in f.FontDescriptor for f in fonts)


def test_a_variable_cff2_font_is_refused_saying_why(tmp_path: Path) -> None:
    pictures.cff_font(tmp_path / "d" / "var.otf", flavour="CFF2")
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "AB"}], layout=_layout("var"),
                     extra="fonts: {var: var.otf}\n")
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert re.search(r"deck.yaml:\d+: fonts.var: var.otf: it is a variable OpenType font \(CFF2 outlines\)",
                     result.stderr), result.stderr


def test_a_font_whose_licence_forbids_embedding_is_refused(tmp_path: Path) -> None:
    from fontTools.ttLib import TTFont

    font = TTFont(str(pictures.dejavu()))
    font["OS/2"].fsType = 2  # "restricted licence embedding": may not be embedded at all
    (tmp_path / "d").mkdir(parents=True)
    font.save(str(tmp_path / "d" / "locked.ttf"))
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "AB"}], layout=_layout("locked"),
                     extra="fonts: {locked: locked.ttf}\n")
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert "fonts.locked: locked.ttf: its licence forbids embedding it in a document" in result.stderr


def test_content_check_reports_text_a_font_cannot_draw(tmp_path: Path) -> None:
    deck = _with_font(tmp_path, DEJAVU, "mine", text="Castle 城")
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert "the font DejaVu Serif Condensed has no glyph for '城' (U+57CE)" in result.stderr
    assert "card 'A' (" in result.stderr


@pytest.mark.parametrize("name", ["سيف", "大市場カード"])
def test_a_deck_named_in_a_script_open_sans_lacks_builds_in_its_own_font(tmp_path: Path, name: str) -> None:
    """A deck named in Arabic, Chinese or Japanese, its cards in a font of its own that has those letters, could not
    be built nor pass `content check`: the page line of every sheet and donjon's plain back wrote the name in Open
    Sans. Both now write what Open Sans lacks in the deck's own font, as the cards do: `content check` and the build
    pass, the PDF embeds the font, and the back (no back of the deck's own) draws the name in it, joined."""
    import pypdf

    from render_helpers import box_font

    box_font(tmp_path / "d" / "fonts" / "own.ttf", "Own Script", "سيفﺱﺲﺳﺴﻱﻲﻳﻴﻑﻒﻓﻔ大市場カードABC")
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "ABC"}], layout=_layout("own"), name=name,
                     extra="fonts:\n  own: fonts/own.ttf\n")
    clear_cache()
    checked = run("content", "check", "--content", str(deck))
    assert checked.exit_code == 0, checked.stderr
    out = tmp_path / "out"
    built = _build(deck, out)
    assert built.exit_code == 0, built.stderr
    # joined: sin initial, yeh medial, feh final (as a PDF reader gives them back, in the order they are read)
    drawn = "\ufeb3\ufef4\ufed2" if name == "سيف" else name
    for page in pypdf.PdfReader(out / "decks" / "test-deck.pdf").pages:  # the fronts' page, then the backs'
        line = page.extract_text().splitlines()[-1]
        assert line.startswith(drawn + " · ") and line.endswith("print at 100% (actual size) 50 mm"), line
    back = ET.parse(out / "decks" / "test-deck" / "svg" / "back.svg").getroot()
    shown = drawn[::-1] if name == "سيف" else drawn  # the SVG's text runs left to right, as drawn
    assert [el.text for el in back.iter(f"{SVG_NS}text")] == [shown]


# --- markup from the data -----------------------------------------------------------------------------------------

MARKED = "**Bold** and [colour=blood]red[/colour] and [size=150%]big[/size] {wood}"


def test_without_markup_a_cell_prints_exactly_as_written(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "**Bold** [colour=blood]red[/colour] {{ x }}"}],
                     layout=_layout())
    out = tmp_path / "out"
    assert _build(deck, out, "--format", "svg").exit_code == 0
    shown = " ".join(t.text or "" for t in _svg_texts(out))
    assert shown == "**Bold** [colour=blood]red[/colour] {{ x }}"


def test_with_markup_a_cell_is_bold_coloured_sized_and_has_icons(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": MARKED}], layout=_layout(markup=True))
    out = tmp_path / "out"
    result = _build(deck, out, "--format", "svg")
    assert result.exit_code == 0, result.stderr
    texts = {t.text: t for t in _svg_texts(out)}
    assert texts["Bold"].get("font-weight") == "bold"
    ink = _ink(out)
    assert ink["red"] == "#aa0000" and ink["and"] == "#111111"
    assert float(texts["big"].get("font-size", 0)) == pytest.approx(1.5 * float(texts["and"].get("font-size", 0)))
    root = ET.parse(out / "decks" / "test-deck" / "svg" / "001-a.svg").getroot()
    assert root.find(f".//{SVG_NS}symbol[@id='icon-wood']") is not None


def test_markup_mistakes_in_a_cell_name_the_card(tmp_path: Path) -> None:
    deck = make_deck(tmp_path / "d", [{"name": "A", "Text": "[colour=purple]x[/colour]"}], layout=_layout(markup=True))
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "card 'A'" in result.stderr
    assert "'purple' is neither '#rrggbb' nor a colour of the layout's palette (ink, blood)" in result.stderr


# --- icons of one's own -------------------------------------------------------------------------------------------

ICON_LAYOUT = """\
background: "#ffffff"
styles:
  body: {font: cardo, size: 10pt, min_size: 6pt, colour: "#000000"}
boxes:
  badge: {kind: icon, x: 5mm, y: 5mm, width: 10mm, height: 10mm, icon: "{{ Badge }}"}
  body: {kind: text, x: 5mm, y: 20mm, width: 100% - 10mm, height: 30mm, style: body, text: "{{ Text }}"}
  note: {kind: text, x: 5mm, y: 55mm, width: 100% - 10mm, height: 20mm, style: body, text: "{{ Note }}"}
"""


def _icons_deck(tmp_path: Path, rows: list[dict[str, str]], extra: str = "icons: icons/\n") -> Path:
    pictures.svg(tmp_path / "d" / "icons" / "mana.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                                        '<polygon points="5,0 10,5 5,10 0,5" fill="#2255cc"/></svg>')
    pictures.png(tmp_path / "d" / "icons" / "Sword Icon.png", (64, 128), alpha=True)
    return make_deck(tmp_path / "d", rows, layout=ICON_LAYOUT, extra=extra)


def test_own_icons_inline_and_in_icon_boxes(tmp_path: Path) -> None:
    deck = _icons_deck(tmp_path, [{"name": "A", "Badge": "sword-icon", "Text": "Pay {mana}{mana}, gain {wood}",
                                   "Note": ""}])
    out = tmp_path / "out"
    result = _build(deck, out)
    assert result.exit_code == 0, result.stderr
    root = ET.parse(out / "decks" / "test-deck" / "svg" / "001-a.svg").getroot()
    hrefs = [i.get("{http://www.w3.org/1999/xlink}href", "") for i in root.iter(f"{SVG_NS}image")]
    # each once: the PNG as a picture, the SVG as vectors (a nested <svg> in its symbol)
    assert sorted(h.split(";")[0] for h in hrefs) == ["data:image/png"]
    assert sorted(len(s.findall(f"{SVG_NS}svg")) for s in root.iter(f"{SVG_NS}symbol") if s.get("id", "").startswith(
        "picture-")) == [0, 1]
    placed = [u for u in root.iter(f"{SVG_NS}use") if not u.get(f"{{{XLINK}}}href", "").startswith("#g-")]
    assert len(placed) == 4  # the badge, mana twice, and the built-in wood (not counting the text's glyphs)
    # the tall sword keeps its shape inside its square: as tall as the box, half as wide
    import pikepdf

    with pikepdf.open(out / "decks" / "test-deck.pdf") as doc:
        assert len([o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]) == 2


def test_every_unknown_icon_of_a_card_is_named_with_its_boxes(tmp_path: Path) -> None:
    deck = _icons_deck(tmp_path, [{"name": "A", "Badge": "mana", "Text": "{manna} and {fire}", "Note": "{sord}"}])
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    message = result.stderr
    assert "{manna} (did you mean {mana}?), {fire}, {sord} are not icons donjon or the deck has" in message
    assert "in boxes 'body', 'note'" in message


@pytest.mark.parametrize(("extra", "message"), [
    ("icons: {wood: icons/mana.svg}\n", "icons.wood: 'wood' is one of donjon's own icons"),
    ("icons: {mana: cards.csv}\n", "icons.mana: 'cards.csv' is neither an .svg nor a .png file"),
    ("icons: nowhere/\n", "icons: 'nowhere/' is not a folder"),
])
def test_icon_declarations_are_checked(tmp_path: Path, extra: str, message: str) -> None:
    deck = _icons_deck(tmp_path, [{"name": "A", "Badge": "mana", "Text": "", "Note": ""}], extra=extra)
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr
