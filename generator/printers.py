"""Saved home printers: the duplex offset and scale `donjon printer add` measured, applied by `--printer NAME`.

Kept as JSON in donjon's data folder (`printers.json` beside the companion's database; `$DONJON_PRINTERS` names
another file), written whole and renamed into place, so a failed save leaves the previous file as it was.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import NamedTuple

from generator.errors import InputError, UsageError


class Printer(NamedTuple):
    name: str
    #: millimetres, x right and y up as seen on the back
    back_offset: tuple[float, float]
    #: factors across and down
    scale: tuple[float, float]


#: How far a back may be moved, in mm each way: the calibration sheet's crosses measure -2 to +2 mm, and a printer
#: further out than 10 mm is feeding its paper askew, which no offset makes up for.
OFFSET_MM = (-10.0, 10.0)
#: The scale factors a printer may get: a printer off by more than a tenth is not printing at 100 % (a "fit to
#: page" setting), which a scale must not hide.
SCALE = (0.9, 1.1)


def printers_file() -> Path:
    chosen = os.environ.get("DONJON_PRINTERS")
    if chosen:
        return Path(chosen)
    from platformdirs import user_data_dir

    return Path(user_data_dir("donjon", appauthor=False)) / "printers.json"


def _number(text: str) -> float:
    """A number, or a fraction of two (150/149.4: the scale as the calibration sheet's ruler gives it, what it
    should measure over what it measured, written as the docs write it); ValueError if neither."""
    top, slash, bottom = text.partition("/")
    if not slash:
        return float(text)
    divisor = float(bottom)
    if divisor == 0:
        raise ValueError(text)
    return float(top) / divisor


def parse_pair(option: str, text: str, low: float, high: float, example: str = "0.5,-1") -> tuple[float, float]:
    parts = [p.strip() for p in text.split(",")]
    try:
        x, y = (_number(p) for p in parts)
    except ValueError:
        raise UsageError(option, f"{text!r} is not X,Y (two numbers such as {example})") from None
    for value in (x, y):
        if not low <= value <= high:
            raise UsageError(option, f"{value:g} is out of range; each must be from {low:g} to {high:g}")
    return x, y


def load_printers() -> dict[str, Printer]:
    path = printers_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        raise InputError(str(path), f"cannot be read as donjon's printers ({err})") from None
    try:
        printers = {name: Printer(name, (float(v["back_offset"][0]), float(v["back_offset"][1])),
                                  (float(v["scale"][0]), float(v["scale"][1]))) for name, v in data.items()}
    except (TypeError, KeyError, IndexError, ValueError, AttributeError):
        raise InputError(str(path), "is not a file of printers donjon wrote (each: back_offset and scale)") from None
    # the file can be edited by hand: held to the ranges `printer add` keeps, as every page would take its values
    for printer in printers.values():
        for what, pair, (low, high) in (("back_offset", printer.back_offset, OFFSET_MM),
                                        ("scale", printer.scale, SCALE)):
            for value in pair:
                if not low <= value <= high:  # NaN, which JSON as Python writes it may hold, is in no range
                    raise InputError(str(path), f"printer {printer.name!r}: {what} {value:g} is out of range; each "
                                                f"must be from {low:g} to {high:g}")
    return printers


def find_printer(name: str) -> Printer:
    printers = load_printers()
    found = printers.get(name)
    if found is None:
        from generator.i18n import phrase
        from generator.sayings import phrase_quoted

        known = ", ".join(printers) or phrase("none yet: measure one with `donjon build calibration`, then `donjon "
                                              "printer add`")
        raise UsageError("--printer", phrase("{value} is not a saved printer ({known})",
                                             value=phrase_quoted(name, None), known=known))
    return found


def _write(printers: dict[str, Printer]) -> Path:
    from generator.errors import OutputError

    path = printers_file()
    data = {p.name: {"back_offset": list(p.back_offset), "scale": list(p.scale)} for p in printers.values()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        raise OutputError(path, err.strerror or str(err)) from None
    return path


def save_printer(printer: Printer) -> Path:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,60}", printer.name):
        raise UsageError("NAME", f"{printer.name!r}: use letters, digits, - and _ (at most 60)")
    printers = load_printers()
    printers[printer.name] = printer
    return _write(printers)


def remove_printer(name: str) -> None:
    printers = load_printers()
    if printers.pop(name, None) is None:
        raise UsageError("NAME", f"{name!r} is not a saved printer")
    _write(printers)
