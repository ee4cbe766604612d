"""Fog LV from the LOS kernel (E3 3.31, 3.311): every form of the query gives the single query's
answer, and the single query gives the reference rule's (:func:`hexwx.lineofsight.lv.fog_lv`).

The kernel notes each range key's lowest ground in the walk that traces the terrain and applies
the fog rule there; these tests hold it to the Python reference on real threads, hexes above
the fog included, and hold every batch form (viewshed, los_table, streamed chunks, los_pairs,
exposure) to per-pair ``los()`` under random fog levels and densities.  A blocked LOS has no
DRM (its LV is not part of the answer), so LV is compared where the LOS is clear.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map
from hexwx.lineofsight.batch import locations, los_pairs
from hexwx.lineofsight.engine import los, los_table, viewshed
from hexwx.lineofsight.pair_lv import fog_spec, fog_straight, weathered
from hexwx.lineofsight.exposure import exposure
from hexwx.lineofsight.lv import lv_hindrances
from hexwx.lineofsight.pairs import los_table_chunks
from hexwx.weather.asl.state import AslWeather

from vasl_boards import board

HILL = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"

#: hill_village (hills to level 3, buildings to level 2: clear threads over hexes above low
#: fog), bd15 (hills and upper building levels), bd09 (hills to level 4), bd12 (depressions and
#: two-level buildings).  bd02, the E3 examples' board, is tested on the examples.
MAPS = ["hill_village", "bd15", "bd09", "bd12"]


def _map(name: str) -> HexMap:
    return load_map(HILL) if name == "hill_village" else board(name)


def _weathers(seed: int, k: int = 3) -> list[AslWeather]:
    """Random fog levels (-1..3) and densities (+1..+3), always one low fog (level 0 or 1)."""
    rng = np.random.default_rng(seed)
    out = [AslWeather(fog_level=int(rng.integers(0, 2)), fog_drm=int(rng.integers(1, 4)))]
    out += [AslWeather(fog_level=int(rng.integers(-1, 4)), fog_drm=int(rng.integers(1, 4)))
            for _ in range(k - 1)]
    return out


def _same(m: HexMap, w: AslWeather, a: int, b: int, blocked: bool, lv: int,
          la: int = 0, lb: int = 0) -> None:
    r = los(m, a, b, from_level=la, to_level=lb, weather=w)
    assert r.blocked == blocked, (w.describe(), r.explain())
    if not r.blocked:
        assert r.lv == lv, (w.describe(), r.explain())


def _sample(rng: np.random.Generator, blocked: np.ndarray, clear: int, shut: int) -> np.ndarray:
    """Pair indices: mostly clear LOS (where LV is part of the answer), some blocked."""
    c, b = np.flatnonzero(~blocked), np.flatnonzero(blocked)
    return np.concatenate([rng.choice(c, min(clear, len(c)), replace=False),
                           rng.choice(b, min(shut, len(b)), replace=False)])


@pytest.mark.parametrize("name", MAPS)
def test_ground_table_and_chunks_equal_single_queries(name: str) -> None:
    m = _map(name)
    rng = np.random.default_rng(len(name))
    off_straight = 0
    for w in _weathers(len(name)):
        t = los_table(m, weather=w)
        assert t.lv is not None
        for i in _sample(rng, t.blocked, 250, 50):
            _same(m, w, int(t.src[i]), int(t.tgt[i]), bool(t.blocked[i]), int(t.lv[i]))
        # the chunks hold the same answers (pairs (a, b), (b, a) interleaved by rows)
        base, bid = m.hexes.base.astype(np.int64), m.building_ids
        other = ~t.blocked & ~((bid[t.src] >= 0) & (bid[t.src] == bid[t.tgt]))
        straight = fog_straight(fog_spec(w), base[t.src], base[t.tgt], t.range.astype(np.int64))
        off_straight += int(((straight != t.lv) & other).sum())
        n = len(m)
        for chunk, _ in los_table_chunks(m, weather=w, chunk_pairs=n * 40):
            assert chunk.lv is not None
            k = chunk.src.astype(np.int64) * (n - 1) + chunk.tgt - (chunk.tgt > chunk.src)
            assert (chunk.blocked == t.blocked[k]).all() and (chunk.lv == t.lv[k]).all()
    if name == "hill_village":
        # clear threads over hexes above the fog (fog at level 0 or 1 is always asked): the
        # LV of a thread with fog in every hex would be wrong for them
        assert off_straight > 0


@pytest.mark.parametrize("name", MAPS)
def test_viewsheds_equal_single_queries(name: str) -> None:
    m = _map(name)
    rng = np.random.default_rng(7 + len(name))
    upper = np.flatnonzero(m.hexes.levels > 0)
    for w in _weathers(17 + len(name), 2):
        sources = [(int(h), 0) for h in rng.integers(0, len(m), 2)]
        if len(upper):
            sources.append((int(rng.choice(upper)), 1))   # an upper building level
        for src, level in sources:
            v = viewshed(m, src, level=level, weather=w)
            for h in _sample(rng, v.blocked, 120, 30):
                r = los(m, src, int(h), from_level=level, weather=w)
                assert v.blocked[h] == r.blocked, (w.describe(), r.explain())
                if not r.blocked:
                    assert v.drm[h] == r.drm, (w.describe(), r.explain())


@pytest.mark.parametrize("name", MAPS)
def test_pairs_at_any_level_equal_single_queries(name: str) -> None:
    m = _map(name)
    rng = np.random.default_rng(3 + len(name))
    sh, sl = locations(m)
    for w in _weathers(29 + len(name), 2):
        i, j = rng.integers(0, len(sh), 600), rng.integers(0, len(sh), 600)
        # fire within one location (fog halved) and between two levels of one hex
        up = np.flatnonzero(sl > 0)
        extra_i = [int(k) for k in rng.integers(0, len(sh), 5)]
        extra_i += [int(k) for k in rng.choice(up, min(5, len(up)), replace=False)]
        below = np.array([k - 1 for k in extra_i if sl[k] > 0], np.int64)
        i = np.concatenate([i, extra_i, below])
        j = np.concatenate([j, extra_i, below + 1])
        a = los_pairs(m, sh[i], sh[j], sl[i], sl[j], weather=w)
        assert a.lv is not None
        for k in range(len(i)):
            _same(m, w, int(sh[i[k]]), int(sh[j[k]]), bool(a.blocked[k]), int(a.lv[k]),
                  int(sl[i[k]]), int(sl[j[k]]))


@pytest.mark.parametrize("name", MAPS)
def test_exposure_counts_equal_single_queries(name: str) -> None:
    m = _map(name)
    untraced = replace(m)     # the same map as a new object: no all-pairs trace kept for it
    rng = np.random.default_rng(11 + len(name))
    n = len(m)
    upper = np.flatnonzero(m.hexes.levels + m.hexes.rooftop >= 1)
    for w in _weathers(41 + len(name)):
        # every hex: the table's answers, themselves held to los() above
        t = los_table(m, weather=w)
        sees = np.zeros((n, n), bool)
        sees[t.src, t.tgt] = ~t.blocked
        e = exposure(m, weather=w)
        assert (e.count == sees.sum(axis=0)).all(), w.describe()
        # and directly, a few hexes against los()
        for h in rng.integers(0, n, 3).tolist():
            want = sum(1 for o in range(n) if o != h and not los(m, o, h, weather=w).blocked)
            assert e.count[h] == want, (w.describe(), m.name_of(h))
        # observers given, the map's pairs kept (m) or traced for them (untraced): the same
        obs = [int(o) for o in rng.choice(n, 4, replace=False)]
        for mm in (m, untraced):
            e2 = exposure(mm, observers=obs, weather=w)
            assert (e2.count == sees[obs].sum(axis=0)).all(), w.describe()
        # a building level, traced for the observers, against los() to that level
        if len(upper):
            e3 = exposure(untraced, level=1, observers=obs, weather=w)
            for h in rng.choice(upper, min(8, len(upper)), replace=False).tolist():
                want = sum(1 for o in obs if o != h and not los(m, o, h, to_level=1, weather=w).blocked)
                assert e3.count[h] == want, (w.describe(), m.name_of(h))


def test_exposure_fog_toggles_reuse_one_trace_and_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The map's ground pairs are traced once; every fog level and density after that is
    answered from them (fog deficits per fog top) with the answers of a fresh trace."""
    from hexwx import _native as K
    from hexwx.lineofsight import exposure as E
    from hexwx.io import load
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")     # a map of its own: no traced pairs on it yet
    monkeypatch.setattr(load, "_CACHE", type(load._CACHE)())
    m = load_map(HILL)
    calls: list[int] = []
    real = K.all_pairs_matrix

    def counting(*a, **kw):  # type: ignore[no-untyped-def]
        if (kw.get("rows") or (0, 0))[0] == 0:      # a whole trace, or the first of its blocks
            calls.append(1)
        return real(*a, **kw)
    monkeypatch.setattr(E.K, "all_pairs_matrix", counting)
    first = exposure(m)
    assert len(calls) == 1
    for level in (-1, 0, 1, 2, 3):
        for drm in (1, 3):
            w = AslWeather(fog_level=level, fog_drm=drm)
            got = exposure(m, weather=w).count
            t = los_table(weathered(m, w), weather=w)
            sees = np.zeros((len(m), len(m)), bool)
            sees[t.src, t.tgt] = ~t.blocked
            assert (got == sees.sum(axis=0)).all(), w.describe()
    assert len(calls) == 1 + 10                     # one per los_table, none for exposure
    assert (exposure(m).count == first.count).all()


