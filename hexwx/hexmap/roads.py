"""Road hexsides of a drawn map, found by following the road as the board draws it.

A step is along a road (B3.4, E3 3.6) when the road runs from one hex into the next.  A VASL
board only draws the road, so :func:`drawn_road_sides` follows the road pixels from hex centre
to hex centre: hexes A and B (adjacent) are joined by road when road pixels connect the road at
A's centre dot to the road at B's, staying in A and B -- or crossing the corner of a hex that
shares the hexside's vertices without touching that hex's own centre dot (a road that bends
round a vertex).  A road that passes through a third hex's centre joins A and B only through
that hex.  Sampling the terrain at hexside midpoints instead loses every road that crosses a
hexside near a vertex (bd02 A5-B5-C5-D5-E6-F5-F4...).

Readings (docs/movement.md): "at the centre dot" is within :data:`CENTRE_RADIUS` pixels of it
(a board-edge half hex, whose centre lies on the edge, also counts the road where it leaves the
board inside the hex); a third hex's centre dot is the disc of :data:`DOT_RADIUS` pixels; the
road is paved when most of the joining pixels are paved or elevated road or bridge (3.6: paved
roads include bridges).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hexwx.hexmap.terrain import Category

if TYPE_CHECKING:
    from hexwx.hexmap.board import HexMap

CENTRE_RADIUS = 10      # px: road "at" a hex's centre dot
DOT_RADIUS = 3          # px: a third hex's centre dot the road must not cross
_BOX = 60               # px: margin of the window around two centres (a hex is 56 x 64.5 px)


def road_codes(m: HexMap) -> tuple[np.ndarray, np.ndarray]:
    """bool [256] arrays: terrain codes that are road (roads and bridges), and paved ones."""
    road = np.zeros(256, bool)
    paved = np.zeros(256, bool)
    for t in m.table.types:
        if t.category in (Category.ROAD, Category.BRIDGE):
            road[t.code] = True
            paved[t.code] = (t.category == Category.BRIDGE or "Paved" in t.name
                             or "Elevated" in t.name)
    return road, paved


def drawn_road_sides(m: HexMap) -> np.ndarray:
    """int8 [n, 6]: 0 no road across the hexside, 1 unpaved road, 2 paved road (module doc)."""
    is_road, is_paved = road_codes(m)
    road = is_road[m.terrain]
    g = m.geometry
    hx = g.hex_at
    W, H = road.shape
    n = len(m.grid)
    nb = m.grid.neighbours
    cx, cy = g.los_x.astype(np.int64), g.los_y.astype(np.int64)
    edge = np.zeros_like(road)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    out = np.zeros((n, 6), np.int8)

    def seeds(h: int, x0: int, y0: int, X: np.ndarray, Y: np.ndarray, sub: np.ndarray,
              hsub: np.ndarray) -> np.ndarray:
        near = (X - cx[h]) ** 2 + (Y - cy[h]) ** 2 <= CENTRE_RADIUS ** 2
        on_edge = edge[x0:x0 + X.shape[0], y0:y0 + X.shape[1]] & (hsub == h)
        found: np.ndarray = sub & (near | on_edge)
        return found

    has_centre = np.zeros(n, bool)
    for h in range(n):
        x0, x1 = max(0, cx[h] - CENTRE_RADIUS), min(W, cx[h] + CENTRE_RADIUS + 1)
        y0, y1 = max(0, cy[h] - CENTRE_RADIUS), min(H, cy[h] + CENTRE_RADIUS + 1)
        has_centre[h] = bool(road[x0:x1, y0:y1].any())
    has_edge = np.zeros(n, bool)
    for strip_road, strip_hex in ((road[0, :], hx[0, :]), (road[-1, :], hx[-1, :]),
                                  (road[:, 0], hx[:, 0]), (road[:, -1], hx[:, -1])):
        has_edge[strip_hex[strip_road & (strip_hex >= 0)]] = True
    candidates = has_centre | has_edge
    for h in np.flatnonzero(candidates).tolist():
        for k in range(6):
            o = int(nb[h, k])
            if o < h or not candidates[o]:
                continue
            x0 = int(max(0, min(cx[h], cx[o]) - _BOX))
            x1 = int(min(W, max(cx[h], cx[o]) + _BOX + 1))
            y0 = int(max(0, min(cy[h], cy[o]) - _BOX))
            y1 = int(min(H, max(cy[h], cy[o]) + _BOX + 1))
            X, Y = np.meshgrid(np.arange(x0, x1), np.arange(y0, y1), indexing="ij")
            hsub = hx[x0:x1, y0:y1]
            allowed = (hsub == h) | (hsub == o)
            for w in set(nb[h].tolist()) & set(nb[o].tolist()):
                if w >= 0:
                    allowed |= (hsub == w) & ((X - cx[w]) ** 2 + (Y - cy[w]) ** 2 > DOT_RADIUS ** 2)
            sub = road[x0:x1, y0:y1] & allowed
            goal = seeds(o, x0, y0, X, Y, sub, hsub)
            reach = seeds(h, x0, y0, X, Y, sub, hsub)
            if not goal.any() or not reach.any():
                continue
            while not (reach & goal).any():
                grow = reach.copy()
                grow[1:, :] |= reach[:-1, :]
                grow[:-1, :] |= reach[1:, :]
                grow[:, 1:] |= reach[:, :-1]
                grow[:, :-1] |= reach[:, 1:]
                grow &= sub
                if np.array_equal(grow, reach):
                    break
                reach = grow
            if (reach & goal).any():
                codes = m.terrain[x0:x1, y0:y1][reach]
                kind = 2 if is_paved[codes].mean() >= 0.5 else 1
                out[h, k] = out[o, (k + 3) % 6] = kind
    return out
