"""``hexwx serve`` with counters: the page's map lists them, and /api/los, /api/viewshed answer
with them exactly as the commands do (a real server on 127.0.0.1, real requests)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from hexwx.cli.app import main
from hexwx.errors import UsageError
from hexwx.lineofsight.counters import parse_counter
from serve_helpers import ROOT, get, get_json, running

MAP = ROOT / "maps" / "hill_village.toml"
SMOKE = "White +3 Smoke@C2"


def cli(capsys: pytest.CaptureFixture[str], *argv: Any) -> str:
    rc = main([str(a) for a in argv])
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


def test_served_answers_take_the_counters(capsys: pytest.CaptureFixture[str]) -> None:
    with running(MAP, counters=[parse_counter(SMOKE)]) as srv:
        status, d = get_json(srv, "/api/map")
        assert status == 200
        assert d["counters"] == [{"name": "White +3 Smoke", "hex": "C2", "level": 0,
                                  "kind": "smoke", "rule": "A24", "drm": 3}]
        _, _, body = get(srv, "/api/los?from=A1&to=G3")
        assert body.decode() == cli(capsys, "los", MAP, "A1", "G3", "--counter", SMOKE,
                                    "--json")
        assert json.loads(body)["hindrance"] == 3
        status, vs = get_json(srv, "/api/viewshed?from=A1")
        assert status == 200 and vs["hexes"]["G3"] == 3
    with running(MAP) as srv:
        _, vs = get_json(srv, "/api/viewshed?from=A1")
        assert vs["hexes"]["G3"] == 0


def test_bad_or_conflicting_counters_are_refused() -> None:
    with pytest.raises(UsageError, match="level 5 does not exist"):
        with running(MAP, counters=[parse_counter("Blaze@C2:5")]):
            pass
    with pytest.raises(UsageError, match="no_counters answers as the bare map: leave out counters"):
        with running(MAP, counters=[parse_counter(SMOKE)], no_counters=True):
            pass


def test_served_answers_leave_out_smoke_the_rain_forbids(capsys: pytest.CaptureFixture[str]) -> None:
    """E3.53: in rain the placed SMOKE in C2 does not exist: /api/los, /api/viewshed and
    /api/exposure answer without it, as the commands do, and say why in ``notes``."""
    with running(MAP, counters=[parse_counter(SMOKE)]) as srv:
        _, _, body = get(srv, "/api/los?from=A1&to=G3&rain=1")
        assert body.decode() == cli(capsys, "los", MAP, "A1", "G3", "--counter", SMOKE,
                                    "--rain", "--json")
        los = json.loads(body)
        assert los["hindrance"] == 0 and "(E3.53)" in los["notes"][0]
        _, vs = get_json(srv, "/api/viewshed?from=A1&rain=1")
        assert vs["hexes"]["G3"] == los["drm"] and "(E3.53)" in vs["notes"][0]
        _, ex = get_json(srv, "/api/exposure?rain=1")
        assert "(E3.53)" in ex["notes"][0]
        _, dry = get_json(srv, "/api/viewshed?from=A1")
        assert dry["hexes"]["G3"] == 3 and dry["notes"] == []
