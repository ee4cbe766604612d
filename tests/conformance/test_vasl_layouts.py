"""Multi-board layouts against VASL's own answers (golden-multi), and rotation as geometry.

VASL's data is read from ``$HEXWX_VASL_DIR`` (skips without it), never copied here.
"""
from __future__ import annotations

import csv
import gzip
import os
from pathlib import Path

import numpy as np
import pytest

from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los, los_table


def vasl_dir() -> Path:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "boards").is_dir():
        pytest.skip("HEXWX_VASL_DIR is not set to VASL's reference data")
    return Path(env)


def need(*boards: str) -> None:
    for b in boards:
        if not (vasl_dir() / "boards" / b).is_file():
            pytest.skip(f"board {b} is not in {vasl_dir() / 'boards'}")


def matrices(m: HexMap) -> tuple[np.ndarray, np.ndarray]:
    t = los_table(m)
    n = len(m)
    blocked = np.zeros((n, n), bool)
    hind = np.full((n, n), -1, np.int64)
    blocked[t.src, t.tgt] = t.blocked
    hind[t.src, t.tgt] = np.where(t.blocked, -1, t.hindrance)
    return blocked, hind


def test_side_by_side_agrees_with_vasl() -> None:
    """Boards 1 and 3 side by side (``bd 0 0 01``, ``bd 1 0 03``): >= 99.9 % agreement."""
    need("bd01", "bd03")
    p = vasl_dir() / "golden-multi" / "side.csv.gz"
    if not p.is_file():
        pytest.skip(f"no golden {p}")
    with gzip.open(p, "rt", newline="") as fh:
        rows = list(csv.DictReader(fh))
    m = load_map("01,03")
    blocked, hind = matrices(m)
    src = np.array([m.parse(r["src"]) for r in rows])
    tgt = np.array([m.parse(r["tgt"]) for r in rows])
    rng = np.array([int(r["range"] or -1) for r in rows])
    known = rng >= 0
    assert np.array_equal(m.grid.distance_matrix()[src, tgt][known], rng[known])
    vb = np.array([r["blocked"] for r in rows])
    ok = vb != "E"
    v_blocked = vb == "1"
    agree = (blocked[src, tgt] == v_blocked)[ok].mean()
    assert agree >= 0.999, f"blocked agreement {agree:.4%}"
    both_clear = ok & ~v_blocked & ~blocked[src, tgt]
    v_hind = np.array([int(r["hindrance"]) if r["hindrance"] else -1 for r in rows])
    agree_h = (hind[src, tgt] == v_hind)[both_clear].mean()
    assert both_clear.sum() > 1000 and agree_h >= 0.999, f"hindrance agreement {agree_h:.4%}"


