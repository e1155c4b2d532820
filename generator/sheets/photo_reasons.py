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
#: Codes of a field that could not be decided, and what to change (or do).
FIELD_CAUSES = {
    "glare": "tilt the phone so the lamp's reflection leaves the sheet",
    "covered": "nothing may lie over the sheet (a finger, a pen, a shadow too dark): photograph it again",
    "outside": "photograph the whole sheet",
    "faint": "fill the mark more firmly, or confirm it",
    "spill": "confirm it: a stroke from a neighbouring mark runs into it",
    "ghost": "confirm it: a mark rubbed out lies beside a filled one",
    "half-coloured": "colour the figure in wholly, or confirm it",
    "two-values": "rub out the value that does not count, or confirm the one that does",
    "gap": "confirm it: its marks are not filled from the first on",
    "rules": "confirm it: what was read contradicts the rules, so a mark was misread or forgotten",
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


def field_issue(code: str, fields: Sequence[str], what: str) -> PhotoIssue:
    """An issue over some fields: `what` says what was seen ("glare"), the fields are named after it."""
    return PhotoIssue(code, tuple(fields), f"{what} over {listing(list(fields), 'and')}" if fields else what,
                      FIELD_CAUSES[code])


class PhotoRefused(InputError):
    """A photo that cannot be read at all, and why (exit 2): the message names the photo, says what was seen and
    what to change."""

    def __init__(self, file: str, issue: PhotoIssue) -> None:
        self.issue = issue
        super().__init__(file, str(issue))

    @property
    def code(self) -> str:
        return self.issue.code
