"""What a player does about a photo the reader refused, or about a field it could not decide: one piece of advice
per reason, said to a person holding a phone (the table companion's pages, `donjon score`'s listing and JSON).

The reader says why in words (:mod:`~.photos`, :mod:`~.marks`, :mod:`~.read`); a reason is recognised by a few of
those words until the reader gives its reason's code itself (a refusal's or an uncertainty's `code`, which then
wins: the names here are the reader's codes, `half-sheet`, `blurred`, `glare`...). Adding a reason is one line of
:data:`REFUSALS` or :data:`UNCERTAIN`: its name, the words that say it, the advice (and for a refusal the tip of
the companion's photo guide it goes against). The first reason whose words appear in the message is the one: more
precise ones come first.
"""

from __future__ import annotations

from typing import NamedTuple

from generator.i18n import N_


class Reason(NamedTuple):
    """Why a photo was refused (or a field left undecided), and what to change."""

    #: a short name, stable for machines (the JSON's `reason`)
    name: str
    #: words of the reader's message that say it (lower case), any one of them enough
    said: tuple[str, ...]
    #: what to change, in words, to the player
    advice: str
    #: the tip of the companion's photo guide it goes against (`flat`, `corners`, `light`, `still`, `one`:
    #: templates/web/_photo_guide.html), shown as the one to mind after a refusal; "" for none
    tip: str = ""
    #: what was seen, said after the photo's name ("ben.jpg: shows more than one whole sheet"), for a refusal: what
    #: the companion shows in a language other than English, where the reader's own (English) words cannot be
    #: shown; "" for none (the reader's words are shown)
    seen: str = ""
    #: its advice is another photo of the same sheet, read with the first (the command line takes it as two files
    #: given under one name)
    retake: bool = False
    #: a retake's advice when no other photo of the sheet can be added (the companion keeps a few per sheet): what
    #: is left to do; "" for none
    alone: str = ""


#: Why a photo (or a file among the sheets) is not read at all, and what to change before the next shot.
REFUSALS: tuple[Reason, ...] = (
    Reason("different-sheets", ("look like the sheets of different players", "is given as the same sheet as"),
           N_("These photos show different sheets: every photo of a sheet shows that same sheet; photograph "
              "another player's sheet under their own name."),
           seen=N_("shows another sheet than the other photos of this sheet")),
    Reason("blank", ("with no mark filled in",), N_("This sheet has no mark filled in: photograph the sheet of the "
           "finished game, its bubbles filled with a dark pencil or a pen."),
           seen=N_("shows a sheet with no mark filled in")),
    Reason("other-version", ("is a sheet of the", "this sheet is for the"), N_("This sheet is of another version "
           "than this game's: photograph the sheet this game was played on."),
           seen=N_("shows a sheet of another version than this game's")),
    Reason("other-sheet", ("are not those of",), N_("This sheet was printed by another donjon, or is another kind "
           "of sheet: print this game's scan-ready sheet again and fill it in."),
           seen=N_("shows a sheet this donjon did not print for this game")),
    Reason("several-pages", ("each show a sheet",), N_("Scan each player's sheet to a PDF of its own (a blank page "
           "after it is fine), or photograph each sheet."), seen=N_("holds several sheets, one per page")),
    Reason("two-sheets", ("more than one", "two sheets", "two whole sheets"), N_("Put the other sheets and cards "
           "away, out of the frame: one sheet per photo."), "one", N_("shows more than one whole sheet")),
    Reason("half-sheet", ("corner markers: photograph the whole", "of the sheet's 4 corner markers"),
           N_("Step back until the whole sheet is in the frame, all four black corner squares showing, with a "
           "finger's width of table around it; keep hands and pens off the corners."), "corners",
           N_("shows only part of the sheet: some of its four corner squares are missing")),
    Reason("no-sheet", ("none of its four corner markers",), N_("Frame the whole sheet, its four black corner squares "
           "showing, flat, in good light. Only the scan-ready sheet has those squares: the fillable sheet, printed, "
           "cannot be read from a photo."), "corners",
           N_("shows no scan-ready sheet: none of its four corner squares was found")),
    Reason("blurred", ("blur",), N_("Hold the phone still (elbows on the table), tap the sheet on the screen to focus, "
           "then shoot."), "still", N_("is too blurred to read the marks")),
    Reason("too-dark", ("too dark", "low light", "more light"),
           N_("Shoot in more light: near a window or under a lamp, without the "
           "flash."), "light", N_("is too dark to read the marks")),
    Reason("not-flat", ("cannot be a flat sheet", "curl", "fold"), N_("Lay the sheet flat on the table (smooth "
           "its folds) and shoot from straight above."), "flat", N_("shows a sheet too curled or folded to read")),
    Reason("too-small", ("too small to read",), N_("Send the photo as the camera took it, not a thumbnail or a "
           "messaging app's smaller copy, with the sheet filling the frame."),
           seen=N_("has too few pixels to read a sheet's marks")),
    Reason("too-large", ("megapixels", "too large", "image bomb"), N_("Send the camera's own JPEG, at its usual "
           "size."), seen=N_("is larger than donjon reads")),
    Reason("empty", ("is empty (0 bytes)",), N_("Take the photo again, or send it again: the file that arrived "
           "holds nothing (a copy that failed, or a photo still in the cloud)."), seen=N_("is empty (0 bytes)")),
    # a PDF sent as a filled fillable sheet that has no form fields of donjon's (generator.sheets.forms.read_form):
    # the sheet printed and scanned, or flattened, to a new PDF, or another document
    Reason("not-a-fillable-sheet", ("has no form fields", "has form fields but no field"), N_("Send the fillable "
           "sheet (PDF) as it was saved once filled in: printed, scanned or flattened to a new PDF, a sheet loses "
           "its fields. A sheet filled on paper is read from a photo of the scan-ready sheet."),
           seen=N_("is not a filled fillable sheet of donjon's: this PDF has no form fields")),
    Reason("not-a-photo", ("is not a photo donjon reads", "damaged image", "heic photo"), N_("Send a photo of the "
           "sheet as the camera saved it (JPEG, PNG or HEIC); if it was cut short, take it again."),
           seen=N_("is not a photo donjon reads (JPEG, PNG or HEIC), or it is damaged")),
)

