"""Ink: how the colours of a drawing become the colours a PDF prints, RGB as drawn or CMYK for a press.

Every colour the PDF backend writes comes through one :class:`Inks` object (`Inks.op` for a colour operator,
`Inks.components` for anything else that needs the numbers, such as a gradient's stops, `Inks.picture` for the
pixels of a picture), so a drawing operation added later is converted like every other.

**CMYK** (`--colour cmyk`): colours and pictures are converted from sRGB (what layouts and PNG/JPEG art are
drawn in) to the press's CMYK through an ICC output profile by littleCMS (Pillow's ImageCms), with the
relative colorimetric intent and black point compensation (what prepress tools use for art that is mostly
within gamut), then:

- **black**: a near-black neutral (all of R, G and B at most `BLACK_MOST` and within `BLACK_SPREAD` of each other,
  which includes the cards' ink, #1d1a16) prints as black ink alone (0 0 0 100) for text and lines, which stay
  sharp whatever the registration, and as the service's **rich black** (DriveThruCards: C60 M40 Y40 K100) for
  filled areas, which K alone prints as dark grey;
- **total ink**: a colour or pixel whose C+M+Y+K exceeds the service's limit has its C, M and Y scaled down
  together, K kept, until the total is the limit (the darkest colours lose a little depth, never their hue's
  balance); the limit is measured on the file by Ghostscript's `inkcov` device in the tests.

Profiles: `templates/icc/` ships two, made by donjon with ArgyllCMS from characterisation data that its
authors license freely (see the README beside them); a user's own profile (their printer's, or the service's)
is any .icc file given with `--profile FILE`.
"""

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from PIL.Image import Image

#: Neutral dark colours print as black: each channel at most this (of 255) ...
BLACK_MOST = 0x30
#: ... and the channels at most this far apart (a warm or cool near-black is still black).
BLACK_SPREAD = 0x10

Space = Literal["rgb", "cmyk"]
#: What a colour paints: text and lines print black as K alone; filled areas as rich black.
Use = Literal["fill", "stroke", "text"]


class PressSettings(NamedTuple):
    """How a document is made for the press that prints it: its colours, its PDF/X standard, its text."""

    space: Space = "rgb"
    #: the press's ICC output profile (CMYK)
    profile: Path | None = None
    #: the profile's printing condition, as an OutputIntent names it (`FOGRA39`, `CGATS TR 003`)
    condition: str = ""
    #: the most total ink, in percent (C+M+Y+K); None for the profile's own
    ink_limit: float | None = None
    #: the CMYK (in percent) black areas print in; None for black ink alone
    rich_black: tuple[float, float, float, float] | None = None
    #: the PDF/X standard the document follows ("x1a": PDF/X-1a:2003, "x4": PDF/X-4), or "" for none
    pdfx: Literal["", "x1a", "x4"] = ""
    #: text drawn as the outlines of its glyphs rather than in embedded fonts (for printers that ask for it); the
    #: text is then no longer searchable in the file, as with any printer's "convert to outlines"
    outline_text: bool = False
    #: the resolution, in dots per inch, at which PDF/X-1a's pictures of see-through boxes are drawn (the press's
    #: own: generator.backends.pdf_flatten)
    flatten_dpi: int = 300


