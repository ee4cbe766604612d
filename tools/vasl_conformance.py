#!/usr/bin/env python3
"""Compare hexwx's LOS with VASL's own answers (the goldens in $HEXWX_VASL_DIR/golden).

Prints, per board, the agreement on blocked/clear and on the hindrance total of pairs both call
clear, then the disagreements grouped by cause (VASL's reason vs hexwx's reason), with an
example pair each.  Disagreements that come from a known VASL fault are listed apart, under
the fault, and the figure "where VASL follows the rules" leaves those pairs out: pairs VASL
answers differently by direction (blocked or hindrance; LOS is reciprocal, A6.1), and pairs
VASL calls clear because its walk from the source stopped at a pixel its grid lookup gives no
hex (Deluxe boards; docs/vasl-conformance.md).  Also checks that hexwx answers every pair
of every board in boards/ (VASL itself crashes on some).  Multi-board layouts: every golden in
golden-multi/ (``side`` is boards 1 and 3 side by side, layout ``01,03``) is compared the same
way, hex names
``<board><hex>`` with join hexes under either name; ``--rotation`` measures how often a rotated
board differs from the upright one -- alone, right of an upright board and above one -- and, on
layouts of upright and rotated boards, how hexwx differs from VASL's composition of the layout
(rotated boards' hex centres on the composed grid, one pixel off the turned board).

With --upper, the same above the ground floor: VASL's answers for every upper building location
(golden-upper/bdNN.csv.gz: levels 1..N and rooftops, to and from every hex and each other).
Agreement is scored where VASL answers the same both ways and the ends are different hexes; the
pairs VASL answers differently by direction, and same-hex pairs, are reported by cause.

    HEXWX_VASL_DIR=../shared/vasl python tools/vasl_conformance.py [bd02 bd04 ...] [--rotation]
    HEXWX_VASL_DIR=../shared/vasl python tools/vasl_conformance.py --upper [bd01 bd10 ...]
    HEXWX_VASL_DIR=../shared/vasl python tools/vasl_conformance.py --crops [bd02_rows_A-P ...]

With --counters, LOS with counters on the map against VASL's answers for each counter set
(counters/bdNN__setK: tools/counter_conformance.py): agreement where hexwx and VASL agree
without the counters, and every difference under its cause.

    HEXWX_VASL_DIR=../shared/vasl python tools/vasl_conformance.py --counters [bd02 bd03 ...]
"""
from __future__ import annotations

import argparse
import csv
import gzip
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from hexwx import _native as K
from hexwx.errors import HexwxError
from hexwx.io.load import load_map
from hexwx.io.vsav_import import board_command_map
from hexwx.lineofsight.engine import REASONS


def golden_rows(path: Path) -> list[dict]:
    with gzip.open(path, "rt", newline="") as fh:
        return list(csv.DictReader(fh))


#: golden-multi file stem -> the layout VASL composed for it (golden-multi/README.md).
MULTI_LAYOUTS = {"side": "01,03"}


def awt_inside(poly: np.ndarray, x: int, y: int) -> bool:
    """Java AWT polygon insideness of pixel (x, y) in ``poly`` [k, (x, y)] (LOS-SPEC 1.5):
    half-open bounding box, then an even-odd crossing count."""
    xs, ys = poly[:, 0], poly[:, 1]
    if not (xs.min() <= x < xs.max() and ys.min() <= y < ys.max()):
        return False
    crossings = 0
    for (x1, y1), (x2, y2) in zip(poly.tolist(), np.roll(poly, -1, axis=0).tolist()):
        if y1 == y2 or not min(y1, y2) <= y < max(y1, y2) or not x < max(x1, x2):
            continue
        (xa, ya), (xb, yb) = ((x1, y1), (x2, y2)) if y1 < y2 else ((x2, y2), (x1, y1))
        crossings += x < min(x1, x2) or (x - xa) < (y - ya) * (xb - xa) / (yb - ya)
    return crossings % 2 == 1


