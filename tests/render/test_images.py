"""Pictures: checked where they enter, placed by image boxes, embedded once per PDF and once per SVG file, SVG art
kept as vectors, and every problem named with the card's row, the column and the file."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from generator.render import images
from generator.render.images import ImageProblem, image_info
from generator.render.model import Drawing, ImageUse, Page, Placed
import pictures
from render_helpers import make_deck, run

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_kinds_and_sizes_are_read_from_the_files(tmp_path: Path) -> None:
    assert image_info(pictures.png(tmp_path / "a.png", (300, 200))).kind == "png"
    found = image_info(pictures.jpeg(tmp_path / "b.jpg", (120, 60)))
    assert (found.kind, found.width, found.height, found.aspect) == ("jpeg", 120, 60, 2.0)
    art = image_info(pictures.svg(tmp_path / "c.svg"))
    assert art.kind == "svg" and art.aspect == pytest.approx(2.0)
    sized = image_info(pictures.svg(tmp_path / "d.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" '
                                                        'height="88mm"><rect width="10" height="10"/></svg>'))
    assert (round(sized.width / 72 * 25.4, 3), round(sized.height / 72 * 25.4, 3)) == (63.0, 88.0)
    # recognised by their bytes, not their names
    (tmp_path / "png-really.jpg").write_bytes((tmp_path / "a.png").read_bytes())
    assert image_info(tmp_path / "png-really.jpg").kind == "png"


@pytest.mark.parametrize(("make", "reason"), [
    (lambda d: pictures.bomb(d / "x.png"), r"10000 x 10000 pixels \(100 million\), more than the 40 million"),
    (lambda d: _cut(pictures.png(d / "x.png"), 0.6), "damaged PNG"),
    (lambda d: _cut(pictures.jpeg(d / "x.jpg", (400, 300)), 0.5), "damaged JPEG"),
    (lambda d: _write(d / "x.png", b"GIF89a not a picture we read"), "not a PNG, JPEG or SVG"),
    (lambda d: pictures.svg(d / "x.svg", '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b '
                                         '"&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 '
                                         '1">&b;</svg>'), "line 1: its DOCTYPE declares the entity 'b' with markup, "
                                                          "references"),
    (lambda d: pictures.svg(d / "x.svg", '<?xml version="1.0"?><!DOCTYPE html><svg '
                                         'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>'),
     "declares a DOCTYPE donjon does not read"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><script>'
                                         'alert(1)</script></svg>'), "holds a script"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><switch>'
                                         '<foreignObject requiredExtensions="http://www.w3.org/1999/xhtml" width="9" '
                                         'height="9"/><rect width="9" height="9"/></switch></svg>'),
     "holds a foreignObject"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/'
                                         '1999/xlink" viewBox="0 0 9 9"><image xlink:href="/etc/passwd"/></svg>'),
     "refers to '/etc/passwd'"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect '
                                         'fill="url(https://example.org/x.svg#p)" width="9" height="9"/></svg>'),
     "refers to 'https://example.org"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><text>Hi</text>'
                                         '</svg>'), "holds text, .*Object to Path"),
    # named by their line, to find them in the file (the standard library's parser, which checks first, keeps none)
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">\n<rect/>\n'
                                         '<!-- a note -->\n<text>Hi</text></svg>'), "^line 4: it holds text"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/'
                                         '1999/xlink" viewBox="0 0 9 9">\n<g>\n<image xlink:href="art/x.png"/>'
                                         '</g></svg>'), "^line 3: <image> refers to 'art/x.png'"),
    (lambda d: pictures.svg(d / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg"><rect width="9"/></svg>'),
     "has no size"),
    (lambda d: d / "missing.png", "no such file"),
])
def test_bad_pictures_are_refused_with_the_reason(tmp_path: Path, make: Any, reason: str) -> None:
    path = make(tmp_path)
    with pytest.raises(ImageProblem, match=reason):
        image_info(path)


def _cut(path: Path, share: float) -> Path:
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * share)])
    return path


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_a_picture_saved_again_is_read_again(tmp_path: Path) -> None:
    path = pictures.png(tmp_path / "a.png", (300, 200))
    assert image_info(path).width == 300
    pictures.png(path, (100, 200))
    import os

    os.utime(path, ns=(1, 1))  # a different modification time, whatever the clock's resolution
    assert image_info(path).width == 100


# --- backends -----------------------------------------------------------------------------------------------------

def _pdf(tmp_path: Path, items: tuple[ImageUse, ...], copies: int = 3) -> Any:
    import pikepdf

    from generator.backends.pdf import write_pdf

    card = Drawing(180, 252, items, 0, "card")
    placed = tuple(Placed(card, 10 + 190 * (i % 3), 10) for i in range(copies))
    target = tmp_path / "out.pdf"
    write_pdf([Page(600, 300, placed), Page(600, 300, (Placed(card._replace(key=None), 10, 10),))], target,
              title="t")
    return pikepdf.open(target), target


def test_each_picture_file_is_embedded_once_however_often_it_is_drawn(tmp_path: Path) -> None:
    flat = pictures.png(tmp_path / "flat.png")
    seethrough = pictures.png(tmp_path / "alpha.png", alpha=True)
    photo = pictures.jpeg(tmp_path / "photo.jpg")
    art = pictures.svg(tmp_path / "art.svg")
    twin = tmp_path / "twin.png"
    twin.write_bytes(flat.read_bytes())  # the same picture under another name: embedded once too
    items = tuple(ImageUse(str(p), 10, 10 + 40 * i, 100, 30) for i, p in enumerate((flat, seethrough, photo, art,
                                                                                    twin)))
    doc, _target = _pdf(tmp_path, items + items)
    found = [o for o in doc.objects if isinstance(o, __import__("pikepdf").Stream) and o.get("/Subtype") == "/Image"]
    # flat, the see-through one and its soft mask, the photo: four images for nine pictures drawn six times over
    assert len(found) == 4
    filters = sorted(str(o.Filter[0]) for o in found)
    assert filters == ["/DCTDecode", "/FlateDecode", "/FlateDecode", "/FlateDecode"]
    jpeg_stream = next(o for o in found if str(o.Filter[0]) == "/DCTDecode")
    assert jpeg_stream.read_raw_bytes() == photo.read_bytes()  # the JPEG as it is, not decoded and packed again
    passthrough = next(o for o in found if "/DecodeParms" in o)
    assert int(passthrough.DecodeParms[0].Predictor) == 15  # the PNG's own compressed rows
    assert any("/SMask" in o for o in found)  # the alpha channel kept as a soft mask


def test_svg_art_stays_vector_in_the_pdf(tmp_path: Path) -> None:
    import pikepdf

    art = pictures.svg(tmp_path / "art.svg")
    doc, target = _pdf(tmp_path, (ImageUse(str(art), 10, 10, 160, 80),))
    images_in = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert images_in == []
    forms = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"
             and [float(v) for v in o.BBox] == [0, 0, 150, 75]]
    assert len(forms) == 1  # the SVG (200 x 100 px is 150 x 75 pt), drawn once
    content = forms[0].read_bytes()
    assert b" c\n" in content or b" c " in content  # curves: the circle is a path, not pixels
    assert "/ExtGState" in forms[0].Resources  # its opacity survives
    assert b"Helvetica" not in target.read_bytes()  # no font the PDF does not carry


def test_pdfs_with_pictures_are_byte_identical(tmp_path: Path) -> None:
    items = (ImageUse(str(pictures.png(tmp_path / "a.png", alpha=True)), 0, 0, 50, 50),
             ImageUse(str(pictures.svg(tmp_path / "b.svg")), 0, 60, 50, 25))
    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    _doc1, first = _pdf(tmp_path / "1", items)
    _doc2, second = _pdf(tmp_path / "2", items)
    assert first.read_bytes() == second.read_bytes()


def test_the_svg_output_holds_each_picture_once_and_clips_a_cover(tmp_path: Path) -> None:
    from generator.backends.svg import drawing_svg

    art = pictures.svg(tmp_path / "art.svg")
    photo = pictures.jpeg(tmp_path / "p.jpg")
    items = (ImageUse(str(art), 0, 0, 60, 30), ImageUse(str(art), 0, 40, 30, 15),
             ImageUse(str(photo), 0, 60, 90, 60, (0, 60, 60, 60)))
    text = drawing_svg(Drawing(180, 252, items), "t")
    root = ET.fromstring(text)
    symbols = root.findall(f".//{SVG_NS}symbol")
    hrefs = [i.get("{http://www.w3.org/1999/xlink}href", "") for i in root.iter(f"{SVG_NS}image")]
    # the SVG art drawn as vectors in its symbol (a nested <svg>), the photo as a picture
    assert len(symbols) == 2 and len(hrefs) == 1
    assert [child.tag for child in symbols[0]] == [f"{SVG_NS}svg"] and hrefs[0].startswith("data:image/jpeg;base64,")
    uses = [u for u in root.iter(f"{SVG_NS}use")]
    assert len(uses) == 3
    clip = root.find(f".//{SVG_NS}clipPath/{SVG_NS}rect")
    assert clip is not None and (clip.get("width"), clip.get("height")) == ("60", "60")
    assert "file:" not in text and str(tmp_path) not in text  # nothing points back at this machine


# --- image boxes --------------------------------------------------------------------------------------------------

ART_LAYOUT = """\
background: "#ffffff"
boxes:
  art: {kind: image, x: 10mm, y: 10mm, width: 40mm, height: 20mm, src: "{{ Art }}", fit: FIT, anchor: ANCHOR}
