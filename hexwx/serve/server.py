"""The HTTP side of ``hexwx serve``: a threading stdlib server for the page and its JSON API.

Served: ``/`` (the page), ``/static/NAME`` (the package's own static files, by an allow-list
made at start-up), ``/api/board`` (the board picture) and ``/api/ROUTE?...`` (JSON, see
:mod:`hexwx.serve.session`).  Nothing else: no directory listings, no paths outside the
package.  A bad request gets a 400 with a one-line JSON ``{"error": ...}``; an unexpected
failure a 500 with a one-line JSON error (never a traceback).  Only GET and HEAD.
"""
from __future__ import annotations

import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from hexwx.errors import HexwxError
from hexwx.serve.params import MAX_PARAMS
from hexwx.serve.session import Session

MAX_TARGET = 4096                      # longest request target accepted (bytes)
#: Connections waiting to be accepted (the system caps it: net.core.somaxconn).  The stdlib's
#: default, 5, left bursts waiting seconds (SYN retries) or unanswered; 128 still left a burst
#: of 200 with a p99 of 1.1 s while all :data:`MAX_HANDLERS` threads were busy.
BACKLOG = 1024
#: Connections served at once (a thread each); more wait to be accepted.
MAX_HANDLERS = 32
#: Seconds a connection may stay silent (while sending its request, or between requests of a
#: kept-alive connection) before it is closed.
CONNECTION_TIMEOUT = 10.0
#: Maps up to this size (eight boards) get their all-pairs trace (the exposure heat map's
#: ground, n x n pairs, 3 bytes each) in the background once the page asks for its map; on
#: bigger ones the first exposure request makes it.
WARM_MAX_HEXES = 2800
_STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}\.(html|js|css|svg)$")
_API_RE = re.compile(r"^/api/([a-z][a-z_-]{0,20})$")


def static_files() -> dict[str, bytes]:
    """Name -> bytes of every file shipped in ``hexwx/serve/static`` (read once)."""
    out: dict[str, bytes] = {}
    for entry in resources.files("hexwx.serve").joinpath("static").iterdir():
        if entry.is_file() and _NAME_RE.match(entry.name):
            out[entry.name] = entry.read_bytes()
    return out


