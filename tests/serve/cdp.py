"""A tiny Chrome DevTools Protocol client (stdlib only) to drive headless Chromium in tests.

``Browser.launch()`` starts ``chromium --headless=new`` with a DevTools port, ``open(url)``
gives a :class:`Page` connected over a websocket; a page can evaluate JavaScript, dispatch
real mouse events, and capture screenshots.  No selenium, no downloaded browser: the
Debian ``chromium`` package (``tools/ensure_chromium.sh`` installs it).
"""
from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The Chromium executable: ``$HEXWX_CHROMIUM`` or the first candidate on PATH."""
    env = os.environ.get("HEXWX_CHROMIUM")
    if env:
        return env if shutil.which(env) or Path(env).exists() else None
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class WebSocket:
    """A client websocket (RFC 6455): text frames only, enough for CDP."""

    def __init__(self, url: str, timeout: float = 30) -> None:
        u = urlsplit(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"websocket handshake refused: {head[:100]!r}")
        self.buf = head.split(b"\r\n\r\n", 1)[1]

    def send(self, text: str) -> None:
        data = text.encode()
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self) -> str:
        parts: list[bytes] = []
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            op = b0 & 0x0F
            if op == 0x8:
                raise ConnectionError("websocket closed by the browser")
            if op in (0x9, 0xA):      # ping/pong: ignore
                continue
            parts.append(data)
            if b0 & 0x80:
                return b"".join(parts).decode()

    def close(self) -> None:
        self.sock.close()


class Page:
    """One browser tab, driven over CDP."""

    def __init__(self, ws_url: str) -> None:
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method: str, **params: Any) -> Any:
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result")

    def js(self, expression: str) -> Any:
        """Evaluate ``expression`` in the page (promises awaited) and return its value."""
        r = self.call("Runtime.evaluate", expression=expression, awaitPromise=True,
                      returnByValue=True)
        if r.get("exceptionDetails"):
            raise RuntimeError(f"page script failed: {r['exceptionDetails'].get('text')} "
                               f"{r['exceptionDetails'].get('exception', {}).get('description', '')}")
        return r["result"].get("value")

    def wait(self, expression: str, timeout: float = 20) -> Any:
        """Poll ``expression`` until it is truthy; return its value."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.js(expression)
            if v:
                return v
            time.sleep(0.05)
        raise TimeoutError(f"page never satisfied: {expression}")

    def goto(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def mouse(self, kind: str, x: float, y: float) -> None:
        extra = {"button": "left", "clickCount": 1} if kind != "mouseMoved" else {}
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)

    def click_at(self, x: float, y: float) -> None:
        """A real click: move, press, release (the page sees mousemove, mousedown, click)."""
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y)
        self.mouse("mouseReleased", x, y)

    def centre_of(self, selector: str) -> tuple[float, float]:
        r = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                    "if (!e) return null; const b = e.getBoundingClientRect();"
                    "return [b.left + b.width / 2, b.top + b.height / 2]; })()")
        if r is None:
            raise LookupError(f"nothing on the page matches {selector}")
        return float(r[0]), float(r[1])

    def click(self, selector: str) -> None:
        self.click_at(*self.centre_of(selector))

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        self.ws.close()


class Browser:
    """A headless Chromium with a DevTools port, killed on close."""

    def __init__(self, exe: str, width: int = 1400, height: int = 800) -> None:
        self.profile = tempfile.mkdtemp(prefix="hexwx-chromium-")
        self.proc = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage", "--remote-debugging-port=0", "--remote-allow-origins=*",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.port = self._port()
        # keep reading chromium's log so that a full pipe never stalls it
        threading.Thread(target=self._drain_log, daemon=True).start()

    def _drain_log(self) -> None:
        """Read chromium's stderr until it ends or close() closes it."""
        try:
            for _ in self.proc.stderr or ():
                pass
        except (ValueError, OSError):      # closed by close() while reading
            pass

    def _port(self, timeout: float = 30) -> int:
        end = time.monotonic() + timeout
        assert self.proc.stderr is not None
        while time.monotonic() < end:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.proc.returncode}")
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                return int(m.group(1))
        raise TimeoutError("chromium did not print its DevTools port")

    def page(self) -> Page:
        """The first tab (about:blank at start)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=10) as r:
            targets = json.load(r)
        url = next(t["webSocketDebuggerUrl"] for t in targets if t.get("type") == "page")
        return Page(url)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)
