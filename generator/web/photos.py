"""Every player's sheet read at once, from one phone: `/tables/ID/photos`.

When not every player has a phone, one of them photographs each sheet and sends the photos together, one per
player. Each photo is read on its own (per-photo isolation, as `donjon score a.jpg b.jpg` does): one that cannot
be read is listed with why and what to change, and does not hide what the others say, each listed as lines of
text (the values to check first, each with a box to type its value, as `--set` takes it). "Keep" keeps every
sheet read whose values are decided as its player's part, and shows again only those that are not (with the
photos refused, to be taken again). The marks read travel in the page; each photo read is also kept as its
player's sheet's first photo, as from their own page: a player who wants to tap marks on their photo, or add
another photo of the sheet (glare, a finger), follows the link to its check page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.responses import RedirectResponse, Response

from generator.render.imposition import PAPERS
from generator.sheets.advice import Reason, refusal
from generator.web import messages, store
from generator.web.forms import sent_again_key, sent_key
from generator.web.games import file_name
from generator.web.languages import Refused, request_language, said

if TYPE_CHECKING:
    from starlette.requests import Request

    from generator.i18n import Language
    from generator.web.app import Companion
    from generator.web.games import PhotoReview, SheetReading
    from generator.web.tables import TableView

#: All the photos of a table sent at once: about ten phone photos (a 12-megapixel JPEG is 3 to 6 MiB), or one of
#: the largest a phone takes (SHEET_MAX_BYTES, 96 MiB) with a few of those; they are held in memory together.
MOST_PHOTOS = 128 * 1024 * 1024


class SeatPhoto(NamedTuple):
    """One player's photo, as the page shows it: refused (why, what to change), or read (what it says)."""

    seat: int
    name: str
    #: why the photo was not read, or why its values cannot be kept yet ("" when they can)
    error: str = ""
    #: what to change, for a photo refused
    reason: Reason | None = None
    #: what was read (None for a photo refused, or none sent)
    review: PhotoReview | None = None
    #: the marks read filled, as the page sends them back: "1,4,17"
    filled: str = ""
    #: the photo is kept as the player's sheet's (its check page takes another photo of the sheet)
    kept: bool = False


async def sheet_table(companion: Companion, table_id: int, lang: Language) -> TableView:
    """The table, if its game has a sheet to photograph (the castle, a sheet of one's own): Guildhall's or
    Guédelon's photos page is a 404 in words, not the castle's sheet looked up for a version it has not."""
    view = await companion.table(table_id, lang)
    if not companion.games.hints(view.table.game).sheet_upload:
        raise Refused(404, messages.NO_SHEET_TO_PHOTOGRAPH, game=companion.games.names_in(lang)[view.table.game])
    return view


async def photos_page(companion: Companion, request: Request) -> Response:
    """The form: one photo per player, with how to take it."""
    view = await sheet_table(companion, request.path_params["table_id"], request_language(request))
    if view.table.game_id is not None:  # saved (the back button, a bookmark): the table says so, with its game
        return RedirectResponse(f"/tables/{view.table.id}", status_code=303)
    return companion.page("photos.html", request, seats=(), kept=(), retake=view.table.parts,
                          **companion.table_context(view, None))


