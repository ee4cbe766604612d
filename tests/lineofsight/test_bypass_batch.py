"""Units in bypass in the batch forms (D2.3): ``los_pairs(src_hexside=, tgt_hexside=)``,
``viewshed(from_hexside=)``, ``exposure(observer_hexsides=)``, ``hexwx los-batch`` with hexside
columns and ``Scenario.viewshed`` answer exactly as the single ``los(from_hexside=,
to_hexside=)`` for the same ends, on a real board with VASL's data, under weather and counters;
and the prepared LOS state they share (hexwx.lineofsight.state)."""
from __future__ import annotations

import numpy as np
import pytest

import hexwx
from hexwx.cli import main
from hexwx.errors import UsageError
from hexwx.lineofsight.batch import los_pairs
from hexwx.lineofsight.counters import Counters, parse_counter
from hexwx.lineofsight.engine import viewshed
from hexwx.lineofsight.exposure import exposure
from hexwx.lineofsight.state import los_state
from hexwx.weather.asl.state import AslWeather
from tests.los_compare import batch_answer, single_answer
from tests.vasl_boards import board

COUNTERS = ("White +3 Smoke@W7", "vehicle:T-34 M43@X8/1", "Burnt Out Wreck@S5", "Red FFE:1@H5",
            "White +2 WP@C4")
WEATHER = AslWeather(fog_level=0, fog_drm=1)


@pytest.fixture(scope="module")
def bd02():
    return board("bd02")


def _obstacle_hexes(m, k: int) -> list[int]:
    """``k`` hexes whose centre is woods or a building (an obstacle a unit may bypass)."""
    out = [h for h in range(len(m)) if m.terrain_of(h).is_building
           or "woods" in m.terrain_of(h).name.lower()]
    rng = np.random.default_rng(3)
    return sorted(rng.choice(out, k, replace=False).tolist())


def _sides(m, hexes, rng, share: float) -> list[int | None]:
    """A random on-map hexside per hex, None for about ``1 - share`` of them."""
    on = m.kernel_map[4][:, :, 0]
    out: list[int | None] = []
    for h in hexes:
        ok = [k for k in range(6) if on[h, k]]
        out.append(int(rng.choice(ok)) if rng.random() < share else None)
    return out


@pytest.mark.parametrize("weather,counters", [(None, None), (WEATHER, COUNTERS)],
                         ids=["clear", "weather+counters"])
def test_los_pairs_in_bypass_equal_single_queries(bd02, weather, counters) -> None:
    rng = np.random.default_rng(17)
    n = len(bd02)
    src = rng.choice(n, 400).tolist()
    tgt = rng.choice(n, 400).tolist()
    top = bd02.hexes.levels + bd02.hexes.rooftop.astype(bool)
    sl = [int(rng.integers(0, top[h] + 1)) for h in src]
    tl = [int(rng.integers(0, top[h] + 1)) for h in tgt]
    ss, ts = _sides(bd02, src, rng, 0.7), _sides(bd02, tgt, rng, 0.5)
    a = los_pairs(bd02, src, tgt, sl, tl, weather=weather, counters=counters,
                  src_hexside=ss, tgt_hexside=ts)
    assert a.src_hexside is not None and (a.src_hexside >= 0).sum() > 200
    kinds = set()
    for i in range(len(src)):
        r = hexwx.los(bd02, src[i], tgt[i], from_level=sl[i], to_level=tl[i], weather=weather,
                      counters=counters, from_hexside=ss[i], to_hexside=ts[i])
        assert batch_answer(bd02, a, i) == single_answer(r), (i, src[i], ss[i], tgt[i], ts[i])
        kinds.add((r.blocked, r.hindrance > 0))
    assert len(kinds) >= 3        # blocked, clear and hindered pairs were all compared


@pytest.mark.parametrize("weather,counters", [(None, None), (WEATHER, COUNTERS)],
                         ids=["clear", "weather+counters"])