#: Why a field read from a photo is undecided, and what the player does about it.
UNCERTAIN: tuple[Reason, ...] = (
    Reason("outside", ("outside the photo",), N_("The sheet was not all in the photo: look at the sheet and set it, "
           "or take the photo again with the whole sheet in the frame.")),
    Reason("glare", ("glare", "reflect"), N_("Light shone on these marks: look at the sheet and set it, or add "
           "another photo of it with the phone tilted, so that the shine moves off them; it is added to this one, "
           "not put in its place, and donjon reads the two together."), retake=True,
           alone=N_("Light shone on these marks: look at the sheet and set it.")),
    Reason("disagree", ("photos disagree",), N_("The photos of this sheet read these marks differently: look at the "
           "sheet and set it.")),
    Reason("covered", ("finger", "covered", "hidden", "occlu"), N_("Something covered these marks: look at the "
           "sheet and set it, or move your hand (or what lies on the sheet) and add another photo; it is added to "
           "this one, not put in its place, and donjon reads the two together."), retake=True,
           alone=N_("Something covered these marks: look at the sheet and set it.")),
    Reason("bent", ("a fold or a curl", "folded or bent"), N_("The sheet is folded or bent there: look at the sheet "
           "and set it, or flatten the sheet and add another photo; it is added to this one, not put in its place, "
           "and donjon reads the two together."), retake=True,
           alone=N_("The sheet is folded or bent there: look at the sheet and set it.")),
    Reason("shadow", ("shadow",), N_("A shadow fell on these marks: look at the sheet and set it, or take the photo "
           "again with the light from the side.")),
    Reason("two-values", ("are both filled",), N_("Two values are filled where one counts: keep the one that counts "
           "(tap the other away).")),
    Reason("gap", ("not from the first on",), N_("The marks filled leave a gap: count them on the sheet and set the "
           "number.")),
    Reason("spill", ("runs into", "neighbour"), N_("A stroke from the mark beside it runs into this one: look at the "
           "sheet and set it.")),
    Reason("ghost", ("rubbed out", "ghost"), N_("A mark is much lighter than the sheet's other marks: rubbed "
           "out, or filled lightly? Look at the sheet and set it.")),
    Reason("half-coloured", ("half coloured", "partly coloured", "half-coloured"), N_("A figure is only partly "
           "coloured in: count the figures on the sheet and set the number.")),
    Reason("rules", ("contradicts the rules", "a flag stands on", "brings its guest", "comes with its floor"),
           N_("What was read cannot be by the rules, so a mark was misread or forgotten: look at the sheet and set "
              "it.")),
    Reason("faint", ("faint", "neither filled nor empty"), N_("A mark is too light to be sure: look at the sheet "
           "and set it (next time, fill each bubble darker).")),
)


def _find(table: tuple[Reason, ...], message: str, name: str | None) -> Reason | None:
    named = next((r for r in table if r.name == name), None) if name else None
    if named is not None:
        return named
    said = message.lower()
    return next((r for r in table if any(words in said for words in r.said)), None)


def refusal(message: str, name: str | None = None) -> Reason | None:
    """The reason a photo (or a sheet file) was refused, by the reader's code for it (`name`) or else by its
    message; None when neither says one we know (the message is then the only advice)."""
    return _find(REFUSALS, message, name)


def alone_advice(name: str) -> str:
    """The advice of the uncertainty named `name` when no other photo of its sheet can be added: a retake's
    `alone`, any other's own advice ("" for a name not known)."""
    found = _find(UNCERTAIN, "", name)
    return "" if found is None else found.alone or found.advice


def uncertainty(why: str, name: str | None = None) -> Reason | None:
    """The reason a field read from a photo is uncertain, by the reader's code (`name`) or else by its words."""
    return _find(UNCERTAIN, why, name)
