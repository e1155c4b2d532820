"""Pictures and fonts for the tests of art, icons and fonts of one's own, made on the spot."""

from __future__ import annotations

from pathlib import Path

SVG_ART = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">'
           '<rect width="200" height="100" fill="#224488"/>'
           '<circle cx="100" cy="50" r="40" fill="#ffcc00" fill-opacity="0.5"/></svg>')


def png(path: Path, size: tuple[int, int] = (300, 200), colour: str = "#336699", alpha: bool = False) -> Path:
    from PIL import Image, ImageDraw

    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGBA" if alpha else "RGB", size, (0, 0, 0, 0) if alpha else colour)
    ImageDraw.Draw(image).ellipse((size[0] // 4, size[1] // 4, 3 * size[0] // 4, 3 * size[1] // 4), fill="#ffcc00")
    image.save(path)
    return path


def jpeg(path: Path, size: tuple[int, int] = (300, 200), colour: str = "#884422") -> Path:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path, quality=90)
    return path


def svg(path: Path, text: str = SVG_ART) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def bomb(path: Path) -> Path:
    """A decompression bomb: a PNG of a few KB that unpacks to 100 million pixels."""
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("1", (10_000, 10_000)).save(path, optimize=True)
    return path


def cff_font(path: Path, family: str = "Test CFF", flavour: str = "CFF") -> Path:
    """An OpenType font with PostScript outlines (CFF, or CFF2 for a variable one): glyphs for space and A-Z."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    order = [".notdef", "space", *letters]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap({32: "space", **{ord(c): c for c in letters}})

    def shape() -> object:
        pen = T2CharStringPen(600, None)
        pen.moveTo((50, 0))
        pen.lineTo((550, 0))
        pen.curveTo((560, 300), (400, 700), (300, 700))
        pen.closePath()
        return pen.getCharString()

    glyphs = {name: shape() for name in order}
    glyphs["space"] = T2CharStringPen(250, None).getCharString()
    if flavour == "CFF2":
        builder.setupCFF2({name: glyphs[name] for name in order})
    else:
        builder.setupCFF(family.replace(" ", "") + "-Regular", {"FullName": family}, glyphs, {})
    builder.setupHorizontalMetrics({name: (250 if name == "space" else 600, 0 if name == "space" else 50)
                                    for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    builder.save(str(path))
    return path


def dejavu() -> Path:
    """The sample decks' font (DejaVu Serif Condensed, under its own licence), a TrueType file."""
    return Path(__file__).resolve().parents[2] / "content" / "examples" / "decks" / "fonts" / "DejaVuSerifCondensed.ttf"