"""


def _drawn(tmp_path: Path, fit: str, anchor: str, art: Path) -> ImageUse:
    from generator.build.decks import deck_layouts, deck_view, face_drawing
    from generator.content import all_decks, load_content

    deck = make_deck(tmp_path / "d", [{"name": "A", "Art": art.name}],
                     layout=ART_LAYOUT.replace("FIT", fit).replace("ANCHOR", anchor))
    [found] = all_decks(load_content(deck))
    face, _back = deck_layouts(found, "d/deck.yaml")
    [item] = face_drawing(face, found, found.cards[0], deck_view(found), 0.0).items
    assert isinstance(item, ImageUse)
    return item


@pytest.mark.parametrize(("fit", "anchor", "box"), [
    # a square picture in a 40 x 20 mm box (in points: x 28.346, y 28.346, w 113.386, h 56.693)
    ("contain", "center", (56.693, 28.346, 56.693, 56.693, None)),
    ("contain", "left", (28.346, 28.346, 56.693, 56.693, None)),
    ("contain", "bottom-right", (85.039, 28.346, 56.693, 56.693, None)),
    ("cover", "center", (28.346, 0.0, 113.386, 113.386, (28.346, 28.346, 113.386, 56.693))),
    ("cover", "top", (28.346, 28.346, 113.386, 113.386, (28.346, 28.346, 113.386, 56.693))),
    ("stretch", "center", (28.346, 28.346, 113.386, 56.693, None)),
])
def test_fit_and_anchor_place_the_picture(tmp_path: Path, fit: str, anchor: str,
                                          box: tuple[float, float, float, float, Any]) -> None:
    item = _drawn(tmp_path, fit, anchor, pictures.png(tmp_path / "d" / "sq.png", (100, 100)))
    assert (item.x, item.y, item.w, item.h) == pytest.approx(box[:4], abs=0.002)
    assert (item.clip is None) == (box[4] is None)
    if item.clip is not None:
        assert item.clip == pytest.approx(box[4], abs=0.002)


def test_a_missing_picture_names_the_row_the_column_and_the_file(tmp_path: Path) -> None:
    pictures.png(tmp_path / "d" / "ok.png")
    deck = make_deck(tmp_path / "d", [{"name": "Good", "Art": "ok.png"}, {"name": "Lost", "Art": "art/lost.png"}],
                     layout=ART_LAYOUT.replace("FIT", "cover").replace("ANCHOR", "center"))
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    message = result.stderr
    assert "card 'Lost' (" in message and "cards.csv:3)" in message  # the row
    assert "column 'Art' gives 'art/lost.png'" in message and "art/lost.png" in message and "no such file" in message
    assert "layout.yaml:3: boxes.art.src" in message


def test_a_picture_outside_the_content_folder_is_refused(tmp_path: Path) -> None:
    pictures.png(tmp_path / "secret.png")
    deck = make_deck(tmp_path / "d", [{"name": "Peek", "Art": "../secret.png"}],
                     layout=ART_LAYOUT.replace("FIT", "cover").replace("ANCHOR", "center"))
    result = run("build", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "'../secret.png' is outside the content folder" in result.stderr
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]


def test_a_decompression_bomb_in_a_deck_names_the_card(tmp_path: Path) -> None:
    pictures.bomb(tmp_path / "d" / "huge.png")
    deck = make_deck(tmp_path / "d", [{"name": "Boom", "Art": "huge.png"}],
                     layout=ART_LAYOUT.replace("FIT", "contain").replace("ANCHOR", "center"))
    result = run("content", "check", str(deck))
    assert result.exit_code == 1
    assert "card 'Boom'" in result.stderr and "cards.csv:2" in result.stderr
    assert "decompression bomb" in result.stderr


def test_a_fixed_picture_is_found_beside_its_layout_when_the_layout_loads(tmp_path: Path) -> None:
    shared = tmp_path / "content" / "shared"
    pictures.svg(shared / "frame.svg")
    (shared / "frame.yaml").write_text('background: "#ffffff"\nboxes:\n  frame: {kind: image, x: 0, y: 0, width: 100%, '
                                       'height: 100%, src: frame.svg, fit: stretch, bleed: true}\n', encoding="utf-8")
    deck = make_deck(tmp_path / "content" / "d", [{"name": "A"}], layout="../shared/frame.yaml")
    out = tmp_path / "out"
    result = run("build", "--content", str(tmp_path / "content"), "--out", str(out), "--bleed")
    assert result.exit_code == 0, result.stderr
    svg_text = (out / "decks" / "test-deck" / "svg" / "001-a.svg").read_text(encoding="utf-8")
    assert svg_text.count('<symbol id="picture-') == 1
    (shared / "frame.yaml").write_text((shared / "frame.yaml").read_text().replace("frame.svg", "gone.svg"),
                                       encoding="utf-8")
    from generator.layout.load import clear_cache

    clear_cache()
    result = run("content", "check", str(tmp_path / "content"))
    assert result.exit_code == 1
    assert re.search(r"shared/frame.yaml:3: boxes.frame.src: the picture 'gone.svg': there is no such file",
                     result.stderr), result.stderr
    assert deck.is_dir()


def test_start_up_stays_lean_for_a_deck_without_pictures(tmp_path: Path) -> None:
    """A plain build of the benchmark deck (PDF and SVGs) imports none of what pictures, fonts of one's own,
    spreadsheets, hyphenation (pyphen), outlines, recolouring and --watch need (reportlab itself imports Pillow, so
    Pillow is judged by donjon's own picture module), nor fontTools: the SVGs' glyph outlines of common characters
    are kept in templates/fonts/outlines/. Nor dataclasses: the classes a build defines at start-up are named
    tuples and plain classes, as a dataclass compiles its generated `__init__` when it is defined. Nor logging:
    only pypdf's notes, when a PDF is read, go through it."""
    from tests.conftest import modules_a_build_loads

    assert modules_a_build_loads(tmp_path / "o", (
        "generator.render.images", "fontTools", "openpyxl", "svglib", "lxml", "pyphen", "generator.render.recolour",
        "generator.render.shapes", "watchfiles", "generator.build.watch", "dataclasses", "logging")) == []
    assert (tmp_path / "o" / "decks" / "deck100.pdf").is_file()


def test_a_pdf_rebuild_imports_nothing_for_its_bookkeeping(tmp_path: Path) -> None:
    """Replacing a deck's PDF needs neither json (the journal and owner files are plain bytes) nor ctypes (an old
    file is kept by a hard link; only folders are exchanged with renameat2)."""
    import subprocess
    import sys

    from tests.conftest import REPO

    out = tmp_path / "o"
    script = ("import sys\nfrom generator.cli import app\n"
              "for _ in range(2):\n"
              "    try:\n        app(['build', '--content', sys.argv[1], '--out', sys.argv[2], '--format', 'pdf'])\n"
              "    except SystemExit as done:\n        assert not done.code, done.code\n"
              "print('LOADED', sorted(m for m in ('json', 'ctypes') if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", script, str(REPO / "benchmarks" / "deck100"), str(out)],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert "LOADED []" in result.stdout, result.stdout + result.stderr
    assert (out / "decks" / "deck100.pdf").is_file() and not list(out.glob(".*"))


def test_limits_are_those_the_module_documents() -> None:
    assert images.MAX_PIXELS == 40_000_000 and images.MAX_BYTES == 64 * 1024 * 1024


def test_a_picture_on_many_cards_is_opened_by_pillow_once_a_file(tmp_path: Path, monkeypatch: Any) -> None:
    """The PDF and every card's SVG read the picture's bytes again to embed them, but bytes already checked (the
    same digest) are not opened and checked by Pillow again: a hundred cards' art cost a hundred checks."""
    from generator.backends.svg import drawing_svg

    flat, photo = pictures.png(tmp_path / "flat.png"), pictures.jpeg(tmp_path / "photo.jpg")
    opened: list[str] = []
    real = images._raster_size

    def counted(data: bytes, kind: images.Kind) -> tuple[int, int]:
        opened.append(kind)
        return real(data, kind)

    monkeypatch.setattr(images, "_raster_size", counted)
    monkeypatch.setattr(images, "_whole", {})
    items = (ImageUse(str(flat), 10, 10, 100, 30), ImageUse(str(photo), 10, 50, 100, 30))
    _doc, target = _pdf(tmp_path, items, copies=3)
    svgs = [drawing_svg(Drawing(180, 252, items), f"card {n}") for n in range(3)]
    assert sorted(opened) == ["jpeg", "png"]
    assert target.stat().st_size > 0 and all(svg.count("data:image/") == 2 for svg in svgs)
    twin = tmp_path / "twin.png"
    twin.write_bytes(flat.read_bytes()[:-20])  # other bytes (a damaged copy): checked, and refused, as ever
    with pytest.raises(ImageProblem, match="damaged PNG"):
        images.image_data(twin)


def test_a_picture_that_breaks_after_its_check_is_a_content_error(tmp_path: Path) -> None:
    from generator.backends.pdf import write_pdf
    from generator.errors import ContentError

    art = pictures.png(tmp_path / "a.png")
    card = Drawing(180, 252, (ImageUse(str(art), 0, 0, 50, 50),))
    art.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)  # saved again, broken, between drawing and writing
    with pytest.raises(ContentError, match=r"a.png: cannot be drawn into the PDF: it is a damaged PNG file"):
        write_pdf([Page(200, 300, (Placed(card, 0, 0),))], tmp_path / "out.pdf", title="t")


