"""Which pictures of a deck print soft at the size an image service prints its cards (The Game Crafter,
MakePlayingCards: `donjon export --service`), judged by the rule the PDF services' preflight uses
(Service.resolution): a picture's pixels over the inches it is drawn across on the card.

An image service takes one PNG per face at its own resolution (300 dpi): a 150 dpi picture is scaled up into it
without a word, and the service prints what it gets. Its PNGs cannot tell which pixels came from a picture, so the
pictures are found in what draws the cards (each face's and back's drawing, pictures inside turned or scaled groups
measured as placed); an SVG is drawn as shapes, with no resolution, but a picture it holds (`data:` PNG or JPEG)
is a picture in the PDF and in print: it is measured as the art draws it (generator.render.svgart). Only a
warning: neither service's own page states a minimum (their file's `min_dpi` rule is donjon's, with a confidence).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from generator.export.cards import BACK, Prepared
from generator.i18n import N_, Language
from generator.prepress.services import GOOD_DPI, Resolution, Service
from generator.render.images import ImageProblem, image_info
from generator.render.model import Group, ImageUse, Matrix, Primitive
from generator.render.shapes import product

#: The warning on a picture below the service's minimum (`min_dpi`), by whether a page of the service states it,
#: and on one at or above it but below GOOD_DPI.
STATED = N_("the deck {deck}: the picture {picture} ({width} x {height} px) prints at {dpi} dpi on the card, below "
            "the {minimum} dpi that the pages of {service} ask for: it is scaled up in the image for {service} and "
            "will print soft; use a picture of at least {need} px in its place, or draw it smaller; on {cards}")
GUESSED = N_("the deck {deck}: the picture {picture} ({width} x {height} px) prints at {dpi} dpi on the card, below "
             "the {minimum} dpi donjon takes for {service} (not confirmed by a page of its own: confidence "
             "{confidence}): it is scaled up in the image for {service} and will print soft; use a picture of at "
             "least {need} px in its place, or draw it smaller; on {cards}")
SOFT = N_("the deck {deck}: the picture {picture} ({width} x {height} px) prints at {dpi} dpi on the card, below "
          "{good} dpi: it may print soft; use a picture of at least {need} px in its place, or draw it smaller; on "
          "{cards}")
#: How a picture held inside SVG art (a `data:` picture) is named, in place of a picture file.
INSIDE = N_("held in {file}")
#: Cards named before the rest are counted.
NAMED = 6
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class LowPicture(NamedTuple):
    """A picture printed below a good resolution on some cards of a deck."""

    source: str
    #: its pixels
    width: int
    height: int
    #: the lowest resolution it prints at, in dots per inch, and how that is judged
    dpi: float
    judged: Resolution
    #: the pixels it needs to print at GOOD_DPI at the largest size it is drawn
    need: tuple[int, int]
    #: the cards (and backs) it is drawn on below a good resolution, in deck order
    cards: list[str]
    #: whether it is a picture held inside the SVG art `source`, not the file itself
    inside: bool = False


def _placed(items: Iterable[Primitive], matrix: Matrix) -> Iterator[tuple[ImageUse, float, float]]:
    """Every picture of `items` with the width and height, in points, it is drawn across (groups' turns and scales
    applied; a group's mask too: its pixels are the edge of what it shows, printed soft or stepped when coarse)."""
    for item in items:
        if isinstance(item, Group):
            inner = matrix if item.matrix is None else product(matrix, item.matrix)
            yield from _placed(item.items if item.mask is None else (*item.items, item.mask), inner)
        elif isinstance(item, ImageUse):
            a, b, c, d, _e, _f = matrix
            yield item, abs(item.w) * math.hypot(a, b), abs(item.h) * math.hypot(c, d)


def _embedded(use: ImageUse, drawn_w: float, drawn_h: float) -> Iterator[tuple[tuple[int, int], float, float]]:
    """The pictures an SVG holds (`data:` PNG or JPEG, which the PDF services' file holds as pictures too), each
    with its pixels and the width and height in points it is drawn across when the art is drawn `drawn_w` x
    `drawn_h` points: read from the drawing the PDF draws (generator.render.svgart), its transforms applied."""
    from generator.render.images import image_data
    from generator.render.svgart import ArtProblem, Embedded, Masked, read_art

    try:
        info, data = image_data(Path(use.source))
        art = read_art(data, info.digest)
    except (ImageProblem, ArtProblem):
        return
    width, height = float(art.drawing.width or 0), float(art.drawing.height or 0)
    if width <= 0 or height <= 0:
        return
    scale: Matrix = (drawn_w / width, 0.0, 0.0, drawn_h / height, 0.0, 0.0)

    def walk(node: Any, matrix: Matrix) -> Iterator[tuple[tuple[int, int], float, float]]:
        transform = getattr(node, "transform", None)
        if transform is not None and len(transform) == 6:
            matrix = product(matrix, tuple(float(v) for v in transform))  # type: ignore[arg-type]
        picture = getattr(node, "path", None)
        if isinstance(picture, Embedded) and node.width and node.height:
            a, b, c, d, _e, _f = matrix
            yield picture.size, abs(float(node.width)) * math.hypot(a, b), abs(float(node.height)) * math.hypot(c, d)
        # a `<mask>`'s contents (svgart.Masked), in the masked element's space: a picture there is printed as the
        # mask's pixels, the edge of what the element shows
        for child in (*(getattr(node, "contents", None) or ()), *([node.mask] if isinstance(node, Masked) else [])):
            yield from walk(child, matrix)

    yield from walk(art.drawing, scale)


def low_pictures(prepared: Prepared, service: Service) -> list[LowPicture]:
    """The pictures of the deck's faces and backs printed below a good resolution for `service`, in the order
    met, each once with the cards it is on."""
    cards = prepared.deck.cards
    items = [*((i, card.name) for i, card in enumerate(cards)), *(
        (item, "back" if item == BACK else f"{cards[-2 - item].name} (back)") for item in prepared.backs())]
    found: dict[str, LowPicture] = {}
    for item, label in items:
        for use, drawn_w, drawn_h in _placed(prepared.drawing(item, 0.0).items, IDENTITY):
            try:
                info = image_info(Path(use.source))
            except ImageProblem:
                continue  # the export itself names a picture it cannot read
            if drawn_w <= 0 or drawn_h <= 0:
                continue
            pictures = _embedded(use, drawn_w, drawn_h) if info.kind == "svg" else [
                ((int(info.width), int(info.height)), drawn_w, drawn_h)]
            for pixels, width, height in pictures:
                _judge(found, use.source, pixels, width, height, label, service, info.kind == "svg")
    return list(found.values())


def _judge(found: dict[str, LowPicture], source: str, pixels: tuple[int, int], drawn_w: float, drawn_h: float,
           label: str, service: Service, inside: bool) -> None:
    """Keep a picture of `pixels` drawn `drawn_w` x `drawn_h` points on card `label` when it prints below a good
    resolution: once by its file (an SVG by the file holding it), the cards added, the lowest dpi kept."""
    if drawn_w <= 0 or drawn_h <= 0:
        return
    dpi = min(pixels[0] / (drawn_w / 72), pixels[1] / (drawn_h / 72))
    judged = service.resolution(dpi)
    if judged is None:
        return
    need = (math.ceil(drawn_w / 72 * GOOD_DPI), math.ceil(drawn_h / 72 * GOOD_DPI))
    known = found.get(source)
    if known is None:
        found[source] = LowPicture(source, pixels[0], pixels[1], dpi, judged, need, [label], inside)
        return
    if label not in known.cards:
        known.cards.append(label)
    if dpi < known.dpi:
        found[source] = known._replace(width=pixels[0], height=pixels[1], dpi=dpi, judged=judged, need=need)


def resolution_warning(deck: str, picture: LowPicture, service: Service, lang: Language) -> str:
    """What to say, in `lang`, of a picture printed below a good resolution by `service`."""
    from generator.resources import display_path

    rest = len(picture.cards) - NAMED + 1
    cards = picture.cards[:NAMED] if len(picture.cards) <= NAMED else [
        *picture.cards[:NAMED - 1], lang.ngettext("{n} more card", "{n} more cards", rest).format(n=lang.number(rest))]
    rule = service.rule("min_dpi")
    template = SOFT if picture.judged == "soft" else STATED if rule.confirmed else GUESSED
    name = display_path(Path(picture.source))
    return lang._(template).format(
        deck=deck, picture=lang._(INSIDE).format(file=name) if picture.inside else name,
        width=lang.number(picture.width),
        height=lang.number(picture.height), dpi=lang.number(math.floor(picture.dpi + 0.5)),
        minimum=lang.number(service.min_dpi), good=lang.number(GOOD_DPI), service=service.name,
        confidence=rule.confidence or "L", need=f"{lang.number(picture.need[0])} x {lang.number(picture.need[1])}",
        cards=lang.listing(cards))