def vasl_walk_gap(m, vasl_hex: np.ndarray, gap_columns: set[int], s: int, t: int
                  ) -> tuple[int, int] | None:
    """The pixel at which VASL's walk from hex ``s`` to ``t`` stops for want of a hex, if any.

    VASL walks the pixels from the source (LOS-SPEC 4.2: a running sum of the row per column)
    and attributes each to the source or target hex if their extended border holds it, else
    by its grid lookup (``vasl_hex``, -1 = none); at a pixel with no hex it ends the thread and
    answers clear.  On a Deluxe board the lookup leaves such gaps near the bottom edge
    (:meth:`hexwx.hexmap.pixelgeom.PixelGeometry.vasl_lookup`); hexwx gives those pixels a hex."""
    g = m.geometry
    sx, sy, tx, ty = int(g.los_x[s]), int(g.los_y[s]), int(g.los_x[t]), int(g.los_y[t])
    n = abs(tx - sx) + 1
    cols = sx + (1 if tx >= sx else -1) * np.arange(n)
    hit = np.flatnonzero(np.isin(cols, list(gap_columns)))
    if hit.size == 0:
        return None
    # enter of column k is acc[k], its exit acc[k + 1]: the same running sum as VASL's doubles
    acc = np.add.accumulate(np.concatenate(([float(sy)], np.full(n, (ty - sy) / n))))
    step = -1 if ty - sy < 0 else 1
    for k in hit.tolist():
        x, y0, y1 = int(cols[k]), int(acc[k]), int(acc[k + 1])      # int(): Java's (int) cast
        for y in range(y0, y1 + step, step):
            if not (0 <= y < vasl_hex.shape[1]) or vasl_hex[x, y] < 0:
                if not (awt_inside(g.ext[s], x, y) or awt_inside(g.ext[t], x, y)):
                    return x, y
    return None


def vasl_gap_stops(m, src: np.ndarray, tgt: np.ndarray) -> list[tuple[int, int] | None]:
    """:func:`vasl_walk_gap` of every pair (``None`` for all on a board with no gaps)."""
    vasl_hex = m.geometry.vasl_lookup()
    xs = np.flatnonzero((vasl_hex < 0).any(axis=1))
    if xs.size == 0:
        return [None] * len(src)
    gap_columns = set(xs.tolist())
    return [vasl_walk_gap(m, vasl_hex, gap_columns, int(s), int(t)) for s, t in zip(src, tgt)]


#: the VASL faults a disagreement is reported under, instead of being scored (docs/vasl-conformance.md)
GAP_FAULT = "VASL's walk stops at a pixel its lookup gives no hex and answers clear (LOS-SPEC 4.2)"
ONE_WAY_FAULT = "VASL answers the pair differently by direction (A6.1: LOS is reciprocal)"


