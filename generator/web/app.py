"""The companion's web application: pages for the table and the history, and the JSON API (Starlette).

Views are small functions grouped by page kind in :class:`Companion`; pages come from the jinja2 templates in
`templates/web/` (autoescaped: every name a player types is escaped), assets from `templates/web/static/`
(htmx vendored from npm; nothing is fetched from the internet). Every write goes through the database's single
writer; every change to a table is scored again by the engine, and open pages poll for the new version.

Live updates are polled (htmx, every two seconds, answered with 204 when nothing changed) rather than pushed
with server-sent events: a phone that sleeps or changes network simply polls again, no connection is held per
phone on a two-core laptop, and SQLite stays the only source of truth (any process sees the same versions).
"""

from __future__ import annotations

import json
import sqlite3
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from generator.games.table import TableHints
from generator.render.imposition import PAPERS
from generator.web import charts, store
from generator.web.db import Database
from generator.web.forms import LONGEST_TEXT, Edit, EditError, apply
from generator.web.games import Games, PhotoReview
from generator.web.security import BodyLimit, SameOrigin, TokenGate
from generator.web.tables import TableView, Views

#: Bodies: a JSON end state or a form is small; a filled castle sheet PDF is about 100 KiB, a phone's photo of a
#: sheet a few MiB (a 12-megapixel JPEG, a HEIC); the marks checked on a photo come back with the straightened
#: photo the page showed (about 200 KiB).
MOST_BODY = 256 * 1024
MOST_SHEET = 24 * 1024 * 1024
MOST_MARKS = 2 * 1024 * 1024
#: Fields in one submitted form (a new table has a handful of options and at most a few names).
MOST_FORM_FIELDS = 40
#: The longest player name shown on a phone without wrapping badly; the format allows 200.
LONGEST_NAME = 40
#: How often an open page asks whether its table changed (htmx polling).
POLL = "2s"
BG_STATS = "https://app.bgstatsapp.com/createPlay.html?data="
#: Games listed on a history page: years of weekly game nights; the JSON API and the export give them all.
GAMES_NEWEST_FIRST_LIMIT = 500


def templates_root() -> Path:
    from generator.resources import templates_dir

    return templates_dir() / "web"


def qr_svg(text: str, scale: int = 4) -> Markup:
    """A QR code as inline SVG (segno: pure Python)."""
    import segno

    svg = segno.make(text, error="m").svg_inline(scale=scale, dark="#111", light="#fff", title=text)
    return Markup(svg)


def bg_stats_link(game: Mapping[str, Any], names: Mapping[str, str], hints: TableHints) -> str:
    """BG Stats' documented push link for a saved game: the phone that opens it adds the play to the app."""
    entry: dict[str, Any] = {"name": names[game["game"]], "highestWins": hints.highest_wins, "noPoints": False,
                             "sourceGameId": game["game"]}
    if hints.bgg_id is not None:
        entry["bggId"] = hints.bgg_id
    players = []
    for seat, player in enumerate(game["players"]):
        players.append({"name": player["name"], "score": player["score"], "winner": player["winner"],
                        "rank": player["place"], "startPlayer": hints.seat_order and seat == 0})
    data = {"sourceName": "donjon", "sourcePlayId": game["uid"], "playDate": game["played_at"], "game": entry,
            "players": players}
    return BG_STATS + urllib.parse.quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


