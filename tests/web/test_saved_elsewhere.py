"""A phone left open on a table that another phone saves: its next poll draws its forms again, locked, so that its
player sees at once that nothing more can be entered, rather than tap a control that looks live and be refused."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult

import pytest
from starlette.testclient import TestClient

from generator.web.games import Games

from tests.web.conftest import SAME_ORIGIN, GameTable, example, post_json


def live_state(page: str) -> dict[str, str]:
    found = re.search(r'<div id="live-state"[^>]*>', page)
    assert found, page[:500]
    return dict(re.findall(r'data-(\w+)="([^"]*)"', found.group(0)))


def test_a_table_saved_on_another_phone_is_drawn_locked_by_the_next_poll(client: TestClient) -> None:
    game = f"/history/games/{post_json(client, '/api/games', example('guildhall')).json()['id']}"
    table = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    other = client.get(f"{table}/seats/0").text  # the other phone, on Ana's part
    assert "disabled" not in re.sub(r"<button[^>]*class=\"step\"[^>]*>", "", other)  # (a count at its bound)
    shown = live_state(other)
    saved = client.post(f"{table}/save", headers=SAME_ORIGIN)
    assert saved.status_code == 303 and saved.headers["location"] == game
    update = client.get(f"{table}/live", params={"v": shown["version"], "seat": "0", "h": shown["hash"]})
    assert update.status_code == 200
    forms = re.findall(r'<(?:button|select|input)[^>]*data-edit[^>]*>', update.text)
    assert forms and all(" disabled" in tag for tag in forms), update.text[:2000]
    # the top of the page no longer offers what is done: it says the correction is saved
    banner = re.search(r'<div id="correcting"[^>]*>(.*?)</div>', update.text, re.S)
    assert banner and "saving it keeps" not in banner.group(1) and "is saved" in banner.group(1)
    assert f'href="{game}"' in banner.group(1)
    # nor does the seat's page offer what a saved table refuses: a name to correct (a castle's: a photo to read)
    assert 'id="rename"' in other and "Correct the name" in other
    assert '<div id="rename" data-oob></div>' in update.text


def test_a_castle_seat_left_open_is_drawn_without_its_photo_and_name_forms_once_saved_elsewhere(
        client: TestClient) -> None:
    """Ben's phone left on his part of a castle table while another phone saves the game: its next poll locked the
    controls, but "Or read your paper sheet" (its photo taken, read for seconds, then refused) and "Not Ben? Correct
    the name" stayed, live to the eye. The poll takes them away."""
    game = f"/history/games/{post_json(client, '/api/games', example('once-upon-a-castle')).json()['id']}"
    table = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    other = client.get(f"{table}/seats/1").text
    assert 'id="upload"' in other and 'id="rename"' in other
    shown = live_state(other)
    assert client.post(f"{table}/save", headers=SAME_ORIGIN).headers["location"] == game
    update = client.get(f"{table}/live", params={"v": shown["version"], "seat": "1", "h": shown["hash"]}).text
    assert '<div id="upload" data-oob></div>' in update and '<div id="rename" data-oob></div>' in update
    fresh = client.get(f"{table}/seats/1").text  # as a page drawn after the save is
    assert 'id="upload"' not in fresh and "Correct the name" not in fresh


def test_a_correction_that_changed_nothing_adds_no_version(client: TestClient) -> None:
    """Correct tapped by mistake, then Save: the game's page listed a version "corrected" identical to the one
    before. The table is done (its phones see it saved), and the game keeps its one version; a real correction after
    it is a version as ever."""
    game_id = post_json(client, "/api/games", example("guildhall")).json()["id"]
    game = f"/history/games/{game_id}"
    table = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    saved = client.post(f"{table}/save", headers=SAME_ORIGIN)
    assert saved.status_code == 303 and saved.headers["location"] == game
    assert [v["action"] for v in client.get(f"/api/games/{game_id}").json()["versions"]] == ["save"]
    assert "Saved:" in client.get(table).text
    again = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    assert again != table
    GameTable(client, int(again.rsplit("/", 1)[1])).edit("add", "vp_tokens", 1, seat=0)
    assert client.post(f"{again}/save", headers=SAME_ORIGIN).status_code == 303
    assert [v["action"] for v in client.get(f"/api/games/{game_id}").json()["versions"]] == ["save", "edit"]


