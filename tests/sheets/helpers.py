"""Helpers for the score sheet tests: the sheets built once, and filling a fillable sheet as a viewer would."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from generator.backends.pdf import write_pdf
from generator.content import load_content
from generator.games.castle import GAME as CASTLE
from generator.games.castle.catalog import Castle
from generator.games.castle.sheets import drawn
from generator.sheets.draw import DrawnSheet

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
VERSIONS = ("great-architect", "apprentice")
PAPERS = ("a4", "letter")


@cache
def shipped() -> Castle:
    castle = load_content().catalog(CASTLE)
    assert castle is not None
    return castle


@cache
def sheet(version: str, paper: str, variant: str = "fillable", lang: str = "en") -> DrawnSheet:
    """A castle sheet drawn: fillable (the default), print (the same without its form) or scan (scan-ready); in
    `lang`, as `donjon build --lang` prints it."""
    from generator.catalog.translations import localise

    return drawn(localise(shipped(), lang), version, paper, variant)


def write(target: Path, version: str = "great-architect", paper: str = "a4", fillable: bool = True,
          lang: str = "en") -> Path:
    write_pdf([sheet(version, paper, "fillable" if fillable else "print", lang).page()], target, title="test sheet",
              lang=lang)
    return target


def fill(blank: Path, target: Path, values: Mapping[str, str | int | bool]) -> Path:
    """Fill a fillable sheet with pypdf, as a PDF viewer saves it: text typed in, boxes ticked (True)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter(clone_from=PdfReader(blank))
    texts = {k: str(v) for k, v in values.items() if not isinstance(v, bool)}
    ticks = {k: NameObject("/Yes" if v else "/Off") for k, v in values.items() if isinstance(v, bool)}
    writer.update_page_form_field_values(writer.pages[0], {**texts, **ticks}, auto_regenerate=False)
    writer.write(target)
    return target


def filled(folder: Path, name: str, values: Mapping[str, str | int | bool], version: str = "great-architect",
           paper: str = "a4", lang: str = "en") -> Path:
    """A fresh fillable sheet of `version` (printed in `lang`), filled with `values`, saved as folder/name."""
    blank = write(folder / f".blank-{name}", version, paper, lang=lang)
    return fill(blank, folder / name, values)


def castle_values(player: str, floors: int = 0, towers: tuple[int | str, ...] = (),
                  walls: Mapping[int, tuple[int | str, ...]] = {}, guests: tuple[str | int, ...] = (),
                  residents: int | str | None = None, sun: bool = False, cloud: bool = False,
                  sky_clouds: int | None = None) -> dict[str, str | int | bool]:
    """The field values of a castle: `walls` maps a wall's number to its flags' values. A value may be text, as
    a reader types it into a field (`"five"`, `"2.5"`), to see what the scorer makes of it."""
    values: dict[str, str | int | bool] = {"player": player}
    values.update({f"floor_{n}": True for n in range(1, floors + 1)})
    values.update({f"tower_{n}_value": v for n, v in enumerate(towers, start=1)})
    for number, flags in walls.items():
        values[f"wall_{number}"] = True
        values.update({f"wall_{number}_flag_{k}": v for k, v in enumerate(flags, start=1)})
    values.update({f"guest_{n}": g for n, g in enumerate(guests, start=1)})
    if residents is not None:
        values["residents"] = residents
    if sun:
        values["sun"] = True
    if cloud:
        values["cloud"] = True
    if sky_clouds is not None:
        values["sky_clouds"] = sky_clouds
    return values
