"""A headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: the
browser reads commands from its fd 3 and writes replies and events to its fd 4, each one JSON
message ended by a NUL byte). Enough to open a local page, record every network request and console
message, evaluate script in the page and take screenshots; no dependency beyond the browser.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["Browser", "find_chromium"]


def find_chromium() -> str | None:
    """The Chromium executable (``$CHROMIUM``, else ``chromium`` or ``chromium-browser`` on the PATH)."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _high(fd: int) -> int:
    """The descriptor moved to 5 or above (so that making the browser's fds 3 and 4 overwrites neither)."""
    import fcntl

    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 5)
    os.close(fd)
    return high


class Browser:
    """One headless Chromium with one page (``with Browser() as b: b.open(path)``)."""

    def __init__(
        self, executable: str | None = None, *, width: int = 1280, height: int = 900, timeout: float = 60
    ) -> None:
        exe = executable or find_chromium()
        if exe is None:
            raise FileNotFoundError("no chromium on the PATH")
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="sigfast-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        to_child_r, from_child_w = _high(to_child_r), _high(from_child_w)  # not 3 or 4 themselves

        args = [
            exe,
            "--headless=new",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--metrics-recording-only",
            "--hide-scrollbars",
            "--mute-audio",
            f"--window-size={width},{height}",
            f"--user-data-dir={self._profile}",
            "about:blank",
        ]

        def fds() -> None:  # in the child: the command pipe on fd 3, the reply pipe on fd 4
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("SIGFAST_BROWSER_LOG") else subprocess.DEVNULL,
            preexec_fn=fds,
            pass_fds=(3, 4),  # kept open after fds() made them
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    # ------------------------------------------------------------------ protocol
    def _send(self, msg: dict[str, Any]) -> None:
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")

    def _read(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session is not None and not method.startswith("Target."):
            msg["sessionId"] = self.session
        self._send(msg)
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        for e in self.events:
            if e["method"] == method:
                return e
        while True:
            e = self._read(deadline)
            if "method" in e:
                self.events.append(e)
                if e["method"] == method:
                    return e

    # ------------------------------------------------------------------ page
    def open(self, path: str | Path) -> None:
        """Open a local file and wait for its load event."""
        self.events.clear()
        self.call("Page.navigate", url=Path(path).resolve().as_uri())
        self.wait_for("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        """The value of a script expression in the page (JSON-serializable values; errors raise)."""
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"script error: {r['exceptionDetails']}")
        return r["result"].get("value")

    def requests(self) -> list[str]:
        """The URL of every request the page made since it was opened."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries since the page was opened."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif m == "Runtime.exceptionThrown":
                out.append(str(p.get("exceptionDetails", {}).get("exception", {}).get("description", p)))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p["entry"].get("text", ""))
        return out

    def screenshot(self, path: str | Path, *, full_page: bool = False, clip_height: int | None = None) -> None:
        """A PNG of the viewport (or the whole page, or its first ``clip_height`` pixels)."""
        params: dict[str, Any] = {"format": "png"}
        if full_page or clip_height:
            h = self.eval("document.documentElement.scrollHeight")
            w = self.eval("document.documentElement.scrollWidth")
            params["clip"] = {"x": 0, "y": 0, "width": w, "height": min(h, clip_height or h), "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", **params)["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