def _reference_pairs(name: str, rng: np.random.Generator) -> tuple[HexMap, np.ndarray]:
    """hill_village: a viewer on a hill looks over hexes above the fog.  09,r15: bd15 turned
    round beside bd09, whose pairs are traced in the turned board's frame (keys turned back)."""
    if name == "hill_village":
        m = load_map(HILL)
        near = np.flatnonzero(m.hexes.base > 0)
    else:
        board("bd09"), board("bd15")             # skip without the VASL boards
        m = load_map(name)
        near = np.flatnonzero(m.grid.owners == 1)  # the turned board
    pairs = np.stack([rng.choice(near, 300), rng.integers(0, len(m), 300)], axis=1)
    pairs[1::4, 1] = rng.choice(near, len(pairs[1::4]))
    pairs[::2] = pairs[::2, ::-1]                # both directions (firing out of fog, A24.8)
    return m, pairs


@pytest.mark.parametrize("name", ["hill_village", "09,r15"])
def test_kernel_fog_equals_the_reference_on_threads_above_the_fog(name: str) -> None:
    """Single queries: the kernel's fog hindrances are exactly lv.fog_lv's on the query's own
    thread, over threads that cross hexes with no ground below the fog top."""
    rng = np.random.default_rng(5)
    above = 0
    for w in [AslWeather(fog_level=0, fog_drm=1), AslWeather(fog_level=0, fog_drm=3),
              AslWeather(fog_level=1, fog_drm=2), AslWeather(fog_level=2, fog_drm=1)]:
        m, pairs = _reference_pairs(name, rng)
        mw = weathered(m, w)
        for a, b in pairs.tolist():
            r = los(m, a, b, weather=w)
            ref = lv_hindrances(w, thread=r.thread, source_elevation=r.source_elevation,
                                target_elevation=r.target_elevation, range=r.range,
                                same_building=bool(mw.building_ids[a] >= 0 and
                                                   mw.building_ids[a] == mw.building_ids[b]),
                                same_location=a == b)
            lv_items = [h for h in r.hindrances if h.kind in ("fog", "firing out of fog")]
            assert lv_items == [h for h in ref if h.kind in ("fog", "firing out of fog")], r.explain()
            assert r.lv == sum(h.drm for h in ref)
            # the same thread with fog assumed in every hex: the hexes above the fog mattered
            fogged = [replace(t, low=None) for t in r.thread]
            above += sum(h.drm for h in lv_hindrances(
                w, thread=fogged, source_elevation=r.source_elevation,
                target_elevation=r.target_elevation, range=r.range)) != r.lv and a != b
    assert above > (100 if name == "hill_village" else 20)


