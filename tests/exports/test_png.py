"""`donjon export png`: sizes per preset and card size, pixels where the card is, determinism, safety, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.catalog.common import CardSize
from generator.export.geometry import PRESETS, card_canvas
from generator.prepress.services import eighth_inch
from generator.export.raster import Raster, png_bytes
from tests.exports.helpers import COLOURS, coloured_deck, make_deck, manifest, open_png, run

MM = 300 / 25.4  # pixels per millimetre at 300 dpi
RED = (0xE0, 0x10, 0x10)

# --- sizes, without rendering anything --------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "size", "expected"), [
    ("tgc", (63, 88), (825, 1125)),          # the print services' own figures for a poker card
    ("mpc", (63, 88), (822, 1122)),
    ("tgc", (63.5, 88.9), (825, 1125)),      # 2.5 x 3.5 in exactly
    ("tgc", (57.15, 88.9), (750, 1125)),     # bridge: 2.25 x 3.5 in + 1/8 in each side
    ("mpc", (57.15, 88.9), (747, 1122)),
    ("tgc", (70, 120), (900, 1500)),         # tarot: 2.75 x 4.75 in + bleed
    ("tgc", (70, 70), (900, 900)),
    ("tgc", (22, 22), (338, 338)),           # 0.875 in + 1/4 in = 337.5 px, rounded up
    ("plain", (63, 88), (744, 1039)),        # the trim at 300 dpi
])
def test_canvas_sizes(preset: str, size: tuple[float, float], expected: tuple[int, int]) -> None:
    canvas = card_canvas(CardSize("custom", *size), PRESETS[preset])
    assert (canvas.px_w, canvas.px_h) == expected


@pytest.mark.parametrize("preset", ["tgc", "mpc"])
@pytest.mark.parametrize("size", [(63, 88), (57.15, 88.9), (70, 120), (44, 68), (70, 70), (22, 22), (120, 40)])
@pytest.mark.parametrize("dpi", [None, 72, 600])
def test_card_is_centred_at_its_own_size_and_its_bleed_covers_the_image(preset: str, size: tuple[float, float],
                                                                        dpi: int | None) -> None:
    card = CardSize("custom", *size)
    canvas = card_canvas(card, PRESETS[preset], dpi)
    scale = canvas.dpi / 72
    assert canvas.page_w * scale == pytest.approx(canvas.px_w) and canvas.page_h * scale == pytest.approx(canvas.px_h)
    assert canvas.x == pytest.approx((canvas.page_w - card.width_pt) / 2)
    assert canvas.y == pytest.approx((canvas.page_h - card.height_pt) / 2)
    assert canvas.x > 0 and canvas.y > 0  # there is bleed on every side
    assert canvas.bleed >= max(canvas.x, canvas.y)  # and the drawing reaches every edge of the image
    # the service cuts within 1/16 in of the card's own edge
    assert abs(eighth_inch(size[0]) - size[0] / 25.4) <= 1 / 16


def test_service_trim_is_the_nearest_eighth_of_an_inch() -> None:
    assert eighth_inch(63) == 2.5 and eighth_inch(88) == 3.5 and eighth_inch(1) == 0.125


def test_png_encoder_gives_a_decodable_rgb_png_with_its_dpi(tmp_path: Path) -> None:
    pixels = bytes(range(256)) * 9  # 16 x 48 px of varied colours
    raster = Raster(16, 48, pixels)
    path = tmp_path / "x.png"
    path.write_bytes(png_bytes(raster, 300))
    image = open_png(path)
    assert image.mode == "RGB" and image.size == (16, 48)
    assert image.tobytes() == pixels
    assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert png_bytes(raster, 300) == png_bytes(raster, 300)
    with pytest.raises(ValueError):
        png_bytes(Raster(16, 47, pixels))
    # the same pixels as PNG scanlines (a 0 byte before each row, as pdfium renders them) give the same file
    rows = b"".join(b"\x00" + pixels[y * 48:(y + 1) * 48] for y in range(48))
    assert png_bytes(Raster(16, 48, rows, scanlines=True), 300) == png_bytes(raster, 300)
    assert Raster(16, 48, rows, scanlines=True).image().tobytes() == pixels


# --- exports of decks of one's own -------------------------------------------------------------------------------


def export(tmp_path: Path, deck: Path, *args: str, out: str = "out") -> Path:
    result = run("export", "png", "--content", str(deck), "--out", str(tmp_path / out), *args)
    assert result.exit_code == 0, result.stderr
    return tmp_path / out / "png"


#: A white card with a red rectangle exactly on its trim box (no bleed): on an image, the red is the card.
TRIM_BOX = """\
background: "#ffffff"
boxes:
  trim: {kind: rect, x: 0, y: 0, width: 100%, height: 100%, fill: "#e01010"}
