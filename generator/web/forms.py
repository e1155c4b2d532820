"""Forms from end-state formats: the controls of a table, and the edits players make through them.

A game's end-state format is a tree of `generator.fields` types. :class:`FormBuilder` walks it with the game's
hints (`hints.py`) and gives a list of :class:`Control` per part of the game (a player's Guildhall, a castle
sheet, the Guédelon team's castle); the templates draw each kind of control. An edit from a phone is an
:class:`Edit` (set a value, toggle an item of a list, append to a list, remove an item), checked against the type
the format gives the field it names before it touches the stored state, then the whole end state is scored again
by the engine: the format and the rules have the last word, not the form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from generator.fields import (
    AnyOf,
    Bool,
    Choice,
    Field,
    Int,
    ListOf,
    MapOf,
    Nullable,
    Record,
    Text,
    Type,
)
from generator.games.table import Choices, TableControl, TableHints
from generator.i18n import Language, language
from generator.web import messages

#: Most items a list can get through the page (a Guildhall deck has 120 cards; no list in a game comes near).
MOST_ITEMS = 120
#: The longest text accepted for a name or a value.
LONGEST_TEXT = 200
#: No count in any of the games comes near this (the formats refuse numbers beyond a million).
LARGEST = 1_000_000


class EditError(messages.Said):
    """An edit the form cannot apply (a bad path, a value of the wrong kind); the message says why."""


@dataclass
class Control:
    """One control of a form: where it writes (`path` in the part), where messages about it point (`where`)."""

    path: str
    where: str
    label: str
    help: str
    kind: str
    value: Any
    choices: Choices = field(default_factory=list)
    rows: Choices = field(default_factory=list)
    swatches: Mapping[str, str] = field(default_factory=dict)
    low: int | None = None
    high: int | None = None
    most: int | None = None
    optional: bool = False
    note: str = ""
    #: `records`: what one item is called in a sentence ("wall": "Add wall", "wall 1")
    one: str = ""
    #: a list of a game's own item words: how many items it holds, in words ("2 goods"), shown by its label
    counted: str = ""
    #: a `player` control: the score from which the table is asked about it (TableControl.ask_from)
    ask_from: int | None = None
    #: `records`: the controls of each item
    items: list[list[Control]] = field(default_factory=list)

    @property
    def slot(self) -> str:
        """An id for the element that shows this control's messages."""
        return "msg-" + re.sub(r"[^A-Za-z0-9_-]", "_", self.where)

    @property
    def input_id(self) -> str:
        return "in-" + re.sub(r"[^A-Za-z0-9_-]", "_", self.where)


def words(name: str) -> str:
    return name.replace("_", " ").capitalize()


def short_label(label: str) -> str:
    """A label without its note in brackets: "Towers" for "Towers (value of each)", where it names a thing
    (a button's name, a line of points) rather than heads a control."""
    return label.split(" (", 1)[0]


def points_label(labels: Mapping[str, str], key: str) -> str:
    """A result's breakdown key in words: its form label ("VP cards bought"), or for a key naming a catalog
    entry ("guest:queen") the entry in words ("Queen")."""
    if key in labels:
        return short_label(labels[key])
    return words(key.split(":", 1)[1].replace("-", " ") if ":" in key else key)


#: edit_data's `was` not given (None is a value a field shows: empty)
_NOT_GIVEN: Any = object()


def shown_value(value: Any) -> str:
    """A value as a field shows it and sends it back (`Edit.was`): empty for none."""
    return "" if value is None else str(value)


def edit_data(seat: int | None, shown: int | None, op: str, path: str, value: Any = None,
              seen: int | None = None, was: Any = _NOT_GIVEN) -> Markup:
    """A control's `data-edit`: the edit static/app.js sends when it is tapped (an input or a select sends its
    own value, so none is given), as JSON safe in an HTML attribute, keys sorted as jinja's `tojson` writes
    them. A function rather than a template macro: a form draws it for every button (a grid of professions
    and colours alone has dozens), and a macro call costs tens of times more."""
    out: dict[str, Any] = {"seat": "" if seat is None else seat, "shown": "" if shown is None else shown, "op": op,
                           "path": path}
    if value is not None:
        out["value"] = str(value)
    if seen is not None:  # a remove: how many items the list shows (Edit.seen)
        out["seen"] = str(seen)
    if was is not _NOT_GIVEN:  # a field's set: the value it shows (Edit.was)
        out["was"] = shown_value(was)
    return htmlsafe_json_dumps(out, sort_keys=True)


