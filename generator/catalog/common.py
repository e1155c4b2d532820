"""Records and catalog pieces shared by the three games: provenance, card sizes, game info and decks.

Provenance is how the catalogs stay honest. A record's `rulebook` names the rulebook section its facts come
from. Any value that no rulebook states is listed under `inferred`, with the fields it covers, where the value
comes from and how sure we are: H (two sources agree, or arithmetic on stated facts), M (one secondary source
or a strong inference), L (a weak inference) or `house` (a default donjon chose because a printable sheet needs
a value; change it freely). Cards, sheets and references mark every inferred value as not official.
"""

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal, NamedTuple, TypeVar

from generator.fields import (
    AnyOf,
    Checker,
    Choice,
    Field,
    ListOf,
    MapOf,
    Nullable,
    Record,
    Rule,
    Slug,
    Text,
    Type,
    normalise_name,
)
from generator.i18n import N_, phrase, phrase_figure
from generator.sayings import quote
from generator.units import MM_PER_UNIT, mm
from generator.yamlio import PathKey

T = TypeVar("T")

Confidence = Literal["H", "M", "L", "house"]
CONFIDENCES: tuple[Confidence, ...] = ("H", "M", "L", "house")

#: How each confidence is said on a printed card or sheet (in English: translated where shown, `lang._(...)`).
CONFIDENCE_WORDS: Mapping[str, str] = {
    "H": N_("derived, not printed in the rules"),
    "M": N_("best reading, not official"),
    "L": N_("a guess, not official"),
    "house": N_("house default, not official"),
}


class Inferred(NamedTuple):
    """Values of a record that no rulebook states: which fields, from where, and how sure we are."""

    fields: tuple[str, ...]
    source: str
    confidence: Confidence


class Translation(NamedTuple):
    """A record's texts in one language, and where each comes from: a rulebook printed in that language
    (`rulebook`: field -> section), another source (`inferred`: an edition's term known from a review), or, for
    every other field, donjon's own translation (`house`, never shown as official)."""

    values: Mapping[str, Any]
    rulebook: Mapping[str, str] = {}  # noqa: RUF012 - shared and never mutated
    inferred: tuple[Inferred, ...] = ()

    def source(self, field_name: str) -> tuple[Literal["rulebook", "source", "house"], str, Confidence | None]:
        """Where the translation of `field_name` comes from: ("rulebook", section, None), ("source", the source,
        its confidence) or ("house", "", None)."""
        top = field_name.split(".")[0]
        if top in self.rulebook:
            return "rulebook", self.rulebook[top], None
        for entry in self.inferred:
            if top in entry.fields:
                return "source", entry.source, entry.confidence
        return "house", "", None


#: The mark of a text donjon translated itself (Provenance.by_donjon), wherever it is shown (the references, the
#: sheets, the companion): never shown as official.
HOUSE_MARK = "†"


class Provenance(NamedTuple):
    """Where a record's values come from, and its texts in other languages (`translations`, by language code;
    `lang` is the language the record was localised to, None when it holds the catalog's own words)."""

    rulebook: str | None
    inferred: tuple[Inferred, ...]
    translations: Mapping[str, Translation] = {}  # noqa: RUF012 - shared and never mutated
    lang: str | None = None

    def __hash__(self) -> int:
        # catalogs are frozen values, cached by what they hold (a castle's drawn sheets); a record's translations
        # are a mapping, unhashable, and equal records have equal translations: the hash leaves them out
        return hash((self.rulebook, self.inferred, self.lang))

    def translated(self, field_name: str) -> tuple[Literal["rulebook", "source", "house"], str,
                                                   Confidence | None] | None:
        """Where the text of `field_name` in the record's language comes from; None for the catalog's own words
        (not localised, or a field this language does not translate: it falls back to them)."""
        found = self.translations.get(self.lang) if self.lang else None
        top, _, sub = field_name.partition(".")
        given = found.values.get(top) if found is not None else None
        if found is None or given is None:
            return None
        if sub and not any(isinstance(item, Mapping) and item.get(sub) for item in given):
            return None  # `levels.at` of translated `levels.effect`: the numbers are the catalog's own
        return found.source(field_name)

    def by_donjon(self, field_name: str = "name") -> bool:
        """Whether the text of `field_name` in the record's language is donjon's own translation (`house`)."""
        found = self.translated(field_name)
        return found is not None and found[0] == "house"

    def of(self, field_name: str) -> Inferred | None:
        """The inference covering `field_name` (`levels.at` is covered by `levels`), or None if stated."""
        for entry in self.inferred:
            for name in entry.fields:
                if field_name == name or field_name.startswith(name + "."):
                    return entry
        return None

    @property
    def weakest(self) -> Confidence | None:
        """The lowest confidence among this record's inferred values (None when all are stated)."""
        if not self.inferred:
            return None
        return max((i.confidence for i in self.inferred), key=CONFIDENCES.index)


