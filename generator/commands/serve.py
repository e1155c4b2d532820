"""`donjon serve`: the table companion, a local web page where players score a game from their phones."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from generator.commands import interface_language, refuse_missing_folder, reports_errors

if TYPE_CHECKING:  # typing only: `donjon --help` must not import the database or the socket layer
    import logging
    import socket

    from generator.i18n import Language
    from generator.web.db import Database

HELP = """\
Serve the table companion: choose a game, each player enters their part on their own phone, everyone sees the
running totals and every broken rule, and finished games are kept in a SQLite database (see donjon history).

Without --lan only this machine can connect (127.0.0.1). --lan opens it to your local network: it prints the
address with an access token, as text and as a QR code to scan; every request must carry the token. The address
is found from this machine's network interfaces (a private LAN address first; every candidate is printed when
there are several). The token is kept in the database, so a restart does not log the phones out; --new-token
makes a new one (every phone then scans the code again).

A phone keeps the changes it could not send (the companion stopped, the Wi-Fi gone) and sends them once the
companion answers at the same address again: start it again on the same port (8765 unless --port says otherwise).
Started on another port with a table still open, it names the port it served last.

With --lang fr or de, what it prints on this terminal (its address, its notes, its refusals) is in French or
German; each phone's pages stay in that phone's own language (its browser's, or the one chosen on the page).

Exit codes: 0 stopped with Ctrl-C; 2 a bad option, a port already in use, or a database donjon will not use
(damaged, not SQLite, or written by a newer donjon: it is left as it is); 3 the database cannot be written.
"""

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: The help of serve's --lang.
LANG_HELP = ("The language of what it says on this terminal: en (the default), fr or de. The pages follow each "
             "phone's own language.")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, from its interfaces (not from its host name, which Debian
    and Ubuntu map to 127.0.1.1): private LAN addresses first (192.168.x, 10.x, 172.16-31.x), then the others;
    never loopback or link-local. No packet is sent."""
    import ipaddress

    import ifaddr

    found: list[ipaddress.IPv4Address] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: a phone on a home network types or scans an IPv4 address
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_unspecified or address in found:
                continue
            found.append(address)
    return [str(a) for a in sorted(found, key=lambda a: (not a.is_private, found.index(a)))]


@reports_errors
def serve(
    host: Optional[str] = typer.Option(None, "--host", metavar="ADDRESS", show_default=False,
                                       help="Address to listen on. Default 127.0.0.1 (this machine only); with "
                                            "--lan, 0.0.0.0 (every network of this machine)."),
    port: int = typer.Option(8765, "--port", "-p", metavar="N", min=0, max=65535,
                             help="Port to listen on; 0 picks a free one (the address printed says which)."),
    db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", show_default=False,
                                      help="The SQLite database of tables and games. Default: donjon.sqlite3 in "
                                           "your data folder (~/.local/share/donjon on Linux), or $DONJON_DB."),
    lan: bool = typer.Option(False, "--lan", help="Serve the local network, so that phones can join: prints the "
                                                  "address with an access token and its QR code."),
    content: Optional[Path] = typer.Option(None, "--content", metavar="DIR", show_default=False,
                                           help="A content folder whose catalogs replace the shipped ones."),
    new_token: bool = typer.Option(False, "--new-token", help="With --lan: make a new access token (the one kept "
                                                              "in the database stops working; every phone scans "
                                                              "the new code)."),
    location: Optional[str] = typer.Option(None, "--location", metavar="TEXT", show_default=False,
                                           help="Where the games are played (\"Home\", \"the club\"): sent to "
                                                "BG Stats with each play."),
    lang_text: Optional[str] = typer.Option(None, "--lang", show_default=False, metavar="LANG", help=LANG_HELP),
) -> None:
    """Serve the table companion: scoring at the table from every player's phone, and the history of games."""
    spoken = interface_language(lang_text)  # first: the refusals of the options below are said in it
    import errno
    import secrets
    import socket
    import threading

    from generator.errors import UsageError
    from generator.i18n import N_, language, messages_in
    from generator.processes import leave_behind
    from generator.web.db import Database, default_path

    say = spoken or language()
    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    elif not lan and host not in LOOPBACK:
        raise UsageError(f"--host {host}", say._(N_("without --lan the companion serves this machine only; add --lan "
                                                    "to let other devices join (they then need the access token it "
                                                    "prints)")))
    refuse_missing_folder(content, "--content")
    if location is not None and not (0 < len(location) <= 100 and location.isprintable()):
        raise UsageError("--location", say._(N_("expected a place's name of 1 to 100 characters")))
    path = db if db is not None else default_path()
    # the port first: a server that cannot listen leaves no database behind
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.create_server((host, port), family=family, backlog=128)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            # a phone keeps the changes it could not send under the address it made them at (browser storage is
            # per address): a companion moved to another port never gets them, so stopping what holds the port
            # comes first in the advice
            raise UsageError(f"--port {port}", say._(N_(
                "the port is already in use on {host} (another donjon serve?); stop it and start again, or choose "
                "another with --port (a phone's changes not sent yet stay with the old port), or --port 0 for any "
                "free one")).format(host=host)) from None
        raise UsageError(f"--host {host} --port {port}",
                         say._(N_("cannot listen there ({error})")).format(error=err.strerror or err)) from None
    try:
        with messages_in(spoken):  # a file refused (damaged, not a database, a newer donjon's) said in --lang
            database = Database(path)
    except BaseException:
        sock.close()
        raise
    before = set(threading.enumerate())
    try:
        token = database.write(lambda c: _token(c, secrets.token_urlsafe(16), new_token)) if lan else None
        serving = sock.getsockname()[1]
        moved = database.write(lambda c: _port_moved(c, serving))
        _run(database, sock, host, serving, path, content, token, location, moved, say)
    finally:
        database.close()
        # every write is done (the writer thread has ended); a thread the requests started that still runs is
        # reading a photo for a phone that will not get the answer (uvicorn cancelled its request): the exit does
        # not wait the seconds, or the minute, that read takes
        leave_behind(set(threading.enumerate()) - before)


