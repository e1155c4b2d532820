"""Which pictures of a deck print soft at the size an image service prints its cards (The Game Crafter,
MakePlayingCards: `donjon export --service`), judged by the rule the PDF services' preflight uses
(Service.resolution): a picture's pixels over the inches it is drawn across on the card.

An image service takes one PNG per face at its own resolution (300 dpi): a 150 dpi picture is scaled up into it
without a word, and the service prints what it gets. Its PNGs cannot tell which pixels came from a picture, so the
pictures are found in what draws the cards (each face's and back's drawing, pictures inside turned or scaled groups
measured as placed); an SVG is drawn as shapes and has no resolution. Only a warning: neither service's own page
states a minimum (their file's `min_dpi` rule is donjon's, with a confidence).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

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


def _placed(items: Iterable[Primitive], matrix: Matrix) -> Iterator[tuple[ImageUse, float, float]]:
    """Every picture of `items` with the width and height, in points, it is drawn across (groups' turns and scales
    applied; a group's mask is not a picture shown)."""
    for item in items:
        if isinstance(item, Group):
            yield from _placed(item.items, matrix if item.matrix is None else product(matrix, item.matrix))
        elif isinstance(item, ImageUse):
            a, b, c, d, _e, _f = matrix
            yield item, abs(item.w) * math.hypot(a, b), abs(item.h) * math.hypot(c, d)


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
            if info.kind == "svg" or drawn_w <= 0 or drawn_h <= 0:
                continue
            dpi = min(info.width / (drawn_w / 72), info.height / (drawn_h / 72))
            judged = service.resolution(dpi)
            if judged is None:
                continue
            need = (math.ceil(drawn_w / 72 * GOOD_DPI), math.ceil(drawn_h / 72 * GOOD_DPI))
            known = found.get(use.source)
            if known is None:
                found[use.source] = LowPicture(use.source, int(info.width), int(info.height), dpi, judged, need,
                                               [label])
                continue
            if label not in known.cards:
                known.cards.append(label)
            worse = service.resolution(min(dpi, known.dpi)) or judged
            found[use.source] = known._replace(dpi=min(dpi, known.dpi), judged=worse,
                                               need=(max(need[0], known.need[0]), max(need[1], known.need[1])))
    return list(found.values())


def resolution_warning(deck: str, picture: LowPicture, service: Service, lang: Language) -> str:
    """What to say, in `lang`, of a picture printed below a good resolution by `service`."""
    from generator.resources import display_path

    rest = len(picture.cards) - NAMED + 1
    cards = picture.cards[:NAMED] if len(picture.cards) <= NAMED else [
        *picture.cards[:NAMED - 1], lang.ngettext("{n} more card", "{n} more cards", rest).format(n=lang.number(rest))]
    rule = service.rule("min_dpi")
    template = SOFT if picture.judged == "soft" else STATED if rule.confirmed else GUESSED
    return lang._(template).format(
        deck=deck, picture=display_path(Path(picture.source)), width=lang.number(picture.width),
        height=lang.number(picture.height), dpi=lang.number(math.floor(picture.dpi + 0.5)),
        minimum=lang.number(service.min_dpi), good=lang.number(GOOD_DPI), service=service.name,
        confidence=rule.confidence or "L", need=f"{lang.number(picture.need[0])} x {lang.number(picture.need[1])}",
        cards=lang.listing(cards))