class Companion:
    """The application's state: the database, the games, the templates and the access token."""

    def __init__(self, db: Database, games: Games, *, token: str | None = None, join_url: str | None = None) -> None:
        self.db = db
        self.games = games
        self.views = Views(games)
        self.token = token
        self.join_url = join_url
        # auto_reload off: the templates ship with donjon; checking their dates on every page costs a stat each
        self.env = Environment(loader=FileSystemLoader(templates_root()),
                               autoescape=select_autoescape(default=True, default_for_string=True),
                               trim_blocks=True, lstrip_blocks=True, auto_reload=False)
        self.env.globals.update(game_names=games.names, game_ids=games.ids, poll=POLL, lan=token is not None)
        self.env.filters["qr"] = qr_svg

    # --- helpers ------------------------------------------------------------------------------------------------

    def page(self, name: str, request: Request, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(request=request, join_url=self.join_url, **context)
        return HTMLResponse(html, status_code=status)

    async def form(self, request: Request) -> FormData:
        try:
            return await request.form(max_files=1, max_fields=MOST_FORM_FIELDS, max_part_size=MOST_SHEET)
        except HTTPException:
            raise
        except Exception as err:  # noqa: BLE001 - multipart's own errors: a bad request, said in words
            raise HTTPException(400, f"the form could not be read: {err}") from None

    async def table(self, table_id: int) -> TableView:
        try:
            table = await self.db.aread(lambda c: store.load_table(c, table_id))
        except store.StoreError as err:
            raise HTTPException(404, str(err)) from None
        return self.views.view(table)

    # --- home and new tables ------------------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        tables = await self.db.aread(store.recent_tables)
        return self.page("home.html", request, tables=tables)

    def option_fields(self, game: str) -> list[dict[str, Any]]:
        """The options of a new table, from the game's format and hints."""
        from generator.web.forms import kind_of, variant, words

        catalog, spec = self.games.catalog(game)
        spec = variant(spec, {})
        hints = self.games.hints(game)
        out = []
        for name in hints.options:
            field = spec.fields[name]
            source = hints.option_choices.get(name)
            kind = kind_of(field.type)
            if source is not None:
                choices = source(catalog, {})
                kind = "select"
            elif kind == "select":
                choices = [(v, words(v.replace("-", " "))) for v in getattr(field.type, "values", ())]
            else:
                choices = []
            out.append({"name": name, "label": hints.labels.get(name, words(name)), "help": field.doc,
                        "kind": kind, "choices": choices})
        return out

    async def new_table(self, request: Request) -> Response:
        game = request.path_params["game"]
        if game not in self.games.ids:
            raise HTTPException(404, f"no game {game!r}")
        low, high = self.games.players_range(game)
        return self.page("new.html", request, game=game, options=self.option_fields(game), low=low, high=high,
                         error="")

    async def create_table(self, request: Request) -> Response:
        form = await self.form(request)
        game = str(form.get("game", ""))
        if game not in self.games.ids:
            raise HTTPException(400, "choose one of the games")
        hints = self.games.hints(game)
        low, high = self.games.players_range(game)
        names = [str(n).strip() for n in form.getlist("name") if isinstance(n, str) and n.strip()]
        options: dict[str, Any] = {}
        error = ""
        for option in self.option_fields(game):
            raw = form.get(option["name"])
            if option["kind"] == "check":
                options[option["name"]] = raw == "on"
            elif option["kind"] == "select":
                allowed = {v for v, _ in option["choices"]}
                if raw not in allowed:
                    error = f"{option['label']}: choose one of the values offered"
                elif raw:
                    value = str(raw)
                    options[option["name"]] = json.loads(value) if value.startswith("[") else value
        if any(len(n) > LONGEST_NAME for n in names):
            error = f"a name is longer than {LONGEST_NAME} characters"
        elif len({n.casefold() for n in names}) != len(names):
            error = "each player needs a different name"
        elif not low <= len(names) <= high:
            error = f"{self.games.names[game]} is played by {low} to {high}: enter {low} to {high} names"
        if error:
            return self.page("new.html", request, status=400, game=game, options=self.option_fields(game), low=low,
                             high=high, error=error)
        builder = self.views.builder(game, options, names)
        from generator.web.forms import initial_part

        part = initial_part(builder.spec, hints) if hints.parts else {}
        shared = {} if hints.parts else initial_part(builder.spec, hints)
        seats = names if hints.parts else []
        team = [] if hints.parts else names
        table_id = await self.db.awrite(lambda c: store.create_table(c, game, options, seats, team, part, shared))
        return RedirectResponse(f"/tables/{table_id}", status_code=303)

    # --- a table ------------------------------------------------------------------------------------------------

    def table_context(self, view: TableView, seat: int | None) -> dict[str, Any]:
        return {"view": view, "table": view.table, "hints": view.hints, "seat": seat,
                "hash": view.seat_hash(seat), "result": view.result}

    async def table_page(self, request: Request) -> Response:
        view = await self.table(request.path_params["table_id"])
        table_url = str(request.url_for("table", table_id=view.table.id))
        join = f"{table_url}?token={self.token}" if self.token else None
        return self.page("table.html", request, join=join, **self.table_context(view, None))

    async def seat_page(self, request: Request) -> Response:
        view = await self.table(request.path_params["table_id"])
        seat = request.path_params["seat"]
        if not any(p.seat == seat for p in view.table.parts):
            raise HTTPException(404, f"no seat {seat} at this table")
        return self.page("seat.html", request, **self.table_context(view, seat))

    async def edit(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        form = await self.form(request)
        raw_seat = str(form.get("seat", ""))
        seat = int(raw_seat) if raw_seat.isdigit() else None
        shown = form.get("shown", "")
        shown_seat = int(shown) if isinstance(shown, str) and shown.isdigit() else None
        path = tuple(str(form.get("path", "")).split("."))
        value = form.get("value", "")
        if not isinstance(value, str):
            raise HTTPException(400, "a value is text, not a file")
        op = str(form.get("op", ""))
        error = ""
        table: store.GameTable | None = None
        try:
            edit = Edit(op, path, value[:LONGEST_TEXT + 1], shared=seat is None)

            def change(table: store.GameTable, data: dict[str, Any]) -> None:
                builder = self.views.builder(table.game, table.options, table.names)
                if edit.op == "add":  # the - and + buttons: applied to the stored value, so taps never cancel
                    node: Any = data
                    for step in edit.path[:-1]:
                        node = node[int(step)] if isinstance(node, list) else node.get(step, {})
                    current = node.get(edit.path[-1], 0) if isinstance(node, dict) else 0
                    try:
                        delta = int(edit.value)
                    except ValueError:
                        raise EditError("expected +1 or -1") from None
                    apply(builder, data, Edit("set", edit.path, str(int(current or 0) + delta), edit.shared))
                else:
                    apply(builder, data, edit)

            table = await self.db.awrite(lambda c: store.edit_table(c, table_id, seat, change))
        except (EditError, store.StoreError) as err:
            error = str(err)
        view = self.views.view(table) if table is not None else await self.table(table_id)
        context = self.table_context(view, shown_seat)
        edited_path = path[0] if path and path[0] else ""
        known = [c.path for c in (view.shared_controls() if seat is None else
                                  view.seat_controls(seat) if any(p.seat == seat for p in view.table.parts) else [])]
        # the page's own form is drawn again whole only when the edit names no control of it (a bad path)
        reload_forms = edited_path not in known
        return self.page("update.html", request, reload_forms=reload_forms, edited=seat, edited_path=edited_path,
                         error=error, **context)

    async def live(self, request: Request) -> Response:
        """What changed since the version the page shows: 204 when nothing did (htmx then leaves the page)."""
        table_id = request.path_params["table_id"]
        known = request.query_params.get("v", "")
        version = await self.db.aread(lambda c: store.table_version(c, table_id))
        if version is None:
            raise HTTPException(404, "no such table")
        if known == str(version):
            return Response(status_code=204)
        view = await self.table(table_id)
        raw = request.query_params.get("seat", "")
        seat = int(raw) if raw.isdigit() and any(p.seat == int(raw) for p in view.table.parts) else None
        context = self.table_context(view, seat)
        reload_forms = request.query_params.get("h", "") != context["hash"]
        return self.page("update.html", request, reload_forms=reload_forms, edited=-1, edited_path="", error="",
                         **context)

    async def upload_sheet(self, request: Request) -> Response:
        """A filled castle score sheet in place of typing: a fillable PDF is read, checked and scored through the
        engine's reader of filled sheets, then its values become this player's part; a photo of a scan-ready sheet
        is read by its marks and shown back over the photo, for the player to check before it is kept
        (:meth:`confirm_marks`)."""
        table_id = request.path_params["table_id"]
        seat = request.path_params["seat"]
        form = await self.form(request)
        upload = form.get("sheet")
        view = await self.table(table_id)
        error = ""
        if not isinstance(upload, UploadFile):
            error = "choose a photo of your filled sheet, or the filled fillable sheet (PDF), to upload"
        else:
            data = await upload.read()
            read = await run_in_threadpool(self.games.score_castle_sheet, data, upload.filename or "sheet.pdf",
                                           view.table.game)
            if read.review is None and not read.scored.readable:
                error = read.scored.error
            elif "version" in view.table.options and read.sheet.get("version") != view.table.options.get("version"):
                error = (f"this sheet is for the {read.sheet.get('version')} version; this table plays "
                         f"{view.table.options.get('version')}")
            elif read.review is not None:
                return self.page("photo.html", request, review=read.review, marks_error="",
                                 **self.table_context(view, seat))
            else:
                response = await self.keep_part(table_id, seat, view, read.sheet)
                if isinstance(response, Response):
                    return response
                error = response
        view = await self.table(table_id)
        return self.page("seat.html", request, status=400 if error else 200, upload_error=error,
                         **self.table_context(view, seat))

    async def confirm_marks(self, request: Request) -> Response:  # noqa: C901 - one form, checked in turn
        """The marks of a photo as the player checked them (each box ticked is a filled mark): the values they make
        become this player's part, and the table scores them."""
        table_id = request.path_params["table_id"]
        seat = request.path_params["seat"]
        form = await self.form(request)
        view = await self.table(table_id)
        version, paper = str(form.get("version", "")), str(form.get("paper", ""))
        if version != view.table.options.get("version") or paper not in PAPERS:
            raise HTTPException(400, "the marks are of another sheet than this table's")
        try:
            filled = {int(str(v)) for v in form.getlist("mark")}
        except ValueError:
            raise HTTPException(400, "a mark is not a number") from None
        sheet, problems = self.games.castle_sheet_from_marks(version, paper, filled)
        if not problems:
            response = await self.keep_part(table_id, seat, view, sheet)
            if isinstance(response, Response):
                return response
            problems = [response]
        image = str(form.get("image", ""))
        review = PhotoReview(version, paper, image if image.startswith("data:image/jpeg;base64,") else "",
                             tuple(m._replace(state="filled" if m.number in filled else "empty",
                                              check=any(p.startswith(f"{m.field}:") for p in problems))
                                   for m in self.games.castle_marks(version, paper)), ())
        return self.page("photo.html", request, status=400, review=review, marks_error="; ".join(problems),
                         **self.table_context(view, seat))

    async def keep_part(self, table_id: int, seat: int, view: TableView, sheet: dict[str, Any]) -> Response | str:
        """Make `sheet` this player's part: a redirect to the player's page, or why it could not be kept."""
        sheet = {k: v for k, v in sheet.items() if k != "version"}
        sheet.pop(view.hints.part_name, None)

        def replace_part(table: store.GameTable, part: dict[str, Any]) -> None:
            part.clear()
            part.update(sheet)

        try:
            await self.db.awrite(lambda c: store.edit_table(c, table_id, seat, replace_part))
        except store.StoreError as err:
            return str(err)
        # back to the player's page: reloading it does not send the sheet again
        return RedirectResponse(f"/tables/{table_id}/seats/{seat}", status_code=303)

    async def save_table(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        view = await self.table(table_id)
        if view.table.game_id is not None:
            return RedirectResponse(f"/history/games/{view.table.game_id}", status_code=303)
        if view.scored.end_missing is not None:
            raise HTTPException(409, f"this game cannot be saved yet: {view.scored.end_missing}")
        if not view.saveable or view.result is None:
            raise HTTPException(409, "only a valid, finished game can be saved: fix what is marked first")
        result = view.result
        state = view.end_state
        game_id, _ = await self.db.awrite(lambda c: store.save_game(
            c, view.table.game, state, result, team=view.table.team, table_id=table_id))
        return RedirectResponse(f"/history/games/{game_id}", status_code=303)

    # --- history ------------------------------------------------------------------------------------------------

    async def history(self, request: Request) -> Response:
        games = await self.db.aread(lambda c: store.list_games(c, limit=GAMES_NEWEST_FIRST_LIMIT))
        return self.page("history.html", request, games=games)

    async def game_page(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        game = await self.db.aread(lambda c: store.get_game(c, game_id))
        if game is None:
            raise HTTPException(404, f"no saved game {game_id}")
        link = bg_stats_link(game, self.games.names, self.games.hints(game["game"]))
        return self.page("game.html", request, game=game, result=game["result"], bg_stats=link)

    async def players_page(self, request: Request) -> Response:
        found = await self.db.aread(store.players)
        return self.page("players.html", request, players=found)

    async def player_page(self, request: Request) -> Response:
        name = request.path_params["name"]
        lower = [g for g in self.games.ids if not self.games.hints(g).highest_wins]
        stats = await self.db.aread(lambda c: store.player_stats(c, name, lower))
        if stats is None:
            raise HTTPException(404, "no saved game has a player of that name")
        names = self.games.names
        over_time = charts.scores_over_time(
            {names[g]: [s["score"] for s in e["scores"]] for g, e in stats["per_game"].items()},
            f"Scores of {name} over time, per game")
        wins = charts.wins_per_game([(names[g], e["games"], e["wins"]) for g, e in stats["per_game"].items()],
                                    f"Games played and won by {name}, per game")
        games = await self.db.aread(lambda c: store.list_games(c, player=name, limit=GAMES_NEWEST_FIRST_LIMIT))
        return self.page("player.html", request, stats=stats, over_time=over_time, wins=wins, games=games,
                         lower_is_better=lower)

    # --- the JSON API -------------------------------------------------------------------------------------------

    async def json_body(self, request: Request) -> dict[str, Any]:
        body = await request.body()
        try:
            data = json.loads(body, object_pairs_hook=_no_duplicates)
        except (ValueError, RecursionError) as err:
            raise HTTPException(400, f"the body is not JSON: {err}") from None
        if not isinstance(data, dict):
            raise HTTPException(400, "the body must be a JSON object (an end state)")
        return data

    async def api_score(self, request: Request) -> Response:
        data = await self.json_body(request)
        scored = self.games.score(data)
        if scored.result is None:
            return JSONResponse({"error": scored.error, "problems": scored.problems}, status_code=422)
        return JSONResponse(scored.result)

    async def api_save(self, request: Request) -> Response:
        data = await self.json_body(request)
        envelope = "end_state" in data
        state = data["end_state"] if envelope else data
        team = data.get("team", []) if envelope else []
        played_at = data.get("played_at") if envelope else None
        unknown = sorted(set(data) - {"end_state", "team", "played_at"}) if envelope else []
        if unknown:
            raise HTTPException(400, f"unknown keys: {', '.join(unknown)}; allowed: end_state, team, played_at")
        if not isinstance(state, dict):
            raise HTTPException(400, "end_state must be a JSON object")
        if not (isinstance(team, list) and all(isinstance(n, str) and 0 < len(n) <= LONGEST_NAME for n in team)
                and len(team) <= 8):
            raise HTTPException(400, "team must be a list of up to 8 names")
        if played_at is not None and not _is_play_date(played_at):
            raise HTTPException(400, "played_at must be 'YYYY-MM-DD HH:MM:SS'")
        key = request.headers.get("idempotency-key")
        if key is not None and not 0 < len(key) <= 200:
            raise HTTPException(400, "Idempotency-Key must be 1 to 200 characters")
        scored = self.games.score(state)
        if scored.result is None:
            return JSONResponse({"error": scored.error, "problems": scored.problems}, status_code=422)
        result = scored.result
        if not (result["valid"] and result["finished"]):
            return JSONResponse({"error": "only a valid, finished game is saved", "result": result}, status_code=422)
        game_id, created = await self.db.awrite(lambda c: store.save_game(
            c, result["game"], state, result, team=team, played_at=played_at, idempotency_key=key))
        game = await self.db.aread(lambda c: store.get_game(c, game_id))
        return JSONResponse(game, status_code=201 if created else 200,
                            headers={"location": f"/api/games/{game_id}"})

    async def api_games(self, request: Request) -> Response:
        return JSONResponse(await self.db.aread(store.list_games))

    async def api_game(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        game = await self.db.aread(lambda c: store.get_game(c, game_id))
        if game is None:
            return JSONResponse({"error": f"no saved game {game_id}"}, status_code=404)
        return JSONResponse(game)

    async def api_players(self, request: Request) -> Response:
        return JSONResponse(await self.db.aread(store.players))

    # --- errors -------------------------------------------------------------------------------------------------

    async def http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
        return self.page("error.html", request, status=exc.status_code, status_code=exc.status_code,
                         message=exc.detail)

    async def db_error(self, request: Request, exc: Exception) -> Response:
        message = f"the database could not be used: {exc}"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=503)
        return self.page("error.html", request, status=503, status_code=503, message=message)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice")
        out[key] = value
    return out


def _is_play_date(value: Any) -> bool:
    from datetime import datetime

    if not isinstance(value, str):
        return False
    try:
        datetime.strptime(value, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return False
    return True


def create_app(db: Database, games: Games, *, token: str | None = None, join_url: str | None = None) -> Starlette:
    """The ASGI application. With a `token` (--lan) every request must carry it; without, only loopback names."""
    companion = Companion(db, games, token=token, join_url=join_url)
    c = companion
    routes = [
        Route("/", c.home, name="home"),
        Route("/new/{game}", c.new_table, name="new"),
        Route("/tables", c.create_table, methods=["POST"]),
        Route("/tables/{table_id:int}", c.table_page, name="table"),
        Route("/tables/{table_id:int}/seats/{seat:int}", c.seat_page, name="seat"),
        Route("/tables/{table_id:int}/edit", c.edit, methods=["POST"]),
        Route("/tables/{table_id:int}/live", c.live),
        Route("/tables/{table_id:int}/seats/{seat:int}/sheet", c.upload_sheet, methods=["POST"]),
        Route("/tables/{table_id:int}/seats/{seat:int}/marks", c.confirm_marks, methods=["POST"]),
        Route("/tables/{table_id:int}/save", c.save_table, methods=["POST"]),
        Route("/history", c.history, name="history"),
        Route("/history/games/{game_id:int}", c.game_page, name="game"),
        Route("/history/players", c.players_page, name="players"),
        Route("/history/players/{name:str}", c.player_page, name="player"),
        Route("/api/score", c.api_score, methods=["POST"]),
        Route("/api/games", c.api_games, methods=["GET"]),
        Route("/api/games", c.api_save, methods=["POST"]),
        Route("/api/games/{game_id:int}", c.api_game),
        Route("/api/players", c.api_players),
        Mount("/static", StaticFiles(directory=templates_root() / "static"), name="static"),
    ]
    middleware = [Middleware(BodyLimit, default=MOST_BODY, limits={"/sheet": MOST_SHEET, "/marks": MOST_MARKS})]
    if token is not None:
        middleware.append(Middleware(TokenGate, token=token))
    else:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost", "[::1]"]))
    middleware.append(Middleware(SameOrigin))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: c.http_error, sqlite3.Error: c.db_error})
    app.state.companion = companion
    return app


__all__ = ["create_app", "bg_stats_link"]
