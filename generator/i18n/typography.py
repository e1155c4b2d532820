"""Typography per language: the spaces French puts before some punctuation, and each language's quotation marks.

French sets a no-break space before the high punctuation: a narrow one before `; ! ?` and a word space before
`:` (the Imprimerie nationale's rule), and « guillemets » with narrow no-break spaces inside; German writes
„Anführungszeichen“. Both write the apostrophe ’. English text is left exactly as written. The rules run on a
box's text after its template, so they reach what translators and designers write alike, and they only ever
add or change spaces and quotes: a word is never touched. Hyphenation is the text fitter's business (by the
same language); this module only says how the language's text is written.
"""

from __future__ import annotations

import re

#: A no-break space (the word space that never breaks), before a French colon.
NBSP = "\u00a0"
#: The narrow no-break space, before `; ! ?` and inside guillemets.
NNBSP = "\u202f"

# The patterns below stay text until a French or German text needs them (`re` compiles each once, on first use,
# and keeps it): an English build, the most common, never pays for compiling them.

#: A space or none before `; ! ?` that follows a word, a number, a closing bracket or quote: the space French
#: wants there. `?!` keeps one space before its first mark; `10:30` and `http://` (no space after) are left.
_FR_HIGH = r"(?<=[\w)\]»*}…])[ \u00a0\u202f]?([;!?]+)(?=\s|$|[)\]»*\[])"
_FR_COLON = r"(?<=[\w)\]»*}…])[ \u00a0\u202f]?:(?=\s|$|[*\[])"
#: A pair of straight or English double quotes around some text on one line.
_QUOTED = r"[\"“]([^\"“”\n]+)[\"”]"
#: An apostrophe between two letters (l'atelier, geht's).
_APOSTROPHE = r"(?<=[^\W\d_])'(?=[^\W\d_])"


def typeset(base: str, text: str, narrow: str = NNBSP) -> str:
    """`text` written as language `base` (`fr`, `de`) writes it; other languages are returned unchanged.

    `narrow` is the narrow no-break space to use (a font without one gets a no-break space instead)."""
    if base == "fr":
        text = re.sub(_APOSTROPHE, "\u2019", text)
        text = re.sub(_QUOTED, lambda m: f"«{narrow}{m.group(1).strip()}{narrow}»", text)
        text = re.sub(_FR_HIGH, lambda m: narrow + m.group(1), text)
        text = re.sub(_FR_COLON, NBSP + ":", text)
        # the catalogs write the narrow space themselves (the companion's pages show them as written): a face
        # without one gets the no-break space there too
        return text if narrow == NNBSP else text.replace(NNBSP, narrow)
    if base == "de":
        text = re.sub(_APOSTROPHE, "\u2019", text)
        return re.sub(_QUOTED, lambda m: f"\u201e{m.group(1)}\u201c", text)
    return text


__all__ = ["NBSP", "NNBSP", "typeset"]
