"""The single query's skip of the counters (engine._counters_need_no_record,
PreparedCounters.meet_effects): a LOS that passes every effect by, or that the map blocks, gets
the bare answer on the map with rubble drawn -- and that is exactly the answer of the full path,
which traces with its record and asks :func:`counter_los.hindrances` every time.  The counter
sets are the speed bench's mix (tools/bench_counters.py: SMOKE and WP of every kind, Blazes,
vehicles, some in bypass, wrecks, an FFE, rubble)."""
from __future__ import annotations


import numpy as np
import pytest

import hexwx
from hexwx.errors import HexwxError
from hexwx.lineofsight import engine
from hexwx.lineofsight.batch import locations
from hexwx.lineofsight.counters import Counter, Counters
from hexwx.weather.asl.state import AslWeather
from hexwx.lineofsight.counter_los import _crosses_many, meet_one, meet_pairs, meet_row, prepare
from tests.vasl_boards import board
from tests.tool_helpers import load_tool

def _random_counters(m, seed: int):
    return load_tool("bench_counters").random_counters(m, 30, seed)


@pytest.fixture(scope="module")
def bd02():
    return board("bd02")


def _full(bypass: bool) -> bool:
    """The path without the skip: every query traced with its record and the counters asked
    with its thread."""
    return False


def test_meet_effects_holds_every_pair_an_effect_can_count_in(bd02) -> None:
    """Every ordered pair of bd02 whose centre-to-centre segment runs through an effect's
    polygon (the clip the queries use, in its many-segment form) or that has an effect in an
    end hex is one the rows, the single-pair form and the lookup keep, with that effect; and
    they drop a good share of the others."""
    n = len(bd02)
    src, tgt = np.divmod(np.arange(n * n), n)
    for seed in (7, 11, 23):
        prep = prepare(bd02, _random_counters(bd02, seed))
        assert prep is not None and len(prep.effects) >= 30
        g = prep.map.grid
        cx, cy = np.asarray(g.centre_x, float), np.asarray(g.centre_y, float)
        must = np.zeros((len(prep.effects), n * n), bool)
        for i, e in enumerate(prep.effects):
            must[i] = (src == e.hex) | (tgt == e.hex)
            must[i] |= _crosses_many(e, cx[src], cy[src], cx[tgt], cy[tgt])
        rows = np.zeros_like(must)
        for s in range(n):
            ei, ti = meet_pairs(prep, s)
            rows[ei, s * n + ti] = True
        assert not (must & ~rows).any(), np.argwhere(must & ~rows)[:5]
        assert np.array_equal(rows.any(axis=0), np.concatenate([meet_row(prep, s)
                                                                 for s in range(n)]))
        kept = rows.any(axis=0)
        assert (~kept).mean() > 0.2          # the filter does skip pairs
        probe = np.random.default_rng(seed).integers(0, n, (3000, 2)).tolist()
        for a, b in probe:                   # the single-pair form: the rows' answer
            assert meet_one(prep, a, b) == np.flatnonzero(rows[:, a * n + b]).tolist()
        # the lookup hindrances() asks (pairs one by one, then a source's row) keeps every
        # pair too, with its effects
        looked = [prep.meet_effects(a, b) for a, b in zip(src.tolist(), tgt.tolist())]
        look = np.array([bool(e) for e in looked])
        hit = np.zeros_like(must)
        for k, e in enumerate(looked):
            hit[e, k] = True
        assert not (must & ~hit).any()
        assert not (must.any(axis=0) & ~look).any()
        assert look.mean() < 0.8


def _answers(m, pairs, counters):
    out = []
    for a, b, la, lb, sa, sb in pairs:
        r = hexwx.los(m, a, b, from_level=la, to_level=lb, counters=counters, from_hexside=sa,
                      to_hexside=sb)
        out.append((r.blocked, r.hindrance, r.reason, r.rule, tuple(r.hindrances),
                    r.to_json()))
    return out


def _pairs(m, k: int, seed: int) -> list[tuple[int, int, int, int, int | None, int | None]]:
    """``k`` random queries: ground level mostly, any location of the map (building levels,
    rooftops) for a third of the ends, a few ends in bypass (a hexside a unit can bypass)."""
    rng = np.random.default_rng(seed)
    loc_h, loc_l = locations(m)
    out = []
    for _ in range(k):
        ends = []
        for _end in range(2):
            if rng.random() < 0.3:
                i = int(rng.integers(0, len(loc_h)))
                ends.append((int(loc_h[i]), int(loc_l[i])))
            else:
                ends.append((int(rng.integers(0, len(m))), 0))
        (a, la), (b, lb) = ends
        sa = int(rng.integers(0, 6)) if la == 0 and rng.random() < 0.08 else None
        if sa is not None:
            try:
                hexwx.los(m, a, b, from_hexside=sa)
            except HexwxError:
                sa = None
        out.append((a, b, la, lb, sa, None))
    return out


