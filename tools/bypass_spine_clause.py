#!/usr/bin/env python3
"""Where VASL's extra hexspine clause for a target in bypass could act (docs/vasl-conformance.md,
"Units in bypass").

    python tools/bypass_spine_clause.py                 # boards 2 and 4
    python tools/bypass_spine_clause.py --maps bd02 bd03 bd04

VASL's relevance test (``Map.java``, the rule chain's gate, "DR added this Jan 2017 to correct
error in bypass check when LOS is along the hexside in the targethex") also applies the rules
in a hex at the target's range from the source when the LOS is along a hexspine (horizontal or
60 degrees) and the target is not at its hex's centre, to terrain that is neither open nor
hexside terrain.  Such a hex is otherwise passed over (LOS-SPEC 4.3 step 5).  hexwx does not
have the clause; this script counts, for every LOS along a hexspine from a hex centre to a
hexside location point (a target in bypass, D2.3), the thread pixels it could concern: pixels
of non-open terrain outside both ends' extended borders (which the ends own, LOS-SPEC 4.2) that
lie in the grid hex or the extended border of a hex at the target's range from the source.
For each such LOS it prints whether one of those pixels is an obstacle and hexwx's answer.
The thread is sampled along the segment (finely, not VASL's walk pixel by pixel).  Needs
``$HEXWX_VASL_DIR``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import hexwx  # noqa: E402


def along_spine(dx: np.ndarray, dy: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """LOS-SPEC 4.1 step 4: horizontal, or 60 degrees within the range's tolerance."""
    tol = np.where(rng < 5, 0.05, np.where(rng <= 15, 0.03, 0.015))
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.abs(dy / dx)
    return (dx != 0) & ((dy == 0) | (np.abs(slope - np.sqrt(3.0)) < tol))


def scan(m: hexwx.HexMap) -> tuple[int, list[tuple[str, str, int, bool, bool]]]:
    """(LOS along a hexspine to a bypass point, the ones the clause could concern: (source,
    target, hexside, an obstacle among the pixels, hexwx blocked))."""
    M = m.kernel_map
    pix = M[8]
    codes, grid_hex = pix & 255, (pix >> 16) - 1
    table = m.table.by_code
    kinds = [table.get(c) for c in range(256)]
    not_open = np.array([k is not None and not k.is_hexside and (k.obstacle or k.hindrance)
                         for k in kinds])
    obstacle = np.array([k is not None and not k.is_hexside and k.obstacle for k in kinds])
    cx, cy = np.asarray(m.grid.centre_x, float), np.asarray(m.grid.centre_y, float)
    ext = [shapely.Polygon(M[5][h]) for h in range(len(m))]
    total, found = 0, []
    for tgt in range(len(m)):
        to_t = m.grid.distances_from(tgt)
        for side in np.flatnonzero(M[4][tgt, :, 0]).tolist():
            lx, ly = (float(v) for v in M[6][tgt, side])
            dx, dy = lx - cx, ly - cy
            for src in np.flatnonzero(along_spine(dx, dy, to_t) & (to_t >= 2)).tolist():
                total += 1
                R = int(to_t[src])
                to_s = m.grid.distances_from(src)
                k = np.linspace(0.0, 1.0, 3000)
                xy = np.unique(np.stack([(cx[src] + dx[src] * k).astype(int),
                                         (cy[src] + dy[src] * k).astype(int)], 1), axis=0)
                xy = xy[(xy[:, 0] >= 0) & (xy[:, 0] < pix.shape[1]) & (xy[:, 1] >= 0) &
                        (xy[:, 1] < pix.shape[0])]
                xy = xy[not_open[codes[xy[:, 1], xy[:, 0]]]]
                if not len(xy):
                    continue
                x, y = xy[:, 0] + 0.0, xy[:, 1] + 0.0
                near = ~shapely.contains_xy(ext[tgt], x, y) & ~shapely.contains_xy(ext[src], x, y)
                gh = grid_hex[xy[:, 1], xy[:, 0]]
                at_r = (gh >= 0) & (gh != tgt) & (to_s[np.maximum(gh, 0)] == R)
                for j in range(6):
                    o = int(M[4][tgt, j, 1])
                    if o >= 0 and to_s[o] == R:
                        at_r |= shapely.contains_xy(ext[o], x, y)
                hit = near & at_r
                if hit.any():
                    r = hexwx.los(m, src, tgt, to_hexside=side)
                    found.append((m.name_of(src), m.name_of(tgt), side,
                                  bool(obstacle[codes[xy[hit, 1], xy[hit, 0]]].any()), r.blocked))
    return total, found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--maps", nargs="+", default=["bd02", "bd04"])
    args = ap.parse_args(argv)
    for name in args.maps:
        m = hexwx.load_map(name)
        total, found = scan(m)
        obstacles = [f for f in found if f[3]]
        print(f"{name}: {total} LOS along a hexspine from a hex centre to a bypass point; "
              f"{len(found)} meet non-open terrain the clause concerns, {len(obstacles)} of it an "
              f"obstacle ({sum(not f[4] for f in obstacles)} of those clear in hexwx)")
        for src, tgt, side, obst, blocked in found:
            print(f"  {src} -> {tgt} in bypass {side}: {'obstacle' if obst else 'hindrance'}, "
                  f"hexwx {'blocked' if blocked else 'clear'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