INFERRED: Record[Inferred] = Record(
    name="inferred values",
    doc="Values of this entry that no rulebook states.",
    fields={
        "fields": Field(ListOf(Text(max_len=80, pattern=r"[a-z_]+(?:\.[a-z_]+)*",
                                    hint=N_("a field name like 'copies'")),
                               min_items=1), doc="the fields of this entry the inference covers"),
        "source": Field(Text(max_len=600), doc="where the value comes from: a source, or the reasoning"),
        "confidence": Field(Choice(CONFIDENCES, what="confidence"),
                            doc="H: sources agree or arithmetic; M: one source or a strong inference; "
                                "L: a weak inference; house: a default donjon chose, change it freely"),
    },
    build=Inferred,
)


def provenance_fields() -> dict[str, Field]:
    """The `rulebook` and `inferred` keys every catalog entry may carry."""
    return {
        "rulebook": Field(Text(max_len=300), required=False,
                          doc="the rulebook and section the stated values of this entry come from"),
        "inferred": Field(ListOf(INFERRED), required=False, default=(),
                          doc="values of this entry that no rulebook states, with their source and confidence"),
    }


#: A language code as a catalog's `translations` keys it: `fr`, `de`, `pt-BR`.
LANGUAGE_CODE = Text(max_len=10, pattern=r"[a-z]{2,3}(-[A-Z]{2})?", hint=N_("a language code such as fr or de"))


def translatable(fields: Mapping[str, Field]) -> dict[str, Field]:
    """The fields of an entry a translation may give: its free texts (not ids, choices or patterned text), lists
    of texts, and the texts of the records of its lists (a translation gives those as a list, one per item)."""
    out: dict[str, Field] = {}
    for name, spec in fields.items():
        kind = spec.type.inner if isinstance(spec.type, Nullable) else spec.type
        if type(kind) is Text and kind.pattern is None:
            out[name] = Field(Text(max_len=kind.max_len * 2), required=False, doc=f"the {name} in this language")
        elif isinstance(kind, ListOf) and type(kind.item) is Text and kind.item.pattern is None:
            out[name] = Field(ListOf(Text(max_len=kind.item.max_len * 2), max_items=kind.max_items), required=False,
                              doc=f"the {name} in this language, one per item")
        elif isinstance(kind, ListOf) and isinstance(kind.item, Record):
            inner = translatable(kind.item.fields)
            if inner:
                item: Record[dict[str, Any]] = Record(name=f"{kind.item.name} in another language", fields=inner)
                out[name] = Field(ListOf(Nullable(item), max_items=kind.max_items), required=False,
                                  doc=f"the texts of each of the {name} in this language, in their order")
    return out


def translations_field(fields: Mapping[str, Field]) -> Field | None:
    """The `translations` key of an entry with texts: by language, its texts and where each comes from."""
    texts = translatable(fields)
    if not texts:
        return None
    names = tuple(texts)
    one: Record[dict[str, Any]] = Record(name="translation", fields={
        **texts,
        "rulebook": Field(MapOf(key=Choice(names, what="translated field"), value=Text(max_len=300)), required=False,
                          default={}, doc="the fields a rulebook in this language prints, and where: the others are "
                                          "donjon's own translation (house), never shown as official"),
        "inferred": Field(ListOf(INFERRED), required=False, default=(),
                          doc="fields known from another source (an edition's term read in a review), with its "
                              "source and confidence"),
    })
    return Field(MapOf(key=LANGUAGE_CODE, value=one), required=False, default={},
                 doc="this entry's texts in other languages, by language code (fr, de), each saying where it comes "
                     "from")


def make_translations(raw: Mapping[str, Mapping[str, Any]] | None) -> dict[str, Translation]:
    out = {}
    for code, values in (raw or {}).items():
        texts = {k: v for k, v in values.items() if k not in ("rulebook", "inferred") and v not in (None, (), "")}
        out[code] = Translation(texts, dict(values.get("rulebook") or {}), tuple(values.get("inferred") or ()))
    return out