def test_side_by_side_hexes_match_vasls_composition() -> None:
    """Every playing hex of golden-multi's hex list: names, aliases, base level, terrain."""
    need("bd01", "bd03")
    p = vasl_dir() / "golden-multi" / "side.hexes.csv"
    if not p.is_file():
        pytest.skip(f"no {p}")
    m = load_map("01,03")
    with open(p, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(m)
    for r in rows:
        h = m.parse(r["hex"])
        assert m.name_of(h) == r["hex"]
        assert all(m.parse(a) == h for a in r["aliases"].split("|"))
        assert m.ground_level(h) == int(r["base_height"]), r["hex"]
        assert m.terrain_of(h).name == r["terrain"], r["hex"]


def _same_answers(board: str) -> None:
    """Every ordered pair of printed hexes: the rotated board answers as the upright one."""
    need(board)
    up = load_map(vasl_dir() / "boards" / board)
    turned = load_map("r" + board[2:])
    idx = np.array([turned.parse(n) for n in up.grid.names()])
    b_up, h_up = matrices(up)
    b_t, h_t = matrices(turned)
    assert np.array_equal(b_t[np.ix_(idx, idx)], b_up)
    assert np.array_equal(h_t[np.ix_(idx, idx)], h_up)


def test_rotated_board_answers_as_upright_board() -> None:
    _same_answers("bd02")


@pytest.mark.slow
@pytest.mark.parametrize("board", ["bd01", "bd03", "bd04", "bd05", "bd06", "bd10", "bd16", "bd17"])
def test_rotated_board_answers_as_upright_board_all(board: str) -> None:
    _same_answers(board)


def _same_answers_in(board: str, layout: str) -> np.ndarray:
    """Every ordered pair of the hexes the rotated ``board`` holds on ``layout`` answers as on
    the upright board (blocked, hindrance); returns the printed names of its hexes left out:
    the join hexes whose centre the neighbouring board holds (right of or below the join)."""
    need(board)
    up = load_map(vasl_dir() / "boards" / board)
    m = load_map(layout)
    label = board[2:].lstrip("0")
    i = [b.label for b in m.grid.boards].index(label)
    idx = np.array([m.parse(label + n) for n in up.grid.names()])
    own = m.grid.owners[idx] == i
    b_up, h_up = matrices(up)
    b_m, h_m = matrices(m)
    keep = np.ix_(own, own)
    assert np.array_equal(b_m[np.ix_(idx, idx)][keep], b_up[keep])
    assert np.array_equal(h_m[np.ix_(idx, idx)][keep], h_up[keep])
    out: np.ndarray = np.array(up.grid.names())[~own]
    return out


def test_rotated_board_beside_an_upright_board_answers_as_upright_board() -> None:
    """Board 2 turned round right of upright board 1: every pair of its hexes, join hexes too
    (board 2 is right of the join, so it gives the join hexes their centre)."""
    need("bd01")
    assert len(_same_answers_in("bd02", "01,r02")) == 0


def test_rotated_board_above_an_upright_board_answers_as_upright_board() -> None:
    """Board 2 turned round above upright board 4: every pair of its hexes but its printed top
    row, now on the join, whose centres board 4 (below) gives: one pixel lower."""
    need("bd04")
    left_out = _same_answers_in("bd02", "r02/04")
    from hexwx.hexmap.coords import column_letters
    assert sorted(left_out) == sorted(f"{column_letters(c)}0" for c in range(1, 33, 2))


@pytest.mark.slow
@pytest.mark.parametrize("board", ["bd01", "bd03", "bd04", "bd05", "bd10", "bd16", "bd17"])
@pytest.mark.parametrize("where", ["{o},r{n}", "r{n},{o}", "r{n}/{o}", "{o}/r{n}"])
def test_rotated_board_among_upright_boards_all(board: str, where: str) -> None:
    need("bd06")
    _same_answers_in(board, where.format(o="06", n=board[2:]))


def test_rotated_board_in_a_mixed_layout_explains_as_upright_board() -> None:
    """Single queries on board 3 turned round in ``02,r03/r04,05``: the same reason, hindrance
    hexes and thread as upright, and the blocking pixel turned round."""
    need("bd02", "bd03", "bd04", "bd05")
    from hexwx.hexmap.pixelgeom import turn_origin
    up, m = load_map(vasl_dir() / "boards" / "bd03"), load_map("02,r03/r04,05")
    ox, oy = turn_origin(m.grid, 1)
    rng = np.random.default_rng(3)
    names = up.grid.names()
    for i, j in rng.integers(0, len(names), size=(120, 2)):
        a, b = names[i], names[j]
        if m.grid.owners[m.parse("3" + a)] != 1 or m.grid.owners[m.parse("3" + b)] != 1 or a == b:
            continue
        r_up, r_m = los(up, a, b), los(m, "3" + a, "3" + b)
        assert (r_up.blocked, r_up.reason, r_up.hindrance) == (r_m.blocked, r_m.reason, r_m.hindrance)
        if r_up.blocked_at is not None:
            assert r_m.blocked_at == (ox - r_up.blocked_at[0], oy - r_up.blocked_at[1])
        assert sorted((m.name_of(m.parse("3" + h.hex)), h.drm) for h in r_up.hindrances) == \
            sorted((h.hex, h.drm) for h in r_m.hindrances)
        assert [(m.name_of(m.parse("3" + t.name)), t.rs, t.rt) for t in r_up.thread] == \
            [(t.name, t.rs, t.rt) for t in r_m.thread]


def test_mixed_layout_is_reciprocal_across_boards() -> None:
    """``01,r02``: LOS between the boards and across the join is reciprocal (each direction
    traced on its own), and a join hex answers the same by either name."""
    need("bd01", "bd02")
    from hexwx import _native as K
    m = load_map("01,r02")
    n = len(m)
    a, b = np.divmod(np.arange(0, n * n, 5), n)
    a, b = a[a != b], b[a != b]
    base = m.hexes.base.astype(np.int64)
    maxlen = m.thread_capacity
    r1, t1 = K.trace_many(m.kernel_map, m.kernel_terrain, a, b, base[a], base[b], maxlen)
    r2, t2 = K.trace_many(m.kernel_map, m.kernel_terrain, b, a, base[b], base[a], maxlen)
    assert np.array_equal(r1 != 0, r2 != 0)
    assert np.array_equal(t1[r1 == 0], t2[r1 == 0])
    assert m.parse("1GG4") == m.parse("2GG7")
    for x in ("1Y5", "2P3", "2GG2"):
        r1_, r2_ = los(m, x, "1GG4"), los(m, x, "2GG7")
        assert (r1_.blocked, r1_.hindrance, r1_.range) == (r2_.blocked, r2_.hindrance, r2_.range)


def test_rotated_stack_answers_as_its_upright_boards() -> None:
    """Hube's Pocket's r05/r02/r04: LOS inside each board as on the upright board (a slice of
    pairs; the whole-board check is the test above), levels, terrain and weather LV too."""
    need("bd02", "bd04", "bd05")
    m = load_map("r05/r02/r04")
    rng = np.random.default_rng(12)
    for board in ("bd02", "bd05"):
        up = load_map(vasl_dir() / "boards" / board)
        label = board[2:].lstrip("0")
        names = up.grid.names()
        for i, j in rng.integers(0, len(names), size=(150, 2)):
            a, b = names[i], names[j]
            if up.grid.is_half_hex(up.parse(a)) or up.grid.is_half_hex(up.parse(b)):
                continue  # join hexes are two boards' halves
            r_up, r_m = los(up, a, b), los(m, label + a, label + b)
            assert (r_up.blocked, r_up.hindrance if not r_up.blocked else None) == \
                (r_m.blocked, r_m.hindrance if not r_m.blocked else None), (board, a, b)


def test_los_crosses_joins_both_ways() -> None:
    """A join hex is one playing hex: LOS to it by either name is the same answer."""
    need("bd01", "bd03")
    m = load_map("01,03")
    for a in ("1Y5", "1P3", "3E7"):
        r1, r2 = los(m, a, "1GG6"), los(m, a, "3A6")
        assert (r1.blocked, r1.range) == (r2.blocked, r2.range)
