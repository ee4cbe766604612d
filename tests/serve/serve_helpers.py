"""Helpers for the viewer tests: a real server on 127.0.0.1 (ephemeral port) and raw HTTP."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from hexwx.serve.server import ViewerServer, make_server

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def running(source: str | Path, **kw: Any) -> Iterator[ViewerServer]:
    """``hexwx serve SOURCE`` on 127.0.0.1 and a free port, in a background thread."""
    srv = make_server(str(source), port=0, **kw)
    srv.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def get(srv: ViewerServer, target: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET ``target`` (sent as is, not normalised) -> (status, headers, body)."""
    host, port = srv.server_address[:2]
    c = http.client.HTTPConnection(host, port, timeout=30)
    try:
        c.putrequest("GET", target, skip_accept_encoding=True,
                     skip_host="host" in {k.lower() for k in (headers or {})})
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        c.endheaders()
        r = c.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        c.close()


def get_json(srv: ViewerServer, target: str) -> tuple[int, Any]:
    status, _, body = get(srv, target)
    return status, json.loads(body)


def raw(srv: ViewerServer, data: bytes) -> bytes:
    """Send raw bytes (a malformed request) and return what the server answers."""
    host, port = srv.server_address[:2]
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(data)
        chunks = []
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)


def burst(host: str, port: int, n: int, target: str, timeout: float = 60) -> list[float | None]:
    """``n`` connections opened at once, each asking ``target``: seconds to each answer (None
    for no answer)."""
    times: list[float | None] = [None] * n
    go = threading.Barrier(n)

    def one(i: int) -> None:
        go.wait()
        t = time.perf_counter()
        c = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            c.request("GET", target)
            r = c.getresponse()
            r.read()
            if r.status == 200:
                times[i] = time.perf_counter() - t
        except OSError:
            pass
        finally:
            c.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times