def _hex(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def is_black(colour: str) -> bool:
    """Whether `#rrggbb` is a near-black neutral (see the module's notes)."""
    rgb = _hex(colour)
    return max(rgb) <= BLACK_MOST and max(rgb) - min(rgb) <= BLACK_SPREAD


def limit_ink(cmyk: tuple[float, float, float, float], limit: float | None) -> tuple[float, float, float, float]:
    """`cmyk` (0 to 1 each) with C, M and Y scaled down so that the total is at most `limit` percent."""
    if limit is None:
        return cmyk
    c, m, y, k = cmyk
    most = limit / 100
    if c + m + y + k <= most:
        return cmyk
    room = max(0.0, most - k)
    scale = room / (c + m + y) if c + m + y > 0 else 0.0
    return c * scale, m * scale, y * scale, min(k, most)


def _number(value: float, places: int) -> str:
    """A colour component as the PDF backend writes numbers: RGB to a thousandth (as donjon always has, so RGB files
    keep their bytes), CMYK to a ten-thousandth (a press's 1 % steps are 0.01)."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


class Inks:
    """The colours of one document: each `#rrggbb` converted once (see the module's notes)."""

    def __init__(self, settings: PressSettings = PressSettings()) -> None:
        self.settings = settings
        self._ops: dict[tuple[str, str, str], str] = {}
        self._components: dict[tuple[str, str], tuple[float, ...]] = {}

    @property
    def cmyk(self) -> bool:
        return self.settings.space == "cmyk"

    @property
    def device_space(self) -> str:
        """The PDF colour space of what this writes: /DeviceRGB or /DeviceCMYK."""
        return "DeviceCMYK" if self.cmyk else "DeviceRGB"

    @cached_property
    def _transform(self) -> object:
        from PIL import ImageCms

        if self.settings.profile is None:
            raise ValueError("CMYK needs an ICC output profile")
        source = ImageCms.createProfile("sRGB")
        target = ImageCms.getOpenProfile(str(self.settings.profile))
        return ImageCms.buildTransform(source, target, "RGB", "CMYK",
                                       renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                       flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)

    def components(self, colour: str, use: Use = "fill") -> tuple[float, ...]:
        """`#rrggbb` as the numbers of this document's colour space (0 to 1 each): R G B, or C M Y K."""
        key = (colour, use)
        found = self._components.get(key)
        if found is None:
            rgb = _hex(colour)
            if not self.cmyk:
                found = tuple(v / 255 for v in rgb)
            elif is_black(colour):
                rich = self.settings.rich_black
                found = (0.0, 0.0, 0.0, 1.0) if use != "fill" or rich is None else tuple(v / 100 for v in rich)
                found = limit_ink((found[0], found[1], found[2], found[3]), self.settings.ink_limit)
            else:
                from PIL import Image, ImageCms

                pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), self._transform)  # type: ignore[arg-type]
                assert pixel is not None
                values = pixel.getpixel((0, 0))
                assert isinstance(values, tuple)
                cmyk = tuple(v / 255 for v in values)
                found = limit_ink((cmyk[0], cmyk[1], cmyk[2], cmyk[3]), self.settings.ink_limit)
            self._components[key] = found
        return found

    def op(self, colour: str, op: str, use: Use | None = None) -> str:
        """The operator setting `colour` for filling (`op` "rg") or stroking ("RG"): `r g b rg` or `c m y k k`."""
        chosen: Use = use or ("stroke" if op == "RG" else "fill")
        key = (colour, op, chosen)
        found = self._ops.get(key)
        if found is None:
            numbers = " ".join(_number(v, 4 if self.cmyk else 3) for v in self.components(colour, chosen))
            found = self._ops[key] = f"{numbers} {op if not self.cmyk else ('K' if op == 'RG' else 'k')}"
        return found

    def picture(self, image: "Image") -> "Image":
        """An RGB picture in this document's colour space: itself, or converted to CMYK with the ink limit."""
        if not self.cmyk:
            return image
        from PIL import ImageCms

        converted = ImageCms.applyTransform(image.convert("RGB"), self._transform)  # type: ignore[arg-type]
        assert converted is not None
        limit = self.settings.ink_limit
        if limit is None:
            return converted
        return _limit_pixels(converted, limit)


def _limit_pixels(image: "Image", limit: float) -> "Image":
    """`limit_ink` on every pixel of a CMYK picture (C, M and Y scaled where the total is over the limit)."""
    from typing import Any

    from PIL import Image as PILImage
    from PIL import ImageMath

    c, m, y, k = (band.convert("F") for band in image.split())

    def scale(a: dict[str, Any]) -> Any:
        # where the total is over the limit (most - k) / (c + m + y), else 1; the floor keeps black pixels defined
        return a["min"](a["max"](a["most"] - a["k"], 0.0) / a["max"](a["c"] + a["m"] + a["y"], 0.001), 1.0)

    factor = ImageMath.lambda_eval(scale, most=limit / 100 * 255, c=c, m=m, y=y, k=k)
    bands = [ImageMath.lambda_eval(lambda a: a["v"] * a["s"], v=band, s=factor).convert("L") for band in (c, m, y)]
    return PILImage.merge("CMYK", (*bands, image.getchannel("K")))
