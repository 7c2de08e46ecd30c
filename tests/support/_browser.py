"""Headless Chromium driven over the DevTools protocol on a pipe (stdlib only).

Used by the browser tests to look at the HTML reports as a person would: load
the page, collect console errors, ask whether elements are visible, and save a
screenshot.  ``--remote-debugging-pipe`` speaks NUL-terminated JSON on file
descriptors 3 (to the browser) and 4 (from it), so no websocket library or
network port is needed.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless browser with one page; use as a context manager."""

    def __init__(self, binary: str, width: int = 800, height: int = 1200) -> None:
        self._profile = tempfile.mkdtemp(prefix="conformance-browser-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the child must see them as fds 3 and 4
        self._proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={self._profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=_dup_to(to_browser_r, from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target,
                                  flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._proc.kill()
            self._proc.wait(timeout=10)
        finally:
            for fd in (self._to_browser, self._from_browser):
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self._profile, ignore_errors=True)

    # -- protocol ------------------------------------------------------------------
    def call(self, method: str, session: bool = False, timeout: float = 30,
             **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    # -- what a test needs ---------------------------------------------------------
    def open(self, path: Path) -> None:
        """Load a page and wait for its load event; events (and console errors) start afresh."""
        self.events.clear()
        self.call("Page.navigate", session=True, url=path.resolve().as_uri())
        deadline = time.monotonic() + 30
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._read(deadline))

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", session=True, expression=expression,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluate failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def console_errors(self) -> list[str]:
        errors = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(str(params.get("exceptionDetails", {}).get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                errors.append(str(params.get("args")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append(str(params["entry"].get("text")))
        return errors

    def visible(self, selector: str) -> bool:
        """Whether the first element matching ``selector`` has a box a person can see."""
        return bool(self.evaluate(
            "(() => { const el = document.querySelector(" + json.dumps(selector) + ");"
            " if (!el) return false; const r = el.getBoundingClientRect();"
            " const s = getComputedStyle(el);"
            " return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'"
            " && s.display !== 'none' && r.right <= innerWidth + 1; })()"))

    def text_visible(self, text: str) -> bool:
        """Whether some element showing ``text`` is laid out on the page, inside its width."""
        return bool(self.evaluate(
            "(() => { const want = " + json.dumps(text) + ";"
            " const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);"
            " while (walker.nextNode()) { const n = walker.currentNode;"
            "  if (!n.textContent.includes(want)) continue;"
            "  const range = document.createRange(); range.selectNodeContents(n);"
            "  const r = range.getBoundingClientRect();"
            "  if (r.width > 0 && r.height > 0 && r.right <= innerWidth + 1) return true; }"
            " return false; })()"))

    def horizontal_overflow(self) -> int:
        """How many pixels the page is wider than the viewport (0 when it fits)."""
        return int(self.evaluate(
            "Math.max(0, document.documentElement.scrollWidth - innerWidth)"))

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", session=True, format="png",
                         captureBeyondViewport=True)["data"]
        path.write_bytes(base64.b64decode(data))


def _dup_to(read_end: int, write_end: int) -> Any:
    def setup() -> None:  # runs in the child between fork and exec
        import fcntl

        # first out of the way (either may already be 3 or 4), then into place
        r, w = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (read_end, write_end))
        os.dup2(r, 3)
        os.dup2(w, 4)
    return setup
