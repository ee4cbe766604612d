"""Reciprocity at every level (A6.1; DESIGN principle 2): for every pair of locations of a map --
ground, building levels, rooftops, two levels of one hex -- LOS A -> B and B -> A agree on blocked
and on the terrain hindrance.  The default suite checks the village map and board 10 (rowhouses
and rooftops); the slow suite every board in $HEXWX_VASL_DIR/boards."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vasl_boards import all_boards, board
from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map
from hexwx.lineofsight.batch import locations, los_pairs

ROOT = Path(__file__).resolve().parents[2]


def assert_reciprocal(m: HexMap) -> int:
    """Trace every unordered pair of distinct locations both ways; returns the number of pairs."""
    h, lv = locations(m)
    i, j = np.triu_indices(len(h), k=1)
    there = los_pairs(m, h[i], h[j], lv[i], lv[j])
    back = los_pairs(m, h[j], h[i], lv[j], lv[i])
    bad = there.blocked != back.blocked
    both_clear = ~there.blocked & ~back.blocked
    bad |= both_clear & (there.hindrance != back.hindrance)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        a, b = (m.name_of(int(h[i[k]])), int(lv[i[k]])), (m.name_of(int(h[j[k]])), int(lv[j[k]]))
        pytest.fail(f"{int(bad.sum())} pairs not reciprocal, e.g. {a} <-> {b}: "
                    f"{there.reason_of(k)} / {back.reason_of(k)}, hindrance "
                    f"{there.hindrance[k]} / {back.hindrance[k]}")
    return len(i)


def test_village_reciprocal_at_every_level() -> None:
    assert assert_reciprocal(load_map(ROOT / "maps" / "hill_village.toml")) > 50_000


@pytest.mark.slow
def test_hedgerow_fields_reciprocal() -> None:
    assert assert_reciprocal(load_map(ROOT / "maps" / "hedgerow_fields.toml")) > 50_000


def test_board_10_reciprocal_at_every_level() -> None:
    m = board("bd10")
    assert int(m.hexes.rooftop.sum()) > 0
    assert assert_reciprocal(m) > 70_000


@pytest.mark.slow
@pytest.mark.parametrize("name", all_boards())
def test_every_board_reciprocal_at_every_level(name: str) -> None:
    assert_reciprocal(board(name))