"""


def red_box(image: object) -> tuple[int, int, int, int]:
    """The bounding box of the pure red pixels."""
    from PIL import Image, ImageChops

    assert isinstance(image, Image.Image)
    mask = ImageChops.difference(image, Image.new("RGB", image.size, RED)).convert("L").point(
        lambda v: 255 if v < 8 else 0)
    box = mask.getbbox()
    assert box is not None
    return box


@pytest.mark.parametrize(("preset", "size", "image_size", "dpi"), [
    ("tgc", None, (825, 1125), 300),
    ("mpc", None, (822, 1122), 300),
    ("plain", None, (744, 1039), 300),
    ("tgc", "bridge", (750, 1125), 300),
    ("tgc", "square", (900, 900), 300),
    ("plain", "tarot", (413, 709), 150),
])
def test_each_preset_gives_its_size_with_the_card_unscaled_in_the_middle(
        tmp_path: Path, preset: str, size: str | None, image_size: tuple[int, int], dpi: int) -> None:
    deck = coloured_deck(tmp_path / "deck", 2, size=size, layout=TRIM_BOX)
    args = ["--preset", preset] + (["--dpi", str(dpi)] if dpi != 300 else [])
    folder = export(tmp_path, deck, *args) / "decks" / "test-deck"
    card = CardSize("x", *{None: (63, 88), "bridge": (57.15, 88.9), "square": (70, 70), "tarot": (70, 120)}[size])
    per_mm = dpi / 25.4
    for name in ("001-card-1.png", "002-card-2.png", "back.png"):
        image = open_png(folder / name)
        assert image.size == image_size and image.mode == "RGB", name
        assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.05)  # pHYs holds whole pixels per metre
    left, top, right, bottom = red_box(open_png(folder / "001-card-1.png"))
    assert abs((right - left) - card.width_mm * per_mm) <= 1.5  # never scaled
    assert abs((bottom - top) - card.height_mm * per_mm) <= 1.5
    assert abs(left - (image_size[0] - right)) <= 1 and abs(top - (image_size[1] - bottom)) <= 1  # centred


def test_the_background_fills_the_bleed_to_every_edge(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 3)
    folder = export(tmp_path, deck, "--preset", "tgc") / "decks" / "test-deck"
    for index in range(3):
        image = open_png(folder / f"{index + 1:03d}-card-{index + 1}.png")
        colour = tuple(int(COLOURS[index][i:i + 2], 16) for i in (1, 3, 5))
        w, h = image.size
        for xy in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 0), (0, h // 2)):
            assert image.getpixel(xy) == colour, (index, xy)


def test_files_manifest_and_counts(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 5, copies=2)  # copies 2, 3, 2, 3, 2
    result = run("export", "png", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert "6 PNG files of 825x1125 px (5 faces and the back)" in result.stdout
    folder = tmp_path / "out" / "png" / "decks" / "test-deck"
    faces = [f"{i:03d}-card-{i}.png" for i in range(1, 6)]
    assert sorted(p.name for p in folder.iterdir()) == [*faces, "back.png", "manifest.csv"]
    rows = manifest(folder / "manifest.csv")
    assert [r["file"] for r in rows] == [*faces, "back.png"]
    assert [r["id"] for r in rows] == [f"{i:03d}-card-{i}" for i in range(1, 6)] + ["back"]
    assert [r["name"] for r in rows[:-1]] == [f"Card {i}" for i in range(1, 6)]
    assert sum(int(r["copies"]) for r in rows[:-1]) == 12
    assert rows[-1]["copies"] == "12"  # a back behind every card


def test_manifest_cells_a_spreadsheet_would_run_are_neutralised(tmp_path: Path) -> None:
    rows = [{"name": "=cmd|' /C calc'!A0"}, {"name": "@SUM(1+1)"}, {"name": "+HYPERLINK(\"http://x\")"},
            {"name": "-1"}, {"name": "Plain"}]
    deck = make_deck(tmp_path / "deck", rows)
    assert run("export", "png", "--content", str(deck), "--out", str(tmp_path / "out")).exit_code == 0
    names = [r["name"] for r in manifest(tmp_path / "out" / "png" / "decks" / "test-deck" / "manifest.csv")]
    assert names == ["'=cmd|' /C calc'!A0", "'@SUM(1+1)", "'+HYPERLINK(\"http://x\")", "-1", "Plain",
                     "Test deck (back)"]


def test_two_exports_give_the_same_bytes_however_the_work_is_split(tmp_path: Path) -> None:
    deck = coloured_deck(tmp_path / "deck", 20)  # 21 images: enough for two workers
    first = export(tmp_path, deck, out="a")
    second = export(tmp_path, deck, "--jobs", "1", out="b")
    third = export(tmp_path, deck, "--jobs", "2", out="c")
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert len(files) == 22
    for name in files:
        data = (first / name).read_bytes()
        assert data == (second / name).read_bytes() == (third / name).read_bytes(), name


def test_ids_are_made_safe_and_the_back_keeps_its_name(tmp_path: Path) -> None:
    rows = [{"id": "../../escape", "name": "Out"}, {"id": "CON", "name": "Reserved"}]
    deck = make_deck(tmp_path / "deck", rows, extra="id_column: id\n")
    folder = export(tmp_path, deck) / "decks" / "test-deck"
    assert sorted(p.name for p in folder.iterdir()) == ["back.png", "con-.png", "escape.png", "manifest.csv"]
    assert not (tmp_path / "escape.png").exists()
    clash = make_deck(tmp_path / "clash", [{"id": "back", "name": "Back"}], extra="id_column: id\n")
    result = run("export", "png", "--content", str(clash), "--out", str(tmp_path / "out2"))
    assert result.exit_code == 1  # a content problem, at the card's row, which `content check` reports too
    assert "clash/cards.csv:2: test-deck: card 'Back' (id 'back') would be written as back.png" in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failed_export_leaves_the_previous_one_as_it_was(tmp_path: Path, jobs: str) -> None:
    deck = coloured_deck(tmp_path / "deck", 20, layout="generic", back=None)
    folder = export(tmp_path, deck, "--jobs", jobs) / "decks" / "test-deck"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    lines = (deck / "cards.csv").read_text(encoding="utf-8").splitlines()
    lines[0] += ",text"
    lines[1:] = [line + "," for line in lines[1:]]
    lines[-1] += "Far too long. " * 400  # the last card, so that other chunks finish first
    (deck / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("export", "png", "--content", str(deck), "--out", str(tmp_path / "out"), "--jobs", jobs)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr
    assert "card 020-card-20" in result.stderr or "card 'Card 20'" in result.stderr  # by id, or by name and row
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert [p.name for p in folder.parent.iterdir()] == ["test-deck"]  # no staging folder left behind


@pytest.mark.parametrize(("args", "message"), [
    (["--dpi", "0"], "--dpi: 0 is out of range; it must be from 72 to 1200"),
    (["--dpi", "5000"], "--dpi: 5000 is out of range"),
    (["--preset", "poster"], "--preset: 'poster' is not one of tgc, mpc, dtc, plain"),
    (["--jobs", "0"], "--jobs: 0 is out of range"),
    (["nosuchgame"], "'nosuchgame' names no game or deck"),
])
def test_bad_options_exit_2_naming_the_option(tmp_path: Path, args: list[str], message: str) -> None:
    result = run("export", "png", "--out", str(tmp_path / "out"), *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / "out" / "png").exists()


def test_out_naming_a_file_exits_3(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = run("export", "png", "guildhall/vp-tokens", "--out", str(tmp_path / "file"))
    assert result.exit_code == 3 and "is a file" in result.stderr


# --- every shipped deck ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("png")
    result = run("export", "png", "--preset", "tgc", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "Exported 8 decks: 147 PNG files" in result.stdout
    # our own layouts keep their text and icons inside The Game Crafter's safe margin, after its cut's rounding to
    # an eighth of an inch (a 70 mm tile is cut 69.85 mm wide): a designer's warnings are theirs, never ours
    assert " box " not in result.stderr, result.stderr
    return out / "png"


def test_every_shipped_deck_exports_every_face_and_its_back(shipped: Path) -> None:
    listing = json.loads(run("content", "list", "--json").stdout)
    decks = {f"{game}/{d['id']}": d for game, info in listing.items() for d in info["decks"]}
    assert {str(p.relative_to(shipped)) for p in shipped.glob("*/*")} == set(decks)
    for key, info in decks.items():
        folder = shipped / key
        rows = manifest(folder / "manifest.csv")
        assert len(rows) - 1 == info["faces"], key
        assert sum(int(r["copies"]) for r in rows[:-1]) == info["cards"], key
        assert rows[-1]["file"] == "back.png" and int(rows[-1]["copies"]) == info["cards"]
        assert sorted(r["file"] for r in rows) == sorted(p.name for p in folder.glob("*.png")), key
        expected = {"vp-tokens": (338, 338), "floor-tiles": (900, 900)}.get(key.split("/")[1], (825, 1125))
        # Guédelon's floor tiles are cut with round corners (their deck's shape): transparent outside them
        mode = "RGBA" if key == "guedelon/floor-tiles" else "RGB"
        for png in folder.glob("*.png"):
            image = open_png(png)
            assert image.size == expected and image.mode == mode, png
            if mode == "RGBA":
                alpha = image.getchannel("A")
                assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((450, 450)) == 255


# --- the service's safe margin ---------------------------------------------------------------------------------

#: A layout that lowered its own safe margin to 1 mm: its title, its cost icon and (on one card only) its crest come
#: into the 1/8 in a print service keeps clear inside its cut; its rules text, and a frame drawn into the bleed, do
#: not count.
NEAR_THE_EDGE = """\
safe: 1mm
background: "#f6efdf"
styles:
  big: {font: open-sans-bold, size: 12pt, min_size: 6pt, colour: "#221b14", valign: middle, wrap: false}
