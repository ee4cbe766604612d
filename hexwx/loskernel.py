"""The compiled pixel-walk LOS kernel (LOS-SPEC section 4), shared by single and batch queries.

One call traces one thread from the source's LOS point to the target's across the terrain
raster and applies the rule chain at every pixel: depression (A6.3), building exit (A6.8),
hexside terrain (B9), ground level, split and half-level terrain, higher-than-both and height
advantage (A6.2), blind hexes (A6.4, B10.23) and the hindrance count (B.10).

Reciprocity (DESIGN principle 2): the pixels of a thread are always generated from the end
with the lower hex id and visited in reverse when the source is the other end, and hindrances
are keyed by range from that canonical end, so A->B and B->A see the same pixels and count the
same hindrances.  VASL walks from the source and is not reciprocal (LOS-SPEC 7.4).

The map is passed as two tuples of a few packed arrays, built once per map by
:mod:`hexwx.board` (few arguments keep calls between the kernel's functions cheap):
``M = (elevation, terrain, hex_at, HX [n, 13] per-hex ints, H6 [n, 6, 6] per-hexside ints,
ext [n, 6, 2], loc [n, 6, 2], ext bounding boxes [n, 4], pix [height, width])`` and
``T = (TA [256, 15] terrain attributes by code, split [256], fast-path class [256])``; the
column orders are :data:`HX_COLUMNS`, :data:`H6_COLUMNS` and :data:`TA_COLUMNS`.  ``pix``
packs each pixel's terrain code, elevation + 128 and hex id + 1 into one int32, row-major, so
the walk reads one word per pixel from memory that mostly lies side by side.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from hexwx.pixelgeom import hex_range, inside, nearest_location

#: Column order of the packed per-hex array HX (M[3]).
HX_COLUMNS = ("los_x", "los_y", "col", "dy2", "centre", "base", "depression", "levels",
              "rooftop", "stairway", "has_cliff", "inherent_near", "zero", "fill")
#: Column order of the packed per-hexside array H6 (M[4]).
H6_COLUMNS = ("side_on_map", "neighbour", "side_terrain", "loc_terrain", "loc_depression", "cliff")
#: Column order of the packed terrain attribute array TA (T[0]); column 4 (split) is T[1].
TA_COLUMNS = ("obstacle", "hindrance", "half", "inherent", "split", "low_obs", "low_hind",
              "height", "category", "flags", "building", "building_terrain", "hexside",
              "plain", "end_skip")

# Fast-path classes of terrain codes (T[2]): bits tested once per pixel.
FAST_PLAIN = 1       # no rule reacts to it below the viewers' level (open ground, roads, water)
FAST_BUILDING = 2    # building for "LOS has left the building" (A6.8)
FAST_END_SKIP = 4    # acts in an end hex only as building or hexside terrain: neither
FAST_HEXSIDE = 8     # hexside terrain (B9)

# Reason codes (LOS-SPEC 5); texts and citations live in hexwx.los.REASONS.
CLEAR = 0
HIGHER_THAN_BOTH = 1
GROUND_HIGHER = 2
HEIGHT_ADVANTAGE = 3
HALF_LEVEL = 4
BLIND_OBSTACLE = 5
BLIND_CREST = 6
HEXSIDE = 7
BOCAGE = 8
ROWHOUSE = 9
HINDRANCE_SIX = 10
LEAVE_BUILDING = 11
EXITS_DEPRESSION = 12
ENTERS_DEPRESSION = 13
CREST_EXIT = 14
CREST_ENTRY = 15
SPLIT_SAME_LEVEL = 16
SAME_HEX = 17

# terrain name flags (mirrors hexwx.terrain)
_F_LIGHT_WOODS = 1 << 0
_F_ROOFLESS = 1 << 1
_F_CLIFF = 1 << 2
_F_BOCAGE = 1 << 5
_F_ORCHARD_OOS = 1 << 6
_F_ROWHOUSE = 1 << 9
_F_DENSE_JUNGLE = 1 << 13
_F_ROAD_NAME = 1 << 14
# categories (mirrors hexwx.terrain.Category)
_C_WATER = 2
_C_DEPRESSION = 4
_C_BRIDGE = 10
_C_ROAD = 1

# state slots
S_CUR, S_RS, S_RT, S_PREV, S_GIGN, S_LEFT, S_TOTAL, S_REASON, S_BX, S_BY, S_NTH, S_STOP, \
    S_BOUNCE, S_BHEX, S_CAND_X, S_CAND_Y, S_CAND_H, S_MEMO_H, S_MEMO_T, S_MEMO_G, S_LAST_REC = range(21)
# context slots (ints)
C_SRC, C_TGT, C_R, C_SE, C_TE, C_SROOF, C_TROOF, C_SPINE, C_E, C_SX, C_SY, C_TX, C_TY, \
    C_EXIT_ACT, C_ENTRY_ACT, C_ENTRY_A, C_CANON, C_DETAIL, C_EXIT0, C_EXIT1 = range(20)
# context slots (floats)
F_SP, F_TP, F_LO, F_HI = range(4)


@njit(cache=True)
def _d2(ax, ay, bx, by):
    dx = float(ax - bx)
    dy = float(ay - by)
    return dx * dx + dy * dy


@njit(cache=True)
def _block(st, reason, x, y, h):
    if st[S_REASON] == 0:
        st[S_REASON] = reason
        st[S_BX] = x
        st[S_BY] = y
        st[S_BHEX] = h


@njit(cache=True)
def _add_hindrance(M, T, st, ci, hv, hh, t, H, x, y):
    """Count a hindrance of terrain t in hex H, once per range key (LOS-SPEC 4.5)."""
    col, dy2 = M[3][:, 2], M[3][:, 3]
    centre, nb = M[3][:, 4], M[4][:, :, 1]
    src, tgt, R = ci[C_SRC], ci[C_TGT], ci[C_R]
    if H == src or H == tgt:
        return
    rs = st[S_RS]
    rt = st[S_RT]
    if rs >= R or rt >= R:
        return
    flags = T[0][:, 9]
    if ci[C_SPINE] == 1 and rs % 2 == 1:
        value = 1
        if flags[t] & _F_ROOFLESS:
            value = 2
        else:
            e = ci[C_E]
            for side in ((e + 1) % 6, (e + 4) % 6):
                o = nb[H, side]
                if o >= 0 and flags[centre[o]] & _F_ROOFLESS:
                    value = 2
    elif flags[t] & (_F_LIGHT_WOODS | _F_ROOFLESS):
        value = 2
    else:
        value = 1
    key = rs if ci[C_CANON] == 0 else rt
    if value > hv[key]:
        st[S_TOTAL] += value - hv[key]
        hv[key] = value
        hh[key] = H * 256 + t  # hex and terrain code, for the explanation
        if st[S_TOTAL] >= 6:
            _block(st, HINDRANCE_SIX, x, y, H)


@njit(cache=True)
def _ignored_for_end(M, X, e, H, L, t, spine):
    """R3 ignore test for end hex X with vertex e (LOS-SPEC 4.6 R3 step 3)."""
    nb, col, dy2, side_t, loc_t = M[4][:, :, 1], M[3][:, 2], M[3][:, 3], M[4][:, :, 2], M[4][:, :, 3]
    if L < 0:
        return True
    rx = hex_range(col, dy2, X, H)
    if rx > 2:
        return False
    if H == X:
        return True
    for k in range(6):
        if nb[X, k] == H and L == (k + 3) % 6:
            return True
    for k in range(6):
        if nb[X, k] == H and (L == (k + 2) % 6 or L == (k + 4) % 6):
            return True  # a spine hexside of X (bocage is handled by the caller)
    if rx == 1 and side_t[H, L] < 0:
        return True
    if spine == 1 and e >= 0:
        HH = H
        LL = L
        if rx == 2:
            H2 = nb[HH, LL]
            if H2 < 0:
                return True
            if hex_range(col, dy2, X, H2) > 1:
                return False
            HH = H2
            LL = (LL + 3) % 6
        A = nb[X, (e + 5) % 6]
        B = nb[X, e]
        if A < 0 or B < 0:
            return False
        if side_t[B, (e + 4) % 6] >= 0:
            if (HH == A and LL == e) or (HH == B and LL == (e + 5) % 6):
                if side_t[A, e] < 0 or side_t[B, (e + 5) % 6] < 0:
                    return True
    return False


@njit(cache=True)
def _blind(M, T, ci, cf, st, t_h, g, H, t, x, y, cliff_flag, delta):
    """Blind-hex test Blind(t) (LOS-SPEC 4.6 R9)."""
    los_x, los_y, loc, on_map, col, dy2, loc_t = M[3][:, 0], M[3][:, 1], M[6], M[4][:, :, 0], M[3][:, 2], M[3][:, 3], M[4][:, :, 3]
    half, flags, bld = T[0][:, 2], T[0][:, 9], T[0][:, 10]
    if ci[C_SE] == ci[C_TE]:
        return False
    Hi = cf[F_HI]
    Lo = cf[F_LO]
    if cf[F_SP] > cf[F_TP]:
        hi_hex = ci[C_SRC]
        lo_hex = ci[C_TGT]
    else:
        hi_hex = ci[C_TGT]
        lo_hex = ci[C_SRC]
    rH = hex_range(col, dy2, H, hi_hex)
    rL = hex_range(col, dy2, H, lo_hex)
    if ci[C_SPINE] == 0 and cliff_flag:
        L = nearest_location(x, y, H, los_x, los_y, loc, on_map)
        if L >= 0 and (T[0][:, 9][loc_t[H, L]] & _F_CLIFF):
            dh = _d2(los_x[H], los_y[H], los_x[hi_hex], los_y[hi_hex])
            dl = _d2(los_x[H], los_y[H], los_x[lo_hex], los_y[lo_hex])
            if rH == 1 and Hi > t_h and _d2(x, y, los_x[hi_hex], los_y[hi_hex]) < dh:
                return False
            if rL == 1 and Hi > t_h and _d2(x, y, los_x[lo_hex], los_y[lo_hex]) > dl:
                return False
    if flags[t] & _F_ROWHOUSE:
        rL += 1
        rH -= 1
    ta = 0.0
    if (ci[C_SROOF] == 1 or ci[C_TROOF] == 1) and half[t] == 1 and bld[t] == 1:
        ta = 0.5
    if t_h == 0 and not cliff_flag:
        zone = 2.0 * (g + delta + ta) + (rH // 5) - Hi - Lo
        if zone < 0:
            zone = 0.0
    else:
        zone = 2.0 * (g + t_h + ta) + (rH // 5) - Hi - Lo + 1
        if zone < 1:
            zone = 1.0
    return rL <= zone


@njit(cache=True)
def _lowest_crossed_depression(M, ci, H):
    """-1 if the lowest-numbered hexside of H crossed by the thread is a depression location."""
    loc_d = M[4][:, :, 4]
    any_d = False
    for k in range(6):
        if loc_d[H, k]:
            any_d = True
    if not any_d:
        return 0.0
    cx = H  # exact centre from LOS point (within a pixel)
    X = float(M[3][:, 0][cx])
    Y = float(M[3][:, 1][cx])
    sx, sy, tx, ty = float(ci[C_SX]), float(ci[C_SY]), float(ci[C_TX]), float(ci[C_TY])
    vx = (-18.75, 18.75, 37.5, 18.75, -18.75, -37.5)
    vy = (-32.25, -32.25, 0.0, 32.25, 32.25, 0.0)
    for k in range(6):
        ax, ay = X + vx[k], Y + vy[k]
        bx, by = X + vx[(k + 1) % 6], Y + vy[(k + 1) % 6]
        d1 = (tx - sx) * (ay - sy) - (ty - sy) * (ax - sx)
        d2 = (tx - sx) * (by - sy) - (ty - sy) * (bx - sx)
        d3 = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax)
        d4 = (bx - ax) * (ty - ay) - (by - ay) * (tx - ax)
        if d1 * d2 <= 0 and d3 * d4 <= 0:
            return -1.0 if loc_d[H, k] else 0.0
    return 0.0


@njit(cache=True)
def _crest_sides(M, X, a):
    """True if hexside a or a+1 of end hex X is a crest (LOS-SPEC 4.6 R1, B19.51): the hexes'
    base heights differ, or exactly one side of a depression hexside location is a depression."""
    base, depr = M[3][:, 5], M[3][:, 6]
    nb, loc_d = M[4][:, :, 1], M[4][:, :, 4]
    for k in (a, (a + 1) % 6):
        o = nb[X, k]
        if o < 0:
            continue  # an off-map neighbour is no crest (VASL throws here, LOS-SPEC 7.1)
        if base[X] != base[o]:
            return True
        if loc_d[X, k] != 0 and (depr[X] != 0) != (depr[o] != 0):
            return True
    return False


@njit(cache=True, inline="always")
def _record(st, ci, thread, tkeys, H, col, dy2):
    """Add hex H to the thread (once), keyed by its range from the canonical end."""
    if H < 0 or H == st[S_LAST_REC]:
        return
    st[S_LAST_REC] = H
    for i in range(st[S_NTH]):
        if thread[i] == H:
            return
    if st[S_NTH] < len(thread):
        if ci[C_CANON] == 0:
            key = hex_range(col, dy2, ci[C_SRC], H)
        else:
            key = hex_range(col, dy2, ci[C_TGT], H)
        thread[st[S_NTH]] = H
        tkeys[st[S_NTH]] = key
        st[S_NTH] += 1


@njit(cache=True)
def _evaluate(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g, H):
    """Apply the rule chain to pixel (x, y) with terrain t and ground g, attributed to hex H."""
    los_x, los_y, loc, on_map, nb, col, dy2 = M[3][:, 0], M[3][:, 1], M[6], M[4][:, :, 0], M[4][:, :, 1], M[3][:, 2], M[3][:, 3]
    centre, base, depr, side_t, loc_t, cliff = M[3][:, 4], M[3][:, 5], M[3][:, 6], M[4][:, :, 2], M[4][:, :, 3], M[4][:, :, 5]
    TA = T[0]
    obst, hind, half, inh = TA[:, 0], TA[:, 1], TA[:, 2], TA[:, 3]
    split = T[1]
    lowobs, lowhind, height, cat, flags = TA[:, 5], TA[:, 6], TA[:, 7], TA[:, 8], TA[:, 9]
    bld, bldterr, hexs = TA[:, 10], TA[:, 11], TA[:, 12]
    src, tgt, R = ci[C_SRC], ci[C_TGT], ci[C_R]
    sE, tE = ci[C_SE], ci[C_TE]
    Sp, Tp, lo, hi = cf[F_SP], cf[F_TP], cf[F_LO], cf[F_HI]
    spine = ci[C_SPINE]
    # 1. new-hex bookkeeping
    if H != st[S_CUR]:
        if H == st[S_PREV]:
            st[S_BOUNCE] = 1
        else:
            st[S_PREV] = st[S_CUR]
            st[S_BOUNCE] = 0
        st[S_CUR] = H
        st[S_RS] = hex_range(col, dy2, src, H)
        st[S_RT] = hex_range(col, dy2, tgt, H)
        if ci[C_DETAIL] == 1:
            _record(st, ci, thread, tkeys, H, col, dy2)
        # R1b ground-ignore update (non-spine, not a bounce-back)
        if spine == 0 and st[S_BOUNCE] == 0 and H != src:
            L = nearest_location(x, y, H, los_x, los_y, loc, on_map)
            if L >= 0:
                lt = loc_t[H, L]
                if (ci[C_EXIT_ACT] == 1 and Tp - Sp >= 1) and (M[4][:, :, 4][H, L] != 0 or cat[lt] == _C_WATER):
                    st[S_GIGN] = H
    rS = st[S_RS]
    rT = st[S_RT]
    h = height[t]
    # R1 depression (A6.3): exit and entry restrictions
    if ci[C_EXIT_ACT] == 1 and H != tgt:
        if rT > Tp - Sp:
            outside = False
            if not depr[H]:
                outside = g > Sp
            else:
                outside = g != base[H] and g > Sp and not (cat[t] == _C_ROAD or cat[t] == _C_BRIDGE)
            if outside and R == 1:
                outside = False
            if outside and rT == 1 and tE > base[H] and depr[H] != 0 and \
                    _d2(x, y, los_x[tgt], los_y[tgt]) < _d2(los_x[H], los_y[H], los_x[tgt], los_y[tgt]):
                outside = False
            if outside:
                _block(st, EXITS_DEPRESSION, x, y, H)
                return
    if ci[C_ENTRY_ACT] == 1 and H != src:
        if rS > Sp - Tp:
            outside = False
            if not depr[H]:
                outside = g > Tp
            else:
                outside = g != base[H] and g > Tp and not (cat[t] == _C_ROAD or cat[t] == _C_BRIDGE)
            if outside and R == 1:
                outside = False
            if outside and rS == 1 and sE > base[H] and depr[H] != 0 and \
                    _d2(x, y, los_x[src], los_y[src]) < _d2(los_x[H], los_y[H], los_x[src], los_y[src]):
                outside = False
            if outside:
                _block(st, ENTERS_DEPRESSION, x, y, H)
                return
    # crest line at a vertex (B19.51): a hexspine thread leaving (entering) a depression end
    if spine == 1:
        if ci[C_EXIT_ACT] == 1 and Sp >= Tp and _crest_sides(M, src, (ci[C_ENTRY_A] + 3) % 6):
            _block(st, CREST_EXIT, x, y, H)
            return
        if ci[C_ENTRY_ACT] == 1 and Tp >= Sp and _crest_sides(M, tgt, ci[C_ENTRY_A]):
            _block(st, CREST_ENTRY, x, y, H)
            return
    # R2 building exit (A6.8 Ex. 2), for the source and, mirrored, for the target
    if bldterr[t] == 1 and sE != tE:
        if st[S_LEFT] == 0 and H != src and not (sE > g + h):
            _block(st, LEAVE_BUILDING, x, y, H)
            return
        if st[S_CAND_H] < 0 and H != tgt and not (tE > g + h) and T[0][:, 10][centre[tgt]] == 1:
            # mirrored for the target: blocks if the thread stays in building terrain from
            # here to the target (decided when the walk ends)
            st[S_CAND_X] = x
            st[S_CAND_Y] = y
            st[S_CAND_H] = H
    # R3 hexside terrain (B9.2, B9.52, B23.71)
    if hexs[t] == 1 and not (flags[t] & _F_CLIFF):
        if flags[t] & _F_ROWHOUSE:
            w = float(g + h)
            if (w > Sp and w > Tp) or (w == Sp and w == Tp and half[t] == 1) or (w == hi and w > lo):
                _block(st, ROWHOUSE, x, y, H)
                return
            if lo < w < hi and _blind(M, T, ci, cf, st, float(h), float(g), H, t, x, y, False, 0.0):
                _block(st, ROWHOUSE, x, y, H)
                return
        else:
            L = nearest_location(x, y, H, los_x, los_y, loc, on_map)
            e = ci[C_E]
            ee = (e + 3) % 6 if e >= 0 else -1
            bocage = (flags[t] & _F_BOCAGE) != 0
            ign = _ignored_for_end(M, src, e, H, L, t, spine) or \
                _ignored_for_end(M, tgt, ee, H, L, t, spine)
            if ign and bocage and L >= 0 and H != src and H != tgt:
                # a bocage spine hexside is not ignored (R3 step 3.4)
                ign = False
                for X in (src, tgt):
                    if X == H:
                        ign = True
                    for k in range(6):
                        if nb[X, k] == H and L == (k + 3) % 6:
                            ign = True
            if not ign:
                if bocage:
                    top = float(g + 1)
                    if (top > Sp and top > Tp) or (top == hi and top > lo):
                        _block(st, BOCAGE, x, y, H)
                        return
                    if lo < top < hi and _blind(M, T, ci, cf, st, 1.0, float(g), H, t, x, y, False, 0.0):
                        _block(st, BOCAGE, x, y, H)
                        return
                elif g == sE and g == tE:
                    _block(st, HEXSIDE, x, y, H)
                    return
    # relevance: the end hexes, and hexes as far from an end as the ends are apart
    if H == src or H == tgt or rT == R or rS == R:
        return
    if inh[t] == 1 and t != centre[H]:
        return
    # cliff spine inputs (R4 step 2)
    cliff_spine = False
    m = 0
    if spine == 1 and rS % 2 == 1:
        a = ci[C_ENTRY_A]
        c1 = (a + 5) % 6
        c2 = (a + 2) % 6
        if _d2(x, y, loc[H, c1, 0], loc[H, c1, 1]) < _d2(x, y, loc[H, c2, 0], loc[H, c2, 1]):
            sside = c1
        else:
            sside = c2
        if flags[loc_t[H, sside]] & _F_CLIFF:
            cliff_spine = True
            o = nb[H, sside]
            m = base[H]
            if o >= 0 and o != src and o != tgt and base[o] < m:
                m = base[o]
    # R4 ground level (A6.2)
    if cat[t] == _C_BRIDGE:
        st[S_GIGN] = H
    mx = sE if sE > tE else tE
    if not (cliff_spine and m <= mx):
        if g > Sp and g > Tp and H != st[S_GIGN]:
            _block(st, GROUND_HIGHER, x, y, H)
            return
    same_level = g == sE and g == tE
    # R5 split terrain
    if split[t] != 0.0 and same_level:
        if lowobs[t] == 1:
            _block(st, SPLIT_SAME_LEVEL, x, y, H)
            return
        if lowhind[t] == 1:
            _add_hindrance(M, T, st, ci, hv, hh, t, H, x, y)
            if st[S_REASON] != 0:
                return
    # R6 half-level (A6.2)
    if half[t] == 1 and hexs[t] == 0:
        s2 = float(sE)
        t2 = float(tE)
        if ci[C_SROOF] + ci[C_TROOF] == 1:
            if ci[C_SROOF] == 1:
                s2 -= 0.5
            else:
                t2 -= 0.5
        if float(g + h) == s2 and float(g + h) == t2:
            if obst[t] == 1:
                _block(st, HALF_LEVEL, x, y, H)
                return
            _add_hindrance(M, T, st, ci, hv, hh, t, H, x, y)
            if st[S_REASON] != 0:
                return
    # R7 higher than both (A6.2)
    top = float(g + h)
    if half[t] == 1 and hexs[t] == 0:
        top += 0.5
    if not ((split[t] != 0.0 and same_level) or (flags[t] & _F_BOCAGE)):
        if top > Sp and top > Tp:
            if obst[t] == 1 and not (flags[t] & _F_LIGHT_WOODS):
                _block(st, HIGHER_THAN_BOTH, x, y, H)
                return
            if not ((cat[t] == _C_BRIDGE or (flags[t] & _F_ROAD_NAME)) and g > Sp and g > Tp):
                _add_hindrance(M, T, st, ci, hv, hh, t, H, x, y)
                if st[S_REASON] != 0:
                    return
    # R8 height advantage (A6.2)
    top8 = float(g + h)
    if half[t] == 1 and bld[t] == 1:
        top8 += 0.5
    if top8 == hi and top8 > lo and not (flags[t] & (_F_BOCAGE | _F_ROWHOUSE)):
        skip = False
        if top8 == float(g):
            if rS == 1 and sE > base[H] and \
                    _d2(x, y, los_x[src], los_y[src]) < _d2(los_x[H], los_y[H], los_x[src], los_y[src]):
                skip = True
            if rT == 1 and tE > base[H] and \
                    _d2(x, y, los_x[tgt], los_y[tgt]) < _d2(los_x[H], los_y[H], los_x[tgt], los_y[tgt]):
                skip = True
        if cliff_spine and m < mx:
            skip = True
        if not (depr[H] != 0 and h >= 1):
            gi = st[S_GIGN]
            if gi >= 0 and (H == gi or inside(M[5][gi], x, y)):
                skip = True
            if (ci[C_EXIT_ACT] == 1 or ci[C_ENTRY_ACT] == 1) and depr[H] != 0:
                skip = True
        if cat[centre[H]] == _C_WATER and h < 1:
            if rS == 1 and sE > tE and cat[centre[tgt]] == _C_WATER:
                skip = True
            if rT == 1 and tE > sE and cat[centre[src]] == _C_WATER:
                skip = True
        if not skip:
            if flags[t] & _F_ORCHARD_OOS:
                _add_hindrance(M, T, st, ci, hv, hh, t, H, x, y)
                if st[S_REASON] != 0:
                    return
            else:
                _block(st, HEIGHT_ADVANTAGE, x, y, H)
                return
    # R9 blind hex (A6.4, B10.23)
    if flags[t] & _F_BOCAGE:
        return
    c = 1 if (flags[t] & _F_CLIFF) else 0
    if not (lo < g + h + c < hi):
        return
    if spine == 0:
        gh = M[2][x, y]
        cliff_flag = False
        if gh >= 0:
            L = nearest_location(x, y, gh, los_x, los_y, loc, on_map)
            if L >= 0 and cliff[gh, L] != 0:
                cliff_flag = True
    else:
        e = ci[C_E]
        cliff_flag = (depr[src] != 0 and cliff[src, e] != 0 and cliff[src, (e + 1) % 6] != 0) or \
            (depr[tgt] != 0 and cliff[tgt, (e + 3) % 6] != 0 and cliff[tgt, (e + 4) % 6] != 0)
    gg = float(m) if cliff_spine else float(g)
    delta = _lowest_crossed_depression(M, ci, H) if (h == 0 and not cliff_flag) else 0.0
    if _blind(M, T, ci, cf, st, float(h), gg, H, t, x, y, cliff_flag, delta):
        if obst[t] == 1 and hexs[t] == 0:
            if (flags[centre[H]] & _F_ROOFLESS) or (inh[t] == 1 and t != centre[H]):
                return
            if spine == 1 and bld[t] == 1:
                if rT % 2 == 0:
                    _block(st, BLIND_OBSTACLE, x, y, H)
                    return
                if ci[C_SROOF] == 1 or ci[C_TROOF] == 1:
                    _block(st, BLIND_CREST, x, y, H)
                return
            _block(st, BLIND_OBSTACLE, x, y, H)
            return
        if lo < g + c < hi:
            delta0 = _lowest_crossed_depression(M, ci, H) if not cliff_flag else 0.0
            if _blind(M, T, ci, cf, st, 0.0, gg, H, t, x, y, cliff_flag, delta0):
                _block(st, BLIND_CREST, x, y, H)
                return
        if flags[t] & _F_ORCHARD_OOS and rT != 1:
            return
        _add_hindrance(M, T, st, ci, hv, hh, t, H, x, y)


@njit(cache=True, inline="always")
def _skippable(st, c, same, inh_near, gh, t, g, lo_f, src, tgt):
    """True if no rule can react to this pixel (fast path, no depression rule active).

    ``c`` is the terrain's fast-path class (:data:`FAST_PLAIN` ...), ``gh`` the pixel's hex.
    Plain ground no higher than the lower end (on a hexspine only away from inherent terrain,
    which a pair member may read instead of the pixel); in an end hex, terrain that acts there
    only as building (A6.8, which needs different elevations) or hexside terrain; or the same
    hex, terrain and ground as the last evaluated pixel when that evaluation could not depend
    on the pixel's position (see :func:`_remember`).
    """
    if (c & FAST_PLAIN) != 0 and g <= lo_f and (gh < 0 or inh_near[gh] == 0):
        return True
    if ((c & FAST_END_SKIP) != 0 or (same and (c & FAST_HEXSIDE) == 0)) and (gh == src or gh == tgt):
        return True
    return gh == st[S_MEMO_H] and t == st[S_MEMO_T] and g == st[S_MEMO_G]


@njit(cache=True, inline="always")
def _remember(M, T, st, hex_at, x, y, t, g, ci_spine, same):
    """Remember an evaluated pixel whose outcome any pixel of the same hex, terrain and ground
    shares: attributed by grid lookup, in a hex without cliffs, not hexside terrain, and either
    both ends at one elevation (no rule then depends on the pixel's position) or not next to an
    end (no B10.2 exception) and not building terrain (A6.8 state)."""
    H = st[S_CUR]
    if H == hex_at[x, y] and (same or (st[S_RS] > 1 and st[S_RT] > 1)) and M[3][:, 10][H] == 0 \
            and ci_spine == 0 and T[0][:, 12][t] == 0 and (same or T[0][:, 10][t] == 0):
        st[S_MEMO_H] = H
        st[S_MEMO_T] = t
        st[S_MEMO_G] = g
    else:
        st[S_MEMO_H] = -1


@njit(cache=True)
def _pixel(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g):
    """Attribute pixel (x, y) to a hex (LOS-SPEC 4.2) and evaluate it, twice on a hexspine."""
    hex_at, los_x, los_y, ext, loc, on_map, nb, col, dy2 = M[2], M[3][:, 0], M[3][:, 1], M[5], M[6], M[4][:, :, 0], M[4][:, :, 1], M[3][:, 2], M[3][:, 3]
    centre = M[3][:, 4]
    inh, cat, flags, hexs = T[0][:, 3], T[0][:, 8], T[0][:, 9], T[0][:, 12]
    src = ci[C_SRC]
    tgt = ci[C_TGT]
    bb = M[7]
    in_src = bb[src, 0] <= x < bb[src, 1] and bb[src, 2] <= y < bb[src, 3] and inside(ext[src], x, y)
    in_tgt = (not in_src) and bb[tgt, 0] <= x < bb[tgt, 1] and bb[tgt, 2] <= y < bb[tgt, 3] \
        and inside(ext[tgt], x, y)
    if in_src:
        H = src
    elif in_tgt:
        H = tgt
    else:
        H = hex_at[x, y]
        if H < 0:
            st[S_STOP] = 1
            return
    if st[S_LEFT] == 0 and T[0][:, 10][t] == 0:
        st[S_LEFT] = 1
    if ci[C_SPINE] == 1 and not in_src and not in_tgt and hex_range(col, dy2, src, H) % 2 == 1:
        P = -1
        for k in range(6):
            o = nb[H, k]
            if o >= 0 and o != src and o != tgt and inside(ext[o], x, y):
                P = o
                break
        if P < 0:
            L = nearest_location(x, y, H, los_x, los_y, loc, on_map)
            if L >= 0:
                o = nb[H, L]
                if o >= 0 and o != src and o != tgt:
                    P = o
        if P >= 0:
            for member in (H, P):
                if member == src or member == tgt or not inside(ext[member], x, y):
                    continue
                tm = t
                cm = np.int64(centre[member])
                fill = M[3][member, 13]
                if fill >= 0:
                    # a map-file hex filled to its hexsides: a thread along the hexside reads
                    # each hex of the pair as its own fill, so either side counts alike
                    if hexs[t] == 1:
                        _evaluate(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g, member)
                        if st[S_REASON] != 0:
                            return
                    tm = np.int64(fill)
                elif inh[cm] == 1:
                    if hexs[t] == 1:
                        _evaluate(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g, member)
                        if st[S_REASON] != 0:
                            return
                    if not ((flags[cm] & _F_DENSE_JUNGLE) and cat[t] == _C_WATER):
                        tm = cm
                _evaluate(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, tm, g, member)
                if st[S_REASON] != 0:
                    return
            return
    _evaluate(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g, H)



@njit(cache=True)
def _walk_pixels(sx, sy, tx, ty, W, H, xs, ys):
    """Pixels of the thread from (sx, sy) to (tx, ty) as VASL walks it (LOS-SPEC 4.2)."""
    n = abs(tx - sx) + 1
    dx = 1 if tx >= sx else -1
    dyy = 1 if ty >= sy else -1
    d = (ty - sy) / n
    enter = float(sy)
    ex = sy + d
    k = 0
    x = sx
    for _ in range(n):
        y0 = int(math.floor(enter))
        y1 = int(math.floor(ex))
        y = y0
        while True:
            if 0 <= x < W and 0 <= y < H and k < len(xs):
                xs[k] = x
                ys[k] = y
                k += 1
            if y == y1:
                break
            y += dyy
            if (dyy > 0 and y > y1) or (dyy < 0 and y < y1):
                break
        enter = ex
        ex = ex + d
        x += dx
    return k


@njit(cache=True)
def trace(M, T, src, tgt, sE, tE, s_roof, t_roof, xs, ys, hv, hh, thread, tkeys, detail):
    """Trace one LOS; returns (reason, block_x, block_y, block_hex, hindrance_total, n_thread).

    ``hv``/``hh`` (length >= range+1) receive each range key's hindrance value and
    ``hex * 256 + terrain code``;
    ``thread``/``tkeys`` receive the hexes entered in order with their keys (when detail=1).
    """
    elev, terr, hex_at, los_x, los_y, ext, loc = M[0], M[1], M[2], M[3][:, 0], M[3][:, 1], M[5], M[6]
    on_map, nb, col, dy2 = M[4][:, :, 0], M[4][:, :, 1], M[3][:, 2], M[3][:, 3]
    centre, base, depr, side_t, loc_t = M[3][:, 4], M[3][:, 5], M[3][:, 6], M[4][:, :, 2], M[4][:, :, 3]
    loc_d, cliff, levels, roof, stair = M[4][:, :, 4], M[4][:, :, 5], M[3][:, 7], M[3][:, 8], M[3][:, 9]
    bldarr = T[0][:, 10]
    st = np.zeros(21, np.int64)
    st[S_PREV] = -1
    st[S_GIGN] = -1
    st[S_BHEX] = -1
    R = hex_range(col, dy2, src, tgt)
    for i in range(R + 1):
        hv[i] = 0
        hh[i] = -1
    if src == tgt:
        if sE != tE and (levels[src] > 0 or roof[src] != 0) and (abs(sE - tE) > 1 or stair[src] == 0):
            return SAME_HEX, los_x[src], los_y[src], src, 0, 0
        return CLEAR, 0, 0, -1, 0, 0
    ci = np.zeros(20, np.int64)
    cf = np.zeros(4, np.float64)
    sx, sy, tx, ty = los_x[src], los_y[src], los_x[tgt], los_y[tgt]
    ci[C_SRC] = src
    ci[C_TGT] = tgt
    ci[C_R] = R
    ci[C_SE] = sE
    ci[C_TE] = tE
    ci[C_SROOF] = s_roof
    ci[C_TROOF] = t_roof
    ci[C_SX] = sx
    ci[C_SY] = sy
    ci[C_TX] = tx
    ci[C_TY] = ty
    ci[C_DETAIL] = detail
    Sp = sE - 0.5 * s_roof
    Tp = tE - 0.5 * t_roof
    cf[F_SP] = Sp
    cf[F_TP] = Tp
    cf[F_LO] = min(Sp, Tp)
    cf[F_HI] = max(Sp, Tp)
    # hexspine detection (LOS-SPEC 4.1 step 4)
    horizontal = sy == ty
    sixty = False
    if not horizontal and sx != tx:
        slope = abs(sy - ty) / abs(sx - tx)
        tol = 0.05 if R < 5 else (0.03 if R <= 15 else 0.015)
        sixty = abs(slope - math.sqrt(3.0)) < tol
    spine = horizontal or sixty
    ci[C_SPINE] = 1 if spine else 0
    e = -1
    a_exit = 0
    if horizontal:
        e = 2 if tx > sx else 5
        a_exit = 1 if tx > sx else 4
    elif sixty:
        if tx > sx and ty > sy:
            e, a_exit = 3, 2
        elif tx > sx:
            e, a_exit = 1, 0
        elif ty > sy:
            e, a_exit = 4, 3
        else:
            e, a_exit = 0, 5
    ci[C_E] = e
    ci[C_ENTRY_A] = (a_exit + 3) % 6
    # depression restrictions (LOS-SPEC 4.1 step 7); rooftop ends count -1 here
    sEd = sE - s_roof
    tEd = tE - t_roof
    ci[C_EXIT_ACT] = 1 if (depr[src] and sE == base[src] and (tEd - sEd) <= R) else 0
    ci[C_ENTRY_ACT] = 1 if (depr[tgt] and tE == base[tgt] and (sEd - tEd) <= R) else 0
    # canonical walk: from the lower hex id; visited backwards when the source is the other end
    canon = 1 if src > tgt else 0
    ci[C_CANON] = canon
    st[S_CUR] = src
    st[S_RS] = 0
    st[S_RT] = R
    st[S_LEFT] = 0 if bldarr[centre[src]] == 1 else 1
    st[S_CAND_H] = -1
    st[S_MEMO_H] = -1
    pix = M[8]
    fastcls = T[2]
    # A6.8, R8 (height advantage) and R9 (blind hexes) need ends at different elevations
    same = sE == tE and s_roof == t_roof
    # (a single query along a hexspine evaluates every pixel, to list both hexes of each pair)
    fast = ci[C_EXIT_ACT] == 0 and ci[C_ENTRY_ACT] == 0 and not (detail == 1 and spine)
    st[S_LAST_REC] = -1
    # on a hexspine a pixel may be read as a neighbour's inherent terrain (LOS-SPEC 4.2), so
    # only pixels of hexes with no inherent terrain around them may be skipped there
    inh_near = M[3][:, 11] if spine else M[3][:, 12]
    lo_f = cf[F_LO]
    W = hex_at.shape[0]
    Hh = hex_at.shape[1]
    if canon == 0:
        # walk lazily from the source, stopping at the first block (LOS-SPEC 4.2)
        n = abs(tx - sx) + 1
        dx = 1 if tx >= sx else -1
        dyy = 1 if ty >= sy else -1
        d = (ty - sy) / n
        enter = float(sy)
        ex = sy + d
        x = sx
        for _ in range(n):
            y = int(math.floor(enter))
            y1 = int(math.floor(ex))
            while True:
                if 0 <= x < W and 0 <= y < Hh:
                    p = np.int64(pix[y, x])
                    t = p & 255
                    g = ((p >> 8) & 255) - 128
                    c = fastcls[t]
                    if detail == 1:
                        _record(st, ci, thread, tkeys, (p >> 16) - 1, col, dy2)
                    if (c & FAST_BUILDING) == 0:
                        st[S_CAND_H] = -1
                    if fast and _skippable(st, c, same, inh_near, (p >> 16) - 1, t, g, lo_f, src, tgt):
                        st[S_LEFT] = 1
                    else:
                        _pixel(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g)
                        if st[S_REASON] != 0 or st[S_STOP] != 0:
                            break
                        if fast:
                            _remember(M, T, st, hex_at, x, y, t, g, ci[C_SPINE], same)
                if y == y1:
                    break
                y += dyy
                if (dyy > 0 and y > y1) or (dyy < 0 and y < y1):
                    break
            if st[S_REASON] != 0 or st[S_STOP] != 0:
                break
            enter = ex
            ex = ex + d
            x += dx
    else:
        n = _walk_pixels(tx, ty, sx, sy, W, Hh, xs, ys)
        for j in range(n):
            i = n - 1 - j
            x = xs[i]
            y = ys[i]
            p = np.int64(pix[y, x])
            t = p & 255
            g = ((p >> 8) & 255) - 128
            c = fastcls[t]
            if detail == 1:
                _record(st, ci, thread, tkeys, (p >> 16) - 1, col, dy2)
            if (c & FAST_BUILDING) == 0:
                st[S_CAND_H] = -1
            if fast and _skippable(st, c, same, inh_near, (p >> 16) - 1, t, g, lo_f, src, tgt):
                st[S_LEFT] = 1
                continue
            _pixel(M, T, st, ci, cf, hv, hh, thread, tkeys, x, y, t, g)
            if st[S_REASON] != 0 or st[S_STOP] != 0:
                break
            if fast:
                _remember(M, T, st, hex_at, x, y, t, g, ci[C_SPINE], same)
    if st[S_REASON] == 0 and st[S_CAND_H] >= 0:
        _block(st, LEAVE_BUILDING, st[S_CAND_X], st[S_CAND_Y], st[S_CAND_H])
    if detail == 1:
        # make sure the target closes the thread
        seen = False
        for i in range(st[S_NTH]):
            if thread[i] == tgt:
                seen = True
        if not seen and st[S_NTH] < len(thread):
            thread[st[S_NTH]] = tgt
            tkeys[st[S_NTH]] = R if canon == 0 else 0
            st[S_NTH] += 1
    return st[S_REASON], st[S_BX], st[S_BY], st[S_BHEX], st[S_TOTAL], st[S_NTH]


@njit(cache=True)
def trace_many(M, T, sources, targets, elev_s, elev_t, maxlen):
    """Trace every (sources[i], targets[i]) pair; returns (reason int8, hindrance int16) arrays."""
    n = len(sources)
    reasons = np.zeros(n, np.int8)
    totals = np.zeros(n, np.int16)
    xs = np.zeros(maxlen, np.int32)
    ys = np.zeros(maxlen, np.int32)
    hv = np.zeros(4096, np.int64)
    hh = np.zeros(4096, np.int64)
    thread = np.zeros(1, np.int64)
    tkeys = np.zeros(1, np.int64)
    for i in range(n):
        r, bx, by, bh, tot, nth = trace(M, T, sources[i], targets[i], elev_s[i], elev_t[i], 0, 0,
                                        xs, ys, hv, hh, thread, tkeys, 0)
        reasons[i] = r
        totals[i] = tot
    return reasons, totals


@njit(cache=True, parallel=True)
def all_pairs_matrix(M, T, elev, maxlen):
    """LOS between every ordered pair of hexes (hex i at elevation elev[i]).

    Returns (reason int8 [n, n], hindrance int16 [n, n]).  Each unordered pair is traced once
    from its lower id and mirrored (the kernel is reciprocal), except pairs with a depression
    end, whose ground-ignore update (R1b) depends on direction: those are traced both ways.
    """
    n = len(elev)
    depr = M[3][:, 6]
    reasons = np.zeros((n, n), np.int8)
    totals = np.zeros((n, n), np.int16)
    nchunk = 64
    for c in prange(nchunk):
        xs = np.zeros(maxlen, np.int32)
        ys = np.zeros(maxlen, np.int32)
        hv = np.zeros(4096, np.int64)
        hh = np.zeros(4096, np.int64)
        thread = np.zeros(1, np.int64)
        tkeys = np.zeros(1, np.int64)
        for a in range(c, n, nchunk):
            for b in range(a + 1, n):
                r, bx, by, bh, tot, nth = trace(M, T, a, b, elev[a], elev[b], 0, 0,
                                                xs, ys, hv, hh, thread, tkeys, 0)
                reasons[a, b] = r
                totals[a, b] = tot
                if depr[a] != 0 or depr[b] != 0:
                    r, bx, by, bh, tot, nth = trace(M, T, b, a, elev[b], elev[a], 0, 0,
                                                    xs, ys, hv, hh, thread, tkeys, 0)
                reasons[b, a] = r
                totals[b, a] = tot
    return reasons, totals