def _turned_photo(folder: Path, orientation: int) -> tuple[Path, Any]:
    """A JPEG saved as a camera's sensor read it, its EXIF Orientation `orientation` (3 upside down, 6 and 8 a
    quarter turn), a shape that shows which way is up; and the picture a photo viewer (and a browser) shows."""
    from PIL import Image, ImageDraw, ImageOps

    stored = Image.new("RGB", (160, 120), (240, 230, 200))
    ImageDraw.Draw(stored).rectangle((0, 0, 79, 119), fill=(30, 90, 160))
    ImageDraw.Draw(stored).polygon([(150, 60), (100, 20), (100, 100)], fill=(200, 30, 30))
    exif = Image.Exif()
    exif[0x0112] = orientation
    photo = folder / "photo.jpg"
    stored.save(photo, quality=95, exif=exif.tobytes())
    with Image.open(photo) as opened:
        return photo, ImageOps.exif_transpose(opened).convert("RGB")


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_a_photo_a_camera_saved_turned_prints_as_photo_viewers_show_it(tmp_path: Path, orientation: int) -> None:
    """A phone or camera saves a photo as its sensor read it and says in its EXIF how to turn it (Orientation:
    3 upside down, 6 and 8 a quarter turn); every photo viewer shows it turned. The card must too, in the PDF
    and in the SVG (a card once showed the photo sideways, and laid it out at the stored proportions)."""
    from PIL import ImageChops

    from test_svg_art import PDFTOPPM, RSVG, _render_pdf, _render_svg

    if RSVG is None or PDFTOPPM is None:
        pytest.skip("needs rsvg-convert and pdftoppm (librsvg2-bin, poppler-utils)")
    photo, seen = _turned_photo(tmp_path, orientation)
    info = image_info(photo)
    assert (info.width, info.height) == seen.size
    for render in (_render_pdf(photo, tmp_path / "photo.pdf", tmp_path / "pdf.png"),
                   _render_svg(photo, tmp_path, tmp_path / "svg.png", (seen.width * 2, seen.height * 2))):
        shown = render.resize(seen.size)
        worst = ImageChops.difference(shown, seen).convert("L").histogram()
        assert sum(worst[60:]) < 0.02 * seen.width * seen.height, f"orientation {orientation}: see {tmp_path}"