@pytest.mark.parametrize("a, b, lv, fogged", [
    # E3 3.311 examples, board 2, fog at level 0 and lower, +1 per hex
    ("I4", "F4", 2, {"G4", "F4"}),
    ("I4", "E4", 2, {"F3/F4", "E4"}),
    ("I4", "B5", 3, {"D4/D5", "C5", "B5"}),
    ("J4", "B5", 2, {"C5", "B5"}),
    ("B5", "I4", 4, {"B5", "C5", "D5/D4"}),      # +1 firing out of fog (A24.8)
])
def test_e3_examples_through_the_kernel(a: str, b: str, lv: int, fogged: set[str]) -> None:
    r = los(board("bd02"), a, b, weather=AslWeather(fog_level=0, fog_drm=1))
    assert r.lv == lv, r.explain()
    assert {h.hex for h in r.hindrances if h.kind == "fog"} == fogged


def test_straight_thread_cube_equals_the_reference() -> None:
    """The kernel's cube of fog LV on a thread of one hex per range step (what exposure's fog
    deficits count against) is lv.lv_total_straight's, cell by cell."""
    from hexwx import _native as K
    from hexwx.lineofsight.lv import lv_total_straight
    for level in (-1, 0, 1, 2, 4):
        for drm in (1, 3):
            w = AslWeather(fog_level=level, fog_drm=drm)
            cube = K.fog_straight(fog_spec(w), -1, 6, 30)
            want = [[[lv_total_straight(w, source_elevation=a - 1, target_elevation=b - 1, range=r)
                      for r in range(30)] for b in range(6)] for a in range(6)]
            assert cube.tolist() == want, w.describe()


