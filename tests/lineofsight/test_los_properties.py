"""Properties of LOS on the bundled maps: reciprocity, monotonicity in hindrances, and the batch
forms (``los_table``, ``viewshed``) agreeing with single ``los`` queries."""
from __future__ import annotations

import atexit
import shutil
import tempfile
import tomllib
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import LosTable, los, los_table, viewshed

ROOT = Path(__file__).resolve().parents[2]
MAP_FILES = {p.stem: p for p in sorted((ROOT / "maps").glob("*.toml"))}
NAMES = sorted(MAP_FILES)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def bundled(name: str) -> HexMap:
    return load_map(MAP_FILES[name])


@lru_cache(maxsize=None)
def table(name: str) -> LosTable:
    return los_table(bundled(name))


def pairs() -> st.SearchStrategy[tuple[str, int, int]]:
    return st.sampled_from(NAMES).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, len(bundled(n)) - 1),
                            st.integers(0, len(bundled(n)) - 1)))


# -- reciprocity ---------------------------------------------------------------------------

@FAST
@given(pairs())
def test_los_is_reciprocal(p: tuple[str, int, int]) -> None:
    name, a, b = p
    m = bundled(name)
    ab, ba = los(m, a, b), los(m, b, a)
    assert ab.blocked == ba.blocked
    assert ab.range == ba.range == m.grid.distance(a, b)
    if not ab.blocked:
        assert ab.hindrance == ba.hindrance
        assert sorted(h.drm for h in ab.hindrances) == sorted(h.drm for h in ba.hindrances)


@pytest.mark.parametrize("name", NAMES)
def test_all_pairs_are_reciprocal(name: str) -> None:
    m, t = bundled(name), table(name)
    n = len(m)
    blocked = np.zeros((n, n), bool)
    hind = np.zeros((n, n), np.int64)
    blocked[t.src, t.tgt] = t.blocked
    hind[t.src, t.tgt] = t.hindrance
    assert np.array_equal(blocked, blocked.T)
    clear = ~blocked & ~blocked.T
    assert np.array_equal(np.where(clear, hind, 0), np.where(clear, hind.T, 0))


# -- adding a hindrance ---------------------------------------------------------------------

_TMP = Path(tempfile.mkdtemp(prefix="hexwx-props-"))
atexit.register(shutil.rmtree, _TMP, True)


def open_hexes(name: str) -> list[str]:
    """Hexes of a bundled map that the file leaves open ground and off the roads."""
    doc = tomllib.loads(MAP_FILES[name].read_text())
    m = bundled(name)
    taken = {m.parse(n) for names in doc.get("terrain", {}).values() for n in names}
    taken |= {m.parse(n) for runs in doc.get("roads", {}).values() for run in runs for n in run}
    return [m.name_of(h) for h in range(len(m)) if h not in taken]


@lru_cache(maxsize=64)
def with_grain(name: str, hexname: str) -> HexMap:
    """The bundled map with one more grain hex (written as a new map file)."""
    doc = MAP_FILES[name].read_text()
    # add the hex to the grain list (create one if the map has none)
    if "\ngrain = [" in doc:
        text = doc.replace("\ngrain = [", f'\ngrain = ["{hexname}", ', 1)
    else:
        text = doc.replace("[terrain]\n", f'[terrain]\ngrain = ["{hexname}"]\n', 1)
    p = _TMP / f"{name}-{hexname}.toml"
    p.write_text(text)
    m = load_map(p)
    assert m.terrain_of(m.parse(hexname)).name == "Grain"
    return m


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES).flatmap(
    lambda n: st.tuples(st.just(n), st.sampled_from(open_hexes(n)),
                        st.lists(st.integers(0, len(bundled(n)) - 1), min_size=3, max_size=3))))
def test_adding_grain_never_clears_a_block_or_lowers_a_hindrance(
        p: tuple[str, str, list[int]]) -> None:
    name, hexname, sources = p
    before, after = bundled(name), with_grain(name, hexname)
    g = after.parse(hexname)
    # sources: three random hexes and hexes next to the new grain (threads through it)
    for s in sources + after.grid.adjacent(g)[:2]:
        v0, v1 = viewshed(before, s), viewshed(after, s)
        assert not (v0.blocked & ~v1.blocked).any(), \
            f"{hexname} grain clears LOS from {before.name_of(s)}"
        clear = ~v1.blocked
        assert (v1.drm[clear] >= v0.drm[clear]).all()


# -- batch forms equal single queries ---------------------------------------------------

def compare_table_with_single(name: str, sources: np.ndarray) -> int:
    m, t = bundled(name), table(name)
    sel = np.isin(t.src, sources)
    bad = []
    for s, g, b, h, r in zip(t.src[sel], t.tgt[sel], t.blocked[sel], t.hindrance[sel],
                             t.range[sel]):
        one = los(m, int(s), int(g))
        if one.blocked != bool(b) or one.range != int(r) or (not b and one.hindrance != int(h)):
            bad.append(f"{m.name_of(int(s))}->{m.name_of(int(g))}")
    assert bad == [], f"{len(bad)} pairs differ, e.g. {bad[:5]}"
    return int(sel.sum())


def test_los_table_shape() -> None:
    m, t = bundled("hill_village"), table("hill_village")
    n = len(m)
    assert len(t.src) == n * (n - 1) == 119_370
    assert not (t.src == t.tgt).any()
    assert len(set(zip(t.src.tolist(), t.tgt.tolist()))) == n * (n - 1)
    assert np.array_equal(t.range, m.grid.distance_matrix()[t.src, t.tgt])


def test_los_table_equals_single_queries_on_every_pair_of_hill_village() -> None:
    """The batch form gives exactly the single query's answer on all 119,370 ordered pairs."""
    n = len(bundled("hill_village"))
    assert compare_table_with_single("hill_village", np.arange(n)) == n * (n - 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_los_table_equals_single_queries_on_every_pair(name: str) -> None:
    n = len(bundled(name))
    assert compare_table_with_single(name, np.arange(n)) == n * (n - 1)


@pytest.mark.parametrize("name,source,level", [
    ("hill_village", "J4", 0),      # hilltop
    ("hill_village", "C5", 0),      # village
    ("hill_village", "D4", 2),      # upper level of the 2-level stone building
    ("hedgerow_fields", "K4", 0),
    ("hedgerow_fields", "A1", 0),
])
def test_viewshed_equals_single_queries(name: str, source: str, level: int) -> None:
    m = bundled(name)
    v = viewshed(m, source, level=level)
    src = m.parse(source)
    assert v.source == source and v.level == level
    assert np.array_equal(v.range, m.grid.distances_from(src))
    for h in range(len(m)):
        if h == src:
            continue
        r = los(m, src, h, from_level=level)
        assert bool(v.blocked[h]) == r.blocked, m.name_of(h)
        if not r.blocked:
            assert int(v.drm[h]) == r.drm, m.name_of(h)