boxes:
  title: {kind: text, x: 1.55mm, y: 10mm, width: 40mm, height: 8mm, style: big, text: "{{ card.name }}"}
  cost: {kind: icon, x: 30mm, y: 1.25mm, width: 5mm, height: 5mm, icon: star, colour: "#9b2226"}
  crest: {kind: image, when: "card.name == 'Edge'", x: 2.05mm, y: 100% - 12mm, width: 10mm, height: 10mm, src: art.svg}
  frame: {kind: image, x: 0mm, y: 0mm, width: 10mm, height: 10mm, src: art.svg, decoration: true, bleed: true}
  rules: {kind: text, x: 10mm, y: 40mm, width: 100% - 20mm, height: 20mm, style: big, text: "Safe text"}
"""
ART = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>'


def near_deck(folder: Path) -> Path:
    deck = make_deck(folder, [{"Name": "Edge"}, {"Name": "Middle"}], layout=NEAR_THE_EDGE, deck_id="near",
                     extra="card_size: poker\nname_column: Name\n")
    (deck / "art.svg").write_text(ART, encoding="utf-8")
    return deck


@pytest.mark.parametrize("args", [["export", "--service", "tgc", "--decks", "near"],
                                  ["export", "png", "--preset", "mpc"]])
def test_text_icons_and_pictures_in_the_services_margin_are_warned_naming_box_cards_and_distance(
        tmp_path: Path, args: list[str]) -> None:
    deck = near_deck(tmp_path / "near")
    result = run(*args, "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr  # a warning: the files are written
    warned = [line for line in result.stderr.splitlines() if line.startswith("warning: ") and " box " in line]
    by_box = {line.split(" box ")[1].split(" ")[0]: line for line in warned}
    assert sorted(by_box) == ["cost", "crest", "title"]  # not the rules inside, nor the frame in the bleed
    # a poker card (63 mm) is cut 2.5 in wide, 0.25 mm outside its own edge, 0.45 mm above and below
    assert "layout.yaml:6) comes 1.8 mm from the edge" in by_box["title"]  # 1.55 mm in + 0.25
    assert "layout.yaml:7) comes 1.7 mm from the edge" in by_box["cost"]  # 1.25 mm down + 0.45
    assert "layout.yaml:8) comes 2.3 mm from the edge" in by_box["crest"]
    assert "inside the safe margin of 3.2 mm" in by_box["title"]
    assert by_box["title"].endswith("on Edge and Middle") and by_box["crest"].endswith("on Edge")


def test_a_deck_inside_the_services_safe_margin_is_not_warned(tmp_path: Path) -> None:
    layout = NEAR_THE_EDGE.replace("safe: 1mm\n", "").replace("x: 1.55mm", "x: 4mm").replace("y: 1.25mm", "y: 4mm")
    layout = layout.replace("x: 2.05mm, y: 100% - 12mm", "x: 4mm, y: 100% - 14mm")
    deck = near_deck(tmp_path / "near")
    (deck / "layout.yaml").write_text(layout, encoding="utf-8")
    result = run("export", "--service", "tgc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert " box " not in result.stderr


#: A large emblem in the middle of the card reaching 1.5 mm from its foot (into the service's margin at that edge
#: only), and a border 1 mm in (near all four edges: going round the card).
EMBLEM = """\
safe: 1mm
background: "#ffffff"
boxes:
  emblem: {kind: circle, x: 6.5mm, y: 100% - 51.5mm, width: 50mm, height: 50mm, fill: "#9b2226"}
  border: {kind: rect, x: 1mm, y: 1mm, width: 100% - 2mm, height: 100% - 2mm, stroke: "#221b14", stroke_width: 1pt}
