"""Print services as data: `templates/services/NAME.yaml`, one file per service, each rule with its source.

A service's file says how it wants a deck: one PDF or one image per face (`delivery`), how the pages follow each
other (`order`: `back-front`, `front-back`, or `faces`: one page per printed face, a shared back once), how files
are named, the cut (`trim`: the card's size rounded to 1/8 in, or the card's own), bleed and safe margins, the
pictures' resolution (`min_dpi`: below it the service refuses; below 300 dpi a warning), colour (`rgb` or `cmyk`
through an ICC profile of `templates/icc/`, with its printing condition), total ink, rich black, PDF/X, and text
in embedded fonts or as outlines, and whether it rounds cards' corners (`corners`: `standard`, `option`, `square`,
or `not-stated` where no page of the service read says), and the sizes of the products it cuts cards at (`products`:
each with its source and confidence; a deck cut at no such size is warned about, naming the nearest). `provenance`
gives each rule its `source` (an entry of `sources`, with the address and the date it was read) and what the source
says in our words, or, for a rule no page of the service could be read for, a `confidence` (M or L) and a `note`: such a rule is donjon's choice and an option of
`donjon export --service`, never shown as the service's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, cast

from generator.catalog.common import CardSize, Length
from generator.errors import ContentError, UsageError
from generator.fields import (
    Choice,
    Field,
    Int,
    ListOf,
    MapOf,
    Nullable,
    Number,
    Record,
    Slug,
    Text,
    check_document,
)
from generator.render.ink import PressSettings
from generator.resources import templates_dir
from generator.units import MM_PER_INCH, PT_PER_INCH, PT_PER_MM

Delivery = Literal["pdf", "png"]
Order = Literal["back-front", "front-back", "faces"]
PdfX = Literal["", "x1a", "x4"]
#: Whether a service rounds its cards' corners: as standard, as an option to order, never (square corners), or
#: not stated by any page of it read (what the `shape` warning then says, rule `corners`).
Corners = Literal["standard", "option", "square", "not-stated"]
#: The rules a service's `provenance` may speak for: its fields that are rules (not its name and sources).
RULES = ("delivery", "file_name", "order", "trim", "bleed", "safe", "dpi", "min_dpi", "colour", "profile",
         "condition", "ink_limit", "rich_black", "pdfx", "text", "images", "corners", "products")
#: Below this many dots per inch at print size, a picture is warned about whatever the service's minimum.
GOOD_DPI = 300
#: How far below a resolution a picture may be drawn and still meet it: the report gives whole dpi, and a PDF writer
#: rounding a picture's size in the drawing (to a hundredth of a point) draws 825 px over 198.01 pt, 299.98 dpi:
#: "drawn at 300 dpi, below the 300 dpi DriveThruCards asks" was refused.
DPI_TOLERANCE = 0.5
#: How far a deck's cut may miss a product's size and be that product: a tenth of a millimetre, in points (the cut is
#: a whole eighth of an inch for the services that round to those, a product's size one too).
PRODUCT_TOLERANCE = 0.2835
#: What a picture's resolution at print size is, for a service: below the service's `min_dpi`, below GOOD_DPI only
#: (it may print soft), or None (good).
Resolution = Literal["below-minimum", "soft"]


@dataclass(frozen=True)
class Source:
    id: str
    url: str
    title: str
    read: str


@dataclass(frozen=True)
class Product:
    """A card product a service cuts (The Game Crafter's Poker Deck: 2.5 x 3.5 in), with where its size was read:
    `source` an entry of the service's `sources`, `confidence` how sure that reading is (H: the service's own page)."""

    name: str
    #: in points
    width: float
    #: in points
    height: float
    source: str | None = None
    confidence: str | None = None
    note: str = ""

    def distance(self, width: float, height: float) -> float:
        """How far a cut of `width` x `height` points is from this product's, turned whichever way is nearer: the
        two sides' differences added, in points (a 2.75 in square is nearer a poker card than a bridge card)."""
        return min(abs(self.width - w) + abs(self.height - h) for w, h in ((width, height), (height, width)))


@dataclass(frozen=True)
class RuleSource:
    """Where one rule of a service comes from: a source and what it says, or a confidence and a note."""

    source: str | None = None
    says: str = ""
    confidence: str | None = None
    note: str = ""

    @property
    def confirmed(self) -> bool:
        return self.source is not None