def kind_of(type_: Type[Any]) -> str:
    """The generic control for a format type, from what it accepts (its JSON Schema)."""
    while isinstance(type_, Nullable):
        type_ = type_.inner
    if isinstance(type_, Bool):
        return "check"
    if isinstance(type_, Choice):
        return "select"
    if isinstance(type_, MapOf):
        return "grid"
    if isinstance(type_, ListOf):
        return "records" if isinstance(type_.item, Record) else "pick" if isinstance(type_.item, Choice) else "tap"
    if isinstance(type_, Text):
        return "text"
    schema_type = type_.schema().get("type")
    if schema_type in ("integer", "number"):
        return "count"
    return "text"


def variant(spec: Record[Any], options: Mapping[str, Any]) -> Record[Any]:
    """The format to use with these options: a format may hold variants by an option (castle: by version)."""
    variants: Mapping[str, Record[Any]] = getattr(spec, "variants", {}) or {}
    for value in options.values():
        if isinstance(value, str) and value in variants:
            return variants[value]
    return spec


def part_record(spec: Record[Any], hints: TableHints) -> Record[Any] | None:
    if hints.parts is None:
        return None
    items = spec.fields[hints.parts].type
    assert isinstance(items, ListOf) and isinstance(items.item, Record)
    return items.item


def initial_value(name: str, spec: Field, hints: TableHints) -> Any:
    if name in hints.initial:
        return hints.initial[name]
    if not spec.required and spec.default is not None:
        return list(spec.default) if isinstance(spec.default, tuple) else spec.default
    type_ = spec.type
    if isinstance(type_, Bool):
        return False
    if isinstance(type_, ListOf):
        return []
    if isinstance(type_, MapOf):
        return {}
    if isinstance(type_, Record):
        return {k: initial_value(k, f, hints) for k, f in type_.fields.items()}
    if not spec.required:
        return None
    if kind_of(type_) == "count":
        return 0
    return None


def initial_part(spec: Record[Any], hints: TableHints) -> dict[str, Any]:
    record = part_record(spec, hints)
    fields = record.fields if record is not None else {k: spec.fields[k] for k in hints.shared}
    out = {name: initial_value(name, f, hints) for name, f in fields.items() if name != hints.part_name}
    return {k: v for k, v in out.items() if v is not None}


def _widget_key(path: Sequence[str]) -> str:
    """The key of a control's widget in TableHints.widgets: its path without the items' indexes."""
    return ".".join(p for p in path if not p.isdecimal())


