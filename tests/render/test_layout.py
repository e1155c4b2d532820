"""The layout format: lengths and units, extends (of layouts and of boxes) with their cycle guards, and every
mistake reported with the file, the line and the box."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.layout.load import MissingLayout, clear_cache, load_layout, shipped_ids
from generator.layout.spec import Dim, parse_dim
from generator.render.model import mm
from render_helpers import REPO


@pytest.fixture(autouse=True)
def _fresh() -> None:
    clear_cache()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(folder: Path, ref: str = "layout.yaml") -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_layout(ref, folder)
    return [str(p) for p in caught.value.problems]


def reports_all(folder: Path, expected: tuple[str, ...]) -> None:
    """Loading layout.yaml reports each expected problem (file:line: where: message), all at once."""
    found = "\n".join(problems_of(folder))
    for message in expected:
        assert message in found, f"{message!r} not in:\n{found}"


@pytest.mark.parametrize(("text", "pt", "pct"), [
    ("4mm", mm(4), 0), ("1in", 72, 0), ("10pt", 10, 0), ("1.5cm", mm(15), 0), ("50%", 0, 50),
    ("100% - 4mm", -mm(4), 100), ("50% + 2pt - 1pt", 1, 50), (".5in", 36, 0),
])
def test_lengths_convert_once(text: str, pt: float, pct: float) -> None:
    dim = parse_dim(text)
    assert dim is not None and dim.pt == pytest.approx(pt) and dim.pct == pytest.approx(pct)


@pytest.mark.parametrize("text", ["4", "4 px", "mm", "4mm 3mm", "4mm +", "four mm", "50% of", ""])
def test_not_lengths(text: str) -> None:
    assert parse_dim(text) is None


def test_relative_length() -> None:
    assert parse_dim("+= 2mm") == Dim(mm(2), 0, True)
    assert parse_dim("-= 10%") == Dim(0, -10, True)


def test_percentages_follow_the_card(tmp_path: Path) -> None:
    write(tmp_path, "layout.yaml", """\
background: "#ffffff"
styles: {s: {font: cardo, size: 9pt, colour: "#000000"}}
boxes:
  a: {kind: text, x: 10%, y: 50% - 4mm, width: 100% - 20mm, height: 8mm, style: s, text: "x"}
""")
    frame = load_layout("layout.yaml", tmp_path).frames(mm(63), mm(88))[0]
    assert frame.x == pytest.approx(mm(6.3))
    assert frame.y == pytest.approx(mm(40))
    assert frame.w == pytest.approx(mm(43))
    assert frame.h == pytest.approx(mm(8))


def test_layout_extends_and_box_extends(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", """\
background: paper
palette: {paper: "#fafafa", ink: "#111111"}
styles: {body: {font: cardo, size: 9pt, colour: ink}}
boxes:
  frame: {kind: rect, x: 2mm, y: 2mm, width: 100% - 4mm, height: 100% - 4mm, stroke: ink, stroke_width: 1pt}
  title: {kind: text, x: 4mm, y: 4mm, width: 100% - 8mm, height: 8mm, style: body, text: "{{ card.name }}"}
""")
    write(tmp_path, "layout.yaml", """\
extends: base.yaml
boxes:
  title: {y: += 1mm}
  subtitle: {extends: title, y: += 9mm, text: "sub"}
""")
    layout = load_layout("layout.yaml", tmp_path)
    assert [b.name for b in layout.boxes] == ["frame", "title", "subtitle"]
    title, subtitle = layout.boxes[1], layout.boxes[2]
    assert title.y.pt == pytest.approx(mm(5))
    assert subtitle.y.pt == pytest.approx(mm(14))  # 5 mm inherited (after the override) + 9 mm
    assert subtitle.style is not None and subtitle.style.colour == "#111111"
    assert layout.background == "#fafafa"


def test_layout_extends_cycle_is_named(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\nbackground: '#ffffff'\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    found = problems_of(tmp_path, "a.yaml")
    assert len(found) == 1
    assert "cycle" in found[0] and "a.yaml -> " in found[0] and "b.yaml" in found[0]
    assert found[0].split(":")[1] == "1"  # the line of the `extends` that closes the cycle


def test_box_extends_cycle_is_named(tmp_path: Path) -> None:
    write(tmp_path, "layout.yaml", """\