"""


def test_a_large_emblem_reaching_the_margin_at_one_edge_is_not_taken_for_a_frame(tmp_path: Path) -> None:
    """A shape whose box held the middle of the card was taken for a frame and not measured, so a large central
    emblem reaching into the margin at its foot passed in silence. A frame lies near all four edges (within twice
    the margin): only such a shape is left; the emblem is warned, by the layout check and by the PDF's preflight
    alike."""
    deck = make_deck(tmp_path / "emblem", [{"Name": "One"}], layout=EMBLEM, deck_id="emblem",
                     extra="card_size: poker\nname_column: Name\n")
    result = run("export", "--service", "mpc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = {line.split(" box ")[1].split(" ")[0]: line for line in result.stderr.splitlines() if " box " in line}
    assert sorted(warned) == ["emblem"], result.stderr
    assert "layout.yaml:4) comes 1.9 mm from the edge" in warned["emblem"]  # 1.5 mm + 0.45 mm of the rounding
    result = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
    safe = [f["message"] for f in json.loads(result.stdout)["findings"] if f["rule"] == "safe"]
    assert len(safe) == 1 and safe[0].startswith("1 shape drawn as paths"), result.stdout
    assert "the nearest 1.9" in safe[0]  # DriveThruCards cuts 88.9 mm: 1.5 mm + 0.45 mm


#: A round seal (SVG art) shown to cover its box: 60 mm across, 1.75 mm from the sides of a poker card, it is cropped
#: to a tall panel well inside the safe area on one card, and to a band 60 mm wide, into the margin, on the other.
CROPPED_SEAL = """\
safe: 1mm
background: "#ffffff"
boxes:
  panel: {kind: image, when: "card.name == 'Panel'", x: 21.75mm, y: 14mm, width: 20mm, height: 60mm, src: seal.svg,
          fit: cover}
  band: {kind: image, when: "card.name == 'Band'", x: 1.75mm, y: 34mm, width: 60mm, height: 20mm, src: seal.svg,
         fit: cover}