def test_viewshed_from_every_hexside_of_obstacle_hexes_equals_los(bd02, weather, counters) -> None:
    """The property over all six hexsides of several woods and building hexes: the viewshed
    from a bypass hexside is, hex by hex, the single query from that hexside; and it differs
    from the centre's somewhere (the hexside is a different point)."""
    on = bd02.kernel_map[4][:, :, 0]
    rng = np.random.default_rng(8)
    differs = compared = 0
    for h in _obstacle_hexes(bd02, 4 if weather is None else 2):
        centre = viewshed(bd02, h, weather=weather, counters=counters)
        targets = range(len(bd02)) if weather is None else rng.choice(len(bd02), 60).tolist()
        for side in range(6):
            if not on[h, side]:
                with pytest.raises(UsageError, match="edge of the map"):
                    viewshed(bd02, h, from_hexside=side)
                continue
            vs = viewshed(bd02, h, weather=weather, counters=counters, from_hexside=side)
            assert vs.hexside == side and "in bypass" in repr(vs)
            for t in targets:
                r = hexwx.los(bd02, h, t, weather=weather, counters=counters, from_hexside=side)
                assert bool(vs.blocked[t]) == r.blocked, (h, side, t)
                if not r.blocked:
                    assert int(vs.drm[t]) == r.drm, (h, side, t)
                compared += 1
            differs += int((vs.blocked != centre.blocked).any())
    assert compared > 500 and differs > 0


def test_exposure_from_observers_in_bypass_equals_los(bd02) -> None:
    rng = np.random.default_rng(4)
    obs = _obstacle_hexes(bd02, 5)
    sides = _sides(bd02, obs, rng, 0.8)
    for weather, counters in ((None, None), (WEATHER, COUNTERS)):
        e = exposure(bd02, observers=obs, observer_hexsides=sides, weather=weather,
                     counters=counters)
        for k, (o, s) in enumerate(zip(obs, sides)):
            for t in range(len(bd02)):
                r = hexwx.los(bd02, o, t, weather=weather, counters=counters, from_hexside=s)
                assert bool(e.seen[k, t]) == (not r.blocked and o != t), (o, s, t)
    with pytest.raises(UsageError, match="observer_hexsides needs observers"):
        exposure(bd02, observer_hexsides=1)
    with pytest.raises(UsageError, match="bad observer_hexsides 9"):
        exposure(bd02, observers=["V8"], observer_hexsides=[9])


def test_bad_batch_hexsides_are_one_line_errors(bd02) -> None:
    with pytest.raises(UsageError, match=r"^bad src_hexside 4; expected a hexside of A5 on the map"):
        los_pairs(bd02, ["A5"], ["J5"], src_hexside=4)
    with pytest.raises(UsageError, match=r"^2 tgt_hexside for 1 pairs"):
        los_pairs(bd02, ["A5"], ["J5"], tgt_hexside=[1, 2])
    with pytest.raises(UsageError, match=r"^bad from_hexside 'NE'"):
        viewshed(bd02, "V8", from_hexside="NE")
    # -1 and None both mean "not in bypass"; the answers are the centres'
    a = los_pairs(bd02, ["V8", "V8"], ["Y8", "Y8"], src_hexside=[-1, None])
    assert a.src_hexside is None and bool(a.blocked[0]) == hexwx.los(bd02, "V8", "Y8").blocked


def test_the_prepared_state_is_made_once_per_map_weather_and_counters(bd02) -> None:
    c = Counters(tuple(parse_counter(t) for t in COUNTERS))
    st = los_state(bd02, WEATHER, c)
    assert los_state(bd02, WEATHER, Counters(tuple(parse_counter(t) for t in COUNTERS))) is st
    assert los_state(bd02, WEATHER, list(COUNTERS)) is st          # the same counters, as text
    assert los_state(bd02, None, c) is not st and los_state(bd02, None, c).fog is None
    assert st.fog is not None and st.counters is not None and st.shown is bd02
    assert los_state(bd02).map is bd02 and los_state(bd02).counters is None
    rubble = los_state(bd02, None, ["Stone Rubble@D5"])
    assert rubble.map is not bd02 and rubble.counters is not None
    with pytest.raises(UsageError, match="counters"):
        los_state(bd02, None, ["White +3 Smoke@ZZ99"])


