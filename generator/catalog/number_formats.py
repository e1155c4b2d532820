"""What a spreadsheet shows of a cell: its value under the cell's number format, in the deck's language.

A workbook keeps a number as it is (0.12, 3.5, 42, a date as a count of days) and shows it through the cell's
number format (`0%`, `"€"0.00`, `0000`, `dd/mm/yyyy`), with the decimal sign and the names of months of the
reader's language. A designer expects a card to print what the spreadsheet shows, so a cell's value is turned into
that text here: the format code (ECMA-376 part 1, 18.8.31 "numFmts", the codes Excel and LibreOffice write) is
read into a Unicode LDML pattern (Unicode Technical Standard #35, "Number Format Patterns" and "Date Format
Patterns") and Babel formats the value with it, in the deck's language (`lang:` in deck.yaml).

What is reproduced: the sections of a code (positive; negative; zero), text in quotes or after a backslash and the
characters Excel prints as they are (`$ - + ( ) : / space`...), currency symbols (`[$€-407]`), digits (`0`, `#`,
`?`), the thousands separator, decimals, percent, scientific notation (`0.00E+00`), `General` in a section, and
dates and times (`d dd ddd dddd m mm mmm mmmm yy yyyy h hh m mm s ss AM/PM`); Excel's built-in short date
(`mm-dd-yy`, format 14, which Excel shows in the reader's regional short date) is the language's short date,
its year in four digits.
Colours (`[Red]`) are left out: the card's layout gives the colour. Alignment (`_)`, `* `) becomes no space at
either end. A cell that holds text keeps its text.

What is not, and is refused naming the cell (:class:`FormatProblem`): conditions (`[>100]`), elapsed times
(`[h]:mm`), fractions (`# ?/?`), digits split by text (`000-000`), scaling by thousands (`#,##0,`), and a date
format on a cell holding no date.
"""

from __future__ import annotations

import datetime
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

#: Excel's built-in short date (number format 14): openpyxl names it by this code, but Excel shows it in the
#: reader's regional short date format, which is the language's short date here.
SHORT_DATE = "mm-dd-yy"
#: The characters a number section prints as they are, without quotes (ECMA-376 18.8.31; Excel's "Number format
#: codes": $ - + / ( ) : ! ^ & ' ~ { } < > = and the space).
_PLAIN = set("$-+/():!^&'~{}<>= ")
#: The characters of a number's digits and signs in a section.
_DIGITS = set("0#?.,%")
#: Date and time letters (any case).
_DATE_LETTERS = set("ymdhsYMDHS")


class FormatProblem(Exception):
    """A number format donjon cannot reproduce; the message says what in it."""


def shown(value: Any, code: str, lang: str) -> Any:
    """The text a spreadsheet shows of `value` under the number format `code`, written as `lang` writes it; the
    value itself for a cell of text, true or false, nothing, and for General numbers in a language that writes them
    as Python does (`1.5`, `42`). Raises FormatProblem for what cannot be reproduced."""
    if value is None or isinstance(value, (bool, str)):
        return value
    locale = lang.replace("-", "_")
    if code in ("General", "", "@"):
        return _general(value, locale, keep=True)
    sections = _sections(code)
    if isinstance(value, datetime.timedelta):
        raise FormatProblem("it shows a duration (elapsed hours, minutes or seconds)")
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return _date(value, code, sections[0], locale)
    number = float(value)
    if len(sections) >= 3 and number == 0:
        section, shown_value = sections[2], number
    elif len(sections) >= 2 and number < 0:
        section, shown_value = sections[1], -number  # the negative section carries its own sign, if any
    else:
        section, shown_value = sections[0], number
    return _number(shown_value, section, locale)


def _general(value: Any, locale: str, keep: bool = False) -> Any:
    """A number as General shows it: whole numbers as they are, others with the language's decimal sign."""
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 2**53):
        return int(value) if keep else str(int(value))
    text = repr(float(value))
    if "e" in text or "n" in text:  # 1e-05, inf, nan: as Python writes it
        return value if keep else text
    from babel.numbers import get_decimal_symbol

    symbol = get_decimal_symbol(locale)
    if symbol == "." and keep:
        return value
    return text.replace(".", symbol)


