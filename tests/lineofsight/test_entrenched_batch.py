"""Entrenched ends in the batch forms (B27.2): ``los_pairs(src_entrenched=, tgt_entrenched=)``,
``viewshed(from_entrenched=)``, ``exposure(observer_entrenched=)``, ``hexwx los-batch`` with
entrenchment columns and ``Scenario.viewshed`` of an entrenched unit answer exactly as the
single ``los(from_entrenched=, to_entrenched=)`` for the same ends, on real boards with walls
and hedges (VASL's boards 2 and 4), under weather and counters too."""
from __future__ import annotations

import json

import numpy as np
import pytest

import hexwx
from hexwx.cli import main
from hexwx.errors import UsageError
from hexwx.lineofsight.batch import los_pairs
from hexwx.lineofsight.engine import viewshed
from hexwx.lineofsight.entrenchment import GROUND_ONLY, flags_array
from hexwx.lineofsight.exposure import exposure
from hexwx.weather.asl.state import AslWeather
from tests.los_compare import batch_answer, single_answer
from tests.vasl_boards import board

COUNTERS = ("White +3 Smoke@E6", "vehicle:T-34 M43@C6", "Burnt Out Wreck@G4")
WEATHER = AslWeather(fog_level=0, fog_drm=1)


@pytest.fixture(scope="module", params=["bd02", "bd04"])
def walled(request):
    return board(request.param)


@pytest.fixture(scope="module")
def bd02():
    return board("bd02")


def _near_walls(m) -> np.ndarray:
    """The hexes with hexside terrain (walls, hedges) on some hexside, and their neighbours:
    where B27.2 can change an answer."""
    h6 = m.kernel_map[4]
    walled = np.flatnonzero((h6[:, :, 2] >= 0).any(axis=1))
    nb = h6[walled, :, 1].ravel()
    return np.unique(np.concatenate([walled, nb[nb >= 0]])).astype(np.int64)


@pytest.mark.parametrize("weather,counters", [(None, None), (WEATHER, COUNTERS)],
                         ids=["clear", "weather+counters"])
def test_los_pairs_with_entrenched_ends_equal_single_queries(walled, weather, counters) -> None:
    """The property over 800 pairs near walls and hedges, each end entrenched or not, with
    bypass hexsides on some: every answer is the single query's, and the flags matter (B27.2
    blocks pairs the open ends see)."""
    rng = np.random.default_rng(23)
    near = _near_walls(walled)
    src = rng.choice(near, 800)
    tgt = rng.choice(near, 800)
    es = (rng.random(800) < 0.6).tolist()
    et = (rng.random(800) < 0.4).tolist()
    ts = [int(rng.choice(np.flatnonzero(walled.kernel_map[4][t, :, 0]))) if rng.random() < 0.2
          else None for t in tgt]
    a = los_pairs(walled, src, tgt, weather=weather, counters=counters, src_entrenched=es,
                  tgt_entrenched=et, tgt_hexside=ts)
    plain = los_pairs(walled, src, tgt, weather=weather, counters=counters, tgt_hexside=ts)
    assert a.src_entrenched is not None and a.src_entrenched.sum() == sum(es)
    rules = set()
    for i in range(800):
        r = hexwx.los(walled, int(src[i]), int(tgt[i]), weather=weather, counters=counters,
                      from_entrenched=es[i], to_entrenched=et[i], to_hexside=ts[i])
        assert batch_answer(walled, a, i) == single_answer(r), (i, walled.name_of(int(src[i])), es[i],
                                                    walled.name_of(int(tgt[i])), et[i])
        rules.add(r.rule)
    assert "B27.2" in rules
    changed = int((a.blocked & ~plain.blocked).sum())
    assert changed >= 5 and not (plain.blocked & ~a.blocked).any()   # it only ever blocks more


def test_one_flag_for_all_pairs_and_bad_flags(bd02) -> None:
    a = los_pairs(bd02, ["E5", "E5"], ["A5", "D5"], src_entrenched=True)
    assert a.blocked.tolist() == [True, False]        # A5 over E5's wall: B27.2; D5 adjacent
    assert a.reason_of(0)[1] == "B27.2"
    none = los_pairs(bd02, ["E5"], ["A5"], src_entrenched=[False])
    assert none.src_entrenched is None and not none.blocked[0]
    with pytest.raises(UsageError, match=r"^2 tgt_entrenched for 1 pairs"):
        los_pairs(bd02, ["E5"], ["A5"], tgt_entrenched=[True, False])
    with pytest.raises(UsageError, match=r"^bad src_entrenched 'yes'; expected True or False"):
        los_pairs(bd02, ["E5"], ["A5"], src_entrenched="yes")
    with pytest.raises(UsageError, match=r"^bad tgt_level 1; expected 0: a unit in an "
                                         r"entrenchment is at its hex's ground level"):
        los_pairs(board("bd04"), [0], [_upper(board("bd04"))], tgt_level=1, tgt_entrenched=True)