def translation_rule(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
    """A translation of a list gives one item per item of the entry; it cites only fields it translates."""
    for code, translation in (values.get("translations") or {}).items():
        for name, given in translation.items():
            if name in ("rulebook", "inferred") or not isinstance(given, tuple):
                continue
            own = values.get(name) or ()
            if len(given) != len(own):
                ck.fail((*path, "translations", code, name), f"gives {len(given)} items; the entry has {len(own)}")
        for name in translation.get("rulebook") or {}:
            if translation.get(name) in (None, ()):
                ck.fail((*path, "translations", code, "rulebook", name), "cites a field this translation does not give")


def provenance_rule(record_fields: Mapping[str, Field]) -> Any:
    """A record rule: an entry cites a rulebook or lists its inferences, and names only its own fields."""

    def rule(values: Mapping[str, Any], path: PathKey, ck: Checker) -> None:
        if values.get("rulebook") is None and not values.get("inferred"):
            ck.fail(path, "cites no source: give 'rulebook' (the section its values come from) or 'inferred'")
        for index, entry in enumerate(values.get("inferred") or ()):
            for name in entry.fields:
                if not _names_field(record_fields, name.split(".")):
                    ck.fail((*path, "inferred", index, "fields"),
                            f"{name!r} is not a field of this entry (fields: {', '.join(record_fields)})")

    return rule


def _names_field(record_fields: Mapping[str, Field], parts: list[str]) -> bool:
    spec = record_fields.get(parts[0])
    if spec is None:
        return False
    if len(parts) == 1:
        return True
    inner: Type[Any] = spec.type
    while isinstance(inner, (ListOf, AnyOf)):
        inner = inner.item if isinstance(inner, ListOf) else next(
            (o for o in inner.options if isinstance(o, (Record, ListOf))), inner.options[0])
    return isinstance(inner, Record) and _names_field(inner.fields, parts[1:])


def provenance(values: Mapping[str, Any]) -> Provenance:
    return Provenance(values.get("rulebook"), tuple(values.get("inferred") or ()))


class Sourced(Record[T]):
    """A catalog entry: its own fields plus `rulebook` and `inferred`, which become the record's `provenance`.

    `entry` is the entry's typed constructor, called with one keyword per own field and `provenance`."""

    def __init__(self, name: str, fields: Mapping[str, Field], entry: Callable[..., T], rules: tuple[Rule, ...] = (),
                 doc: str = "") -> None:
        translations = translations_field(fields)
        all_fields = {**fields, **provenance_fields(), **({"translations": translations} if translations else {})}

        def make(rulebook: str | None, inferred: tuple[Inferred, ...],
                 translations: Mapping[str, Mapping[str, Any]] | None = None, **values: Any) -> T:
            return entry(**values, provenance=Provenance(rulebook, inferred or (), make_translations(translations)))

        own_rules = (provenance_rule(all_fields), *((translation_rule,) if translations else ()), *rules)
        super().__init__(name=name, fields=all_fields, rules=own_rules, build=make, doc=doc)
        self.entry = entry

    def build_parameters(self) -> tuple[str, ...]:
        """The keywords the entry's constructor is called with: its own fields and `provenance`."""
        return (*(n for n in self.fields if n not in ("rulebook", "inferred", "translations")), "provenance")

    def constructor(self) -> Callable[..., Any]:
        return self.entry


def sourced(name: str, fields: Mapping[str, Field], entry: Callable[..., T], rules: tuple[Rule, ...] = (),
            doc: str = "") -> Sourced[T]:
    """A catalog entry: `fields` plus `rulebook`/`inferred`; `entry(**values, provenance=...)` makes the record."""
    return Sourced(name, fields, entry, rules, doc)


# --- card sizes ---------------------------------------------------------------------------------------------------


#: Card size presets, width x height in millimetres (portrait).
CARD_PRESETS: Mapping[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),      # the common 2.5 x 3.5 in card, as print services cut it
    "bridge": (57.15, 88.9),    # 2.25 x 3.5 in
    "tarot": (70.0, 120.0),
    "mini": (44.0, 68.0),       # "mini euro"
    "square": (70.0, 70.0),
}

_LENGTH = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*")


class CardSize(NamedTuple):
    """A card's trimmed size in millimetres, and the preset it came from (or `custom`)."""

    name: str
    width_mm: float
    height_mm: float

    @property
    def width_pt(self) -> float:
        return mm(self.width_mm)

    @property
    def height_pt(self) -> float:
        return mm(self.height_mm)


def parse_length(text: str) -> float | None:
    """`63mm`, `2.5in`, `6.3cm`, `180pt` in millimetres, or None if it is not a length."""
    match = _LENGTH.fullmatch(text)
    if match is None:
        return None
    return float(match.group(1)) * MM_PER_UNIT[match.group(2)]