async def read_photos(companion: Companion, request: Request) -> Response:
    """Each photo sent read on its own; the page lists what each says (or why it was not read)."""
    lang = request_language(request)
    view = await sheet_table(companion, request.path_params["table_id"], lang)
    unread = view.table.game_id is not None  # saved: said before the photos came (up to 64 MiB: `seat_view`)
    if not unread:
        form = await companion.form(request, files=len(view.table.parts))
        view = await companion.table(view.table.id, lang)  # as it is once the photos came: saved meanwhile?
    if view.table.game_id is not None:
        # sent from a page left open while another phone saved the game: said at once, not after every photo was
        # read (seconds each) only to be refused when kept
        refused = companion.page("error.html", request, status=400, status_code=400, back=f"/tables/{view.table.id}",
                                 message=said(lang, messages.TABLE_SAVED))
        return companion.before_body(request, refused) if unread else refused
    key = sent_key(form)
    seats: list[SeatPhoto] = []
    given: dict[bytes, str] = {}  # each photo's bytes -> the player it was given for first
    for part in view.table.parts:
        upload = form.get(f"sheet-{part.seat}")
        if not isinstance(upload, UploadFile) or not upload.filename:
            continue
        data = await upload.read()
        if data and data in given:  # one player, one sheet: the same photo chosen twice is a slip
            error = said(lang, messages.SAME_PHOTO_AS, file=file_name(upload.filename), name=given[data])
            seats.append(SeatPhoto(part.seat, part.name, error))
            continue
        given[data] = part.name
        seats.append(await _read_one(companion, view, part.seat, part.name, data, upload.filename, lang,
                                     sent_again_key(key, data)))
    if not seats:  # "Read the photos" tapped before a photo was chosen: said at the form, not on a page of its own
        return companion.page("photos.html", request, status=400, seats=(), kept=(), retake=view.table.parts,
                              error=said(lang, messages.NO_PHOTO), **companion.table_context(view, None))
    read = {s.seat for s in seats if s.review is not None}
    # the table as it is now, the photos just kept counted: the form to take the refused ones again is a new form
    view = await companion.table(view.table.id, lang)
    return companion.page("photos.html", request, seats=seats, kept=(),
                          retake=[p for p in view.table.parts if p.seat not in read],
                          **companion.table_context(view, None))


async def _read_one(companion: Companion, view: TableView, seat: int, name: str, data: bytes, filename: str,
                    lang: Language, key: str | None) -> SeatPhoto:
    read = await run_in_threadpool(companion.games.score_castle_sheet, data, filename, view.table.game, lang)
    if read.review is None:
        if read.scored.readable:
            return SeatPhoto(seat, name, said(lang, messages.PDF_ON_SEAT_PAGE), refusal(messages.PDF_ON_SEAT_PAGE))
        return SeatPhoto(seat, name, *refused(lang, read))
    version = view.table.options.get("version", view.table.game)
    if read.review.version != version:
        # the advice is found by the English words, the message said in the phone's; each version by its name
        versions = {"sheet": companion.option_said(view.table.game, "version", read.review.version, lang),
                    "table": companion.option_said(view.table.game, "version", version, lang)}
        reason = refusal(messages.OTHER_VERSION.format(**versions))
        return SeatPhoto(seat, name, said(lang, messages.OTHER_VERSION, **versions), reason)
    filled = ",".join(str(m.number) for m in read.review.marks if m.state == "filled")
    # kept as this player's sheet's first photo, as from their own page: another photo of the sheet (glare, a
    # finger) is added on its check page
    # (the page's form sent again keeps the photo kept then, and what its player answered since)
    stored = await companion.keep_photo(view.table.id, seat, file_name(filename), data, read.kept[0], lang,
                                        first=True, key=key)
    return SeatPhoto(seat, name, review=read.review, filled=filled, kept=not isinstance(stored, str))


def refused(lang: Language, read: SheetReading) -> tuple[str, Reason | None]:
    """Why a photo (or a sheet's file) could not be read, said in the phone's language, and its reason (what to
    change). The reader says why in English, with what it saw in detail ("shows only 2 of the sheet's 4 corner
    markers"): an English page shows that; a page in another language shows what its reason says was seen, after
    the file's name, in that language (the reader's English words are not shown there), or the reader's words
    when no reason is known."""
    english = read.scored.error or ""
    reason = refusal(english, read.reason or None)
    if lang.english or reason is None or not reason.seen:
        return english, reason
    seen = said(lang, reason.seen)
    return (said(lang, messages.LABELLED, label=read.file, value=seen) if read.file else seen), reason