def compare(vasl_dir: Path, board: str) -> dict:
    """Agreement figures and grouped disagreements for one board with goldens."""
    meta = vasl_dir / "SharedBoardMetadata.xml"
    if board in MULTI_LAYOUTS:
        m = load_map(MULTI_LAYOUTS[board], vasl_metadata=meta, vasl_dir=vasl_dir)
        golden = vasl_dir / "golden-multi" / f"{board}.csv.gz"
    elif (vasl_dir / "crops" / f"{board}.bd.txt").is_file():   # a cropped layout, from its bd text
        m = board_command_map((vasl_dir / "crops" / f"{board}.bd.txt").read_text(), source=board,
                              vasl_dir=vasl_dir, vasl_metadata=meta)
        golden = vasl_dir / "crops" / f"{board}.csv.gz"
    else:
        m = load_map(vasl_dir / "boards" / board, vasl_metadata=meta)
        golden = vasl_dir / "golden" / f"{board}.csv.gz"
    maxlen = m.thread_capacity
    t0 = time.perf_counter()
    reasons, totals = K.all_pairs_matrix(m.kernel_map, m.kernel_terrain,
                                         m.hexes.base.astype(np.int64), maxlen)
    seconds = time.perf_counter() - t0
    rows = golden_rows(golden)
    src = np.array([m.parse(r["src"]) for r in rows])
    tgt = np.array([m.parse(r["tgt"]) for r in rows])
    ours_blocked = reasons[src, tgt] != 0
    ours_hind = totals[src, tgt]
    vb = np.array([r["blocked"] for r in rows])
    crashed = vb == "E"
    v_blocked = vb == "1"
    v_hind = np.array([int(r["hindrance"]) if r["hindrance"] else -1 for r in rows])
    ok = ~crashed
    agree_b = (ours_blocked == v_blocked) & ok
    both_clear = ok & ~v_blocked & ~ours_blocked
    agree_h = both_clear & (ours_hind == v_hind)
    # where VASL answers a pair alike both ways (hexwx is reciprocal by construction)
    where = {(r["src"], r["tgt"]): i for i, r in enumerate(rows)}
    back = np.array([where.get((r["tgt"], r["src"]), i) for i, r in enumerate(rows)])
    recip = ok & ~crashed[back] & (v_blocked == v_blocked[back])
    # where VASL follows the rules: alike both ways, hindrance included, and not an answer its
    # walk gave by stopping at a pixel with no hex (every such pair VASL calls clear)
    one_way = ok & ~(recip & (v_blocked | (v_hind == v_hind[back])))
    stops = vasl_gap_stops(m, src, tgt)
    gap = ok & ~v_blocked & np.array([p is not None for p in stops], bool)
    follows = ok & ~one_way & ~gap
    causes: dict[str, list[str]] = defaultdict(list)
    faults: dict[str, list[str]] = defaultdict(list)

    def record(i: int, what: str) -> None:
        pair = f"{rows[i]['src']}->{rows[i]['tgt']}"
        if gap[i]:
            faults[f"{GAP_FAULT}: {what}"].append(f"{pair} (stops at {stops[i]})")
        elif one_way[i]:
            j = back[i]
            there = rows[j]["reason"] or f"clear, hindrance {v_hind[j]}"
            faults[f"{ONE_WAY_FAULT}: {what}, back {there!r}"].append(pair)
        else:
            causes[what].append(pair)
    for i in np.flatnonzero(ok & ~agree_b):
        ours = REASONS[int(reasons[src[i], tgt[i]])][0]
        record(i, f"blocked: VASL {rows[i]['reason'] or 'clear'!r} vs hexwx {ours!r}")
    for i in np.flatnonzero(both_clear & ~agree_h):
        record(i, f"hindrance: VASL {v_hind[i]} vs hexwx {ours_hind[i]}")
    return {"board": board, "pairs": int(ok.sum()), "vasl_crashed": int(crashed.sum()),
            "blocked_agree": float(agree_b.sum() / ok.sum()),
            "reciprocal_pairs": int(recip.sum()),
            "reciprocal_agree": float((agree_b & recip).sum() / max(1, recip.sum())),
            "hindrance_agree": float(agree_h.sum() / both_clear.sum()) if both_clear.any() else 1.0,
            "rules_pairs": int(follows.sum()),
            "rules_agree": float((agree_b & follows).sum() / max(1, follows.sum())),
            "rules_hindrance_agree": float((agree_h & follows).sum() / max(1, (both_clear & follows).sum())),
            "causes": dict(causes), "vasl_faults": dict(faults), "seconds": seconds}


