"""Drawing one card (or back) with a layout: the layout's boxes, filled in with the card's values.

What a layout's templates can read: every value of `Card.data` by its name (`profession`, `colour`, `vp`,
`event`, `tile`, `guest`..., or a user deck's columns), plus

- `card`: `card.id`, `card.name`, `card.copies`, `card.fields` (every value by name, for column names with
  spaces: `card.fields['Card text']`), `card.get('cost')` (a column by name ignoring case, or None) and
  `card.also` (its name in the second language `--also` asks for, else empty);
- `deck`: `deck.id`, `deck.name`, `deck.game`, `deck.game_name`, `deck.cards` (cards, copies included);
- `mark(record, field)`: the `{inferred}` icon when that value of the record is not from a rulebook, else
  nothing (`x{{ copies }}{{ mark('vp', 'copies') }}`);
- `_('words')` and `ngettext('{n} rope', '{n} ropes', count)`: the layout's own words in the language of the
  build (generator.i18n), with `{name}` filled from keywords (`_('Floor {n}', n=tile.floor)`);
- in a rows box, `item` (the row) and `index` (from 1).

Text is written as the drawing's language writes it (French spaces before `; : ! ?`, its quotation marks:
generator.i18n.typography) once its template has run. Any problem naming a card raises with the deck, the card,
the layout file and line and the box: a template reading a field the card lacks is a :class:`ContentError`, text
that cannot fit is a :class:`FitError`. The icons a card names that do not exist are gathered over all its boxes
and named together.

An `image` box draws a picture file (generator.render.images): one the layout names is found when the layout
loads; one a card's column names is relative to the deck's folder and must lie inside the content folder. A
missing, damaged or oversized picture is an error naming the card's row, the column and the file.
"""

import math
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from generator.catalog.common import CONFIDENCE_WORDS, Provenance
from generator.catalog.shapes import Shape
from generator.errors import ContentError, FitError, Problem
from generator.files import resolve_within
from generator.i18n import Language, language, phrase, phrase_n
from generator.layout.load import (
    EPSILON,
    TEXT_KINDS,
    ColourSpec,
    FillSpec,
    Frame,
    GradientSpec,
    Layout,
    LayoutBox,
    StyleSpec,
    box_reach,
    box_turn,
    unknown_icon,
)
from generator.layout.spec import HEX, dictionary
from generator.layout.templates import Template, TemplateFailure, Undefined, translators
from generator.render import fonts
from generator.render.colour import PALETTE
from generator.render.icons import icons
from generator.render.model import (
    Circle,
    Drawing,
    Gradient,
    Group,
    IconUse,
    ImageUse,
    Line,
    Op,
    Paint,
    Path as Outline,
    Primitive,
    Rect,
)
from generator.render.text import (
    Fitted,
    MissingGlyphs,
    NoFit,
    Style,
    TextProblem,
    UnknownIcons,
    block_height,
    escape_markup,
    fit,
    icon_picture,
    largest_fit,
    layout_runs,
    parse,
    why_not,
    wrap,
)
from generator.resources import display_path
from generator.sayings import quote
from generator.units import to_mm

#: How far a label keeps inside its round badge, as a fraction of the badge: the square inscribed in a circle
#: leaves about 15% of the diameter on each side.
BADGE_INSET = 0.15
#: The hairline between rows: thin enough to recede, thick enough that every printer shows it.
DIVIDER_WIDTH = 0.4
#: Errors a template can raise at run time on a user's data (a missing field, a sum of text and number...).
_RUNTIME = (LookupError, TypeError, ValueError, ArithmeticError, AttributeError)


class CardView(NamedTuple):
    """What templates see as `card`."""

    id: str
    name: str
    copies: int
    fields: Mapping[str, Any] = {}  # noqa: RUF012 - never mutated
    #: its name in a second language (`--also`), printed small under the title; empty when none was asked for
    also: str = ""

    def get(self, name: str) -> Any:
        """The value named `name`, ignoring case and surrounding spaces, or None when there is none."""
        key = name.strip().lower()
        for column, value in self.fields.items():
            if column.strip().lower() == key:
                return value
        return None


class DeckView(NamedTuple):
    """What templates see as `deck`."""

    id: str
    name: str
    game: str
    game_name: str
    cards: int
    #: whether the deck's pieces are cut as rectangles (cards, round corners or not), not along another outline
    #: (hexagons, tokens): a layout meant for any deck draws a rectangular frame only on cards. A plain name, so
    #: that `when: deck.rectangular` takes the templates' fast path (no jinja2 for the plain back)
    rectangular: bool = True