def test_a_name_corrected_on_a_page_left_open_after_the_save_is_said_refused(client: TestClient) -> None:
    """The seat's "Correct the name" sent from a page drawn before another phone saved the game came back as the
    seat's page with no word at all (the message was drawn inside the form, which a saved table has not): the
    refusal is said, in the phone's language."""
    from generator.i18n import language
    from generator.web import messages

    game = f"/history/games/{post_json(client, '/api/games', example('guildhall')).json()['id']}"
    table = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    assert client.post(f"{table}/save", headers=SAME_ORIGIN).status_code == 303
    for code in ("en", "fr"):
        refused = client.post(f"{table}/seats/0/name", headers={**SAME_ORIGIN, "accept-language": code},
                              data={"name": "Anaïs", "was": "Ana"})
        words = language(code)._(messages.TABLE_SAVED)
        assert refused.status_code == 400, refused.text
        said = f'<p class="violation" role="alert" tabindex="-1" autofocus>{words}</p>'  # the page opens there
        assert said in refused.text, refused.text[-1500:]


def test_a_database_moved_away_while_the_companion_runs_is_said_on_every_page(tmp_path: Path, games: Games) -> None:
    """The database file moved or deleted while `donjon serve` runs (a clean-up, a sync tool): every page was a server
    error with a traceback on the terminal, the page saying the database cannot be used reading it again. Now each
    page says, in the phone's words (503), which file is gone and what to do."""
    from generator.i18n import language
    from generator.web import messages
    from generator.web.app import create_app
    from generator.web.db import Database

    database = Database(tmp_path / "donjon.sqlite3")
    try:
        with TestClient(create_app(database, games), base_url="http://127.0.0.1") as client:
            assert post_json(client, "/api/games", example("guildhall")).status_code == 201
            for suffix in ("", "-wal", "-shm"):
                moved = tmp_path / f"donjon.sqlite3{suffix}"
                if moved.exists():
                    moved.rename(tmp_path / f"elsewhere.sqlite3{suffix}")
            said = language("fr")._(messages.DB_GONE).format(file=database.path)
            assert said != messages.DB_GONE.format(file=database.path)
            for url in ("/history", "/", "/history/games/1", "/history/players"):
                page = client.get(url, headers={"accept-language": "fr"})
                assert page.status_code == 503 and html.escape(said) in page.text, (url, page.status_code)
    finally:
        database.close()


