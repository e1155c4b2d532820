"""What of a deck's cards comes into the margin a print service may cut in, for the services that take a picture
of each face (The Game Crafter, MakePlayingCards; `donjon export png --preset` at their sizes too) and those taking
text as outlines (MB PRINT), whose PDF holds no text for the preflight to measure.

A PDF is checked by the preflight, which reads the text and pictures the file holds; a PNG holds pixels only, which
say nothing of what is text and what is background. So the pictures are checked from what drew them: every box of a
card's layout drawn on that card (its `when` holding) whose kind keeps inside the safe area (text, icons, rows,
notes: generator.layout.load.TEXT_KINDS), and every picture, outline or line box that neither runs into the bleed
(`bleed: true`, or reaching the cut) nor goes round the card (a border: near all four edges, preflight.FRAME) nor is
a speck, is measured where the PNG places it: the card at its own size,
centred on the service's cut (the card's size rounded to an eighth of an inch, generator.export.geometry). A box
coming closer to that cut than the service's safe margin (`safe` in templates/services/NAME.yaml) is named, with
the layout's file and line, how far from the cut it comes and the cards it is on.

The layouts already keep text and icons their own `safe:` inside the card's own edge (3 mm unless a layout says
otherwise); this check adds what the service's cut changes: a layout that lowered `safe:`, a card the rounding cuts
smaller than it is (a 44 x 68 mm card is cut 66.7 mm tall), a safe margin wider than the layout's, and pictures.
A box is measured by what it prints: its text as set (each line from its first letter to its last, from its font's
ascent to its descent, as the layout set it), not its rectangle, so a box reaching into the margin whose letters
stop short of it says nothing; its icon's square, its picture as placed and clipped (to its clip's outline: a
round frame turned a little is measured by the circle, not its turned box). The findings only warn: the safe
margin of both image services is not confirmed by a page of their own (their file's provenance says so), and a box
in the margin may still print whole.

Pictures and shapes are judged as the preflight judges the paths and pictures of a PDF
(generator.prepress.preflight._safe_shapes, _in_margin), so that a deck exported as PNGs and as a PDF is warned of
the same boxes: `decoration: true` says how `--ink light` draws a box, not where it may sit; a badge marked as
decoration inside the card is printed whole and read, so it is measured. Art meant to be trimmed reaches the cut.
"""

from __future__ import annotations

from typing import NamedTuple

from generator.build.decks import back_subject, face_subject
from generator.export.cards import BACK, Prepared
from generator.export.geometry import Canvas
from generator.i18n import N_, Language
from generator.layout.draw import printed_boxes
from generator.layout.load import EPSILON, TEXT_KINDS, LayoutBox
from generator.layout.spec import SHAPE_KINDS
from generator.prepress.preflight import FRAME, SPECK, TOLERANCE
from generator.prepress.services import Service
from generator.units import to_mm

#: The warning on a box closer to the cut than the service's safe margin, by whether a page of the service states
#: that margin (its file's `safe` rule has a source) or donjon takes it from elsewhere (a confidence).
STATED = N_("the deck {deck}: box {box} ({where}) comes {reach}, inside the safe margin of {safe} that the pages of "
            "{service} ask for; on {cards}")
GUESSED = N_("the deck {deck}: box {box} ({where}) comes {reach}, inside the safe margin of {safe} donjon takes "
             "for {service} (not confirmed by a page of its own: confidence {confidence}); on {cards}")
#: The warning on a picture or shape drawn to the card's own edge, not into the bleed, where the service cuts
#: outside that edge (a card whose size is not whole eighths of an inch): a line of what lies under it shows there.
SHORT = N_("the deck {deck}: box {box} ({where}) stops at the card's edge, {distance} short of the edge {service} "
           "cuts (the card's size rounded to the cut it makes): a thin line of what lies under it will show there; "
           "give the box {key} to run it into the bleed; on {cards}")
#: How far from the cut a box comes: inside the card, or past its edge.
INSIDE = N_("{distance} from the edge {service} cuts")
PAST = N_("{distance} past the edge {service} cuts")
#: Cards named before the rest are counted.
NAMED = 6


class Margin(NamedTuple):
    """A box of a layout closer to the service's cut than its safe margin."""

    box: LayoutBox
    #: how far inside the cut the box comes, in points (negative: past it)
    distance: float
    #: the cards (and backs) it is drawn on, in deck order
    cards: list[str]
    #: whether the box is drawn to the card's own edge and stops short of the service's cut there (`distance`: how
    #: far short), rather than coming into the safe margin
    short: bool = False


def _checked(box: LayoutBox) -> bool:
    """Whether a box may hold what must stay inside the safe area: text, icons, or a picture or a shape (an
    outline, a line: vector art) that is not drawn into the bleed (`bleed`). A decoration is measured as any
    picture is: the PDF's preflight cannot tell it from one."""
    return box.kind in TEXT_KINDS or (box.kind in ("image", "line", *SHAPE_KINDS) and not box.bleed)