#: What donjon checks of every service without a page of the service stating it.
OWN_RULES = {"shape": RuleSource(confidence="M", note="a service cuts the outline of the product ordered, not the one a "
                                                      "file draws; donjon read no product of a shape of its own"),
             # a PDF/X service's files carry no encryption (its `pdfx` rule); of the others, no page read says
             "encryption": RuleSource(confidence="L", note="no page of the service read says whether it takes a "
                                                           "PDF protected by an owner password; prepress programs "
                                                           "that honour its permissions may not change or print it")}


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    aliases: tuple[str, ...]
    sources: tuple[Source, ...]
    delivery: Delivery
    file_name: str
    order: Order
    trim: Literal["eighth-inch", "card"]
    #: in points
    bleed: float
    #: in points
    safe: float
    dpi: int
    min_dpi: int
    colour: Literal["rgb", "cmyk"]
    profile: str
    condition: str
    ink_limit: float | None
    rich_black: tuple[float, float, float, float] | None
    pdfx: PdfX
    text: Literal["embedded", "outlines"]
    corners: Corners
    provenance: dict[str, RuleSource]
    #: the card products it cuts, by the sizes read for them (empty: donjon read none, and checks no size)
    products: tuple[Product, ...] = ()
    #: the file it was read from
    file: str = ""

    def cut(self, size: CardSize) -> tuple[float, float]:
        """The width and height, in points, this service cuts a card of `size` at: its size rounded to the nearest
        eighth of an inch (`trim: eighth-inch`), else its own."""
        if self.trim == "eighth-inch":
            return eighth_inch(size.width_mm) * PT_PER_INCH, eighth_inch(size.height_mm) * PT_PER_INCH
        return size.width_pt, size.height_pt

    def product(self, width: float, height: float) -> tuple[Product | None, Product | None]:
        """The product cut at `width` x `height` points (either way up, to PRODUCT_TOLERANCE), else None, and the
        nearest product (None when the service lists none)."""
        if not self.products:
            return None, None
        nearest = min(self.products, key=lambda p: (p.distance(width, height), p.width * p.height))
        return (nearest if nearest.distance(width, height) <= PRODUCT_TOLERANCE else None), nearest

    def resolution(self, dpi: float) -> Resolution | None:
        """How a picture printed at `dpi` dots per inch is judged for this service; one rule for the PDF's preflight
        (generator.prepress.preflight) and the image services' export (generator.export.resolution)."""
        if dpi < self.min_dpi - DPI_TOLERANCE:
            return "below-minimum"
        if dpi < GOOD_DPI - DPI_TOLERANCE:
            return "soft"
        return None

    def rule(self, name: str) -> RuleSource:
        return self.provenance.get(name, OWN_RULES.get(name, RuleSource(confidence="L",
                                                                      note="not stated by any source read")))

    def cite(self, name: str, said: bool = False) -> str:
        """Where a rule comes from, in words: `spec-de (read 2026-11-26): ...` or `not confirmed (M): ...`; `said`:
        its own words in the language of the messages (what the service's pages say is quoted as read)."""
        found = self.rule(name)
        if found.source is None:
            if said:
                from generator.i18n import phrase

                return phrase("not confirmed by the service (confidence {confidence}): {note}",
                              confidence=found.confidence, note=found.note)
            return f"not confirmed by the service (confidence {found.confidence}): {found.note}"
        source = next((s for s in self.sources if s.id == found.source), None)
        if source is not None and said:
            from generator.i18n import phrase

            where = phrase("{title}, {address}, read {date}", title=source.title, address=source.url,
                           date=source.read)
        else:
            where = f"{source.title}, {source.url}, read {source.read}" if source else found.source
        return f"{found.says} ({where})"

    def press(self, colour: str | None = None, profile: Path | None = None, pdfx: str | None = None) -> PressSettings:
        """How this service's PDFs are made, with the command line's choices over the service's own."""
        space = colour or self.colour
        if space == "rgb":
            return PressSettings(outline_text=self.text == "outlines")
        chosen = profile or icc_profile(self.profile or "fogra39")
        return PressSettings("cmyk", chosen, self.condition if profile is None else chosen.stem, self.ink_limit,
                             self.rich_black, cast(PdfX, self.pdfx if pdfx is None else pdfx),
                             self.text == "outlines", max(self.dpi, self.min_dpi))


def eighth_inch(size_mm: float) -> float:
    """A card's side in inches, rounded to the nearest eighth of an inch (at least one eighth): the size a service
    cutting at fractions of an inch cuts it at."""
    return max(1, round(size_mm / MM_PER_INCH * 8)) / 8


def icc_profile(name: str) -> Path:
    """A profile donjon ships (`templates/icc/NAME.icc`)."""
    return templates_dir() / "icc" / f"{name}.icc"


def _rule_source(source: str | None, says: str, confidence: str | None, note: str) -> RuleSource:
    return RuleSource(source, says, confidence, note)


def _service(id: str, name: str, aliases: tuple[str, ...], sources: tuple[Source, ...], delivery: str,
             file_name: str, order: str, trim: str, bleed: float, safe: float, dpi: int, min_dpi: int, colour: str,
             profile: str, condition: str, ink_limit: float | None, rich_black: tuple[float, ...] | None, pdfx: str,
             text: str, corners: str, provenance: dict[str, RuleSource], products: tuple[Product, ...]) -> Service:
    black = None if rich_black is None else (rich_black[0], rich_black[1], rich_black[2], rich_black[3])
    return Service(id, name, aliases, sources, cast(Delivery, delivery), file_name, cast(Order, order),
                   cast(Any, trim), bleed * PT_PER_MM, safe * PT_PER_MM, dpi, min_dpi, cast(Any, colour), profile,
                   condition, ink_limit, black, cast(PdfX, pdfx), cast(Any, text), cast(Corners, corners),
                   provenance, tuple(products))


