"""Drawing a card with a layout: values a card lacks, rows, small print, and `mark()`."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.catalog.common import Inferred, Provenance
from generator.errors import ContentError, FitError
from generator.layout.draw import DeckView, draw, notes_text, subject
from generator.layout.load import Layout, clear_cache, load_layout
from generator.render.model import Drawing, IconUse, TextRun, mm

DECK = DeckView("deck", "Deck", "game", "Game", 1)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    clear_cache()


def layout(tmp_path: Path, text: str) -> Layout:
    (tmp_path / "layout.yaml").write_text(text, encoding="utf-8")
    return load_layout("layout.yaml", tmp_path)


def texts(drawing: Drawing) -> list[str]:
    return [i.text for i in drawing.items if isinstance(i, TextRun)]


ROWS = """\
background: "#ffffff"
styles:
  body: {font: cardo, size: 9pt, min_size: 6.5pt, colour: "#000000"}
  badge: {font: open-sans-bold, size: 9pt, colour: "#ffffff", wrap: false}
boxes:
  levels: {kind: rows, x: 4mm, y: 4mm, width: 100% - 8mm, height: 30mm, items: levels, label: "{{ item.at }}+",
           text: "{{ item.effect }}", style: body, label_style: badge, label_width: 7mm, label_fill: "#224488",
           gap: 2mm, row_gap: 1mm}
"""


def test_rows_draw_a_badge_and_text_per_item(tmp_path: Path) -> None:
    data = {"levels": [{"at": 0, "effect": "Draw a card."}, {"at": 2, "effect": "Draw two cards."}]}
    drawing = draw(layout(tmp_path, ROWS), subject(data, None, DECK, {}, "card x"), mm(63), mm(88), 0)
    assert texts(drawing) == ["0+", "Draw a card.", "2+", "Draw two cards."]


def test_a_rows_box_prints_as_far_as_its_letters_not_its_dividers(tmp_path: Path) -> None:
    """What a print service's safe margin is measured against (generator.export.safe_zone): a rows box is as wide
    as its dividers, which run edge to edge of it, and its short texts stop well short of its right edge; only its
    letters (and its labels) count."""
    from generator.layout.draw import printed_boxes

    rows = ROWS.replace('label_fill: "#224488",', 'label_fill: "#224488", divider: "#000000",')
    data = {"levels": [{"at": 0, "effect": "Draw."}, {"at": 2, "effect": "Draw two."}]}
    [(box, (x0, _y0, x1, _y1))] = printed_boxes(layout(tmp_path, rows), subject(data, None, DECK, {}, "card x"),
                                                mm(63), mm(88))
    assert box.name == "levels" and x0 >= mm(4)  # the first label's letters, inside its badge
    assert x1 < mm(63 - 4) - mm(20)  # the texts end far from the box's right edge, where the dividers end


def test_rows_that_cannot_fit_name_the_card_and_box(tmp_path: Path) -> None:
    data = {"levels": [{"at": i, "effect": "A long effect that goes on and on. " * 4} for i in range(6)]}
    with pytest.raises(FitError, match=r"card x: the text of box 'levels' \(.*layout\.yaml:6\) does not fit: its 6 "
                                       r"rows need .* mm at 6\.5 pt, the smallest size allowed, but the box is 30\.0 mm"):
        draw(layout(tmp_path, ROWS), subject(data, None, DECK, {}, "card x"), mm(63), mm(88), 0)
    data = {"levels": [{"at": 1, "effect": "Incomprehensibilities" * 3}]}
    with pytest.raises(FitError, match="the word 'Incomprehensibilities.*' is .* mm wide"):
        draw(layout(tmp_path, ROWS), subject(data, None, DECK, {}, "card x"), mm(63), mm(88), 0)


def test_a_value_the_card_lacks_anywhere_is_a_content_error(tmp_path: Path) -> None:
    found = layout(tmp_path, 'background: "{{ colour }}"\n')
    with pytest.raises(ContentError, match=r"background: card x: 'colour' is undefined \(the layout reads a value"):
        draw(found, subject({}, None, DECK, {}, "card x"), mm(63), mm(88), 0)


def test_colour_templates_must_give_a_colour(tmp_path: Path) -> None:
    found = layout(tmp_path, 'background: "#ffffff"\nboxes:\n  a: {kind: rect, x: 0, y: 0, width: 5mm, height: 5mm, '
                             'fill: "{{ c }}"}\n')
    with pytest.raises(ContentError, match=r":3: boxes\.a\.fill: card x: the colour template gives 'teal', which is "
                                           r"neither '#rrggbb', 'none' nor a palette name"):
        draw(found, subject({"c": "teal"}, None, DECK, {}, "card x"), mm(63), mm(88), 0)


def test_small_print_groups_inferred_values_by_confidence() -> None:
    provenance = {
        "vp": Provenance("002", (Inferred(("copies", "removed_in_small_game"), "arithmetic", "H"),
                                 Inferred(("value",), "a review", "M"))),
        "set": Provenance("003", ()),
    }
    text = notes_text(provenance, {"vp.removed_in_small_game": "2-3 player removal"})
    assert text == ("{inferred} copies, 2-3 player removal: derived, not printed in the rules\n"
                    "{inferred} value: best reading, not official")
    assert notes_text({"set": Provenance("003", ())}, {}) == ""


def test_mark_flags_only_inferred_values(tmp_path: Path) -> None:
    found = layout(tmp_path, """\
background: "#ffffff"
styles: {s: {font: cardo, size: 9pt, colour: "#000000"}}
boxes:
  a: {kind: text, x: 4mm, y: 4mm, width: 40mm, height: 6mm, style: s, text: "{{ vp }}{{ mark('vp', 'value') }}"}
  b: {kind: text, x: 4mm, y: 12mm, width: 40mm, height: 6mm, style: s, text: "{{ vp }}{{ mark('vp', 'cost') }}"}
""")
    provenance = {"vp": Provenance(None, (Inferred(("value",), "guess", "L"),))}
    drawing = draw(found, subject({"vp": 3}, None, DECK, provenance, "card x"), mm(63), mm(88), 0)
    icons = [i for i in drawing.items if isinstance(i, IconUse)]
    assert len(icons) == 1 and icons[0].name == "inferred"
    clear_cache()
    bad = layout(tmp_path, 'background: "#ffffff"\nstyles: {s: {font: cardo, size: 9pt, colour: "#000000"}}\nboxes:\n'
                           '  a: {kind: text, x: 4mm, y: 4mm, width: 40mm, height: 6mm, style: s, '
                           'text: "{{ mark(\'nothing\', \'value\') }}"}\n')
    with pytest.raises(ContentError, match="mark: 'nothing' is not a value of this card"):
        draw(bad, subject({"vp": 3}, None, DECK, {}, "card x"), mm(63), mm(88), 0)


def test_ink_reads_a_palette_name_as_fill_does() -> None:
    from generator.render.colour import DARK_INK, LIGHT_INK, PALETTE, ink_on

    token = PALETTE.set({"kingdom": "#1d3557", "wilds": "#f1faee"})
    try:
        assert ink_on("kingdom") == LIGHT_INK and ink_on(" wilds ") == DARK_INK and ink_on("#000000") == LIGHT_INK
        with pytest.raises(ValueError, match="or a name from the palette \\(kingdom, wilds\\), got 'purple'"):
            ink_on("purple")
    finally:
        PALETTE.reset(token)