def _frame(box: LayoutBox, sides: tuple[float, float, float, float], safe: float) -> bool:
    """Whether a shape goes round the card (a border, a frame): it lies near each of the four edges of the cut,
    within twice the safe margin (`sides`: how far inside it each edge of its box lies). Meant to follow the edge,
    it is not measured, as the preflight does not measure such a path in a PDF (generator.prepress.preflight.
    _frame); a large emblem reaching into the margin at one edge is far from the others, and is measured."""
    return box.kind != "image" and box.kind not in TEXT_KINDS and max(sides) < FRAME * safe


def margins(prepared: Prepared, canvas: Canvas, service: Service) -> list[Margin]:
    """Every box of the deck's faces and backs that comes closer to the service's cut than its safe margin, as the
    image `canvas` places the card; in the order met."""
    deck = prepared.deck
    width, height = deck.card_size.width_pt, deck.card_size.height_pt
    cut_x, cut_y, cut_w, cut_h = canvas.cut if canvas.cut is not None else (canvas.x, canvas.y, width, height)
    found: dict[tuple[str, str, bool], Margin] = {}
    layouts, view = prepared.layouts, prepared.view
    drawn = [(layouts.face(card), face_subject(deck, card, view), card.name) for card in deck.cards]
    for item in prepared.backs():
        if item == BACK:
            layout = layouts.back(deck.cards[0] if deck.cards else None)
            drawn.append((layout, back_subject(layout, deck, view), "back"))
        else:
            card = deck.cards[-2 - item]
            layout = layouts.back(card)
            drawn.append((layout, back_subject(layout, deck, view, card), f"{card.name} (back)"))
    for layout, what, label in drawn:
        for box, (x0, y0, x1, y1) in printed_boxes(layout, what, width, height, deck.shape, _checked):
            left, top = canvas.x + x0 - cut_x, canvas.y + y0 - cut_y
            right, bottom = cut_x + cut_w - (canvas.x + x1), cut_y + cut_h - (canvas.y + y1)
            short = _short(box, (x0, y0, x1, y1), (left, top, right, bottom), width, height)
            if short is not None:
                _found(found, Margin(box, short, [label], short=True), label)
                continue
            if _frame(box, (left, top, right, bottom), service.safe):
                continue
            distance = min(left, top, right, bottom)
            if distance >= service.safe - EPSILON:
                continue
            if box.kind not in TEXT_KINDS and (distance <= TOLERANCE or (x1 - x0 < SPECK and y1 - y0 < SPECK)):
                # a picture or shape reaching the cut runs into the bleed, a speck is a texture's: neither is
                # measured, by the same bounds as check-print's (generator.prepress.preflight)
                continue
            _found(found, Margin(box, distance, [label]), label)
    return list(found.values())


def _found(found: dict[tuple[str, str, bool], Margin], margin: Margin, label: str) -> None:
    """Keep a box's finding once, the cards it is on added to it."""
    key = (margin.box.file, margin.box.name, margin.short)
    known = found.get(key)
    if known is None:
        found[key] = margin
    elif label not in known.cards:
        known.cards.append(label)


def _short(box: LayoutBox, drawn: tuple[float, float, float, float], sides: tuple[float, float, float, float],
           width: float, height: float) -> float | None:
    """How far short of the service's cut a picture or shape drawn to the card's own edge, not into the bleed,
    stops (the most, of the edges it is drawn to), or None: it is drawn to no edge, or reaches the cut at each. A
    card whose size is not whole eighths of an inch is cut larger than it is at some edges (a 60 mm card 60.3 mm
    wide): art drawn to its edge stops there, and what lies under it shows between it and the cut."""
    if box.kind in TEXT_KINDS or box.bleed:
        return None
    x0, y0, x1, y1 = drawn
    at_edge = (x0 <= EPSILON, y0 <= EPSILON, x1 >= width - EPSILON, y1 >= height - EPSILON)
    gaps = [gap for edge, gap in zip(at_edge, sides) if edge and gap > TOLERANCE]
    return max(gaps) if gaps else None


def _mm(points: float, lang: Language) -> str:
    return f"{lang.number(round(to_mm(points), 1), 1)} mm"


def margin_warning(deck: str, margin: Margin, service: Service, lang: Language) -> str:
    """What to say, in `lang`, of a box in the service's margin (or stopping short of its cut)."""
    box = margin.box
    reach = lang._(INSIDE if margin.distance >= 0 else PAST).format(distance=_mm(abs(margin.distance), lang),
                                                                   service=service.name)
    rest = len(margin.cards) - NAMED + 1
    cards = margin.cards[:NAMED] if len(margin.cards) <= NAMED else [
        *margin.cards[:NAMED - 1], lang.ngettext("{n} more card", "{n} more cards", rest).format(n=lang.number(rest))]
    where = f"{box.file}:{box.line}" if box.line else box.file
    if margin.short:
        return lang._(SHORT).format(deck=deck, box=box.name, where=where, distance=_mm(margin.distance, lang),
                                    service=service.name, key="`bleed: true`", cards=lang.listing(cards))
    rule = service.rule("safe")
    template = STATED if rule.confirmed else GUESSED
    return lang._(template).format(deck=deck, box=box.name, where=where, reach=reach, safe=_mm(service.safe, lang),
                                   service=service.name, confidence=rule.confidence or "L",
                                   cards=lang.listing(cards))
