"""The viewer's server under load and hostile clients (issue #25 S1-S5): a burst of 200
connections all answered, slow clients holding no more than the handler cap, the Host check on
every loopback spelling, client resets as one line, ``ssr=`` maps bounded and never written to
the map cache.  Real servers on loopback addresses with real sockets; the latency figures of
the target are measured by ``tools/bench_serve_burst.py``."""
from __future__ import annotations

import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from hexwx.serve import server as server_mod
from hexwx.serve.server import MAX_HANDLERS, allowed_hosts, make_server
from serve_helpers import burst, get, running
from vasl_boards import archive, metadata

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "hill_village.toml"


def test_a_burst_of_200_connections_is_all_answered() -> None:
    with running(VILLAGE) as srv:
        host, port = srv.server_address[:2]
        assert get(srv, "/api/los?from=A7&to=N7")[0] == 200          # (the map is loaded)
        times = burst(host, port, 200, "/api/los?from=A7&to=N7", timeout=30)
    answered = sorted(t for t in times if t is not None)
    assert len(answered) == 200, f"{200 - len(answered)} of 200 connections got no answer"
    # (the target, p99 <= 1 s, is measured by tools/bench_serve_burst.py; here a bound that
    # holds on a busy shared machine but not with a backlog of 5: SYN retries of 1, 3, 7 s)
    assert answered[int(0.99 * len(answered)) - 1] < 5


def test_slow_clients_hold_at_most_the_handler_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections that send half a request hold a thread each only up to the cap, are closed
    after the timeout, and the server answers again."""
    monkeypatch.setattr(server_mod._Handler, "timeout", 1.0)
    with running(VILLAGE) as srv:
        host, port = srv.server_address[:2]
        before = threading.active_count()
        slow = []
        for _ in range(MAX_HANDLERS + 40):
            s = socket.create_connection((host, port), timeout=30)
            s.sendall(b"GET /api/los?from=A7&to=N7 HTTP/1.1\r\nHost: x")
            slow.append(s)
        time.sleep(0.5)
        assert threading.active_count() - before <= MAX_HANDLERS
        t = time.perf_counter()
        status = get(srv, "/api/los?from=A7&to=N7")[0]      # waits for slots to free
        assert status == 200 and time.perf_counter() - t < 20
        for s in slow:
            s.close()


@pytest.mark.parametrize("host", ["127.0.0.2", "127.1", "localhost"])
def test_the_host_check_holds_for_every_loopback_spelling(host: str) -> None:
    srv = make_server(str(VILLAGE), host=host, port=0)
    srv.start()
    try:
        assert srv.allowed_hosts is not None
        port = srv.server_address[1]
        assert get(srv, "/api/map", {"Host": f"evil.example:{port}"})[0] == 400
        shown = f"[{host}]" if ":" in host else host
        assert get(srv, "/api/map", {"Host": f"{shown}:{port}"})[0] == 200
    finally:
        srv.shutdown()
        srv.server_close()


def test_ipv6_loopback_spellings() -> None:
    """(Without binding: this machine may have no IPv6.)"""
    for given in ("::1", "[::1]", "0:0:0:0:0:0:0:1"):
        hosts = allowed_hosts(given, "::1", 8000)
        assert hosts is not None and "[::1]:8000" in hosts and "localhost:8000" in hosts
        assert "evil.example:8000" not in hosts


def test_hosts_of_other_addresses_are_not_checked() -> None:
    assert allowed_hosts("0.0.0.0", "0.0.0.0", 8000) is None
    assert allowed_hosts("10.1.2.3", "10.1.2.3", 8000) is None
    assert "127.0.0.5:80" in allowed_hosts("127.0.0.5", "127.0.0.5", 80)  # type: ignore[operator]


def test_a_client_reset_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with running(VILLAGE) as srv:
        host, port = srv.server_address[:2]
        for _ in range(3):
            s = socket.create_connection((host, port))
            s.sendall(b"GET /api/los?from=A7&to=N7 HTTP/1.1\r\nHo")
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()                                  # an RST, not a FIN
        time.sleep(0.5)
        assert get(srv, "/api/los?from=A7&to=N7")[0] == 200
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) <= 3 and all(ln.startswith("hexwx serve: client") for ln in lines), err


def test_ssr_maps_are_bounded_and_not_written_to_the_cache(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from hexwx.serve.session import SSR_MAPS
    cache = tmp_path / "cache"
    monkeypatch.setenv("HEXWX_CACHE_DIR", str(cache))
    rules = ["NoGrain", "BrushToOpenGround", "NoWoodsRoads", "NoRoads", "NoHedges", "NoWalls"]
    with running(archive("bd02"), vasl_metadata=str(metadata())) as srv:
        written = sorted(cache.glob("*.npy"))
        asked = 0
        for rule in rules:
            status, _, body = get(srv, f"/api/los?from=I4&to=P6&ssr={rule}")
            asked += status == 200
        assert asked >= SSR_MAPS + 1, "too few of these SSRs are known"
        assert len(srv.session._ssr_maps) <= SSR_MAPS
        assert sorted(cache.glob("*.npy")) == written