def compare_upper(vasl_dir: Path, board: str) -> dict:
    """Agreement above the ground floor (golden-upper), scored where VASL is reciprocal."""
    from hexwx.lineofsight.batch import los_pairs
    meta = vasl_dir / "SharedBoardMetadata.xml"
    m = load_map(vasl_dir / "boards" / board, vasl_metadata=meta)
    rows = golden_rows(vasl_dir / "golden-upper" / f"{board}.csv.gz")
    src = np.array([m.parse(r["src"]) for r in rows])
    tgt = np.array([m.parse(r["tgt"]) for r in rows])
    sl = np.array([int(r["src_level"]) for r in rows])
    tl = np.array([int(r["tgt_level"]) for r in rows])
    vasl_locs = set(zip((r["src"] for r in rows), sl.tolist()))
    # a location VASL has and hexwx does not (or the reverse) is a cause of its own, not a crash
    top = (m.hexes.levels + m.hexes.rooftop.astype(bool)).astype(np.int64)
    exists = (sl <= top[src]) & (tl <= top[tgt]) & (sl >= 0) & (tl >= 0)
    t0 = time.perf_counter()
    a = los_pairs(m, src, tgt, np.where(exists, sl, 0), np.where(exists, tl, 0))
    seconds = time.perf_counter() - t0
    v_blocked = np.array([r["blocked"] == "1" for r in rows])
    v_hind = np.array([int(r["hindrance"]) if r["hindrance"] else -1 for r in rows])
    where = {(r["src"], r["src_level"], r["tgt"], r["tgt_level"]): i for i, r in enumerate(rows)}
    rev = np.array([where[(r["tgt"], r["tgt_level"], r["src"], r["src_level"])] for r in rows])
    v_recip = (v_blocked == v_blocked[rev]) & (v_hind == v_hind[rev])
    distinct = src != tgt
    scored = v_recip & distinct & exists
    ours = a.blocked
    agree_b = scored & (ours == v_blocked)
    both_clear = scored & ~v_blocked & ~ours
    agree_h = both_clear & (a.hindrance == v_hind)

    def pair(i: int) -> str:
        r = rows[i]
        return f"{r['src']}/{r['src_level']}->{r['tgt']}/{r['tgt_level']}"

    def ours_text(i: int) -> str:
        return a.reason_of(i)[0] if ours[i] else "clear"

    causes: dict[str, list[str]] = defaultdict(list)
    for i in np.flatnonzero(scored & ~(ours == v_blocked)):
        causes[f"blocked: VASL {rows[i]['reason'] or 'clear'!r} vs hexwx {ours_text(i)!r}"].append(pair(i))
    for i in np.flatnonzero(both_clear & ~agree_h):
        causes[f"hindrance: VASL {v_hind[i]} vs hexwx {a.hindrance[i]}"].append(pair(i))
    # VASL answers differently by direction: which way hexwx (reciprocal) sides, and why VASL differs
    unscored: dict[str, list[str]] = defaultdict(list)
    for i in np.flatnonzero(~exists):
        r = rows[i]
        h, lv = (r["src"], int(r["src_level"])) if not (0 <= sl[i] <= top[src[i]]) else (r["tgt"], int(r["tgt_level"]))
        unscored[f"location {h} level {lv} exists in VASL, not in hexwx"].append(pair(i))
    for i in np.flatnonzero(~v_recip & distinct & exists):
        j = rev[i]
        if i > j:
            continue
        way = "blocked" if v_blocked[i] != v_blocked[j] else "hindrance"
        there, back = rows[i]["reason"] or f"clear {v_hind[i]}", rows[j]["reason"] or f"clear {v_hind[j]}"
        side = "hexwx blocked" if ours[i] else f"hexwx clear {a.hindrance[i]}"
        unscored[f"VASL not reciprocal ({way}): {there!r} one way, {back!r} back; {side}"].append(pair(i))
    for i in np.flatnonzero(~distinct & exists):
        v = rows[i]["reason"] or "clear"
        unscored[f"same hex: VASL {v!r}, hexwx {ours_text(i)!r}"].append(pair(i))
    return {"board": board, "pairs": len(rows), "scored": int(scored.sum()),
            "blocked_agree": float(agree_b.sum() / max(1, scored.sum())),
            "hindrance_agree": float(agree_h.sum() / both_clear.sum()) if both_clear.any() else 1.0,
            "hexwx_reciprocal": bool(np.array_equal(ours[exists], ours[rev][exists])),
            "missing_locations": int((~exists).sum()),
            "hexwx_only_locations": sorted(
                f"{m.name_of(h)}/{lv}" for h in range(len(m)) for lv in range(1, int(top[h]) + 1)
                if (m.name_of(h), lv) not in vasl_locs),
            "causes": dict(causes), "unscored": dict(unscored), "seconds": seconds}


