"""The companion's guards, as ASGI middleware around the whole application (never checks repeated per view).

- :class:`BodyLimit`: a request body larger than its route allows is refused (413) before anyone parses it.
- :class:`TokenGate` (`--lan` only): every request carries the access token, as `?token=` (then kept in a cookie),
  the cookie, or `Authorization: Bearer`; otherwise 401.
- :class:`SameOrigin`: a state-changing request (anything but GET, HEAD, OPTIONS) from a browser must come from
  the companion's own pages. Browsers say where a request comes from in `Sec-Fetch-Site` (all current ones) or
  `Origin`; a request naming another site is refused (403). This is the check the Fetch Metadata specification
  recommends and Go's `http.CrossOriginProtection` implements; unlike a form token it also covers the page script's requests
  and uploads without touching each form. Clients that send neither header are not browsers (scripts, curl):
  a cross-site page cannot make a browser omit both. The JSON API also insists on `application/json`, which
  no cross-site form can send without a CORS preflight (that the companion never grants).
- :class:`Headers`: every answer says it may not be framed (`Content-Security-Policy: frame-ancestors 'none'` and
  `X-Frame-Options: DENY`: a framed table could be saved by a click from another local page), runs only the
  companion's own scripts, and sends no Referer (the QR code's address holds the token).
- A body has a time limit (:class:`BodyLimit`): a client that sends it slower than that gets 408, so a thousand
  slow clients cannot hold the server; uvicorn bounds the open connections (`serve.py`).
- :class:`CutShort`: a request still being answered when the server stops (Ctrl-C on `donjon serve`: uvicorn waits
  a few seconds, then cancels it) is answered 503 in words, not 500 with the cancellation's traceback on the
  server's terminal.
- Without `--lan`, only loopback Host names are answered (Starlette's TrustedHostMiddleware, set up in `app.py`),
  so a web page cannot reach the companion through DNS rebinding.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "donjon_token"
#: What a phone without the token may still fetch: the files donjon ships (the page saying it is not let in needs
#: its style sheet, the home screen its icon) and the web app manifest (the same in every companion: a browser asks
#: for it without cookies, so "Add to Home screen" found no app); nothing of a table or of the history.
PUBLIC = ("/static/", "/favicon.ico", "/icons/", "/manifest.webmanifest")
#: The token in a cookie for a game evening and more; a new `donjon serve --lan` makes a new token anyway.
COOKIE_SECONDS = 7 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: How long a request may take to send its body (s): a form or an end state (at most 256 KiB) arrives in well
#: under a second on a home network, in two at 1 Mbit/s; a phone's photo of a sheet (a few MiB) over a weak Wi-Fi
#: in well under a minute, and the largest a phone takes (a 200-megapixel JPEG, up to 96 MiB) at 3 Mbit/s in 300 s.
BODY_SECONDS = 10.0
UPLOAD_SECONDS = 300.0
#: A mebibyte: the caps are said in MiB (a form's 0.25, a photo's 98).
MIB = 1024 * 1024
#: What every answer carries (see the module's docstring). Inline styles stay allowed (a colour swatch, a mark's
#: place on a photo); scripts only from the companion's own files.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                 b"img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; "
                                 b"form-action 'self'; frame-ancestors 'none'; object-src 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class Headers:
    """Add the security headers to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