def _sections(code: str) -> list[str]:
    """A code's sections, split at the semicolons outside quotes, brackets and escapes."""
    sections, current, index = [], "", 0
    while index < len(code):
        char = code[index]
        if char == '"':
            end = code.find('"', index + 1)
            end = len(code) - 1 if end < 0 else end
            current += code[index:end + 1]
            index = end + 1
            continue
        if char in "\\_*" and index + 1 < len(code):
            current += code[index:index + 2]
            index += 2
            continue
        if char == "[":
            end = code.find("]", index)
            end = len(code) - 1 if end < 0 else end
            current += code[index:end + 1]
            index = end + 1
            continue
        if char == ";":
            sections.append(current)
            current = ""
        else:
            current += char
        index += 1
    sections.append(current)
    return sections


def _tokens(section: str) -> list[tuple[str, str]]:
    """A section as (kind, text) tokens: `lit` (printed as it is), `code` (digits, or date letters, or `@`),
    `general`; brackets are read here (a currency symbol is text, a colour is dropped, the rest refused)."""
    out: list[tuple[str, str]] = []
    index = 0
    while index < len(section):
        char = section[index]
        if char == '"':
            end = section.find('"', index + 1)
            end = len(section) if end < 0 else end
            out.append(("lit", section[index + 1:end]))
            index = end + 1
        elif char == "\\" and index + 1 < len(section):
            out.append(("lit", section[index + 1]))
            index += 2
        elif char == "_" and index + 1 < len(section):
            out.append(("pad", " "))  # the width of the next character: alignment, left out at either end
            index += 2
        elif char == "*" and index + 1 < len(section):
            out.append(("pad", ""))  # the next character repeated to fill the cell: nothing on a card
            index += 2
        elif char == "[":
            end = section.find("]", index)
            end = len(section) if end < 0 else end
            out += _bracket(section[index + 1:end])
            index = end + 1
        elif section[index:index + 7].lower() == "general":
            out.append(("general", ""))
            index += 7
        elif section[index:index + 5].upper() == "AM/PM" or section[index:index + 3].upper() == "A/P":
            size = 5 if section[index:index + 5].upper() == "AM/PM" else 3
            out.append(("ampm", section[index:index + size]))
            index += size
        elif char in _DIGITS or char in _DATE_LETTERS or char == "@" or (
                char in "Ee" and index + 1 < len(section) and section[index + 1] in "+-"):
            size = 2 if char in "Ee" else 1
            out.append(("code", section[index:index + size]))
            index += size
        else:
            out.append(("lit", char))
            index += 1
    return out


def _bracket(inside: str) -> list[tuple[str, str]]:
    """What a bracket of a section prints: a currency symbol (`$€-407`: the text before the dash), nothing for a
    colour or a language tag; conditions and elapsed times are refused."""
    if inside.startswith("$"):
        symbol = inside[1:].split("-", 1)[0]
        return [("lit", symbol)] if symbol else []
    if re.fullmatch(r"(?i)black|blue|cyan|green|magenta|red|white|yellow|color\s*\d{1,2}", inside):
        return []
    if re.fullmatch(r"[<>=]{1,2}\s*-?[0-9.]+", inside):
        raise FormatProblem(f"it shows values by a condition ([{inside}])")
    if re.fullmatch(r"(?i)h+|m+|s+", inside):
        raise FormatProblem(f"it shows elapsed time ([{inside}])")
    raise FormatProblem(f"donjon does not know its [{inside}]")


def _quote(text: str) -> str:
    """Text as a literal of an LDML pattern (quotes doubled)."""
    return "'" + text.replace("'", "''") + "'" if text else ""


def _number(value: float, section: str, locale: str) -> str:
    from babel.numbers import format_decimal

    tokens = _tokens(section)
    if any(kind == "code" and text.lower() in _DATE_LETTERS for kind, text in tokens):
        raise FormatProblem("it is a date format, and the cell holds a number")
    codes = [i for i, (kind, _text) in enumerate(tokens) if kind in ("code", "general")]
    if any(text == "@" for _kind, text in tokens):
        raise FormatProblem("it shows text (@) in a section for numbers")
    if not codes:  # a section of text only (a zero shown as "-")
        return "".join(text for _kind, text in tokens).strip()
    first, last = codes[0], codes[-1]
    between = tokens[first:last + 1]
    if any(kind != "code" for kind, text in between if text != "%") and len(codes) > 1:
        if any(kind == "general" for kind, _t in between):
            raise FormatProblem("it writes General beside digits")
        if any(text == "/" for _kind, text in between):
            raise FormatProblem("it shows a fraction")
        raise FormatProblem("it splits the digits with text")
    before = "".join(text for _kind, text in tokens[:first])
    after = "".join(text for _kind, text in tokens[last + 1:])
    if tokens[first][0] == "general":
        body = str(_general(value, locale))
    else:
        digits = "".join(text for _kind, text in between).replace("?", "#")
        if re.search(r",(?=[.%]|$|E)", digits.split("E")[0].split("e")[0]):
            raise FormatProblem("it scales the number by thousands (a comma after the last digit)")
        if "/" in after or "/" in before:
            raise FormatProblem("it shows a fraction")
        with localcontext() as context:
            context.rounding = ROUND_HALF_UP  # as spreadsheets round: 0.125 at two decimals is 0.13
            pattern = _pattern_text(before) + digits.replace("e", "E") + _pattern_text(after)
            body = str(format_decimal(Decimal(repr(value)), format=pattern, locale=locale))
        return body.strip()
    return (before + body + after).strip()


