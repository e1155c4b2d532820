"""The companion's web application: pages for the table and the history, and the JSON API (Starlette).

Views are small functions grouped by page kind in :class:`Companion`; pages come from the jinja2 templates in
`templates/web/` (autoescaped: every name a player types is escaped), assets from `templates/web/static/`
(`app.js`, our own; nothing is fetched from the internet). Every write goes through the database's single
writer; every change to a table is scored again by the engine, and open pages poll for the new version.

Live updates are polled (`app.js`, every two seconds, answered with 204 when nothing changed) rather than pushed
with server-sent events: a phone that sleeps or changes network simply polls again, no connection is held per
phone on a two-core laptop, and SQLite stays the only source of truth (any process sees the same versions).
"""

from __future__ import annotations

import datetime
import http
import json
import re
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, NamedTuple

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from generator.fields import unprintable_character, visible_name
from generator.i18n import INTERFACE, Language, language
from generator.render.imposition import PAPERS
from generator.sheets.advice import refusal
from generator.web import charts, messages, photos, store
from generator.web.archive import LONGEST_NAME
from generator.web.db import Database, DatabaseGone, busy, not_written, player_key
from generator.web.forms import (LONGEST_TEXT, Edit, EditError, apply, edit_data, points_label, sent_again_key,
                                 sent_key, short_label)
from generator.web.games import Games, KeptRead, SheetReading, file_name
from generator.web.languages import (COOKIE, COOKIE_AGE, Refused, here, page_words, request_language, safe_next,
                                      said)
from generator.web.photos import refused as refused_said
from generator.web.photos import not_kept_yet
from generator.web.security import BodyLimit, BodyStopped, CutShort, Headers, SameOrigin, TokenGate
from generator.web.tables import TableView, Views, table_from_game
from scoring.engine import SHEET_MAX_BYTES

#: Bodies: a JSON end state or a form is small; a filled castle sheet PDF is about 100 KiB, a phone's photo of a
#: sheet a few MiB (a 12-megapixel JPEG, a HEIC) and up to what `donjon score` reads (SHEET_MAX_BYTES: a
#: 200-megapixel phone's photo), sent with at most what a check page's form sends beside it (MOST_MARKS); the marks
#: checked on a photo come back with the straightened photo the page showed (about 200 KiB). The cap is checked on
#: the bytes as they arrive (security.BodyLimit), and an upload waits on disk (Starlette spools a file part past
#: 1 MiB) until it is read, so no request holds more than its cap in memory.
MOST_BODY = 256 * 1024
MOST_MARKS = 2 * 1024 * 1024
MOST_SHEET = SHEET_MAX_BYTES + MOST_MARKS
#: Chromium's user agent ("Chrome/", "HeadlessChrome/" and its version; Chrome on iOS is WebKit: "CriOS/"):
#: the browsers measured to show an answer sent during their upload once the connection is closed (`before_body`)
CHROMIUM = re.compile(r"Chrome/\d")
#: Fields in one submitted form (a new table has a handful of options and at most a few names).
MOST_FORM_FIELDS = 40
#: Fields of a check page's form (its marks kept, or sent with another photo of the sheet): a box for each mark (a
#: castle sheet has 140) and a value for each field, with room for a sheet of one's own that holds many more.
MOST_MARK_FIELDS = 2000
#: Games listed on a history page: two years of weekly game nights, about 19 KB and 550 elements. A page of 500
#: (120 KB, 4052 elements) was ready on a phone at 4x CPU throttling after 0.44 to 0.87 s (medians; 2.3 s at worst,
#: 3.6 s on a busier day), a page of 100 after 0.17 to 0.28 s; the count, the search and the page's number find an
#: older game. The JSON API and the export give them all.
GAMES_NEWEST_FIRST_LIMIT = 100
#: Games listed on a page of a player's games, as on a history page (GAMES_NEWEST_FIRST_LIMIT): their 500 newest on
#: one page, for a player of 3,000 games, were 46 KB and 1135 elements, ready on a phone at 4x CPU throttling after
#: 1.04 s (median; 1.7 s at worst); the older ones were not shown at all.
PLAYER_GAMES_LIMIT = GAMES_NEWEST_FIRST_LIMIT
#: Digits of a history page's number: a million pages of 100 games, more than any history holds.
PAGE_DIGITS = 6
#: Pages holding what a player ticked or typed before sending it (the marks of a photo's check page, the names of
#: a new game): kept by the browser, so that the back button after a send that failed (no Wi-Fi) shows them as
#: they were left, not the companion's page again; every other page is answered `no-store` (Companion.page)
FORM_PAGES = frozenset({"new.html", "photo.html", "photos.html"})


def templates_root() -> Path:
    from generator.resources import templates_dir

    return templates_dir() / "web"


#: QR codes kept drawn: one a game's BG Stats link, the table's and the home page's join links. Drawing one takes
#: 0.04-0.3 s of the event loop (segno is pure Python), during which other phones' taps wait, and the game page
#: shows its link on every view.
QR_KEPT = 64


@lru_cache(maxsize=QR_KEPT)
def qr_svg(text: str, scale: int = 4) -> Markup:
    """A QR code as inline SVG (segno: pure Python), drawn once for a text and scale."""
    import segno

    # a viewBox rather than a size, so that the page's style scales it
    svg = segno.make(text, error="m").svg_inline(scale=scale, dark="#111", light="#fff", title=text, omitsize=True)
    return Markup(svg)