def test_cli_los_batch_reads_hexside_columns(bd02, tmp_path, capsys) -> None:
    import json
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("src,tgt,src_hexside,tgt_hexside\nV8,Y8,NE,\nV8,Y8,,\nY8,V8,,1\nU7,Y8,0,S\n")
    assert main(["los-batch", "bd02", str(pairs), "--format", "jsonl"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    ends = [("V8", "Y8", 1, None), ("V8", "Y8", None, None), ("Y8", "V8", None, 1),
            ("U7", "Y8", 0, 3)]
    for row, (a, b, s, t) in zip(rows, ends):
        r = hexwx.los(bd02, a, b, from_hexside=s, to_hexside=t)
        assert (row["blocked"], row["hindrance"] if not r.blocked else None, row["reason"]) == \
            (r.blocked, None if r.blocked else r.hindrance, r.reason)
        assert (row["source_location"], row["target_location"]) == (r.source_location,
                                                                    r.target_location)
    assert not rows[0]["blocked"] and rows[1]["blocked"]      # V8's NE hexside sees past X8
    pairs.write_text("src,tgt,src_hexside\nV8,Y8,NE\nA5,J5,SW\n")
    assert main(["los-batch", "bd02", str(pairs)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 3: src_hexside 'SW' is the edge of the map for A5" in err[0]
    pairs.write_text("src,tgt,tgt_hexside\nV8,Y8,up\n")
    assert main(["los-batch", "bd02", str(pairs)]) == 1
    assert "line 2: tgt_hexside 'up' is not a hexside" in capsys.readouterr().err


def test_scenario_viewshed_and_render_of_a_unit_in_bypass(bd02, tmp_path) -> None:
    from dataclasses import replace
    from hexwx.io.scenario import Scenario, ScenarioUnit
    units = (ScenarioUnit("tank", "Allied", "V8", kind="vehicle", hexside=1),
             ScenarioUnit("squad", "Axis", "Y8"))
    sc = replace(Scenario.on_map(bd02), units=units)
    vs = sc.viewshed("tank")
    want = viewshed(bd02, "V8", from_hexside=1, counters=sc.los_counters, weather=sc.weather)
    assert len(sc.los_counters) == 1          # the tank itself, a hindrance in bypass (D9)
    assert vs.hexside == 1 and (vs.blocked == want.blocked).all() and (vs.drm == want.drm).all()
    assert not vs.blocked[bd02.hex("Y8", "h")] and viewshed(bd02, "V8").blocked[bd02.hex("Y8", "h")]
    assert sc.viewshed("tank", from_hexside=3).hexside == 3
    out = tmp_path / "v.png"
    assert main(["render", "bd02", "--viewshed", "--from", "V8", "--from-hexside", "NE",
                 "-o", str(out)]) == 0 and out.stat().st_size > 1000


def test_cli_exposure_from_observers_in_bypass(bd02, capsys) -> None:
    import json
    assert main(["exposure", "bd02", "--from", "V8:NE,U7", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = exposure(bd02, observers=["V8", "U7"], observer_hexsides=[1, None])
    assert got["hexes"] == want.to_json()["hexes"]
    y8 = bd02.parse("Y8")
    assert "V8" in got["seen_by"]["Y8"] and want.seen[0, y8]        # past X8 from the NE side
    assert not exposure(bd02, observers=["V8", "U7"]).seen[0, y8]   # not from V8's centre
    assert main(["exposure", "bd02", "--from", "V8:up"]) == 2
    assert "expected a hexside N, NE, SE, S, SW, NW or 0-5 in 'V8:up'" in capsys.readouterr().err