class _Handler(BaseHTTPRequestHandler):
    server: "ViewerServer"
    server_version = "hexwx"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = CONNECTION_TIMEOUT       # a connection silent this long is closed (slow clients)
    disable_nagle_algorithm = True     # small answers go out at once (no 40 ms delayed ACK)
    wbufsize = 1 << 16                 # headers and body leave in one write (flushed per request)

    # -- plumbing ----------------------------------------------------------------------------
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        if self.server.verbose:
            sys.stderr.write("hexwx serve: " + (format % args) + "\n")

    def _send(self, status: int, ctype: str, body: bytes, head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _error(self, status: int, message: str, head: bool = False) -> None:
        one_line = " ".join(str(message).split())[:500]
        self._send(status, "application/json; charset=utf-8",
                   (json.dumps({"error": one_line}) + "\n").encode("utf-8"), head)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The stdlib's own errors (bad request line, oversized headers) as one-line JSON."""
        try:
            self.close_connection = True
            self._error(code, message or self.responses.get(code, ("error",))[0])
        except Exception:  # pragma: no cover - the client went away
            pass

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        self._handle(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._handle(head=True)

    def _refuse(self) -> None:
        self.close_connection = True          # any request body is left unread
        self._error(405, "only GET and HEAD are served")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    # -- routing -----------------------------------------------------------------------------
    def _handle(self, head: bool) -> None:
        try:
            status, ctype, body = self._route()
        except (HexwxError, ValueError) as exc:
            status, ctype = 400, "application/json; charset=utf-8"
            body = (json.dumps({"error": " ".join(str(exc).split())[:500]}) + "\n").encode()
        except Exception as exc:  # never a traceback to the client or the terminal
            sys.stderr.write(f"hexwx serve: internal error on {self.path[:200]!r}: "
                             f"{type(exc).__name__}: {exc}\n")
            status, ctype = 500, "application/json; charset=utf-8"
            body = (json.dumps({"error": f"internal error ({type(exc).__name__})"}) + "\n").encode()
        self._send(status, ctype, body, head)
        if self.path.startswith("/api/"):
            self.server.start_warm()       # the page is up (it asked for its map): trace pairs

    def _route(self) -> tuple[int, str, bytes]:
        target = self.path
        if len(target) > MAX_TARGET:
            raise ValueError(f"request too long ({len(target)} bytes; at most {MAX_TARGET})")
        host_ok = self.server.allowed_hosts
        if host_ok is not None and self.headers.get("Host", "") not in host_ok:
            raise ValueError("unexpected Host header; open the URL hexwx serve printed")
        parts = urlsplit(target)
        path = unquote(parts.path, errors="strict")
        if ".." in path or "\\" in path or "\x00" in path or "//" in path:
            raise ValueError("bad path: only the page, /static/NAME and /api/NAME are served")
        if path in ("/", "/index.html"):
            return 200, _STATIC_TYPES[".html"], self.server.static["index.html"]
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            if not _NAME_RE.match(name) or name not in self.server.static:
                return 404, "application/json; charset=utf-8", b'{"error": "no such file"}\n'
            ext = name[name.rindex("."):]
            return 200, _STATIC_TYPES[ext], self.server.static[name]
        if path == "/api/board":
            if parts.query:
                raise ValueError("/api/board takes no parameters")
            ctype, data = self.server.session.base_image()
            return 200, ctype, data
        m = _API_RE.match(path)
        if not m:
            return 404, "application/json; charset=utf-8", b'{"error": "not found"}\n'
        query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=False,
                         max_num_fields=MAX_PARAMS, errors="strict")
        ctype, body = self.server.session.answer(m.group(1), query)
        return 200, ctype, body


class ViewerServer(ThreadingHTTPServer):
    """The server: one :class:`Session`, the static files, the Host allow-list.

    Under load: :data:`BACKLOG` connections may wait to be accepted, at most
    :data:`MAX_HANDLERS` are served at once (each by a thread; the next is accepted when one
    ends), and a connection silent for :data:`CONNECTION_TIMEOUT` seconds is closed, so slow
    or idle clients cannot hold threads.  A client that goes away is one line on stderr."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG

    def __init__(self, session: Session, host: str = "127.0.0.1", port: int = 0, *,
                 verbose: bool = False, warm: bool = False) -> None:
        super().__init__((host, port), _Handler)
        self.session = session
        self.static = static_files()
        self.verbose = verbose
        #: set when the warm-up has finished (or will never run)
        self.warm_done = threading.Event()
        self.warm_seconds: float | None = None
        self._warm_armed = warm and session.map is not None and len(session.map) > 1
        self._warm_lock = threading.Lock()
        if not self._warm_armed:
            self.warm_done.set()
        self._slots = threading.BoundedSemaphore(MAX_HANDLERS)
        self.allowed_hosts = allowed_hosts(host, self.server_address[0], self.server_address[1])

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection in a thread once one of :data:`MAX_HANDLERS` slots is free."""
        self._slots.acquire()
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line for a connection that failed (a client reset, a timeout), not a traceback."""
        exc = sys.exc_info()[1]
        what = "closed the connection" if isinstance(exc, ConnectionError) else \
            "timed out" if isinstance(exc, TimeoutError) else "failed"
        sys.stderr.write(f"hexwx serve: client {client_address[0]} {what} "
                         f"({type(exc).__name__})\n")

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{name}:{port}/"

    def start_warm(self) -> None:
        """In a background thread: answer one LOS question (the parsers and modules the first
        click would load), then, on maps of up to :data:`WARM_MAX_HEXES` hexes, trace every
        pair of hexes once on all CPUs but one (the other answers clicks meanwhile), so the
        first exposure heat map only applies the weather.  Called after each API answer; only
        the first call of an armed server acts.  An exposure asked before the trace ends waits
        for it (one trace per map)."""
        with self._warm_lock:
            if not self._warm_armed:
                return
            self._warm_armed = False
        threading.Thread(target=self._warm, name="hexwx-warm", daemon=True).start()

    def _warm(self) -> None:
        import time

        from hexwx._native import available_cpus
        from hexwx.lineofsight.exposure import ground_pairs
        t = time.perf_counter()
        m = self.session.map
        try:
            self.session.answer("los", {"from": [m.name_of(0)], "to": [m.name_of(len(m) - 1)]})
            if len(m) <= WARM_MAX_HEXES:
                ground_pairs(m, threads=warm_threads(available_cpus()))
            self.warm_seconds = time.perf_counter() - t
        except Exception as exc:  # the first exposure request will say what is wrong
            sys.stderr.write(f"hexwx serve: background trace failed: {type(exc).__name__}: {exc}\n")
        finally:
            self.warm_done.set()

    def start(self) -> threading.Thread:
        """Serve in a background thread (tests, notebooks); ``shutdown()`` stops it."""
        t = threading.Thread(target=self.serve_forever, name="hexwx-serve", daemon=True)
        t.start()
        return t


def allowed_hosts(host: str, bound: Any, port: int) -> set[str] | None:
    """The Host headers a server bound to a loopback address answers (a page of another site
    cannot rebind a name of its own to it): every spelling of the address it was given
    (``127.1``, ``127.0.0.2``, ``[::1]``, ``localhost``) and the usual loopback names; None
    (no check) for a server bound to other addresses, which the user chose to expose."""
    import ipaddress
    try:
        address = ipaddress.ip_address(str(bound).split("%")[0])
    except ValueError:
        return None
    if not address.is_loopback:
        return None
    names = {host.strip("[]"), str(address), "localhost", "127.0.0.1", "::1"}
    return {f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names}


def warm_threads(cpus: int) -> int:
    """Kernel threads of the background trace: every CPU but one, so LOS clicks keep one."""
    return max(1, cpus - 1)


def make_server(source: str, *, host: str = "127.0.0.1", port: int = 0,
                vasl_metadata: str | None = None, vasl_dir: str | None = None,
                ssr: tuple[str, ...] = (), verbose: bool = False,
                warm: bool = False, counters: Any = None,
                no_counters: bool = False) -> ViewerServer:
    """Load ``source``, prepare the board picture, bind; call ``serve_forever()`` or ``start()``.

    ``warm``: on maps of up to :data:`WARM_MAX_HEXES` hexes, once the first API request is
    answered (the page asking for its map), trace every pair of hexes in the background with
    :func:`warm_threads` threads (:meth:`ViewerServer.start_warm`), so the first exposure heat
    map is ready when asked (later weathers reuse it).  ``counters`` (with the scenario's or
    save's; ``no_counters``: none) are on the map for every answer."""
    session = Session(source, vasl_metadata=vasl_metadata, vasl_dir=vasl_dir, ssr=ssr,
                      counters=counters, no_counters=no_counters)
    if session.map is not None:
        session.base_png()
    return ViewerServer(session, host, port, verbose=verbose, warm=warm)