def print_upper(r: dict) -> None:
    print(f"{r['board']} above the ground floor: {r['pairs']} pairs, {r['scored']} scored (VASL "
          f"reciprocal, different hexes); blocked/clear agree {100 * r['blocked_agree']:.4f}%; "
          f"hindrance agree {100 * r['hindrance_agree']:.4f}% of pairs both call clear; "
          f"hexwx reciprocal: {'yes' if r['hexwx_reciprocal'] else 'NO'}; kernel {r['seconds']:.2f} s")
    for cause, pairs in sorted(r["causes"].items(), key=lambda kv: -len(kv[1])):
        print(f"    {len(pairs):5d}  {cause}  e.g. {', '.join(pairs[:3])}")
    if r["hexwx_only_locations"]:
        print(f"  upper locations hexwx has and VASL has not: {', '.join(r['hexwx_only_locations'])}")
    if r["unscored"]:
        print("  not scored:")
    for cause, pairs in sorted(r["unscored"].items(), key=lambda kv: -len(kv[1])):
        print(f"    {len(pairs):5d}  {cause}  e.g. {', '.join(pairs[:3])}")


def check_all_boards(vasl_dir: Path) -> list[tuple[str, int, float]]:
    """Answer every pair of every board archive; returns (board, pairs, seconds)."""
    out = []
    for archive in sorted((vasl_dir / "boards").iterdir()):
        m = load_map(archive, vasl_metadata=vasl_dir / "SharedBoardMetadata.xml")
        maxlen = m.thread_capacity
        t0 = time.perf_counter()
        reasons, _ = K.all_pairs_matrix(m.kernel_map, m.kernel_terrain,
                                        m.hexes.base.astype(np.int64), maxlen)
        out.append((archive.name, len(m) * (len(m) - 1), time.perf_counter() - t0))
    return out


def _matrices(M: tuple, T: tuple, base: np.ndarray, grid) -> tuple[np.ndarray, np.ndarray]:
    """(blocked, hindrance) [n, n] of every ordered pair at ground level."""
    reasons, totals = K.all_pairs_matrix(M, T, base.astype(np.int64),
                                         2 * (grid.width_px + grid.height_px) + 64)
    return reasons != 0, totals