def _upper(m) -> int:
    """A hex with a Location above ground (a building level or rooftop)."""
    return int(np.flatnonzero(m.hexes.levels + m.hexes.rooftop.astype(int) > 0)[0])


@pytest.mark.parametrize("weather,counters", [(None, None), (WEATHER, COUNTERS)],
                         ids=["clear", "weather+counters"])
def test_viewshed_from_an_entrenchment_equals_los(walled, weather, counters) -> None:
    rng = np.random.default_rng(9)
    differs = 0
    for h in rng.choice(_near_walls(walled), 5, replace=False).tolist():
        vs = viewshed(walled, h, weather=weather, counters=counters, from_entrenched=True)
        assert vs.entrenched and "in an entrenchment" in repr(vs) and vs.to_json()["entrenched"]
        for t in range(len(walled)):
            r = hexwx.los(walled, h, t, weather=weather, counters=counters, from_entrenched=True)
            assert bool(vs.blocked[t]) == r.blocked, (h, t)
            if not r.blocked:
                assert int(vs.drm[t]) == r.drm, (h, t)
        differs += int((vs.blocked != viewshed(walled, h, weather=weather,
                                               counters=counters).blocked).sum())
    assert differs > 0
    assert "entrenched" not in viewshed(walled, 0).to_json()


def test_viewshed_entrenched_must_be_at_ground_level(bd02) -> None:
    with pytest.raises(UsageError, match="from_entrenched"):
        viewshed(bd02, "E5", from_entrenched="yes")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^bad level 1; expected 0: a unit in an entrenchment"):
        viewshed(board("bd04"), _upper(board("bd04")), level=1, from_entrenched=True)


def test_exposure_from_entrenched_observers_equals_los_and_says_so(bd02) -> None:
    rng = np.random.default_rng(4)
    obs = sorted(rng.choice(_near_walls(bd02), 6, replace=False).tolist())
    ents = [True, False, True, True, False, True]
    sides = [None, 1, None, None, None, None]
    for weather, counters in ((None, None), (WEATHER, COUNTERS)):
        e = exposure(bd02, observers=obs, observer_entrenched=ents, observer_hexsides=sides,
                     weather=weather, counters=counters)
        for k, o in enumerate(obs):
            for t in range(len(bd02)):
                r = hexwx.los(bd02, o, t, weather=weather, counters=counters,
                              from_entrenched=ents[k], from_hexside=sides[k])
                assert bool(e.seen[k, t]) == (not r.blocked and o != t), (o, t)
    got = e.to_json()
    assert got["observer_entrenched"] == ents and got["observer_hexsides"] == sides
    assert got["observers"] == [bd02.name_of(o) for o in obs]
    assert "in an entrenchment" in e.describe() and "in bypass NE" in e.describe()
    plain = exposure(bd02, observers=obs).to_json()
    assert "observer_entrenched" not in plain and "observer_hexsides" not in plain
    with pytest.raises(UsageError, match="observer_entrenched needs observers"):
        exposure(bd02, observer_entrenched=True)
    with pytest.raises(UsageError, match=r"^1 observer_entrenched for 6 pairs"):
        exposure(bd02, observers=obs, observer_entrenched=[True])


def test_exposure_json_lists_the_observers_hexsides(bd02) -> None:
    got = exposure(bd02, observers=["V8", "U7"], observer_hexsides=[1, None]).to_json()
    assert got["observer_hexsides"] == [1, None] and "observer_entrenched" not in got


