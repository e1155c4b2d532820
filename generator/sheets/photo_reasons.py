"""Why a photo, or a field of it, could not be read: a reason code, the fields involved, a sentence saying what was
seen, and what to change (the advice of :mod:`~generator.sheets.advice`, one text per code, which the table
companion shows too), so that the command line, the JSON and the companion can each show them.

A photo refused as a whole raises :class:`PhotoRefused` (an :class:`~generator.errors.InputError`, exit 2) with
its :class:`PhotoIssue`; a photo read with fields it could not decide carries one :class:`PhotoIssue` per cause
(`PhotoRead.issues`), and each uncertain field says its code (`Uncertainty.code`). Codes are stable (the names of
advice.py's reasons); sentences may be reworded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import InputError
from generator.i18n import N_
from generator.sheets import advice
from generator.sheets.marks import Uncertainty
from generator.wording import listing

#: Codes of a photo the reader refuses as a whole (their advice: generator.sheets.advice.REFUSALS).
REFUSALS = ("no-sheet", "half-sheet", "blurred", "two-sheets", "other-sheet", "not-flat")
#: Codes of fields that could not be decided, and what was seen ({fields}: the fields), in the order the reasons
#: are reported (their advice: generator.sheets.advice.UNCERTAIN). The companion says them in the phone's language
#: over one field each (generator.sheets.summary.why_said): worded for one field or several.
FIELD_CAUSES = {
    "glare": N_("glare over {fields}"),
    "covered": N_("{fields} cannot be seen: something covers the sheet there (a finger, an object, a deep "
                  "shadow)"),
    "outside": N_("{fields} are not in the photo"),
    "bent": N_("{fields} lie where the sheet is folded or bent: where their marks are is not sure"),
    "faint": N_("the marks of {fields} are faint or small"),
    "spill": N_("strokes from neighbouring marks run into {fields}"),
    "ghost": N_("{fields} show faint traces: rubbed out, or filled lightly?"),
    "half-coloured": N_("figures of {fields} are coloured in half"),
    "two-values": N_("{fields} have two values filled"),
    "gap": N_("{fields} are filled with a gap"),
    "disagree": N_("the photos of one sheet disagree on {fields}"),
    "rules": N_("what was read of {fields} contradicts the rules (a mark misread or forgotten)"),
}

#: The same causes said of one field after its label, as the check page and the marks' problems show them
#: ("towers #3: two values filled"): the sentences above name the field again ("towers #3: towers #3: ...").
FIELD_CAUSES_AFTER_LABEL = {
    "glare": N_("glare over its marks"),
    "covered": N_("cannot be seen: something covers the sheet there (a finger, an object, a deep shadow)"),
    "outside": N_("not in the photo"),
    "bent": N_("lies where the sheet is folded or bent: where its marks are is not sure"),
    "faint": N_("its marks are faint or small"),
    "spill": N_("strokes from neighbouring marks run into it"),
    "ghost": N_("faint traces: rubbed out, or filled lightly?"),
    "half-coloured": N_("figures coloured in half"),
    "two-values": N_("two values filled"),
    "gap": N_("filled with a gap"),
    "disagree": N_("the photos of one sheet disagree on it"),
    "rules": N_("what was read contradicts the rules (a mark misread or forgotten)"),
}


@dataclass(frozen=True)
class PhotoIssue:
    """One reason a photo, or some of its fields, could not be read."""

    #: a key of REFUSALS (the whole photo) or FIELD_CAUSES (some fields)
    code: str
    #: the fields involved (the map's names: `towers[1]`), in the map's order; none for a refusal
    fields: tuple[str, ...]
    #: what was seen, in words ("glare over towers[1] and towers[2]")
    sentence: str
    #: what to change or do, to the player (generator.sheets.advice)
    advice: str

    def __str__(self) -> str:
        return f"{self.sentence}: {self.advice}"

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "fields": list(self.fields), "sentence": self.sentence, "advice": self.advice}


def refusal(code: str, sentence: str) -> PhotoIssue:
    """A photo refused as a whole (`code` one of REFUSALS), with what was seen."""
    found = advice.refusal(sentence, code)
    return PhotoIssue(code, (), sentence, found.advice if found else "")


def field_issue(code: str, fields: Sequence[str]) -> PhotoIssue:
    """An issue over some fields (`code` a key of FIELD_CAUSES)."""
    found = advice.uncertainty("", code)
    return PhotoIssue(code, tuple(fields), FIELD_CAUSES[code].format(fields=listing(list(fields), "and")),
                      found.advice if found else "")


def field_issues(uncertain: Sequence[Uncertainty]) -> tuple[PhotoIssue, ...]:
    """The uncertain fields of a photo, one issue per cause (in FIELD_CAUSES' order), each with its fields in the
    order they were read."""
    by_code: dict[str, list[str]] = {}
    for u in uncertain:
        by_code.setdefault(u.code if u.code in FIELD_CAUSES else "faint", []).append(u.field)
    return tuple(field_issue(code, by_code[code]) for code in FIELD_CAUSES if code in by_code)


class PhotoRefused(InputError):
    """A photo that cannot be read at all, and why (exit 2): the message names the photo, says what was seen and
    what to change."""

    def __init__(self, file: str, issue: PhotoIssue) -> None:
        self.issue = issue
        super().__init__(file, str(issue))

    @property
    def code(self) -> str:
        return self.issue.code