background: "#ffffff"
boxes:
  a: {extends: b, kind: rect, fill: "#000000"}
  b: {extends: a}
""")
    found = problems_of(tmp_path)
    assert any("cycle" in p and "a -> b -> a" in p for p in found), found


def test_unknown_parent_box_and_layout(tmp_path: Path) -> None:
    write(tmp_path, "layout.yaml", """\
background: "#ffffff"
boxes:
  a: {extends: nowhere, kind: rect, x: 0, y: 0, width: 1mm, height: 1mm, fill: "#000000"}
""")
    found = problems_of(tmp_path)
    assert found == [f"{found[0].split(':')[0]}:3: boxes.a.extends: extends 'nowhere', which is not a box of this "
                     "layout (boxes: a)"]
    write(tmp_path, "other.yaml", "extends: no-such-layout\nbackground: '#ffffff'\n")
    found = problems_of(tmp_path, "other.yaml")
    assert "no-such-layout" in found[0] and "not a shipped layout" in found[0] and ":1: extends" in found[0]


def test_missing_layout_is_reported_to_the_caller(tmp_path: Path) -> None:
    with pytest.raises(MissingLayout, match="not a shipped layout"):
        load_layout("no-such-layout", tmp_path)
    with pytest.raises(MissingLayout, match="outside the content folder"):
        load_layout("../x.yaml", tmp_path)


def test_format_problems_all_at_once_with_file_and_line(tmp_path: Path) -> None:
    write(tmp_path, "layout.yaml", """\
background: "#ffffff"
boxes:
  a: {kind: text, x: 4, y: 4mm, width: 10mm, height: 5mm, text: x}
  b: {kind: txt, x: 4mm, y: 4mm, width: 10mm, height: 5mm, text: x}
  c: {kind: text, x: 4mm, y: 4mm, width: 10mm, height: 5mm, font: cardo, size: 3pt, colour: "#000000", text: x}
  d: {kind: rect, x: 0, y: 0, width: -5mm, height: 5mm, fill: "#000000", colour: "Red!"}
  e: {kind: rect, x: 0, y: 0, width: 5mm, height: 5mm, fill: "#000000", shadow: true}
  f: {kind: rect, x: 0, y: 0, width: 5mm, height: 5mm, fill: "#000000", rotation: 30}
""")
    reports_all(tmp_path, (
        ":3: boxes.a.x: 4 needs a unit: write 4mm, 4pt or 4in",
        ":4: boxes.b.kind: unknown box kind 'txt' (did you mean 'text'?)",
        ":5: boxes.c.size: is 3 pt; a font size must be between 5 and 400 pt",
        ":6: boxes.d.width: '-5mm' is negative",
        ":6: boxes.d.colour: 'Red!' is not a colour",
        ":7: boxes.e.shadow: unknown key 'shadow'",
        # a word other tools use for a key: the key donjon calls it by
        ":8: boxes.f.rotation: unknown key 'rotation' (did you mean 'rotate'?)",
    ))


def test_meaning_problems_all_at_once_with_file_line_and_box(tmp_path: Path) -> None:
    write(tmp_path, "layout.yaml", """\
background: "#ffffff"
palette: {ink: "#000000"}
styles: {body: {font: cardo, size: 9pt, colour: ink}}
boxes:
  b: {kind: text, x: 4mm, y: 4mm, width: 10mm, height: 5mm, style: nope, text: x}
  c: {kind: rect, x: 0, y: 0, width: 5mm, height: 5mm, fill: purple}
  d: {kind: icon, x: 4mm, y: 4mm, width: 5mm, height: 5mm, icon: dragon, colour: ink}
  e: {kind: rect, x: 0, y: 0, width: 5mm, height: 5mm, fill: ink, text: oops}
  f: {kind: text, x: 4mm, y: 4mm, width: 10mm, height: 5mm, style: body}
  g: {kind: text, x: 4mm, y: 4mm, width: 10mm, height: 5mm, style: body, text: "{{ unclosed"}
  h: {kind: rect, x: 0, y: 0, width: += 1mm, height: 1mm, fill: ink}
  j: {kind: rect, x: 0, y: 0, width: 5mm, height: 5mm, stroke: ink}
  k: {x: 0, y: 0, width: 5mm, height: 5mm}
  m: {kind: text, x: 4mm, y: 4mm, width: 10mm, height: 5mm, font: cardo, size: 9pt, min_size: 10pt, colour: ink, text: x}