class Subject:
    """What is being drawn: the values templates read, the provenance of those values, and how to name it."""

    __slots__ = ("context", "provenance", "who", "key", "folder", "root", "lang", "own_language")

    context: Mapping[str, Any]
    provenance: Mapping[str, Provenance]
    #: for messages: `guildhall/old-world-economy-professions: card assassin-red`
    who: str
    #: what the drawing is called when it is placed more than once (None: drawn where it is placed)
    key: str | None
    #: where a picture a card names is found (the deck's folder), and the folder it must stay inside
    folder: Path | None
    root: Path | None
    #: the language it is drawn in: the layout's own words, the typography of its text, hyphenation
    lang: Language
    #: drawn in its deck's own language (a style's `language` is then its text's; else `lang` is)
    own_language: bool

    def __init__(self, context: Mapping[str, Any], provenance: Mapping[str, Provenance], who: str,
                 key: str | None = None, folder: Path | None = None, root: Path | None = None,
                 lang: Language = language(), own_language: bool = True) -> None:
        self.context = context
        self.provenance = provenance
        self.who = who
        self.key = key
        self.folder = folder
        self.root = root
        self.lang = lang
        self.own_language = own_language


def subject(data: Mapping[str, Any], card: CardView | None, deck: DeckView, provenance: Mapping[str, Provenance],
            who: str, key: str | None = None, folder: Path | None = None, root: Path | None = None,
            lang: Language | None = None, own_language: bool = True) -> Subject:
    """The values a layout reads for a card (or, with `card` None, for the deck's back), in `lang` (English);
    `own_language`: the deck's own language (its texts as written, not translated)."""
    lang = lang or language()
    context: dict[str, Any] = {k: v for k, v in data.items() if k not in ("card", "deck", "mark", "_", "ngettext")}
    context.update(translators(lang))
    context["deck"] = deck
    if card is not None:
        context["card"] = card

    def mark(record: str, name: str) -> str:
        if record not in data:
            raise ValueError(f"mark: {record!r} is not a value of this card (values: {', '.join(data) or 'none'})")
        found = provenance.get(record)
        return "{inferred}" if found is not None and found.of(name) is not None else ""

    context["mark"] = mark
    return Subject(context, provenance, who, key, folder, root or folder, lang, own_language)


def draw(layout: Layout, what: Subject, width: float, height: float, bleed: float, shape: Shape | None = None,
         guides: bool = False) -> Drawing:
    """The drawing of one card or back on a card of `width` x `height` points, with `bleed` around it; a piece of
    another `shape` than a rectangle is cut along it (everything drawn stays inside it and its bleed). `guides`
    draws the cut line, the bleed's edge and the safe area over it."""
    PALETTE.set(layout.palette)  # for `ink`, which reads a colour's name as `fill:` does
    frames = layout.frames(width, height, shape)
    items: list[Primitive] = []
    missing: list[tuple[LayoutBox, UnknownIcons]] = []
    glyphless: list[CardFitError] = []
    for box, frame in zip(layout.boxes, frames):
        try:
            items.extend(_box(layout, box, frame, what, width, height, bleed))
        except CardFitError as err:
            if isinstance(err.cause, UnknownIcons):
                missing.append((box, err.cause))
            elif isinstance(err.cause, MissingGlyphs):
                glyphless.append(err)
            else:
                raise
        except Exception as err:
            # an icon of one's own in text, changed since its layout was loaded (the picture module is imported
            # only by a deck that has pictures: without it, no picture problem can have been raised)
            images = sys.modules.get("generator.render.images")
            if images is None or not isinstance(err, images.ImageProblem):
                raise
            raise _content_error(layout, box, box.kind, what, f"an icon cannot be drawn: {err}") from None
    if missing:
        raise _icons_error(what, missing)
    if glyphless:
        raise _glyphs_error(glyphless)
    background = _colour(layout, None, "background", layout.background, what)
    outline = None
    if shape is not None and (shape.kind != "rect" or any(shape.radii)):
        from generator.render.shapes import outline as shape_outline

        outline = shape_outline(shape, 0.0, 0.0, width, height)
        edge = shape_outline(shape, 0.0, 0.0, width, height, bleed) if bleed else outline
        # the piece's background, decoration as a card's is (`--ink light` drops a card's, lightens this one)
        inside = (Group((Outline(edge, Paint(background)),), decoration=True),) if background is not None else ()
        items = [Group((*inside, *items), clip=edge)]
        background = None
    if guides:
        from generator.render.guides import guide_lines

        items.extend(guide_lines(shape, width, height, bleed, layout.safe))
    return Drawing(round(width, 3), round(height, 3), tuple(items), bleed, what.key, background, outline)