"""
SEAL = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#9b2226"/></svg>'


def test_art_cropped_inside_the_safe_area_is_not_warned_in_the_pdf_where_what_shows_of_it_is_inside(
        tmp_path: Path) -> None:
    """The PDF check measured SVG art drawn as paths by its whole box before any clip: a seal covering a panel in
    the middle of the card warned for its uncropped sides, 1.75 mm from the edge, where the services' PNG check
    (the picture within its clip) said nothing. Both now measure what is drawn; the band, cropped into the
    margin, still warns in both."""
    deck = make_deck(tmp_path / "seal", [{"Name": "Panel"}, {"Name": "Band"}], layout=CROPPED_SEAL, deck_id="seal",
                     extra="card_size: poker\nname_column: Name\n")
    (deck / "seal.svg").write_text(SEAL, encoding="utf-8")
    result = run("export", "--service", "mpc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if " box " in line]
    assert len(warned) == 1 and "box band (" in warned[0] and warned[0].endswith("on Band"), result.stderr
    result = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
    assert result.exit_code == 0, result.stderr
    safe = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "safe"]
    assert len(safe) == 1 and safe[0]["message"].startswith("1 shape drawn as paths"), result.stdout
    assert "the nearest 1.50 mm" in safe[0]["message"], safe  # 1.25 mm from the right + 0.25 mm of the rounded cut
    assert "y 34.5-54.5 mm" in safe[0]["message"], safe  # the band, not the seal's whole height


#: A round portrait (a photo) and a round seal (SVG art) in circle frames tilted 15 degrees, 30 mm across, at the
#: middle of a poker card's height: 4 mm from its sides on one card (the frames' turned boxes, 3.4 mm wider each
#: side, come into the margin; the circles do not), 2.55 mm on the other (the circles come into it).
TILTED_FRAMES = """\
safe: 1mm
background: "#ffffff"
boxes:
  portrait-in: {kind: image, when: "card.name == 'Inside'", x: 4mm, y: 29mm, width: 30mm, height: 30mm,
                src: portrait.png, fit: cover, clip: circle, rotate: 15}
  seal-in: {kind: image, when: "card.name == 'Inside'", x: 100% - 34mm, y: 29mm, width: 30mm, height: 30mm,
            src: seal.svg, fit: cover, clip: circle, rotate: -15}
  portrait: {kind: image, when: "card.name == 'Margin'", x: 2.55mm, y: 29mm, width: 30mm, height: 30mm,
             src: portrait.png, fit: cover, clip: circle, rotate: 15}
  seal: {kind: image, when: "card.name == 'Margin'", x: 100% - 32.55mm, y: 29mm, width: 30mm, height: 30mm,
         src: seal.svg, fit: cover, clip: circle, rotate: -15}