@dataclass
class FormBuilder:
    """Controls for one table: the game's format, hints, catalog and the options chosen."""

    spec: Record[Any]
    hints: TableHints
    catalog: Any
    options: Mapping[str, Any]
    players: Sequence[str] = ()
    #: the language of the labels, helps and notes (the catalog given is in it too)
    lang: Language = field(default_factory=language)

    def __post_init__(self) -> None:
        self.spec = variant(self.spec, self.options)
        self._sources = {**self.options, "_players": max(len(self.players), 1), "_lang": self.lang}
        #: what a widget gives a control of this table (its choices, rows, bounds, note: from the catalog and the
        #: options, the same in every version), by the widget's path (forms.py, _control)
        self._given: dict[str, dict[str, Any]] = {}

    def _given_by(self, widget: TableControl, key: str) -> dict[str, Any]:
        """What `widget` gives its controls (the lists are shared by every version's control: never changed in
        place), computed once per table."""
        found = self._given.get(key)
        if found is None:
            src, catalog = self._sources, self.catalog
            found = {"choices": widget.choices(catalog, src) if widget.choices else [],
                     "rows": widget.rows(catalog, src) if widget.rows else [],
                     "swatches": widget.swatches(catalog) if widget.swatches else {},
                     "low": widget.low(catalog, src) if widget.low else None,
                     "high": widget.high(catalog, src) if widget.high else None,
                     "most": widget.most(catalog, src) if widget.most else None,
                     "note": widget.note(catalog, src) if widget.note else "",
                     "ask_from": widget.ask_from(catalog, src) if widget.ask_from else None}
            self._given[key] = found
        return found

    def _control(self, name: str, spec: Field, path: list[str], where: str, value: Any) -> Control:
        widget_key = _widget_key(path)
        widget = self.hints.widgets.get(widget_key)
        kind = widget.kind if widget else kind_of(spec.type)
        # a game's own label (a sheet of one's own's, in the phone's language) as it is; donjon's, translated
        own = self.hints.labels_in(self.lang).get(name) if self.hints.labels_in is not None else None
        label = own or self.lang._(self.hints.labels.get(name, words(name)))
        help_text = self.lang._(self.hints.helps.get(name, spec.doc))
        control = Control(".".join(path), where, label, help_text, kind, value, optional=not spec.required)
        # a game's own label names the whole list ("Goods traded"): one item is its own word, else its id's
        item_words = self.hints.item_words_in(self.lang).get(name) if self.hints.item_words_in is not None else None
        english = self.hints.labels.get(name, words(name))
        control.one = item_words[0] if item_words else self.lang._(self.hints.item_labels[name]) \
            if name in self.hints.item_labels else (english[:-1] if english.endswith("s") else english).lower()
        if item_words and isinstance(value, (list, tuple)):
            control.counted = self.lang.counted(len(value), *item_words)
        type_ = spec.type
        while isinstance(type_, Nullable):
            type_ = type_.inner
        if isinstance(type_, Int):
            control.low, control.high = type_.min, type_.max
        if widget is not None:
            given = self._given_by(widget, widget_key)
            control.choices, control.rows, control.swatches = given["choices"], given["rows"], given["swatches"]
            if widget.low:
                control.low = given["low"]
            if widget.high:
                control.high = given["high"]
            control.most, control.note, control.ask_from = given["most"], given["note"], given["ask_from"]
        if kind == "pick" and isinstance(type_, ListOf) and kind_of(type_.item) == "count":
            kind = control.kind = "tap"  # numbers may repeat (two Apprentice guests worth 2): tapped, not picked
        if kind == "player":
            control.choices = [(p, p) for p in self.players]
        elif kind == "select" and not control.choices and isinstance(type_, Choice):
            control.choices = [(v, words(v.replace("-", " "))) for v in type_.values]
        elif kind == "records" and isinstance(type_, ListOf) and isinstance(type_.item, Record):
            for index, item in enumerate(value or []):
                control.items.append(self._record(type_.item, [*path, str(index)], f"{where}[{index}]", item))
        return control

    def _record(self, record: Record[Any], path: list[str], where: str, data: Mapping[str, Any]) -> list[Control]:
        out = []
        for name, spec in record.fields.items():
            if name == self.hints.part_name and not path:
                continue
            value = data.get(name, initial_value(name, spec, self.hints))
            out.append(self._control(name, spec, [*path, name], f"{where}.{name}" if where else name, value))
        return out

    def part(self, seat: int, data: Mapping[str, Any]) -> list[Control]:
        """The controls of one player's part."""
        record = part_record(self.spec, self.hints)
        assert record is not None and self.hints.parts is not None
        controls = self._record(record, [], f"{self.hints.parts}[{seat}]", data)
        return [c for c in controls if c.path != self.hints.part_name]

    def shared(self, data: Mapping[str, Any]) -> list[Control]:
        """The controls of the fields of the whole game (Guédelon's castle, Guildhall's last turn)."""
        out = []
        for name in self.hints.shared:
            spec = self.spec.fields[name]
            value = data.get(name, initial_value(name, spec, self.hints))
            out.append(self._control(name, spec, [name], name, value))
        return out

    # --- edits --------------------------------------------------------------------------------------------------

    def type_at(self, path: Sequence[str], shared: bool) -> Type[Any]:
        """The format type of the value at `path` (in a part, or among the shared fields)."""
        if shared:
            if not path or path[0] not in self.hints.shared:
                raise EditError(messages.NO_FIELD)
            type_: Type[Any] = self.spec.fields[path[0]].type
        else:
            record = part_record(self.spec, self.hints)
            if record is None or not path or path[0] not in record.fields or path[0] == self.hints.part_name:
                raise EditError(messages.NO_FIELD)
            type_ = record.fields[path[0]].type
        for step in path[1:]:
            while isinstance(type_, Nullable):
                type_ = type_.inner
            if isinstance(type_, ListOf) and step.isdecimal():
                type_ = type_.item
            elif isinstance(type_, Record) and step in type_.fields:
                type_ = type_.fields[step].type
            elif isinstance(type_, MapOf):
                type_ = type_.value
            else:
                raise EditError(messages.NO_FIELD)
        return type_

    def coerce(self, type_: Type[Any], raw: str, path: Sequence[str]) -> Any:
        """A value typed on a phone, as the format type wants it; the format checks it again when scored."""
        while isinstance(type_, Nullable):
            if raw == "":
                return None
            type_ = type_.inner
        if isinstance(type_, AnyOf):
            type_ = type_.options[0]
        if isinstance(type_, (ListOf, MapOf, Record)):
            # a list or a group of fields is changed item by item (append, remove, toggle): one value typed over it
            # (a script's `set` or `add` on `vp_cards`) made the part's list a text the scorer then refused
            raise EditError(messages.NOT_ONE_VALUE)
        if isinstance(type_, Bool):
            if raw not in ("true", "false"):
                raise EditError(messages.NOT_TRUE_FALSE)
            return raw == "true"
        kind = kind_of(type_)
        if kind == "count":
            if raw.strip() == "":
                return None
            try:
                number = int(raw.strip())
            except ValueError:
                raise EditError(messages.NOT_WHOLE_NUMBER, value=raw[:20]) from None
            if abs(number) > LARGEST:
                raise EditError(messages.NUMBER_TOO_BIG, number=messages.WholeFigure(number),
                                most=messages.WholeFigure(LARGEST))
            return number
        if len(raw) > LONGEST_TEXT:
            raise EditError(messages.TEXT_TOO_LONG, most=LONGEST_TEXT)
        return raw

    def item_type(self, type_: Type[Any]) -> Type[Any]:
        while isinstance(type_, Nullable):
            type_ = type_.inner
        if isinstance(type_, ListOf):
            return type_.item
        if isinstance(type_, MapOf):
            return type_.value
        return Text(max_len=LONGEST_TEXT)