def shown_boxes(layout: Layout, what: Subject, width: float, height: float, shape: Shape | None = None
                ) -> list[tuple[LayoutBox, tuple[float, float, float, float]]]:
    """The boxes drawn on this card or back (those whose `when` holds), each with the rectangle it covers on a card
    of `width` x `height` points, turned as it is: where its text, icon or picture can print."""
    frames = layout.frames(width, height, shape)
    shown = []
    for box, frame in zip(layout.boxes, frames):
        when = box.when
        if when is not None and not _evaluate(layout, box, "when", lambda: when(what.context), what):
            continue
        shown.append((box, box_reach(box, frame, width, height)))
    return shown


def printed_boxes(layout: Layout, what: Subject, width: float, height: float, shape: Shape | None = None,
                  wanted: Callable[[LayoutBox], bool] = lambda box: True
                  ) -> list[tuple[LayoutBox, tuple[float, float, float, float]]]:
    """The `wanted` boxes that print something on this card or back, each with the rectangle (x0, y0, x1, y1) of
    what it prints, turned as it is: its text as set (the lines' letters, by the metrics they were set with,
    generator.render.shapes.printed_extent), not the box it was fitted in; its icon, picture or outline."""
    from generator.render.shapes import printed_extent

    PALETTE.set(layout.palette)  # as draw() does: `ink` reads a colour's name
    frames = layout.frames(width, height, shape)
    printed = []
    for box, frame in zip(layout.boxes, frames):
        if not wanted(box):
            continue
        # a text box's letters, not the dividers between its rows
        reach = printed_extent(_box(layout, box, frame, what, width, height, 0.0), box.kind in TEXT_KINDS)
        if reach is not None:
            printed.append((box, reach))
    return printed


def _icons_error(what: Subject, missing: list[tuple[LayoutBox, UnknownIcons]]) -> "CardFitError":
    """Every icon the card names that does not exist, with the boxes they are in, in one error."""
    names: list[str] = []
    boxes: list[str] = []
    for box, err in missing:
        names += [n for n in err.names if n not in names]
        boxes.append(box.name)
    first, err = missing[0]
    shown = UnknownIcons(names, err.known, err.own).describe()
    where = ", ".join(repr(b) for b in boxes)
    line = f":{first.line}" if first.line else ""

    def said(place: str) -> str:
        # TRANSLATORS: {place} is empty or the layout's file and line, after a comma
        return phrase_n("{who}: {problem} (in box {boxes}{place})", "{who}: {problem} (in boxes {boxes}{place})",
                        len(boxes), who=what.who, problem=shown, boxes=where, place=place)

    return CardFitError(said(f", {first.file}{line}"), Problem(first.file, first.line, f"{first.where}.text", said("")),
                        err)


def _glyphs_error(errors: list["CardFitError"]) -> "CardFitError":
    """Every character the card's texts cannot draw, box by box, in one error."""
    first = errors[0]
    if len(errors) == 1:
        return first
    message = "; ".join(err.args[0] for err in errors)
    return CardFitError(message, first.problem._replace(message="; ".join(err.problem.message for err in errors)),
                        first.cause)


def _box(layout: Layout, box: LayoutBox, frame: Frame, what: Subject, width: float, height: float,
         bleed: float) -> list[Primitive]:
    """The primitives of one box for one card (none when its `when` is false), turned and made transparent as the
    box says."""
    ctx = what.context
    when = box.when
    if when is not None and not _evaluate(layout, box, "when", lambda: when(ctx), what):
        return []
    items = _content(layout, box, frame, what, width, height, bleed)
    if items and (box.rotate or box.flip or box.opacity < 1 or box.decoration):
        matrix = box_turn(box, frame, width, height) if box.rotate or box.flip else None
        return [Group(tuple(items), matrix, box.opacity, decoration=box.decoration)]
    return items