def undecided_left(read: SheetReading, given: Mapping[str, str], tapped: Iterable[int] = ()) -> list[str]:
    """The fields (as the check page names them: `towers #4`) a mark of which the photos `read` could not decide,
    and which the player answered neither by a value `given` nor by a mark `tapped` (their numbers in the map): what
    "Keep" must not keep. A check page sends back the marks ticked, so an undecided mark left as it was would be
    kept as empty: a guess, which the reader never makes (`donjon score` scores nothing before `--set`)."""
    review = read.review
    if review is None:
        return []
    field_of = {mark.number: mark.field for mark in review.marks}
    undecided = {field_of[i] for i, back in enumerate(read.marks) if back.state is None and i in field_of}
    left = undecided - set(given) - {field_of[i] for i in tapped if i in field_of}
    labels = {line.field: line.label for line in review.lines if line.why}
    return [labels.get(field, field) for field in sorted(left, key=list(field_of.values()).index)]


def not_kept_yet(read: SheetReading, problems: list[str], given: Mapping[str, str], tapped: Iterable[int],
                 lang: Language) -> list[str]:
    """Why the values of a sheet's photos (`read`) cannot be kept yet, in the phone's language, for both Keep
    buttons (a seat's check page, the page of every sheet): the `problems` of the marks sent back (two values for
    one tower...), else the fields the photos left undecided that the player answered neither by a value `given`
    nor by a mark `tapped` (:func:`undecided_left`), said once; nothing when they can be kept."""
    if problems or read.review is None:
        return problems
    left = undecided_left(read, given, tapped)
    return [said(lang, messages.STILL_UNDECIDED, fields=", ".join(left))] if left else []


async def keep_photos(companion: Companion, request: Request) -> Response:
    """Keep each sheet read whose values are decided (with the values typed for the fields its marks leave
    undecided) as its player's part; show again those that cannot be kept yet."""
    table_id = request.path_params["table_id"]
    lang = request_language(request)
    view = await sheet_table(companion, table_id, lang)
    form = await companion.form(request)
    names = {part.seat: part.name for part in view.table.parts}
    left: list[SeatPhoto] = []
    kept: list[int] = []
    for seat, name in names.items():
        sent = form.get(f"read:{seat}")
        if not isinstance(sent, str):
            continue
        version, paper, filled = _marks_sent(sent, view)
        prefix = f"set:{seat}:"
        given = {key[len(prefix):]: value for key, value in form.multi_items()
                 if key.startswith(prefix) and isinstance(value, str) and value.strip()}
        sheet, problems, review = companion.games.sheet_from_marks(version, paper, filled, given, "",
                                                                   view.table.game, lang)
        # the photo read is kept as the player's sheet's: what it could not decide is kept only once typed (the
        # marks sent back hold only those filled), and a sheet not kept is shown again as read, each value still
        # asked with its box
        read = await companion.seat_reading(table_id, seat, view.table.game, lang)
        if read is not None and read.review is not None:
            problems = not_kept_yet(read, problems, given, (), lang)
            if problems:
                review, _ = companion.games.answered(read, {}, given, view.table.game, lang)
        if not problems:
            stored = await companion.keep_part(table_id, seat, view, sheet, lang)
            if not isinstance(stored, str):
                kept.append(seat)
                continue
            problems = [stored]
        left.append(SeatPhoto(seat, name, "; ".join(problems), review=review, filled=sent.split("|")[2]))
    # the photos refused on the page just left, to be taken again
    refused = [seat for seat in names if str(seat) in form.getlist("refused")]
    if not left and not refused:
        return RedirectResponse(f"/tables/{table_id}", status_code=303)
    view = await companion.table(table_id, lang)
    return companion.page("photos.html", request, status=400 if left else 200, seats=left,
                          kept=[names[seat] for seat in kept], retake=[p for p in view.table.parts if p.seat in refused],
                          **companion.table_context(view, None))


def _marks_sent(sent: str, view: TableView) -> tuple[str, str, set[int]]:
    """The sheet and the marks filled a page sends back for one player: "VERSION|PAPER|1,4,17"."""
    version, _, rest = sent.partition("|")
    paper, _, numbers = rest.partition("|")
    if version != view.table.options.get("version", view.table.game) or paper not in PAPERS:
        raise Refused(400, messages.OTHER_SHEET)
    try:
        return version, paper, {int(n) for n in numbers.split(",") if n}
    except ValueError:
        raise Refused(400, messages.MARK_NOT_NUMBER) from None