""")
    reports_all(tmp_path, (
        ":5: boxes.b.style: names the style 'nope', which the layout does not define (styles: body)",
        ":6: boxes.c.fill: 'purple' is not in the palette (ink)",
        ":7: boxes.d.icon: 'dragon' is not an icon:",
        ":8: boxes.e: text means nothing to a rect box",
        ":9: boxes.f: a text box needs text",
        ":10: boxes.g.text: template error",
        ":11: boxes.h.width: '+=' and '-=' add to an inherited value",
        ":12: boxes.j: a stroke needs a stroke_width",
        ":13: boxes.k: has no kind",
        ":14: boxes.m: min_size 10 pt is larger than size 9 pt",
    ))


def test_boxes_must_lie_on_the_card_and_text_in_the_safe_area(tmp_path: Path) -> None:
    write(tmp_path, "layout.yaml", """\
background: "#ffffff"
styles: {body: {font: cardo, size: 9pt, colour: "#000000"}}
boxes:
  wide: {kind: rect, x: 40mm, y: 0, width: 30mm, height: 5mm, fill: "#000000"}
  edge: {kind: text, x: 1mm, y: 4mm, width: 20mm, height: 5mm, style: body, text: x}
  fine: {kind: text, x: 3mm, y: 3mm, width: 100% - 6mm, height: 5mm, style: body, text: x}
""")
    layout = load_layout("layout.yaml", tmp_path)
    with pytest.raises(ContentError) as caught:
        layout.frames(mm(63), mm(88))
    found = [str(p) for p in caught.value.problems]
    assert len(found) == 2
    assert ":4: boxes.wide: on a 63 x 88 mm card the box spans 40.0-70.0 mm across" in found[0]
    assert ":5: boxes.edge: on a 63 x 88 mm card the text box comes closer than 3 mm" in found[1]


def test_shipped_layouts_all_load_with_readable_body_text() -> None:
    ids = shipped_ids()
    for expected in ("generic", "generic-back", "guildhall-profession", "guildhall-vp", "guildhall-token",
                     "guedelon-event", "guedelon-floor-tile", "castle-guest"):
        assert expected in ids
    for ref in ids:
        layout = load_layout(ref)
        for box in layout.boxes:
            if box.style is not None and box.kind in ("text", "rows") and box.style.face in ("cardo", "cardo-italic"):
                # body text (the serif faces) never shrinks below 6.5 pt
                assert box.style.min_size >= 6.5, f"{ref}: box {box.name} may shrink to {box.style.min_size} pt"


def test_published_schema_matches_the_spec() -> None:
    from generator.schemas import all_schemas, render

    shipped = (REPO / "content" / "schemas" / "layout.schema.json").read_text(encoding="utf-8")
    assert shipped == render(all_schemas()["layout"]), "run `donjon content schema --out content/schemas`"
    assert json.loads(shipped)["title"].startswith("A donjon card layout")


def test_shipped_layouts_validate_against_the_schema() -> None:
    import jsonschema
    import yaml

    schema = json.loads((REPO / "content" / "schemas" / "layout.schema.json").read_text(encoding="utf-8"))
    for path in sorted((REPO / "templates" / "layouts").glob("*.yaml")):
        jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


def test_a_long_chain_of_boxes_is_no_trouble(tmp_path: Path) -> None:
    lines = ['background: "#ffffff"', "boxes:", '  b0: {kind: rect, x: 0, y: 0, width: 1mm, height: 1mm, fill: "#000000"}']
    lines += [f"  b{i}: {{extends: b{i - 1}, x: += 0.01mm}}" for i in range(1, 3000)]
    write(tmp_path, "layout.yaml", "\n".join(lines) + "\n")
    layout = load_layout("layout.yaml", tmp_path)
    assert layout.boxes[-1].x.pt == pytest.approx(2999 * 0.01 * 72 / 25.4)