@pytest.mark.parametrize(("transparent", "in_art"), [(None, False), (20000, False), (20000, True)])
def test_a_16_bit_grey_png_prints_its_greys(tmp_path: Path, transparent: int | None, in_art: bool) -> None:
    """A grey PNG exported at 16 bits per channel (Photoshop, Krita, GIMP) printed white in the PDF wherever it
    was lighter than 1/256 of white (Pillow clips its 16-bit greys to 8 bits), and its transparent grey opaque,
    while the SVG output showed the greys: both now show them, and the transparent band the paper; so does such a
    PNG embedded in SVG art (a `data:` picture)."""
    from PIL import Image

    from tests.art_samples import data_uri
    from test_svg_art import PDFTOPPM, RSVG, _render_pdf, _render_svg

    if RSVG is None or PDFTOPPM is None:
        pytest.skip("needs rsvg-convert and pdftoppm (librsvg2-bin, poppler-utils)")
    greys = (0, 20000, 40000, 65535)  # four bands across, in 16 bits
    row = b"".join(grey.to_bytes(2, "little") * 16 for grey in greys)
    picture = Image.frombytes("I;16", (64, 16), row * 16)
    art = tmp_path / "grey16.png"
    if transparent is None:
        picture.save(art)
    else:
        picture.save(art, transparency=transparent)
    if in_art:
        uri = data_uri(art.read_bytes())
        art = tmp_path / "grey16.svg"
        art.write_text("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='64' "
                       f"height='16'><image width='64' height='16' xlink:href='{uri}'/></svg>", encoding="utf-8")
    expected = [255 if grey == transparent else round(grey / 257) for grey in greys]
    pdf_render = _render_pdf(art, tmp_path / "grey16.pdf", tmp_path / "pdf.png")
    svg_render = _render_svg(art, tmp_path, tmp_path / "svg.png", pdf_render.size)
    for what, render in (("PDF", pdf_render), ("SVG", svg_render)):
        grey = render.convert("L")
        shown: list[int] = []
        for band in range(len(greys)):
            value = grey.getpixel((render.width * (2 * band + 1) // 8, render.height // 2))
            assert isinstance(value, int)
            shown.append(value)
        assert all(abs(a - b) <= 2 for a, b in zip(shown, expected, strict=True)), (what, shown, expected)


def test_the_doctype_illustrator_writes_is_read(tmp_path: Path) -> None:
    """Illustrator's SVG export opens with a DOCTYPE naming the SVG 1.1 DTD, which declares nothing (the DTD is
    never fetched): such art is read and drawn."""
    from generator.backends.pdf import draw_picture

    art = pictures.svg(tmp_path / "plain.svg", _ILLUSTRATOR_DOCTYPE + '>\n<svg version="1.1" '
                       'xmlns="http://www.w3.org/2000/svg" x="0px" y="0px" width="100px" height="50px" '
                       'viewBox="0 0 100 50"><rect x="10" y="10" fill="#2D27C1" width="80" height="30"/></svg>\n')
    assert (image_info(art).width, image_info(art).height) == (75.0, 37.5)
    draw_picture(art)


_ILLUSTRATOR_DOCTYPE = ('<?xml version="1.0" encoding="utf-8"?>\n<!-- Generator: Adobe Illustrator 13.0.0, SVG Export '
                        'Plug-In . SVG Version: 6.00 Build 14948)  -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
                        '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"')
#: Art as Illustrator CS saves it with its editing kept: the namespaces declared as entities and written as
#: references (`xmlns="&ns_svg;"`), Save for Web's metadata, a <switch> whose first choice is Illustrator's own data
#: (a <foreignObject> requiring Illustrator's extension, which no viewer has) and whose second is the drawing, and
#: that data itself (<i:pgf>, base64 in a CDATA section, where `&ns_ai;` is no reference). Line 26 holds the circle.
ILLUSTRATOR_CS = _ILLUSTRATOR_DOCTYPE + """ [
\t<!ENTITY ns_extend "http://ns.adobe.com/Extensibility/1.0/">
\t<!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">
\t<!ENTITY ns_graphs "http://ns.adobe.com/Graphs/1.0/">
\t<!ENTITY ns_vars "http://ns.adobe.com/Variables/1.0/">
\t<!ENTITY ns_sfw "http://ns.adobe.com/SaveForWeb/1.0/">
\t<!-- a comment among the declarations -->
\t<!ENTITY ns_svg "http://www.w3.org/2000/svg">
\t<!ENTITY ns_xlink 'http://www.w3.org/1999/xlink'>
]>
<svg  version="1.1" id="Layer_1" xmlns:x="&ns_extend;" xmlns:i="&ns_ai;" xmlns:graph="&ns_graphs;"
\t xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" x="0px" y="0px" width="100px" height="100px"
\t viewBox="0 0 100 100" enable-background="new 0 0 100 100" xml:space="preserve">
<metadata>
\t<sfw  xmlns="&ns_sfw;"><slices></slices>
\t\t<sliceSourceBounds  height="100" width="100" y="0" x="0" bottomLeftOrigin="true"></sliceSourceBounds></sfw>
</metadata>
<switch>
\t<foreignObject requiredExtensions="&ns_ai;" x="0" y="0" width="1" height="1">
\t\t<i:pgfRef  xlink:href="#adobe_illustrator_pgf"></i:pgfRef>
\t</foreignObject>
\t<g i:extraneous="self">
\t\t<rect x="0" y="0" fill="#FFFFFF" width="100" height="100"/>
\t\t<circle fill="#C1272D" cx="30" cy="40" r="20"/>
\t\t<polygon fill="#2040C0" points="60,20 90,80 50,85"/>
\t</g>
</switch>
<i:pgf  id="adobe_illustrator_pgf">
\t<![CDATA[
\teJzs3Xt8FNXdx/HPmb0l2SSbkAsJuRFIuIRLuCNyEREEFVFRUVFRUVFRUVFRUVFRUVFR &ns_ai;
\t]]>
</i:pgf>
</svg>
"""


def test_art_illustrator_cs_saved_with_its_namespaces_as_entities_is_read_and_drawn(tmp_path: Path) -> None:
    """Illustrator CS declares its namespaces as entities in the DOCTYPE and refers to them (`xmlns="&ns_svg;"`):
    such art was refused. Its flat entities are read (their values put where they are referred to, in the PDF and
    in what the SVG output carries, which then declares nothing), its editing data is passed over as viewers pass
    it, and it draws the same in both outputs; what is said about the art still names the file's own lines."""
    from test_svg_art import PDFTOPPM, RSVG, _render_pdf, _render_svg

    art = pictures.svg(tmp_path / "cs.svg", ILLUSTRATOR_CS)
    assert (image_info(art).width, image_info(art).height, image_info(art).warnings) == (75.0, 75.0, ())
    _info, carried = images.image_data(art)
    assert b"<!ENTITY" not in carried
    root = ET.fromstring(carried)  # the standard parser, which would refuse an undefined entity
    assert root.tag == f"{SVG_NS}svg" and root.find(f"{SVG_NS}switch") is not None
    if RSVG is not None and PDFTOPPM is not None:
        red, blue = (193, 39, 45), (32, 64, 192)
        pdf_render = _render_pdf(art, tmp_path / "cs.pdf", tmp_path / "pdf.png")
        svg_render = _render_svg(art, tmp_path, tmp_path / "svg.png", pdf_render.size)
        for what, render in (("PDF", pdf_render), ("SVG", svg_render)):
            size = render.width / 100
            assert (render.getpixel((round(30 * size), round(40 * size))),
                    render.getpixel((round(65 * size), round(60 * size)))) == (red, blue), what
    faulty = pictures.svg(tmp_path / "faulty.svg", ILLUSTRATOR_CS.replace('cx="30"', 'filter="url(#blur)" cx="30"'))
    with pytest.raises(ImageProblem, match=r"^line 26: it uses a filter"):
        image_info(faulty)


@pytest.mark.parametrize(("declared", "line", "reason"), [
    # what would read another file or the web (XXE), or expand without bound (a billion laughs)
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY secret SYSTEM "file:///etc/passwd">', 4,
     r"declares '<!ENTITY secret SYSTEM \"file:///etc/passwd\">', which donjon does not read"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY % remote SYSTEM "http://example.org/x.dtd">', 4,
     "declares '<!ENTITY % remote"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY a "lol">\n<!ENTITY b "&a;&a;&a;&a;&a;">', 5,
     "the entity 'b' with markup, references or line breaks"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY g "<g/>">', 4, "the entity 'g' with markup"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ELEMENT svg ANY>', 4, "declares '<!ELEMENT svg ANY>'"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY ns_svg "http://example.org/">', 4,
     "the entity 'ns_svg' twice"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY lt "&#60;">', 4, "XML's own entity 'lt' again"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n' + "".join(f'<!ENTITY e{i} "x">' for i in range(64)), 4,
     "more than 64 entities"),
    ('<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n<!ENTITY long "' + "x" * 1001 + '">', 4,
     "a value of 1,001 bytes, more than the 1,000"),
], ids=["external", "parameter", "nested", "markup", "element", "twice", "predefined", "too-many", "too-long"])
def test_declarations_other_than_flat_entities_of_plain_text_are_refused_with_their_line(
        tmp_path: Path, declared: str, line: int, reason: str) -> None:
    art = pictures.svg(tmp_path / "x.svg", '<?xml version="1.0"?>\n<!DOCTYPE svg [\n' + declared + '\n]>\n<svg '
                       'xmlns="&ns_svg;" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>')
    with pytest.raises(ImageProblem, match=rf"^line {line}: its DOCTYPE {'.*' if 'declares' not in reason else ''}"
                                           rf"{reason}.*Plain SVG") as refused:
        image_info(art)
    assert getattr(refused.value, "line", None) == line


def test_references_to_flat_entities_are_bounded_in_all(tmp_path: Path) -> None:
    """Flat entities expand once each, but a file of references to long values would still grow a hundredfold:
    what they add is bounded (MAX_ENTITY_TEXT) and the file refused beyond."""
    value = "x" * images.MAX_ENTITY_VALUE
    count = images.MAX_ENTITY_TEXT // images.MAX_ENTITY_VALUE + 1
    art = pictures.svg(tmp_path / "x.svg", f'<!DOCTYPE svg [<!ENTITY v "{value}">]><svg xmlns="http://www.w3.org/'
                       f'2000/svg" viewBox="0 0 10 10"><desc>{"&v;" * count}</desc></svg>')
    with pytest.raises(ImageProblem, match="references to the entities its DOCTYPE declares add more than the "
                                           "1,000,000 bytes"):
        image_info(art)
    fits = pictures.svg(tmp_path / "y.svg", art.read_text().replace("&v;" * count, "&v;" * (count - 1)))
    assert image_info(fits).width == 7.5


def test_text_in_art_is_named_so_it_can_be_found(tmp_path: Path) -> None:
    """A drawing of hundreds of objects with one forgotten text object: the message quotes the text and its id
    (Inkscape's Objects panel finds it by either), not only that there is text somewhere."""
    art = pictures.svg(tmp_path / "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><g>'
                                           '<rect width="9" height="9"/><text id="text1234" x="1" y="5">'
                                           '<tspan id="tspan99">Draft  –  do not print</tspan></text></g></svg>')
    with pytest.raises(ImageProblem, match=r"holds text, .*Object to Path.*'Draft – do not print' \(id text1234\)"):
        image_info(art)


def test_a_photo_whose_exif_is_damaged_is_read_without_a_word_from_pillow(tmp_path: Path) -> None:
    """A JPEG whose EXIF is damaged (its orientation's count past the end of the file) is read as stored, and
    Pillow's own warnings about it ("Corrupt EXIF data") never reach the designer's terminal."""
    import io
    import warnings

    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 40, 40)).save(buffer, "JPEG", exif=exif.tobytes())
    data = buffer.getvalue()
    tag = data.index(b"\x01\x12\x00\x03\x00\x00\x00\x01")  # Orientation, a SHORT, one of them (Pillow: big-endian)
    damaged = data[:tag + 4] + b"\x00\x00\xff\xff" + data[tag + 8:]
    (tmp_path / "photo.jpg").write_bytes(damaged)
    from generator.backends.pdf import draw_picture
    from generator.render.images import image_data
    from generator.render.recolour import recolour

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        info = image_info(tmp_path / "photo.jpg")
        draw_picture(tmp_path / "photo.jpg")  # embedded into a PDF as the build embeds it
        recolour(*image_data(tmp_path / "photo.jpg"), "#204080")
    assert (info.width, info.height) == (40, 30)
    assert not caught, [str(w.message) for w in caught]


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_a_photo_embedded_in_svg_art_shows_upright_in_every_output(tmp_path: Path, orientation: int) -> None:
    """A camera photo pasted into SVG art (a `data:` JPEG whose EXIF says to turn it) is shown turned by browsers
    and not by librsvg nor svglib, so the same art showed three ways. donjon turns it upright once, as it reads
    the art: the PDF (and the PNG export, which renders the PDF) and the SVG output, in librsvg, show it as a
    photo viewer does, the JPEG the SVG output carries says no more to turn it (a browser would turn it again),
    and reading the art twice gives the same bytes."""
    import base64

    from PIL import ImageChops

    from tests.art_samples import data_uri
    from test_svg_art import PDFTOPPM, RSVG, _render_pdf, _render_svg

    if RSVG is None or PDFTOPPM is None:
        pytest.skip("needs rsvg-convert and pdftoppm (librsvg2-bin, poppler-utils)")
    photo, seen = _turned_photo(tmp_path, orientation)
    width, height = seen.size
    # the art is the photo's upright size, the picture filling it: turned or not, it is plain to see
    art = tmp_path / "art" / "with-photo.svg"
    art.parent.mkdir()
    art.write_text(f"<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
                   f"width='{width}' height='{height}' viewBox='0 0 {width} {height}'><image width='{width}' "
                   f"height='{height}' xlink:href='{data_uri(photo.read_bytes(), 'jpeg')}'/></svg>", encoding="utf-8")
    pdf_render = _render_pdf(art, tmp_path / "with-photo.pdf", tmp_path / "pdf.png")
    svg_render = _render_svg(art, tmp_path, tmp_path / "svg.png", pdf_render.size)
    for what, render in (("PDF", pdf_render), ("SVG", svg_render)):
        shown = render.resize(seen.size)
        worst = ImageChops.difference(shown, seen).convert("L").histogram()
        assert sum(worst[60:]) < 0.02 * width * height, f"{what}, orientation {orientation}: see {tmp_path}"
    output = (tmp_path / "with-photo.svg").read_text(encoding="utf-8")  # the SVG output _render_svg wrote
    # the art drawn in the output as vectors, the photo it embeds as it is
    jpegs = [base64.b64decode(found) for found in re.findall(r"data:image/jpeg;base64,([A-Za-z0-9+/=\s]+)", output)]
    assert len(jpegs) == 1
    with images.open_quietly(jpegs[0]) as carried:
        assert carried.getexif().get(0x0112, 1) == 1 and carried.size == seen.size
    _info, first = images.image_data(art)
    images.clear_cache()
    _info, again = images.image_data(art)
    assert first == again


def test_art_whose_photo_is_turned_or_viewport_cut_still_names_its_own_lines(tmp_path: Path) -> None:
    """Turning an embedded photo upright and cutting a nested drawing to its viewport change the art donjon draws,
    not the lines its messages name: a filter on line 8 is refused as on line 8 (the photo's base64 wrapped over
    three lines, path data over two)."""
    import base64
    import io

    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 40, 40)).save(buffer, "JPEG", exif=exif.tobytes())
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    third = len(encoded) // 3
    wrapped = f"{encoded[:third]}\n{encoded[third:2 * third]}\n{encoded[2 * third:]}"
    art = tmp_path / "art.svg"
    art.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'>\n"          # 1
                   f"<image width='40' height='40' href='data:image/jpeg;base64,{wrapped}'/>\n"  # 2-4
                   "<path d='M0 0\nL 10 10 Z'/>\n"                                                  # 5-6
                   "<svg x='5' y='5' width='20' height='20'><rect width='30' height='30'/></svg>\n"  # 7
                   "<rect filter='blur(2)' width='3' height='3'/>\n"                               # 8
                   "</svg>\n", encoding="utf-8")
    with pytest.raises(ImageProblem, match=r"^line 8: it uses a filter"):
        image_info(art)
