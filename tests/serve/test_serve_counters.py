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
