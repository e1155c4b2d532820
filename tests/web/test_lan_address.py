"""`donjon serve --lan` prints the address phones can open, found from the network interfaces: tested in a
network namespace of its own with a LAN interface (a veth holding 192.168.77.2) while the host name resolves to
loopback (as Debian's and Ubuntu's 127.0.1.1 does). Needs root and `ip netns` (CI runs as root); skipped
elsewhere unless DONJON_REQUIRE_NETNS=1."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

LAN = "192.168.77.2"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=30)


@pytest.fixture
def namespace() -> Iterator[str]:
    name = f"donjon-{uuid.uuid4().hex[:8]}"
    if os.geteuid() != 0 or shutil.which("ip") is None or _run("ip", "netns", "add", name).returncode != 0:
        if os.environ.get("DONJON_REQUIRE_NETNS") == "1":
            pytest.fail("network namespaces are needed (root and ip netns)")
        pytest.skip("network namespaces need root and ip netns")
    host_end = f"dj{uuid.uuid4().hex[:8]}"
    try:
        for step in (("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"),
                     ("ip", "link", "add", host_end, "type", "veth", "peer", "name", "lan0", "netns", name),
                     ("ip", "netns", "exec", name, "ip", "addr", "add", f"{LAN}/24", "dev", "lan0"),
                     ("ip", "netns", "exec", name, "ip", "link", "set", "lan0", "up")):
            done = _run(*step)
            assert done.returncode == 0, done.stderr
        yield name
    finally:
        _run("ip", "link", "del", host_end)
        _run("ip", "netns", "del", name)


def _serve(namespace: str, db: Path, *more: str) -> str:
    """What `donjon serve --lan` prints in the namespace (its host name `localhost`), stopped after a line."""
    script = (f"hostname localhost && exec {sys.executable} -m generator serve --lan --port 0 --db {db} "
              + " ".join(more))
    process = subprocess.Popen(["ip", "netns", "exec", namespace, "unshare", "--uts", "sh", "-c", script],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        return process.stdout.readline()
    finally:
        process.terminate()
        process.wait(10)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def test_the_lan_address_comes_from_the_interfaces_not_the_host_name(namespace: str, tmp_path: Path) -> None:
    resolved = _run("ip", "netns", "exec", namespace, "unshare", "--uts", "sh", "-c",
                    f"hostname localhost && {sys.executable} -c 'import socket; "
                    "print(socket.gethostbyname(socket.gethostname()))'")
    assert resolved.stdout.strip().startswith("127.")  # the host name alone would give loopback
    first = _serve(namespace, tmp_path / "db.sqlite3")
    assert f"http://{LAN}:" in first and "?token=" in first
    # the token is kept: a restart prints the same one; --new-token makes another
    again = _serve(namespace, tmp_path / "db.sqlite3")
    token = first.split("?token=")[1].split()[0]
    assert again.split("?token=")[1].split()[0] == token
    renewed = _serve(namespace, tmp_path / "db.sqlite3", "--new-token")
    assert renewed.split("?token=")[1].split()[0] != token