def test_a_database_moved_away_takes_no_write_into_the_moved_file(tmp_path: Path, games: Games) -> None:
    """The companion's connections opened before the file moved keep the file they opened: a tap or a save sent then
    was answered as saved, and landed in the moved file, which the host no longer sees (the next start opens another).
    Every write is now refused (503 `database_gone`: the phone keeps its tap and sends it again), the moved file keeps
    exactly what was saved before; put back, the companion takes the writes again."""
    import sqlite3

    from generator.web.app import create_app
    from generator.web.db import Database

    from tests.web.conftest import new_table

    database = Database(tmp_path / "donjon.sqlite3")

    def move(source: str, target: str) -> None:
        for suffix in ("", "-wal", "-shm"):
            if (tmp_path / f"{source}{suffix}").exists():
                (tmp_path / f"{source}{suffix}").rename(tmp_path / f"{target}{suffix}")

    def held(name: str) -> tuple[int, int]:
        """How many games the file holds, and the table's version (each tap taken moves it)."""
        conn = sqlite3.connect(tmp_path / name)
        try:
            return (int(conn.execute("SELECT count(*) FROM games").fetchone()[0]),
                    int(conn.execute("SELECT version FROM tables WHERE id = ?", (table.id,)).fetchone()[0]))
        finally:
            conn.close()

    tap = {"seat": "0", "shown": "0", "op": "add", "path": "vp_tokens", "value": "1"}
    try:
        with TestClient(create_app(database, games), base_url="http://127.0.0.1", follow_redirects=False) as client:
            assert post_json(client, "/api/games", example("guildhall")).status_code == 201
            table = new_table(client, "guildhall", ["Ana", "Ben"], vp_set="job-faire", professions="")
            table.page(0)  # a phone on the table (a reading connection opened)
            before = held("donjon.sqlite3")
            move("donjon.sqlite3", "elsewhere.sqlite3")
            refused = post_json(client, "/api/games", example("guildhall"))
            assert (refused.status_code, refused.json()["code"]) == (503, "database_gone"), refused.text
            assert client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN, data=tap).status_code == 503
            assert client.post(f"/tables/{table.id}/save", headers=SAME_ORIGIN).status_code == 503
            assert client.get(f"/tables/{table.id}/seats/0").status_code == 503  # not the moved file's table
            assert held("elsewhere.sqlite3") == before  # what was saved before the move, nothing after it
            # a copy put in its place is another file (the companion's connections would write the one they hold)
            copy = tmp_path / "donjon.sqlite3"
            copy.write_bytes((tmp_path / "elsewhere.sqlite3").read_bytes())
            refused = post_json(client, "/api/games", example("guildhall"))
            assert (refused.status_code, refused.json()["code"]) == (503, "database_gone"), refused.text
            assert "Move it back" in refused.json()["error"]
            copy.unlink()
            move("elsewhere.sqlite3", "donjon.sqlite3")  # moved back: the tap kept on the phone is taken
            assert client.post(f"/tables/{table.id}/edit", headers=SAME_ORIGIN, data=tap).status_code == 200
            assert post_json(client, "/api/games", example("guildhall")).status_code == 201
        database.close()
        assert held("donjon.sqlite3") == (before[0] + 1, before[1] + 1)
    finally:
        database.close()


def correction_saved_elsewhere(client: TestClient) -> tuple[str, str]:
    """A castle game corrected at a table, whose pages a phone opened, then saved by another phone: the table's
    address and the game's."""
    game = f"/history/games/{post_json(client, '/api/games', example('once-upon-a-castle')).json()['id']}"
    table = client.post(f"{game}/correct", headers=SAME_ORIGIN).headers["location"]
    assert client.get(f"{table}/seats/0").status_code == 200 and client.get(f"{table}/photos").status_code == 200
    assert client.post(f"{table}/save", headers=SAME_ORIGIN).headers["location"] == game
    return table, game


