"""Finding, merging and compiling layouts: everything a layout file says is checked here, once.

A layout is found by id in `templates/layouts/ID.yaml`, or (for a user's deck) as a `.yaml` file named relative
to the deck's folder, anywhere inside the content folder, so decks can share one (`../shared/unit.yaml`); a
layout's own `extends` and files are relative to the layout. `extends` starts from another layout: the child's
palette, styles and boxes are merged over the parent's key by key (a box of the same name is changed, a new box
is drawn after the inherited ones). A box's own `extends` starts from another box of the merged layout. Either
chain that comes back on itself is an error naming the cycle, as is a parent, box or style that does not exist,
with the file and line.

:func:`load_layout` returns a :class:`Layout` whose templates and expressions are compiled and whose lengths
are converted; :meth:`Layout.frames` resolves the percentages for one card size and checks that every box lies
on the card and that text and icons keep inside the safe area.

A layout is compiled for a deck's :class:`~generator.catalog.assets.Assets` (its fonts and icons of its own) on
top of those the layout files declare: a style's `font` must be a built-in face or a declared one, an icon a
built-in icon or a declared one. The compiled layout records the files it came from and the names its templates
read (a back reading only `deck` is the same for every card).
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from generator.catalog.assets import NO_ASSETS, Assets, resolve_assets
from generator.errors import ContentError, InputError, Problem
from generator.fields import Invalid, check_document
from generator.files import resolve_within
from generator.layout import spec as S
from generator.layout.spec import Dim
from generator.layout.templates import (
    JINJA_GLOBALS,
    Template,
    TemplateFailure,
    compile_expression,
    compile_template,
    expression_names,
)
from generator.render import fonts
from generator.render.icons import icons
from generator.resources import display_path, templates_dir
from generator.units import mm, to_mm
from generator.wording import a_or_an
from generator.yamlio import Document, load_file

#: Text and icons keep at least this far inside the card's edge unless a layout says otherwise (`safe:`).
DEFAULT_SAFE = Dim(mm(3))
#: Slack for comparing positions (a thousandth of a millimetre is far below anything a printer shows).
EPSILON = 0.003

REQUIRED = {
    "rect": ("x", "y", "width", "height"),
    "circle": ("x", "y", "width", "height"),
    "line": ("x", "y", "width", "height", "stroke"),
    "text": ("x", "y", "width", "height", "text"),
    "icon": ("x", "y", "width", "height", "icon"),
    "image": ("x", "y", "width", "height", "src"),
    "rows": ("x", "y", "width", "height", "items", "label", "text", "label_style", "label_width"),
    "notes": ("x", "y", "width", "height"),
}
#: Keys that mean something for each kind (anything else on a box of that kind is a mistake worth reporting).
ALLOWED = {
    "rect": {"fill", "stroke", "stroke_width", "dash", "radius", "bleed"},
    "circle": {"fill", "stroke", "stroke_width", "dash"},
    "line": {"stroke", "stroke_width", "dash"},
    "text": {"text", "style", "markup", *S.STYLE_KEYS},
    "icon": {"icon", "colour"},
    "image": {"src", "fit", "anchor", "bleed"},
    "rows": {"items", "label", "text", "style", "markup", *S.STYLE_KEYS, "label_style", "label_width", "label_fill",
             "gap", "row_gap", "divider"},
    "notes": {"style", *S.STYLE_KEYS, "labels"},
}
COMMON = {"kind", "extends", "when", "x", "y", "width", "height"}
TEXT_KINDS = ("text", "icon", "rows", "notes")


class MissingLayout(Exception):
    """A deck names a layout that does not exist; the caller says which deck (the message says why)."""


def _fail(file: str, line: int | None, where: str, message: str) -> ContentError:
    return ContentError([Problem(file, line, where, message)])


# --- finding layout files -----------------------------------------------------------------------------------------

def shipped_dir() -> Path:
    return templates_dir() / "layouts"


def shipped_ids() -> list[str]:
    return sorted(p.stem for p in shipped_dir().glob("*.yaml"))


def layout_path(ref: str, folder: Path | None, root: Path | None = None, shipped: Path | None = None,
                what: str = "layout", example: str = "generic", owner: str = "deck") -> Path:
    """The file a layout reference names: a `.yaml` file relative to `folder` (a user deck's, or a user layout's)
    inside the content folder `root` (default: `folder` itself), or the id of a layout shipped in `shipped`
    (default: the card layouts; the sheet layouts call it a `what`, like `example`, of an `owner`'s own).

    Raises ValueError with the reason when it names nothing (callers add where the reference was written)."""
    shipped = shipped or shipped_dir()
    ids = ", ".join(sorted(p.stem for p in shipped.glob("*.yaml")))
    if ref.lower().endswith((".yaml", ".yml")):
        if folder is None:
            raise ValueError(f"{ref!r} is a file name; only a {owner} folder's {what}s may name files "
                             f"(shipped {what}s: {ids})")
        path = resolve_within(root or folder, folder, ref)
        if not path.is_file():
            raise ValueError(f"{ref!r}: there is no such file in {display_path(path.parent)}")
        return path
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", ref):
        raise ValueError(f"{ref!r} is neither a {what} id (like {example!r}) nor a .yaml file")
    path = shipped / f"{ref}.yaml"
    if not path.is_file():
        raise ValueError(f"{ref!r} is not a shipped {what} (shipped: {ids}); a {what} of your own is a .yaml file "
                         f"in the {owner}'s folder")
    return path


# --- the compiled layout ------------------------------------------------------------------------------------------

#: A colour to resolve per card: fixed `#rrggbb`, None (no paint), or a template giving a colour or palette name.
ColourSpec = str | Template | None


class StyleSpec(NamedTuple):
    face: str
    size: float
    min_size: float
    colour: ColourSpec
    align: str
    valign: str
    leading: float
    wrap: bool


class LayoutBox(NamedTuple):
    name: str
    kind: str
    file: str
    line: int | None
    x: Dim
    y: Dim
    width: Dim
    height: Dim
    when: Callable[..., Any] | None = None
    bleed: bool = False
    fill: ColourSpec = None
    stroke: ColourSpec = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()
    radius: float = 0.0
    text: Template | None = None
    style: StyleSpec | None = None
    icon: Template | None = None
    colour: ColourSpec = None
    items: Callable[..., Any] | None = None
    label: Template | None = None
    label_style: StyleSpec | None = None
    label_width: float = 0.0
    label_fill: ColourSpec = None
    gap: float = 0.0
    row_gap: float = 0.0
    divider: ColourSpec = None
    labels: Mapping[str, str] = {}  # noqa: RUF012 - never mutated
    #: image: where the picture comes from (a template reading a card's column, or fixed text)
    src: Template | None = None
    #: image: the file of a fixed `src`, found and checked when the layout is loaded
    src_path: Path | None = None
    fit: str = "contain"
    anchor: str = "center"

    @property
    def where(self) -> str:
        return f"boxes.{self.name}"


class Frame(NamedTuple):
    """A box's rectangle on one card size, in points from the card's top-left corner."""

    x: float
    y: float
    w: float
    h: float


@dataclass
class Layout:
    """A merged, checked layout with compiled templates; `frames()` places its boxes on a card size."""

    ref: str
    file: str
    background: ColourSpec
    safe: float
    palette: Mapping[str, str]
    boxes: tuple[LayoutBox, ...]
    #: the files the layout was merged from (itself first, then what it extends), and the fonts and icons it uses
    files: tuple[Path, ...] = ()
    #: icons of one's own (a deck's or the layout's) by name: their picture files
    icons: Mapping[str, Path] = field(default_factory=dict)
    #: every name its templates and expressions read
    reads: frozenset[str] = frozenset()
    _frames: dict[tuple[float, float], tuple[Frame, ...]] = field(default_factory=dict)

    @property
    def per_card(self) -> bool:
        """Whether it reads anything but the deck: a back that does is drawn for each card, not once."""
        return bool(self.reads - {"deck"})

    def frames(self, width: float, height: float) -> tuple[Frame, ...]:
        """Every box's rectangle on a card of `width` x `height` points (checked once per size)."""
        key = (round(width, 3), round(height, 3))
        found = self._frames.get(key)
        if found is None:
            found = self._frames[key] = self._place(width, height)
        return found

    def _place(self, width: float, height: float) -> tuple[Frame, ...]:
        problems: list[Problem] = []
        frames = []
        size = f"{to_mm(width):g} x {to_mm(height):g} mm"
        for box in self.boxes:
            f = Frame(box.x.resolve(width), box.y.resolve(height), box.width.resolve(width),
                      box.height.resolve(height))
            frames.append(f)
            if f.w < -EPSILON or f.h < -EPSILON or (box.kind != "line" and (f.w <= EPSILON or f.h <= EPSILON)):
                problems.append(Problem(box.file, box.line, box.where,
                                        f"on a {size} card the box is {to_mm(f.w):.1f} x {to_mm(f.h):.1f} mm: "
                                        "it has no room"))
                continue
            if f.x < -EPSILON or f.y < -EPSILON or f.x + f.w > width + EPSILON or f.y + f.h > height + EPSILON:
                problems.append(Problem(box.file, box.line, box.where,
                                        f"on a {size} card the box spans {to_mm(f.x):.1f}-{to_mm(f.x + f.w):.1f} mm "
                                        f"across and {to_mm(f.y):.1f}-{to_mm(f.y + f.h):.1f} mm down: it leaves the "
                                        "card (use bleed: true to extend a shape past the edge)"))
                continue
            s = self.safe
            if box.kind in TEXT_KINDS and (f.x < s - EPSILON or f.y < s - EPSILON or f.x + f.w > width - s + EPSILON
                                           or f.y + f.h > height - s + EPSILON):
                problems.append(Problem(box.file, box.line, box.where,
                                        f"on a {size} card the {box.kind} box comes closer than {to_mm(s):g} mm to the "
                                        "card's edge, where a cut can go; keep it inside the safe area "
                                        "(or lower the layout's `safe`)"))
        if problems:
            raise ContentError(problems)
        return tuple(frames)


# --- loading and merging ------------------------------------------------------------------------------------------

class _Raw(NamedTuple):
    """One layout file, checked against the spec, with where each value was written."""

    file: str
    doc: Document
    values: dict[str, Any]
    #: a user's layout: its folder (references in it are relative to it); None for a shipped layout
    folder: Path | None
    path: Path


def _read(path: Path) -> _Raw:
    name = display_path(path)
    try:
        doc = load_file(path, display=name)
    except InputError as err:
        raise ContentError([err.problem]) from None
    values, problems = check_document(doc, S.LAYOUT)
    if problems or isinstance(values, Invalid):
        raise ContentError(problems or [Problem(name, None, "", "is not a layout")])
    shipped = shipped_dir().resolve() in path.parents
    return _Raw(name, doc, values, None if shipped else path.parent, path)


def _chain(ref: str, folder: Path | None, root: Path | None) -> list[_Raw]:
    """The layout and its ancestors, root first; a cycle or a missing parent is an error naming the file."""
    try:
        path = layout_path(ref, folder, root)
    except ValueError as err:
        raise MissingLayout(str(err)) from None
    seen: list[Path] = [path]
    raws = [_read(path)]
    while raws[-1].values.get("extends"):
        child = raws[-1]
        parent_ref = child.values["extends"]
        try:
            parent = layout_path(parent_ref, child.folder, root or folder)
        except ValueError as err:
            raise _fail(child.file, child.doc.line(("extends",)), "extends", str(err)) from None
        if parent in seen:
            cycle = " -> ".join(display_path(p) for p in [*seen, parent])
            raise _fail(child.file, child.doc.line(("extends",)), "extends", f"layouts extend each other in a cycle: "
                                                                             f"{cycle}")
        seen.append(parent)
        raws.append(_read(parent))
    return list(reversed(raws))


class _Entry(NamedTuple):
    values: dict[str, Any]
    file: str
    line: int | None
    #: where each key was last set, for messages about one key
    lines: dict[str, tuple[str, int | None]]
    #: the folder of the file that last set each key (a fixed picture is relative to its layout file)
    folders: dict[str, Path] = {}  # noqa: RUF012 - replaced, never mutated


def _merge_values(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over`'s keys on top of `base`'s; a relative length (`+= 2mm`) adds to the value it replaces, and stays
    relative when there is none yet (a box's own `extends` may still give it one)."""
    out = dict(base)
    for key, value in over.items():
        if value is None:
            continue
        inherited = out.get(key)
        if isinstance(value, Dim) and value.relative and isinstance(inherited, Dim):
            out[key] = Dim(inherited.pt + value.pt, inherited.pct + value.pct, inherited.relative)
        else:
            out[key] = value
    return out


def _merge(raws: list[_Raw]) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, _Entry]]:
    """Merge a chain of layout files: top-level keys, styles and boxes (by name, keeping first-seen order)."""
    top: dict[str, Any] = {}
    styles: dict[str, dict[str, Any]] = {}
    boxes: dict[str, _Entry] = {}
    palette: dict[str, str] = {}
    for raw in raws:
        v = raw.values
        for key in ("background", "safe", "description"):
            if v.get(key) is not None:
                top[key] = v[key]
        top["file"] = raw.file
        palette.update(v.get("palette") or {})
        for name, style in (v.get("styles") or {}).items():
            styles[name] = {**styles.get(name, {}), **{k: x for k, x in style.items() if x is not None}}
        for name, box in (v.get("boxes") or {}).items():
            line = raw.doc.line(("boxes", name))
            base = boxes.get(name)
            merged = _merge_values(base.values if base else {}, box)
            lines = dict(base.lines) if base else {}
            folders = dict(base.folders) if base else {}
            for key, value in box.items():
                if value is not None:
                    lines[key] = (raw.file, raw.doc.line(("boxes", name, key)))
                    folders[key] = raw.path.parent
            boxes[name] = _Entry(merged, raw.file, line, lines, folders)
    top["palette"] = palette
    return top, styles, boxes


def _resolve_box_extends(boxes: dict[str, _Entry]) -> dict[str, _Entry]:
    """Apply each box's `extends` (another box of the layout), root first; cycles are errors.

    Iterative, so a long chain of boxes extending one another cannot exhaust the interpreter's stack."""
    done: dict[str, _Entry] = {}
    for start in boxes:
        trail: list[str] = []
        name: str | None = start
        while name is not None and name not in done:  # walk up to a resolved box or a box with no parent
            entry = boxes[name]
            parent = entry.values.get("extends")
            if parent is not None and parent not in boxes:
                file, line = entry.lines.get("extends", (entry.file, entry.line))
                raise _fail(file, line, f"boxes.{name}.extends",
                            f"extends {parent!r}, which is not a box of this layout (boxes: {', '.join(boxes)})")
            if parent is not None and (parent in trail or parent == name):
                loop = trail[trail.index(parent):] if parent in trail else []
                cycle = " -> ".join([*loop, name, parent])
                raise _fail(entry.file, entry.line, f"boxes.{name}.extends",
                            f"boxes extend each other in a cycle: {cycle}")
            trail.append(name)
            name = parent
        for child in reversed(trail):  # then resolve back down the chain
            entry = boxes[child]
            parent = entry.values.get("extends")
            if parent is None:
                done[child] = entry
                continue
            base = done[parent]
            merged = _merge_values({k: v for k, v in base.values.items() if k != "extends"}, entry.values)
            merged.pop("extends", None)
            done[child] = _Entry(merged, entry.file, entry.line, {**base.lines, **entry.lines},
                                 {**base.folders, **entry.folders})
    return {name: done[name] for name in boxes}


def _assets(raws: list[_Raw], root: Path | None, deck: Assets, problems: list[Problem]) -> Assets:
    """The fonts and icons the layout files declare (a child's over its parent's), with the deck's on top."""
    merged = NO_ASSETS
    for raw in raws:
        if raw.values.get("fonts") or raw.values.get("icons"):
            found, trouble = resolve_assets(raw.values, raw.doc, raw.path.parent,
                                            root if raw.folder is not None and root is not None else raw.path.parent)
            problems.extend(trouble)
            merged = merged.over(found)
    return merged.over(deck)


def _origin(origin: str) -> tuple[str, int | None]:
    file, _, line = origin.rpartition(":")
    return (file, int(line)) if line.isdigit() else (origin, None)


def _faces(assets: Assets, problems: list[Problem]) -> dict[str, str]:
    """Every font name a style may use: the built-in faces, and each declared family's faces."""
    faces = {face: face for face in fonts.BUILT_IN_IDS}
    for name, family in assets.fonts:
        file, line = _origin(family.origin)
        clash = [f"{name}{suffix}" for suffix, _b, _i in fonts.STYLES.values() if f"{name}{suffix}" in faces]
        if clash:
            problems.append(Problem(file, line, f"fonts.{name}", f"{clash[0]!r} is already a font donjon has; give "
                                                                 "your font another name"))
            continue
        try:
            faces.update(fonts.register_family(name, dict(family.files)))
        except fonts.FontProblem as err:
            problems.append(Problem(file, line, f"fonts.{name}", str(err)))
    return faces


def _own_icons(assets: Assets, problems: list[Problem]) -> dict[str, Path]:
    """The icons of one's own by name, each picture read and checked now, used or not (an icon that cannot be
    drawn is named where it is declared, not left to fail in the middle of a card's text)."""
    found: dict[str, Path] = {}
    for name, path, origin in assets.icons:
        from generator.render.images import ImageProblem, image_info

        if name in icons():
            problems.append(Problem(*_origin(origin), f"icons.{name}", f"{name!r} is one of donjon's own icons; give "
                                                                       "yours another name"))
            continue
        try:
            image_info(path)
        except ImageProblem as err:
            problems.append(Problem(*_origin(origin), f"icons.{name}", f"the icon {name!r} "
                                    f"({display_path(path)}): {err}"))
            continue
        found[name] = path
    return found


@cache
def load_layout(ref: str, folder: Path | None = None, root: Path | None = None, assets: Assets = NO_ASSETS) -> Layout:
    """The layout `ref` (a shipped id, or a file named relative to a user deck's `folder`, inside the content
    folder `root`), merged, checked and compiled with the deck's fonts and icons."""
    raws = _chain(ref, folder, root)
    top, styles, entries = _merge(raws)
    entries = _resolve_box_extends(entries)
    file = top["file"]
    problems: list[Problem] = []
    palette: dict[str, str] = top["palette"]
    declared = _assets(raws, root or folder, assets, problems)
    faces = _faces(declared, problems)
    own_icons = _own_icons(declared, problems)
    reads: set[str] = set()

    def colour(value: Any, at: tuple[str, int | None], where: str, none_ok: bool = True) -> ColourSpec:
        if value is None or value == "none":
            if value == "none" and not none_ok:
                problems.append(Problem(at[0], at[1], where, "must be a colour, not 'none'"))
            return None
        if value.startswith("#"):
            return str(value)
        if "{{" in value or "{%" in value:
            return _template(value, at, where)
        if value not in palette:
            problems.append(Problem(at[0], at[1], where, f"{value!r} is not in the palette "
                                                         f"({', '.join(palette) or 'the layout has none'})"))
            return None
        return palette[value]

    def _template(source: str, at: tuple[str, int | None], where: str, markup: bool = False) -> Template | None:
        try:
            compiled = compile_template(source, markup)
        except TemplateFailure as err:
            line = at[1] + err.line - 1 if at[1] is not None and err.line else at[1]
            problems.append(Problem(at[0], line, where, f"template error: {err}"))
            return None
        reads.update(compiled.names)
        return compiled

    def _expression(source: str, at: tuple[str, int | None], where: str) -> Callable[..., Any] | None:
        try:
            compiled = compile_expression(source)
            reads.update(expression_names(source))
        except TemplateFailure as err:
            problems.append(Problem(at[0], at[1], where, f"expression error: {err}"))
            return None
        return compiled

    def style_of(entry: _Entry, name: str, style_key: str, where: str) -> StyleSpec | None:
        values: dict[str, Any] = {}
        at = entry.lines.get(style_key, (entry.file, entry.line))
        style_name = entry.values.get(style_key)
        if style_name is not None:
            if style_name not in styles:
                problems.append(Problem(at[0], at[1], f"{where}.{style_key}",
                                        f"names the style {style_name!r}, which the layout does not define "
                                        f"(styles: {', '.join(styles) or 'none'})"))
                return None
            values.update(styles[style_name])
        if style_key == "style":
            values.update({k: entry.values[k] for k in S.STYLE_KEYS if entry.values.get(k) is not None})
        missing = [k for k in ("font", "size", "colour") if values.get(k) is None]
        if missing:
            problems.append(Problem(at[0], at[1], where, f"the text of box {name!r} has no {', '.join(missing)}: "
                                                         f"give a {style_key} or the keys on the box"))
            return None
        size = values["size"]
        smallest = values.get("min_size", size)
        if smallest > size:
            problems.append(Problem(at[0], at[1], where, f"min_size {smallest:g} pt is larger than size {size:g} pt"))
            return None
        ink = colour(values["colour"], at, f"{where}.colour", none_ok=False)
        face = faces.get(values["font"])
        if face is None:
            problems.append(Problem(at[0], at[1], f"{where}.font", _unknown_font(values["font"], faces)))
            return None
        return StyleSpec(face, size, smallest, ink, values.get("align", "left"),
                         values.get("valign", "top"), values.get("leading", 1.2), values.get("wrap", True))

    boxes: list[LayoutBox] = []
    for name, entry in entries.items():
        v = entry.values
        where = f"boxes.{name}"
        kind = v.get("kind")
        if kind is None:
            problems.append(Problem(entry.file, entry.line, where, f"has no kind ({', '.join(S.KINDS)})"))
            continue
        relative = [k for k, x in v.items() if isinstance(x, Dim) and x.relative]
        if relative:
            for key in relative:
                problems.append(Problem(*entry.lines.get(key, (entry.file, entry.line)), f"{where}.{key}",
                                        "'+=' and '-=' add to an inherited value, but the box inherits no "
                                        f"{key} (from the layout it extends or the box it extends)"))
            continue
        lacking = [k for k in REQUIRED[kind] if v.get(k) is None]
        if lacking:
            problems.append(Problem(entry.file, entry.line, where,
                                    f"{a_or_an(kind)} box needs {', '.join(lacking)} (directly or by extends)"))
            continue
        stray = sorted(k for k, x in v.items() if x is not None and k not in COMMON and k not in ALLOWED[kind])
        if stray:
            problems.append(Problem(entry.file, entry.line, where,
                                    f"{', '.join(stray)} {'means' if len(stray) == 1 else 'mean'} nothing to a "
                                    f"{kind} box"))
            continue

        def at(key: str, e: _Entry = entry) -> tuple[str, int | None]:
            return e.lines.get(key, (e.file, e.line))

        markup = bool(v.get("markup"))
        text = _template(v["text"], at("text"), f"{where}.text", markup) if v.get("text") is not None else None
        icon = None
        if v.get("icon") is not None:
            source = v["icon"]
            fixed = "{{" not in source and "{%" not in source
            if fixed and source not in icons() and source not in own_icons:
                problems.append(Problem(*at("icon"), f"{where}.icon", unknown_icon(source, own_icons)))
            elif fixed and source in icons() and v.get("colour") is None:
                problems.append(Problem(entry.file, entry.line, where, "an icon box with one of donjon's icons needs a "
                                                                       "colour"))
            icon = _template(source, at("icon"), f"{where}.icon")
        src, src_path = None, None
        if kind == "image":
            src = _template(v["src"], at("src"), f"{where}.src")
            if src is not None and src.fixed:
                src_path = _fixed_picture(v["src"], entry.folders.get("src"), root or folder, at("src"),
                                          f"{where}.src", problems)
        style = style_of(entry, name, "style", where) if kind in ("text", "rows", "notes") else None
        label_style = style_of(entry, name, "label_style", where) if kind == "rows" else None
        dash = tuple(float(d) for d in re.findall(r"\d+(?:\.\d+)?", v["dash"])) if v.get("dash") else ()
        if dash and not any(dash):  # PDF refuses a dash pattern of zeros (ISO 32000-1, 8.4.3.6)
            problems.append(Problem(*at("dash"), f"{where}.dash", f"{v['dash']!r} is all zeros: give a dash and a gap "
                                                                  "longer than 0 (like '2pt 1pt'), or no dash"))
            dash = ()
        stroke_width = v["stroke_width"].pt if v.get("stroke_width") is not None else 0.0
        stroke = colour(v.get("stroke"), at("stroke"), f"{where}.stroke")
        fill = colour(v.get("fill"), at("fill"), f"{where}.fill")
        if stroke is not None and stroke_width <= 0:
            problems.append(Problem(entry.file, entry.line, where, "a stroke needs a stroke_width (e.g. 0.5pt)"))
        if kind in ("rect", "circle") and fill is None and stroke is None:
            problems.append(Problem(entry.file, entry.line, where, f"{a_or_an(kind)} box needs a fill or a stroke"))
        boxes.append(LayoutBox(
            name=name, kind=kind, file=entry.file, line=entry.line,
            x=v["x"], y=v["y"], width=v["width"], height=v["height"],
            when=_expression(v["when"], at("when"), f"{where}.when") if v.get("when") else None,
            bleed=bool(v.get("bleed")), fill=fill, stroke=stroke, stroke_width=stroke_width, dash=dash,
            radius=v["radius"].pt if v.get("radius") is not None else 0.0,
            text=text, style=style, icon=icon,
            colour=colour(v.get("colour"), at("colour"), f"{where}.colour") if kind == "icon" else None,
            items=_expression(v["items"], at("items"), f"{where}.items") if v.get("items") else None,
            label=(_template(v["label"], at("label"), f"{where}.label", markup) if v.get("label") is not None
                   else None),
            label_style=label_style,
            label_width=v["label_width"].pt if v.get("label_width") is not None else 0.0,
            label_fill=colour(v.get("label_fill"), at("label_fill"), f"{where}.label_fill"),
            gap=v["gap"].pt if v.get("gap") is not None else 0.0,
            row_gap=v["row_gap"].pt if v.get("row_gap") is not None else 0.0,
            divider=colour(v.get("divider"), at("divider"), f"{where}.divider"),
            labels=dict(v.get("labels") or {}),
            src=src, src_path=src_path, fit=v.get("fit") or "contain", anchor=v.get("anchor") or "center",
        ))
    background = top.get("background")
    if background is None:
        problems.append(Problem(file, None, "background", "the layout (or the one it extends) gives no background "
                                                          "colour"))
    bg = colour(background, (file, None), "background", none_ok=False) if background is not None else None
    if problems:
        raise ContentError(problems)
    safe = top.get("safe", DEFAULT_SAFE).pt
    files = tuple(raw.path for raw in reversed(raws)) + declared.files()
    return Layout(ref, file, bg, safe, palette, tuple(boxes), files, own_icons,
                  frozenset(reads) - JINJA_GLOBALS)


def unknown_icon(name: str, own: Mapping[str, Path]) -> str:
    """The message for an icon name that is neither donjon's nor the deck's, with a guess at what was meant."""
    import difflib

    known = sorted(icons()) + sorted(own)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
    guess = f" (did you mean {close[0]!r}?)" if close else ""
    mine = f"; the deck's own: {', '.join(sorted(own))}" if own else "; a deck can add its own under `icons:`"
    return f"{name!r} is not an icon{guess}: donjon's icons: {', '.join(sorted(icons()))}{mine}"


def _unknown_font(name: str, faces: Mapping[str, str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(faces), n=1, cutoff=0.6)
    guess = f" (did you mean {close[0]!r}?)" if close else ""
    if name.lower().endswith((".ttf", ".otf")):
        return (f"{name!r} is a file, not a font name: declare it under `fonts:` in the deck or the layout "
                f"(fonts: {{mine: {name}}}) and write `font: mine`")
    own = sorted(f for f in faces if f not in fonts.BUILT_IN_IDS)
    return (f"unknown font {name!r}{guess}; expected one of {', '.join(fonts.BUILT_IN_IDS)}"
            + (f", or the deck's own: {', '.join(own)}" if own else ", or a font declared under `fonts:`"))


def _fixed_picture(ref: str, base: Path | None, root: Path | None, at: tuple[str, int | None], where: str,
                   problems: list[Problem]) -> Path | None:
    """The picture a layout names (relative to the layout file), found and checked now."""
    from generator.render.images import ImageProblem, image_info

    if base is None:
        return None
    try:
        path = resolve_within(root or base, base, ref)
        image_info(path)
    except (ValueError, ImageProblem) as err:
        problems.append(Problem(at[0], at[1], where, f"the picture {ref!r}: {err}"))
        return None
    return path


def clear_cache() -> None:
    """Forget loaded layouts (tests that rewrite a layout file between builds)."""
    load_layout.cache_clear()