@dataclass(frozen=True)
class Edit:
    """One change from a phone: `op` set | toggle | append | remove | add, at `path` (dotted, list indexes as
    digits). A toggle with `on` says the state wanted (in the list or not), so two phones tapping one tile at
    once agree on it (set, not flip); `add` adds a whole number to the stored count (the - and + buttons: applied
    to what is stored, so taps from two phones never cancel)."""

    op: str
    path: tuple[str, ...]
    value: str = ""
    shared: bool = False
    on: bool | None = None
    #: a `remove`: how many items the list had on the phone's screen. A remove names its item by its place, and
    #: two removes of one place (a fast double tap, two phones, taps kept offline) would take away two items
    seen: int | None = None
    #: a `set` from a field typed in or chosen: the value the field showed before (the companion's then). Another
    #: phone's value written since is not replaced: two phones typing one field, the second is told
    was: str | None = None


def _walk(data: dict[str, Any], path: Sequence[str], create: Any) -> tuple[Any, str]:
    """The container holding the last step of `path`, and that step (creating mappings on the way)."""
    node: Any = data
    for step in path[:-1]:
        if isinstance(node, list):
            index = int(step)
            if index >= len(node):
                raise EditError(messages.NO_ITEM, index=index)
            node = node[index]
        else:
            node = node.setdefault(step, {} if not step.isdecimal() else create)
    return node, path[-1]


