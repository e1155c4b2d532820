"""WebKit, the engine of Safari, driven through the W3C WebDriver protocol: Debian's WebKitGTK MiniBrowser under
its WebKitWebDriver (package webkit2gtk-driver), on a virtual X display (Xvfb). Playwright's own WebKit build is
downloaded from a CDN at install time, which a fresh machine behind a package mirror cannot do; WebKitGTK comes
from Debian like our Chromium. It is not iOS Safari (no iOS, no touch events), but it is Safari's engine: its CSS,
its JavaScript and its forms.

The protocol is a few JSON requests over HTTP (https://www.w3.org/TR/webdriver2/), said here with httpx rather
than a Selenium dependency for one test file.
"""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.test_serve_process import free_port

#: where Debian's libwebkit2gtk-4.1 puts its MiniBrowser, the browser WebKitWebDriver drives
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
#: the W3C name of the element key in a found element's JSON
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
#: a loaded two-core machine starts Xvfb, the driver and the browser in 1-3 s; the bound is for the worst of it
START_S = 60


def webkit_tools() -> tuple[str, str]:
    """Xvfb and WebKitWebDriver, or a skip (a failure when DONJON_REQUIRE_BROWSER=1, as CI sets)."""
    xvfb, driver = shutil.which("Xvfb"), shutil.which("WebKitWebDriver")
    if xvfb is None or driver is None or not MINIBROWSER.exists():
        missing = "apt-get install webkit2gtk-driver xvfb"
        if os.environ.get("DONJON_REQUIRE_BROWSER") == "1":
            pytest.fail(f"DONJON_REQUIRE_BROWSER=1 but WebKitGTK's driver or Xvfb is not installed ({missing})")
        pytest.skip(f"WebKitGTK's driver or Xvfb is not installed ({missing})")
    return xvfb, driver


class WebKitPage:
    """One WebDriver session: one browser window, its page."""

    def __init__(self, client: httpx.Client, session: str) -> None:
        self.client = client
        self.session = session

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = self.client.request(method, f"/session/{self.session}{path}", json=body)
        value = answer.json()["value"]
        if answer.status_code != 200:
            raise AssertionError(f"WebDriver {method} {path}: {value.get('error')}: {value.get('message')}")
        return value

    def goto(self, url: str) -> None:
        self.call("POST", "/url", {"url": url})

    @property
    def url(self) -> str:
        return str(self.call("GET", "/url"))

    def run(self, script: str, *args: Any) -> Any:
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css: str, using: str = "css selector") -> str:
        """The first element `css` (or an XPath, `using="xpath"`) matches, waited for as a page being drawn needs."""
        return str(self.until(lambda: self._found(css, using), f"nothing matches {css!r} on {self.url}"))

    def _found(self, value: str, using: str) -> str | None:
        found = self.call("POST", "/elements", {"using": using, "value": value})
        return str(found[0][ELEMENT]) if found else None

    def click(self, css: str, using: str = "css selector") -> None:
        """A click as a person's: WebDriver scrolls the element into view and clicks where it is drawn, refused if
        another element covers it."""
        self.call("POST", f"/element/{self.find(css, using)}/click", {})

    def press(self, name: str) -> None:
        """Click the button or link a person knows by `name`: its accessible label or its own text."""
        quoted = f'"{name}"' if '"' not in name else f"'{name}'"
        self.click(f"//*[(self::button or self::a) and (@aria-label={quoted} or normalize-space(.)={quoted})]",
                   using="xpath")

    def type(self, css: str, text: str) -> None:
        element = self.find(css)
        self.call("POST", f"/element/{element}/clear", {})
        self.call("POST", f"/element/{element}/value", {"text": text})

    def text(self, css: str) -> str:
        return str(self.call("GET", f"/element/{self.find(css)}/text"))

    def until(self, check: Any, what: str, timeout: float = 60) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            assert time.monotonic() < deadline, what
            time.sleep(0.05)

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.call("GET", "/screenshot")))


@contextlib.contextmanager
def webkit(width: int, height: int) -> Iterator[WebKitPage]:
    """A WebKit window of `width` x `height` CSS pixels on its own virtual display; every process it starts is
    stopped when the block ends."""
    xvfb, driver = webkit_tools()
    processes: list[subprocess.Popen[bytes]] = []
    try:
        read, write = os.pipe()
        # -displayfd: Xvfb picks a free display number and writes it when ready (no race for a fixed :N)
        processes.append(subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24",
                                           "-nolisten", "tcp"], pass_fds=(write,),
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        os.close(write)
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        assert display, "Xvfb did not start"
        port = free_port()
        processes.append(subprocess.Popen([driver, f"--port={port}"], env={**os.environ, "DISPLAY": f":{display}"},
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=START_S) as client:
            deadline = time.monotonic() + START_S
            while True:
                try:
                    if client.get("/status").json()["value"]["ready"]:
                        break
                except httpx.TransportError:
                    pass  # not listening yet: asked again below, until START_S
                assert time.monotonic() < deadline, "WebKitWebDriver did not answer"
                time.sleep(0.05)
            options = {"binary": str(MINIBROWSER), "args": ["--automation", "--full-screen"]}
            started = client.post("/session", json={"capabilities": {"alwaysMatch": {
                "webkitgtk:browserOptions": options}}})
            assert started.status_code == 200, started.text
            page = WebKitPage(client, started.json()["value"]["sessionId"])
            try:
                # full screen on a screen of the page's size (its toolbar holds a window 447 pixels wide at least)
                page.call("POST", "/window/rect", {"width": width, "height": height})
                yield page
            finally:
                with contextlib.suppress(httpx.HTTPError, AssertionError):
                    page.call("DELETE", "")
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
