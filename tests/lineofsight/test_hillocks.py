"""Hillocks (ASL F6.4, LOS-SPEC 4.6 R10, VASL's ``checkHillockRule``): two units on hillocks at
the same level see each other over intervening hillocks (and other half-level terrain at that
level); a unit on a hillock sees a unit off them over its own hillock, the hillock next to the
other unit and one other hillock, not a second; a unit off the hillocks (not entrenched) sees
over the hillock next to it, and any other hillock is a half-level obstacle (A6.2).  Board 4 with the
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


#: Three h3 hillocks in a row on board 4 (hillock hexes N-Q, T-W and Z-CC of rows 4-7), open
#: sand between them.
ROW = "04+h3:N6:N5+h3:T6:T5+h3:Z6:Z5"


@pytest.fixture(scope="module")
def row():
    vasl_dir()
    m = hexwx.load_map(ROW)
    from hexwx._native import HX_COLUMNS
    group = m.kernel_map[3][:, HX_COLUMNS.index("hillock")]
    return m, {m.grid.name(h): int(group[h]) for h in range(len(m.grid)) if group[h] >= 0}


def test_connected_hillock_hexes_are_one_hillock(row) -> None:
    m, groups = row
    assert len(set(groups.values())) == 3
    assert groups["N5"] == groups["Q7"] != groups["T6"] == groups["W7"] != groups["Z5"] == groups["CC7"]
    assert "R6" not in groups and "X6" not in groups


def _hillocks_crossed(m, groups, r) -> set[int]:
    return {groups[t.name] for t in r.thread if t.name in groups}


@pytest.mark.parametrize("a,b", [("O6", "FF6"), ("O6", "EE6")])
def test_a_second_other_hillock_blocks_a_unit_on_a_hillock(row, a: str, b: str) -> None:
    """F6.4: from O6 (on the first hillock) past the second to beyond the third, which is not
    next to the target: blocked, both ways."""
    m, groups = row
    for r in (hexwx.los(m, a, b), hexwx.los(m, b, a)):
        assert r.blocked and r.rule == "F6.4" and "hillock" in r.reason, r
        # at the second other hillock met from the source: Z-CC, or T-W seen from the far end
        assert groups[r.blocking_hex] in (groups["T6"], groups["Z6"])
        assert len(_hillocks_crossed(m, groups, r)) == 3


@pytest.mark.parametrize("a,b,crossed", [("O6", "Y6", 2), ("O6", "DD6", 3), ("T6", "X6", 1),
                                         ("S6", "W6", 1)])
def test_a_unit_on_a_hillock_sees_over_one_other_and_the_one_next_to_the_target(
        row, a: str, b: str, crossed: int) -> None:
    """O6 -> Y6 crosses one other hillock (T-W, not next to Y6: clear); O6 -> DD6 two, the
    second next to DD6 (clear); T6 -> X6 its own hillock only; S6 -> W6 the target's own."""
    m, groups = row
    for r in (hexwx.los(m, a, b), hexwx.los(m, b, a)):
        assert not r.blocked, r
        assert len(_hillocks_crossed(m, groups, r)) == crossed


def test_a_unit_next_to_a_hillock_sees_over_it_unless_entrenched(row) -> None:
    """F6.4: S6 and X6 are both next to the T-W hillock: each sees over it.  Both in foxholes,
    neither does: the hillock is a half-level obstacle (A6.2).  R6 -> Y6, next to neither end's
    exit: blocked (A6.2)."""
    m, groups = row
    assert not hexwx.los(m, "S6", "X6").blocked
    assert not hexwx.los(m, "S6", "X6", from_entrenched=True).blocked   # X6 still sees over it
    dug_in = hexwx.los(m, "S6", "X6", from_entrenched=True, to_entrenched=True)
    assert dug_in.blocked and dug_in.rule == "A6.2" and groups[dug_in.blocking_hex] == groups["T6"]
    far = hexwx.los(m, "R6", "Y6")
    assert far.blocked and far.rule == "A6.2" and far.blocking_hex in groups


def test_grain_hinders_a_unit_on_a_hillock_once(row) -> None:
    """F6.4 (VASL: one grain/brush hindrance from a hillock): N6 -> Y6 crosses grain in Q6
    and no other hindrance; the total is the one grain hex, the same both ways."""
    m, _ = row
    r, back = hexwx.los(m, "N6", "Y6"), hexwx.los(m, "Y6", "N6")
    assert not r.blocked and r.hindrance == back.hindrance == 1
    assert [h.kind for h in r.hindrances] == ["grain"]