def _differ(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Pairs answered differently: blocked flag, or the hindrance where both are clear."""
    (ba, ha), (bb, hb) = a, b
    out: np.ndarray = (ba != bb) | (~ba & ~bb & (ha != hb))
    np.fill_diagonal(out, False)
    return out


def vasl_composition(m) -> tuple[tuple, np.ndarray]:
    """The kernel arrays and base levels of layout ``m`` composed as VASL composes it: the same
    rasters (rotated boards turned in place), but every hex's centre, polygons and the pixel ->
    hex map computed on the composed grid (whole pixels), rotated boards included."""
    from hexwx.hexmap.board import kernel_arrays
    from hexwx.hexmap.derive import derive
    from hexwx.hexmap.pixelgeom import build_geometry
    g = build_geometry(m.grid, physical=False)
    ht = derive(m.grid, g, m.elevation, m.terrain, m.table, m.stairways)
    return kernel_arrays(m, g, ht), ht.base


def rotation_difference(vasl_dir: Path, board: str, layout: str) -> dict[str, tuple[int, int]]:
    """LOS between hexes of ``board`` on ``layout`` (where it is rotated) vs on the upright
    board, blocked flag and hindrance, every ordered pair of hexes: ``own`` the pairs of hexes
    the rotated board holds (its join hexes too where it gives them their centre), ``joins``
    the pairs with an end in a join hex the neighbouring board holds.  On a layout of upright
    and rotated boards also hexwx vs VASL's composition (:func:`vasl_composition`): ``vasl``
    VASL's composition vs upright on the ``own`` pairs, and hexwx vs VASL's composition on the
    ``own`` pairs, between the boards (``across``) and on the other boards (``others``).
    Each value is (pairs that differ, pairs compared)."""
    meta = vasl_dir / "SharedBoardMetadata.xml"
    up = load_map(vasl_dir / "boards" / board, vasl_metadata=meta)
    lay = load_map(layout, vasl_metadata=meta, vasl_dir=vasl_dir)
    label = board[2:].lstrip("0")
    bi = [b.label for b in lay.grid.boards].index(label)
    idx = np.array([lay.parse(label + n) for n in up.grid.names()])
    own = lay.grid.owners[idx] == bi
    a = _matrices(up.kernel_map, up.kernel_terrain, up.hexes.base, up.grid)
    ours = _matrices(lay.kernel_map, lay.kernel_terrain, lay.hexes.base, lay.grid)
    sub = np.ix_(idx, idx)
    differ = _differ(a, (ours[0][sub], ours[1][sub]))
    mine = np.ix_(own, own)

    def count(d: np.ndarray, mask: np.ndarray) -> tuple[int, int]:
        return int(d[mask].sum()), int(mask.sum())

    pair_own = np.zeros(differ.shape, bool)
    pair_own[mine] = True
    np.fill_diagonal(pair_own, False)
    out = {"own": count(differ, pair_own), "joins": count(differ, ~pair_own & ~np.eye(len(idx), dtype=bool))}
    if len(lay.grid.boards) > 1 and not all(b.rotated for b in lay.grid.boards) and \
            any(b.rotated for b in lay.grid.boards):
        M, base = vasl_composition(lay)
        theirs = _matrices(M, lay.kernel_terrain, base, lay.grid)
        out["vasl"] = count(_differ(a, (theirs[0][sub], theirs[1][sub])), pair_own)
        d = _differ(ours, theirs)
        on_board = np.zeros(len(lay), bool)
        on_board[idx[own]] = True
        n = len(lay)
        both = on_board[:, None] & on_board[None, :]
        across = on_board[:, None] != on_board[None, :]
        others = ~on_board[:, None] & ~on_board[None, :] & ~np.eye(n, dtype=bool)
        np.fill_diagonal(both, False)
        out["own_vs_vasl"] = count(d, both)
        out["across"] = count(d, across)
        out["others"] = count(d, others)
    return out


def _pct(d: tuple[int, int]) -> str:
    return f"{d[0]} of {d[1]} ({100 * d[0] / max(d[1], 1):.3f}%)"


def print_rotation(vasl_dir: Path, board: str) -> None:
    """The rotation figures of ``board``: alone, right of an upright board and above one."""
    num = board[2:]
    label = num.lstrip("0")
    side = "03" if label == "1" else "01"
    below = "05" if label == "4" else "04"
    for layout, where in ((f"r{num}", "alone"), (f"{side},r{num}", f"right of upright board {side.lstrip('0')}"),
                          (f"r{num}/{below}", f"above upright board {below.lstrip('0')}")):
        r = rotation_difference(vasl_dir, board, layout)
        text = (f"{layout} ({where}): pairs of board {label}'s own hexes that differ from upright "
                f"{board}: {_pct(r['own'])}")
        if r["joins"][1]:
            text += f"; pairs with an end in a join hex the other board holds: {_pct(r['joins'])}"
        print(text)
        if "vasl" in r:
            print(f"    VASL's composition: pairs of board {label}'s own hexes that differ from "
                  f"upright {board}: {_pct(r['vasl'])}")
            print(f"    hexwx vs VASL's composition: board {label} {_pct(r['own_vs_vasl'])}, "
                  f"between the boards {_pct(r['across'])}, other board {_pct(r['others'])}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("boards", nargs="*", help="boards with goldens (default: all in golden/)")
    ap.add_argument("--all-boards", action="store_true", help="also answer every pair of every board")
    ap.add_argument("--upper", action="store_true",
                    help="compare above the ground floor (golden-upper/) instead of golden/")
    ap.add_argument("--counters", action="store_true",
                    help="compare LOS with counters on the map (counters/: SMOKE, Blazes, "
                         "vehicles, wrecks, rubble, entrenchments, OBA), BOARDS limiting the sets")
    ap.add_argument("--crops", action="store_true",
                    help="compare the cropped layouts of crops/ (each built from its bd command)")
    ap.add_argument("--rotation", nargs="*", metavar="BOARD",
                    help="compare rotated boards (alone and beside an upright board 1) with the "
                         "upright board for the same printed hexes (default bd02 bd03)")
    args = ap.parse_args(argv)
    vasl_dir = Path(os.environ.get("HEXWX_VASL_DIR", "../shared/vasl"))
    if args.counters:
        if not (vasl_dir / "counters").is_dir():
            print(f"no counters/ in {vasl_dir}; set HEXWX_VASL_DIR", file=sys.stderr)
            return 2
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from counter_conformance import report
        return report(vasl_dir, args.boards or None)
    if args.upper:
        if not (vasl_dir / "golden-upper").is_dir():
            print(f"no golden-upper/ in {vasl_dir}; set HEXWX_VASL_DIR", file=sys.stderr)
            return 2
        for b in args.boards or sorted(p.name.split(".")[0]
                                       for p in (vasl_dir / "golden-upper").glob("*.csv.gz")):
            print_upper(compare_upper(vasl_dir, b))
        return 0
    if not (vasl_dir / "golden").is_dir():
        print(f"no VASL reference data in {vasl_dir}; set HEXWX_VASL_DIR", file=sys.stderr)
        return 2
    if args.crops:
        boards = args.boards or sorted(p.name[:-len(".bd.txt")]
                                       for p in (vasl_dir / "crops").glob("*.bd.txt"))
    else:
        boards = args.boards or (
            sorted(p.name.split(".")[0] for p in (vasl_dir / "golden").glob("*.csv.gz"))
            + sorted(p.name.split(".")[0] for p in (vasl_dir / "golden-multi").glob("*.csv.gz")))
    for b in boards:
        try:
            r = compare(vasl_dir, b)
        except HexwxError as exc:      # a board hexwx does not load
            print(f"{b}: not compared: {exc}")
            continue
        print(f"{b}: {r['pairs']} pairs (VASL crashed on {r['vasl_crashed']}); blocked/clear agree "
              f"{100 * r['blocked_agree']:.4f}% ({100 * r['reciprocal_agree']:.4f}% of the "
              f"{r['reciprocal_pairs']} VASL answers alike both ways); hindrance agree "
              f"{100 * r['hindrance_agree']:.4f}% of pairs both call clear; kernel {r['seconds']:.2f} s")
        print(f"    where VASL follows the rules ({r['rules_pairs']} pairs): blocked/clear agree "
              f"{100 * r['rules_agree']:.4f}%, hindrance agree {100 * r['rules_hindrance_agree']:.4f}%")
        for cause, pairs in sorted(r["causes"].items(), key=lambda kv: -len(kv[1])):
            print(f"    {len(pairs):5d}  {cause}  e.g. {', '.join(pairs[:3])}")
        if r["vasl_faults"]:
            print("  VASL's faults (not scored; hexwx keeps its answer):")
        for cause, pairs in sorted(r["vasl_faults"].items(), key=lambda kv: -len(kv[1])):
            print(f"    {len(pairs):5d}  {cause}  e.g. {', '.join(pairs[:3])}")
    if args.rotation is not None:
        for b in args.rotation or ["bd02", "bd03"]:
            print_rotation(vasl_dir, b)
    if args.all_boards:
        for name, pairs, sec in check_all_boards(vasl_dir):
            print(f"{name}: answered all {pairs} ordered pairs in {sec:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