def test_cli_los_batch_reads_entrenchment_columns(bd02, tmp_path, capsys) -> None:
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("src,tgt,src_entrenched,tgt_entrenched,tgt_hexside\n"
                     "E5,A5,1,,\nE5,A5,,,\nA5,E5,no,yes,\nE5,D5,true,,\nA5,E5,0,1,NE\n")
    assert main(["los-batch", "bd02", str(pairs), "--format", "jsonl"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    ends = [("E5", "A5", True, False, None), ("E5", "A5", False, False, None),
            ("A5", "E5", False, True, None), ("E5", "D5", True, False, None),
            ("A5", "E5", False, True, 1)]
    for row, (a, b, ea, eb, side) in zip(rows, ends):
        r = hexwx.los(bd02, a, b, from_entrenched=ea, to_entrenched=eb, to_hexside=side)
        assert (row["blocked"], row["rule"], row["reason"]) == (r.blocked, r.rule, r.reason)
        assert (row["source_location"], row["target_location"]) == (r.source_location,
                                                                    r.target_location)
    assert [r["blocked"] for r in rows[:4]] == [True, False, True, False]
    assert rows[4]["target_location"].endswith("in an entrenchment in bypass NE")
    assert main(["los-batch", "bd02", str(pairs), "--format", "csv"]) == 0
    head, first = capsys.readouterr().out.splitlines()[:2]
    assert "in an entrenchment" in first and head.startswith("source,target")
    pairs.write_text("src,tgt,src_entrenched\nE5,A5,maybe\n")
    assert main(["los-batch", "bd02", str(pairs)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 2: src_entrenched 'maybe' is not 1/0" in err[0]
    bd04 = board("bd04")
    pairs.write_text(f"src,tgt,tgt_level,tgt_entrenched\nA1,{bd04.name_of(_upper(bd04))},1,1\n")
    assert main(["los-batch", "bd04", str(pairs)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 2: tgt_level 1 with tgt_entrenched: a unit in an " \
                             "entrenchment is at its hex's ground level" in err[0]


def test_scenario_viewshed_of_an_entrenched_unit(bd02) -> None:
    from dataclasses import replace
    from hexwx.io.scenario import Scenario, ScenarioUnit
    units = (ScenarioUnit("dug-in", "Axis", "E5", entrenched=True),
             ScenarioUnit("rifles", "Allied", "A5"))
    sc = replace(Scenario.on_map(bd02), units=units)
    vs = sc.viewshed("dug-in")
    want = viewshed(bd02, "E5", from_entrenched=True, counters=sc.los_counters,
                    weather=sc.weather)
    a5 = bd02.parse("A5")
    assert vs.entrenched and (vs.blocked == want.blocked).all() and (vs.drm == want.drm).all()
    assert vs.blocked[a5] and not viewshed(bd02, "E5").blocked[a5]
    assert not sc.viewshed("dug-in", from_entrenched=False).blocked[a5]
    assert not sc.viewshed("rifles").entrenched
    assert dict(sc.sight("rifles"))[units[0]].blocked      # sight: the same B27.2


def test_cli_exposure_with_entrenched_observers(bd02, capsys) -> None:
    assert main(["exposure", "bd02", "--from", "E5,V8:NE", "--entrenched", "E5", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = exposure(bd02, observers=["E5", "V8"], observer_hexsides=[None, 1],
                    observer_entrenched=[True, False])
    assert got["hexes"] == want.to_json()["hexes"]
    assert got["observer_entrenched"] == [True, False] and got["observer_hexsides"] == [None, 1]
    assert "E5" not in got["seen_by"].get("A5", [])            # over its own wall: B27.2
    assert exposure(bd02, observers=["E5"]).seen_by("A5") == ["E5"]   # out of it, it does
    assert main(["exposure", "bd02", "--from", "E5", "--entrenched", "E5"]) == 0
    assert "E5 in an entrenchment" in capsys.readouterr().out
    assert main(["exposure", "bd02", "--from", "E5", "--entrenched", "A5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--entrenched 'A5' is not one of the --from observers" in err[0]
    assert main(["exposure", "bd02", "--entrenched", "A5"]) == 2
    assert "--entrenched needs --from" in capsys.readouterr().err


def test_flags_array_reads_one_flag_or_one_per_pair() -> None:
    """No map needed: None and all-False give None (no end entrenched), one bool fills every
    pair, a sequence or a numpy bool array gives one per pair; a non-bool, a wrong length and an
    entrenched end above ground are one-line errors naming the parameter."""
    assert flags_array(3, None, "p") is None and flags_array(3, False, "p") is None
    assert flags_array(3, True, "p").tolist() == [1, 1, 1]
    assert flags_array(3, [True, False, True], "p").tolist() == [1, 0, 1]
    assert flags_array(2, np.array([False, True]), "p").tolist() == [0, 1]
    assert flags_array(2, [np.bool_(True), False], "p").tolist() == [1, 0]
    with pytest.raises(UsageError, match=r"^bad p 1; expected True or False"):
        flags_array(2, [1, 0], "p")
    with pytest.raises(UsageError, match=r"^3 p for 2 pairs"):
        flags_array(2, [True] * 3, "p")
    with pytest.raises(UsageError, match=r"^bad lvl 2; expected " + GROUND_ONLY.replace("(", r"\(")
                       .replace(")", r"\)")):
        flags_array(2, [False, True], "p", np.array([0, 2]), "lvl")
    assert flags_array(2, [True, False], "p", np.array([0, 2]), "lvl").tolist() == [1, 0]