def _pattern_text(text: str) -> str:
    """Text around a number as LDML literals: a percent sign stays a percent (it multiplies by 100 in both)."""
    parts = re.split(r"(%)", text)
    return "".join(part if part == "%" else _quote(part) for part in parts)


#: Excel's date and time letters as LDML's, by how many are written (month; the minute, read by its neighbours).
_MONTHS = {1: "M", 2: "MM", 3: "MMM", 4: "MMMM", 5: "MMMMM"}
_DAYS = {1: "d", 2: "dd", 3: "EEE", 4: "EEEE"}


def _date(value: datetime.date | datetime.time, code: str, section: str, locale: str) -> str:
    from babel.dates import format_date, format_datetime, format_time, get_date_format

    if code.lower() == SHORT_DATE:
        day = value.date() if isinstance(value, datetime.datetime) else value
        if isinstance(day, datetime.time):
            raise FormatProblem("it is a date format, and the cell holds a time")
        # the language's short date, its year written whole, as spreadsheets write this format (5/1/2024 in
        # American English, 01/05/2024 in French, 01.05.2024 in German), where CLDR's short date has two digits
        short = re.sub(r"(?<!y)y{1,2}(?!y)", "yyyy", get_date_format("short", locale=locale).pattern)
        return str(format_date(day, short, locale=locale))
    tokens = _tokens(section)
    twelve = any(kind == "ampm" for kind, _text in tokens)
    # group runs of one letter: `dd`, `mmmm`
    runs: list[tuple[str, str]] = []
    for kind, text in tokens:
        if kind == "code" and runs and runs[-1][0] == "code" and runs[-1][1][-1].lower() == text.lower():
            runs[-1] = ("code", runs[-1][1] + text)
        else:
            runs.append((kind, text))
    letters = [i for i, (kind, _t) in enumerate(runs) if kind == "code"]
    pattern = ""
    for index, (kind, text) in enumerate(runs):
        if kind in ("lit", "pad"):
            pattern += _quote(text)
            continue
        if kind == "ampm":
            pattern += "a"
            continue
        if kind == "general":
            raise FormatProblem("it writes General in a date")
        letter, count = text[0].lower(), len(text)
        if letter in "0#?.,%@" or letter == "e":
            if text.startswith(".") or (text.startswith("0") and pattern.endswith("'.'")):
                raise FormatProblem("it shows fractions of a second")
            raise FormatProblem("it mixes a date with digits")
        if letter == "y":
            pattern += "yy" if count <= 2 else "yyyy"
        elif letter == "d":
            pattern += _DAYS[min(count, 4)]
        elif letter == "h":
            pattern += ("h" if twelve else "H") * min(count, 2)
        elif letter == "s":
            pattern += "s" * min(count, 2)
        else:  # m: a minute after an hour or before a second, else a month
            position = letters.index(index)
            previous = runs[letters[position - 1]][1][0].lower() if position > 0 else ""
            following = runs[letters[position + 1]][1][0].lower() if position + 1 < len(letters) else ""
            minute = previous == "h" or following == "s"
            pattern += "m" * min(count, 2) if minute else _MONTHS[min(count, 5)]
    if isinstance(value, datetime.datetime):
        moment = value.replace(tzinfo=datetime.timezone.utc)
        return str(format_datetime(moment, pattern, tzinfo=datetime.timezone.utc, locale=locale)).strip()
    if isinstance(value, datetime.time):
        return str(format_time(value, pattern, locale=locale)).strip()
    return str(format_date(value, pattern, locale=locale)).strip()
