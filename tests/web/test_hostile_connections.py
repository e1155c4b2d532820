"""Clients that misbehave at the socket, against a real `donjon serve --lan` (uvicorn): a thousand half-open
connections do not hold the server's file descriptors (it keeps at most serve.MOST_CONNECTIONS, and drops those
that send no request head within serve.HEAD_SECONDS), a body that never finishes is answered 408 after
security.BODY_SECONDS, and a client that leaves in the middle of its body is no error in the server's log.
The three run at once on one server, so that the test waits the longest limit once."""

from __future__ import annotations

import os
import resource
import signal
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from generator.commands.serve import HEAD_SECONDS, MOST_CONNECTIONS
from generator.web.security import BODY_SECONDS
from tests.web.test_serve_process import serving, wait_ready

#: the slow clients: five times the connections the server keeps, about what a default descriptor limit holds
HALF_OPEN = 1000
#: descriptors a server holds besides its connections (the listening socket, the database and its WAL, the
#: interpreter's own files), with a margin
OWN_FILES = 60


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_half_open_slow_and_vanishing_clients(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < HALF_OPEN + 200:  # this test's own sockets (the server gets the usual 1024 below)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, HALF_OPEN + 500), hard))
    with serving("--lan", "--host", "127.0.0.1", "--db", str(tmp_path / "db.sqlite3")) as (server, join):
        # the descriptor limit a desktop session gives a process: a thousand clients would use it up
        resource.prlimit(server.pid, resource.RLIMIT_NOFILE, (1024, 1024))
        address = urlsplit(join)
        token = join.split("token=")[1]
        where = (address.hostname, address.port)
        base = f"http://{address.netloc}"
        wait_ready(base)
        head = (f"POST /api/score HTTP/1.1\r\nHost: {address.netloc}\r\nAuthorization: Bearer {token}\r\n"
                "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n").encode()
        # a body that never finishes
        slow = socket.create_connection(where, timeout=BODY_SECONDS + 60)
        slow.sendall(head + b'{"game": ')
        slow_since = time.monotonic()
        # its answer is taken the moment it comes, by a thread of its own: read after the thousand connections and
        # their drop (HEAD_SECONDS), it was timed by how long those took on a loaded machine, not by the server
        answered: list[tuple[bytes, float]] = []
        reader = threading.Thread(target=lambda: answered.append((slow.recv(4096), time.monotonic())), daemon=True)
        reader.start()
        # a client that leaves in the middle of its body
        with socket.create_connection(where, timeout=5) as gone:
            gone.sendall(head + b'{"game": "guildhall", ')
        # a thousand that connect and never finish a request head (half send part of one, half nothing)
        held: list[socket.socket] = []
        most = 0
        try:
            for n in range(HALF_OPEN):
                client = socket.socket()
                client.settimeout(5)
                held.append(client)
                try:
                    client.connect(where)
                    if n % 2:
                        client.sendall(b"GET / HTTP/1.1\r\nHost: ")
                except OSError:
                    pass  # closed by the server as it came: that is the bound at work
                if n % 50 == 0:
                    most = max(most, open_files(server.pid))
            most = max(most, open_files(server.pid))
            assert most <= MOST_CONNECTIONS + OWN_FILES, f"the server held {most} descriptors"
            # those it kept are dropped once HEAD_SECONDS have passed without a request head
            deadline = time.monotonic() + HEAD_SECONDS + 10
            while open_files(server.pid) > OWN_FILES and time.monotonic() < deadline:
                time.sleep(0.25)
            assert open_files(server.pid) <= OWN_FILES
        finally:
            for client in held:
                client.close()
        # and the table is answered again
        page = httpx.get(f"{base}/", headers={"authorization": f"Bearer {token}"}, timeout=10)
        assert page.status_code == 200
        # the slow body is refused with 408, at its time limit and not before
        reader.join(BODY_SECONDS + 60)
        slow.close()
        assert answered, f"no answer to a body that never finishes within {BODY_SECONDS + 60} s"
        answer, waited = answered[0][0], answered[0][1] - slow_since
        assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
        assert BODY_SECONDS - 1 <= waited <= BODY_SECONDS + 10
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=15)
        assert server.returncode == 0
        # nothing of the vanished client, the slow ones or the refused body reads as a fault in the server's log
        for word in ("Traceback", "Exception", "ASGI", "Error", "Too many open files"):
            assert word not in errors, errors
