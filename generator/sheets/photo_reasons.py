"""Why a photo, or a field of it, could not be read: a reason code, the fields involved, a sentence saying what was
seen and one saying what to change, so that the command line, the JSON and the table companion can each show them
(the companion as text beside the photo, in the player's words).

A photo refused as a whole raises :class:`PhotoRefused` (an :class:`~generator.errors.InputError`, exit 2) with
its :class:`PhotoIssue`; a photo read with fields it could not decide carries one :class:`PhotoIssue` per cause
(`PhotoRead.issues`), and each uncertain field says its code (`Uncertainty.code`). Codes are stable (the table
below); sentences may be reworded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import InputError
from generator.sheets.marks import Uncertainty
from generator.wording import listing

#: Codes of a photo refused as a whole, and what to change.
REFUSALS = {
    "no-sheet": "photograph the whole sheet, flat and in good light, its four corner squares in view",
    "half-sheet": "photograph the whole sheet: its four corner squares must be in the photo",
    "blurred": "hold the phone still and let it focus (tap the sheet on the screen), then take the photo again",
    "two-sheets": "photograph one sheet per photo",
    "other-sheet": "print the sheet again with this donjon and fill that one",
    "not-flat": "lay the sheet flat and photograph it again",
    "too-dark": "photograph the sheet in more light",
}
#: Codes of fields that could not be decided: what was seen ({fields}: the fields) and what to change (or do).
FIELD_CAUSES = {
    "glare": ("glare over {fields}", "tilt the phone so the lamp's reflection leaves the sheet"),
    "covered": ("{fields} cannot be seen: something covers the sheet there (a finger, an object, a deep shadow)",
                "photograph the sheet again with nothing over it"),
    "outside": ("{fields} are not in the photo", "photograph the whole sheet"),
    "faint": ("the marks of {fields} are faint or small", "fill the marks firmly, or confirm them"),
    "spill": ("strokes from neighbouring marks run into {fields}", "confirm them"),
    "ghost": ("{fields} show faint traces: rubbed out, or filled lightly?", "confirm them"),
    "half-coloured": ("figures of {fields} are coloured in half", "colour them in wholly, or confirm them"),
    "two-values": ("{fields} have two values filled", "rub out the one that does not count, or confirm it"),
    "gap": ("{fields} are filled with a gap", "confirm them"),
    "rules": ("what was read of {fields} contradicts the rules (a mark misread or forgotten)", "confirm them"),
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
    #: what to change or do ("tilt the phone so the lamp's reflection leaves the sheet")
    advice: str

    def __str__(self) -> str:
        return f"{self.sentence}: {self.advice}"

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "fields": list(self.fields), "sentence": self.sentence, "advice": self.advice}


def refusal(code: str, sentence: str) -> PhotoIssue:
    return PhotoIssue(code, (), sentence, REFUSALS[code])


def field_issue(code: str, fields: Sequence[str]) -> PhotoIssue:
    """An issue over some fields (`code` a key of FIELD_CAUSES)."""
    sentence, advice = FIELD_CAUSES[code]
    return PhotoIssue(code, tuple(fields), sentence.format(fields=listing(list(fields), "and")), advice)


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