def _content(layout: Layout, box: LayoutBox, frame: Frame, what: Subject, width: float, height: float,
             bleed: float) -> list[Primitive]:
    ctx = what.context
    items: list[Primitive] = []
    kind = box.kind
    if box.outline_kind is not None and kind != "image":
        items.extend(_shape(layout, box, frame, what, width, height, bleed))
    elif kind == "line":
        stroke = _colour(layout, box, "stroke", box.stroke, what)
        if stroke is not None:
            if box.ends is not None:
                x1, y1 = box.ends[0].resolve(width), box.ends[1].resolve(height)
                x2, y2 = box.ends[2].resolve(width), box.ends[3].resolve(height)
            else:
                x1, y1, x2, y2 = frame.x, frame.y, frame.x + frame.w, frame.y + frame.h
            items.append(Line(round(x1, 3), round(y1, 3), round(x2, 3), round(y2, 3), stroke, box.stroke_width,
                              box.dash, box.cap))
    elif kind == "icon":
        items.extend(_icon(layout, box, frame, what))
    elif kind == "image":
        items.extend(_image(layout, box, _bled(frame, box.bleed, bleed, width, height), what))
    elif kind == "text":
        assert box.text is not None and box.style is not None
        text = _render(layout, box, "text", box.text, ctx, what)
        items.extend(_text(layout, box, box.style, text, frame, what, "text"))
    elif kind == "rows":
        items.extend(_rows(layout, box, frame, what))
    elif kind == "notes":
        assert box.style is not None
        items.extend(_text(layout, box, box.style, notes_text(what.provenance, box.labels, what.lang), frame, what,
                           "notes"))
    return items


def _bled(frame: Frame, extend: bool, bleed: float, width: float, height: float) -> tuple[float, float, float, float]:
    x, y, w, h = frame.x, frame.y, frame.w, frame.h
    if extend and bleed > 0:
        if x <= EPSILON:
            x, w = x - bleed, w + bleed
        if y <= EPSILON:
            y, h = y - bleed, h + bleed
        if frame.x + frame.w >= width - EPSILON:
            w += bleed
        if frame.y + frame.h >= height - EPSILON:
            h += bleed
    return x, y, w, h


def _where(box: LayoutBox | None, key: str) -> str:
    return f"{box.where}.{key}" if box is not None else key


def _content_error(layout: Layout, box: LayoutBox | None, key: str, what: Subject, message: str) -> ContentError:
    file = box.file if box is not None else layout.file
    line = box.line if box is not None else None
    # TRANSLATORS: a card (deck, name and line) and what is wrong with it
    return ContentError([Problem(file, line, _where(box, key), phrase("{who}: {problem}", who=what.who,
                                                                      problem=message))])


def _evaluate(layout: Layout, box: LayoutBox | None, key: str, call: Any, what: Subject) -> Any:
    """Run a template or expression of the layout for a card; its failure names the card, the box and the key."""
    try:
        return call()
    except (TemplateFailure, *_RUNTIME) as err:
        raise _content_error(layout, box, key, what, _explain(err, what.context)) from None


def _explain(err: Exception, names: Mapping[str, Any]) -> str:
    text = str(err) or type(err).__name__
    if isinstance(err, Undefined):
        return f"{text} (the layout reads a value this card does not have{_meant(text, names)})"
    return text


def _meant(text: str, names: Mapping[str, Any]) -> str:
    """The name a template most likely meant when it read one the card does not have (`Color` for the table's
    `Colour`, `faction` for `Faction`), as a question; empty when none is close."""
    import difflib

    found = re.fullmatch(r"'(.+)' is undefined", text)
    if found is None:
        return ""
    read = found.group(1)
    known = {name.casefold(): name for name in names if isinstance(name, str) and not name.startswith("_")}
    close = difflib.get_close_matches(read.casefold(), list(known), n=1, cutoff=0.75)
    return f": did you mean {known[close[0]]!r}?" if close else ""


def _render(layout: Layout, box: LayoutBox | None, key: str, template: Template, ctx: Mapping[str, Any],
            what: Subject) -> str:
    result: str = _evaluate(layout, box, key, lambda: template.render(ctx), what)
    return result


def _colour(layout: Layout, box: LayoutBox | None, key: str, spec: ColourSpec, what: Subject,
            ctx: Mapping[str, Any] | None = None) -> str | None:
    if spec is None or isinstance(spec, str):
        return spec
    text = _render(layout, box, key, spec, ctx if ctx is not None else what.context, what).strip()
    if HEX.fullmatch(text):
        return text.lower()
    if text == "none":
        return None
    found = layout.palette.get(text)
    if found is None:
        raise _content_error(layout, box, key, what, f"the colour template gives {text!r}, which is neither "
                                                     f"'#rrggbb', 'none' nor a palette name "
                                                     f"({', '.join(layout.palette) or 'no palette'})")
    return found


