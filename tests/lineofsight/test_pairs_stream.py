"""The streamed all-pairs table (chunks, threads) gives exactly los_table()'s answers."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hexwx import _native as K
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los, los_table
from hexwx.lineofsight.pairs import los_table_chunks, row_blocks
from hexwx.weather.asl.state import AslWeather

ROOT = Path(__file__).resolve().parents[2]
HILL = ROOT / "maps" / "hill_village.toml"
FIELDS = ROOT / "maps" / "hedgerow_fields.toml"


def _as_matrix(n: int, chunks: list) -> dict[str, np.ndarray]:
    out = {k: np.full((n, n), -99, np.int32) for k in ("range", "blocked", "hindrance", "lv")}
    for t, _ in chunks:
        out["range"][t.src, t.tgt] = t.range
        out["blocked"][t.src, t.tgt] = t.blocked
        out["hindrance"][t.src, t.tgt] = t.hindrance
        if t.lv is not None:
            out["lv"][t.src, t.tgt] = t.lv
    return out


@pytest.mark.parametrize("path", [HILL, FIELDS])
@pytest.mark.parametrize("weather", [None, AslWeather(fog_level=0, fog_drm=1)])
def test_chunks_equal_los_table(path: Path, weather: AslWeather | None) -> None:
    m = load_map(path)
    n = len(m)
    chunks = list(los_table_chunks(m, weather=weather, chunk_pairs=5000))
    assert len(chunks) > 5                        # several chunks really were streamed
    assert chunks[-1][1].done == chunks[-1][1].total == n * (n - 1)
    got = _as_matrix(n, chunks)
    src = np.concatenate([t.src for t, _ in chunks])
    tgt = np.concatenate([t.tgt for t, _ in chunks])
    assert len(set(zip(src.tolist(), tgt.tolist()))) == n * (n - 1)   # every ordered pair once
    assert not (src == tgt).any()
    ref = los_table(m, weather=weather)
    for col in ("range", "blocked", "hindrance"):
        assert np.array_equal(got[col][ref.src, ref.tgt], getattr(ref, col).astype(np.int32)), col
    if weather is not None:
        assert np.array_equal(got["lv"][ref.src, ref.tgt], ref.lv)


def test_kernel_order_is_a_then_b_interleaved_and_thread_independent() -> None:
    m = load_map(HILL)
    one = [t for t, _ in los_table_chunks(m, threads=1, chunk_pairs=3000)]
    two = [t for t, _ in los_table_chunks(m, threads=2, chunk_pairs=7000)]
    for col in ("src", "tgt", "blocked", "hindrance", "range"):
        assert np.array_equal(np.concatenate([getattr(t, col) for t in one]),
                              np.concatenate([getattr(t, col) for t in two])), col
    t = one[0]
    assert (t.src[:4].tolist(), t.tgt[:4].tolist()) == ([0, 1, 0, 2], [1, 0, 2, 0])


def test_single_queries_agree_with_streamed_pairs_sampled() -> None:
    m = load_map(FIELDS)
    rng = np.random.default_rng(3)
    for t, _ in los_table_chunks(m, chunk_pairs=20000):
        for i in rng.choice(len(t.src), 40, replace=False):
            r = los(m, int(t.src[i]), int(t.tgt[i]))
            assert (r.blocked, r.range) == (bool(t.blocked[i]), int(t.range[i]))
            if not r.blocked:
                assert r.hindrance == t.hindrance[i]


def test_row_blocks_cover_every_row_once() -> None:
    for n in (1, 2, 7, 346):
        blocks = row_blocks(n, 100)
        assert blocks[0][0] == 0 and blocks[-1][1] == n
        assert all(a1 == b0 for (_, a1), (b0, _) in zip(blocks, blocks[1:]))
        assert sum(K.row_pairs(n, a0, a1) for a0, a1 in blocks) == n * (n - 1) // 2


def test_threads_must_be_positive() -> None:
    m = load_map(HILL)
    with pytest.raises(ValueError):
        next(los_table_chunks(m, threads=0))


def test_available_cpus_follows_the_affinity() -> None:
    import os
    assert K.available_cpus() == len(os.sched_getaffinity(0))


def test_level_tables_stream_the_same_answers_in_source_order() -> None:
    m = load_map(HILL)
    for kw in ({"all_locations": True}, {"from_level": 1, "to_level": 0}):
        ref = los_table(m, **kw)
        chunks = [t for t, _ in los_table_chunks(m, chunk_pairs=200, **kw)]
        assert len(chunks) > 1 or "from_level" in kw   # (one hex has level 1 on this map)
        for col in ("src", "tgt", "src_level", "tgt_level", "range", "blocked", "hindrance"):
            assert np.array_equal(np.concatenate([getattr(t, col) for t in chunks]),
                                  getattr(ref, col)), (kw, col)
