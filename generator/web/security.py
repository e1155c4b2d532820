"""The companion's guards, as ASGI middleware around the whole application (never checks repeated per view).

- :class:`BodyLimit`: a request body larger than its route allows is refused (413) before anyone parses it.
- :class:`TokenGate` (`--lan` only): every request carries the access token, as `?token=` (then kept in a cookie),
  the cookie, or `Authorization: Bearer`; otherwise 401.
- :class:`SameOrigin`: a state-changing request (anything but GET, HEAD, OPTIONS) from a browser must come from
  the companion's own pages. Browsers say where a request comes from in `Sec-Fetch-Site` (all current ones) or
  `Origin`; a request naming another site is refused (403). This is the check the Fetch Metadata specification
  recommends and Go's `http.CrossOriginProtection` implements; unlike a form token it also covers htmx requests
  and uploads without touching each form. Clients that send neither header are not browsers (scripts, curl):
  a cross-site page cannot make a browser omit both. The JSON API also insists on `application/json`, which
  no cross-site form can send without a CORS preflight (that the companion never grants).
- Without `--lan`, only loopback Host names are answered (Starlette's TrustedHostMiddleware, set up in `app.py`),
  so a web page cannot reach the companion through DNS rebinding.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "donjon_token"
#: The token in a cookie for a game evening and more; a new `donjon serve --lan` makes a new token anyway.
COOKIE_SECONDS = 7 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def _plain(send: Send, status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


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
        length = _header(scope, b"content-length")
        too_big = f"the request body is larger than the {limit // 1024} KiB this address accepts"
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _plain(send, 413, too_big)
            return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooBig()
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except _TooBig:
            if not started:
                await _plain(send, 413, too_big)


class _TooBig(Exception):
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
        if self._matches(bearer) or self._matches(cookie_value) or self._matches(given):
            await self.app(scope, receive, send)
            return
        await _plain(send, 401, "401: this companion needs its access token. Open the address donjon serve --lan "
                                "printed (with ?token=...), or scan its QR code; scripts send "
                                "'Authorization: Bearer TOKEN'.", [(b"www-authenticate", b"Bearer")])


class SameOrigin:
    """Refuse state-changing requests that a browser says come from another site (403)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
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
                body = json.dumps({"error": "the API takes JSON: send 'Content-Type: application/json'"})
                await send({"type": "http.response.start", "status": 415,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": body.encode()})
                return
        if allowed:
            await self.app(scope, receive, send)
            return
        await _plain(send, 403, "403: a change to the companion must come from its own pages (this request came "
                                "from another site)")