def _token(conn: object, fresh: str, renew: bool) -> str:
    """The --lan token kept in the database (made the first time, or again with --new-token)."""
    from generator.web import store

    kept = store.setting(conn, "lan_token")  # type: ignore[arg-type]
    if kept is None or renew:
        store.set_setting(conn, "lan_token", fresh)  # type: ignore[arg-type]
        return fresh
    return kept


def _port_moved(conn: object, port: int) -> Optional[int]:
    """The port the companion served last, when it was another and a table is still open (a phone at that table
    may keep changes it could not send, under the old address: its browser keeps them per address); this port is
    kept as the last."""
    import sqlite3

    from generator.web import store

    assert isinstance(conn, sqlite3.Connection)
    last = store.setting(conn, "serve_port")
    store.set_setting(conn, "serve_port", str(port))
    if last is None or last == str(port):
        return None
    if conn.execute("SELECT 1 FROM tables WHERE game_id IS NULL LIMIT 1").fetchone() is None:
        return None
    return int(last)


def _load_before_serving(app: object) -> None:
    """Load the catalogs and templates now, then keep everything loaded out of the garbage collector's way.

    Without this the first phone to ask waits for the catalogs; and every full collection would walk the tens of
    thousands of long-lived objects (catalogs, compiled templates) again, which shows as the slowest requests
    when twenty phones save at once (`gc.freeze`: they are never garbage).
    """
    import gc

    companion = getattr(getattr(app, "state", None), "companion", None)
    if companion is not None:
        for game in companion.games.ids:
            companion.games.catalog(game)
        for name in ("seat.html", "table.html", "update.html", "home.html"):
            companion.env.get_template(name)
    gc.collect()
    gc.freeze()


#: Connections open at once: a table of phones polling is a few dozen. Beyond it a new connection is closed as soon
#: as it is accepted, so that a thousand slow or half-open clients cannot use up the process's file descriptors
#: (1024 by default on Linux) before any request reaches the token check.
MOST_CONNECTIONS = 200
#: Seconds a connection may take to send a request's head, after it opens or after its last answer: a phone on a
#: weak Wi-Fi sends it in well under a second. uvicorn has no such limit (a connection that never sends a full
#: head is kept for ever); the body has its own limit (security.BODY_SECONDS), idle kept-alive connections
#: uvicorn's `timeout_keep_alive`.
HEAD_SECONDS = 10.0


