"""Exposure heat maps agree with single LOS queries, pair by pair."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from hexwx.errors import UsageError
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from hexwx.lineofsight.exposure import exposure
from hexwx.weather.asl.state import AslWeather, Drift

MAP = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"
WEATHERS = [None, AslWeather(fog_level=0, fog_drm=1), AslWeather(base="Mist"),
            AslWeather(rain=True, heavy=True), AslWeather(ground_snow=True, drifts=(Drift("D6", 0), Drift("I4", 3)))]


@pytest.fixture(scope="module")
def m():  # type: ignore[no-untyped-def]
    return load_map(MAP)


def _seen_by(m, observers, h, level, w) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for o in observers if o != h and not los(m, o, h, to_level=level, weather=w).blocked)


@pytest.mark.parametrize("w", WEATHERS, ids=lambda w: "clear" if w is None else w.describe()[:20])
def test_counts_equal_single_queries(m, w) -> None:  # type: ignore[no-untyped-def]
    e = exposure(m, weather=w)
    rnd = random.Random(7)
    for h in rnd.sample(range(len(m)), 6):
        assert e.count[h] == _seen_by(m, range(len(m)), h, 0, w), m.name_of(h)
    obs = ["J4", "N7", "C5"]
    e2 = exposure(m, observers=obs, weather=w)
    ids = [m.parse(o) for o in obs]
    for h in rnd.sample(range(len(m)), 40):
        assert e2.count[h] == _seen_by(m, ids, h, 0, w)
        assert e2.seen_by(m.name_of(h)) == [o for o, i in zip(obs, ids)
                                            if i != h and not los(m, i, h, weather=w).blocked]


def test_upper_level_counts_only_hexes_with_that_level(m) -> None:  # type: ignore[no-untyped-def]
    e = exposure(m, level=1, observers=["J4", "A1", "N7"])
    has = np.flatnonzero(m.hexes.levels + m.hexes.rooftop >= 1)
    assert len(has) and (e.count[has] >= 0).all()
    assert (np.delete(e.count, has) == -1).all()
    for h in has:
        assert e.count[h] == _seen_by(m, [m.parse(o) for o in ("J4", "A1", "N7")], int(h), 1, None)
    assert e.of(m.name_of(int(has[0]))) is not None and e.of("A1") is None


def test_json_and_words(m) -> None:  # type: ignore[no-untyped-def]
    e = exposure(m, observers=["J4"])
    d = e.to_json()
    assert d["observers"] == ["J4"] and d["max"] == 1 and len(d["hexes"]) == len(m)
    assert "most seen" in e.describe()
    assert e._repr_png_()[:4] == b"\x89PNG"


@pytest.mark.parametrize("bad", [{"level": -1}, {"level": 1.5}, {"observers": ["Z99"]},
                                 {"observers": [10_000]}])
def test_bad_input_is_a_usage_error(m, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError):
        exposure(m, **bad)


def test_concurrent_askers_share_one_all_pairs_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from hexwx.io import load
    from hexwx.lineofsight import exposure as E
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")          # a map of its own: nothing traced yet
    monkeypatch.setattr(load, "_CACHE", type(load._CACHE)())
    m = load_map(Path(__file__).resolve().parents[2] / "maps" / "hedgerow_fields.toml")
    calls: list[int] = []
    real = E.K.all_pairs_matrix

    def counting(*a, **kw):  # type: ignore[no-untyped-def]
        if kw.get("rows", (0, 0))[0] == 0:           # a trace's first block of rows
            calls.append(1)
        return real(*a, **kw)
    monkeypatch.setattr(E.K, "all_pairs_matrix", counting)
    out: list[np.ndarray] = []
    ts = [threading.Thread(target=lambda w=w: out.append(exposure(m, weather=w).count))
          for w in WEATHERS[:4]]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(calls) == 1 and len(out) == 4
    assert all(any((o == exposure(m, weather=w).count).all() for o in out) for w in WEATHERS[:4])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 346, 1332])
def test_trace_blocks_cover_every_row_once_with_about_equal_pairs(n: int) -> None:
    from hexwx.lineofsight.exposure import TRACE_BLOCKS, trace_blocks
    blocks = trace_blocks(n)
    assert (blocks[0][0] if blocks else 0) == 0 and (blocks[-1][1] if blocks else 0) == n
    assert all(a1 == b0 for (_a0, a1), (b0, _b1) in zip(blocks, blocks[1:]))
    assert all(a0 < a1 for a0, a1 in blocks)
    pairs = [sum(n - 1 - a for a in range(a0, a1)) for a0, a1 in blocks]
    if n >= 346:
        assert TRACE_BLOCKS <= len(blocks) <= TRACE_BLOCKS + 2
        assert max(pairs) <= n * (n - 1) // 2 / TRACE_BLOCKS + 1, pairs


def test_the_trace_in_blocks_of_rows_is_the_whole_trace(m) -> None:  # type: ignore[no-untyped-def]
    from hexwx import _native as K
    from hexwx.lineofsight.exposure import _deficit_tops
    args = (m.kernel_map, m.kernel_terrain, m.hexes.base.astype(np.int64), m.thread_capacity)
    tops = _deficit_tops(m)
    assert tops
    whole = K.all_pairs_matrix(*args, 2, None, tops)
    out = None
    for rows in [(0, 5), (5, 6), (6, 6), (6, 100), (100, len(m))]:
        out = K.all_pairs_matrix(*args, 1, None, tops, rows=rows, out=out)
    assert out is not None and len(out) == len(whole) == 3
    for a, b in zip(whole, out):
        assert np.array_equal(a, b)
    part = K.all_pairs_matrix(*args, 1, None, tops, rows=(6, 100))
    assert (part[0][:6] == 0).all() and (part[0][100:, 100:] == 0).all() and part[0][6:100].any()
    with pytest.raises(ValueError):
        K.all_pairs_matrix(*args, 1, None, tops, rows=(5, 4))
    with pytest.raises(ValueError):
        K.all_pairs_matrix(*args, 1, None, (), rows=(0, 5), out=out)     # no deficits asked


def test_an_asker_in_a_hurry_gives_a_slower_trace_every_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """hexwx serve traces in the background on fewer threads; an exposure asked meanwhile makes
    the rest of the trace (its next blocks of rows) run on every CPU, and gets its answer."""
    import threading
    import time

    from hexwx.io import load
    from hexwx.lineofsight import exposure as E
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")          # a map of its own: nothing traced yet
    monkeypatch.setattr(load, "_CACHE", type(load._CACHE)())
    mine = load_map(MAP)
    asked: list[int | None] = []
    real = E.K.all_pairs_matrix

    def recording(*a, **kw):  # type: ignore[no-untyped-def]
        asked.append(a[4])
        if len(asked) == 1:                           # the first block: until the asker comes
            deadline = time.monotonic() + 20
            while not (mine in E._HURRY and E._HURRY[mine].is_set()) and time.monotonic() < deadline:
                time.sleep(0.005)
        return real(*a, **kw)
    monkeypatch.setattr(E.K, "all_pairs_matrix", recording)
    warm = threading.Thread(target=E.ground_pairs, args=(mine,), kwargs={"threads": 1})
    warm.start()
    while not asked:
        time.sleep(0.005)
    got = E.ground_pairs(mine)                         # waits for the trace, hurrying it
    warm.join()
    assert asked[0] == 1 and len(asked) == len(E.trace_blocks(len(mine)))
    assert all(t is None for t in asked[1:])
    whole = real(mine.kernel_map, mine.kernel_terrain, mine.hexes.base.astype(np.int64),
                 mine.thread_capacity, None, None, E._deficit_tops(mine))
    assert np.array_equal(got.reasons, whole[0]) and np.array_equal(got.hindrance, whole[1])