def test_a_photo_sent_from_a_page_left_open_after_the_save_is_refused_before_it_is_read(
        client: TestClient, games: Games, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's sheet (a photo or a filled PDF), or every player's, sent from a page drawn before another phone
    saved the game: each photo was read (seconds), then refused when kept, and the seat's page said only "Your sheet
    could not be read: what to change", a link to a form a saved table no longer has. It is refused before anything
    is read, and the page says why, in the phone's language."""
    from generator.i18n import language
    from generator.web import messages

    read: list[str] = []  # each photo or file read
    for reader in ("score_castle_sheet", "read_photos"):
        def spy(*args: Any, reader: str = reader, real: Any = getattr(games, reader)) -> Any:
            read.append(reader)
            return real(*args)

        monkeypatch.setattr(games, reader, spy)
    table, _ = correction_saved_elsewhere(client)
    photo = {"sheet": ("ana.jpg", b"\xff\xd8 a photo", "image/jpeg")}
    for code in ("en", "fr"):
        words = html.escape(language(code)._(messages.TABLE_SAVED))
        refused = client.post(f"{table}/seats/0/sheet", headers={**SAME_ORIGIN, "accept-language": code},
                              files=photo)
        assert refused.status_code == 400, refused.text
        assert f'<p class="violation" role="alert" tabindex="-1" autofocus>{words}</p>' in refused.text
        assert 'href="#upload-title"' not in refused.text
        every = client.post(f"{table}/photos", headers={**SAME_ORIGIN, "accept-language": code}, files={
            "sheet-0": photo["sheet"], "sheet-1": ("ben.jpg", b"\xff\xd8 another", "image/jpeg")})
        assert every.status_code == 400 and words in every.text, every.text
    assert read == []
    # the photos' page opened again (the back button): the table, which says it is saved, not a form to refuse
    again = client.get(f"{table}/photos")
    assert again.status_code == 303 and again.headers["location"] == table


def test_a_mount_that_numbers_the_database_anew_is_not_taken_for_a_file_moved(
        tmp_path: Path, games: Games, monkeypatch: pytest.MonkeyPatch) -> None:
    """A network mount that gives the same file another inode number from one stat to the next (CIFS with
    `noserverino`, some FUSE filesystems): every page and every write was refused, the database said gone. The file's
    own id and mark are read when the number changed: the same database carries on; another database, or a copy of
    this one put in its place (which the companion's connections would not write), is still refused."""
    import itertools
    import sqlite3

    from generator.web import db
    from generator.web.app import create_app
    from generator.web.db import Database

    numbers = itertools.count(10_000)
    real = db._identity

    def renumbered(path: Path) -> tuple[int, int] | None:
        found = real(path)
        return None if found is None else (found[0], next(numbers))  # a new number at every stat

    def move(source: str, target: str) -> None:
        for suffix in ("", "-wal", "-shm"):
            if (tmp_path / f"{source}{suffix}").exists():
                (tmp_path / f"{source}{suffix}").rename(tmp_path / f"{target}{suffix}")

    path = tmp_path / "donjon.sqlite3"
    database = Database(path)
    try:
        with TestClient(create_app(database, games), base_url="http://127.0.0.1") as client:
            monkeypatch.setattr(db, "_identity", renumbered)
            saved = post_json(client, "/api/games", example("guildhall"))
            assert saved.status_code == 201, saved.text
            for url in ("/history", "/", f"/history/games/{saved.json()['id']}", "/history/players"):
                assert client.get(url).status_code == 200, url
            assert post_json(client, "/api/games", example("guildhall")).status_code == 201
            # another database in its place, then a copy of this very one: refused, as on a disk that keeps numbers
            for replace in ("another", "copy"):
                move("donjon.sqlite3", "elsewhere.sqlite3")
                if replace == "another":
                    Database(path).close()
                else:  # a whole copy, what was in the WAL file too: the same id and mark
                    source, copy = sqlite3.connect(tmp_path / "elsewhere.sqlite3"), sqlite3.connect(path)
                    source.backup(copy)
                    source.close()
                    copy.close()
                refused = post_json(client, "/api/games", example("guildhall"))
                assert (refused.status_code, refused.json()["code"]) == (503, "database_gone"), (replace, refused.text)
                if replace == "another":
                    assert client.get("/history").status_code == 503
                for suffix in ("", "-wal", "-shm"):
                    (tmp_path / f"donjon.sqlite3{suffix}").unlink(missing_ok=True)
                move("elsewhere.sqlite3", "donjon.sqlite3")
                assert post_json(client, "/api/games", example("guildhall")).status_code == 201, replace
    finally:
        database.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 4  # every write taken is in the file
    finally:
        conn.close()


def answer_of(sock: Any) -> tuple[bytes, bytes]:
    """One HTTP answer read off a socket: its head and its body (by its Content-Length)."""
    got = b""
    while b"\r\n\r\n" not in got:
        more = sock.recv(65536)
        assert more, got[:300]
        got += more
    head, body = got.split(b"\r\n\r\n", 1)
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        more = sock.recv(65536)
        assert more, head
        body += more
    return head, body


@contextmanager
def served_saved_table(tmp_path: Path) -> Iterator[tuple[str, SplitResult]]:
    """A real `donjon serve` (uvicorn) with a table whose game another phone saved: the table's path and the
    server's address, for a phone's raw requests."""
    from urllib.parse import urlsplit

    import httpx

    from tests.web.test_serve_process import serving, wait_ready

    with serving("--db", str(tmp_path / "donjon.sqlite3")) as (_, address):
        base = address.split("?")[0].rstrip("/")
        wait_ready(base)
        with httpx.Client(base_url=base, follow_redirects=False, timeout=30) as client:
            table, _ = correction_saved_elsewhere(client)  # type: ignore[arg-type]
        yield table, urlsplit(base)


def photo_request(where: SplitResult, url: str, field: str, agent: str) -> tuple[bytes, bytes]:
    """A 2 MiB photo posted as a sheet's form posts it, from the browser `agent` names: the request's head and body."""
    boundary = "donjonphotoform"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"ana.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + b"\xff\xd8" + bytes(2 * 1024 * 1024)
    body += f"\r\n--{boundary}--\r\n".encode()
    head = (f"POST {url} HTTP/1.1\r\nHost: {where.netloc}\r\nSec-Fetch-Site: same-origin\r\nUser-Agent: {agent}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode(), body

def test_a_photo_sent_to_a_saved_table_is_refused_before_its_body_comes(tmp_path: Path) -> None:
    """Against a real `donjon serve` (uvicorn), a phone on a slow network sending a photo from a page left open after
    another phone saved the game: the refusal came only once the whole photo had arrived (3 MB at 100 kB/s: 32 s in
    Chromium). It is answered as soon as the request's head came, for each of the three photo forms, and the
    connection is closed after it: Chromium reads an answer during an upload only once sending fails (kept open, it
    showed the refusal when all was sent; closed, 0.7 s)."""
    import socket

    from generator.web import messages

    with served_saved_table(tmp_path) as (table, where):
        # the third: a photo added to those kept of a sheet (none kept here: the player's page, to take a first one)
        for url, field, status in ((f"{table}/seats/0/sheet", "sheet", b"400"), (f"{table}/photos", "sheet-0", b"400"),
                                   (f"{table}/seats/0/photo", "sheet", b"303")):
            head, body = photo_request(where, url, field, CHROME)
            with socket.create_connection((where.hostname, where.port), timeout=10) as phone:
                phone.sendall(head + body[:16384])  # the head and the start of the photo, no more yet
                answered, page = answer_of(phone)
                assert answered.startswith(b"HTTP/1.1 " + status), (url, answered)
                assert b"\r\nconnection: close" in answered.lower(), (url, answered)
                if status == b"400":
                    assert html.escape(messages.TABLE_SAVED).encode() in page, (url, page[:300])
                try:  # then closed by the server, the rest of the photo unread
                    assert phone.recv(65536) == b"", url
                except ConnectionResetError:
                    pass
    # a photo sent to a table not saved is read whole, on a connection kept open (tests/web/test_photo_upload.py)


#: a phone's Chrome (Chromium) and Safari (WebKit), as their user agents say
CHROME = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
SAFARI = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/18.1 Mobile/15E148 Safari/604.1")


def test_a_photo_to_a_saved_table_from_safari_is_answered_at_once_and_the_rest_of_it_taken(tmp_path: Path) -> None:
    """WebKit shows a connection closed during its upload as "Connection reset by peer", not the answer sent before
    (tests/web/test_webkit.py): for a browser other than Chromium the refusal is sent at once and the connection kept
    open, the rest of the photo read and dropped as it comes, even when it takes longer than serve.HEAD_SECONDS
    (which closed it once they had passed since the answer); the connection then takes the next request."""
    import socket
    import time

    from generator.commands.serve import HEAD_SECONDS
    from generator.web import messages

    with served_saved_table(tmp_path) as (table, where):
        head, body = photo_request(where, f"{table}/seats/0/sheet", "sheet", SAFARI)
        with socket.create_connection((where.hostname, where.port), timeout=30) as phone:
            phone.sendall(head + body[:16384])
            answered, page = answer_of(phone)
            assert answered.startswith(b"HTTP/1.1 400"), answered
            assert b"connection: close" not in answered.lower(), answered
            assert html.escape(messages.TABLE_SAVED).encode() in page, page[:300]
            # the rest on a slow network: in pieces until HEAD_SECONDS and 2 more have passed since the answer
            rest, pieces = body[16384:], 12
            step = len(rest) // pieces + 1
            for start in range(0, len(rest), step):
                time.sleep((HEAD_SECONDS + 2) / pieces)
                phone.sendall(rest[start:start + step])
            phone.sendall(f"GET {table} HTTP/1.1\r\nHost: {where.netloc}\r\nUser-Agent: {SAFARI}\r\n\r\n".encode())
            answered, _ = answer_of(phone)
            assert answered.startswith(b"HTTP/1.1 "), answered