async def _plain(send: Send, status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


async def _refuse(scope: Scope, send: Send, status: int, text: str, page: str, values: dict[str, Any],
                  headers: list[tuple[bytes, bytes]] | None = None, code: str = "") -> None:
    """Refuse a request before the application: a browser showing a page gets `page` (a message of
    `generator.web.messages`) as a page in the phone's language; the JSON API `text` as its other refusals, in
    JSON with `code`; anything else (the page's script) `text` as plain text. Each in the language the request
    asks, English when it names none (a script)."""
    from generator.web import messages

    lang = _language(scope)
    said = lang._(text).format(**messages.figures(values, lang))
    if scope["path"].startswith("/api/"):
        await _json(send, status, {"error": said, "code": code or str(status)}, headers)
        return
    if not _wants_page(scope):
        await _plain(send, status, said, headers)
        return
    title = lang._(messages.REFUSED_TITLE)
    body = messages.guard_page(lang, title, title, lang._(page).format(**messages.figures(values, lang))).encode()
    await _html(send, status, body, headers)


async def _json(send: Send, status: int, body: dict[str, str],
                headers: list[tuple[bytes, bytes]] | None = None) -> None:
    data = json.dumps(body, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": data})


async def _html(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def _wants_page(scope: Scope) -> bool:
    """A browser asking for a page to show (a link followed, a form sent), not the API or the page's script."""
    return "text/html" in (_header(scope, b"accept") or "") and not scope["path"].startswith("/api/")


def _language(scope: Scope) -> Any:
    """The language the phone asked for (its switch's cookie, else its Accept-Language), as the pages use it."""
    from starlette.requests import Request

    from generator.web.languages import request_language

    return request_language(Request(scope))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class BodyLimit:
    """Refuse bodies above `default` bytes (or above the limit of a path ending in a key of `limits`), with 413."""

    def __init__(self, app: ASGIApp, default: int, limits: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = default
        self.limits = limits or {}

    def limit_for(self, path: str) -> int:
        for suffix, limit in self.limits.items():
            if path.endswith(suffix):
                return limit
        return self.default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        seconds = UPLOAD_SECONDS if limit > self.default else BODY_SECONDS
        deadline = asyncio.get_running_loop().time() + seconds
        length = _header(scope, b"content-length")
        from generator.web.messages import REFUSED_TOO_BIG, REFUSED_TOO_SLOW, TOO_BIG, TOO_SLOW, Figure

        most = {"most": Figure(limit / MIB)}
        if length is not None and (not length.isdecimal() or int(length) > limit):
            await _refuse(scope, send, 413, TOO_BIG, REFUSED_TOO_BIG, most, code="too_big")
            return
        seen = 0
        tracked = _Tracked(send)

        async def limited() -> Message:
            nonlocal seen
            if seen == 0 and scope["method"] in SAFE_METHODS:
                return await receive()  # no body: waiting is for the client leaving (a disconnect)
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except asyncio.TimeoutError:
                raise _TooSlow() from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooBig()
            return message

        try:
            await self.app(scope, limited, tracked)
        except _TooBig:
            if not tracked.started:
                await _refuse(scope, send, 413, TOO_BIG, REFUSED_TOO_BIG, most, code="too_big")
        except _TooSlow:
            if not tracked.started:
                await _refuse(scope, send, 408, TOO_SLOW, REFUSED_TOO_SLOW, {"seconds": seconds},
                              [(b"connection", b"close")], code="too_slow")


class _Tracked:
    """A request's `send`, noting whether its answer has begun: a guard's refusal can only be sent before."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        await self.send(message)


class BodyStopped(Exception):
    """Raised where the application reads a body the guard stopped (too large, too slow): the guard answers it
    (413, 408), so the application lets it through, never taking it for a body it cannot parse."""


class _TooBig(BodyStopped):
    pass


class _TooSlow(BodyStopped):
    pass


class TokenGate:
    """Only requests carrying the access token get through (`--lan`)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    def _matches(self, given: str | None) -> bool:
        return given is not None and secrets.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = next((v for k, v in query if k == "token"), None)
        if given is not None and self._matches(given) and scope["method"] in SAFE_METHODS:
            # keep the token in a cookie and take it out of the address (history, screenshots, Referer)
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            location = scope["path"] + (f"?{rest}" if rest else "")
            cookie = (f"{COOKIE}={self.token}; Path=/; Max-Age={COOKIE_SECONDS}; HttpOnly; SameSite=Lax")
            await _plain(send, 303, "see other", [(b"location", location.encode()), (b"set-cookie", cookie.encode())])
            return
        authorization = _header(scope, b"authorization") or ""
        bearer = authorization[7:].strip() if authorization.lower().startswith("bearer ") else None
        cookies = SimpleCookie()
        try:
            cookies.load(_header(scope, b"cookie") or "")
        except Exception:  # noqa: BLE001 - a malformed Cookie header is simply no cookie
            pass
        cookie_value = cookies[COOKIE].value if COOKIE in cookies else None
        public = scope["method"] in SAFE_METHODS and scope["path"].startswith(PUBLIC)
        if public or self._matches(bearer) or self._matches(cookie_value) or self._matches(given):
            await self.app(scope, receive, send)
            return
        from generator.web.messages import NEEDS_TOKEN, token_page

        if _wants_page(scope):
            await _html(send, 401, token_page(_language(scope)).encode(), [(b"www-authenticate", b"Bearer")])
            return
        said = _language(scope)._(NEEDS_TOKEN)
        if scope["path"].startswith("/api/"):
            await _json(send, 401, {"error": said, "code": "token"}, [(b"www-authenticate", b"Bearer")])
            return
        await _plain(send, 401, said, [(b"www-authenticate", b"Bearer")])


class SameOrigin:
    """Refuse state-changing requests that a browser says come from another site (403). A method no route of
    that address takes goes on to the router, which answers 405 (nothing is changed either way)."""

    def __init__(self, app: ASGIApp, routes: Sequence[Any] = ()) -> None:
        self.app = app
        self.routes = routes

    def _allowed_somewhere(self, scope: Scope) -> bool:
        from starlette.routing import Match

        return any(route.matches(scope)[0] == Match.FULL for route in self.routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS or not self._allowed_somewhere(scope):
            await self.app(scope, receive, send)
            return
        site = _header(scope, b"sec-fetch-site")
        origin = _header(scope, b"origin")
        host = _header(scope, b"host") or ""
        if site is not None:
            allowed = site in ("same-origin", "none")
        elif origin is not None:
            allowed = origin != "null" and urlsplit(origin).netloc.lower() == host.lower()
        else:
            allowed = True  # not a browser: nothing a cross-site page can make a browser send
        if scope["path"].startswith("/api/") and allowed:
            kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if kind != "application/json":
                from generator.web.messages import JSON_ONLY

                await _json(send, 415, {"error": _language(scope)._(JSON_ONLY), "code": "json_only"})
                return
        if allowed:
            await self.app(scope, receive, send)
            return
        from generator.web.messages import OTHER_SITE, REFUSED_OTHER_SITE

        await _refuse(scope, send, 403, OTHER_SITE, REFUSED_OTHER_SITE, {}, code="other_site")


class CutShort:
    """A request the server stops answering (Ctrl-C on `donjon serve` while a phone's photo is being read: uvicorn
    waits `timeout_graceful_shutdown`, then cancels the request's task) is answered 503 with what to do, and noted
    in `cut` ("POST /tables/1/photos") for the server to say on its terminal. Without it the cancellation reached
    uvicorn, which printed its traceback and answered a bare 500. What the request had kept before is kept whole
    (each write is one transaction, and one still queued is dropped with the cancellation: `db.Database.awrite`)."""

    def __init__(self, app: ASGIApp, cut: list[str] | None = None) -> None:
        self.app = app
        self.cut = cut if cut is not None else []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        tracked = _Tracked(send)
        try:
            await self.app(scope, receive, tracked)
        except asyncio.CancelledError:
            # only the server cancels a request's task, and only when it stops: nobody awaits the task after that,
            # so the cancellation ends here, with an answer (the connection is closed after it)
            self.cut.append(f"{scope['method']} {scope['path']}")
            if not tracked.started:
                from generator.web.messages import REFUSED_STOPPED, STOPPED

                await _refuse(scope, send, 503, STOPPED, REFUSED_STOPPED, {}, [(b"connection", b"close")],
                              code="stopped")