def _fill(layout: Layout, box: LayoutBox, spec: FillSpec, what: Subject,
          area: tuple[float, float, float, float]) -> str | Gradient | None:
    """A shape's fill for this card: a colour, or a gradient laid across `area` (x, y, w, h)."""
    if not isinstance(spec, GradientSpec):
        return _colour(layout, box, "fill", spec, what)
    from generator.render.shapes import linear_span

    stops = []
    for offset, ink in spec.stops:
        colour = _colour(layout, box, "fill", ink, what)
        if colour is None:
            raise _content_error(layout, box, "fill", what, "a colour of the gradient gives 'none'")
        stops.append((offset, colour))
    x, y, w, h = area
    if spec.kind == "linear":
        return Gradient("linear", linear_span(x, y, w, h, spec.angle), tuple(stops))
    cx = x + spec.center[0].pt + spec.center[0].pct * w / 100
    cy = y + spec.center[1].pt + spec.center[1].pct * h / 100
    far = max(math.hypot(px - cx, py - cy) for px in (x, x + w) for py in (y, y + h))
    radius = max(0.01, spec.radius.pt + spec.radius.pct * far / 100)
    return Gradient("radial", (round(cx, 3), round(cy, 3), round(radius, 3)), tuple(stops))


def _paint(layout: Layout, box: LayoutBox, what: Subject, area: tuple[float, float, float, float]) -> Paint | None:
    fill = _fill(layout, box, box.fill, what, area)
    stroke = _colour(layout, box, "stroke", box.stroke, what)
    if fill is None and stroke is None:
        return None
    return Paint(fill, stroke, box.stroke_width if stroke else 0.0, box.dash if stroke else (),
                 box.cap)


def _outline(box: LayoutBox, kind: str, area: tuple[float, float, float, float]) -> tuple[Op, ...]:
    """The outline `kind` of a box inside `area` (x, y, w, h): its shape, or the clip of its picture."""
    from generator.render.shapes import fit_path, outline

    x, y, w, h = area
    if kind == "path":
        return fit_path(box.path, x, y, w, h, box.viewbox)
    points = tuple((px.pt / w + px.pct / 100, py.pt / h + py.pct / 100) for px, py in box.corners)
    return outline(Shape(kind, box.radii, box.sides, points, box.tips, box.inner, box.angle), x, y, w, h)


def _shape(layout: Layout, box: LayoutBox, frame: Frame, what: Subject, width: float, height: float,
           bleed: float) -> list[Primitive]:
    """A shape box: its outline filled (a colour or a gradient), hatched and stroked."""
    kind = box.kind
    area = _bled(frame, box.bleed, bleed, width, height) if kind == "rect" else (frame.x, frame.y, frame.w, frame.h)
    paint = _paint(layout, box, what, area)
    hatch = box.hatch
    ink = _colour(layout, box, "hatch", hatch.colour, what) if hatch is not None else None
    if paint is None and ink is None:
        return []
    x, y, w, h = area
    uniform = len(set(box.radii)) == 1
    if ink is None and paint is not None and kind == "rect" and uniform:
        return [Rect(x, y, w, h, paint, box.radii[0])]
    if ink is None and paint is not None and kind == "circle":
        return [Circle(frame.x + frame.w / 2, frame.y + frame.h / 2, min(frame.w, frame.h) / 2, paint)]
    ops = _outline(box, kind, area)
    if ink is None and paint is not None:
        return [Outline(ops, paint)]
    assert hatch is not None and ink is not None
    from generator.render.shapes import bounds, hatching

    out: list[Primitive] = []
    if paint is not None and paint.fill is not None:
        out.append(Outline(ops, paint._replace(stroke=None, width=0.0, dash=())))
    # every line one subpath of one path: a hundred cards of hatching are a hundred elements, not thousands
    lines = hatching(*bounds(ops), hatch.angle, hatch.spacing)
    out.append(Group((Outline(lines, Paint(None, ink, hatch.width), evenodd=False),), clip=ops))
    if paint is not None and paint.stroke is not None:
        out.append(Outline(ops, paint._replace(fill=None)))
    return out


