"""The byte-bounded caches: maps and the kernel's prepared copies cannot grow without bound."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hexwx import _native
from hexwx._cache import ByteLRU, nbytes_of
from hexwx.io import load
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los

ROOT = Path(__file__).resolve().parents[1]


def test_lru_evicts_least_recently_used_past_the_budget() -> None:
    c: ByteLRU[np.ndarray] = ByteLRU(budget=lambda: 3000)
    for k in "abc":
        c.put(k, np.zeros(1000, np.uint8))
    assert len(c) == 3 and c.nbytes() == 3000
    assert c.get("a") is not None          # a is now the most recent
    c.put("d", np.zeros(1000, np.uint8))
    assert "b" not in c and {"a", "c", "d"} <= {k for k in "abcd" if k in c}
    c.put("big", np.zeros(10_000, np.uint8))  # bigger than the budget: kept alone
    assert len(c) == 1 and c.get("big") is not None


def test_nbytes_counts_derived_arrays_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")  # (through the on-disk cache, all is derived at load)
    p = tmp_path / "fresh.toml"       # a map no other test has derived data of
    p.write_text((ROOT / "maps" / "hill_village.toml").read_text())
    m = load_map(p)
    before = nbytes_of(m)
    m.kernel_map
    assert nbytes_of(m) > before >= m.elevation.nbytes + m.terrain.nbytes


def test_map_cache_is_bounded_by_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load._CACHE.clear()
    monkeypatch.setenv("HEXWX_MAP_CACHE_MB", "3")   # less than two maps with their kernel arrays
    paths = []
    for i in range(3):
        p = tmp_path / f"m{i}.toml"
        p.write_text((ROOT / "maps" / "hill_village.toml").read_text())
        paths.append(p)
    maps = []
    for p in paths:
        m = load_map(p)
        los(m, "A1", "C5")           # derive the kernel arrays, as a real run does
        maps.append(m)
    assert nbytes_of(maps[0]) > 3 * 2**20           # (so only the newest map fits)
    assert len(load._CACHE) == 1
    assert load_map(paths[-1]) is maps[-1]           # the newest stays cached
    assert load_map(paths[0]) is not maps[0]         # an evicted map is loaded again
    assert len(_native._PREPARED) == 1               # the kernel's copies are bounded too
