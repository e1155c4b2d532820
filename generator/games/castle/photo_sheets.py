"""Photos of scan-ready castle sheets as filled sheets of one game: what :mod:`~.filled_sheets` reads when a file
is a photo (or a PDF scan of a printed sheet) instead of a fillable PDF.

Each photo is read by :mod:`~.photos`; its marks become one sheet of the castle end state (the same document a
YAML file gives), with the field each value came from, and the fields it could not decide. Values a person
confirmed (`--set towers[1]=5`, or `sheets[1].towers[1]=5` when several photos are read) are taken as given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from generator.errors import InputError, UsageError
from generator.games.castle.marks import BadConfirmation
from generator.games.castle.photos import NO_MARKERS

if TYPE_CHECKING:
    from generator.games.castle.catalog import Castle
    from generator.games.castle.photos import PhotoRead

#: `sheets[1].towers[0]`: a confirmation naming its sheet.
_KEYED = re.compile(r"sheets\[(\d+)\]\.(.+)")
#: A PDF scan is rasterised at this many pixels per point (200 dpi) to be read as a photo.
SCAN_SCALE = 200 / 72


@dataclass(frozen=True)
class PhotoSheet:
    """One photo read: the sheet of the end state, where its values came from, what is uncertain."""

    file: str
    version: str
    data: dict[str, object]
    origin: dict[str, tuple[str, ...]]
    #: (field, why) of each undecided field
    uncertain: tuple[tuple[str, str], ...]
    read: PhotoRead


def confirmations(given: Sequence[tuple[str, str]], photos: Sequence[int], count: int) -> dict[int, dict[str, str]]:
    """Each `--set KEY=VALUE` by the index of the sheet it is for: `sheets[N].FIELD` names its sheet, a bare
    FIELD is for the only photo (a usage error when several photos were given)."""
    out: dict[int, dict[str, str]] = {}
    for key, value in given:
        if not photos:
            raise UsageError(f"--set {key}", "confirms values read from photos, and no photo was given")
        found = _KEYED.fullmatch(key.strip())
        if found is not None:
            index = int(found.group(1))
            if index >= count:
                raise UsageError(f"--set {key}", f"there {'is' if count == 1 else 'are'} {count} sheet"
                                                 f"{'' if count == 1 else 's'} (sheets[0] to sheets[{count - 1}])")
            if index not in photos:
                raise UsageError(f"--set {key}", f"sheets[{index}] is not a photo; --set confirms marks read from "
                                                 "photos")
            out.setdefault(index, {})[found.group(2)] = value
        elif len(photos) == 1:
            out.setdefault(photos[0], {})[key.strip()] = value
        else:
            raise UsageError(f"--set {key}", f"{len(photos)} photos were read: say which one, as "
                                             f"sheets[N].{key.strip()} (N from 0, in the order given)")
    return out


def read_photo_sheet(data: bytes, display: str, castle: Castle, confirmed: Mapping[str, str],
                     key: str = "") -> PhotoSheet:
    """One photo (JPEG, PNG, HEIC) of a scan-ready sheet; `key` prefixes its fields in `--set` (`sheets[1].`)."""
    from generator.games.castle.photos import read_photo

    try:
        return _sheet(read_photo(data, display, castle, confirmed), display)
    except BadConfirmation as err:
        raise UsageError(f"--set {key}{err.field}", f"{display}: {err}") from None


def read_pdf_scan(data: bytes, display: str, castle: Castle, confirmed: Mapping[str, str],
                  key: str = "") -> PhotoSheet | None:
    """A PDF without form fields, read as a scan of a printed scan-ready sheet (its first page rasterised), or
    None when it shows no sheet's markers (or photos cannot be read here)."""
    try:
        import cv2  # noqa: F401  (the scan extra)
        import numpy as np
        import pypdfium2 as pdfium
    except ImportError:
        return None
    from generator.games.castle.photos import MAX_PIXELS, read_grey

    try:
        document = pdfium.PdfDocument(data)
        if len(document) < 1:
            return None
        page = document[0]
        width, height = page.get_size()
        if width * height * SCAN_SCALE ** 2 > MAX_PIXELS:
            return None
        pixels = page.render(scale=SCAN_SCALE, grayscale=True).to_numpy()
        grey = np.ascontiguousarray(pixels[:, :, 0] if pixels.ndim == 3 else pixels)
    except Exception:  # pdfium raises its own errors on damaged files; the caller reports the PDF as it is
        return None
    try:
        return _sheet(read_grey(grey, display, castle, confirmed), display)
    except BadConfirmation as err:
        raise UsageError(f"--set {key}{err.field}", f"{display}: {err}") from None
    except InputError as err:
        if NO_MARKERS in str(err):
            return None
        raise


def _sheet(read: PhotoRead, display: str) -> PhotoSheet:
    reading = read.reading
    if not reading.filled and not reading.uncertain:
        raise InputError(display, "shows a scan-ready castle sheet with no mark filled in: photograph the sheet of "
                                  "a finished game")
    data: dict[str, object] = {"player": PurePath(display).stem, **reading.data}
    origin = {"player": (), **{k: v for k, v in reading.origin.items()}}
    return PhotoSheet(display, read.version, data, origin,
                      tuple((u.field, u.why) for u in reading.uncertain), read)


def write_annotations(sheet: PhotoSheet, folder: Path) -> None:
    """The photo with what was read drawn over it (`NAME.read.jpg`) and its name box (`NAME.name.png`)."""
    from generator.errors import OutputError, os_reason
    from generator.games.castle.photos import annotated, name_crop
    from generator.output import write_bytes

    stem = PurePath(sheet.file).stem or "photo"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_bytes(folder / f"{stem}.read.jpg", annotated(sheet.read))
        write_bytes(folder / f"{stem}.name.png", name_crop(sheet.read))
    except OSError as err:
        raise OutputError(f"--annotate {folder}", f"cannot be written ({os_reason(err)})") from None
