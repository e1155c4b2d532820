"""`donjon serve`: the table companion, a local web page where players score a game from their phones."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from generator.commands import reports_errors

if TYPE_CHECKING:  # typing only: `donjon --help` must not import the database or the socket layer
    import socket

    from generator.web.db import Database

HELP = """\
Serve the table companion: choose a game, each player enters their part on their own phone, everyone sees the
running totals and every broken rule, and finished games are kept in a SQLite database (see donjon history).

Without --lan only this machine can connect (127.0.0.1). --lan opens it to your local network: it prints the
address with a random access token, as text and as a QR code to scan; every request must carry the token.

Exit codes: 0 stopped with Ctrl-C; 2 a bad option, a port already in use, or a database donjon will not use
(damaged, not SQLite, or written by a newer donjon: it is left as it is); 3 the database cannot be written.
"""

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def lan_address() -> str:
    """This machine's address on the local network, from its host name (no packet is sent); loopback if none."""
    import socket

    try:
        for family, _, _, _, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(address[0])
            if family == socket.AF_INET and not ip.startswith("127."):
                return ip
    except OSError:
        pass
    return "127.0.0.1"


@reports_errors
def serve(
    host: Optional[str] = typer.Option(None, "--host", show_default=False,
                                       help="Address to listen on. Default 127.0.0.1 (this machine only); with "
                                            "--lan, 0.0.0.0 (every network of this machine)."),
    port: int = typer.Option(8765, "--port", "-p", min=0, max=65535,
                             help="Port to listen on; 0 picks a free one (the address printed says which)."),
    db: Optional[Path] = typer.Option(None, "--db", show_default=False,
                                      help="The SQLite database of tables and games. Default: donjon.sqlite3 in "
                                           "your data folder (~/.local/share/donjon on Linux), or $DONJON_DB."),
    lan: bool = typer.Option(False, "--lan", help="Serve the local network, so that phones can join: prints the "
                                                  "address with an access token and its QR code."),
    content: Optional[Path] = typer.Option(None, "--content", show_default=False,
                                           help="A content folder whose catalogs replace the shipped ones."),
) -> None:
    """Serve the table companion: scoring at the table from every player's phone, and the history of games."""
    import errno
    import secrets
    import socket

    from generator.errors import UsageError
    from generator.web.db import Database, default_path

    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    elif not lan and host not in LOOPBACK:
        raise UsageError(f"--host {host}", "without --lan the companion serves this machine only; add --lan to let "
                         "other devices join (they then need the access token it prints)")
    if content is not None and not content.is_dir():
        raise UsageError(f"--content {content}", ("no such folder" if not content.exists() else "is not a folder"))
    path = db if db is not None else default_path()
    database = Database(path)
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            sock = socket.create_server((host, port), family=family, backlog=128)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise UsageError(f"--port {port}", f"the port is already in use on {host} (another donjon serve?); "
                                 "choose another with --port, or --port 0 for any free one") from None
            raise UsageError(f"--host {host} --port {port}", f"cannot listen there ({err.strerror or err})") from None
        bound = sock.getsockname()[1]
        _run(database, sock, host, bound, path, content, secrets.token_urlsafe(16) if lan else None)
    finally:
        database.close()


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


def _run(database: Database, sock: socket.socket, host: str, port: int, path: Path,
         content: Optional[Path], token: Optional[str]) -> None:
    import uvicorn

    from generator.web.app import create_app
    from generator.web.games import Games
    shown = host if host not in ("0.0.0.0", "::") else lan_address()
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{port}/"
    join = f"{url}?token={token}" if token else None
    app = create_app(database, Games(content), token=token, join_url=join)
    typer.echo(f"donjon serve: {join or url}")
    typer.echo(f"  database: {path}")
    if join:
        import segno

        typer.echo("  on the same network, scan this code with a phone (the token in it lets the phone in):")
        segno.make(join, error="m").terminal(out=sys.stdout, compact=True)
    typer.echo("  Ctrl-C stops it.")
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False,
                            timeout_graceful_shutdown=3)
    _load_before_serving(app)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C, then raises it again: that is a normal stop
        pass
    typer.echo("donjon serve: stopped")
