"""Hillocks (ASL F6.4, LOS-SPEC 4.6 R10): two units on hillocks at the same level see each
other over intervening hillocks (and other half-level terrain at that level), while a unit off
the hillocks is still blocked by them as by any half-level obstacle (A6.2).  Board 4 with the
desert overlay h3 (``$HEXWX_VASL_DIR/overlays``), whose hillock hexes hexwx reads from the art
(tests/io/test_overlays.py)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from vasl_boards import vasl_dir

import hexwx


@pytest.fixture(scope="module")
def h3():
    vasl_dir()
    m = hexwx.load_map("04+h3:T6:T5")
    hill = m.table.code_named("Hillock")
    names = [m.grid.name(h) for h in np.flatnonzero(m.hexes.centre == hill)]
    assert len(names) >= 10
    return m, names


def test_units_on_hillocks_see_each_other_over_other_hillocks(h3) -> None:
    """F6.4: LOS between two units on hillocks at the same level is not blocked by hillocks."""
    m, names = h3
    pairs = list(itertools.combinations(names, 2))
    crossing = 0
    for a, b in pairs:
        r = hexwx.los(m, a, b)
        assert not r.blocked and not r.hindrances, (a, b, r.reason)
        assert hexwx.los(m, b, a).blocked is False
        crossing += any(t.name not in (a, b) and t.name in names for t in r.thread)
    assert crossing >= 20    # most of these threads cross another hillock hex


@pytest.mark.parametrize("a,b,via", [("S6", "X6", "T6"), ("S6", "W6", "T5"), ("T6", "X6", "U7")])
def test_a_unit_off_the_hillocks_is_blocked_by_them(h3, a: str, b: str, via: str) -> None:
    """A6.2: a hillock is a half-level obstacle for a LOS at its level that does not run from
    hillock to hillock (here one end or both off the hillocks)."""
    m, names = h3
    r = hexwx.los(m, a, b)
    assert r.blocked and r.blocking_hex == via, r
    assert r.rule == "A6.2"