def apply(builder: FormBuilder, data: dict[str, Any], edit: Edit) -> None:
    """Apply one edit to a part's (or the shared fields') stored data, in place."""
    if not edit.path or len(edit.path) > 6 or any(not p or len(p) > 80 for p in edit.path):
        raise EditError(messages.NO_FIELD)
    type_ = builder.type_at(edit.path, edit.shared)
    container, last = _walk(data, edit.path, None)
    if isinstance(container, list):
        # isdecimal, not isdigit, wherever int() follows: `isdigit` also takes a superscript two, which int() refuses
        if not last.isdecimal() or int(last) >= len(container):
            raise EditError(messages.NO_ITEM, index=last[:10])
        key: Any = int(last)
    else:
        key = last
    if edit.op == "set":
        if builder.hints.widgets.get(edit.path[0]) is not None and \
                builder.hints.widgets[edit.path[0]].kind == "tiles":
            if edit.value != "all" and edit.value != "none":
                raise EditError(messages.ALL_OR_NONE)
            container[key] = "all" if edit.value == "all" else []
            return
        value = builder.coerce(type_, edit.value, edit.path)
        if edit.was is not None and (isinstance(container, list) or key in container):
            now = shown_value(container[key])
            if now != edit.was and now != shown_value(value):  # changed since the field showed it, to another value
                raise EditError(messages.CHANGED_MEANWHILE, now=now or "–", value=edit.value[:20] or "–")
        if value is None and isinstance(container, dict):
            container.pop(key, None)
        else:
            container[key] = value
        return
    current = container[key] if isinstance(container, list) else container.get(key)
    if edit.op == "add":
        try:
            delta = int(edit.value)
        except ValueError:
            raise EditError(messages.NOT_STEP) from None
        if abs(delta) > LARGEST:
            raise EditError(messages.NUMBER_TOO_BIG, number=messages.WholeFigure(delta),
                            most=messages.WholeFigure(LARGEST))
        number = current if isinstance(current, int) and not isinstance(current, bool) else 0
        apply(builder, data, Edit("set", edit.path, str(number + delta), edit.shared))
        return
    if edit.op == "toggle":
        item = builder.coerce(builder.item_type(type_), edit.value, edit.path)
        if current == "all":  # Guédelon's `built`: all but the one taken off
            widget = builder.hints.widgets[edit.path[0]]
            assert widget.choices is not None
            current = [v for v, _ in widget.choices(builder.catalog, builder.options)]
        items = list(current or [])
        wanted = item not in items if edit.on is None else edit.on
        if item in items and not wanted:
            items.remove(item)
        elif item not in items and wanted:
            if len(items) >= MOST_ITEMS:
                raise EditError(messages.LIST_FULL, most=MOST_ITEMS)
            items.append(item)
        if isinstance(container, dict) and not items and isinstance(builder.type_at(edit.path[:1], edit.shared), MapOf):
            container.pop(key, None)
        else:
            container[key] = items
        return
    if edit.op == "append":
        items = list(current or [])
        if len(items) >= MOST_ITEMS:
            raise EditError(messages.LIST_FULL, most=MOST_ITEMS)
        inner = builder.item_type(type_)
        if isinstance(inner, Record):
            items.append({k: initial_value(k, f, builder.hints) for k, f in inner.fields.items()})
        else:
            value = builder.coerce(inner, edit.value, edit.path)
            if value is None:
                raise EditError(messages.NOTHING_TO_ADD)
            items.append(value)
        container[key] = items
        return
    if edit.op == "remove":
        items = list(current or [])
        if edit.seen is not None and edit.seen != len(items):
            raise EditError(messages.LIST_CHANGED, seen=edit.seen, now=len(items))
        if not edit.value.isdecimal() or int(edit.value) >= len(items):
            raise EditError(messages.NO_ITEM, index=edit.value[:10])
        del items[int(edit.value)]
        container[key] = items
        return
    raise EditError(messages.UNKNOWN_CHANGE, op=edit.op[:20])


def place_messages(messages: Sequence[Mapping[str, str]], slots: Sequence[str]) -> dict[str, list[dict[str, str]]]:
    """Each message under the most precise slot its `where` falls within; the rest under "" (the whole game).

    `players[1].guildhall.hunter` goes to the slot `players[1].guildhall` if there is no slot for the hunter row.
    """
    out: dict[str, list[dict[str, str]]] = {}
    ordered = sorted(slots, key=len, reverse=True)
    for message in messages:
        where = message.get("where", "")
        home = next((s for s in ordered if where == s or where.startswith(s + ".") or where.startswith(s + "[")), "")
        out.setdefault(home, []).append(dict(message))
    return out


def all_slots(controls: Sequence[Control]) -> list[str]:
    out: list[str] = []
    for control in controls:
        out.append(control.where)
        for item in control.items:
            out.extend(all_slots(item))
    return out


#: Characters kept of a key a form sends (an edit's, a new table's, a photo's): ours are at most 32 (an edit's, drawn
#: by the page's script); a longer one, sent by hand, is cut rather than kept whole in the database.
MOST_KEY = 80


def sent_key(form: Mapping[str, Any]) -> str | None:
    """The key a form carries (`key`: an edit's, drawn by the page's script; a new table's or a photo's, the state
    its page was drawn in), by which the form sent again is answered as the first; None without."""
    key = form.get("key")
    return (key[:MOST_KEY] or None) if isinstance(key, str) else None


def sent_again_key(key: str | None, *sent: str | bytes) -> str | None:
    """The key a form's send is kept by: its `key` with a digest of what it `sent` (the names, the photo). The page
    can be shown again with its key, by the back button (a page holding what was typed before sending it is kept by
    the browser: app.FORM_PAGES), and sent with other names or another photo: that is a new send, not the first
    sent again, and gets a key of its own."""
    if key is None:
        return None
    import hashlib

    digest = hashlib.sha256()
    for part in sent:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)  # each part's length first: ("ab", "c") is not ("a", "bc")
    return f"{key}:{digest.hexdigest()[:32]}"