"""

def test_art_in_a_tilted_round_frame_is_measured_by_the_circle_not_its_box(tmp_path: Path) -> None:
    """A picture clipped to a circle and turned was measured by the turned box of the circle's box: a round portrait
    whose box corners came into the margin, though the circle showed nothing there, warned (the PDF's check, the
    clip's turned control points) and one whose circle came into it passed, its box past the cut taken for art
    running into the bleed (the PNG services' check). Both now measure the circle: the PNG check and the PDF's
    preflight warn of the same two boxes on the same card, and of nothing on the other."""
    from PIL import Image

    rows = [{"Name": "Inside"}, {"Name": "Margin"}]
    deck = make_deck(tmp_path / "tilted", rows, layout=TILTED_FRAMES, deck_id="tilted",
                     extra="card_size: poker\nname_column: Name\n")
    Image.new("RGB", (400, 400), (40, 90, 160)).save(deck / "portrait.png")
    (deck / "seal.svg").write_text(ART, encoding="utf-8")
    result = run("export", "--service", "mpc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = {line.split(" box ")[1].split(" ")[0]: line for line in result.stderr.splitlines() if " box " in line}
    assert sorted(warned) == ["portrait", "seal"], result.stderr
    assert all(line.endswith("on Margin") and "comes 2.8 mm from the edge" in line for line in warned.values())
    result = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    pages: dict[int, list[str]] = {}
    for finding in report["findings"]:
        if finding["rule"] == "safe":
            pages.setdefault(finding["page"], []).append(finding["message"])
    # pages: back, Inside, back, Margin (DriveThruCards' order): the Margin's face alone
    assert sorted(pages) == [4], report["findings"]
    shapes, picture = sorted(pages[4])
    assert picture.startswith("the picture ") and "portrait.png comes " in picture, picture
    assert 2.75 <= float(picture.split(" comes ")[1].split(" mm")[0]) <= 2.85  # the circle, 2.55 mm + 0.25 mm
    assert shapes.startswith("1 shape drawn as paths") and "the nearest " in shapes, shapes
    assert 2.75 <= float(shapes.split("the nearest ")[1].split(" mm")[0]) <= 2.85


#: Badges filled with a gradient (which a PDF paints with `sh` inside the shape as a clip): one 1.5 mm from the
#: card's left edge, in the margin, one well inside.
GRADIENT_BADGES = """\
safe: 1mm
background: "#ffffff"
boxes:
  edge: {kind: rect, x: 1.5mm, y: 30mm, width: 10mm, height: 10mm,
         fill: {gradient: linear, angle: 45, stops: ["#9b2226", "#2f4f8f"]}}
  middle: {kind: circle, x: 25mm, y: 50mm, width: 12mm, height: 12mm,
           fill: {gradient: radial, stops: ["#efe6d2", "#8a6414"]}}
"""


def test_a_gradient_filled_shape_in_the_margin_is_warned_in_the_pdf_as_in_the_pictures(tmp_path: Path) -> None:
    """A shape filled with a gradient is drawn in a PDF as the gradient painted (`sh`) within the shape as a clip:
    no path is painted, and check-print measured paths only, so a gradient badge 1.5 mm from the card's edge passed
    the DriveThruCards preflight while the MakePlayingCards check warned of it. The gradient is now measured by the
    outline it is clipped to: both warn of the badge in the margin, neither of the one inside."""
    deck = make_deck(tmp_path / "badges", [{"Name": "One"}], layout=GRADIENT_BADGES, deck_id="badges",
                     extra="card_size: poker\nname_column: Name\n")
    result = run("export", "--service", "mpc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if " box " in line]
    assert len(warned) == 1 and "box edge (" in warned[0], result.stderr
    result = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
    assert result.exit_code == 0, result.stderr
    safe = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "safe"]
    assert len(safe) == 1 and safe[0]["message"].startswith("1 shape drawn as paths"), safe
    assert "the nearest 1.75 mm" in safe[0]["message"] and "x 1.8-11.7 mm" in safe[0]["message"], safe


#: A designer's card of 60 x 90 mm, its picture drawn to the card's own edges and not into the bleed.
EDGE_TO_EDGE = """\
safe: 3mm
background: "#ffffff"
boxes:
  art: {kind: image, x: 0, y: 0, width: 100%, height: 100%, src: art.svg, fit: cover}
"""


@pytest.mark.parametrize("service", ["tgc", "dtc"])
def test_art_drawn_to_the_edge_of_a_card_the_service_cuts_larger_is_said_to_stop_short(tmp_path: Path,
                                                                                        service: str) -> None:
    """A card of 60 x 90 mm is cut 2 3/8 in (60.3 mm) wide: a picture drawn to the card's own edges, not into the
    bleed, stops 0.2 mm inside the cut at each side, where the background shows as a thin line. Nothing was said (the
    picture reaches past the cut at the top and foot, so it was taken for art running into the bleed). The export
    now says so, naming the box and `bleed: true`, for every service; with `bleed: true` nothing is said."""
    deck = make_deck(tmp_path / "edge", [{"Name": "One"}], layout=EDGE_TO_EDGE, deck_id="edge",
                     extra="card_size: {width: 60mm, height: 90mm}\nname_column: Name\n")
    (deck / "art.svg").write_text(ART, encoding="utf-8")
    result = run("export", "--service", service, "--content", str(deck), "--out", str(tmp_path / "out"))
    warned = [line for line in result.stderr.splitlines() if " box " in line]
    assert len(warned) == 1 and "box art (" in warned[0] and "layout.yaml:4) stops at the card's edge, 0.2 mm " \
        "short of the edge" in warned[0] and "`bleed: true`" in warned[0] and warned[0].endswith("on One"), warned
    bled = make_deck(tmp_path / "bled", [{"Name": "One"}], layout=EDGE_TO_EDGE.replace("cover}", "cover, bleed: true}"),
                     deck_id="edge", extra="card_size: {width: 60mm, height: 90mm}\nname_column: Name\n")
    (bled / "art.svg").write_text(ART, encoding="utf-8")
    result = run("export", "--service", service, "--content", str(bled), "--out", str(tmp_path / "bled-out"))
    assert result.exit_code == 0 and " box " not in result.stderr, result.stderr


#: A text box as wide as the card, its edges 0.5 mm from the card's: well inside The Game Crafter's safe margin. The
#: card's text is centred: a short name stops far short of the box's edges, a long one is set as large as the box's
#: width lets it, its first and last letters at the box's edges.
WIDE_BOX = """\
safe: 0mm
background: "#ffffff"
styles:
  line: {font: open-sans-bold, size: 14pt, min_size: 5pt, colour: "#000000", align: center, valign: middle,
         wrap: false}
boxes:
  name: {kind: text, x: 0.5mm, y: 30mm, width: 100% - 1mm, height: 20mm, style: line, text: "{{ card.name }}"}
"""


def _dark_columns_in_the_margin(png: Path) -> int:
    """How many dark pixels the PNG has in The Game Crafter's safe margin at the card's left and right (a poker card
    at 300 dpi: 825 px wide, cut 2.5 in wide in its middle, the margin 1/8 in inside the cut)."""
    image = open_png(png).convert("L")
    cut, margin = (825 - 750) // 2, 38
    bands = [(cut, cut + margin), (825 - cut - margin, 825 - cut)]
    dark = [image.crop((x0, 0, x1, image.height)).point(lambda v: 255 if v < 128 else 0).histogram()[255]
            for x0, x1 in bands]
    return sum(dark)


def test_a_text_box_in_the_margin_is_warned_only_where_its_letters_come_into_it(tmp_path: Path) -> None:
    rows = [{"Name": "Short"}, {"Name": "WIDE NAME SET EDGE TO EDGE"}]
    deck = make_deck(tmp_path / "wide", rows, layout=WIDE_BOX, deck_id="wide",
                     extra="card_size: poker\nname_column: Name\n")
    result = run("export", "--service", "tgc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if " box " in line]
    # the box reaches 0.75 mm from the cut on both cards; only the long name's letters do
    assert len(warned) == 1 and "box name (" in warned[0] and "layout.yaml:7)" in warned[0], result.stderr
    assert warned[0].endswith("on WIDE NAME SET EDGE TO EDGE")
    reach = float(warned[0].split(" comes ")[1].split(" mm")[0])
    assert 0.7 <= reach < 1.5  # its first letter starts at the box's edge, less the letter's own side bearing
    # what the pictures show: ink in the margin on the long name's card, none on the short one's
    faces = {row["name"]: row["file"] for row in manifest(tmp_path / "out/print/thegamecrafter/decks/wide/manifest.csv")
             if row["file"] != "back.png"}
    folder = tmp_path / "out/print/thegamecrafter/decks/wide"
    assert _dark_columns_in_the_margin(folder / faces["Short"]) == 0
    assert _dark_columns_in_the_margin(folder / faces["WIDE NAME SET EDGE TO EDGE"]) > 0


#: Vector art a layout draws near the edge: a star outline and a rule 1.5 mm from the card's edge (in the service's
#: margin), a badge marked as decoration there and another drawn into the bleed at the card's corner, a border going
#: round the card 1 mm in, a band into the bleed, a speck of a texture.
SHAPES_NEAR_THE_EDGE = """\
safe: 1mm
background: "#ffffff"
boxes:
  seal: {kind: star, points: 5, x: 1.5mm, y: 20mm, width: 8mm, height: 8mm, fill: "#9b2226"}
  rule: {kind: line, x: 20mm, y: 100% - 1.5mm, width: 20mm, height: 0mm, stroke: "#221b14", stroke_width: 0.5pt}
  badge: {kind: circle, x: 100% - 9.5mm, y: 1.5mm, width: 8mm, height: 8mm, fill: "#221b14", decoration: true}
  corner: {kind: rect, x: 100% - 8mm, y: 100% - 8mm, width: 8mm, height: 8mm, radius: 4mm, fill: "#221b14",
           decoration: true, bleed: true}
  speck: {kind: circle, x: 2mm, y: 50mm, width: 0.6mm, height: 0.6mm, fill: "#221b14", decoration: true}
  border: {kind: rect, x: 1mm, y: 1mm, width: 100% - 2mm, height: 100% - 2mm, stroke: "#221b14", stroke_width: 1pt}
  band: {kind: rect, x: 0, y: 40mm, width: 100%, height: 5mm, fill: "#c0c0c0", bleed: true}
"""


def test_vector_shapes_in_the_services_margin_are_warned_as_pictures_are(tmp_path: Path) -> None:
    """Only text, icons and pictures were measured: a star or a rule the layout draws as a shape came into the
    margin in silence. A shape is now measured by what it draws; one running into the bleed, one going round the
    card (a border) and a speck are not, as check-print does not measure such paths in a PDF. A badge marked as
    decoration inside the card is measured as check-print measures it in the PDF: `decoration` says how `--ink
    light` draws it, and a PDF cannot tell it from an icon."""
    deck = make_deck(tmp_path / "shapes", [{"Name": "One"}], layout=SHAPES_NEAR_THE_EDGE, deck_id="shapes",
                     extra="card_size: poker\nname_column: Name\n")
    result = run("export", "--service", "mpc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = {line.split(" box ")[1].split(" ")[0]: line for line in result.stderr.splitlines() if " box " in line}
    assert sorted(warned) == ["badge", "rule", "seal"], result.stderr
    assert "layout.yaml:4) comes 1.8 mm from the edge" in warned["seal"]  # 1.5 mm in + 0.25 mm of the rounding
    # the same deck as DriveThruCards' PDF: its preflight warns of the same three shapes, and of no other
    result = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
    safe = [f["message"] for f in json.loads(result.stdout)["findings"] if f["rule"] == "safe"]
    assert len(safe) == 1 and safe[0].startswith("3 shapes drawn as paths"), result.stdout


#: A picture drawn 2 x 3 in on a poker card, inside the safe margin: its pixels say its resolution on the card.
PICTURE_2X3 = """\
safe: 3mm
background: "#ffffff"
boxes:
  art: {kind: image, x: 6.35mm, y: 6mm, width: 50.8mm, height: 76.2mm, src: art.png, fit: stretch}
"""


@pytest.mark.parametrize("service", ["tgc", "mpc"])
def test_a_picture_printed_below_300_dpi_is_named_by_the_image_services_as_by_the_pdf_check(tmp_path: Path,
                                                                                             service: str) -> None:
    """A 300 x 450 px picture drawn 2 x 3 in prints at 150 dpi: the PDF services' check says so (DriveThruCards
    refuses it), while the image services scaled it up into their 300 dpi PNGs without a word. They now warn, by the
    same rule and figure, naming the picture, its pixels, the cards and the pixels it needs; the export still
    succeeds (neither service's own page states a minimum). A 600 x 900 px picture there (300 dpi) says nothing."""
    from PIL import Image

    for name, pixels in (("soft", (300, 450)), ("sharp", (600, 900))):
        deck = make_deck(tmp_path / name, [{"Name": "One"}, {"Name": "Two"}], layout=PICTURE_2X3, deck_id=name,
                         extra="card_size: poker\nname_column: Name\n")
        Image.new("RGB", pixels, (40, 90, 160)).save(deck / "art.png")
        result = run("export", "--service", service, "--content", str(deck), "--out", str(tmp_path / f"{name}-out"))
        assert result.exit_code == 0, result.stderr
        warned = [line for line in result.stderr.splitlines() if "dpi on the card" in line]
        if name == "sharp":
            assert warned == [], result.stderr
            continue
        assert len(warned) == 1, result.stderr
        assert "the picture " in warned[0] and "art.png (300 x 450 px) prints at 150 dpi on the card, below the 300 " \
            "dpi" in warned[0] and "at least 600 x 900 px" in warned[0] and warned[0].endswith("on One and Two"), warned
        pdf = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
        said = [f["message"] for f in json.loads(pdf.stdout)["findings"] if f["rule"] == "min_dpi"]
        assert said and all("drawn at 150 dpi" in m for m in said), said


def svg_art_deck(tmp_path: Path, deck_id: str, body: str) -> Path:
    """A deck of one poker card, "One", whose layout draws `art.svg` (50 x 70 mm, `body` its contents, in mm) in
    PICTURE_2X3's picture box."""
    layout = PICTURE_2X3.replace("width: 50.8mm, height: 76.2mm, src: art.png, fit: stretch",
                                 "width: 50mm, height: 70mm, src: art.svg")
    deck = make_deck(tmp_path / deck_id, [{"Name": "One"}], layout=layout, deck_id=deck_id,
                     extra="card_size: poker\nname_column: Name\n")
    (deck / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="50mm" '
        f'height="70mm" viewBox="0 0 50 70">{body}</svg>', encoding="utf-8")
    return deck


def test_a_picture_held_in_svg_art_is_measured_by_the_image_services(tmp_path: Path) -> None:
    """SVG art holding a 150 x 210 px picture (`data:` PNG) drawn 40 x 56 mm prints it at 95 dpi: DriveThruCards'
    check refuses the PDF, while the image services said nothing (an SVG was taken for shapes only). They now name
    it, inside the art file, by the size the art draws it at (its viewBox scale and its own transforms applied), and
    the preflight of the PDF, which holds the picture enlarged for smoothing, judges and names it by its own pixels."""
    import base64
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (150, 210), (200, 60, 60)).save(buffer, "PNG")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    deck = svg_art_deck(tmp_path, "held", '<rect width="50" height="70" fill="#224"/><g transform="translate(5 5)">'
                        f'<image width="40" height="56" xlink:href="data:image/png;base64,{data}"/></g>')
    result = run("export", "--service", "tgc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if "dpi on the card" in line]
    assert len(warned) == 1 and "the picture held in " in warned[0] and "art.svg (150 x 210 px) prints at 95 dpi" \
        in warned[0] and "at least 473 x 662 px" in warned[0] and warned[0].endswith("on One"), result.stderr
    pdf = run("export", "--service", "dtc", "--json", "--content", str(deck), "--out", str(tmp_path / "pdf"))
    refused = [f["message"] for f in json.loads(pdf.stdout)["findings"] if f["rule"] == "min_dpi"
               and f["verdict"] == "refused"]
    # the PDF holds the picture enlarged for smoothing (454 x 635 px, 288 dpi as pdfimages lists it): the preflight
    # read that copy's 288 dpi, the right verdict with the wrong figure; it now says the picture's own
    assert refused and all("(150 x 210 px, enlarged in the file to " in m and "drawn at 95 dpi" in m
                           for m in refused), refused


def test_a_picture_in_a_mask_is_measured_as_any_picture(tmp_path: Path) -> None:
    """SVG art whose `<mask>` holds a picture (a 20 x 28 px `data:` PNG drawn 40 x 56 mm, 13 dpi) prints the mask's
    pixels as the edge of what it shows, stepped or soft: neither the image services' check nor the PDF's preflight
    measured a mask, only pictures shown. Both now measure it as any picture: The Game Crafter's export names it
    inside the art file at its own figure, DriveThruCards' preflight (of a PDF keeping transparency) names the
    picture in the soft mask and refuses it below its 300 dpi."""
    import base64
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (20, 28), 255).save(buffer, "PNG")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    deck = svg_art_deck(tmp_path, "masked", '<defs><mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="50" '
                        'height="70"><image x="5" y="5" width="40" height="56" '
                        f'xlink:href="data:image/png;base64,{data}"/></mask></defs>'
                        '<rect width="50" height="70" fill="#224" mask="url(#m)"/>')
    result = run("export", "--service", "tgc", "--content", str(deck), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if "dpi on the card" in line]
    assert len(warned) == 1 and "the picture held in " in warned[0] and "art.svg (20 x 28 px) prints at 13 dpi" \
        in warned[0], result.stderr
    # PDF/X-1a allows no transparency: the art is flattened into a picture at the service's resolution; without
    # PDF/X, the soft mask is kept and its picture is in the file
    pdf = run("export", "--service", "dtc", "--pdfx", "none", "--json", "--content", str(deck), "--out",
              str(tmp_path / "pdf"))
    masked = [f for f in json.loads(pdf.stdout)["findings"] if f["rule"] == "min_dpi" and "soft mask" in f["message"]]
    assert masked and all(f["verdict"] == "refused" for f in masked), pdf.stdout
