"""A player's key as the companion's database migration 7 computes it, frozen: never edit this module.

A migration is a record of what the database was made into at that version: a database of schema version 6
opened by any later donjon must come out of migration 7 with the same keys. Migration 7 called today's
`generator.fields.player_key`, so a later change of the key (another character left out, another way to fold
case) would have changed what migration 7 does, and two copies of one history, migrated before and after that
change, would have disagreed. It now calls this copy of `player_key` and `visible_name` as they were when migration 7
was written (commit 5202aee, the same as `generator.fields` had from commit 5a79840 on; checked line by line).

When `generator.fields.player_key` changes, leave this module as it is and add a migration that keys the players
again with a frozen copy of the new function (a module of its own, like this one), so that every database, whatever
its version, ends with today's keys. `tests/web/test_unseen_characters.py` fails while today's key and this one
differ on the names it knows, to say so.

What this copy cannot freeze is the Unicode data of the Python running it (`unicodedata`, and the `regex` package's
properties). Unicode's stability policies hold the parts the key relies on for every assigned character: a
character's decomposition (Normalization Stability), its canonical combining class, and its case folding (Case
Folding Stability). The joining types and emoji properties that decide whether a joiner is kept are not covered by
them: a character assigned after the Unicode version of this Python could be judged otherwise by a later one. Such a
name was refused at a table from commit c723ef7 on (an unassigned code point is no printable character).
"""

from __future__ import annotations

import re
import unicodedata

#: The characters no one sees, as `generator.fields._INVISIBLE` was at migration 7: a soft hyphen, the Arabic letter
#: mark, a zero-width space, the left-to-right and right-to-left marks, the bidi embeddings, overrides and isolates,
#: a word joiner and the invisible operators, the deprecated format characters and a byte order mark.
INVISIBLE = "[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]"
#: The zero-width non-joiner and joiner, kept where a script needs them (`generator.fields._JOINERS`).
JOINERS = "[\u200c\u200d]"
#: The canonical combining class of a virama (Unicode's UCD): a joiner after it chooses a half form.
VIRAMA = 9
#: Where a non-joiner keeps two joining letters apart (UAX #31 A1; RFC 5892 appendix A.1).
JOINS_BEFORE = r"[\p{Joining_Type=Left_Joining}\p{Joining_Type=Dual_Joining}]\p{Joining_Type=Transparent}*\Z"
JOINS_AFTER = r"\p{Joining_Type=Transparent}*[\p{Joining_Type=Right_Joining}\p{Joining_Type=Dual_Joining}]"
#: Where a joiner makes two emoji one (UTS #51's ZWJ sequences).
EMOJI_BEFORE = r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]\Z"
EMOJI_AFTER = r"\p{Extended_Pictographic}"
#: Variation selectors 15 and 16 (a character drawn as text or as an emoji), left out of the key only.
PRESENTATION = "[\ufe0e\ufe0f]"


def joiner_needed(text: str, at: int) -> bool:
    """Whether the joiner at `text[at]` is part of the spelling (`generator.fields._joiner_needed` at migration 7)."""
    import regex

    before, after = text[:at], text[at + 1:]
    if before and unicodedata.combining(before[-1]) == VIRAMA:
        return True
    if text[at] == "\u200c":
        return bool(regex.search(JOINS_BEFORE, before)) and bool(regex.match(JOINS_AFTER, after))
    return bool(regex.search(EMOJI_BEFORE, before)) and bool(regex.match(EMOJI_AFTER, after))


def visible_name(name: str) -> str:
    """A name without the characters no one sees and with its spaces as one (`generator.fields.visible_name` at
    migration 7)."""
    text = str(name)
    if not text.isascii():
        text = re.sub(INVISIBLE, "", text)
        if re.search(JOINERS, text):
            text = "".join(c for i, c in enumerate(text) if c not in "\u200c\u200d" or joiner_needed(text, i))
    return " ".join(text.split())


def player_key(name: str) -> str:
    """A player's key (`generator.fields.player_key` at migration 7): no case, accents, surrounding or doubled
    spaces, nothing no one sees, a character's text or emoji presentation alike."""
    text = visible_name(name)
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFKD", re.sub(PRESENTATION, "", text))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())