def test_skipped_queries_answer_as_the_full_path(bd02, monkeypatch) -> None:
    """Random queries (levels, bypass ends) under three 30-counter sets: blocked, DRM,
    reason, hindrance list and JSON the same with the skip as without it."""
    named = 0
    for seed in (7, 11, 23):
        counters = _random_counters(bd02, seed)
        pairs = _pairs(bd02, 4000, seed)
        fast = _answers(bd02, pairs, counters)
        with monkeypatch.context() as mp:
            mp.setattr(engine, "_counters_need_no_record", _full)
            full = _answers(bd02, pairs, counters)
        for p, f, s in zip(pairs, full, fast):
            assert f == s, (p, f[:5], s[:5])
        named += sum(any(h.name for h in f[4]) for f in full)
    assert named > 50       # the counters did show in answers


def test_rubble_alone_is_the_rubbled_map(bd02, monkeypatch) -> None:
    """Counters that only rubble hexes (no effect to meet): the answers of the map with that
    rubble, as the full path gives them, and not the bare map's."""
    built = [h for h in range(len(bd02)) if bd02.terrain_of(h).is_building][:6]
    counters = Counters(tuple(Counter("Stone Rubble", bd02.name_of(h)) for h in built))
    pairs = [(a, b, 0, 0, None, None) for a in built for b in range(0, len(bd02), 3)]
    fast = _answers(bd02, pairs, counters)
    with monkeypatch.context() as mp:
        mp.setattr(engine, "_counters_need_no_record", _full)
        assert _answers(bd02, pairs, counters) == fast
    assert fast != _answers(bd02, pairs, None)


@pytest.mark.parametrize("name,every", [("bd02", 1), ("maps/hill_village.toml", 3)])
def test_every_pair_answers_as_the_table(name: str, every: int) -> None:
    """Every ordered pair at ground level (from every ``every``-th hex), one 30-counter set, on
    bd02 and on the open village map (counters in some 40 % of the answers): the single query
    (with its skip) gives the table's blocked and DRM (the batch asks every effect of every
    pair with its own clip; tests/lineofsight/test_counters_los.py checks it against the full
    single path)."""
    m = board(name) if name == "bd02" else hexwx.load_map(name)
    counters = _random_counters(m, 5)
    t = hexwx.los_table(m, counters=counters)
    pick = np.flatnonzero(t.src % every == 0)
    got = [hexwx.los(m, a, b, counters=counters)
           for a, b in zip(t.src[pick].tolist(), t.tgt[pick].tolist())]
    assert [r.blocked for r in got] == t.blocked[pick].tolist()
    clear = [k for k, i in enumerate(pick.tolist()) if not t.blocked[i]]
    assert [got[k].hindrance for k in clear] == t.hindrance[pick[clear]].tolist()
    assert sum(got[k].hindrance > 0 for k in clear) > 1000   # (a blocked pair's DRM: the table's own)


def test_pairs_under_weather_answer_as_the_table(bd02) -> None:
    """Under Mist (the recording path, the counters asked with the thread and the effects the
    segment may meet): every pair from sixty sources gives the table's blocked, DRM and LV."""
    counters = _random_counters(bd02, 9)
    wx = AslWeather(base="Mist")
    t = hexwx.los_table(bd02, counters=counters, weather=wx)
    pick = np.flatnonzero(np.isin(t.src, np.arange(0, len(bd02), 6)))
    got = [hexwx.los(bd02, int(t.src[i]), int(t.tgt[i]), counters=counters, weather=wx)
           for i in pick.tolist()]
    assert [r.blocked for r in got] == t.blocked[pick].tolist()
    clear = [k for k, i in enumerate(pick.tolist()) if not t.blocked[i]]
    assert [got[k].hindrance for k in clear] == t.hindrance[pick[clear]].tolist()
    assert [got[k].lv for k in clear] == t.lv[pick[clear]].tolist()
    assert sum(any(h.name for h in got[k].hindrances) for k in clear) > 100