def _bounded_protocol() -> type:
    """uvicorn's HTTP protocol (httptools, else h11) with the two bounds above on every connection."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    from generator.web.security import UPLOAD_SECONDS

    base: Any = AutoHTTPProtocol

    class Bounded(base):  # type: ignore[misc]
        head_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > MOST_CONNECTIONS:
                transport.abort()  # closed at once: the descriptor is free again before it is asked for anything
                return
            self.await_head()

        def await_head(self) -> None:
            """Close the connection unless a new request starts within HEAD_SECONDS (uvicorn makes a `cycle`
            for each request whose head it has read; one still being answered is never cut)."""
            waiting_after = self.cycle
            answered = self.loop.time()

            def too_slow() -> None:
                idle = self.cycle is None or self.cycle.response_complete
                if self.cycle is not waiting_after or not idle or self.transport.is_closing():
                    return
                if self.cycle is not None and self.cycle.more_body and self.loop.time() - answered < UPLOAD_SECONDS:
                    # answered before its body came (a photo to a saved table, app.Companion.before_body): the rest
                    # is read and dropped as it comes, for a browser that shows the answer only once it sent all
                    # (WebKit: closed during its upload, it says "Connection reset by peer"), for as long as a
                    # photo may take to come
                    self.head_timer = self.loop.call_later(HEAD_SECONDS, too_slow)
                    return
                self.transport.close()

            self.head_timer = self.loop.call_later(HEAD_SECONDS, too_slow)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.head_timer is not None:
                self.head_timer.cancel()
            if not self.transport.is_closing():
                self.await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
            super().connection_lost(exc)

    return Bounded


def _run(database: Database, sock: socket.socket, host: str, port: int, path: Path,
         content: Optional[Path], token: Optional[str], location: Optional[str] = None,
         moved: Optional[int] = None, say: Optional[Language] = None) -> None:
    """Serve until stopped, saying on the terminal where (and, at the end, that it stopped) in `say`'s words
    (English without one). Ports are said as they are typed (`--port 8765`), never grouped as a number is."""
    import logging

    import uvicorn

    from generator.i18n import N_, language
    from generator.web.app import create_app
    from generator.web.games import Games

    say = say or language()
    others: list[str] = []
    if host in ("0.0.0.0", "::"):
        found = lan_addresses()
        shown = found[0] if found else "127.0.0.1"
        others = found[1:]
        if not found:
            typer.echo(said(say, say._(N_(
                "this machine has no network address a phone could reach (no Wi-Fi or cable connected?); only this "
                "machine can connect for now. Connect it to the network the phones use, and start donjon serve "
                "--lan again."))), err=True)
    else:
        shown = host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{port}/"
    join = f"{url}?token={token}" if token else None
    app = create_app(database, Games(content), token=token, join_url=join, location=location)
    typer.echo(said(say, join or url))
    for other in others:
        address = f"http://{other}:{port}/?token={token}" if token else f"http://{other}:{port}/"
        typer.echo("  " + say._(N_("also on: {address}")).format(address=address))
    if others:
        typer.echo("  " + say._(N_("(the phones must be on the same network as the first address; if they cannot "
                                   "open it, try another)")))
    # TRANSLATORS: donjon serve's terminal, under its address: the SQLite file the games are kept in
    typer.echo("  " + say._(N_("database: {file}")).format(file=path))
    if moved is not None:
        typer.echo("  " + say._(N_("note: it served port {port} last, and a table is still open: a phone's changes "
                                   "not sent yet stay with that address; to send them, stop this and start again "
                                   "with --port {port}")).format(port=str(moved)))
    if join:
        import segno

        typer.echo("  " + say._(N_("on the same network, scan this code with a phone (the token in it lets the "
                                   "phone in):")))
        segno.make(join, error="m").terminal(out=sys.stdout, compact=True)
    # TRANSLATORS: the keys that stop donjon serve in its terminal (Strg+C on a German keyboard)
    typer.echo("  " + say._(N_("Ctrl-C stops it.")))
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False,
                            timeout_graceful_shutdown=3, limit_concurrency=MOST_CONNECTIONS, timeout_keep_alive=5,
                            http=_bounded_protocol())
    # said in our words below, with the requests it names
    logging.getLogger("uvicorn.error").addFilter(_not_the_cancel_line)
    _load_before_serving(app)
    try:
        _stopping_server(uvicorn.Server)(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C, then raises it again: that is a normal stop
        pass
    finally:  # the other signals stop it the same way, then end the command with their exit code (128 + theirs)
        cut: list[str] = app.state.cut_short
        if cut:
            typer.echo(said(say, say._(N_("stopped before it had finished {requests} (a photo still being read?); "
                                          "the phone was told to send it again")).format(requests=", ".join(cut))),
                       err=True)
    # TRANSLATORS: donjon serve's last line on its terminal, once the server has stopped
    typer.echo(said(say, say._(N_("stopped"))))


def said(say: Language, message: str) -> str:
    """A line of donjon serve's own on its terminal: its name, then `message` (French puts its space before the
    colon)."""
    from generator.i18n import N_

    # TRANSLATORS: the start of donjon serve's own lines on its terminal (its address, that it stopped)
    return say._(N_("donjon serve: {message}")).format(message=message)


def _stopping_server(base: type) -> type:
    """uvicorn's server, stopped gracefully by SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\\) as it is by
    SIGINT and SIGTERM: it catches only those two, and donjon's handler for the others raised its exception in
    whatever callback the event loop was running, which uvloop printed as a traceback and let go of; the server
    ran on, holding its port, after its terminal was closed. A signal the parent set to be ignored (`nohup`) stays
    ignored. Once the server has stopped, uvicorn raises each signal again, to donjon's own handler: the command
    then ends as that signal asks (exit 129 for SIGHUP, 131 for SIGQUIT)."""
    import contextlib
    import signal
    from collections.abc import Iterator

    extra = [getattr(signal, name) for name in ("SIGHUP", "SIGQUIT") if hasattr(signal, name)]
    server: Any = base

    class Stopping(server):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                caught = {number: signal.signal(number, self.handle_exit) for number in extra
                          if signal.getsignal(number) is not signal.SIG_IGN}
                try:
                    yield
                finally:  # donjon's handlers back before uvicorn raises the signals again
                    for number, handler in caught.items():
                        signal.signal(number, handler)

    return Stopping


def _not_the_cancel_line(record: logging.LogRecord) -> bool:
    """uvicorn's line for the requests it cancels at Ctrl-C ("Cancel 1 running task(s), timeout graceful shutdown
    exceeded", as an ERROR): the companion answers them (security.CutShort) and says which they were instead."""
    return not str(record.msg).startswith("Cancel %s running task")
