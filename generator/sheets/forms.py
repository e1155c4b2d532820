"""Filled fillable sheets read back: a PDF's form fields as the value of each field of its layout.

The fillable sheet (:mod:`~generator.sheets.draw`, variant `fillable`) puts a form field over each entry of a
field; this module reads them with pypdf (imported here, when a PDF is read, so scoring a YAML file never pays for
it). Which layout a PDF is, among the ones it may be, its hidden identity field says (the castle's `version`).
A value is taken as the sheet shows it:

- text: as typed (stripped); a count, a number: a whole number (a count left blank is 0, a number left blank has
  no value); a choice: one of its values (any case); a list: the slots filled in, in order, a slot holding one
  item or several separated by commas or semicolons (`cherry, fig`: a sheet may give a list one box);
- yes-no: ticked or not; a count of tick boxes: how many are ticked; a box is ticked as it shows, by its
  appearance state (`/AS`), which every viewer draws, and by its value (`/V`) only when it has no appearance
  state;
- a field the player fills for themselves (`read: false`, a total) is left alone;
- a field standing on a yes-no field (a flag on its wall) holding a value while that field is not ticked is
  refused: one of the two is wrong, and the player says which.

What cannot be read is refused with every problem named by file and form field, exit code 2.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from generator.errors import DocumentError, InputError, Problem
from generator.files import pypdf_quiet
from generator.i18n import N_
from generator.sayings import phrase_quoted
from generator.sheets.marks import own_words

if TYPE_CHECKING:
    from generator.i18n import Language
    from generator.sheets.read import SheetKind
    from generator.sayings import Words

#: What separates the items typed in one slot of a list: a comma as people write a list, or a semicolon.
ITEM_SEPARATOR = re.compile(r"\s*[,;]\s*")
#: How long a value may be quoted in a message.
QUOTE = 40
#: What the reader accepts in a number field: a whole number, maybe signed (the rules judge its value), written as
#: a decimal too (`5.0`, `5.`), as an end state's YAML or JSON `5.0` is read (scoring.formats.Quantity: "a whole
#: number written as a decimal is read as the whole number"): a sheet gives what the same castle in YAML gives...
NUMBER = re.compile(r"([+-]?\d+)(?:\.0*)?")
#: ... of at most this many digits.
DIGITS = 9
#: A form field of another kind than the sheet's (a text box where the sheet has a checkbox), by the kind wanted.
NOT_OF_ITS_KIND = {"/Tx": N_("is not a text box, as it is on a donjon {what}"),
                   "/Btn": N_("is not a checkbox, as it is on a donjon {what}")}


def _words(lang: Language | None) -> Words:
    """Messages in the language (`donjon score --lang fr`): English when None, whose messages are their own text (a
    message's English is its msgid)."""
    from generator.i18n import language
    from generator.sayings import Words

    return Words(lang if lang is not None else language())


def field_named(name: str, lang: Language | None = None) -> str:
    """A form field as a message names it: `field tower_1_value` (`champ tower_1_value`); the name is the PDF's."""
    return _words(lang)._("field {name}", name=name)


class SheetError(DocumentError):
    """A filled sheet that cannot be read: every problem, each naming the file and the field; the heading in
    `lang` (English when None)."""

    def __init__(self, file: str, problems: Sequence[Problem], what: str = "sheet",
                 lang: Language | None = None) -> None:
        # the layout's name is the sheet's own (a sheet of one's own names itself): said as it is (French and German
        # put it in brackets, after their word for a filled sheet)
        super().__init__(file, problems, _words(lang)._("a filled {what}", what=what), lang)


@dataclass(frozen=True)
class FormReading:
    """One filled PDF read: which of its possible sheets it is, each field's value, and the form field(s) each
    value was read from."""

    file: str
    kind: SheetKind
    values: dict[str, Any]
    where: dict[str, tuple[str, ...]]
    #: the language the PDF says it is in (`de`), or None
    lang: str | None = None


class FormFields(dict[str, Any]):
    """The form fields of a PDF by name, and the language the PDF says it is written in (its catalog's /Lang, which
    `donjon build --lang` writes: `de`), or None."""

    lang: str | None = None


def _language(reader: Any) -> str | None:
    """The base language of a PDF's /Lang (`de` of `de-DE`), or None when it has none or not a language code (a
    viewer that saves a copy may drop it: the names typed then say the language, `Checker.names_language`)."""
    from generator.i18n import normalise_code

    try:
        given = reader.trailer["/Root"].get("/Lang")
    except Exception:  # a damaged catalog: the language is a courtesy of messages, never a reason to refuse
        return None
    code = normalise_code(given) if isinstance(given, str) else None
    return code.split("-")[0] if code else None


def form_fields(data: bytes, display: str, what: str = "sheet", lang: Language | None = None) -> FormFields:
    """The form fields of a PDF by name (pypdf's field dictionaries) and its language; an InputError, said in `lang`
    (English when None), when it cannot be read."""
    say = _words(lang)
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError(display, say._("is not a PDF (it does not start with %PDF-); a filled {what} is a PDF saved "
                                        "from a PDF viewer", what=what))
    from pypdf import PdfReader

    with pypdf_quiet():
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            # A viewer may save a sheet encrypted (RC4 or AES) with an empty user password: every viewer opens it
            # without asking, and so does this reader (AES through the `cryptography` package). A sheet that
            # asks for a password cannot be read without it.
            if reader.is_encrypted and not reader.decrypt(""):
                raise InputError(display, say._("is protected by a password: donjon cannot open it. Open it in your "
                                                "PDF viewer with its password, save a copy without a password (or "
                                                "print it to a new fillable PDF), and score that copy"))
            # a damaged file can name a field with raw bytes; such a name matches none of ours and is reported so
            found = FormFields({name if isinstance(name, str) else bytes(name).decode("latin-1"): field
                                for name, field in (reader.get_fields() or {}).items()})
            found.lang = _language(reader)
            # A checkbox is read as it is shown: by its widget's appearance state (/AS) when it has one. Viewers
            # draw the box from /AS; some set only /AS, others leave a stale /V (`/AS /Yes` with `/V /Off` shows
            # ticked everywhere), so /V decides only for a box without an appearance state.
            boxes = [name for name, field in found.items() if field.get("/FT") == "/Btn"]
            if boxes:
                states = _widget_states(reader)
                for name in boxes:
                    if name in states:
                        found[name] = {**found[name], "/V": states[name]}
        except InputError:
            raise
        except Exception as err:  # pypdf raises many kinds of error on damaged files; none may escape as a bug
            reason = str(err).strip().splitlines()[0][:120] if str(err).strip() else type(err).__name__
            raise InputError(display, say._("is a damaged PDF that cannot be read ({reason})", reason=reason)) from None
    return found


def _widget_states(reader: Any) -> dict[str, Any]:
    """The state shown by each checkbox widget (`/AS`), by the field's full name (a field with several widgets is
    ticked when any of them shows ticked)."""
    states: dict[str, Any] = {}
    for page in reader.pages:
        for ref in page.get("/Annots") or ():
            widget = ref.get_object()
            if widget.get("/Subtype") != "/Widget" or widget.get("/AS") is None:
                continue
            parts, node, depth = [], widget, 0
            while node is not None and depth < 32:
                if node.get("/T") is not None:
                    parts.append(str(node["/T"]))
                parent = node.get("/Parent")
                node, depth = (parent.get_object() if parent is not None else None), depth + 1
            if parts:
                name = ".".join(reversed(parts))
                if str(states.get(name, "/Off")).lstrip("/") in ("", "Off"):
                    states[name] = widget["/AS"]
    return states


def read_form(found: Mapping[str, Any], display: str, kinds: Sequence[SheetKind],
              lang: Language | None = None) -> FormReading:
    """One filled sheet, its form fields `found`, read as one of `kinds` (the sheets it may be); what cannot be read
    is said in `lang` (`donjon score --lang`; English when None)."""
    say = _words(lang)
    # the layout's name: a sheet of one's own's in its languages, the castle's in the catalogs
    what = own_words(kinds[0].layout.name, kinds[0].layout.name_said, say.lang)
    if not found:
        raise InputError(display, say._("has no form fields: is it a donjon fillable {what}? (donjon build writes "
                                        "them as ...-fillable.pdf; a sheet printed or flattened to a new PDF loses its "
                                        "fields; a scan of a printed scan-ready sheet is read only when its four "
                                        "corner markers show)", what=what))
    identity = kinds[0].layout.identity[0]
    if identity not in found:
        raise InputError(display, say._("has form fields but no field {name}: it is not a donjon fillable {what}",
                                        name=phrase_quoted(identity, None, lang), what=what))
    reader = _Reader(display, found, what, lang)
    value = reader.text(identity)
    kind = next((k for k in kinds if k.layout.identity[1] == value), None)
    if kind is None:
        known = ", ".join(k.layout.identity[1] for k in kinds)
        raise SheetError(display, [Problem(display, None, field_named(identity, lang),
                                           say._("is {value}, which is no sheet donjon reads here ({known})",
                                                 value=phrase_quoted(value[:QUOTE], None, lang),
                                                 known=known))], what, lang)
    return replace(reader.read(kind), lang=getattr(found, "lang", None))


class _Reader:
    def __init__(self, display: str, found: Mapping[str, Any], what: str, lang: Language | None = None) -> None:
        self.file = display
        self.found = found
        self.what = what
        self.lang = lang
        #: the language the problems are said in
        self.say = _words(lang)
        self.problems: list[Problem] = []

    def fail(self, name: str, message: str) -> None:
        self.problems.append(Problem(self.file, None, field_named(name, self.lang), message))

    def text(self, name: str) -> str:
        field = self.found[name]
        if not self.kind(name, field, "/Tx"):
            return ""
        value = field.get("/V")
        if value is None:
            return ""
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        if not isinstance(value, str):
            self.fail(name, self.say._("holds {type}, not text", type=type(value).__name__))
            return ""
        return value.strip()

    def number(self, name: str, text: str) -> int | None:
        if not text:
            return None
        found = NUMBER.fullmatch(text)
        if found is None:
            shown = text if len(text) <= QUOTE else text[:QUOTE] + "..."
            self.fail(name, self.say._("expected a whole number, got {value}",
                                       value=phrase_quoted(shown, None, self.say.lang)))
            return None
        whole = found[1]
        if len(whole.lstrip("+-")) > DIGITS:
            self.fail(name, self.say.ngettext("is a number of {n} digit; nothing on a {what} comes near",
                                              "is a number of {n} digits; nothing on a {what} comes near",
                                              len(whole.lstrip("+-")), what=self.what))
            return None
        return int(whole)

    def ticked(self, name: str) -> bool:
        field = self.found[name]
        if not self.kind(name, field, "/Btn"):
            return False
        value = field.get("/V")
        return value is not None and str(value).lstrip("/") not in ("", "Off")

    def kind(self, name: str, field: Any, wanted: str) -> bool:
        if field.get("/FT") != wanted:
            self.fail(name, self.say._(NOT_OF_ITS_KIND[wanted], what=self.what))
            return False
        return True

    def read(self, kind: SheetKind) -> FormReading:
        drawn = kind.drawn("fillable")
        identity = kind.layout.identity[0]
        entries = {e.form: e for e in drawn.entries}
        fields = {f.name: f for f in drawn.fields}
        values: dict[str, Any] = {}
        where: dict[str, tuple[str, ...]] = {}
        filled = False
        for name in self.found:
            if name != identity and name not in entries:
                self.fail(name, self.say._("is not a field of a donjon {what}", what=self.what))
        for entry in drawn.entries:
            decl = fields.get(entry.field)
            if decl is None or not decl.read or entry.form not in self.found:
                continue
            where[decl.name] = (*where.get(decl.name, ()), entry.form)
            value: Any
            if entry.kind == "checkbox":
                ticked = self.ticked(entry.form)
                filled = filled or ticked
                if decl.type == "count":
                    value = values.get(decl.name, 0) + (entry.unit if ticked else 0)
                else:
                    value = values.get(decl.name, False) or ticked
            else:
                text = self.text(entry.form)
                filled = filled or bool(text)
                if decl.type in ("count", "number"):
                    value = self.number(entry.form, text)
                    if decl.type == "count" and value is None:
                        value = 0
                elif decl.type == "list":
                    held = values.get(decl.name, [])
                    value = [*held, *self.items(text, drawn.items.get(decl.name, ()))]
                    for index in range(len(held), len(value)):  # which slot each item of the list was read from
                        where[f"{decl.name}[{index}]"] = (entry.form,)
                elif decl.type == "choice":
                    value = self.choice(entry.form, text, kind.choices(decl), kind.named(decl),
                                        dict(drawn.choice_names.get(decl.name, ())))
                else:
                    value = text
            values[decl.name] = value
        for decl in fields.values():
            if values.get(decl.name) in (None, False, 0, "", []):
                continue
            # a box ticked for what it stands on (a flag's wall); the other needs of the rules (a guest's floor)
            # are the scorer's to check, as the player typed them
            for need in decl.needs:
                needed = need.fields[0]
                if not need.plain or values.get(needed) is True or needed not in where:
                    continue
                ticks = " or ".join(where[needed])
                for form in where.get(decl.name, ()):
                    why = own_words(need.why, need.said, self.say.lang)
                    self.fail(form, self.say._("holds a value, but {ticks} is not ticked ({why}): tick {ticks} or "
                                               "clear {form}", ticks=ticks, why=why, form=form))
        if self.problems:
            raise SheetError(self.file, self.problems, self.what, self.lang)
        if not filled:
            raise InputError(self.file, self.say._("has nothing filled in: fill in the sheet in a PDF viewer and "
                                                   "save it, then score it"))
        return FormReading(self.file, kind, values, where)

    @staticmethod
    def items(text: str, known: Sequence[tuple[str, str]]) -> list[str]:
        """The items typed in one slot of a list: one, or several separated by commas or semicolons (a sheet that
        gives a list a single box); a text naming one item whole (an item whose name holds a comma) is that item.
        Each is judged by the end state, which names one it does not know."""
        if not text or any(text.lower() in (i.lower(), n.lower()) for i, n in known):
            return [text] if text else []
        return [part for part in ITEM_SEPARATOR.split(text) if part]

    def choice(self, name: str, text: str, allowed: Sequence[Any], named: Mapping[str, str] | None = None,
               printed: Mapping[str, str] | None = None) -> Any:
        """The value typed in a choice's box: a value, or a value's name in any language of the sheet (`named`:
        folded name -> value; "Sommer" on a German sheet whose value is `summer`). Refused, it lists the values as
        the sheet prints them (`printed`: value -> name; a name whose fold is not the value's has it beside, as
        `--set` says them), which a player types."""
        if not text:
            return None
        for value in allowed:
            if str(value).lower() == text.lower():
                return value
        from generator.fields import normalise_name

        found = (named or {}).get(normalise_name(text))
        if found is not None:
            return next((value for value in allowed if str(value) == found), found)
        from generator.fields import named_value

        printed = printed or {}
        said = ", ".join(named_value(str(v), printed.get(str(v))) for v in allowed)
        self.fail(name, self.say._("holds {value}; it takes {values}",
                                   value=phrase_quoted(text[:QUOTE], None, self.say.lang), values=said))
        return None