def test_hillock_groups_join_hexes_sharing_a_hexside() -> None:
    """hexmap.hillocks: a chain 0-1-2 of hillock hexes is one hillock (numbered by its lowest
    hex id), hex 4 another, hex 3 (not a hillock) none; no hillock on the map: all -1."""
    from hexwx.hexmap.hillocks import hillock_groups
    from hexwx.hexmap.terrain import F_HILLOCK
    flags = np.zeros(256, np.int64)
    flags[7] = F_HILLOCK
    nb = np.full((5, 6), -1)
    for a, b, k in ((0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1)):
        nb[a, k], nb[b, (k + 3) % 6] = b, a
    centre = np.array([7, 7, 7, 0, 7])
    assert hillock_groups(centre, flags, nb).tolist() == [0, 0, 0, -1, 4]
    assert hillock_groups(np.zeros(5, np.int64), flags, nb).tolist() == [-1] * 5


@pytest.fixture(scope="module")
def plain4():
    vasl_dir()
    return hexwx.load_map("04")


def test_a_unit_on_a_hillock_sees_over_one_wall_or_hedge(row, plain4) -> None:
    """F6.4: N5 (on the first hillock) and H1 see each other over the hedge near J2/I2, which
    blocks the same pair on the bare board (B9.2, both at level 0)."""
    m, _ = row
    for a, b in (("N5", "H1"), ("H1", "N5")):
        assert not hexwx.los(m, a, b).blocked
        bare = hexwx.los(plain4, a, b)
        assert bare.blocked and bare.rule == "B9.2"


def test_a_second_wall_or_hedge_blocks_a_unit_on_a_hillock(row, plain4) -> None:
    """F6.4: AA8 -> N5 crosses a hedge at Z7 (where the bare board already blocks, B9.2) and a
    second one further on (Y8): blocked there, more than 15 px past the first (VASL's test
    for a second wall rather than the same crossing at a vertex)."""
    m, _ = row
    bare = hexwx.los(plain4, "AA8", "N5")
    assert bare.blocked and bare.rule == "B9.2"
    for r in (hexwx.los(m, "AA8", "N5"), hexwx.los(m, "N5", "AA8")):
        assert r.blocked and r.rule == "F6.4" and "wall or hedge" in r.reason, r
    first, second = bare.blocked_at, hexwx.los(m, "AA8", "N5").blocked_at
    assert (first[0] - second[0]) ** 2 + (first[1] - second[1]) ** 2 > 15 ** 2


def test_a_unit_on_a_hillock_sees_over_one_rubble_hex(row) -> None:
    """F6.4: rubble (B24) in R6 between the hillocks: O6 sees Y6 over it; with S6 rubbled
    too, not (both ways).  From a foxhole in O6 (not on the hillock) its own hillock already
    blocks (A6.2)."""
    m, _ = row
    one, two = ["Stone Rubble@R6"], ["Stone Rubble@R6", "Stone Rubble@S6"]
    assert not hexwx.los(m, "O6", "Y6", counters=one).blocked
    assert not hexwx.los(m, "Y6", "O6", counters=one).blocked
    for r in (hexwx.los(m, "O6", "Y6", counters=two), hexwx.los(m, "Y6", "O6", counters=two)):
        assert r.blocked and r.rule == "F6.4" and "rubble" in r.reason and r.blocking_hex in ("R6", "S6")
    dug_in = hexwx.los(m, "O6", "Y6", counters=one, from_entrenched=True)
    assert dug_in.blocked and dug_in.rule == "A6.2"


def test_hillock_and_entrenched_answers_are_reciprocal_and_batch_equals_single(row) -> None:
    """A6.1: on the three hillocks, 4,000 random pairs, random ends in foxholes (B27.2): A->B
    and B->A agree on blocked and hindrance, and the batch kernel answers as the single query."""
    from hexwx import _native as K
    m, _ = row
    rng = np.random.default_rng(7)
    n = len(m.grid)
    a, b = rng.integers(0, n, 4000), rng.integers(0, n, 4000)
    a, b = a[a != b], b[a != b]
    es, et = rng.integers(0, 2, len(a)), rng.integers(0, 2, len(a))
    base = m.hexes.base.astype(np.int64)
    M, T, cap = m.kernel_map, m.kernel_terrain, m.thread_capacity
    r1, t1 = K.trace_many(M, T, a, b, base[a], base[b], cap, ent_s=es, ent_t=et)
    r2, t2 = K.trace_many(M, T, b, a, base[b], base[a], cap, ent_s=et, ent_t=es)
    assert np.array_equal(r1 != 0, r2 != 0)
    clear = (r1 == 0) & (r2 == 0)
    assert np.array_equal(t1[clear], t2[clear])
    assert {K.HILLOCK, K.HILLOCK_WALLS, K.ENTRENCHED} <= set(r1.tolist())
    for i in range(0, len(a), 40):
        t = K.trace(M, T, int(a[i]), int(b[i]), int(base[a[i]]), int(base[b[i]]),
                    s_ent=int(es[i]), t_ent=int(et[i]))
        assert (t[0], t[4]) == (r1[i], t1[i])