def test_pairs_whose_fog_deficit_is_capped_are_traced_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fog deficit is kept up to 255 (no real map comes near); a pair at 255 has its fog LV
    traced again.  Stored pairs with every deficit set to 255 must still give the answers of a
    fresh trace, for every observer and for a few."""
    from hexwx.lineofsight import exposure as E
    from hexwx.io import load
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")     # a map of its own, its pairs traced here
    monkeypatch.setattr(load, "_CACHE", type(load._CACHE)())
    m = load_map(HILL)
    gp = E.ground_pairs(m)
    assert gp.fog_deficit, "expected a fog top some thread clears"
    capped = {top: np.where(d > 0, np.uint8(255), d) for top, d in gp.fog_deficit.items()}
    monkeypatch.setitem(E._PAIRS, m, gp._replace(fog_deficit=capped))
    retraced: list[int] = []
    real = E.K.trace_many

    def counting(*a, **kw):  # type: ignore[no-untyped-def]
        retraced.append(len(a[2]))
        return real(*a, **kw)
    monkeypatch.setattr(E.K, "trace_many", counting)
    for top in sorted(capped):
        w = AslWeather(fog_level=top - 1, fog_drm=3)       # fog up to this top, dense
        t = los_table(weathered(m, w), weather=w)
        sees = np.zeros((len(m), len(m)), bool)
        sees[t.src, t.tgt] = ~t.blocked
        assert (exposure(m, weather=w).count == sees.sum(axis=0)).all(), w.describe()
        few = [3, 40, 77]
        assert (exposure(m, observers=few, weather=w).count == sees[few].sum(axis=0)).all()
    assert retraced and sum(retraced) >= sum(int((d == 255).sum()) for d in capped.values())