class Companion:
    """The application's state: the database, the games, the templates and the access token."""

    def __init__(self, db: Database, games: Games, *, token: str | None = None, join_url: str | None = None,
                 location: str | None = None) -> None:
        self.db = db
        self.games = games
        self.views = Views(games)
        self.token = token
        self.join_url = join_url
        self.location = location
        own = games.own_words()
        if own:  # its games shown by the sheet's words by a companion or `donjon history` run without its folder
            db.write(lambda c: store.keep_words(c, own))
        self._kept_rows: tuple[tuple[str, str], ...] = ()
        self._kept: dict[str, dict[str, Any]] = {}
        # auto_reload off: the templates ship with donjon; checking their dates on every page costs a stat each
        self.env = Environment(loader=FileSystemLoader(templates_root()),
                               autoescape=select_autoescape(default=True, default_for_string=True),
                               trim_blocks=True, lstrip_blocks=True, auto_reload=False)
        self.env.globals.update(game_names=games.names, game_ids=games.ids,
                                lan=token is not None,
                                # a name field's maxlength: a browser counts it in UTF-16 units (an emoji two, a
                                # family of four eleven) where the companion counts characters, so that 40 cut a
                                # name with emoji short, silently; twice as many never cuts one the companion takes,
                                # and a longer one is refused in words (messages.NAME_TOO_LONG)
                                longest_name=2 * LONGEST_NAME)
        # the photo pages: the sheet drawn in a phone's screen, and what to change after a refusal
        self.env.globals.update(photo_frame=games.photo_frame)
        self.env.filters["qr"] = qr_svg
        self.env.filters["player_url"] = player_url
        self.env.filters["short_label"] = short_label
        self.env.globals["vals"] = edit_data
        self.env.filters["points"] = lambda key, labels: points_label(labels, key)

    # --- helpers ------------------------------------------------------------------------------------------------

    @property
    def kept(self) -> dict[str, dict[str, Any]]:
        """The words kept of every sheet of one's own the history has served (those not served now name its games),
        read when asked: `donjon history import --content` may keep a sheet's words while the companion runs. The
        rows are read by their index on each page; they are decoded again only when they changed."""
        rows = self.db.read(store.kept_word_rows)
        if rows != self._kept_rows:
            self._kept_rows, self._kept = rows, store.words_of_rows(rows)
        return self._kept

    @property
    def history_ids(self) -> tuple[str, ...]:
        """The games the history page searches by: those it may hold, served or not."""
        return self.games.ids_shown(self.kept)

    def page(self, name: str, request: Request, status: int = 200, reads: bool = True, **context: Any
             ) -> HTMLResponse:
        """A page in the language of the phone asking (generator.web.languages): its words, the games' names,
        dates and lists; the answer says its language, and that it depends on the phone's choice. `reads`: False
        for the page saying the database cannot be used, which names games by the words read last."""
        return self.answer(name, request_language(request), self.drawn(name, request, reads, **context), status)

    def drawn(self, name: str, request: Request, reads: bool = True, **context: Any) -> str:
        """The page `name` drawn for `request` (:meth:`page`)."""
        lang = request_language(request)
        context.setdefault("here", here(request))  # where the language switch returns to
        # read when the page names a game: a tap's or a poll's answer (update.html) names none, and read for each
        # it was a read of the database (a transaction, the file's identity checked) on the server's one thread
        names = GameNames(lambda: self.games.names_shown(lang, self.kept if reads else self._kept))
        return self.env.get_template(name).render(
            request=request, join_url=self.join_url, game_names=names,
            and_list=lambda names: messages.and_list(names, lang), **page_words(lang), **context)

    @staticmethod
    def answer(name: str, lang: Language, html: str, status: int = 200) -> HTMLResponse:
        """The page `name` drawn (`html`) as the answer (:meth:`page`)."""
        headers = {"content-language": lang.code, "vary": "Accept-Language, Cookie"}
        if name not in FORM_PAGES:
            # a table, a game or the history as they stand: the back button showed one from the browser's cache as
            # it was first opened (a part without the taps made since, tapped again, counted twice)
            headers["cache-control"] = "no-store"
        return HTMLResponse(html, status_code=status, headers=headers)

    async def set_language(self, request: Request) -> Response:
        """The language switch of every page: the phone's choice kept in a cookie for a year, then back to the page
        it was made on."""
        form = await self.form(request)
        code = str(form.get("lang", ""))
        response = RedirectResponse(safe_next(str(form.get("next", "/"))), status_code=303)
        if code in INTERFACE:
            response.set_cookie(COOKIE, code, max_age=COOKIE_AGE, path="/", samesite="lax", httponly=True)
        return response

    async def form(self, request: Request, files: int = 1, fields: int = MOST_FORM_FIELDS) -> FormData:
        try:
            return await request.form(max_files=files, max_fields=fields, max_part_size=MOST_SHEET)
        except (HTTPException, ClientDisconnect, BodyStopped):  # a body the guard stopped is the guard's to answer
            raise
        except Exception as err:  # noqa: BLE001 - multipart's own errors: a bad request, said in words
            raise Refused(400, messages.FORM_UNREADABLE, error=err) from None

    async def seat_view(self, request: Request) -> tuple[int, int, Language, TableView]:
        """The table and seat a sheet is sent to, the phone's language and the table as it is now, before the body is
        read: a table saved meanwhile is said at once, not once a phone on a slow network has sent its photo (a
        minute for 12 MB at 200 kB/s) only to be refused (its answer: :meth:`before_body`)."""
        table_id = request.path_params["table_id"]
        seat = request.path_params["seat"]
        lang = request_language(request)
        view = await self.table(table_id, lang)
        if not view.table.has_seat(seat):  # nothing to read a sheet for, nor a page to say what was read
            raise Refused(404, messages.NO_SEAT, seat=seat)
        return table_id, seat, lang, view

    @staticmethod
    def before_body(request: Request, response: Response) -> Response:
        """An answer sent before the request's body was read. Chromium (and what is built on it: Android's Chrome,
        Edge, Samsung Internet) reads an answer during an upload only once sending fails: kept open, a photo sent at
        100 kB/s showed the refusal once all of it was sent (32 s for 3 MB); closed after the answer, at once. WebKit
        (Safari's engine, as WebKitGTK) shows a connection closed during its upload as "Connection reset by peer",
        not the answer: for it, and any other browser, the connection is kept open, the rest of the body read and
        dropped as it comes (uvicorn; serve.py's head bound waits for it), and the answer shown once it is sent."""
        if CHROMIUM.search(request.headers.get("user-agent", "")):
            response.headers["connection"] = "close"
        return response

    async def seat_upload(self, request: Request, table_id: int, seat: int, lang: Language,
                          fields: int = MOST_FORM_FIELDS) -> SeatUpload:
        """A file sent for a player's sheet (its form's `sheet`), with the table and seat it is sent to (as
        :meth:`seat_view` found them before the body), the whole form (`fields` at most), the phone's language and
        the table as it is once the body came."""
        form = await self.form(request, fields=fields)
        view = await self.table(table_id, lang)
        return SeatUpload(table_id, seat, form, form.get("sheet"), lang, view)

    async def table(self, table_id: int, lang: Language) -> TableView:
        try:
            table = await self.db.aread(lambda c: store.load_table(c, table_id))
        except store.StoreError:
            raise Refused(404, messages.NO_TABLE, table=table_id) from None
        return self.views.view(table, lang)

    async def saved(self, game_id: int) -> dict[str, Any]:
        game = await self.db.aread(lambda c: store.get_game(c, game_id))
        if game is None:
            deleted = await self.db.aread(lambda c: store.was_deleted(c, game_id))
            raise Refused(404, messages.GAME_WAS_DELETED if deleted else messages.NO_GAME, game=game_id)
        return game

    # --- home and new tables ------------------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        tables = await self.db.aread(store.recent_tables)
        return self.page("home.html", request, tables=tables)

    def option_fields(self, game: str, lang: Language) -> list[dict[str, Any]]:
        """The options of a new table, from the game's format and hints, in `lang`."""
        from generator.web.forms import kind_of, variant, words

        catalog, spec = self.games.catalog(game, lang)
        spec = variant(spec, {})
        hints = self.games.hints(game)
        out = []
        for name in hints.options:
            field = spec.fields[name]
            source = hints.option_choices.get(name)
            kind = kind_of(field.type)
            if source is not None:
                choices = source(catalog, {"_lang": lang})
                kind = "select"
            elif kind == "select":
                choices = [(v, lang._(words(v.replace("-", " ")))) for v in getattr(field.type, "values", ())]
            else:
                choices = []
            out.append({"name": name, "label": lang._(hints.labels.get(name, words(name))),
                        "help": lang._(hints.helps.get(name, field.doc)), "kind": kind, "choices": choices})
        return out

    def options_in_words(self, table: store.GameTable, lang: Language) -> list[tuple[str, str]]:
        """The options a table was set with, as the new-game form named them ("VP cards: Old world economy")."""
        out = []
        for option in self.option_fields(table.game, lang):
            value = table.options.get(option["name"])
            if value is None or value == "":
                continue  # left to its default: the form said which
            if isinstance(value, bool):
                out.append((option["label"], lang._(messages.YES if value else messages.NO)))
                continue
            shown = next((label for key, label in option["choices"]
                          if key == value or key.startswith("[") and json.loads(key) == value), None)
            out.append((option["label"], shown or (", ".join(map(str, value)) if isinstance(value, list)
                                                   else str(value))))
        return out

    def option_said(self, game: str, name: str, value: Any, lang: Language) -> str:
        """One value of a table's option as the new-game form offers it in `lang` ("great-architect": "Great
        Architect", "Grands Architectes"); the value itself when the form offers no such choice."""
        for option in self.option_fields(game, lang):
            if option["name"] == name:
                return next((label for key, label in option["choices"] if key == value), str(value))
        return str(value)

    async def new_form(self, request: Request, game: str, *, status: int = 200, error: str = "",
                       names: list[str] | None = None, chosen: Mapping[str, str] | None = None,
                       key: str | None = None) -> Response:
        """The form of a new table. It carries a key, the newest table when it was drawn (kept when the form comes
        back with an error), which the table opened keeps with what it was opened with: the form sent twice opens
        that one table (`store.create_table`). A key of the database's state rather than a random one: the page
        drawn again is the same page, and two phones sending the same names at once open one table."""
        low, high = self.games.players_range(game)
        known = await self.db.aread(store.known_names)
        if key is None:
            key = f"after-{await self.db.aread(store.newest_table)}"
        return self.page("new.html", request, status=status, game=game, here=f"/new/{game}",
                         options=self.option_fields(game, request_language(request)), low=low,
                         high=high, error=error, names=names or [], chosen=chosen or {}, known=known,
                         key=key)

    async def new_table(self, request: Request) -> Response:
        game = request.path_params["game"]
        if game not in self.games.ids:
            raise Refused(404, messages.CHOOSE_GAME)
        return await self.new_form(request, game)

    async def create_table(self, request: Request) -> Response:
        form = await self.form(request)
        game = str(form.get("game", ""))
        if game not in self.games.ids:
            raise Refused(400, messages.CHOOSE_GAME)
        # a form drawn before form keys, or sent by hand, has none: it opens a table each time, as it always did
        key = sent_key(form)
        hints = self.games.hints(game)
        low, high = self.games.players_range(game)
        typed = [str(n) for n in form.getlist("name") if isinstance(n, str)]
        names = [n for n in map(visible_name, typed) if n]  # a name pasted with a zero-width space is the name
        options: dict[str, Any] = {}
        chosen: dict[str, str] = {}
        error = ""
        lang = request_language(request)
        for option in self.option_fields(game, lang):
            raw = form.get(option["name"])
            chosen[option["name"]] = str(raw) if isinstance(raw, str) else ""
            if option["kind"] == "check":
                options[option["name"]] = raw == "on"
            elif option["kind"] == "select":
                allowed = {v for v, _ in option["choices"]}
                if raw not in allowed:
                    error = said(lang, messages.CHOOSE_VALUE, label=option["label"])
                elif raw:
                    value = str(raw)
                    options[option["name"]] = json.loads(value) if value.startswith("[") else value
        keys = [player_key(n) for n in names]
        twice = next((n for n, k in zip(names, keys) if keys.count(k) > 1), None)
        unprintable = next(filter(None, map(unprintable_character, names)), None)
        if any(len(n) > LONGEST_NAME for n in names):
            error = said(lang, messages.NAME_TOO_LONG, most=LONGEST_NAME)
        elif unprintable is not None:
            error = said(lang, messages.NAME_CHARACTER, code=unprintable)
        elif twice is not None:
            error = said(lang, messages.SAME_NAME, name=twice)
        elif not low <= len(names) <= high:
            error = said(lang, messages.PLAYER_COUNT, game=self.games.names_in(lang)[game], low=low, high=high)
        if error:
            return await self.new_form(request, game, status=400, error=error, names=typed[:high], chosen=chosen,
                                       key=key)
        names = await self.db.aread(lambda c: _as_known(c, names))
        builder = self.views.builder(game, options, names)
        from generator.web.forms import initial_part

        part = initial_part(builder.spec, hints) if hints.parts else {}
        shared = {} if hints.parts else initial_part(builder.spec, hints)
        seats = names if hints.parts else []
        team = [] if hints.parts else names
        # the same form sent with other names or options (shown again by the back button, then changed) is another
        # table's: the key is kept with what it opened
        kept = sent_again_key(key, game, json.dumps(options, sort_keys=True), *names)
        table_id = await self.db.awrite(lambda c: store.create_table(c, game, options, seats, team, part, shared,
                                                                     form_key=kept))
        return RedirectResponse(f"/tables/{table_id}", status_code=303)

    # --- a table ------------------------------------------------------------------------------------------------

    def table_context(self, view: TableView, seat: int | None) -> dict[str, Any]:
        return {"view": view, "table": view.table, "hints": view.hints, "seat": seat,
                "hash": view.seat_hash(seat), "result": view.result}

    async def table_page(self, request: Request) -> Response:
        lang = request_language(request)
        view = await self.table(request.path_params["table_id"], lang)
        table_url = str(request.url_for("table", table_id=view.table.id))
        join = f"{table_url}?token={self.token}" if self.token else None
        return self.page("table.html", request, join=join, options=self.options_in_words(view.table, lang),
                         **self.table_context(view, None))

    async def seat_page(self, request: Request) -> Response:
        view = await self.table(request.path_params["table_id"], request_language(request))
        seat = request.path_params["seat"]
        if not view.table.has_seat(seat):
            raise Refused(404, messages.NO_SEAT, seat=seat)
        table_id = view.table.id
        photos = await self.db.aread(lambda c: store.photo_count(c, table_id, seat))
        return self.page("seat.html", request, photos_kept=photos, **self.table_context(view, seat))

    async def edit(self, request: Request) -> Response:  # noqa: C901 - one form, its fields checked in turn
        """One change from a phone. It carries its own `key`: sent again (a retry after a lost answer), it is not
        applied twice. A toggle says the state wanted (`on`), so two phones tapping one tile agree."""
        table_id = request.path_params["table_id"]
        lang = request_language(request)
        form = await self.form(request)
        seat = seat_number(form.get("seat", ""))
        shown_seat = seat_number(form.get("shown", ""))
        raw_path = str(form.get("path", ""))
        path = tuple(raw_path.split("."))
        value = form.get("value", "")
        if not isinstance(value, str):
            raise Refused(400, messages.VALUE_IS_FILE)
        op = str(form.get("op", ""))
        key = sent_key(form)
        wanted = str(form.get("on", ""))
        was = form.get("was")  # absent: no check (a button's set); empty: the field showed nothing
        seen = whole_number(form.get("seen", ""), 5)
        # the table's version the page showed when it sent the tap (static/app.js; none from a script)
        shown_version = whole_number(form.get("v", ""), 12)
        error = ""
        status = 200
        table: store.GameTable | None = None
        if op != "undo" and (not raw_path or len(raw_path) > 200 or any(not step for step in path)):
            status, error = 400, said(lang, messages.NO_FIELD)
        # when the table the page showed was made (none from an older page or a script), checked in the tap's write
        sent_made = form.get("made")
        made = sent_made if isinstance(sent_made, str) else None
        try:
            if status != 200:
                pass
            elif op == "undo":
                undone = whole_number(value, 18)  # the edit its Undo showed
                table = await self.db.awrite(lambda c: store.undo_edit(c, table_id, seat, key, undone, made))
            else:
                edit = Edit(op, path, value[:LONGEST_TEXT + 1], shared=seat is None,
                            on=None if wanted not in ("true", "false") else wanted == "true", seen=seen,
                            was=was[:LONGEST_TEXT + 1] if isinstance(was, str) else None)

                def change(table: store.GameTable, data: dict[str, Any]) -> None:
                    builder = self.views.builder(table.game, table.options, table.names)
                    apply(builder, data, edit)

                table = await self.db.awrite(lambda c: store.edit_table(c, table_id, seat, change, key, made))
        except store.AnotherTable as err:  # a tap kept since another evening's table of this number: not this game's
            error = err.said(lang)
            status = 409
        except (EditError, store.StoreError) as err:
            error = err.said(lang)
            status = 422
        view = self.views.view(table, lang) if table is not None else await self.table(table_id, lang)
        if not view.table.has_seat(shown_seat):  # a seat the table has not (as `live` does)
            shown_seat = None
        context = self.table_context(view, shown_seat)
        edited_path = path[0] if path and path[0] and op != "undo" else ""
        known = [c.path for c in (view.shared_controls() if seat is None else
                                  view.seat_controls(seat) if view.table.has_seat(seat) else [])]
        # the page's own form is drawn again whole only when the edit names no control of it (a bad path, an undo),
        # or when the table changed between the version the page showed and this edit: another phone's change (a
        # token the host gave this player) was drawn nowhere, and this answer tells the page it is up to date
        missed = table is not None and shown_version is not None and shown_version != table.version - 1
        reload_forms = edited_path not in known or missed
        return self.page("update.html", request, status=status, reload_forms=reload_forms, edited=seat,
                         edited_path=edited_path, error=error, **context)

    async def rename_seat(self, request: Request) -> Response:
        """Correct the name of who took a seat, while the game is open."""
        table_id, seat = request.path_params["table_id"], request.path_params["seat"]
        form = await self.form(request)
        name = visible_name(str(form.get("name", "")))
        lang = request_language(request)
        view = await self.table(table_id, lang)
        if not view.table.has_seat(seat):  # its page cannot be drawn to say what is wrong with the name
            raise Refused(404, messages.NO_SEAT, seat=seat)
        error = ""
        # the field drawn again with what was typed (a letter corrected, not the name typed again), unless another
        # phone's correction came meanwhile: the field then shows that one, which the message names beside the typed
        typed: str | None = str(form.get("name", ""))[:LONGEST_NAME * 4]
        if not name:
            error = said(lang, messages.NAME_EMPTY)
        elif len(name) > LONGEST_NAME:
            error = said(lang, messages.NAME_TOO_LONG, most=LONGEST_NAME)
        elif (code := unprintable_character(name)) is not None:
            error = said(lang, messages.NAME_CHARACTER, code=code)
        else:
            try:
                # the name the form showed (none from a script or an older page): another phone's correction since
                # is said, not written over
                was = " ".join(str(form["was"]).split()) if "was" in form else None
                await self.db.awrite(lambda c: store.rename_seat(c, table_id, seat, name, was))
            except store.StoreError as err:
                error = err.said(lang)
                if err.message == messages.NAME_CHANGED_MEANWHILE:
                    typed = None
                    view = await self.table(table_id, lang)  # the name another phone wrote
        if error:
            return self.page("seat.html", request, status=400, name_error=error, typed_name=typed,
                             **self.table_context(view, seat))
        return RedirectResponse(f"/tables/{table_id}/seats/{seat}", status_code=303)

    async def live(self, request: Request) -> Response:
        """What changed since the version the page shows: 204 when nothing did."""
        table_id = request.path_params["table_id"]
        known = request.query_params.get("v", "")

        def changed(conn: sqlite3.Connection) -> tuple[int | None, store.GameTable | None]:
            version = store.table_version(conn, table_id)
            return version, None if version is None or known == str(version) else store.load_table(conn, table_id)

        # the version and, when the page does not show it, the table, in one read: a second read was one more trip
        # to a reader thread for every poll that saw a change (the phones polling while others tap: most of them)
        version, table = await self.db.aread(changed)
        if version is None:
            raise Refused(404, messages.NO_TABLE, table=table_id)
        if table is None:
            return Response(status_code=204)
        view = self.views.view(table, request_language(request))
        seat = seat_number(request.query_params.get("seat", ""))
        seat = seat if view.table.has_seat(seat) else None  # has_seat(None) is False
        context = self.table_context(view, seat)
        reload_forms = request.query_params.get("h", "") != context["hash"]
        # every phone on the table asks for the version a tap made (a Guildhall's four parts drawn: 2-3 ms of the
        # server's one thread each, which the phones tapping meanwhile waited for): drawn once per seat and forms
        # drawn or not, kept with the version's view (Views: its language and photos too)
        html = view.polled.get((seat, reload_forms))
        if html is None:
            html = view.polled[seat, reload_forms] = self.drawn(
                "update.html", request, reload_forms=reload_forms, edited=-1, edited_path="", error="", **context)
        return self.answer("update.html", view.lang, html)

    async def upload_sheet(self, request: Request) -> Response:
        """A filled castle score sheet in place of typing: a fillable PDF is read, checked and scored through the
        engine's reader of filled sheets, then its values become this player's part; a photo of a scan-ready sheet
        is read by its marks and shown back over the photo, for the player to check before it is kept
        (:meth:`confirm_marks`)."""
        table_id, seat, lang, view = await self.seat_view(request)
        unread = view.table.game_id is not None
        if not unread:
            _, _, form, upload, _, view = await self.seat_upload(request, table_id, seat, lang)
        if view.table.game_id is not None:
            # sent from a page left open while another phone saved the game: said at once, before its body came (see
            # `seat_view`), or as soon as it came when saved during it, not after the photo was read (seconds) only
            # to be refused when kept
            refused = self.page("seat.html", request, status=400, upload_error=said(lang, messages.TABLE_SAVED),
                                **self.table_context(view, seat))
            return self.before_body(request, refused) if unread else refused
        error = english = ""
        data = await upload.read() if isinstance(upload, UploadFile) else b""
        key = sent_again_key(sent_key(form), data)
        if await self.photo_sent_again(table_id, seat, key):
            # this photo's form sent again (a double tap, a resend): answered as the first was, and the answers
            # given on its check page since are kept (a new first photo would let them go)
            return RedirectResponse(f"/tables/{table_id}/seats/{seat}/photo", status_code=303)
        if not data and not (isinstance(upload, UploadFile) and upload.filename):
            # no file chosen: the browser sends an empty part with no name (a file of 0 bytes has its name: read,
            # it is said to be empty)
            error = said(lang, messages.NO_FILE)
        else:
            assert isinstance(upload, UploadFile)
            read = await run_in_threadpool(self.games.score_castle_sheet, data, upload.filename or "sheet.pdf",
                                           view.table.game, lang)
            if read.review is None and not read.scored.readable:
                english = read.scored.error
                error, _ = refused_said(lang, read)
            elif "version" in view.table.options and read.sheet.get("version") != view.table.options.get("version"):
                versions = {key: self.option_said(view.table.game, "version", value, lang)
                            for key, value in (("sheet", read.sheet.get("version")),
                                               ("table", view.table.options.get("version")))}
                error = said(lang, messages.OTHER_VERSION, **versions)
                english = messages.OTHER_VERSION.format(**versions)  # the advice is found by the English words
            elif read.review is not None:
                # the first photo of the sheet, kept: a photo added later is read with it
                kept = await self.keep_photo(table_id, seat, file_name(upload.filename or "photo.jpg"), data,
                                             read.kept[0], lang, first=True, key=key)
                if isinstance(kept, Response):
                    return kept
                error = kept
            else:
                response = await self.keep_part(table_id, seat, view, read.sheet, lang)
                if isinstance(response, Response):
                    return response
                error = response
        view = await self.table(table_id, lang)
        # what to change is found by the reader's (English) words; the page says them in the phone's
        return self.page("seat.html", request, status=400 if error else 200, upload_error=error,
                         upload_refused=refusal(english) if english else None, **self.table_context(view, seat))

    async def photo_sent_again(self, table_id: int, seat: int, key: str | None) -> bool:
        """Whether a photo's form of this `key` was sent before (a double tap, a resend after a lost answer): a
        photo of the seat's sheet was kept from it (store.photo_sent); False without a key."""
        if key is None:
            return False
        return await self.db.aread(lambda c: store.photo_sent(c, table_id, seat, key)) is not None

    async def keep_photo(self, table_id: int, seat: int, name: str, data: bytes, kept: KeptRead, lang: Language, *,
                         first: bool, key: str | None = None) -> Response | str:
        """Keep a photo of a player's sheet read (the `first` of a new sheet, or one more of it), with what it read
        on its own (`kept`: it is never read again): a redirect to its check page, a page of its own so that
        reloading it shows the same; or why it could not be kept."""
        reading, image = kept.stored(), kept.image
        try:
            await self.db.awrite(lambda c: store.add_photo(c, table_id, seat, name, data, first=first,
                                                           reading=reading, image=image, form_key=key))
        except store.StoreError as err:
            return err.said(lang)
        return RedirectResponse(f"/tables/{table_id}/seats/{seat}/photo", status_code=303)

    async def photo_page(self, request: Request) -> Response:
        """The check page of the photos kept of a player's paper sheet, read together, with what the player answered
        on it (the same page again on a reload); the player's page when none is kept."""
        table_id = request.path_params["table_id"]
        seat = request.path_params["seat"]
        lang = request_language(request)
        view = await self.table(table_id, lang)
        if not view.table.has_seat(seat):
            raise Refused(404, messages.NO_SEAT, seat=seat)
        read = await self.seat_reading(table_id, seat, view.table.game, lang)
        if read is None:
            return RedirectResponse(f"/tables/{table_id}/seats/{seat}", status_code=303)
        answers = await self.db.aread(lambda c: store.seat_answers(c, table_id, seat))
        return self.photo_check(request, view, seat, read, answers)

    async def seat_reading(self, table_id: int, seat: int, game: str, lang: Language) -> SheetReading | None:
        """What the photos kept of a player's sheet read together, in `lang` (None when none is kept): the readings
        kept with them combined (`Games.read_kept`), no photo read again nor even loaded. A photo kept before
        readings were, or read by another reader than this donjon's (`Games.still_read_so`), is read once more, and
        its reading kept; one that no longer reads is said as it is read."""
        rows = await self.db.aread(lambda c: store.seat_readings(c, table_id, seat))
        if not rows:
            return None
        kept: list[KeptRead] = []
        for row in rows:
            found = KeptRead.from_stored(row.name, row.reading, row.image)
            if found is None or not self.games.still_read_so(found, game):
                data = await self.db.aread(partial(store.photo_data, table_id=table_id, seat=seat, number=row.number))
                read = await run_in_threadpool(self.games.read_photos, [(data, row.name)], game, lang)
                if not read.kept:
                    return read
                found = read.kept[0]
                await self.db.awrite(partial(store.keep_reading, table_id=table_id, seat=seat, number=row.number,
                                             reading=found.stored(), image=found.image))
            kept.append(found)
        return await run_in_threadpool(self.games.read_kept, kept, game, lang)

    def photo_check(self, request: Request, view: TableView, seat: int, read: SheetReading, answers: store.Answers,
                    status: int = 200, error: str = "", **context: Any) -> Response:
        """The check page of photos read (`read`), the player's `answers` taken over what they read, and `error`
        (why the values were not kept) at its top; photos kept that no longer read (a newer reader) said on the
        player's page, to start over."""
        if read.review is None:
            why, reason = refused_said(request_language(request), read)
            return self.page("seat.html", request, status=400, upload_error=why, upload_refused=reason,
                             **self.table_context(view, seat))
        lang = request_language(request)
        review, bad = self.games.answered(read, answers.marks, answers.given, view.table.game, lang)
        # at the most photos kept of a sheet, the page says so where another photo would be added, and no field's
        # advice asks for one
        full = photos_full(read, lang)
        if full:
            from generator.sheets.summary import without_another_photo

            review = review._replace(lines=without_another_photo(review.lines))
        return self.page("photo.html", request, status=status, review=review, marks_error="; ".join(
                         [error, *bad] if error else bad), tapped=len(answers.marks),
                         photos_full=full, **context, **self.table_context(view, seat))

    async def keep_answers(self, table_id: int, seat: int, form: FormData, read: SheetReading,
                           lang: Language) -> tuple[store.Answers, str]:
        """What the player answered on the check page of the photos kept of their sheet (`read`: what they read),
        which sends `form`, kept with them (marks tapped, values typed: :func:`answers_sent`), so that a reload or
        another photo does not lose it: the answers, and why they could not be kept ("" when they were)."""
        kept = await self.db.aread(lambda c: store.seat_answers(c, table_id, seat))
        answers = answers_sent(form, read, kept)
        if answers != kept:
            try:
                await self.db.awrite(lambda c: store.keep_answers(c, table_id, seat, answers))
            except store.StoreError as err:  # the game was saved meanwhile
                return answers, err.said(lang)
        return answers, ""

    async def add_photo(self, request: Request) -> Response:
        """Another photo of the same paper sheet (a glare or a finger moved off some marks), read with the photos
        kept of it, mark by mark, as `donjon score a.jpg b.jpg --names Ana,Ana` reads them. Kept only when they
        read as one sheet: a photo of another sheet, or of none, is said, and the photos kept stay as they were.
        What the player answered on the check page it is sent from (marks tapped, values typed: the form sends
        them with the photo) is kept first, whatever becomes of the photo, and taken over what the photos read."""
        table_id, seat, lang, view = await self.seat_view(request)
        if view.table.game_id is not None:  # saved: said before the body came (`seat_view`), the answers kept shown
            read = await self.seat_reading(table_id, seat, view.table.game, lang)
            if read is None:
                again = RedirectResponse(f"/tables/{table_id}/seats/{seat}", status_code=303)
                return self.before_body(request, again)
            kept = await self.db.aread(lambda c: store.seat_answers(c, table_id, seat))
            refused = self.photo_check(request, view, seat, read, kept, status=400,
                                       add_error=said(lang, messages.TABLE_SAVED), add_refused=None)
            return self.before_body(request, refused)
        _, _, form, upload, _, view = await self.seat_upload(request, table_id, seat, lang, fields=MOST_MARK_FIELDS)
        read = await self.seat_reading(table_id, seat, view.table.game, lang)
        if read is None:  # nothing to add to (started over elsewhere): the player's page, to take a first one
            return RedirectResponse(f"/tables/{table_id}/seats/{seat}", status_code=303)
        answers, error = await self.keep_answers(table_id, seat, form, read, lang)
        if not error and view.table.game_id is not None:  # saved meanwhile, no answer sent: said before any read
            error = said(lang, messages.TABLE_SAVED)
        if error:  # the answers could not be kept (the game was saved meanwhile): nor can a photo be
            return self.photo_check(request, view, seat, read, answers, status=400, add_error=error, add_refused=None)
        english = reason = ""
        status = 400
        data = await upload.read() if isinstance(upload, UploadFile) else b""
        key = sent_again_key(sent_key(form), data)
        if await self.photo_sent_again(table_id, seat, key):
            # this photo's form sent again (a double tap, a resend): answered as the first was, not "already kept"
            return RedirectResponse(f"/tables/{table_id}/seats/{seat}/photo", status_code=303)
        if not data and not (isinstance(upload, UploadFile) and upload.filename):  # none chosen (0 bytes: read)
            error = said(lang, messages.NO_OTHER_PHOTO)
        elif full := photos_full(read, lang):  # said before the photo is read (store.add_photo checks too)
            status, error = 409, full
        elif await self.db.aread(lambda c: store.photo_kept(c, table_id, seat, data)):  # nothing new to read
            error = said(lang, messages.SAME_PHOTO)
        else:
            assert isinstance(upload, UploadFile)
            name = file_name(upload.filename or "photo.jpg")
            # the new photo alone is read; the photos kept are combined with it from what they read when taken
            new = await run_in_threadpool(self.games.read_photos, [(data, name)], view.table.game, lang)
            both = new if not new.kept else \
                await run_in_threadpool(self.games.read_kept, [*read.kept, *new.kept], view.table.game, lang)
            if both.review is not None:
                response = await self.keep_photo(table_id, seat, name, data, new.kept[0], lang, first=False, key=key)
                if isinstance(response, Response):
                    return response
                error = response
            else:
                english, reason = both.scored.error or "", both.reason
                # the reader's words for photos of two sheets speak of the command line's --names: said for a phone
                error = said(lang, messages.NOT_THIS_SHEET) if reason == "different-sheets" else \
                    refused_said(lang, both)[0]
        return self.photo_check(request, view, seat, read, answers, status=status, add_error=error,
                                add_refused=refusal(english, reason or None) if english else None)

    async def confirm_marks(self, request: Request) -> Response:  # noqa: C901 - one form, checked in turn
        """The marks of a photo as the player checked them (each box ticked is a filled mark): the values they make
        become this player's part, and the table scores them."""
        table_id = request.path_params["table_id"]
        seat = request.path_params["seat"]
        # a box for each filled mark: a castle well played fills more than a form of options holds (40)
        form = await self.form(request, fields=MOST_MARK_FIELDS)
        lang = request_language(request)
        view = await self.table(table_id, lang)
        version, paper = str(form.get("version", "")), str(form.get("paper", ""))
        game = view.table.game
        # the sheet's identity: the castle's version, a sheet of one's own its id (the table's game)
        if version != view.table.options.get("version", game) or paper not in PAPERS:
            raise Refused(400, messages.OTHER_SHEET)
        filled, given = marks_sent(form), values_typed(form)
        sheet, problems, review = self.games.sheet_from_marks(version, paper, filled, given, str(form.get("image", "")),
                                                              game, lang)
        count = str(form.get("photos", "1"))  # how many photos the page was read from, said again
        review = review._replace(photos=int(count) if count.isdigit() and 0 < int(count) < 100 else 1)
        read = await self.seat_reading(table_id, seat, game, lang)
        if read is not None:
            # the player's answers kept with the photos (reopening the check page shows them too); the page shown
            # again is the photos' reading with them applied: the marks sent back hold only those ticked, so a mark
            # the photos could not decide, and the player left, would come back decided as empty
            answers, _ = await self.keep_answers(table_id, seat, form, read, lang)
            if read.review is not None:
                if form.get("then") == "check":  # what the marks say, shown again
                    return self.photo_check(request, view, seat, read, answers)
                problems = not_kept_yet(read, problems, answers.given, answers.marks, lang)
                if problems:  # each value still asked with its box; a value typed wrong is said once
                    _, bad = self.games.answered(read, answers.marks, answers.given, game, lang)
                    return self.photo_check(request, view, seat, read, answers, status=400,
                                            error="; ".join(p for p in problems if p not in bad))
        if form.get("then") == "check":
            return self.page("photo.html", request, review=review, marks_error="", **self.table_context(view, seat))
        if not problems:
            response = await self.keep_part(table_id, seat, view, sheet, lang)
            if isinstance(response, Response):
                return response
            problems = [response]
        return self.page("photo.html", request, status=400, review=review, marks_error="; ".join(problems),
                         **self.table_context(view, seat))

    async def keep_part(self, table_id: int, seat: int, view: TableView, sheet: dict[str, Any],
                        lang: Language) -> Response | str:
        """Make `sheet` this player's part: a redirect to the player's page, or why it could not be kept."""
        sheet = {k: v for k, v in sheet.items() if k != "version"}
        sheet.pop(view.hints.part_name, None)

        def replace_part(table: store.GameTable, part: dict[str, Any]) -> None:
            part.clear()
            part.update(sheet)

        try:
            await self.db.awrite(lambda c: store.edit_table(c, table_id, seat, replace_part))
        except store.StoreError as err:
            return err.said(lang)
        # back to the player's page: reloading it does not send the sheet again
        return RedirectResponse(f"/tables/{table_id}/seats/{seat}", status_code=303)

    async def save_table(self, request: Request) -> Response:
        """Save a finished game: only when the rules say it is finished and nothing is broken; a part nobody
        touched is saved only once the table confirms it."""
        table_id = request.path_params["table_id"]
        form = await self.form(request)
        lang = request_language(request)
        view = await self.table(table_id, lang)
        if view.table.game_id is not None:
            return RedirectResponse(f"/history/games/{view.table.game_id}", status_code=303)
        if not view.saveable or view.result is None:  # the castle's end Cloud missing is said in the scorer's words
            why = said(lang, messages.END_MISSING, why=lang._(view.scored.end_missing)) if view.scored.end_missing \
                else said(lang, messages.NOT_SAVEABLE)
            return self.page("error.html", request, status=409, status_code=409, message=why,
                             back=f"/tables/{table_id}")
        if view.untouched and form.get("confirm") != "yes":
            return self.page("table.html", request, status=409, join=None, confirm_save=True,
                             untouched_question=messages.untouched(view.untouched, lang),
                             options=self.options_in_words(view.table, lang), **self.table_context(view, None))
        result, state, table = view.result, view.end_state, view.table
        first = await self.db.aread(lambda c: store.first_edit_at(c, table_id))
        duration = _minutes_between(first or table.created_at, store.now())
        corrects = table.corrects
        # "Save as a new game", offered when the game this table corrects was deleted meanwhile: the table's taps
        # become a game of their own; only while that game stays deleted, so no correction lands beside its game
        played_at = None
        if corrects is not None and form.get("as_new") == "yes":
            # dated the evening the deleted game was played, as the correction would have kept it
            played_at = await self.db.aread(lambda c: store.deleted_game_played_at(c, corrects))
        as_new = played_at is not None
        if corrects is not None and not as_new:
            try:
                await self.db.awrite(lambda c: store.update_game(c, corrects, state, result, team=table.team,
                                                                 who=messages.BY_PAGE, table_id=table_id,
                                                                 since=table.corrects_version,
                                                                 table_version=table.version))
            except store.StoreError as err:  # the game changed or was deleted since the table opened it
                deleted = err.message == messages.CORRECTED_GAME_DELETED
                gone = deleted or err.message == messages.CHANGED_WHILE_SAVING
                # a deleted game's correction is not a dead end: it can be saved as a new game or left unsaved
                return self.page("error.html", request, status=409, status_code=409, message=err.said(lang),
                                 back=f"/tables/{table_id}", game_link="" if gone else f"/history/games/{corrects}",
                                 save_as_new=f"/tables/{table_id}/save" if deleted else "")
            return RedirectResponse(f"/history/games/{corrects}", status_code=303)
        try:
            # the state as read above: refused when another phone's tap was written since (store._unchanged)
            game_id, _ = await self.db.awrite(lambda c: store.save_game(
                c, table.game, state, result, team=table.team, table_id=table_id, who=messages.BY_PAGE,
                duration_min=duration, table_version=table.version, played_at=played_at))
        except store.StoreError as err:
            return self.page("error.html", request, status=409, status_code=409, message=err.said(lang),
                             back=f"/tables/{table_id}")
        return RedirectResponse(f"/history/games/{game_id}", status_code=303)

    # --- history ------------------------------------------------------------------------------------------------

    async def history(self, request: Request) -> Response:
        """The saved games, newest first, a page of GAMES_NEWEST_FIRST_LIMIT at a time; searched by a part of a
        player's name, a game and the days played between (`?name=ana&game=guildhall&from=2026-01-01&to=...`)."""
        lang = request_language(request)
        query = request.query_params
        search = {key: query.get(key, "").strip() for key in ("name", "game", "from", "to")}
        ids = self.history_ids
        error = None
        days: dict[str, datetime.date | None] = {}
        for key in ("from", "to"):
            days[key] = None
            if search[key]:
                try:
                    days[key] = datetime.date.fromisoformat(search[key])
                except ValueError:  # also what is not a date at all: said with what was typed
                    error = said(lang, messages.DATE_FORM, date=search[key][:LONGEST_NAME])
        if len(search["name"]) > LONGEST_NAME:  # no player has a longer name: a search for one finds nothing
            error = said(lang, messages.NAME_TOO_LONG, most=LONGEST_NAME)
        if search["game"] and search["game"] not in ids:
            error = said(lang, messages.CHOOSE_GAME)
        number = whole_number(query.get("page", "1"), PAGE_DIGITS)
        if number is None or number < 1:
            error = said(lang, messages.NO_PAGE, page=query.get("page", "")[:PAGE_DIGITS + 1])
        if error is not None:
            return self.page("history.html", request, status=400, games=[], search=search, history_ids=ids, error=error,
                             page=1, older=None, newer=None, deleted=None)
        page = number or 1
        start, end = days["from"], days["to"]
        # played_at is local time as text ('YYYY-MM-DD HH:MM:SS'): the days asked for, `to` included
        named, game = search["name"] or None, search["game"] or None
        since = start.isoformat() if start else None
        before = (end + datetime.timedelta(days=1)).isoformat() if end else None

        def read(conn: sqlite3.Connection) -> tuple[list[dict[str, Any]], int]:
            # one read, so the count and the list are of the same history
            return (store.list_games(conn, limit=GAMES_NEWEST_FIRST_LIMIT + 1,
                                     offset=(page - 1) * GAMES_NEWEST_FIRST_LIMIT, named=named, game=game,
                                     since=since, before=before),
                    store.count_games(conn, named=named, game=game, since=since, before=before))

        games, found = await self.db.aread(read)
        kept = {key: value for key, value in search.items() if value}

        def link(to: int) -> str:
            return "/history?" + urllib.parse.urlencode({**kept, **({"page": str(to)} if to > 1 else {})})

        pages = max(1, -(-found // GAMES_NEWEST_FIRST_LIMIT))
        if page > pages:  # past the last page: said so (404, as the player's page does), with a way to the last one
            return self.page("history.html", request, status=404, games=[], search=search, history_ids=ids,
                             searching=bool(kept), error=said(lang, messages.NO_HISTORY_PAGE, page=page, pages=pages),
                             last=link(pages), pages=pages, page=pages, older=None, newer=None, deleted=None)
        return self.page("history.html", request, games=games[:GAMES_NEWEST_FIRST_LIMIT], search=search,
                         history_ids=ids, searching=bool(kept), page=page, error=None, found=found, pages=pages,
                         older=link(page + 1) if len(games) > GAMES_NEWEST_FIRST_LIMIT else None,
                         newer=link(page - 1) if page > 1 else None, deleted=query.get("deleted"))

    async def game_page(self, request: Request) -> Response:
        game = await self.saved(request.path_params["game_id"])
        from generator.web.share import bg_stats_link

        found = await self.db.aread(lambda c: store.versions(c, game["id"]))
        lang = request_language(request)
        labels = self.labels(game["game"], lang)
        # the play's comments in the phone's language: its players read them in BG Stats
        link = bg_stats_link(game, self.games.names_shown(language(), self.kept), self.games.hints_shown(game["game"]),
                             self.location, lang, labels)
        template = "print.html" if request.url.path.endswith("/print") else "game.html"
        return self.page(template, request, game=game, result=game["result"], bg_stats=link, versions=found,
                         labels=labels, not_served=self.not_served(game["game"], lang))

    def not_served(self, game: str, lang: Language) -> str:
        """Why a saved game cannot be corrected here (its game is not served now), in `lang`; empty when it can."""
        if game in self.games.ids:
            return ""
        return said(lang, messages.NOT_SERVED, game=self.games.names_shown(lang, self.kept)[game])

    def labels(self, game: str, lang: Language) -> dict[str, str]:
        """The form's labels of a game's fields, in `lang`: how a result's breakdown names its parts."""
        return self.games.labels_shown(game, lang, self.kept)

    async def result_image(self, request: Request) -> Response:
        """The result as a picture (PNG) to send to the table's group chat: drawn here, nothing fetched."""
        game = await self.saved(request.path_params["game_id"])
        from generator.web.share import result_png

        lang = request_language(request)
        png = await run_in_threadpool(result_png, game, self.games.names_shown(lang, self.kept)[game["game"]],
                                      self.labels(game["game"], lang), lang)
        name = f"donjon-{game['game']}-{game['played_at'][:10]}.png"
        return Response(png, media_type="image/png",
                        headers={"content-disposition": f'inline; filename="{name}"',
                                 "cache-control": "no-cache"})

    async def correct_game(self, request: Request) -> Response:
        """Open a saved game again at a table, as it was saved: its save makes a new version of the game."""
        game = await self.saved(request.path_params["game_id"])
        if game["game"] not in self.games.ids:  # its table could neither be drawn nor scored here
            raise Refused(409, messages.NOT_SERVED, game=self.games.names_shown(language(), self.kept)[game["game"]])
        hints = self.games.hints(game["game"])
        options, names, parts, team, shared = table_from_game(game, hints)
        table_id = await self.db.awrite(lambda c: store.correction_table(c, game["id"], game["game"], options, names,
                                                                         team, parts, shared))
        return RedirectResponse(f"/tables/{table_id}", status_code=303)

    async def delete_game(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        form = await self.form(request)
        if form.get("confirm") == "yes" and await self.db.aread(lambda c: store.was_deleted(c, game_id)):
            # the same tap sent again (its answer lost on a weak network): answered as the first was, not "no game"
            return RedirectResponse(f"/history?deleted={game_id}", status_code=303)
        game = await self.saved(game_id)
        if form.get("confirm") != "yes":
            found = await self.db.aread(lambda c: store.versions(c, game_id))
            from generator.web.share import bg_stats_link

            lang = request_language(request)
            labels = self.labels(game["game"], lang)
            return self.page("game.html", request, status=400, game=game, result=game["result"], versions=found,
                             bg_stats=bg_stats_link(game, self.games.names_shown(language(), self.kept),
                                                    self.games.hints_shown(game["game"]),
                                                    self.location, lang, labels),
                             labels=labels, not_served=self.not_served(game["game"], lang),
                             delete_error=said(request_language(request), messages.DELETE_UNCONFIRMED))
        await self.db.awrite(lambda c: store.delete_game(c, game_id, who=messages.BY_PAGE))
        return RedirectResponse(f"/history?deleted={game_id}", status_code=303)

    async def restore_game(self, request: Request) -> Response:
        """Put a deleted game back (the history's "Put it back", right after a deletion tapped by mistake): its
        page, the game in the history and the statistics again; the same tap sent twice puts it back once."""
        game_id = request.path_params["game_id"]
        try:
            await self.db.awrite(lambda c: store.restore_game(c, game_id, who=messages.BY_PAGE))
        except store.StoreError as err:
            if err.message == messages.NO_GAME:
                raise Refused(404, messages.NO_GAME, game=game_id) from None
            return self.page("error.html", request, status=409, status_code=409,
                             message=err.said(request_language(request)), back="/history")
        return RedirectResponse(f"/history/games/{game_id}", status_code=303)

    async def players_page(self, request: Request, error: str = "", status: int = 200,
                           typed: Mapping[str, tuple[str, str]] | None = None) -> Response:
        """The players and the forms renaming or merging them. `typed`: what a refused form held, by form
        ("rename", "merge"), shown again in it: the player corrects a letter rather than type both names again."""
        found = await self.db.aread(store.players)
        # the forms' key: the history as they were drawn (a rename or merge sent twice from them is done once)
        key = f"after-{await self.db.aread(store.newest_version)}"
        return self.page("players.html", request, status=status, players=found, error=error, key=key,
                         typed=typed or {})

    async def player_page(self, request: Request) -> Response:
        name = request.query_params.get("name") or request.path_params.get("name", "")
        page = whole_number(request.query_params.get("page", "1"), PAGE_DIGITS)
        if page is None or page < 1:
            raise Refused(400, messages.NO_PAGE, page=request.query_params.get("page", "")[:PAGE_DIGITS + 1])
        lower = self.games.lower_is_better()
        stats = await self.db.aread(lambda c: store.player_stats(c, name, lower))
        if stats is None:
            raise Refused(404, messages.NO_PLAYER)
        name = stats["name"]
        lang = request_language(request)
        names = self.games.names_shown(lang, self.kept)
        series = {names[g]: [s["score"] for s in e["scores"]] for g, e in stats["per_game"].items()}
        over_time = charts.scores_over_time(series, said(lang, messages.SCORES_OVER_TIME, name=name))
        wins = charts.wins_per_game([(names[g], e["games"], e["wins"]) for g, e in stats["per_game"].items()],
                                    said(lang, messages.WINS_PER_GAME, name=name), lang)
        pages = max(1, -(-stats["games"] // PLAYER_GAMES_LIMIT))
        if page > pages:  # a link kept from before games were deleted or the player merged
            raise Refused(404, messages.NO_PLAYER_PAGE, page=page, name=name, pages=pages)
        games = await self.db.aread(lambda c: store.list_games(c, player=name, limit=PLAYER_GAMES_LIMIT,
                                                               offset=(page - 1) * PLAYER_GAMES_LIMIT))

        def link(to: int) -> str:  # to the list itself, past the statistics and the charts
            return player_url(name) + (f"&page={to}" if to > 1 else "") + "#games"

        return self.page("player.html", request, stats=stats, over_time=over_time, wins=wins, games=games,
                         lower_is_better=lower, last_games=charts.LAST_GAMES, page=page, pages=pages,
                         newer=link(page - 1) if page > 1 else None, older=link(page + 1) if page < pages else None,
                         cut={game: lang.number(n) for game, n in charts.cut_series(series).items()})

    async def rename_player(self, request: Request) -> Response:
        """Rename a player (`/history/players/rename`) or merge one into another (`.../merge`) in every game."""
        from generator.web.people import PeopleError, merge, rename

        form = await self.form(request)
        old, new = " ".join(str(form.get("old", "")).split()), visible_name(str(form.get("new", "")))
        merging = request.url.path.endswith("/merge")
        lang = request_language(request)
        # a refused form is drawn again with what was typed in it; a rename refused because the new name is
        # another player's also fills the merge form with the two names, which its message says to use instead
        typed = {"merge" if merging else "rename": (str(form.get("old", "")), str(form.get("new", "")))}
        if not old or not new:
            return await self.players_page(request, said(lang, messages.NAME_EMPTY), 400, typed)
        if len(new) > LONGEST_NAME:
            return await self.players_page(request, said(lang, messages.NAME_TOO_LONG, most=LONGEST_NAME), 400,
                                           typed)
        if (code := unprintable_character(new)) is not None:
            return await self.players_page(request, said(lang, messages.NAME_CHARACTER, code=code), 400, typed)
        # the form sent again (a double tap, a resend after a lost answer) finds its player renamed already: it is
        # answered as the first was, not "no saved game has a player of that name"
        key = sent_again_key(sent_key(form), request.url.path, old, new)

        def change(conn: sqlite3.Connection) -> None:
            # every form done is remembered, not the last one only: a resend comes after another phone's rename
            if key is not None and store.people_form_done(conn, key):
                return
            (merge if merging else rename)(conn, self.games, old, new, who=messages.BY_PAGE)
            if key is not None:
                store.keep_people_form(conn, key)

        try:
            await self.db.awrite(change)
        except PeopleError as err:
            if err.message == messages.RENAME_TAKEN:
                typed["merge"] = (old, new)
            return await self.players_page(request, err.said(lang), 409, typed)
        return RedirectResponse(player_url(new), status_code=303)

    # --- the app on a phone's home screen -------------------------------------------------------------------------

    async def manifest(self, request: Request) -> Response:
        from generator.web.share import manifest

        return JSONResponse(manifest(request_language(request)), media_type="application/manifest+json")

    async def icon(self, request: Request) -> Response:
        from generator.web.share import icon_png

        size = int(request.path_params.get("size", 48))
        if size not in (48, 180, 192, 512):
            raise Refused(404, messages.NO_ICON)
        kind = "image/x-icon" if request.url.path.endswith(".ico") else "image/png"
        return Response(icon_png(size, ico=kind == "image/x-icon"), media_type=kind,
                        headers={"cache-control": "public, max-age=86400"})

    # --- the JSON API -------------------------------------------------------------------------------------------

    async def json_body(self, request: Request) -> dict[str, Any]:
        body = await request.body()
        try:
            data = json.loads(body, object_pairs_hook=_no_duplicates)
        except messages.Said as err:
            raise Refused(400, messages.NOT_JSON, kind="duplicate_key",
                          error=err.said(request_language(request))) from None
        except (ValueError, RecursionError) as err:
            raise Refused(400, messages.NOT_JSON, kind="not_json", error=err) from None
        if not isinstance(data, dict):
            raise Refused(400, messages.NOT_OBJECT, kind="not_object")
        if _has_surrogate(data):
            raise Refused(400, messages.SURROGATE, kind="not_unicode")
        return data

    async def api_score(self, request: Request) -> Response:
        data = await self.json_body(request)
        scored = self.games.score(data)
        if scored.result is None:
            return self.unreadable(data, request_language(request))
        return JSONResponse(scored.result)

    def unreadable(self, state: Mapping[str, Any], lang: Language) -> JSONResponse:
        """A state the scorer cannot read: its format's words in the request's language (read again in it: a state
        that is read keeps the scorer's English, as `donjon score --json` gives it), and each problem's `where`,
        the field it is about."""
        said = self.games.score(state, lang)
        return JSONResponse({"error": said.error, "code": "unreadable", "problems": said.problems}, status_code=422)

    def checked_save(self, data: Mapping[str, Any], lang: Language, patch: bool = False
                     ) -> tuple[dict[str, Any], list[str] | None, str | None]:
        """The end state, team and date of a save (POST) or a correction (PATCH), checked as `donjon history
        import` checks them: raises a 400 naming what is wrong."""
        from generator.web.archive import SaveRefused, check_envelope, visible_names

        try:
            state, team, played_at = check_envelope(data, patch=patch, lang=lang)
        except SaveRefused as err:
            raise Refused(400, "{said}", kind="envelope", field=err.field, said=str(err)) from None
        # a name pasted with a zero-width space or a bidi mark is saved without them, as a table's form saves it
        return visible_names(state, self.games), team, played_at

    def scored_for_saving(self, state: Mapping[str, Any], lang: Language) -> dict[str, Any] | JSONResponse:
        from generator.web.archive import long_names

        scored = self.games.score(state)
        if scored.result is None:
            return self.unreadable(state, lang)
        result = scored.result
        if not (result["valid"] and result["finished"]):
            return JSONResponse({"error": lang._(messages.ONLY_FINISHED), "code": "not_finished", "result": result},
                                status_code=422)
        wrong = long_names(result, lang)
        if wrong:
            return JSONResponse({"error": wrong[0], "code": "player_name"}, status_code=422)
        return result

    async def api_save(self, request: Request) -> Response:
        data = await self.json_body(request)
        lang = request_language(request)
        state, team, played_at = self.checked_save(data, lang)
        key = request.headers.get("idempotency-key")
        if key is not None and not 0 < len(key) <= 200:
            raise Refused(400, messages.KEY_LENGTH, kind="key_length")
        result = self.scored_for_saving(state, lang)
        if isinstance(result, Response):
            return result
        fingerprint = store.body_hash(json.dumps(data, sort_keys=True).encode())

        def save(conn: sqlite3.Connection) -> tuple[int, bool, dict[str, Any] | None]:
            game_id, created = store.save_game(
                conn, result["game"], state, result, team=team or [], played_at=played_at, idempotency_key=key,
                who=messages.BY_API, body=fingerprint if key is not None else None)
            # the game answered is read in the save's own transaction, as the save left it: a read after it was one
            # more trip to a reader thread and one more transaction for every save, which twenty phones saving at
            # once queued for on the server's one thread
            return game_id, created, store.get_game(conn, game_id)

        try:
            game_id, created, game = await self.db.awrite(save)
        except store.KeyReused as err:
            return JSONResponse({"error": err.said(lang), "code": "key_reused"}, status_code=409)
        return JSONResponse(game, status_code=201 if created else 200,
                            headers={"location": f"/api/games/{game_id}"})

    async def api_patch(self, request: Request) -> Response:
        """Correct a saved game: a new end state (scored again), kept as a new version."""
        game_id = request.path_params["game_id"]
        await self.api_found(game_id)
        data = await self.json_body(request)
        lang = request_language(request)
        state, team, _ = self.checked_save(data, lang, patch=True)
        # the version it was made from, when the script says it: a correction made from an older version (another
        # phone's correction saved meanwhile) is refused rather than written over that one
        since = data.get("version") if "end_state" in data else None
        result = self.scored_for_saving(state, lang)
        if isinstance(result, Response):
            return result
        try:
            game = await self.db.awrite(lambda c: store.update_game(c, game_id, state, result, team=team,
                                                                    who=messages.BY_API, since=since))
        except store.StoreError as err:
            if err.message != messages.GAME_CHANGED:  # deleted meanwhile: as any game not there
                raise Refused(404, messages.NO_GAME, kind="no_game", game=game_id) from None
            now = await self.db.aread(lambda c: store.latest_version(c, game_id))
            return JSONResponse({"error": said(lang, messages.API_GAME_CHANGED, game=game_id, version=since, now=now),
                                 "code": "game_changed", "field": "version"}, status_code=409)
        return JSONResponse({**game, "versions": await self.api_versions(game_id)})

    async def api_delete(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        await self.api_found(game_id)
        await self.db.awrite(lambda c: store.delete_game(c, game_id, who=messages.BY_API))
        return Response(status_code=204)

    async def api_found(self, game_id: int) -> None:
        if await self.db.aread(lambda c: store.get_game(c, game_id)) is None:
            raise Refused(404, messages.NO_GAME, kind="no_game", game=game_id)

    async def api_versions(self, game_id: int) -> list[dict[str, Any]]:
        return [{k: v for k, v in version.items()} for version in
                await self.db.aread(lambda c: store.versions(c, game_id))]

    async def api_games(self, request: Request) -> Response:
        return JSONResponse(await self.db.aread(store.list_games))

    async def api_game(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        game = await self.db.aread(lambda c: store.get_game(c, game_id))
        if game is None:
            raise Refused(404, messages.NO_GAME, kind="no_game", game=game_id)
        return JSONResponse({**game, "versions": await self.api_versions(game_id)})

    async def api_players(self, request: Request) -> Response:
        return JSONResponse(await self.db.aread(store.players))

    # --- errors -------------------------------------------------------------------------------------------------

    async def http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        headers = dict(exc.headers or {})
        lang = request_language(request)
        # the router's own refusals carry only their status's phrase (English): said in the phone's words
        unsaid = exc.detail == http.HTTPStatus(exc.status_code).phrase
        if request.url.path.startswith("/api/"):
            return JSONResponse(api_refusal(exc, lang, request, unsaid), status_code=exc.status_code,
                                headers=headers)
        plain = {404: messages.NO_SUCH_PAGE, 405: messages.FORM_ADDRESS}.get(exc.status_code) if unsaid else None
        message = said(lang, exc.message, **exc.values) if isinstance(exc, Refused) \
            else said(lang, plain) if plain is not None else exc.detail
        response = self.page("error.html", request, status=exc.status_code, status_code=exc.status_code,
                             message=message, back="")
        response.headers.update(headers)
        return response

    async def db_error(self, request: Request, exc: Exception) -> Response:
        """The database failed: 507 when it could not be written (the disk is full: the phone keeps the change and
        sends it again), else 503 (another program holding its lock said as such). The server carries on either
        way."""
        full = not_written(exc)
        # the file moved or deleted while the companion runs (a clean-up, a sync tool): SQLite says only that it
        # cannot open "database file" (a connection opened before says nothing: the database refuses it, DatabaseGone),
        # so the host is told which file is missing and what to do
        gone = isinstance(exc, DatabaseGone) or not full and not busy(exc) and not Path(self.db.path).exists()
        status = 507 if full else 503
        which, code = ((messages.NOT_WRITTEN, "not_written") if full else (messages.DB_BUSY, "database_busy")
                       if busy(exc) else (messages.DB_GONE, "database_gone") if gone
                       else (messages.DB_UNUSABLE, "database_unusable"))
        words = said(request_language(request), which, error=exc, file=self.db.path)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": words, "code": code}, status_code=status)
        # drawn without reading the database: the file gone, reading it again for the page failed too, and a phone
        # got a server error with a traceback on the terminal
        return self.page("error.html", request, status=status, status_code=status, reads=False, message=words,
                         back="")

    async def gone(self, request: Request, exc: Exception) -> Response:
        """The client left in the middle of its request: nobody reads the answer, and it is no fault to log."""
        return Response(status_code=400)


class GameNames(Mapping[str, str]):
    """The games' names a page shows (Games.names_shown), made by `make` the first time the page names one."""

    def __init__(self, make: Callable[[], Mapping[str, str]]) -> None:
        self._make = make
        self._names: Mapping[str, str] | None = None

    def _made(self) -> Mapping[str, str]:
        if self._names is None:
            self._names = self._make()
        return self._names

    def __getitem__(self, game: str) -> str:
        return self._made()[game]  # a game named nowhere is named by its id (games._ByIdElse)

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


class SeatUpload(NamedTuple):
    """A file sent for a player's sheet (:meth:`Companion.seat_upload`)."""

    table_id: int
    seat: int
    form: FormData
    #: the form's `sheet`: the file, or what stands in its place when none was chosen
    upload: UploadFile | str | None
    lang: Language
    view: TableView


def marks_sent(form: FormData) -> set[int]:
    """The marks a check page sends as filled (each box ticked: its number in the sheet's map)."""
    try:
        return {int(str(v)) for v in form.getlist("mark")}
    except ValueError:
        raise Refused(400, messages.MARK_NOT_NUMBER) from None


def values_typed(form: FormData) -> dict[str, str]:
    """The values a check page sends for the fields its marks leave undecided (`set:towers[2]` = 5), as
    `donjon score --set` takes them: a field left blank is not given."""
    return {key[4:]: value for key, value in form.multi_items()
            if key.startswith("set:") and isinstance(value, str) and value.strip()}


def answers_sent(form: FormData, read: SheetReading, kept: store.Answers) -> store.Answers:
    """What a player answered on the check page of photos read (`read`) that sends `form`, with what they answered
    before (`kept`, which the page showed): each mark whose box is not as the photos read it (a tap), or that was
    answered before (the player may have tapped it back), and each value typed; a value typed before and now
    blanked out is no longer given. A form that is not the check page of this sheet (no marks sent, or those of
    another sheet: a page left open while the player started over) answers nothing new."""
    review = read.review
    if review is None or (str(form.get("version", "")), str(form.get("paper", ""))) != (review.version, review.paper):
        return kept
    filled = marks_sent(form)
    marks = {i: i in filled for i, back in enumerate(read.marks)
             if i in kept.marks or (i in filled) != (back.state is True)}
    typed = {key[4:] for key, value in form.multi_items() if key.startswith("set:") and isinstance(value, str)}
    given = {field: value for field, value in kept.given.items() if field not in typed} | values_typed(form)
    return store.Answers(marks, given)


def photos_full(read: SheetReading, lang: Language) -> str:
    """Why no other photo can be added to a sheet's photos (`read`), in `lang`: the most are kept
    (store.MOST_PHOTOS_PER_SEAT); "" while one can."""
    if len(read.kept) < store.MOST_PHOTOS_PER_SEAT:
        return ""
    return said(lang, messages.TOO_MANY_PHOTOS, most=store.MOST_PHOTOS_PER_SEAT)


def whole_number(raw: object, digits: int) -> int | None:
    """A whole number as a form or a query sends it, of at most `digits` digits (all the field can mean), or None
    for anything else: a file, an empty field, a sign, a `²` (a digit to `isdigit`, not to int())."""
    return int(raw) if isinstance(raw, str) and raw.isdecimal() and len(raw) <= digits else None


def seat_number(raw: object) -> int | None:
    """A seat's number as a form or a query sends it (`2`): three digits at most (no table seats a thousand), ASCII
    ones only; None for anything else."""
    return whole_number(raw, 3) if isinstance(raw, str) and raw.isascii() else None


def player_url(name: str) -> str:
    """A player's page: the name in the query, so that any name (one with `/`, `..` or `?`) has one."""
    return "/history/player?" + urllib.parse.urlencode({"name": name})


def _as_known(conn: Any, names: list[str]) -> list[str]:
    """Each name as the history knows it ("ana " is Ana, if Ana has played), so that one person is one player."""
    known = {player_key(n): n for n in store.known_names(conn, limit=10_000)}
    return [known.get(player_key(n), n) for n in names]


def _minutes_between(start: str, end: str) -> int:
    from datetime import datetime

    form = "%Y-%m-%d %H:%M:%S"
    seconds = (datetime.strptime(end, form) - datetime.strptime(start, form)).total_seconds()
    return max(0, round(seconds / 60))


def api_refusal(exc: HTTPException, lang: Language, request: Request, unsaid: bool) -> dict[str, Any]:
    """The JSON API's refusal: `error` in the words of the language the request asks (English when it names none),
    `code` (and `field`, when the refusal is about one key of the body) the same in every language."""
    if isinstance(exc, Refused):
        body = {"error": said(lang, exc.message, **exc.values), "code": exc.kind or str(exc.status_code)}
        return body | ({"field": exc.field} if exc.field else {})
    if unsaid and exc.status_code in (404, 405):  # the router's own: no such address, or not with that method
        path = request.url.path
        if exc.status_code == 404:
            return {"error": said(lang, messages.NO_API_ADDRESS, path=path), "code": "no_such_address"}
        return {"error": said(lang, messages.API_METHOD, path=path, method=request.method),
                "code": "method_not_allowed"}
    return {"error": exc.detail, "code": str(exc.status_code)}


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise messages.Said(messages.KEY_TWICE, key=key)
        out[key] = value
    return out


def _has_surrogate(value: Any) -> bool:
    """Whether JSON text held a lone surrogate escape (`"\\ud800"`): Python reads it, but it is no character."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def create_app(db: Database, games: Games, *, token: str | None = None, join_url: str | None = None,
               location: str | None = None) -> Starlette:
    """The ASGI application. With a `token` (--lan) every request must carry it; without, only loopback names."""
    companion = Companion(db, games, token=token, join_url=join_url, location=location)
    c = companion
    routes = [
        Route("/", c.home, name="home"),
        Route("/language", c.set_language, methods=["POST"]),
        Route("/new/{game}", c.new_table, name="new"),
        Route("/tables", c.create_table, methods=["POST"]),
        Route("/tables/{table_id:int}", c.table_page, name="table"),
        Route("/tables/{table_id:int}/seats/{seat:int}", c.seat_page, name="seat"),
        Route("/tables/{table_id:int}/seats/{seat:int}/name", c.rename_seat, methods=["POST"]),
        Route("/tables/{table_id:int}/edit", c.edit, methods=["POST"]),
        Route("/tables/{table_id:int}/live", c.live),
        Route("/tables/{table_id:int}/seats/{seat:int}/sheet", c.upload_sheet, methods=["POST"]),
        Route("/tables/{table_id:int}/seats/{seat:int}/marks", c.confirm_marks, methods=["POST"]),
        Route("/tables/{table_id:int}/seats/{seat:int}/photo", c.photo_page),
        Route("/tables/{table_id:int}/seats/{seat:int}/photo", c.add_photo, methods=["POST"]),
        Route("/tables/{table_id:int}/photos", partial(photos.photos_page, c)),
        Route("/tables/{table_id:int}/photos", partial(photos.read_photos, c), methods=["POST"]),
        Route("/tables/{table_id:int}/photos/keep", partial(photos.keep_photos, c), methods=["POST"]),
        Route("/tables/{table_id:int}/save", c.save_table, methods=["POST"]),
        Route("/history", c.history, name="history"),
        Route("/history/games/{game_id:int}", c.game_page, name="game"),
        Route("/history/games/{game_id:int}/print", c.game_page),
        Route("/history/games/{game_id:int}/result.png", c.result_image),
        Route("/history/games/{game_id:int}/correct", c.correct_game, methods=["POST"]),
        Route("/history/games/{game_id:int}/delete", c.delete_game, methods=["POST"]),
        Route("/history/games/{game_id:int}/restore", c.restore_game, methods=["POST"]),
        Route("/history/players", c.players_page, name="players"),
        Route("/history/players/rename", c.rename_player, methods=["POST"]),
        Route("/history/players/merge", c.rename_player, methods=["POST"]),
        Route("/history/player", c.player_page),
        Route("/history/players/{name:path}", c.player_page, name="player"),
        Route("/manifest.webmanifest", c.manifest),
        Route("/favicon.ico", c.icon),
        Route("/icons/{size:int}.png", c.icon),
        Route("/api/score", c.api_score, methods=["POST"]),
        Route("/api/games", c.api_games, methods=["GET"]),
        Route("/api/games", c.api_save, methods=["POST"]),
        Route("/api/games/{game_id:int}", c.api_game, methods=["GET"]),
        Route("/api/games/{game_id:int}", c.api_patch, methods=["PATCH"]),
        Route("/api/games/{game_id:int}", c.api_delete, methods=["DELETE"]),
        Route("/api/players", c.api_players),
        Mount("/static", StaticFiles(directory=templates_root() / "static"), name="static"),
    ]
    cut_short: list[str] = []  # the requests the server stopped answering when it stopped (serve.py says them)
    middleware = [Middleware(Headers), Middleware(CutShort, cut=cut_short),
                  Middleware(BodyLimit, default=MOST_BODY, limits={"/sheet": MOST_SHEET, "/photo": MOST_SHEET,
                                                                   "/marks": MOST_MARKS,
                                                                   "/photos": photos.MOST_PHOTOS})]
    if token is not None:
        middleware.append(Middleware(TokenGate, token=token))
    else:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost", "[::1]"]))
    middleware.append(Middleware(SameOrigin, routes=routes))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: c.http_error, sqlite3.Error: c.db_error,
                                        ClientDisconnect: c.gone})
    app.state.companion = companion
    app.state.cut_short = cut_short
    return app


__all__ = ["create_app", "player_url"]