def _style(layout: Layout, box: LayoutBox, spec: StyleSpec, key: str, what: Subject,
           ctx: Mapping[str, Any] | None = None) -> Style:
    colour = _colour(layout, box, key, spec.colour, what, ctx)
    if colour is None:
        raise _content_error(layout, box, key, what, "the text colour template gives 'none'")
    outline = _colour(layout, box, "outline", spec.outline, what, ctx) if spec.outline is not None else None
    hyphenation = spec.hyphenation
    if spec.hyphenate and (hyphenation is None or not what.own_language):
        # hyphenated in the language drawn in: asked without a language, or the text translated (--lang) from the
        # one the style names
        hyphenation = dictionary(what.lang.code)
    return Style(spec.face, spec.size, spec.min_size, colour, spec.align, spec.valign, spec.leading, spec.wrap,
                 hyphenation, spec.spacing, outline, spec.outline_width if outline else 0.0)


class CardFitError(FitError):
    """A card's text that does not fit (or cannot be drawn), with where the layout's box is written."""

    def __init__(self, message: str, problem: Problem, cause: TextProblem | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.cause = cause


def _fit_error(layout: Layout, box: LayoutBox, key: str, what: Subject, err: TextProblem) -> CardFitError:
    place = f"{box.file}:{box.line}" if box.line else box.file
    if isinstance(err, NoFit):
        said = phrase("{who}: the {key} of box {box} ({place}) does not fit: {reason}", who=what.who, key=key,
                      box=quote(box.name), place=place, reason=err)
        problem = phrase("{who}: does not fit: {reason}", who=what.who, reason=err)
    else:
        said = phrase("{who}: the {key} of box {box} ({place}) cannot be drawn: {reason}", who=what.who, key=key,
                      box=quote(box.name), place=place, reason=err)
        problem = phrase("{who}: cannot be drawn: {reason}", who=what.who, reason=err)
    return CardFitError(said, Problem(box.file, box.line, f"{box.where}.{key}", problem), err)


def _text(layout: Layout, box: LayoutBox, spec: StyleSpec, text: str, frame: Frame, what: Subject,
          key: str) -> list[Primitive]:
    if not text.strip():
        return []
    style = _style(layout, box, spec, "colour", what)
    text = fonts.typeset(what.lang, style.face, text)
    try:
        paragraphs = parse(text, style.face, layout.palette, layout.icons, style.spacing)
        if not paragraphs:
            return []
        fitted = fit(paragraphs, frame.w, frame.h, style)
    except TextProblem as err:
        raise _fit_error(layout, box, key, what, err) from None
    return layout_runs(fitted, frame.x, frame.y, frame.w, frame.h, style)


def _icon(layout: Layout, box: LayoutBox, frame: Frame, what: Subject) -> list[Primitive]:
    assert box.icon is not None
    name = _render(layout, box, "icon", box.icon, what.context, what).strip()
    if not name:
        return []
    side = min(frame.w, frame.h)
    x, y = frame.x + (frame.w - side) / 2, frame.y + (frame.h - side) / 2
    own = layout.icons.get(name)
    if own is not None:
        from generator.render.images import ImageProblem

        tint = _colour(layout, box, "colour", box.colour, what) if box.colour is not None else None
        try:
            return [icon_picture(str(own), x, y, side)._replace(tint=tint)]
        except ImageProblem as err:
            raise _content_error(layout, box, "icon", what, f"the icon {name!r} ({display_path(own)}): {err}") from None
    if name not in icons():
        raise _content_error(layout, box, "icon", what, f"the icon template gives {unknown_icon(name, layout.icons)}")
    if box.colour is None:
        raise _content_error(layout, box, "colour", what, f"the icon {name!r} is one of donjon's icons, drawn in a "
                                                          "colour: give the box a colour")
    colour = _colour(layout, box, "colour", box.colour, what)
    if colour is None:
        return []
    return [IconUse(name, round(x, 3), round(y, 3), round(side, 3), colour)]


def _image(layout: Layout, box: LayoutBox, area: tuple[float, float, float, float],
           what: Subject) -> list[Primitive]:
    """The picture of an image box, fitted to its box (extended into the bleed with `bleed: true`)."""
    from generator.render.images import ImageProblem, image_info

    assert box.src is not None
    path = box.src_path
    value = ""
    if path is None:
        value = _render(layout, box, "src", box.src, what.context, what).strip()
        if not value:
            return []
        if what.folder is None:
            raise _content_error(layout, box, "src", what, "pictures a card names are found in a deck's folder; this "
                                                           "deck has none")
        try:
            path = resolve_within(what.root or what.folder, what.folder, value)
        except ValueError as err:
            raise _picture_error(layout, box, what, value, None, str(err)) from None
    try:
        info = image_info(path)
    except ImageProblem as err:
        raise _picture_error(layout, box, what, value, path, str(err)) from None
    x, y, w, h = area
    tint = _colour(layout, box, "colour", box.colour, what) if box.colour is not None else None
    if box.fit == "stretch":
        picture = ImageUse(str(path), round(x, 3), round(y, 3), round(w, 3), round(h, 3), None, tint)
    else:
        wide = w / h > info.aspect
        if box.fit == "contain":
            pw, ph = (h * info.aspect, h) if wide else (w, w / info.aspect)
        else:
            pw, ph = (w, w / info.aspect) if wide else (h * info.aspect, h)
        across, down = _ANCHORS[box.anchor]
        px, py = x + (w - pw) * across, y + (h - ph) * down
        clip = (round(x, 3), round(y, 3), round(w, 3), round(h, 3)) if box.fit == "cover" else None
        picture = ImageUse(str(path), round(px, 3), round(py, 3), round(pw, 3), round(ph, 3), clip, tint)
    shaped = box.clip is not None and (box.clip != "rect" or any(box.radii))
    if not shaped and box.mask_path is None:
        return [picture]
    # a picture clipped to an outline of its box, or shown through a mask stretched over the box
    clip_ops = _outline(box, box.clip, area) if shaped and box.clip is not None else None
    mask = (ImageUse(str(box.mask_path), round(x, 3), round(y, 3), round(w, 3), round(h, 3))
            if box.mask_path is not None else None)
    return [Group((picture._replace(clip=None) if shaped else picture,), clip=clip_ops, mask=mask)]


#: Where an anchor puts a picture: its share of the free room to the left and above.
_ANCHORS = {"center": (0.5, 0.5), "top": (0.5, 0.0), "bottom": (0.5, 1.0), "left": (0.0, 0.5), "right": (1.0, 0.5),
            "top-left": (0.0, 0.0), "top-right": (1.0, 0.0), "bottom-left": (0.0, 1.0), "bottom-right": (1.0, 1.0)}


def _picture_error(layout: Layout, box: LayoutBox, what: Subject, value: str, path: Path | None,
                   reason: str) -> ContentError:
    """A picture that cannot be drawn: the card (and its row), the column it came from, the file and why."""
    assert box.src is not None
    card = what.context.get("card")
    fields = card.fields if isinstance(card, CardView) else {}
    columns = [c for c in fields if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", box.src.source)]
    source = (phrase("column {column} gives {value}", column=quote(columns[0]), value=quote(value)) if len(columns) == 1
              else phrase("columns {columns} give {value}", columns=", ".join(map(quote, columns)), value=quote(value))
              if columns else phrase("its src gives {value}", value=quote(value)) if value else f"{box.src.source!r}")
    shown = f" ({display_path(path)})" if path is not None else ""
    return _content_error(layout, box, "src", what, phrase("the picture: {source}{shown}: {reason}", source=source,
                                                         shown=shown, reason=reason))


def _rows(layout: Layout, box: LayoutBox, frame: Frame, what: Subject) -> list[Primitive]:
    """Rows of a round label badge and wrapped text (levels of a profession), sharing one text size."""
    assert box.items is not None and box.label is not None and box.text is not None
    assert box.style is not None and box.label_style is not None
    found = _evaluate(layout, box, "items", lambda: box.items(what.context), what)
    try:
        rows = list(found)
    except TypeError:
        raise _content_error(layout, box, "items", what, f"items gives {type(found).__name__}, not a list") from None
    if not rows:
        return []
    lw, gap, row_gap = box.label_width, box.gap, box.row_gap
    text_w = frame.w - lw - gap
    if text_w <= 0:
        raise _content_error(layout, box, "label_width", what, "the labels leave no room for the text")
    style = _style(layout, box, box.style, "colour", what)
    parsed = []
    for index, item in enumerate(rows):
        ctx = {**what.context, "item": item, "index": index + 1}
        label_style = _style(layout, box, box.label_style, "label_style", what, ctx)
        label = fonts.typeset(what.lang, label_style.face, _render(layout, box, "label", box.label, ctx, what))
        body = fonts.typeset(what.lang, style.face, _render(layout, box, "text", box.text, ctx, what))
        try:
            parsed.append((ctx, label, label_style, parse(label, label_style.face, layout.palette, layout.icons,
                                                          label_style.spacing),
                           parse(body, style.face, layout.palette, layout.icons, style.spacing)))
        except TextProblem as err:
            raise _fit_error(layout, box, "text", what, err) from None

    def heights(size: float) -> list[tuple[float, Any]] | None:
        out = []
        for _ctx, _label, _ls, _lp, paragraphs in parsed:
            lines = wrap(paragraphs, size, text_w, style.wrap, style.hyphens())
            if lines is None:
                return None
            tall = block_height(lines, size, style)
            out.append((tall, lines))
        total = sum(max(lw, t) for t, _ in out) + row_gap * (len(out) - 1)
        return out if total <= frame.h + 1e-6 else None

    chosen = largest_fit(style, heights)
    if chosen is None:
        need = []
        for *_, paragraphs in parsed:
            lines = wrap(paragraphs, style.min_size, text_w, style.wrap, style.hyphens())
            if lines is None:  # a word wider than the text column
                raise _fit_error(layout, box, "text", what, NoFit(why_not(paragraphs, text_w, frame.h, style)))
            need.append(block_height(lines, style.min_size, style))
        total = sum(max(lw, n) for n in need) + row_gap * (len(need) - 1)
        raise _fit_error(layout, box, "text", what, NoFit(
            f"its {len(rows)} rows need {to_mm(total):.1f} mm at {style.min_size:g} pt, the smallest size "
            f"allowed, but the box is {to_mm(frame.h):.1f} mm tall"))
    size, measured = chosen
    total = sum(max(lw, t) for t, _ in measured) + row_gap * (len(measured) - 1)
    y = frame.y + ((frame.h - total) / 2 if style.valign == "middle" else frame.h - total
                   if style.valign == "bottom" else 0)
    out: list[Primitive] = []
    for index, ((ctx, label, label_style, label_parsed, _p), (tall, lines)) in enumerate(zip(parsed, measured)):
        row_h = max(lw, tall)
        fill = _colour(layout, box, "label_fill", box.label_fill, what, ctx)
        if fill is not None:
            out.append(Circle(round(frame.x + lw / 2, 3), round(y + lw / 2, 3), round(lw / 2, 3), Paint(fill)))
        if label_parsed:
            inset = lw * BADGE_INSET if fill is not None else 0.0
            try:
                fitted_label = fit(label_parsed, lw - 2 * inset, lw - 2 * inset, label_style)
            except TextProblem as err:
                raise _fit_error(layout, box, "label", what, err) from None
            out.extend(layout_runs(fitted_label, frame.x + inset, y + inset, lw - 2 * inset, lw - 2 * inset,
                                   label_style._replace(align="center", valign="middle")))
        text_y = y + (row_h - tall) / 2
        out.extend(layout_runs(Fitted(size, tuple(lines), tall), frame.x + lw + gap, text_y, text_w, tall,
                               style._replace(size=size, min_size=size, valign="top")))
        y += row_h
        divider = _colour(layout, box, "divider", box.divider, what, ctx)
        if divider is not None and index < len(parsed) - 1:
            mid_y = round(y + row_gap / 2, 3)
            out.append(Line(round(frame.x, 3), mid_y, round(frame.x + frame.w, 3), mid_y, divider, DIVIDER_WIDTH))
        y += row_gap
    return out


def _humanise(name: str) -> str:
    return re.sub(r"[._]+", " ", name).strip()


def notes_text(provenance: Mapping[str, Provenance], labels: Mapping[str, str], lang: Language | None = None) -> str:
    """The small print of a card: each value no rulebook states, grouped by how sure we are.

    One line per confidence, in the order the catalog lists the inferences: `{inferred} level thresholds: best
    reading, not official`. A layout's `labels` say how to call each `record.field` on the card (in `lang`: the
    labels are messages of the layout, extracted by generator.i18n.extract).
    """
    lang = lang or language()
    groups: dict[str, list[str]] = {}
    for record, prov in provenance.items():
        for inferred in prov.inferred:
            names = groups.setdefault(inferred.confidence, [])
            for name in inferred.fields:
                given = labels.get(f"{record}.{name}")
                label = lang._(given) if given else _humanise(name)
                if label not in names:
                    names.append(label)
    return "\n".join(f"{{inferred}} {escape_markup(', '.join(names))}: {lang._(CONFIDENCE_WORDS[confidence])}"
                     for confidence, names in groups.items())
