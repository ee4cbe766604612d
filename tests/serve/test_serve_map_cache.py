"""``/api/map`` is built once per map state, over real HTTP on 127.0.0.1: the same bytes
again without rebuilding its hex list or the SSRs that change the map, and a new answer
when the weather, the counters or the map (under other SSRs) change."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import hexwx.io.ssr
from hexwx.serve.session import Session
from serve_helpers import ROOT, get, running
from spy_helpers import counting
from vasl_boards import archive

MAP = ROOT / "maps" / "hill_village.toml"
SCENARIO = ROOT / "scenarios" / "fog_on_the_hill.toml"


def body(srv: Any) -> bytes:
    status, _, data = get(srv, "/api/map")
    assert status == 200
    return data


def test_map_answer_is_built_once_and_served_again(monkeypatch: pytest.MonkeyPatch) -> None:
    built = counting(monkeypatch, Session, "map_json")
    with running(MAP) as srv:
        first, second = body(srv), body(srv)
        assert first == second and len(json.loads(first)["hexes"]) == 346
        assert len(built) == 1


def test_a_new_weather_or_counters_give_a_new_map_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    built = counting(monkeypatch, Session, "map_json")
    with running(SCENARIO) as srv:
        foggy = body(srv)
        assert json.loads(foggy)["weather"]["flags"]["fog"] == 0
        sc = srv.session.scenario
        sc.weather = dataclasses.replace(sc.weather, fog_level=None, fog_drm=None)   # it lifts
        clear = body(srv)
        assert clear != foggy and "fog" not in json.loads(clear)["weather"]["flags"]
        assert body(srv) == clear and len(built) == 2
        from hexwx.lineofsight.counters import Counters
        srv.session.counters = Counters.of(["White +3 Smoke@E5"])
        smoky = json.loads(body(srv))
        assert [c["hex"] for c in smoky["counters"]] == ["E5"] and len(built) == 3


def test_a_map_under_other_ssrs_gives_a_new_answer_and_its_ssrs_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    archive("bd02")
    ssrs = counting(monkeypatch, hexwx.io.ssr, "ssrs_that_change")
    with running("bd02") as srv:
        plain = body(srv)
        names = json.loads(plain)["ssrs"]
        assert names and body(srv) == plain and len(ssrs) == 1
        srv.session.map = srv.session._load((names[0],))
        under = json.loads(body(srv))
        assert names[0] in under["name"] and len(ssrs) == 2


def test_a_body_built_while_the_state_changed_is_not_kept_for_the_old_state(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The counters change while the first body is being built (another request's thread):
    that body is not kept under the state read before it, so when the state is back to that
    one the answer says so."""
    from hexwx.lineofsight.counters import Counters
    session = Session(str(MAP))
    plain, smoky = session.counters, Counters.of(["White +3 Smoke@E5"])
    real = Session.map_json
    changed: list[bool] = []

    def racing(self: Session) -> Any:
        if not changed:
            changed.append(True)
            self.counters = smoky                  # changed meanwhile
        return real(self)

    monkeypatch.setattr(Session, "map_json", racing)
    first = json.loads(session.map_answer()[1])
    assert [c["hex"] for c in first["counters"]] == ["E5"]
    session.counters = plain                       # back to the state the first request read
    assert json.loads(session.map_answer()[1])["counters"] == []