SOURCE: Record[Source] = Record(name="source", build=Source, fields={
    "id": Field(Slug()), "url": Field(Text(pattern=r"https?://\S+", hint="an http(s) address")),
    "title": Field(Text()), "read": Field(Text(pattern=r"\d{4}-\d{2}-\d{2}", hint="a date like 2026-11-26"))})


def _product(name: str, width: float, height: float, source: str | None, confidence: str | None,
             note: str) -> Product:
    return Product(name, width * PT_PER_MM, height * PT_PER_MM, source, confidence, note)


PRODUCT: Record[Product] = Record(name="product", build=_product, fields={
    "name": Field(Text(max_len=80)), "width": Field(Length(5.0, 500.0)), "height": Field(Length(5.0, 500.0)),
    "source": Field(Nullable(Slug()), required=False),
    "confidence": Field(Choice(("H", "M", "L"))),
    "note": Field(Text(), required=False, default="")})
RULE_SOURCE: Record[RuleSource] = Record(name="rule source", build=_rule_source, fields={
    "source": Field(Nullable(Slug()), required=False), "says": Field(Text(), required=False, default=""),
    "confidence": Field(Nullable(Choice(("H", "M", "L"))), required=False),
    "note": Field(Text(), required=False, default="")})
SERVICE: Record[Service] = Record(name="print service", build=_service, fields={
    "id": Field(Slug()),
    "name": Field(Text(max_len=80)),
    "aliases": Field(ListOf(Slug()), required=False, default=()),
    "sources": Field(ListOf(SOURCE, min_items=1, label="id")),
    "delivery": Field(Choice(("pdf", "png"))),
    "file_name": Field(Text(pattern=r"[^/\\]*\{(deck|card)\}[^/\\]*", hint="a file name holding {deck} or {card}")),
    "order": Field(Choice(("back-front", "front-back", "faces"))),
    "trim": Field(Choice(("eighth-inch", "card"))),
    "bleed": Field(Length(0.0, 6.35)),
    "safe": Field(Length(0.0, 10.0)),
    "dpi": Field(Int(72, 1200)),
    "min_dpi": Field(Int(0, 1200)),
    "colour": Field(Choice(("rgb", "cmyk"))),
    "profile": Field(Text(min_len=0, pattern=r"[a-z0-9-]*", hint="the name of a profile in templates/icc")),
    "condition": Field(Text(min_len=0)),
    "ink_limit": Field(Nullable(Number(100, 400))),
    "rich_black": Field(Nullable(ListOf(Number(0, 100), min_items=4, max_items=4))),
    "pdfx": Field(Choice(("", "x1a", "x4"))),
    "text": Field(Choice(("embedded", "outlines"))),
    "corners": Field(Choice(("standard", "option", "square", "not-stated"))),
    "provenance": Field(MapOf(Choice(RULES, what="rule"), RULE_SOURCE)),
    "products": Field(ListOf(PRODUCT, label="name"), required=False, default=()),
})


def services_dir() -> Path:
    return templates_dir() / "services"


@cache
def all_services() -> tuple[Service, ...]:
    """Every service donjon knows, by id (a file that breaks the format is a content error naming it)."""
    from generator.resources import display_path
    from generator.yamlio import load_file

    found = []
    problems = []
    for path in sorted(services_dir().glob("*.yaml")):
        value, broken = check_document(load_file(path, display=display_path(path)), SERVICE)
        problems += broken
        if isinstance(value, Service):
            named = {r.source for r in value.provenance.values()} | {p.source for p in value.products}
            unknown = {n for n in named if n} - {s.id for s in value.sources}
            if unknown:
                from generator.errors import Problem

                problems.append(Problem(display_path(path), None, "provenance",
                                        f"names sources that are not listed: {', '.join(sorted(unknown))}"))
            if value.corners != "not-stated" and not value.rule("corners").confirmed:
                from generator.errors import Problem

                # a service's policy on corners is said to a user as the service's own: never without its page
                problems.append(Problem(display_path(path), None, "corners",
                                        f"says {value.corners!r} without a source in provenance (else not-stated)"))
            found.append(Service(**{**value.__dict__, "file": display_path(path)}))
    if problems:
        raise ContentError(problems)
    return tuple(found)


def find_service(name: str) -> Service:
    """The service called `name` (its id or an alias, any case), or a usage error listing them."""
    key = name.strip().lower()
    for service in all_services():
        if key == service.id or key in service.aliases:
            return service
    known = ", ".join(f"{s.id} ({', '.join(s.aliases)})" if s.aliases else s.id for s in all_services())
    from generator.i18n import phrase
    from generator.sayings import phrase_quoted

    raise UsageError("--service", phrase("{value} is not a print service donjon knows: {services}",
                                         value=phrase_quoted(name, None), services=known))