class Length(Type[float]):
    """A length: a number of millimetres, or text with a unit (`63mm`, `2.5in`, `6.3cm`, `180pt`)."""

    def __init__(self, low_mm: float, high_mm: float, doc: str = "") -> None:
        self.low = low_mm
        self.high = high_mm
        self.doc = doc

    def check(self, value: Any, path: PathKey, ck: Checker) -> Any:
        if isinstance(value, bool):
            mm = None
        elif isinstance(value, (int, float)):
            mm = float(value)
        elif isinstance(value, str):
            mm = parse_length(value)
        else:
            mm = None
        if mm is None:
            return ck.fail(path, phrase("expected a length such as 63mm, 2.5in or 180pt, got {value}",
                                        value=quote(value)))
        if not self.low <= mm <= self.high:
            return ck.fail(path, phrase("is {length} mm; a card side must be between {low} and {high} mm",
                                        length=phrase_figure(mm, "g"), low=phrase_figure(self.low, "g"),
                                        high=phrase_figure(self.high, "g")))
        return mm

    def schema(self) -> dict[str, Any]:
        return self._with_doc({"anyOf": [
            {"type": "number", "minimum": self.low, "maximum": self.high},
            {"type": "string", "pattern": r"^\s*\d+(\.\d+)?\s*(mm|cm|in|pt)\s*$"},
        ]})


def custom_size(width: float, height: float) -> CardSize:
    return CardSize("custom", width, height)


CUSTOM_SIZE: Record[CardSize] = Record(
    name="custom card size",
    fields={
        "width": Field(Length(15, 300), doc="card width (63mm, 2.5in...)"),
        "height": Field(Length(15, 300), doc="card height"),
    },
    build=custom_size,
)

CARD_SIZE = AnyOf(
    options=(
        Choice(tuple(CARD_PRESETS), what="card size"),
        CUSTOM_SIZE,
    ),
    what="a card size preset (poker, bridge, tarot, mini, square) or {width, height}",
    doc="poker (63x88 mm, the default), bridge, tarot, mini, square, or {width: 63mm, height: 88mm}",
)


def resolve_card_size(value: str | CardSize | None) -> CardSize:
    """A preset name (default poker) or a custom size as a :class:`CardSize`."""
    if isinstance(value, CardSize):
        return value
    name = value or "poker"
    width, height = CARD_PRESETS[name]
    return CardSize(name, width, height)


def ref(ids: tuple[str, ...] | None, what: str) -> Type[str]:
    """A reference to an entry declared elsewhere: one of `ids` once they are known, any id for the schema."""
    return Choice(ids, what=what) if ids is not None else Slug()


def aliases_field() -> Field:
    """`aliases`: the other names a rulebook prints for an entry (the name donjon's cards print is its `name`). An
    end state may name the entry by any of them (end-states.md)."""
    return Field(ListOf(Text(max_len=80), max_items=20), required=False, default=(),
                 doc="other names a rulebook prints for it; an end state may name it by any of them, in any case and "
                     "with or without accents")


def every_name(record: Any, field: str = "name") -> Iterator[str]:
    """`field` of a catalog record in the catalog's language and in every language it is translated into: the
    names an end state may call it by (`Merchant`, `Marchand`, `Händler`), with its `aliases`."""
    own = getattr(record, field, None)
    if isinstance(own, str):
        yield own
    provenance = getattr(record, "provenance", None)
    translations = provenance.translations if isinstance(provenance, Provenance) else getattr(record, "translations",
                                                                                              None) or {}
    for translation in translations.values():
        name = translation.values.get(field)
        if isinstance(name, str):
            yield name


def report_name_clashes(items: Any, path: PathKey, ck: Checker, message: str) -> None:
    """Report a name, a translated name or an alias that, folded as end states fold names (`normalise_name`), names
    two entries: an end state could not tell which it means. `message`: the caller's whole sentence (an N_ msgid
    with `{name}` and `{first}`, "the name {name} also names the guest {first}"), said whole in the language of the
    messages rather than an English word of the kind pasted into a translated one."""
    owner: dict[str, str] = {item.id: item.id for item in items}
    for index, item in enumerate(items):
        for other in (*every_name(item), *item.aliases):
            key = normalise_name(other)
            first = owner.setdefault(key, item.id)
            if first != item.id:
                ck.fail((*path, index), phrase(message, name=quote(other), first=quote(first)))


def report_duplicates(items: Any, key: Any, path: PathKey, ck: Checker, message: str) -> None:
    """Report every entry whose key repeats an earlier one, naming the line of the first. `message`: the caller's
    whole sentence (an N_ msgid with `{value}` and `{at}`, "repeats the guest id {value}{at}"), as above."""
    first: dict[Any, int] = {}
    for index, item in enumerate(items):
        value = key(item)
        if value in first:
            line = ck.doc.line((*path, first[value]))
            # TRANSLATORS: after "repeats the ... {value}": where the entry it repeats is
            at = phrase(" (first at line {line})", line=line) if line else ""
            ck.fail((*path, index), phrase(message, value=quote(value), at=at))
        else:
            first[value] = index
