/*
 * The pixel-walk LOS kernel of hexwx (LOS-SPEC sections 1 and 4), in plain C99.
 *
 * This file is the compiled half of hexwx/_native.py: that module documents the rules,
 * the array layout and the reciprocity scheme, and calls the batch functions here through
 * ctypes and the single query through the extension module's trace() (at the end).
 * The code is a line-by-line translation of the former numba kernel: the same rule chain in
 * the same order, the same integer arithmetic (Python floor division and modulo where an
 * operand can be negative) and the same double-precision expressions, so that every answer
 * (blocked, reason, blocking pixel, hindrances, thread) is identical.
 *
 * Nothing but the module part at the end touches Python objects, so the GIL is released around
 * every walk (every ctypes call does; trace() itself); the kernel starts no threads:
 * hexwx._native shares a batch's blocks of pairs out among Python threads.  Plain C99 with no
 * POSIX or platform headers, so that any C compiler builds it (GCC, Clang, MSVC; CI
 * cross-compiles it with MinGW-w64).
 *
 * Array layout (all C-contiguous; built once per map by hexwx.hexmap.board.HexMap.kernel_map and
 * kernel_terrain, see the KMap struct below):
 *   hex_at [width][height] int32   grid lookup, hex id or -1 (x-major)
 *   hx     [n][HX_NCOL]    int32   per-hex ints, columns HX_* below (HX_COLUMNS in Python);
 *                                  HX_LOW is the lowest ground drawn in the hex (fog, E3 3.311),
 *                                  HX_HILLOCK the hillock (connected hillock hexes, F6.4) the hex
 *                                  belongs to, or -1
 *   h6     [n][6][H6_NCOL] int32   per-hexside ints, columns H6_* (H6_COLUMNS)
 *   ext    [n][6][2]       int32   extended border polygons (LOS-SPEC 1.5)
 *   loc    [n][6][2]       int32   hexside location points (LOS-SPEC 1.8)
 *   bbox   [n][4]          int32   ext bounding boxes: min x, max x, min y, max y
 *   pix    [height][width] int32   terrain | (elevation + 128) << 8 | (hex id + 1) << 16
 *   ta     [256][TA_NCOL]  int32   terrain attributes by code, columns TA_* (TA_COLUMNS)
 *   split  [256]           double  split terrain (non-zero: split)
 *   fast   [256]           int32   fast-path class bits FAST_*
 * and, for boards turned round among upright boards, frames: KMaps of the map turned round
 * about each such board (see struct KMap).
 */
#ifndef HEXWX_KERNEL_ONLY
/* Python's stable ABI (3.11 on): one build serves every later Python (an abi3 wheel).
 * HEXWX_KERNEL_ONLY leaves the module out (the C self-test, tools/check_portable_kernel.sh). */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef int64_t i64;

/* MSVC's C compiler knows C99's `inline` only as `__inline` before /std:c11. */
#if defined(_MSC_VER) && !defined(__cplusplus) && !defined(inline)
#define inline __inline
#endif

/* Portable hints (GCC and Clang; no effect on any result): keep the rule chain out of the
 * per-pixel loop, and read the raster ahead of the walk. */
#ifdef __GNUC__
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#define PREFETCH(p) ((void)0)
#endif

/* The functions hexwx._native calls by name: exported from the shared library on every
 * platform (a Windows DLL exports only what is marked so). */
#ifdef _WIN32
#define HEXWX_API __declspec(dllexport)
#elif defined(__GNUC__)
#define HEXWX_API __attribute__((visibility("default")))
#else
#define HEXWX_API
#endif

/* The version of the interface hexwx._native speaks to (structs, exported functions, mirrored
 * constants): it refuses a library whose number differs from its own, such as one left from an
 * older install.  Raise it with every change of a struct, a signature or a mirrored constant. */
#define HEXWX_KERNEL_ABI 5

/* ---- layout ------------------------------------------------------------------------------ */

enum { HX_LOS_X, HX_LOS_Y, HX_COL, HX_DY2, HX_CENTRE, HX_BASE, HX_DEPRESSION, HX_LEVELS,
       HX_ROOFTOP, HX_STAIRWAY, HX_HAS_CLIFF, HX_INHERENT_NEAR, HX_ZERO, HX_FILL, HX_ORDER,
       HX_FRAME, HX_LOW, HX_HILLOCK, HX_NCOL };
enum { H6_ON_MAP, H6_NEIGHBOUR, H6_SIDE_T, H6_LOC_T, H6_LOC_D, H6_CLIFF, H6_NCOL };
enum { TA_OBSTACLE, TA_HINDRANCE, TA_HALF, TA_INHERENT, TA_SPLIT, TA_LOW_OBS, TA_LOW_HIND,
       TA_HEIGHT, TA_CATEGORY, TA_FLAGS, TA_BUILDING, TA_BUILDING_TERRAIN, TA_HEXSIDE,
       TA_PLAIN, TA_END_SKIP, TA_NCOL };

/* fast-path classes of terrain codes (hexwx._native.FAST_*) */
enum { FAST_PLAIN = 1, FAST_BUILDING = 2, FAST_END_SKIP = 4, FAST_HEXSIDE = 8 };

/* reason codes (LOS-SPEC 5); texts and citations live in hexwx.lineofsight.engine.REASONS */
enum { CLEAR = 0, HIGHER_THAN_BOTH = 1, GROUND_HIGHER = 2, HEIGHT_ADVANTAGE = 3, HALF_LEVEL = 4,
       BLIND_OBSTACLE = 5, BLIND_CREST = 6, HEXSIDE = 7, BOCAGE = 8, ROWHOUSE = 9,
       HINDRANCE_SIX = 10, LEAVE_BUILDING = 11, EXITS_DEPRESSION = 12, ENTERS_DEPRESSION = 13,
       CREST_EXIT = 14, CREST_ENTRY = 15, SPLIT_SAME_LEVEL = 16, SAME_HEX = 17, HILLOCK = 18,
       HILLOCK_WALLS = 19, HILLOCK_RUBBLE = 20, ENTRENCHED = 21 };

/* Flags of an end of a trace (the s_end / t_end of trace_one() and its callers): a rooftop
 * Location (B23.8, LOS-SPEC 6.2), a unit in an entrenchment (B27.2). */
enum { END_ROOF = 1, END_ENTRENCHED = 2 };

/* Why a range key's fog counts (hexwx.lineofsight.lv.FOG_RULES gives the citations). */
enum { FOG_NONE = 0, FOG_IN = 1, FOG_LEVEL = 2, FOG_BLIND = 3 };

/* A key no hex of the thread has (the per-key lowest ground, see fog_note()). */
#define FOG_ABSENT INT64_MAX

/* terrain name flags (mirror hexwx.hexmap.terrain) */
#define F_LIGHT_WOODS (1 << 0)
#define F_ROOFLESS (1 << 1)
#define F_CLIFF (1 << 2)
#define F_BOCAGE (1 << 5)
#define F_ORCHARD_OOS (1 << 6)
#define F_HILLOCK (1 << 7)
#define F_RUBBLE (1 << 8)
#define F_ROWHOUSE (1 << 9)
#define F_DENSE_JUNGLE (1 << 13)
#define F_ROAD_NAME (1 << 14)
#define F_GRAIN_BRUSH (1 << 15)
/* categories (mirror hexwx.hexmap.terrain.Category) */
#define C_ROAD 1
#define C_WATER 2
#define C_BRIDGE 10

/* One map, as the Python wrapper passes it (field order matches hexwx._native._KMap).
 *
 * Frames: a board turned round among upright boards has a frame, the whole map turned round
 * about that board's rectangle (pixel (x, y) of the map is (ox - x, oy - y) of the frame,
 * hexside k is hexside (k + 3) mod 6, pix holds only the board's rectangle), in which the board
 * lies upright.  A pair of two hexes of that board (HX_FRAME) is traced in its frame, so it is
 * traced exactly as on the upright board: the walk's rounding, the polygon tests and the
 * hexside orders are not symmetric under the turn.  HX_ORDER orders the hexes for the canonical
 * end of a walk: the hex id on the map, the upright board's order in a frame. */
typedef struct KMap {
    i64 n, width, height;
    const int32_t *hex_at, *hx, *h6, *ext, *loc, *bbox, *pix, *ta;
    const double *split;
    const int32_t *fast;
    i64 nframes;
    const struct KMap *frames;
    i64 ox, oy;
    double hex_w, hex_h;  /* the boards' hex width (column to column) and height, in pixels */
} KMap;

#define HX(h, c) ((i64)m->hx[(i64)(h) * HX_NCOL + (c)])
#define H6(h, k, c) ((i64)m->h6[((i64)(h) * 6 + (k)) * H6_NCOL + (c)])
#define TA(t, c) ((i64)m->ta[(i64)(t) * TA_NCOL + (c)])
#define NB(h, k) H6(h, k, H6_NEIGHBOUR)
#define EXT(h) (m->ext + (i64)(h) * 12)
/* inside(EXT(h), x, y), the bounding box read from bbox rather than made */
#define INSIDE_EXT(h, x, y) inside_ext(m->ext, m->bbox, (i64)(h), (x), (y))
#define LOC(h, k, xy) ((i64)m->loc[((i64)(h) * 6 + (k)) * 2 + (xy)])
/* The packed pixel raster, row-major; the grid lookup (hex id or -1) is read from the packed
 * pixel, the same word the walk reads, rather than from the x-major hex_at array (whose
 * neighbouring pixels of a row lie a raster column apart: one more cache miss per pixel
 * evaluated on maps of several boards). */
#define PIX_INDEX(x, y) ((i64)(y) * m->width + (x))
#define HEX_AT(x, y) ((i64)(m->pix[PIX_INDEX(x, y)] >> 16) - 1)

/* Python's // and % (round toward minus infinity) for operands that may be negative. */
static inline i64 floordiv(i64 a, i64 b)
{
    i64 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q -= 1;
    return q;
}

static inline i64 pymod(i64 a, i64 b)
{
    i64 r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

/* (i64)floor(v), exactly, for |v| < 2^53 (the walk's pixel rows): without SSE4.1 the
 * compiler calls libm's floor(), once per column of every walk. */
static inline i64 ifloor(double v)
{
    i64 t = (i64)v;  /* rounds toward zero */
    return (double)t > v ? t - 1 : t;
}

static inline i64 imin(i64 a, i64 b) { return a < b ? a : b; }
static inline i64 imax(i64 a, i64 b) { return a > b ? a : b; }
static inline i64 iabs(i64 a) { return a < 0 ? -a : a; }

/* ---- pixel geometry (LOS-SPEC 1.5-1.8) ---------------------------------------------------- */

static int inside_edges(const int32_t *poly, i64 x, i64 y);

/* Java AWT polygon insideness of integer pixel (x, y) for a hexagon poly[6][2] (LOS-SPEC 1.5). */
static int inside(const int32_t *poly, i64 x, i64 y)
{
    i64 minx = poly[0], maxx = poly[0], miny = poly[1], maxy = poly[1];
    for (int k = 1; k < 6; k++) {
        if (poly[2 * k] < minx) minx = poly[2 * k];
        if (poly[2 * k] > maxx) maxx = poly[2 * k];
        if (poly[2 * k + 1] < miny) miny = poly[2 * k + 1];
        if (poly[2 * k + 1] > maxy) maxy = poly[2 * k + 1];
    }
    /* 1. the half-open bounding box */
    if (x < minx || x >= maxx || y < miny || y >= maxy)
        return 0;
    return inside_edges(poly, x, y);
}

/* inside() for the extended border of hex h, whose bounding box the map keeps (bbox). */
static inline int inside_ext(const int32_t *ext, const int32_t *bbox, i64 h, i64 x, i64 y)
{
    const int32_t *b = bbox + h * 4;
    if (x < b[0] || x >= b[1] || y < b[2] || y >= b[3])
        return 0;
    return inside_edges(ext + h * 12, x, y);
}

/* Step 2 of inside(), for a pixel inside the polygon's bounding box. */
static int inside_edges(const int32_t *poly, i64 x, i64 y)
{
    /* 2. even-odd crossings */
    int crossings = 0;
    for (int k = 0; k < 6; k++) {
        i64 x1 = poly[2 * k], y1 = poly[2 * k + 1];
        i64 x2 = poly[2 * ((k + 1) % 6)], y2 = poly[2 * ((k + 1) % 6) + 1];
        if (y1 == y2)
            continue;  /* horizontal edge */
        if (y < imin(y1, y2) || y >= imax(y1, y2))
            continue;
        if (x >= imax(x1, x2))
            continue;
        if (x < imin(x1, x2)) {
            crossings++;
            continue;
        }
        i64 xa, ya, xb, yb;
        if (y1 < y2) {
            xa = x1; ya = y1; xb = x2; yb = y2;
        } else {
            xa = x2; ya = y2; xb = x1; yb = y1;
        }
        /* evaluated in floating point, as AWT does */
        if ((double)(x - xa) < (double)(y - ya) * ((double)(xb - xa) / (double)(yb - ya)))
            crossings++;
    }
    return (crossings & 1) == 1;
}

/* Nearest location of pixel (x, y) in a hex with LOS point (cx, cy), hexside location points
 * loc6[6][2] and on-map flags on[k * on_stride]: -1 for the centre, else the hexside 0-5. */
static int nearest_location(i64 x, i64 y, i64 cx, i64 cy, const int32_t *loc6,
                            const int32_t *on, int on_stride)
{
    i64 dx = x - cx, dy = y - cy;
    i64 best = dx * dx + dy * dy;
    int which = -1;
    for (int k = 0; k < 6; k++) {
        if (!on[k * on_stride])
            continue;
        dx = x - loc6[2 * k];
        dy = y - loc6[2 * k + 1];
        i64 d = dx * dx + dy * dy;
        if (d < best) {
            best = d;
            which = k;
        }
    }
    return which;
}


/* Range between hexes a and b (LOS-SPEC 1.7). */
static inline i64 hex_range(const KMap *m, i64 a, i64 b)
{
    i64 dc = iabs(HX(a, HX_COL) - HX(b, HX_COL));
    i64 dy = iabs(HX(a, HX_DY2) - HX(b, HX_DY2));
    if (dy > dc)
        return dc + floordiv(dy - dc, 2);
    return dc;
}

static inline double d2(i64 ax, i64 ay, i64 bx, i64 by)
{
    double dx = (double)(ax - bx);
    double dy = (double)(ay - by);
    return dx * dx + dy * dy;
}

/* ---- grid lookup (LOS-SPEC 1.6) ----------------------------------------------------------- */

static i64 row_of(i64 col, i64 y, double hex_h)
{
    if (pymod(col, 2) == 0)
        return (i64)floor((double)y / hex_h);
    return (i64)floor(((double)y + hex_h / 2.0) / hex_h);
}

static i64 cell(i64 col, i64 row, const int32_t *first, const int32_t *nrows, i64 ncols)
{
    if (col < 0 || col >= ncols || row < 0 || row >= nrows[col])
        return -1;
    return first[col] + row;
}

static i64 lookup(i64 x, i64 y, const int32_t *border, const int32_t *first,
                  const int32_t *nrows, i64 ncols, double hex_w, double hex_h)
{
    i64 z = (i64)floor((double)x / (hex_w / 3.0));
    if (pymod(z, 3) != 1) {
        /* the rectangular middle of a column */
        i64 col = floordiv(z + 2, 3);  /* ceil(z / 3) */
        return cell(col, row_of(col, y, hex_h), first, nrows, ncols);
    }
    /* the slanted zone between two columns */
    i64 col = floordiv(z - 1, 3);
    i64 row = row_of(col, y, hex_h);
    const i64 cands[9][2] = {{col, row}, {col, row - 1}, {col, row + 1},
                             {col + 1, row}, {col + 1, row - 1}, {col + 1, row + 1},
                             {col - 1, row}, {col - 1, row - 1}, {col - 1, row + 1}};
    for (int i = 0; i < 9; i++) {
        i64 h = cell(cands[i][0], cands[i][1], first, nrows, ncols);
        if (h >= 0 && inside(border + h * 12, x, y))
            return h;
    }
    if (cell(col - 1, row + 1, first, nrows, ncols) >= 0)
        return -1;
    /* the final edge fallback */
    i64 h;
    if (pymod(col, 2) == 0) {
        h = cell(col + 1, row + 1, first, nrows, ncols);
        if (h >= 0 && inside(border + h * 12, x, y))
            return h;
        h = cell(col + 1, row, first, nrows, ncols);
        if (h >= 0 && inside(border + h * 12, x, y))
            return h;
        return -1;
    }
    h = cell(col + 1, row - 1, first, nrows, ncols);
    if (h >= 0 && (inside(border + h * 12, x, y) || row == nrows[col] - 1))
        return h;
    h = cell(col + 1, row, first, nrows, ncols);
    if (h >= 0 && inside(border + h * 12, x, y))
        return h;
    return -1;
}

/* The hex of every pixel: out[width][height] (x-major); border [n][6][2], first and nrows
 * per grid column; hexes hex_w apart column to column, hex_h high (56.25 x 64.5 on
 * geomorphic boards). */
HEXWX_API void hexwx_grid_lookup_all(i64 width, i64 height, const int32_t *border, const int32_t *first,
                           const int32_t *nrows, i64 ncols, double hex_w, double hex_h, int32_t *out)
{
    for (i64 x = 0; x < width; x++)
        for (i64 y = 0; y < height; y++)
            out[x * height + y] = (int32_t)lookup(x, y, border, first, nrows, ncols, hex_w, hex_h);
}

/* ---- overlay levels (hexwx.io.overlays._fill_along_rows) ----------------------------------- */

/* In place, values int16 [height][width] (image rows): each pixel equal to `none` takes the
 * value of the nearest pixel to its left on its row that has one, else the nearest to its
 * right; a row with none keeps `none`.  One pass per row. */
HEXWX_API void hexwx_fill_rows(int16_t *values, i64 height, i64 width, i64 none)
{
    for (i64 y = 0; y < height; y++) {
        int16_t *row = values + y * width;
        i64 first = 0;
        while (first < width && row[first] == none)
            first++;
        if (first == width)
            continue;
        int16_t last = row[first];
        for (i64 x = 0; x < first; x++)
            row[x] = last;
        for (i64 x = first + 1; x < width; x++) {
            if (row[x] == none)
                row[x] = last;
            else
                last = row[x];
        }
    }
}

/* ---- hex terrain derivation (LOS-SPEC 2.2 step 6) ------------------------------------------ */

/* Inherent terrain filling a hex: the first inherent pixel (column by column inside the
 * border's bounding box) whose nearest location is the centre replaces centre[h].
 * terrain [width][height] uint8, inherent [256] int8, on [n][6] int32. */
HEXWX_API void hexwx_inherent_pass(i64 n, int32_t *centre, const int32_t *border, i64 width, i64 height,
                         const uint8_t *terrain, const int8_t *inherent, const int32_t *lx,
                         const int32_t *ly, const int32_t *loc, const int32_t *on)
{
    for (i64 h = 0; h < n; h++) {
        const int32_t *b = border + h * 12;
        i64 minx = b[0], maxx = b[0], miny = b[1], maxy = b[1];
        for (int k = 1; k < 6; k++) {
            minx = imin(minx, b[2 * k]);
            maxx = imax(maxx, b[2 * k]);
            miny = imin(miny, b[2 * k + 1]);
            maxy = imax(maxy, b[2 * k + 1]);
        }
        int found = 0;
        for (i64 x = minx; x < maxx && !found; x++) {
            if (x < 0 || x >= width)
                continue;
            for (i64 y = miny; y < maxy; y++) {
                if (y < 0 || y >= height)
                    continue;
                int t = terrain[x * height + y];
                if (inherent[t] && nearest_location(x, y, lx[h], ly[h], loc + h * 12, on + h * 6, 1) == -1) {
                    centre[h] = t;
                    found = 1;
                    break;
                }
            }
        }
    }
}

/* ---- one trace ---------------------------------------------------------------------------- */

/* The ends of one trace that are in bypass (D2.3): hex sh is traced from (sx, sy) instead of
 * its LOS point, and hex th from (tx, ty); -2 where that end is not in bypass.  (When both
 * ends are one hex, th's point stands.) */
typedef struct Bypass {
    i64 sh, sx, sy, th, tx, ty;
} Bypass;

static const Bypass NO_BYPASS = {-2, 0, 0, -2, 0, 0};

/* What one trace knows: the map, the pair (fixed for the trace), the walk state, and the
 * caller's output buffers. */
typedef struct {
    const KMap *m;
    /* the pair */
    i64 src, tgt, R, sE, tE, sroof, troof;
    int spine;          /* the thread runs along hexspines (LOS-SPEC 4.1 step 4) */
    i64 e;              /* vertex of the source the thread leaves by (spine), else -1 */
    i64 sx, sy, tx, ty; /* LOS points */
    int exit_act, entry_act;  /* depression exit / entry restrictions active (A6.3) */
    int adj_depr_side;  /* adjacent ends sharing a depression hexside (B19.2) */
    i64 entry_a;        /* hexside of the target the spine thread enters by */
    int canon;          /* 1: the walk runs from the target (the lower id) */
    int detail;         /* 1: record the thread */
    double Sp, Tp, lo, hi;  /* end heights (rooftops -0.5), their min and max */
    int sent, tent;     /* the source / target unit is in an entrenchment (B27.2) */
    int s_hill, t_hill; /* the source / target unit is on a hillock (F6.4, rule_hillock) */
    int both_hillock;   /* both are */
    /* hillocks (F6.4) seen so far: the hillock a unit on a hillock stands on; the hillocks next
     * to a non-entrenched end not on one (hillock_adjacency(), adj_done once made); the first
     * other hillock and rubble hex crossed; the walls and hedges crossed (hexside keys, each
     * with its first and last pixel; see hillock_walls()); the grain or brush hex kept for the
     * one hindrance (its range key, hex, terrain, pixel and ranges) */
    i64 hill_own, adj_s, adj_t, hill_seen, rubble_seen;
    int adj_done, nwalls;
    i64 wall_key[4], wall_px[4][4];
    i64 grain_key, grain_h, grain_t, grain_x, grain_y, grain_rs, grain_rt;
    /* the walk state */
    i64 cur, rs, rt, prev, gign, left, total, reason, bx, by, nth, stop, bounce, bhex;
    i64 roof_nb_s, roof_nb_t;  /* a rooftop end's neighbour across its first exit hexside */
    i64 cand_x, cand_y, cand_h, last_rec;
    i64 memo_p;         /* the packed pixel remember() kept (its hex field 0: none) */
    /* fog (E3 3.311): each range key's lowest ground, when the caller asks (fl != NULL) */
    i64 *fl;
    i64 fog_last, fog_prev;  /* the two hexes fog_note() saw last */
    /* outputs */
    i64 *hv, *hh, *thread, *tkeys;
    i64 thread_len;
    i64 visited;        /* pixels read by the walk (for measuring the kernel's speed) */
    /* ends in bypass (D2.3; kept last, away from the walk's fields) */
    int bypass;         /* some end is in bypass: read LOS points through pt_x() / pt_y() */
    int byp_s, byp_t;   /* the source / target is in bypass: its own hex's obstacle counts */
    Bypass bp;          /* those ends and their LOS points */
} Trace;

/* The LOS point of hex h in this trace: an end in bypass's hexside point, else HX_LOS_*. */
static inline i64 pt_x(const Trace *w, i64 h)
{
    const KMap *m = w->m;
    if (!w->bypass)
        return HX(h, HX_LOS_X);
    return h == w->bp.th ? w->bp.tx : (h == w->bp.sh ? w->bp.sx : HX(h, HX_LOS_X));
}

static inline i64 pt_y(const Trace *w, i64 h)
{
    const KMap *m = w->m;
    if (!w->bypass)
        return HX(h, HX_LOS_Y);
    return h == w->bp.th ? w->bp.ty : (h == w->bp.sh ? w->bp.sy : HX(h, HX_LOS_Y));
}

/* Nearest location of pixel (x, y) in hex h (LOS-SPEC 1.8), from h's point in this trace. */
static inline int nearest_loc(const Trace *w, i64 x, i64 y, i64 h)
{
    const KMap *m = w->m;
    return nearest_location(x, y, pt_x(w, h), pt_y(w, h), m->loc + h * 12,
                            m->h6 + h * 6 * H6_NCOL + H6_ON_MAP, H6_NCOL);
}

static void block(Trace *w, i64 reason, i64 x, i64 y, i64 h)
{
    if (w->reason == 0) {
        w->reason = reason;
        w->bx = x;
        w->by = y;
        w->bhex = h;
    }
}

/* Count a hindrance of terrain t in hex H, once per range key (LOS-SPEC 4.5, B.10). */
static void add_hindrance(Trace *w, i64 t, i64 H, i64 x, i64 y)
{
    const KMap *m = w->m;
    if (H == w->src || H == w->tgt)
        return;
    i64 rs = w->rs, rt = w->rt;
    if (rs >= w->R || rt >= w->R)
        return;
    i64 value;
    if (w->spine && pymod(rs, 2) == 1) {
        /* a hexspine pair: a roofless neighbour across the spine counts as the pair's value */
        value = 1;
        if (TA(t, TA_FLAGS) & F_ROOFLESS) {
            value = 2;
        } else {
            i64 sides[2] = {pymod(w->e + 1, 6), pymod(w->e + 4, 6)};
            for (int i = 0; i < 2; i++) {
                i64 o = NB(H, sides[i]);
                if (o >= 0 && (TA(HX(o, HX_CENTRE), TA_FLAGS) & F_ROOFLESS))
                    value = 2;
            }
        }
    } else if (TA(t, TA_FLAGS) & (F_LIGHT_WOODS | F_ROOFLESS)) {
        value = 2;
    } else {
        value = 1;
    }
    i64 key = w->canon == 0 ? rs : rt;
    if (value > w->hv[key]) {
        w->total += value - w->hv[key];
        w->hv[key] = value;
        w->hh[key] = H * 256 + t;  /* hex and terrain code, for the explanation */
        if (w->total >= 6)
            block(w, HINDRANCE_SIX, x, y, H);
    }
}

/* R3 ignore test for end hex X with vertex e (LOS-SPEC 4.6 R3 step 3). */
static int ignored_for_end(const KMap *m, i64 X, i64 e, i64 H, i64 L, int spine)
{
    if (L < 0)
        return 1;
    i64 rx = hex_range(m, X, H);
    if (rx > 2)
        return 0;
    if (H == X)
        return 1;
    for (int k = 0; k < 6; k++)
        if (NB(X, k) == H && L == (k + 3) % 6)
            return 1;
    for (int k = 0; k < 6; k++)
        if (NB(X, k) == H && (L == (k + 2) % 6 || L == (k + 4) % 6))
            return 1;  /* a spine hexside of X (bocage is handled by the caller) */
    if (rx == 1 && H6(H, L, H6_SIDE_T) < 0)
        return 1;
    if (spine && e >= 0) {
        i64 HH = H, LL = L;
        if (rx == 2) {
            i64 H2 = NB(HH, LL);
            if (H2 < 0)
                return 1;
            if (hex_range(m, X, H2) > 1)
                return 0;
            HH = H2;
            LL = (LL + 3) % 6;
        }
        i64 A = NB(X, (e + 5) % 6);
        i64 B = NB(X, e);
        if (A < 0 || B < 0)
            return 0;
        if (H6(B, (e + 4) % 6, H6_SIDE_T) >= 0) {
            if ((HH == A && LL == e) || (HH == B && LL == (e + 5) % 6)) {
                if (H6(A, e, H6_SIDE_T) < 0 || H6(B, (e + 5) % 6, H6_SIDE_T) < 0)
                    return 1;
            }
        }
    }
    return 0;
}

/* Sign of the turn a -> b -> c. */
static inline int orient(i64 ax, i64 ay, i64 bx, i64 by, i64 cx, i64 cy)
{
    i64 v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

static inline int within(i64 ax, i64 ay, i64 bx, i64 by, i64 cx, i64 cy)
{
    return imin(ax, bx) <= cx && cx <= imax(ax, bx) && imin(ay, by) <= cy && cy <= imax(ay, by);
}

/* Do the closed segments p1-p2 and q1-q2 touch? */
static int segments_touch(i64 p1x, i64 p1y, i64 p2x, i64 p2y, i64 q1x, i64 q1y, i64 q2x, i64 q2y)
{
    int o1 = orient(p1x, p1y, p2x, p2y, q1x, q1y), o2 = orient(p1x, p1y, p2x, p2y, q2x, q2y);
    int o3 = orient(q1x, q1y, q2x, q2y, p1x, p1y), o4 = orient(q1x, q1y, q2x, q2y, p2x, p2y);
    if (o1 != o2 && o3 != o4)
        return 1;
    return (o1 == 0 && within(p1x, p1y, p2x, p2y, q1x, q1y)) ||
           (o2 == 0 && within(p1x, p1y, p2x, p2y, q2x, q2y)) ||
           (o3 == 0 && within(q1x, q1y, q2x, q2y, p1x, p1y)) ||
           (o4 == 0 && within(q1x, q1y, q2x, q2y, p2x, p2y));
}

/* The first hexside by which a thread from hex X to hex Y leaves X (LOS-SPEC 4.1 step 5), seen
 * from X whichever end X is, so that both directions of a pair name the same hexside: along a
 * hexspine the first of the two exit hexsides, straight up or down hexside 0 or 3, otherwise
 * the lowest-numbered hexside of X's extended border the segment touches; -1 if none. */
static i64 first_exit_side(const Trace *w, i64 X, i64 Y)
{
    const KMap *m = w->m;
    const i64 sx = pt_x(w, X), sy = pt_y(w, X), tx = pt_x(w, Y), ty = pt_y(w, Y);
    if (sy == ty)
        return tx > sx ? 1 : 4;
    if (sx == tx)
        return ty < sy ? 0 : 3;
    i64 R = hex_range(m, X, Y);
    double slope = (double)iabs(sy - ty) / (double)iabs(sx - tx);
    double tol = R < 5 ? 0.05 : (R <= 15 ? 0.03 : 0.015);
    if (fabs(slope - sqrt(3.0)) < tol) {
        if (tx > sx)
            return ty > sy ? 2 : 0;
        return ty > sy ? 4 : 5;
    }
    const int32_t *e = EXT(X);
    for (int k = 0; k < 6; k++) {
        int k1 = (k + 1) % 6;
        if (segments_touch(sx, sy, tx, ty, e[2 * k], e[2 * k + 1], e[2 * k1], e[2 * k1 + 1]))
            return k;
    }
    return -1;
}

/* Blind-hex test Blind(t) (LOS-SPEC 4.6 R9; A6.4, B10.23) with the ends' adjusted heights
 * Hi and Lo (rooftops -0.5, LOS-SPEC 6.2; rowhouse walls too, B23.71). */
static int blind(Trace *w, double t_h, double g, i64 H, i64 t, i64 x, i64 y, int cliff_flag,
                 double delta)
{
    const KMap *m = w->m;
    const double Hi = w->hi, Lo = w->lo;
    if (w->sE == w->tE)
        return 0;
    i64 hi_hex, lo_hex;
    if (w->Sp > w->Tp) {
        hi_hex = w->src;
        lo_hex = w->tgt;
    } else {
        hi_hex = w->tgt;
        lo_hex = w->src;
    }
    i64 rH = hex_range(m, H, hi_hex);
    i64 rL = hex_range(m, H, lo_hex);
    /* a cliff next to an end: the side of the cliff the pixel lies on decides */
    if (!w->spine && cliff_flag) {
        int L = nearest_loc(w, x, y, H);
        if (L >= 0 && (TA(H6(H, L, H6_LOC_T), TA_FLAGS) & F_CLIFF)) {
            i64 hi_x = pt_x(w, hi_hex), hi_y = pt_y(w, hi_hex);
            i64 lo_x = pt_x(w, lo_hex), lo_y = pt_y(w, lo_hex);
            double dh = d2(pt_x(w, H), pt_y(w, H), hi_x, hi_y);
            double dl = d2(pt_x(w, H), pt_y(w, H), lo_x, lo_y);
            if (rH == 1 && Hi > t_h && d2(x, y, hi_x, hi_y) < dh)
                return 0;
            if (rL == 1 && Hi > t_h && d2(x, y, lo_x, lo_y) > dl)
                return 0;
        }
    }
    if (TA(t, TA_FLAGS) & F_ROWHOUSE) {
        rL += 1;
        rH -= 1;
    }
    double ta = 0.0;
    if ((w->sroof == 1 || w->troof == 1) && TA(t, TA_HALF) == 1 && TA(t, TA_BUILDING) == 1)
        ta = 0.5;
    double zone;
    if (t_h == 0 && !cliff_flag) {
        zone = 2.0 * (g + delta + ta) + (double)floordiv(rH, 5) - Hi - Lo;
        if (zone < 0)
            zone = 0.0;
    } else {
        zone = 2.0 * (g + t_h + ta) + (double)floordiv(rH, 5) - Hi - Lo + 1;
        if (zone < 1)
            zone = 1.0;
    }
    return (double)rL <= zone;
}

/* -1 if the lowest-numbered hexside of H crossed by the thread is a depression location. */
static double lowest_crossed_depression(Trace *w, i64 H)
{
    const KMap *m = w->m;
    int any_d = 0;
    for (int k = 0; k < 6; k++)
        if (H6(H, k, H6_LOC_D))
            any_d = 1;
    if (!any_d)
        return 0.0;
    /* exact centre from the LOS point (within a pixel) */
    double X = (double)pt_x(w, H), Y = (double)pt_y(w, H);
    double sx = (double)w->sx, sy = (double)w->sy, tx = (double)w->tx, ty = (double)w->ty;
    /* the vertices v0..v5 (LOS-SPEC 1.4): +-18.75, 37.5 and +-32.25 on geomorphic boards */
    double s3 = m->hex_w / 3.0, hh = m->hex_h / 2.0;
    const double vx[6] = {-s3, s3, 2.0 * s3, s3, -s3, -2.0 * s3};
    const double vy[6] = {-hh, -hh, 0.0, hh, hh, 0.0};
    for (int k = 0; k < 6; k++) {
        double ax = X + vx[k], ay = Y + vy[k];
        double bx = X + vx[(k + 1) % 6], by = Y + vy[(k + 1) % 6];
        double d1 = (tx - sx) * (ay - sy) - (ty - sy) * (ax - sx);
        double dd2 = (tx - sx) * (by - sy) - (ty - sy) * (bx - sx);
        double d3 = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax);
        double d4 = (bx - ax) * (ty - ay) - (by - ay) * (tx - ax);
        if (d1 * dd2 <= 0 && d3 * d4 <= 0)
            return H6(H, k, H6_LOC_D) ? -1.0 : 0.0;
    }
    return 0.0;
}

/* True if hexside a or a+1 of end hex X is a crest (LOS-SPEC 4.6 R1, B19.51): the hexes' base
 * heights differ, or exactly one side of a depression hexside location is a depression. */
static int crest_sides(const KMap *m, i64 X, i64 a)
{
    i64 ks[2] = {a, (a + 1) % 6};
    for (int i = 0; i < 2; i++) {
        i64 k = ks[i];
        i64 o = NB(X, k);
        if (o < 0)
            continue;  /* an off-map neighbour is no crest (VASL throws here, LOS-SPEC 7.1) */
        if (HX(X, HX_BASE) != HX(o, HX_BASE))
            return 1;
        if (H6(X, k, H6_LOC_D) != 0 && ((HX(X, HX_DEPRESSION) != 0) != (HX(o, HX_DEPRESSION) != 0)))
            return 1;
    }
    return 0;
}

/* Add hex H to the thread (once), keyed by its range from the canonical end. */
static inline void record(Trace *w, i64 H)
{
    if (H < 0 || H == w->last_rec)
        return;
    w->last_rec = H;
    for (i64 i = 0; i < w->nth; i++)
        if (w->thread[i] == H)
            return;
    if (w->nth < w->thread_len) {
        i64 key = w->canon == 0 ? hex_range(w->m, w->src, H) : hex_range(w->m, w->tgt, H);
        w->thread[w->nth] = H;
        w->tkeys[w->nth] = key;
        w->nth += 1;
    }
}

/* ---- fog on the thread (E3 3.31, 3.311; hexwx.lineofsight.lv.fog_lv is the reference) ---- */

/* Note hex H on the thread for fog: the lowest ground of its range key becomes the lowest over
 * the key's hexes (a hexspine pair, a grazed corner count once, and fog exists in a hex only
 * below the fog top, 3.311: the group holds fog if any of its hexes has ground below the top).
 * Called wherever record() lists a hex for the single query's thread.
 *
 * A batch trace skips pixels that the single query evaluates on a hexspine (the fast path,
 * skippable(); the single query evaluates them to list both hexes of each pair), so it does not
 * note the hex pixel() would also read such a pixel for.  The fog answer is the same: that hex
 * is the one across the spine (the same key; the skipped pixel lies no higher than the lower
 * end, so its own hex, noted by visit(), already gives the key ground below any fog top that
 * can count between the ends, fog_rule()) or the hex before or after the pair along the
 * thread, whose own pixels the walk visits and notes. */
static inline void fog_note(Trace *w, i64 H)
{
    if (H == w->fog_last || H == w->fog_prev || H < 0)
        return;  /* (pixels along a hexside alternate between two hexes) */
    w->fog_prev = w->fog_last;
    w->fog_last = H;
    const KMap *m = w->m;
    i64 key = w->canon == 0 ? hex_range(m, w->src, H) : hex_range(m, w->tgt, H);
    if (key > w->R)
        return;  /* not between the ends (a pixel of the walk never lies in such a hex) */
    i64 low = HX(H, HX_LOW);
    if (low < w->fl[key])
        w->fl[key] = low;
}

/* Whether the fog of one range key hinders a LOS (hexwx.lineofsight.lv._fog_hex_rule_scaled,
 * rule by rule): heights scaled by d (top, se, te and low are integers times d), rs/rt the
 * key's range from the source / to the target, low its lowest ground (known = 0: no hex of
 * the key is known, take fog as present).  Returns FOG_NONE or why it counts. */
static int fog_rule(i64 top, i64 se, i64 te, i64 rs, i64 rt, i64 low, int known, i64 d)
{
    if (rs == 0)                     /* the firer's hex: in fog when below the top (3.311) */
        return se < top ? FOG_IN : FOG_NONE;
    if (rt == 0)                     /* the target's hex */
        return te < top ? FOG_IN : FOG_NONE;
    if (known && low >= top)         /* no ground below the fog top: no fog here (3.311) */
        return FOG_NONE;
    i64 hi = imax(se, te), lo = imin(se, te);
    if (top > hi)                    /* the thread runs inside the fog */
        return FOG_IN;
    if (top == hi && top > lo)       /* level with the higher end: no height advantage (A6.2) */
        return FOG_LEVEL;
    if (lo < top && top < hi) {
        /* the fog top as an obstacle: the lower end must lie in its blind zone (A6.41: one hex
         * per level of the top above the lower end, +1 per full 5 hexes from the higher end;
         * A6.42: -1 per level the higher end stands above the top beyond the first; >= 1) */
        i64 r_hi = se > te ? rs : rt, r_lo = se > te ? rt : rs;
        i64 zone = top - lo - (hi - top) + d * (1 + r_hi / 5);
        if (d * r_lo <= imax(zone, d))
            return FOG_BLIND;
    }
    return FOG_NONE;
}

/* Can fog between the ends hinder a LOS at elevations sE, tE (fog = (top, d, drm))?  Only
 * when the fog top is above the lower end (fog_rule()); otherwise the walk need not note the
 * hexes (fog_total() is given no fl). */
static inline int fog_between(const i64 *fog, i64 sE, i64 tE)
{
    return fog != NULL && fog[0] > imin(sE, tE) * fog[1];
}

/* The fog LV of the pair src -> tgt (elevations sE, tE) from the per-key lowest ground fl of
 * its thread (keys count from the lower hex id, as the walk keys them, so one trace serves both
 * directions; NULL when !fog_between()): the density DRM per key that holds hindering fog --
 * the end keys always count as on the thread (3.311) -- plus +1 when firing out of fog
 * (A24.8).  fog = (top, d, drm): the fog top (level L + 1 for fog at level L and lower) and the
 * elevations scaled by d, and the density DRM.  fk (may be NULL) receives each key's FOG_*
 * code, for the explanation.  Fire within one location (halved) and within one building (no
 * LV, 3.8) are the caller's. */
static i64 fog_total(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, const i64 *fl,
                     const i64 *fog, i64 *fk)
{
    const i64 top = fog[0], d = fog[1], drm = fog[2];
    const i64 R = hex_range(m, src, tgt);
    const int canon = src > tgt;
    const i64 se = sE * d, te = tE * d;
    i64 count = 0;
    for (i64 k = 0; k <= R; k++) {
        i64 rs = canon ? R - k : k, rt = R - rs;
        int known = fl != NULL && fl[k] != FOG_ABSENT;
        int code = FOG_NONE;
        if (known || rs == 0 || rt == 0)
            code = fog_rule(top, se, te, rs, rt, known ? fl[k] * d : 0, known, d);
        if (fk)
            fk[k] = code;
        count += code != FOG_NONE;
    }
    return drm * count + (se < top ? 1 : 0);
}

/* Fog keys a thread of one hex per range step (fog everywhere, lv.lv_total_straight) counts
 * and this thread does not, at fog top `top` (whole levels), for ground-level ends sE, tE:
 * what a precomputed all-fog count must lose to be this thread's (exposure's cache of all
 * pairs keeps it per fog top, so that a weather change needs no new trace). */
static i64 fog_deficit(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, const i64 *fl, i64 top)
{
    const i64 R = hex_range(m, src, tgt);   /* (its caller: fl given, top above the lower end) */
    const int canon = src > tgt;
    i64 deficit = 0;
    for (i64 k = 0; k <= R; k++) {
        i64 rs = canon ? R - k : k, rt = R - rs;
        if (fog_rule(top, sE, tE, rs, rt, 0, 0, 1) == FOG_NONE)
            continue;
        int known = fl[k] != FOG_ABSENT;
        if (!(known || rs == 0 || rt == 0) || fog_rule(top, sE, tE, rs, rt, fl[k], known, 1) == FOG_NONE)
            deficit++;
    }
    return deficit;
}

/* fog_deficit() at each fog top tops[j] (j < ntops) into out[j * stride], at most 255.
 *
 * The same count, the cheaper way: a key counts when the straight thread's fog hinders there
 * (fog_rule() with no ground known) and this thread's does not.  At an end key (rs or rt 0)
 * both rules read only the end's elevation, so an end never counts; at a key between the ends
 * the rules differ only where the key's lowest ground (FOG_ABSENT: no hex, above any top) is
 * not below the top (3.311).  With the top at or above the higher end, fog hinders at every
 * key between the ends (FOG_IN, FOG_LEVEL): the count is of those keys whose lowest ground is
 * not below the top.  (Between the ends' elevations fog_deficit() itself counts.) */
static void fog_deficits(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, const i64 *fl,
                         const i64 *tops, i64 ntops, uint8_t *out, i64 stride)
{
    const i64 lo = imin(sE, tE), hi = imax(sE, tE);
    i64 R = -1;
    for (i64 j = 0; j < ntops; j++) {
        const i64 top = tops[j];
        i64 deficit = 0;
        if (fl != NULL && top > lo) {
            if (R < 0)
                R = hex_range(m, src, tgt);
            if (top >= hi) {
                for (i64 k = 1; k < R; k++)
                    deficit += fl[k] >= top;
            } else {
                deficit = fog_deficit(m, src, tgt, sE, tE, fl, top);
            }
        }
        out[j * stride] = (uint8_t)imin(255, deficit);
    }
}

/* The fog LV (fog = (top, d, drm)) of a thread of one hex per range step with fog in every
 * hex (lv.lv_total_straight), by end elevations and range: out[a][b][r] for the source at
 * elevation lo + a, the target at lo + b, range r < ranges.  fog_deficit() counts what a real
 * thread loses against it. */
HEXWX_API void hexwx_fog_straight(const i64 *fog, i64 lo, i64 levels, i64 ranges, int32_t *out)
{
    const i64 top = fog[0], d = fog[1], drm = fog[2];
    for (i64 a = 0; a < levels; a++)
        for (i64 b = 0; b < levels; b++) {
            const i64 se = (lo + a) * d, te = (lo + b) * d;
            for (i64 r = 0; r < ranges; r++) {
                i64 count = 0;
                for (i64 k = 0; k <= r; k++)
                    count += fog_rule(top, se, te, k, r - k, 0, 0, d) != FOG_NONE;
                out[(a * levels + b) * ranges + r] = (int32_t)(drm * count + (se < top ? 1 : 0));
            }
        }
}

/* True if adjacent hexes a and b share a hexside that is a depression location on either side:
 * the depression runs on across it (B19.2: two adjacent depression hexes see each other only
 * across a connecting depression hexside). */
static int shares_depression_side(const KMap *m, i64 a, i64 b)
{
    for (int k = 0; k < 6; k++)
        if (NB(a, k) == b)
            return H6(a, k, H6_LOC_D) != 0 || H6(b, (k + 3) % 6, H6_LOC_D) != 0;
    return 0;
}

/* R1 t1 (A6.3, LOS-SPEC 4.6): is the pixel outside the depression while the range to the far
 * end (r_far) still exceeds the elevation difference?  `near` is the depression end's adjusted
 * elevation; (`fx`, `fy`) / `far_e` the other end's LOS point and raw elevation.  Cancelled when the ends are
 * adjacent across a depression hexside (`adj_open`, B19.2), and for a pixel of a depression hex
 * next to the far end, nearer to it than the hex centre, when the far end is above the hex's
 * floor. */
static int outside_depression(i64 g, i64 base, i64 depr, i64 cat, i64 x, i64 y,
                              i64 lxH, i64 lyH, double near, int adj_open, i64 r_far, i64 fx,
                              i64 fy, i64 far_e)
{
    int outside;
    if (!depr)
        outside = (double)g > near;
    else
        outside = g != base && (double)g > near && !(cat == C_ROAD || cat == C_BRIDGE);
    if (outside && adj_open)
        return 0;
    if (outside && r_far == 1 && far_e > base && depr != 0 &&
        d2(x, y, fx, fy) < d2(lxH, lyH, fx, fy))
        return 0;
    return outside;
}

/* ---- the rule chain (LOS-SPEC 4.6), one function per rule ------------------------------------
 * evaluate() applies the rules to one pixel in order; each rule function returns 1 when the
 * pixel's evaluation ends there (the LOS is blocked, or the sixth hindrance point reached), else
 * 0.  The rules read the pixel's terrain, ground and hex from a Pixel. */

/* One pixel as the rules read it: position, terrain code t and its attributes, ground g, the
 * hex H it is attributed to with that hex's columns, and its ranges to the ends. */
typedef struct Pixel {
    i64 x, y, t, g, H;
    i64 flags, cat, half, hexs, bld, obst, inh, h;  /* TA columns of t */
    double split;
    i64 depr, base, centre, lxH, lyH;              /* HX columns of H */
    i64 rS, rT;                                    /* ranges from the source, the target */
    int cliff_spine;                               /* R4 step 2: a cliff spine ... */
    i64 mm;                                        /* ... and the lower ground beside it */
    int hill;                                      /* R10's answer (HILL_*), made by R6 */
} Pixel;

/* A new hex of the thread: bounce-back tracking, ranges to the ends, the thread and fog notes,
 * and the R1b ground-ignore update (non-spine, not a bounce-back). */
static ALWAYS_INLINE void enter_hex(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    const i64 H = p->H;
    if (H == w->prev) {
        w->bounce = 1;
    } else {
        w->prev = w->cur;
        w->bounce = 0;
    }
    w->cur = H;
    w->rs = hex_range(m, w->src, H);
    w->rt = hex_range(m, w->tgt, H);
    if (w->detail == 1)
        record(w, H);
    if (w->fl)
        fog_note(w, H);
    if (!w->spine && w->bounce == 0 && H != w->src) {
        int L = nearest_loc(w, p->x, p->y, H);
        if (L >= 0) {
            i64 lt = H6(H, L, H6_LOC_T);
            if ((w->exit_act == 1 && w->Tp - w->Sp >= 1) &&
                (H6(H, L, H6_LOC_D) != 0 || TA(lt, TA_CATEGORY) == C_WATER))
                w->gign = H;
        }
    }
}

/* R1 depression (A6.3): exit restriction (source in a depression) and entry restriction
 * (target in one), the same test seen from either end; and the crest line at a vertex
 * (B19.51): a hexspine thread leaving (entering) a depression end. */
static ALWAYS_INLINE int rule_depression(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    const i64 x = p->x, y = p->y, H = p->H;
    if (w->exit_act == 1 && H != w->tgt && (double)p->rT > w->Tp - w->Sp &&
        outside_depression(p->g, p->base, p->depr, p->cat, x, y, p->lxH, p->lyH, w->Sp,
                           w->adj_depr_side, p->rT, pt_x(w, w->tgt), pt_y(w, w->tgt), w->tE)) {
        block(w, EXITS_DEPRESSION, x, y, H);
        return 1;
    }
    if (w->entry_act == 1 && H != w->src && (double)p->rS > w->Sp - w->Tp &&
        outside_depression(p->g, p->base, p->depr, p->cat, x, y, p->lxH, p->lyH, w->Tp,
                           w->adj_depr_side, p->rS, pt_x(w, w->src), pt_y(w, w->src), w->sE)) {
        block(w, ENTERS_DEPRESSION, x, y, H);
        return 1;
    }
    if (w->spine) {
        if (w->exit_act == 1 && w->Sp >= w->Tp && crest_sides(m, w->src, (w->entry_a + 3) % 6)) {
            block(w, CREST_EXIT, x, y, H);
            return 1;
        }
        if (w->entry_act == 1 && w->Tp >= w->Sp && crest_sides(m, w->tgt, w->entry_a)) {
            block(w, CREST_ENTRY, x, y, H);
            return 1;
        }
    }
    return 0;
}

/* R2 building exit (A6.8 Ex. 2), for the source and, mirrored, for the target. */
static ALWAYS_INLINE int rule_building_exit(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    const i64 x = p->x, y = p->y, H = p->H, g = p->g, h = p->h, t = p->t;
    if (TA(t, TA_BUILDING_TERRAIN) == 1 && w->sE != w->tE) {
        if (w->left == 0 && H != w->src && !(w->sE > g + h)) {
            block(w, LEAVE_BUILDING, x, y, H);
            return 1;
        }
        if (w->cand_h < 0 && H != w->tgt && !(w->tE > g + h) &&
            TA(HX(w->tgt, HX_CENTRE), TA_BUILDING) == 1 && !INSIDE_EXT(w->tgt, x, y)) {
            /* mirrored for the target: blocks if the thread stays in building terrain from
             * here to the target (decided when the walk ends).  A pixel inside the target's
             * extended border is the target's here, as one inside the source's is the
             * source's above, whichever end claims it first (LOS-SPEC 4.2) */
            w->cand_x = x;
            w->cand_y = y;
            w->cand_h = H;
        }
    }
    return 0;
}

/* R3.1 rowhouse walls (B23.71; LOS-SPEC 4.6 R3.1).  In the height tests a rooftop end counts
 * one level lower, and a rooftop does not look through the walls of its own hex nor of the hex
 * across its first exit hexside: the roof overlooks them. */
static ALWAYS_INLINE int rule_rowhouse(Trace *w, const Pixel *p)
{
    const i64 x = p->x, y = p->y, H = p->H;
    int exempt = (w->sroof == 1 && (H == w->src || H == w->roof_nb_s)) ||
                 (w->troof == 1 && (H == w->tgt || H == w->roof_nb_t));
    double Sr = (double)(w->sE - w->sroof), Tr = (double)(w->tE - w->troof);
    double lor = Sr < Tr ? Sr : Tr, hir = Sr > Tr ? Sr : Tr;
    double wt = (double)(p->g + p->h);
    if (exempt)
        return 0;
    if ((wt > Sr && wt > Tr) || (wt == Sr && wt == Tr && p->half == 1 && !(w->sroof && w->troof)) ||
        (wt == hir && wt > lor)) {
        block(w, ROWHOUSE, x, y, H);
        return 1;
    }
    /* the blind-hex test takes the wall as the half-level obstacle it is (its top + 1/2
     * strictly between the ends) and a rooftop end half a level down, as every blind-hex test
     * does (B23.8, A6.4; LOS-SPEC 6.2) */
    if (w->lo < wt + 0.5 && wt + 0.5 < w->hi &&
        blind(w, (double)p->h, (double)p->g, H, p->t, x, y, 0, 0.0)) {
        block(w, ROWHOUSE, x, y, H);
        return 1;
    }
    return 0;
}

/* R3 step 2, an entrenched end (B27.2; LOS-SPEC 4.6 R3): a unit in an entrenchment (foxholes,
 * trench, A-T ditch) cannot see over hexside terrain to a non-adjacent unit at its own
 * elevation or lower, nor be seen over it by one: any hexside-terrain pixel of the thread
 * blocks, in any hex and at any level, the entrenched unit's own hexsides included (it has no
 * wall advantage, the B9.2 exemption of R3 step 3 is not made for it).  VASL tests the source
 * and, only when the source is not entrenched, the target; here either entrenched end counts,
 * so that the answer is the same both ways (A6.1). */
static ALWAYS_INLINE int entrenched_blocks(const Trace *w)
{
    return w->R > 1 && ((w->sent && w->sE >= w->tE) || (w->tent && w->tE >= w->sE));
}

/* F6.4, one unit on a hillock: it sees over one wall or hedge at the ends' level, not over a
 * second.  The pixel (x, y) of hex H, nearest its hexside L, is a wall R3 would block by (B9.2);
 * a wall is known by its hexside, the same key from either hex.  As VASL's code does, a
 * pixel is of a second wall when its hexside differs from an earlier wall's and it lies more
 * than 15 px from it (the two or three walls met at a vertex the thread crosses are one
 * crossing); here "from it" is from the earlier wall's first or last pixel, so that the walk
 * from either end finds the same pair.  Returns 1 when the LOS is blocked. */
static int hillock_walls(Trace *w, i64 x, i64 y, i64 H, int L)
{
    const KMap *m = w->m;
    i64 key = H * 6 + L;
    const i64 o = NB(H, L);
    if (o >= 0 && o * 6 + (L + 3) % 6 < key)
        key = o * 6 + (L + 3) % 6;
    int mine = -1;
    for (int i = 0; i < w->nwalls; i++) {
        const i64 *q = w->wall_px[i];
        if (w->wall_key[i] == key) {
            mine = i;
        } else if (d2(x, y, q[0], q[1]) > 225.0 || d2(x, y, q[2], q[3]) > 225.0) {
            block(w, HILLOCK_WALLS, x, y, H);
            return 1;
        }
    }
    /* (walls within 15 px of each other meet at one vertex: at most three) */
    if (mine < 0 && w->nwalls < 4) {
        mine = w->nwalls++;
        w->wall_key[mine] = key;
        w->wall_px[mine][0] = x;
        w->wall_px[mine][1] = y;
    }
    if (mine >= 0) {
        w->wall_px[mine][2] = x;
        w->wall_px[mine][3] = y;
    }
    return 0;
}

/* R3 hexside terrain (B9.2, B9.52): walls and hedges, bocage; rowhouse walls (rule_rowhouse);
 * an entrenched end (B27.2); walls and hedges seen from a hillock (F6.4).  Cliffs are not
 * hexside obstacles here (R4, R9). */
static ALWAYS_INLINE int rule_hexside(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    const i64 x = p->x, y = p->y, H = p->H, g = p->g;
    const i64 src = w->src, tgt = w->tgt;
    if (!(p->hexs == 1 && !(p->flags & F_CLIFF)))
        return 0;
    if (p->flags & F_ROWHOUSE)
        return rule_rowhouse(w, p);
    if ((w->sent || w->tent) && entrenched_blocks(w)) {
        block(w, ENTRENCHED, x, y, H);
        return 1;
    }
    int L = nearest_loc(w, x, y, H);
    i64 e = w->e;
    i64 ee = e >= 0 ? (e + 3) % 6 : -1;
    int bocage = (p->flags & F_BOCAGE) != 0;
    int ign = ignored_for_end(m, src, e, H, L, w->spine) || ignored_for_end(m, tgt, ee, H, L, w->spine);
    if (ign && bocage && L >= 0 && H != src && H != tgt) {
        /* a bocage spine hexside is not ignored (R3 step 3.4) */
        ign = 0;
        i64 ends[2] = {src, tgt};
        for (int i = 0; i < 2; i++) {
            i64 X = ends[i];
            if (X == H)
                ign = 1;
            for (int k = 0; k < 6; k++)
                if (NB(X, k) == H && L == (k + 3) % 6)
                    ign = 1;
        }
    }
    if (ign)
        return 0;
    if (bocage) {
        /* bocage (B9.52): a hedge one level high that also makes blind hexes */
        double top = (double)(g + 1);
        if ((top > w->Sp && top > w->Tp) || (top == w->hi && top > w->lo)) {
            block(w, BOCAGE, x, y, H);
            return 1;
        }
        if (w->lo < top && top < w->hi && blind(w, 1.0, (double)g, H, p->t, x, y, 0, 0.0)) {
            block(w, BOCAGE, x, y, H);
            return 1;
        }
    } else if (g == w->sE && g == w->tE) {
        /* walls and hedges (B9.2) block LOS at their own level, except between two units on
         * hillocks, and a unit on a hillock sees over one (F6.4, R10: rule_hillock) */
        if (w->both_hillock)
            return 0;
        if (w->s_hill || w->t_hill)
            return hillock_walls(w, x, y, H, L);
        block(w, HEXSIDE, x, y, H);
        return 1;
    }
    return 0;
}

/* R4 step 2 inputs: on an odd range step of a hexspine thread, is the nearer of the two side
 * hexsides a cliff?  Then p->mm is the lower ground beside it (the pixel's hex or the hex
 * across, unless an end). */
static ALWAYS_INLINE void cliff_spine_inputs(const Trace *w, Pixel *p)
{
    const KMap *m = w->m;
    const i64 x = p->x, y = p->y, H = p->H;
    p->cliff_spine = 0;
    p->mm = 0;
    if (w->spine && pymod(p->rS, 2) == 1) {
        i64 a = w->entry_a;
        i64 c1 = (a + 5) % 6, c2 = (a + 2) % 6;
        i64 sside;
        if (d2(x, y, LOC(H, c1, 0), LOC(H, c1, 1)) < d2(x, y, LOC(H, c2, 0), LOC(H, c2, 1)))
            sside = c1;
        else
            sside = c2;
        if (TA(H6(H, sside, H6_LOC_T), TA_FLAGS) & F_CLIFF) {
            p->cliff_spine = 1;
            i64 o = NB(H, sside);
            p->mm = p->base;
            if (o >= 0 && o != w->src && o != w->tgt && HX(o, HX_BASE) < p->mm)
                p->mm = HX(o, HX_BASE);
        }
    }
}

/* R4 ground level (A6.2): ground higher than both ends blocks, unless ignored (a bridge, the
 * R1b hex) or a cliff spine's lower side is no higher than the higher end. */
static ALWAYS_INLINE int rule_ground(Trace *w, const Pixel *p)
{
    if (p->cat == C_BRIDGE)
        w->gign = p->H;
    i64 mx = w->sE > w->tE ? w->sE : w->tE;
    if (!(p->cliff_spine && p->mm <= mx)) {
        if ((double)p->g > w->Sp && (double)p->g > w->Tp && p->H != w->gign) {
            block(w, GROUND_HIGHER, p->x, p->y, p->H);
            return 1;
        }
    }
    return 0;
}

/* Split terrain at the level of both ends (its lower part: obstacle or hindrance). */
static ALWAYS_INLINE int split_same_level(const Trace *w, const Pixel *p)
{
    return p->split != 0.0 && p->g == w->sE && p->g == w->tE;
}

/* R5 split terrain: its lower part acts when both ends are at its level. */
static ALWAYS_INLINE int rule_split(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    if (split_same_level(w, p)) {
        if (TA(p->t, TA_LOW_OBS) == 1) {
            block(w, SPLIT_SAME_LEVEL, p->x, p->y, p->H);
            return 1;
        }
        if (TA(p->t, TA_LOW_HIND) == 1) {
            add_hindrance(w, p->t, p->H, p->x, p->y);
            if (w->reason != 0)
                return 1;
        }
    }
    return 0;
}

/* The hillocks next to each end not on a hillock and not entrenched (F6.4): the hillock of a
 * neighbour across the hexside(s) by which the thread leaves that end (first_exit_side(), seen
 * from the end, both exit hexsides along a hexspine), or -1.  Made once per trace, when a
 * pixel first needs it. */
static void hillock_adjacency(Trace *w)
{
    if (w->adj_done)
        return;
    w->adj_done = 1;
    const KMap *m = w->m;
    const i64 ends[2][3] = {{w->src, w->tgt, !w->s_hill && !w->sent},
                            {w->tgt, w->src, !w->t_hill && !w->tent}};
    for (int i = 0; i < 2; i++) {
        i64 adj = -1;
        if (ends[i][2]) {
            const i64 X = ends[i][0], k = first_exit_side(w, X, ends[i][1]);
            i64 sides[2] = {k, -1};
            if (w->spine && k >= 0)   /* the other hexside at the exit vertex */
                sides[1] = w->e >= 0 && (k + 1) % 6 == (i == 0 ? w->e : (w->e + 3) % 6)
                               ? (k + 1) % 6 : (k + 5) % 6;
            for (int j = 0; j < 2; j++)
                if (sides[j] >= 0 && NB(X, sides[j]) >= 0 && HX(NB(X, sides[j]), HX_HILLOCK) >= 0)
                    adj = HX(NB(X, sides[j]), HX_HILLOCK);
        }
        if (i == 0)
            w->adj_s = adj;
        else
            w->adj_t = adj;
    }
}

/* What R10 makes of a pixel (rule_hillock()): nothing (R6 and R7 as for any half-level
 * terrain), clear (neither blocks nor hinders), or blocked. */
enum { HILL_NONE = 0, HILL_CLEAR = 1, HILL_BLOCKED = 2 };

/* R10 hillocks (F6.4; LOS-SPEC 4.6 R10, section 9), for half-level terrain (not hexside) whose
 * top is level with both ends, the ends at one elevation (VASL's checkHillockRule; a hillock
 * is a half-level obstacle at its ground level, A6.2).  A hillock is all its connected hillock
 * hexes (HX_HILLOCK).
 *  - Both units on hillocks: clear (half-level terrain neither blocks nor hinders).
 *  - One unit on a hillock (the other not, or entrenched): it sees over the hillock it stands
 *    on, over the hillock next to the other unit (unless that unit is entrenched), and over
 *    one other hillock; a second other hillock blocks ("intervening hillock").  It sees over
 *    one rubble hex, not a second; over one wall or hedge, not a second (R3, hillock_walls());
 *    grain and brush hinder once in all (the grain hex nearest the canonical end, counted when
 *    the walk ends: the same hex from either end); other half-level terrain neither blocks nor
 *    hinders.
 *  - Neither unit on a hillock: a non-entrenched unit sees over the hillock next to it (its
 *    half-level terrain is passed over); any other is a half-level obstacle (R6).
 * VASL's chain applies its R7 (the half-level top +1/2 higher than both) before this rule, so
 * that every hillock, rubble and grain pixel there blocks or hinders as if the rule were not
 * there; hexwx applies F6.4 as VASL's hillock code reads it (docs/vasl-conformance.md).
 * Called once per pixel, by R6; R7 reads the answer. */
static int rule_hillock(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    if (!(p->g + p->h == w->sE && p->g + p->h == w->tE))
        return HILL_NONE;
    if (w->both_hillock)
        return HILL_CLEAR;
    const i64 H = p->H, gid = HX(H, HX_HILLOCK);
    if (!w->s_hill && !w->t_hill) {
        if (gid < 0)
            return HILL_NONE;
        hillock_adjacency(w);
        return gid == w->adj_s || gid == w->adj_t ? HILL_CLEAR : HILL_NONE;
    }
    if (p->flags & F_HILLOCK) {
        if (gid < 0 || gid == w->hill_own)
            return HILL_CLEAR;
        hillock_adjacency(w);
        if (gid == w->adj_s || gid == w->adj_t)
            return HILL_CLEAR;
        if (w->hill_seen < 0 || w->hill_seen == gid) {
            w->hill_seen = gid;
            return HILL_CLEAR;
        }
        block(w, HILLOCK, p->x, p->y, H);
        return HILL_BLOCKED;
    }
    if (p->flags & F_RUBBLE) {
        if (w->rubble_seen < 0 || w->rubble_seen == H) {
            w->rubble_seen = H;
            return HILL_CLEAR;
        }
        block(w, HILLOCK_RUBBLE, p->x, p->y, H);
        return HILL_BLOCKED;
    }
    if ((p->flags & F_GRAIN_BRUSH) && H != w->src && H != w->tgt && p->rS < w->R && p->rT < w->R) {
        const i64 key = w->canon == 0 ? p->rS : p->rT;
        if (w->grain_key < 0 || key < w->grain_key) {
            w->grain_key = key;
            w->grain_h = H;
            w->grain_t = p->t;
            w->grain_x = p->x;
            w->grain_y = p->y;
            w->grain_rs = p->rS;
            w->grain_rt = p->rT;
        }
    }
    return HILL_CLEAR;
}

/* R6 half-level terrain (A6.2) at the level of both ends (a single rooftop end half a level
 * down); where hillocks are concerned R10 (rule_hillock) decides first, for R6 and R7. */
static ALWAYS_INLINE int rule_half_level(Trace *w, Pixel *p)
{
    if (p->half == 1 && p->hexs == 0 && (p->hill = rule_hillock(w, p)) != HILL_NONE)
        return p->hill == HILL_BLOCKED;
    if (p->half == 1 && p->hexs == 0) {
        double s2 = (double)w->sE, t2 = (double)w->tE;
        if (w->sroof + w->troof == 1) {
            if (w->sroof == 1)
                s2 -= 0.5;
            else
                t2 -= 0.5;
        }
        if ((double)(p->g + p->h) == s2 && (double)(p->g + p->h) == t2) {
            if (p->obst == 1) {
                block(w, HALF_LEVEL, p->x, p->y, p->H);
                return 1;
            }
            add_hindrance(w, p->t, p->H, p->x, p->y);
            if (w->reason != 0)
                return 1;
        }
    }
    return 0;
}

/* R7 higher than both ends (A6.2): an obstacle blocks, a hindrance counts. */
static ALWAYS_INLINE int rule_higher_than_both(Trace *w, const Pixel *p)
{
    double top = (double)(p->g + p->h);
    if (p->half == 1 && p->hexs == 0 && p->hill == HILL_NONE)  /* R10: at the ends' level */
        top += 0.5;
    if (!(split_same_level(w, p) || (p->flags & F_BOCAGE))) {
        if (top > w->Sp && top > w->Tp) {
            if (p->obst == 1 && !(p->flags & F_LIGHT_WOODS)) {
                block(w, HIGHER_THAN_BOTH, p->x, p->y, p->H);
                return 1;
            }
            if (!((p->cat == C_BRIDGE || (p->flags & F_ROAD_NAME)) && (double)p->g > w->Sp &&
                  (double)p->g > w->Tp)) {
                add_hindrance(w, p->t, p->H, p->x, p->y);
                if (w->reason != 0)
                    return 1;
            }
        }
    }
    return 0;
}

/* R8 height advantage (A6.2): terrain as high as the higher end and above the lower one, with
 * its exceptions (B10.2, cliff spines, the ignored ground of R1b, depressions, water). */
static ALWAYS_INLINE int rule_height_advantage(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    const i64 x = p->x, y = p->y, H = p->H, src = w->src, tgt = w->tgt;
    const i64 sE = w->sE, tE = w->tE, base = p->base, h = p->h;
    double top8 = (double)(p->g + h);
    if (p->half == 1 && p->bld == 1)
        top8 += 0.5;
    if (!(top8 == w->hi && top8 > w->lo && !(p->flags & (F_BOCAGE | F_ROWHOUSE))))
        return 0;
    int skip = 0;
    if (top8 == (double)p->g) {
        /* B10.2 exception: the part of a hex next to the higher end */
        if (p->rS == 1 && sE > base &&
            d2(x, y, pt_x(w, src), pt_y(w, src)) < d2(p->lxH, p->lyH, pt_x(w, src), pt_y(w, src)))
            skip = 1;
        if (p->rT == 1 && tE > base &&
            d2(x, y, pt_x(w, tgt), pt_y(w, tgt)) < d2(p->lxH, p->lyH, pt_x(w, tgt), pt_y(w, tgt)))
            skip = 1;
    }
    i64 mx = sE > tE ? sE : tE;
    if (p->cliff_spine && p->mm < mx)
        skip = 1;
    if (!(p->depr != 0 && h >= 1)) {
        i64 gi = w->gign;
        if (gi >= 0 && (H == gi || INSIDE_EXT(gi, x, y)))
            skip = 1;
        if ((w->exit_act == 1 || w->entry_act == 1) && p->depr != 0)
            skip = 1;
    }
    if (TA(p->centre, TA_CATEGORY) == C_WATER && h < 1) {
        if (p->rS == 1 && sE > tE && TA(HX(tgt, HX_CENTRE), TA_CATEGORY) == C_WATER)
            skip = 1;
        if (p->rT == 1 && tE > sE && TA(HX(src, HX_CENTRE), TA_CATEGORY) == C_WATER)
            skip = 1;
    }
    if (skip)
        return 0;
    if (p->flags & F_ORCHARD_OOS) {
        add_hindrance(w, p->t, H, x, y);
        return w->reason != 0;
    }
    block(w, HEIGHT_ADVANTAGE, x, y, H);
    return 1;
}

/* R9 blind hex (A6.4, B10.23): terrain strictly between the ends' heights that makes the
 * pixel's hex blind blocks (an obstacle) or counts (a hindrance; or the ground itself, a
 * crest, blocks). */
static ALWAYS_INLINE void rule_blind(Trace *w, const Pixel *p)
{
    const KMap *m = w->m;
    const i64 x = p->x, y = p->y, H = p->H, t = p->t, g = p->g, h = p->h, flags = p->flags;
    const i64 src = w->src, tgt = w->tgt;
    const double lo = w->lo, hi = w->hi;
    if (flags & F_BOCAGE)
        return;
    i64 c = (flags & F_CLIFF) ? 1 : 0;
    if (!(lo < (double)(g + h + c) && (double)(g + h + c) < hi))
        return;
    int cliff_flag = 0;
    if (!w->spine) {
        i64 gh = HEX_AT(x, y);
        if (gh >= 0 && HX(gh, HX_HAS_CLIFF)) {  /* (a hex with no cliff hexside: none near) */
            int L = nearest_loc(w, x, y, gh);
            if (L >= 0 && H6(gh, L, H6_CLIFF) != 0)
                cliff_flag = 1;
        }
    } else {
        i64 e = w->e;
        cliff_flag = (HX(src, HX_DEPRESSION) != 0 && H6(src, e, H6_CLIFF) != 0 && H6(src, (e + 1) % 6, H6_CLIFF) != 0) ||
                     (HX(tgt, HX_DEPRESSION) != 0 && H6(tgt, (e + 3) % 6, H6_CLIFF) != 0 && H6(tgt, (e + 4) % 6, H6_CLIFF) != 0);
    }
    double gg = p->cliff_spine ? (double)p->mm : (double)g;
    double delta = (h == 0 && !cliff_flag) ? lowest_crossed_depression(w, H) : 0.0;
    if (!blind(w, (double)h, gg, H, t, x, y, cliff_flag, delta))
        return;
    if (p->obst == 1 && p->hexs == 0) {
        if ((TA(p->centre, TA_FLAGS) & F_ROOFLESS) || (p->inh == 1 && t != p->centre))
            return;
        if (w->spine && p->bld == 1) {
            if (pymod(p->rT, 2) == 0) {
                block(w, BLIND_OBSTACLE, x, y, H);
                return;
            }
            if (w->sroof == 1 || w->troof == 1)
                block(w, BLIND_CREST, x, y, H);
            return;
        }
        block(w, BLIND_OBSTACLE, x, y, H);
        return;
    }
    /* a hindrance or crest: the ground itself may make the hex blind (B10.23) */
    if (lo < (double)(g + c) && (double)(g + c) < hi) {
        double delta0 = !cliff_flag ? lowest_crossed_depression(w, H) : 0.0;
        if (blind(w, 0.0, gg, H, t, x, y, cliff_flag, delta0)) {
            block(w, BLIND_CREST, x, y, H);
            return;
        }
    }
    if ((flags & F_ORCHARD_OOS) && p->rT != 1)
        return;
    add_hindrance(w, t, H, x, y);
}

/* Apply the rule chain to pixel (x, y) with terrain t and ground g, attributed to hex H
 * (LOS-SPEC 4.6): R1-R3 everywhere, R4-R9 in the hexes between the ends; R10 (hillocks)
 * inside R3 and R6. */
static void evaluate(Trace *w, i64 x, i64 y, i64 t, i64 g, i64 H)
{
    const KMap *m = w->m;
    Pixel p = {
        .x = x, .y = y, .t = t, .g = g, .H = H,
        .flags = TA(t, TA_FLAGS), .cat = TA(t, TA_CATEGORY), .half = TA(t, TA_HALF),
        .hexs = TA(t, TA_HEXSIDE), .bld = TA(t, TA_BUILDING), .obst = TA(t, TA_OBSTACLE),
        .inh = TA(t, TA_INHERENT), .h = TA(t, TA_HEIGHT), .split = m->split[t],
        .depr = HX(H, HX_DEPRESSION), .base = HX(H, HX_BASE), .centre = HX(H, HX_CENTRE),
        .lxH = pt_x(w, H), .lyH = pt_y(w, H),
    };
    if (H != w->cur)
        enter_hex(w, &p);
    p.rS = w->rs;
    p.rT = w->rt;
    if (rule_depression(w, &p) || rule_building_exit(w, &p) || rule_hexside(w, &p))
        return;
    /* relevance: the end hexes, and hexes as far from an end as the ends are apart; but an
     * end in bypass is at its hexside, outside its hex's obstacle, which blocks a LOS traced
     * across it like any obstacle between the ends (D2.3; VASL: the rules apply to the own
     * hex's terrain that is neither open nor hexside terrain of a non-centre Location) */
    if (H == w->src || H == w->tgt || p.rT == w->R || p.rS == w->R) {
        if (!w->bypass || p.obst != 1 || p.hexs != 0 ||
            !(H == w->src ? w->byp_s : (H == w->tgt && w->byp_t)))
            return;
    }
    if (p.inh == 1 && t != p.centre)
        return;
    cliff_spine_inputs(w, &p);
    if (rule_ground(w, &p) || rule_split(w, &p) || rule_half_level(w, &p) ||
        rule_higher_than_both(w, &p) || rule_height_advantage(w, &p))
        return;
    rule_blind(w, &p);
}

/* True if no rule can react to this pixel (fast path, no depression rule active).
 *
 * p is the packed pixel (terrain t, ground g, hex gh), c the terrain's fast-path class and lo_i
 * the lower end's height rounded down (g <= lo_i is g <= lo, g being whole).  Plain ground no
 * higher than the lower end (on a hexspine only away from inherent terrain, which a pair
 * member may read instead of the pixel: inh_col is HX_INHERENT_NEAR there, else the all-zero
 * column HX_ZERO); in an end hex not in bypass, terrain that acts there only as building (A6.8, which needs
 * different elevations) or hexside terrain; or the same hex, terrain and ground as the last
 * evaluated pixel when that evaluation could not depend on the pixel's position (see
 * remember(); p == memo_p compares all three at once). */
static ALWAYS_INLINE int skippable(const Trace *w, i64 p, i64 c, int same, int inh_col, i64 lo_i)
{
    const KMap *m = w->m;
    const i64 gh = (p >> 16) - 1;
    /* a pixel of no hex (gh < 0) ends the walk (pixel()), so it is never passed over: it fails
     * every test below (src, tgt >= 0; memo_p is a pixel of a hex) */
    if ((c & FAST_PLAIN) != 0 && ((p >> 8) & 255) - 128 <= lo_i && gh >= 0 &&
        (inh_col == HX_ZERO || HX(gh, inh_col) == 0))
        return 1;
    if (((c & FAST_END_SKIP) != 0 || (same && (c & FAST_HEXSIDE) == 0)) && (gh == w->src || gh == w->tgt) &&
        !(w->bypass && (gh == w->src ? w->byp_s : w->byp_t)))
        return 1;
    return p == w->memo_p;
}

/* Remember an evaluated pixel whose outcome any pixel of the same hex, terrain and ground
 * shares: attributed by grid lookup, in a hex without cliffs, not hexside terrain, and either
 * both ends at one elevation (no rule then depends on the pixel's position) or not next to an
 * end (no B10.2 exception), not building terrain (A6.8 state) and not inside the extended
 * border of the ground-ignored hex (R8 skips those pixels only, LOS-SPEC 4.6). */
static inline void remember(Trace *w, i64 x, i64 y, i64 t, i64 g, int same)
{
    const KMap *m = w->m;
    i64 H = w->cur;
    if (H == HEX_AT(x, y) && (same || (w->rs > 1 && w->rt > 1)) && HX(H, HX_HAS_CLIFF) == 0 &&
        !w->spine && TA(t, TA_HEXSIDE) == 0 && (same || TA(t, TA_BUILDING) == 0) &&
        (same || w->gign < 0 || w->gign == H || !INSIDE_EXT(w->gign, x, y))) {
        w->memo_p = (H + 1) * 65536 + (g + 128) * 256 + t;   /* the pixel's own packing */
    } else {
        w->memo_p &= 0xFFFF;   /* no hex; the terrain and ground stay (as skippable() reads them) */
    }
}

/* Attribute pixel (x, y) to a hex (LOS-SPEC 4.2) and evaluate it, twice on a hexspine. */
static void pixel(Trace *w, i64 x, i64 y, i64 t, i64 g)
{
    const KMap *m = w->m;
    const i64 src = w->src, tgt = w->tgt;
    /* the end hexes own the pixels of their extended borders */
    int in_src = INSIDE_EXT(src, x, y);
    int in_tgt = !in_src && INSIDE_EXT(tgt, x, y);
    i64 H;
    if (in_src) {
        H = src;
    } else if (in_tgt) {
        H = tgt;
    } else {
        H = HEX_AT(x, y);
        if (H < 0) {
            w->stop = 1;
            return;
        }
    }
    if (w->left == 0 && TA(t, TA_BUILDING) == 0)
        w->left = 1;
    if (w->spine && !in_src && !in_tgt && pymod(hex_range(m, src, H), 2) == 1) {
        /* a hexspine pair: the pixel belongs to H and the neighbour P across the spine */
        i64 P = -1;
        for (int k = 0; k < 6; k++) {
            i64 o = NB(H, k);
            if (o >= 0 && o != src && o != tgt && INSIDE_EXT(o, x, y)) {
                P = o;
                break;
            }
        }
        if (P < 0) {
            int L = nearest_loc(w, x, y, H);
            if (L >= 0) {
                i64 o = NB(H, L);
                if (o >= 0 && o != src && o != tgt)
                    P = o;
            }
        }
        if (P >= 0) {
            i64 members[2] = {H, P};
            for (int i = 0; i < 2; i++) {
                i64 member = members[i];
                if (member == src || member == tgt || !INSIDE_EXT(member, x, y))
                    continue;
                i64 tm = t;
                i64 cm = HX(member, HX_CENTRE);
                i64 fill = HX(member, HX_FILL);
                if (fill >= 0) {
                    /* a map-file hex filled to its hexsides: a thread along the hexside reads
                     * each hex of the pair as its own fill, so either side counts alike */
                    if (TA(t, TA_HEXSIDE) == 1) {
                        evaluate(w, x, y, t, g, member);
                        if (w->reason != 0)
                            return;
                    }
                    tm = fill;
                } else if (TA(cm, TA_INHERENT) == 1) {
                    /* inherent terrain fills the hex: read the member's own terrain */
                    if (TA(t, TA_HEXSIDE) == 1) {
                        evaluate(w, x, y, t, g, member);
                        if (w->reason != 0)
                            return;
                    }
                    if (!((TA(cm, TA_FLAGS) & F_DENSE_JUNGLE) && TA(t, TA_CATEGORY) == C_WATER))
                        tm = cm;
                }
                evaluate(w, x, y, tm, g, member);
                if (w->reason != 0)
                    return;
            }
            return;
        }
    }
    evaluate(w, x, y, t, g, H);
}

/* Pixels of the thread from (sx, sy) to (tx, ty) as VASL walks it (LOS-SPEC 4.2): one column
 * per step, y running from the row the column is entered at to floor(exit) of the column. */
static i64 walk_pixels(i64 sx, i64 sy, i64 tx, i64 ty, i64 W, i64 Hh, int32_t *xs, int32_t *ys,
                       i64 len)
{
    i64 n = iabs(tx - sx) + 1;
    i64 dx = tx >= sx ? 1 : -1;
    i64 dyy = ty >= sy ? 1 : -1;
    double d = (double)(ty - sy) / (double)n;
    double ex = (double)sy + d;
    i64 k = 0;
    i64 x = sx;
    i64 y0 = sy;   /* floor of the row the column is entered at: the last column's y1 */
    for (i64 step = 0; step < n; step++) {
        i64 y1 = ifloor(ex);
        i64 y = y0;
        for (;;) {
            if (0 <= x && x < W && 0 <= y && y < Hh && k < len) {
                xs[k] = (int32_t)x;
                ys[k] = (int32_t)y;
                k++;
            }
            if (y == y1)
                break;
            y += dyy;
            if ((dyy > 0 && y > y1) || (dyy < 0 && y < y1))
                break;
        }
        y0 = y1;
        ex = ex + d;
        x += dx;
    }
    return k;
}

/* The rule chain for a pixel the fast path cannot skip; returns 1 when the walk must stop. */
static NOINLINE int visit_slow(Trace *w, i64 x, i64 y, i64 t, i64 g, int fast, int same)
{
    pixel(w, x, y, t, g);
    if (w->reason != 0 || w->stop != 0)
        return 1;
    if (fast)
        remember(w, x, y, t, g, same);
    return 0;
}

/* Visit one pixel of the walk (packed pixel p); returns 1 when the walk must stop.  detail
 * (w->detail == 1) is a constant where the walks are made; the walks note fog themselves
 * (FOG_STEP, where the pixel's hex changes). */
static ALWAYS_INLINE int visit(Trace *w, i64 x, i64 y, i64 p, int fast, int same, int inh_col,
                               i64 lo_i, int detail)
{
    const i64 t = p & 255, c = w->m->fast[t];
    if (detail)
        record(w, (p >> 16) - 1);
    if ((c & FAST_BUILDING) == 0)
        w->cand_h = -1;
    if (fast && skippable(w, p, c, same, inh_col, lo_i)) {
        w->left = 1;
        return 0;
    }
    return visit_slow(w, x, y, t, ((p >> 8) & 255) - 128, fast, same);
}

/* Note pixel p's hex for fog (fog_note()) when it differs from the last pixel's: a compare of
 * a register per pixel (fog_note() also skips the hex before that one, where pixels along a
 * hexside alternate between two hexes).  fog_bits starts at -1 in each walk. */
#define FOG_STEP(p)                                                                          \
    do {                                                                                     \
        if (fog_on && ((p) >> 16) != fog_bits) {                                             \
            fog_bits = (p) >> 16;                                                            \
            fog_note(w, fog_bits - 1);                                                       \
        }                                                                                    \
    } while (0)

/* How far ahead of a walk the raster is read (pixels). */
#define PF_DIST 16
/* Pixels of a walk from the source made at a time (a block; walk_fill() may make up to twice
 * as many, the buffers hold four times as many). */
#define WALK_CHUNK 128

/* A walk (LOS-SPEC 4.2) as walk_pixels() makes it: column by column from (sx, sy), x stepping
 * by dx, the column left at row floor(ex) where ex grows by d per column, and entered at the
 * row the last column was left at (y0). */
typedef struct {
    i64 n, dx, dyy, x, y0, step, W;
    double d, ex;
    int inner;      /* every pixel of the walk lies on the raster, and every sum ex is >= 0 */
    int shallow;    /* |d| < 1: one or two rows per column */
} Walk;

static ALWAYS_INLINE void walk_init(Walk *g, i64 sx, i64 sy, i64 tx, i64 ty, i64 W, i64 Hh)
{
    g->n = iabs(tx - sx) + 1;
    g->dx = tx >= sx ? 1 : -1;
    g->dyy = ty >= sy ? 1 : -1;
    g->d = (double)(ty - sy) / (double)g->n;
    g->ex = (double)sy + g->d;
    g->x = sx;
    g->y0 = sy;
    g->step = 0;
    g->W = W;
    /* the sums ex run from sy towards ty, never past sy (each adds d, of the sign of ty - sy)
     * and ending within far less than a pixel of ty: with both ends on the raster every row
     * is on it -- unless the walk runs up to row 0, where a sum a trifle below 0 gives row
     * -1 -- and every sum is >= 0 */
    g->inner = 0 <= imin(sx, tx) && imax(sx, tx) < W && 0 <= sy && imax(sy, ty) < Hh &&
               (ty >= sy || ty >= 1) && W * Hh <= INT32_MAX;   /* (indices as int32) */
    g->shallow = iabs(ty - sy) <= iabs(tx - sx);
}

/* The next columns of an inner walk into buf as raster indices y * W + x, until the walk ends
 * or `want` columns (shallow) / at least `want` pixels (steep) are made: at most 2 * want + 1
 * for a shallow walk, else the rows of the columns made.  Returns the count.  The raster is
 * read ahead here (pix, a hint only): each column's last pixel, the row the next column
 * starts in.  (The rows of an inner walk are >= 0: the row is the sum truncated.) */
static ALWAYS_INLINE i64 walk_fill(Walk *g, int32_t *buf, i64 want, const int32_t *pix)
{
    const i64 W = g->W, dx = g->dx, dyy = g->dyy;
    const double d = g->d;
    double ex = g->ex;
    i64 x = g->x, y0 = g->y0, step = g->step, k = 0;
    if (g->shallow) {
        /* one or two rows per column, without a branch per column */
        const i64 end = imin(g->n, step + want);
        i64 at0 = y0 * W + x;
        for (; step < end; step++) {
            const i64 y1 = (i64)ex;
            const i64 at1 = y1 * W + x;
            ex = ex + d;
            PREFETCH(pix + at1);
            buf[k] = (int32_t)at0;
            buf[k + 1] = (int32_t)at1;
            k += 1 + (y1 != y0);
            y0 = y1;
            x += dx;
            at0 = at1 + dx;
        }
    } else {
        for (; step < g->n && k < want; step++, x += dx) {
            const i64 y1 = (i64)ex;
            ex = ex + d;
            PREFETCH(pix + y1 * W + x);
            /* the rows y0 .. y1 in the walk's direction (only y0 if y1 lay behind it) */
            const i64 yb = (y1 - y0) * dyy >= 0 ? y1 : y0;
            for (i64 y = y0;; y += dyy) {
                buf[k++] = (int32_t)(y * W + x);
                if (y == yb)
                    break;
            }
            y0 = y1;
        }
    }
    g->ex = ex;
    g->x = x;
    g->y0 = y0;
    g->step = step;
    return k;
}

/* The walk from the source (LOS-SPEC 4.2), visiting each pixel as it is made and stopping at
 * the first block: the pixels of walk_pixels(sx, sy, tx, ty) in order.  An inner walk is made
 * a block of pixels at a time; otherwise rows and columns off the raster are passed over. */
static ALWAYS_INLINE void walk_forward(Trace *w, int fast, int same, int inh_col, int fog_on,
                                       int detail)
{
    const KMap *m = w->m;
    const int32_t *pix = m->pix;
    const i64 W = m->width, Hh = m->height;
    const i64 lo_i = ifloor(w->lo);
    Walk g;
    walk_init(&g, w->sx, w->sy, w->tx, w->ty, W, Hh);
    const i64 dx = g.dx, dyy = g.dyy;
    /* the raster is read about PF_DIST pixels ahead along the line (a hint only) */
    const double ad = fabs(g.d);
    const i64 ahead = (i64)(PF_DIST * ad / (1.0 + ad)) * dyy * W + (i64)(PF_DIST / (1.0 + ad)) * dx;
    const uintptr_t base = (uintptr_t)pix;
    i64 vis = 0, fog_bits = -1;
    /* an inner walk a block at a time (one whose columns may be longer than a block: below) */
    if (g.inner && (g.shallow || fabs(g.d) < WALK_CHUNK)) {
        int32_t buf[4 * WALK_CHUNK];
        while (g.step < g.n) {
            const i64 k = walk_fill(&g, buf, g.shallow ? WALK_CHUNK / 2 : WALK_CHUNK, pix);
            for (i64 i = 0; i < k; i++) {
                const i64 at = buf[i], p = pix[at];
                FOG_STEP(p);
                if (visit(w, at % W, at / W, p, fast, same, inh_col, lo_i, detail)) {
                    w->visited += vis + i + 1;
                    return;
                }
            }
            vis += k;
        }
        w->visited += vis;
        return;
    }
    i64 x = g.x, y0 = g.y0;
    double ex = g.ex;
    for (i64 step = 0; step < g.n; step++, x += dx) {
        const i64 y1 = ifloor(ex);
        ex = ex + g.d;
        if (0 <= x && x < W) {
            /* the rows y0 .. y1 in the walk's direction (only y0 if y1 lay behind it) */
            i64 ya = y0, yb = (y1 - y0) * dyy >= 0 ? y1 : y0;
            if (dyy > 0) {
                ya = imax(ya, 0);
                yb = imin(yb, Hh - 1);
            } else {
                ya = imin(ya, Hh - 1);
                yb = imax(yb, 0);
            }
            if ((yb - ya) * dyy >= 0) {
                for (i64 y = ya;; y += dyy) {
                    vis++;
                    PREFETCH((const void *)(base + (uintptr_t)((y * W + x + ahead) * 4)));
                    const i64 p = pix[y * W + x];
                    FOG_STEP(p);
                    if (visit(w, x, y, p, fast, same, inh_col, lo_i, detail)) {
                        w->visited += vis;
                        return;
                    }
                    if (y == yb)
                        break;
                }
            }
        }
        y0 = y1;
    }
    w->visited += vis;
}

/* The walk from the target visited backwards (the pixels of walk_pixels(tx, ty, sx, sy) from
 * the last), stopping at the first block.  An inner walk is made whole as raster indices into
 * xs (when xs holds it); otherwise by walk_pixels() into xs/ys. */
static ALWAYS_INLINE void walk_backward(Trace *w, int32_t *xs, int32_t *ys, i64 xy_len, int fast,
                                        int same, int inh_col, int fog_on, int detail)
{
    const KMap *m = w->m;
    const int32_t *pix = m->pix;
    const i64 W = m->width, Hh = m->height, lo_i = ifloor(w->lo);
    Walk g;
    i64 fog_bits = -1;
    walk_init(&g, w->tx, w->ty, w->sx, w->sy, W, Hh);
    if (g.inner && 2 * g.n + iabs(w->ty - w->sy) + 4 <= xy_len) {
        const i64 k = walk_fill(&g, xs, xy_len, pix);
        for (i64 i = k - 1; i >= 0; i--) {
            if (i >= PF_DIST)
                PREFETCH(pix + xs[i - PF_DIST]);
            const i64 at = xs[i], p = pix[at];
            w->visited++;
            FOG_STEP(p);
            if (visit(w, at % W, at / W, p, fast, same, inh_col, lo_i, detail))
                return;
        }
        return;
    }
    const i64 k = walk_pixels(w->tx, w->ty, w->sx, w->sy, W, Hh, xs, ys, xy_len);
    for (i64 i = k - 1; i >= 0; i--) {
        if (i >= PF_DIST)
            PREFETCH(pix + (i64)ys[i - PF_DIST] * W + xs[i - PF_DIST]);
        w->visited++;
        const i64 p = pix[(i64)ys[i] * W + xs[i]];
        FOG_STEP(p);
        if (visit(w, xs[i], ys[i], p, fast, same, inh_col, lo_i, detail))
            return;
    }
}

/* Trace one LOS (LOS-SPEC 4).  out[6] receives (reason, block_x, block_y, block_hex,
 * hindrance_total, n_thread).  hv/hh (length >= range+1) receive each range key's hindrance
 * value and hex * 256 + terrain code; thread/tkeys (length thread_len) the hexes entered in
 * order with their keys (when detail = 1).  xs/ys (length xy_len) are scratch. */
static void trace_counted(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, i64 s_end, i64 t_end,
                          int32_t *xs, int32_t *ys, i64 xy_len, i64 *hv, i64 *hh, i64 *thread,
                          i64 *tkeys, i64 thread_len, i64 detail, i64 *fl, const Bypass *bp,
                          i64 *out, i64 *visited);

/* One trace (a single query, the module's trace(); hexwx_trace_many() calls it per pair too); an
 * end with a hexside s_side / t_side >= 0 is in bypass along it (D2.3).  With
 * fog (fog = (top, d, drm), see fog_total(); NULL: no fog) the walk also notes each range key's lowest ground in fl (length >= range + 1), fk
 * receives each key's FOG_* code and out[6] the fog LV; out has 7 entries. */
static void trace_single(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, i64 s_end,
                         i64 t_end, i64 s_side, i64 t_side, int32_t *xs, int32_t *ys,
                         i64 xy_len, i64 *hv, i64 *hh, i64 *thread, i64 *tkeys, i64 thread_len,
                         i64 detail, const i64 *fog, i64 *fl, i64 *fk, i64 *out)
{
    i64 visited = 0;
    i64 *note = fog_between(fog, sE, tE) ? fl : NULL;
    /* an end in bypass is traced from its hexside's location point (D2.3, LOS-SPEC 1.8) */
    Bypass bp = NO_BYPASS;
    if (s_side >= 0) {
        bp.sh = src;
        bp.sx = LOC(src, s_side, 0);
        bp.sy = LOC(src, s_side, 1);
    }
    if (t_side >= 0) {
        bp.th = tgt;
        bp.tx = LOC(tgt, t_side, 0);
        bp.ty = LOC(tgt, t_side, 1);
    }
    trace_counted(m, src, tgt, sE, tE, s_end, t_end, xs, ys, xy_len, hv, hh, thread, tkeys,
                  thread_len, detail, note, &bp, out, &visited);
    out[6] = fog ? fog_total(m, src, tgt, sE, tE, note, fog, fk) : 0;
}

static void trace_one(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, i64 s_end, i64 t_end,
                      int32_t *xs, int32_t *ys, i64 xy_len, i64 *hv, i64 *hh, i64 *thread,
                      i64 *tkeys, i64 thread_len, i64 detail, i64 *fl, const Bypass *bp,
                      i64 *out, i64 *visited);

/* Does the ground-ignore update (R1b) concern a thread from end X (elevation eX, rooftop rX)
 * out of its depression to end Y: X at the floor of a depression hex, the depression exit
 * restriction active (A6.3) and Y at least a level higher (LOS-SPEC 4.6 R1b)? */
static int r1b_end(const KMap *m, i64 X, i64 eX, i64 rX, i64 Y, i64 eY, i64 rY)
{
    if (!HX(X, HX_DEPRESSION) || eX != HX(X, HX_BASE) || rX != 0)
        return 0;
    i64 R = hex_range(m, X, Y);
    return (eY - rY) - eX <= R && ((double)eY - 0.5 * (double)rY) - (double)eX >= 1.0;
}

/* The reason seen from the other end: leaving a depression is entering it the other way. */
static i64 mirrored_reason(i64 r)
{
    switch (r) {
    case EXITS_DEPRESSION: return ENTERS_DEPRESSION;
    case ENTERS_DEPRESSION: return EXITS_DEPRESSION;
    case CREST_EXIT: return CREST_ENTRY;
    case CREST_ENTRY: return CREST_EXIT;
    default: return r;
    }
}

/* The bypass points of bp seen from the other end (the trace turned round). */
static Bypass swapped(const Bypass *bp)
{
    Bypass b = {bp->th, bp->tx, bp->ty, bp->sh, bp->sx, bp->sy};
    /* one hex for both ends: the target's point stood, and stands as the source's now */
    if (b.sh >= 0 && b.sh == b.th) {
        b.th = b.sh;
        b.tx = b.sx;
        b.ty = b.sy;
    }
    return b;
}

/* The bypass points bp in frame f (*out): each turned round about the frame's origin; 0 when
 * one falls off the frame's raster (a hexside point on the board's edge), which is then not
 * used: the pair is traced on the map. */
static int in_frame(const KMap *f, const Bypass *bp, Bypass *out)
{
    *out = *bp;
    if (bp->sh >= 0) {
        out->sx = f->ox - bp->sx;
        out->sy = f->oy - bp->sy;
        if (out->sx < 0 || out->sx >= f->width || out->sy < 0 || out->sy >= f->height)
            return 0;
    }
    if (bp->th >= 0) {
        out->tx = f->ox - bp->tx;
        out->ty = f->oy - bp->ty;
        if (out->tx < 0 || out->tx >= f->width || out->ty < 0 || out->ty >= f->height)
            return 0;
    }
    return 1;
}

/* The walk of trace_single(), adding the number of pixels it read to *visited; fl (or NULL)
 * receives each range key's lowest ground, FOG_ABSENT where no hex of the thread has the key:
 * the keys of the trace whose answer stands (they count from the lower hex id either way). */
static void trace_counted(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, i64 s_end, i64 t_end,
                          int32_t *xs, int32_t *ys, i64 xy_len, i64 *hv, i64 *hh, i64 *thread,
                          i64 *tkeys, i64 thread_len, i64 detail, i64 *fl, const Bypass *bp,
                          i64 *out, i64 *visited)
{
    Bypass fb = *bp;      /* the bypass points in the frame (turned round about its origin) */
    if (m->nframes > 0 && src != tgt && HX(src, HX_FRAME) >= 0 && HX(src, HX_FRAME) == HX(tgt, HX_FRAME) &&
        in_frame(m->frames + HX(src, HX_FRAME), bp, &fb)) {
        /* two hexes of a board turned round: traced in its frame (see KMap), where the canonical
         * end is the other end, so the range keys are turned back to count from the lower id */
        const KMap *f = m->frames + HX(src, HX_FRAME);
        trace_counted(f, src, tgt, sE, tE, s_end, t_end, xs, ys, xy_len, hv, hh, thread,
                      tkeys, thread_len, detail, fl, &fb, out, visited);
        if (out[0] != 0) {
            out[1] = f->ox - out[1];
            out[2] = f->oy - out[2];
        }
        i64 R = hex_range(m, src, tgt);
        for (i64 i = 0, j = R; i < j; i++, j--) {
            i64 v = hv[i], hx_ = hh[i];
            hv[i] = hv[j];
            hh[i] = hh[j];
            hv[j] = v;
            hh[j] = hx_;
            if (fl) {
                i64 lw = fl[i];
                fl[i] = fl[j];
                fl[j] = lw;
            }
        }
        if (detail == 1)
            for (i64 i = 0; i < out[5]; i++)
                tkeys[i] = R - tkeys[i];
        return;
    }
    /* R1b is made walking out of a depression end, where the thread enters each hex: seen
     * from the other end it would leave the hexes there instead.  So that both directions give
     * one answer (A6.1), a thread into a depression end that R1b concerns is also traced from
     * that end; where the two disagree (blocked, or the hindrance) the answer from the
     * depression end is told the other way round (hindrance and thread keys count from the
     * lower hex id either way), else this direction's own answer stands. */
    if (src != tgt && r1b_end(m, tgt, tE, t_end & END_ROOF, src, sE, s_end & END_ROOF)) {
        i64 there[6];
        const Bypass back = swapped(bp);
        trace_counted(m, tgt, src, tE, sE, t_end, s_end, xs, ys, xy_len, hv, hh, thread, tkeys,
                      thread_len, detail, fl, &back, there, visited);
        trace_one(m, src, tgt, sE, tE, s_end, t_end, xs, ys, xy_len, hv, hh, thread, tkeys,
                  thread_len, detail, fl, bp, out, visited);
        if ((out[0] != 0) == (there[0] != 0) && (out[0] != 0 || out[4] == there[4]))
            return;
        trace_counted(m, tgt, src, tE, sE, t_end, s_end, xs, ys, xy_len, hv, hh, thread, tkeys,
                      thread_len, detail, fl, &back, out, visited);
        out[0] = mirrored_reason(out[0]);
        if (detail == 1) {
            for (i64 i = 0, j = out[5] - 1; i < j; i++, j--) {
                i64 th = thread[i], tk = tkeys[i];
                thread[i] = thread[j];
                tkeys[i] = tkeys[j];
                thread[j] = th;
                tkeys[j] = tk;
            }
        }
        return;
    }
    trace_one(m, src, tgt, sE, tE, s_end, t_end, xs, ys, xy_len, hv, hh, thread, tkeys,
              thread_len, detail, fl, bp, out, visited);
}

/* One trace in the direction asked (LOS-SPEC 4). */
static void trace_one(const KMap *m, i64 src, i64 tgt, i64 sE, i64 tE, i64 s_end, i64 t_end,
                      int32_t *xs, int32_t *ys, i64 xy_len, i64 *hv, i64 *hh, i64 *thread,
                      i64 *tkeys, i64 thread_len, i64 detail, i64 *fl, const Bypass *bp,
                      i64 *out, i64 *visited)
{
    /* the ends' flags (END_*): rooftop, entrenched */
    const i64 s_roof = s_end & END_ROOF, t_roof = t_end & END_ROOF;
    Trace tr = {0};
    Trace *w = &tr;
    w->m = m;
    w->hv = hv;
    w->hh = hh;
    w->thread = thread;
    w->tkeys = tkeys;
    w->thread_len = thread_len;
    w->fl = fl;
    w->bp = *bp;
    w->byp_s = bp->sh == src;
    w->byp_t = bp->th == tgt;
    w->bypass = bp->sh >= 0 || bp->th >= 0;
    w->fog_last = -1;
    w->fog_prev = -1;
    w->prev = -1;
    w->gign = -1;
    w->bhex = -1;
    i64 R = hex_range(m, src, tgt);
    for (i64 i = 0; i < R + 1; i++) {
        hv[i] = 0;
        hh[i] = -1;
    }
    if (fl)
        for (i64 i = 0; i < R + 1; i++)
            fl[i] = FOG_ABSENT;
    for (int i = 0; i < 6; i++)
        out[i] = 0;
    if (src == tgt) {
        /* two levels of one building not joined by a stairway (B23.22) */
        if (sE != tE && (HX(src, HX_LEVELS) > 0 || HX(src, HX_ROOFTOP) != 0) &&
            (iabs(sE - tE) > 1 || HX(src, HX_STAIRWAY) == 0)) {
            out[0] = SAME_HEX;
            out[1] = pt_x(w, src);
            out[2] = pt_y(w, src);
            out[3] = src;
        } else {
            out[3] = -1;
        }
        return;
    }
    const i64 sx = pt_x(w, src), sy = pt_y(w, src);
    const i64 tx = pt_x(w, tgt), ty = pt_y(w, tgt);
    w->src = src;
    w->tgt = tgt;
    w->R = R;
    w->sE = sE;
    w->tE = tE;
    w->sroof = s_roof;
    w->troof = t_roof;
    /* entrenched ends (B27.2); a unit on a hillock (F6.4): in a hillock hex, not entrenched */
    w->sent = (s_end & END_ENTRENCHED) != 0;
    w->tent = (t_end & END_ENTRENCHED) != 0;
    w->s_hill = HX(src, HX_HILLOCK) >= 0 && !w->sent;
    w->t_hill = HX(tgt, HX_HILLOCK) >= 0 && !w->tent;
    w->both_hillock = w->s_hill && w->t_hill;
    w->hill_own = w->s_hill ? HX(src, HX_HILLOCK) : (w->t_hill ? HX(tgt, HX_HILLOCK) : -1);
    w->adj_s = w->adj_t = w->hill_seen = w->rubble_seen = w->grain_key = -1;
    w->sx = sx;
    w->sy = sy;
    w->tx = tx;
    w->ty = ty;
    w->detail = (int)detail;
    w->Sp = (double)sE - 0.5 * (double)s_roof;
    w->Tp = (double)tE - 0.5 * (double)t_roof;
    w->lo = w->Sp < w->Tp ? w->Sp : w->Tp;
    w->hi = w->Sp > w->Tp ? w->Sp : w->Tp;
    /* hexspine detection (LOS-SPEC 4.1 step 4) */
    int horizontal = sy == ty;
    int sixty = 0;
    if (!horizontal && sx != tx) {
        double slope = (double)iabs(sy - ty) / (double)iabs(sx - tx);
        double tol = R < 5 ? 0.05 : (R <= 15 ? 0.03 : 0.015);
        sixty = fabs(slope - sqrt(3.0)) < tol;
    }
    w->spine = horizontal || sixty;
    i64 e = -1, a_exit = 0;
    if (horizontal) {
        e = tx > sx ? 2 : 5;
        a_exit = tx > sx ? 1 : 4;
    } else if (sixty) {
        if (tx > sx && ty > sy) {
            e = 3; a_exit = 2;
        } else if (tx > sx) {
            e = 1; a_exit = 0;
        } else if (ty > sy) {
            e = 4; a_exit = 3;
        } else {
            e = 0; a_exit = 5;
        }
    }
    w->e = e;
    w->entry_a = (a_exit + 3) % 6;
    w->roof_nb_s = -1;
    w->roof_nb_t = -1;
    if (s_roof == 1) {
        i64 k = first_exit_side(w, src, tgt);
        w->roof_nb_s = k >= 0 ? NB(src, k) : -1;
    }
    if (t_roof == 1) {
        i64 k = first_exit_side(w, tgt, src);
        w->roof_nb_t = k >= 0 ? NB(tgt, k) : -1;
    }
    /* depression restrictions (LOS-SPEC 4.1 step 7, A6.3); rooftop ends count -1 here */
    i64 sEd = sE - s_roof, tEd = tE - t_roof;
    w->exit_act = HX(src, HX_DEPRESSION) && sE == HX(src, HX_BASE) && (tEd - sEd) <= R;
    w->entry_act = HX(tgt, HX_DEPRESSION) && tE == HX(tgt, HX_BASE) && (sEd - tEd) <= R;
    w->adj_depr_side = R == 1 && shares_depression_side(m, src, tgt);
    /* canonical walk: from the lower hex (HX_ORDER); visited backwards when the source is the
     * other end */
    int canon = HX(src, HX_ORDER) > HX(tgt, HX_ORDER);
    w->canon = canon;
    w->cur = src;
    w->rs = 0;
    w->rt = R;
    w->left = TA(HX(src, HX_CENTRE), TA_BUILDING) == 1 ? 0 : 1;
    w->cand_h = -1;
    w->memo_p = 128 * 256;   /* no hex, terrain 0, ground 0 */
    /* A6.8, R8 (height advantage) and R9 (blind hexes) need ends at different elevations */
    int same = sE == tE && s_roof == t_roof;
    /* (a single query along a hexspine evaluates every pixel, to list both hexes of each pair) */
    int fast = w->exit_act == 0 && w->entry_act == 0 && !(detail == 1 && w->spine);
    w->last_rec = -1;
    /* on a hexspine a pixel may be read as a neighbour's inherent terrain (LOS-SPEC 4.2), so
     * only pixels of hexes with no inherent terrain around them may be skipped there */
    int inh_col = w->spine ? HX_INHERENT_NEAR : HX_ZERO;
    /* (the batch case, fast and without the thread, gets walks of its own) */
    const int batch = fast && detail != 1;
    if (canon == 0) {
        /* walk lazily from the source, stopping at the first block (LOS-SPEC 4.2) */
        if (batch && fl)
            walk_forward(w, 1, same, inh_col, 1, 0);
        else if (batch)
            walk_forward(w, 1, same, inh_col, 0, 0);
        else
            walk_forward(w, fast, same, inh_col, fl != NULL, detail == 1);
    } else {
        if (batch && fl)
            walk_backward(w, xs, ys, xy_len, 1, same, inh_col, 1, 0);
        else if (batch)
            walk_backward(w, xs, ys, xy_len, 1, same, inh_col, 0, 0);
        else
            walk_backward(w, xs, ys, xy_len, fast, same, inh_col, fl != NULL, detail == 1);
    }
    if (w->reason == 0 && w->cand_h >= 0)
        block(w, LEAVE_BUILDING, w->cand_x, w->cand_y, w->cand_h);
    if (w->reason == 0 && w->grain_key >= 0) {
        /* the one grain or brush hindrance of a LOS from a hillock (F6.4, rule_hillock) */
        w->rs = w->grain_rs;
        w->rt = w->grain_rt;
        add_hindrance(w, w->grain_t, w->grain_h, w->grain_x, w->grain_y);
    }
    if (detail == 1) {
        /* make sure the target closes the thread */
        int seen = 0;
        for (i64 i = 0; i < w->nth; i++)
            if (thread[i] == tgt)
                seen = 1;
        if (!seen && w->nth < thread_len) {
            thread[w->nth] = tgt;
            tkeys[w->nth] = canon == 0 ? R : 0;
            w->nth += 1;
        }
    }
    out[0] = w->reason;
    out[1] = w->bx;
    out[2] = w->by;
    out[3] = w->bhex;
    out[4] = w->total;
    out[5] = w->nth;
    *visited += w->visited;
}

/* ---- batches ------------------------------------------------------------------------------
 * The batch functions trace one block of pairs (or of rows) on the calling thread and start no
 * threads of their own: hexwx._native shares the blocks out among Python threads (every ctypes
 * call releases the GIL), so the kernel is plain C99 that any C compiler builds.  Their
 * arguments come as named structs (mirrored by hexwx._native's ctypes structures) and their
 * scratch from the caller, so they cannot fail. */

#define HV_LEN 4096

/* Scratch of one worker thread (mirrored by hexwx._native._Buffers): the walk's pixels
 * (xy_len each) and each range key's hindrance value, hindrance hex and lowest ground
 * (HV_LEN each). */
typedef struct Buffers {
    int32_t *xs, *ys;
    i64 *hv, *hh, *fl;
    i64 xy_len;
} Buffers;

/* A list of pairs (mirrored by hexwx._native._TraceMany): pair i is (sources[i], targets[i])
 * at elevations (elev_s[i], elev_t[i]), each end a rooftop where roof_s[i] / roof_t[i] is 1
 * and in an entrenchment where ent_s[i] / ent_t[i] is 1 (NULL: none).
 * Each pair's reason and hindrance total go to reasons[i], totals[i]; unless `where` is NULL
 * where[i] = (blocking hex or -1, blocking pixel x, y); with fog (fog = (top, d, drm), else
 * NULL) lv[i] receives the pair's fog LV (fog_total()); unless side_s / side_t is NULL an end
 * with a hexside >= 0 there is in bypass along it (D2.3). */
typedef struct TraceMany {
    const KMap *m;
    const i64 *sources, *targets, *elev_s, *elev_t, *roof_s, *roof_t, *ent_s, *ent_t;
    int8_t *reasons;
    int16_t *totals;
    int32_t *where;
    const i64 *fog;
    int16_t *lv;
    const i64 *side_s, *side_t;   /* the hexside an end is in bypass along, else -1 (or NULL) */
} TraceMany;

/* Trace the pairs i0 <= i < i1 of `job`, each exactly as a single query (trace_single()). */
HEXWX_API void hexwx_trace_many(const TraceMany *job, const Buffers *s, i64 i0, i64 i1)
{
    i64 thread[1], tkeys[1], out[7];
    for (i64 i = i0; i < i1; i++) {
        const i64 s_end = (job->roof_s && job->roof_s[i] ? END_ROOF : 0) |
                          (job->ent_s && job->ent_s[i] ? END_ENTRENCHED : 0);
        const i64 t_end = (job->roof_t && job->roof_t[i] ? END_ROOF : 0) |
                          (job->ent_t && job->ent_t[i] ? END_ENTRENCHED : 0);
        trace_single(job->m, job->sources[i], job->targets[i], job->elev_s[i], job->elev_t[i],
                    s_end, t_end,
                    job->side_s ? job->side_s[i] : -1, job->side_t ? job->side_t[i] : -1, s->xs,
                    s->ys, s->xy_len, s->hv, s->hh, thread, tkeys, 1, 0, job->fog, s->fl, NULL,
                    out);
        job->reasons[i] = (int8_t)out[0];
        job->totals[i] = (int16_t)out[4];
        if (job->fog)
            job->lv[i] = (int16_t)out[6];
        if (job->where) {
            job->where[3 * i] = (int32_t)(out[0] != 0 ? out[3] : -1);
            job->where[3 * i + 1] = (int32_t)out[1];
            job->where[3 * i + 2] = (int32_t)out[2];
        }
    }
}

/* The all-pairs job (mirrored by hexwx._native._AllPairs): hex i at elevation elev[i].  Pair
 * (a, b), b > a, is traced once and mirrored into (b, a) (the kernel is reciprocal).  With
 * `full`, results go into [n][n] matrices fwd_reason / fwd_total at (a, b) and (b, a); else the
 * rows layout: (a, b) at index row_base(n, a0, a) + b - a - 1 of the fwd_* arrays, (b, a) at the
 * same index of the rev_* arrays (each array holding the pairs of the rows from a0 on).  With
 * fog (fog = (top, d, drm), else NULL) the fog LV of each pair goes to fwd_lv / rev_lv, laid
 * out as the totals; with ntops > 0 (full only) deficit [ntops][n][n] receives each pair's
 * fog_deficit() at each fog top tops[k], capped at 255. */
typedef struct AllPairs {
    const KMap *m;
    i64 n, a0, full;
    const i64 *elev;
    int8_t *fwd_reason, *rev_reason;
    int16_t *fwd_total, *rev_total;
    const i64 *fog;
    int16_t *fwd_lv, *rev_lv;
    i64 ntops;
    const i64 *tops;
    uint8_t *deficit;
} AllPairs;

static i64 row_base(i64 n, i64 a0, i64 a)
{
    /* sum of (n - 1 - k) for k in [a0, a) */
    return (a - a0) * (n - 1) - (a - a0) * (a0 + a - 1) / 2;
}

/* Trace the pairs (a, b) and (b, a) of `job` for r0 <= a < r1 and every b > a; *visited
 * receives the pixels the walks read. */
HEXWX_API void hexwx_all_pairs(const AllPairs *job, const Buffers *s, i64 r0, i64 r1,
                               i64 *visited)
{
    const KMap *m = job->m;
    const i64 n = job->n;
    const i64 nn = n * n;
    i64 thread[1], tkeys[1], out[6];
    i64 seen = 0;
    /* the walk notes each key's lowest ground when fog between the ends can count: for the fog
     * LV (fog_between()) or for a deficit (the highest top above the lower end) */
    i64 max_top = INT64_MIN;
    for (i64 k = 0; k < job->ntops; k++)
        max_top = imax(max_top, job->tops[k]);
    for (i64 a = r0; a < r1; a++) {
        i64 base = job->full ? 0 : row_base(n, job->a0, a);
        for (i64 b = a + 1; b < n; b++) {
            const i64 ea = job->elev[a], eb = job->elev[b];
            i64 *fl = fog_between(job->fog, ea, eb) || max_top > imin(ea, eb) ? s->fl : NULL;
            trace_counted(m, a, b, ea, eb, 0, 0, s->xs, s->ys, s->xy_len, s->hv, s->hh, thread,
                          tkeys, 1, 0, fl, &NO_BYPASS, out, &seen);
            i64 f = job->full ? a * n + b : base + b - a - 1;
            i64 r = job->full ? b * n + a : f;   /* where (b, a) goes */
            job->fwd_reason[f] = (int8_t)out[0];
            job->fwd_total[f] = (int16_t)out[4];
            if (job->fog)
                job->fwd_lv[f] = (int16_t)fog_total(m, a, b, ea, eb, fl, job->fog, NULL);
            if (job->ntops > 0)
                fog_deficits(m, a, b, ea, eb, fl, job->tops, job->ntops, job->deficit + f, nn);
            /* the kernel is reciprocal, except the ground-ignore update (R1b) of a pair with a
             * depression end, which depends on direction: trace those both ways.  The same
             * keys serve the fog of (b, a) otherwise (they count from the lower id, a) */
            const int both_ways = HX(a, HX_DEPRESSION) != 0 || HX(b, HX_DEPRESSION) != 0;
            if (both_ways)
                trace_counted(m, b, a, eb, ea, 0, 0, s->xs, s->ys, s->xy_len, s->hv, s->hh,
                              thread, tkeys, 1, 0, fl, &NO_BYPASS, out, &seen);
            if (job->full) {
                job->fwd_reason[r] = (int8_t)out[0];
                job->fwd_total[r] = (int16_t)out[4];
            } else {
                job->rev_reason[r] = (int8_t)out[0];
                job->rev_total[r] = (int16_t)out[4];
            }
            if (job->fog)
                (job->full ? job->fwd_lv : job->rev_lv)[r] =
                    (int16_t)fog_total(m, b, a, eb, ea, fl, job->fog, NULL);
            /* fog_rule() is the same seen from either end: with the same keys (no second
             * trace) the deficits of (b, a) are those of (a, b) */
            if (job->ntops > 0 && both_ways)
                fog_deficits(m, b, a, eb, ea, fl, job->tops, job->ntops, job->deficit + r, nn);
            else
                for (i64 k = 0; k < job->ntops; k++)
                    job->deficit[k * nn + r] = job->deficit[k * nn + f];
        }
    }
    *visited = seen;
}

/* The interface version (HEXWX_KERNEL_ABI, above): hexwx._native checks it at load. */
HEXWX_API i64 hexwx_kernel_abi(void)
{
    return HEXWX_KERNEL_ABI;
}

/* ---- the Python module ---------------------------------------------------------------------
 * setuptools builds this file as the extension hexwx._loskernel (*.abi3.so, *.pyd): Python's
 * stable ABI, 3.11 on.  Its one method, trace(), is the single query's entry point (a call
 * through ctypes costs more than the walk); hexwx._native loads the same file with ctypes for
 * the batch functions above, and is the one caller of both. */
#ifndef HEXWX_KERNEL_ONLY

/* A Python int argument of trace() as an i64; TypeError naming it when it is not one. */
static int int_arg(PyObject *o, const char *name, i64 *v)
{
    long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "trace: %s must be an int that fits in 64 bits", name);
        return -1;
    }
    *v = (i64)x;
    return 0;
}

/* A list of the n ints v[0..n-1] (NULL with an exception set when out of memory). */
static PyObject *int_list(const i64 *v, i64 n)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (list == NULL)
        return NULL;
    for (i64 i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong((long long)v[i]);
        if (x == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)i, x);   /* (steals x) */
    }
    return list;
}

/* trace(kmap, xy_len, gil_px, src, tgt, sE, tE, s_end, t_end, s_side, t_side, detail, fog):
 * one single query, trace_single() with the scratch allocated here for this call.  s_end /
 * t_end: the end's END_* flags (END_ROOF a rooftop, END_ENTRENCHED in an entrenchment);
 * s_side / t_side: the hexside 0-5 the end is in bypass along, -1 none.  The GIL is released
 * while the walk runs when the walk may be long -- gil_px pixels or more between the ends' LOS
 * points, |dx| + |dy| -- so that threads asking single queries run in parallel: a thread
 * waiting for the GIL takes microseconds to wake, so for a shorter walk the hand-over costs
 * the two threads more than they gain (hexwx._native.GIL_FREE_PIXELS).  kmap is the address
 * of a struct KMap, fog that of a fog spec (top, d, drm) or None; xy_len is the length of the
 * walk's pixel buffers (hexwx._native._Prepared).  Returns (reason, block_x, block_y,
 * block_hex, hindrance_total, fog LV, range); when detail is 1 (reason, block_x, block_y,
 * block_hex, hindrance_total, fog LV) followed by each range key's hindrance value and
 * hex * 256 + terrain code (lists of range + 1), the hexes of the thread in order and their
 * keys (lists), and with fog each key's FOG_* code (a list of range + 1; else None). */
static PyObject *py_trace(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    static const char *names[] = {"kmap", "xy_len", "gil_px", "src", "tgt", "sE", "tE",
                                  "s_end", "t_end", "s_side", "t_side", "detail"};
    i64 v[12];
    (void)self;
    if (nargs != 13) {
        PyErr_Format(PyExc_TypeError, "trace takes 13 arguments (%zd given)", nargs);
        return NULL;
    }
    for (int i = 0; i < 12; i++)
        if (int_arg(args[i], names[i], &v[i]) < 0)
            return NULL;
    const KMap *m = (const KMap *)(uintptr_t)v[0];
    const i64 xy_len = v[1], gil_px = v[2], src = v[3], tgt = v[4], sE = v[5], tE = v[6],
              s_end = v[7], t_end = v[8], s_side = v[9], t_side = v[10], detail = v[11];
    i64 fog_at = 0;
    if (args[12] != Py_None && int_arg(args[12], "fog", &fog_at) < 0)
        return NULL;
    if (m == NULL || (args[12] != Py_None && fog_at == 0)) {
        PyErr_SetString(PyExc_ValueError, "trace: kmap and fog must be addresses (not 0)");
        return NULL;
    }
    if (!(0 <= src && src < m->n && 0 <= tgt && tgt < m->n)) {
        PyErr_Format(PyExc_ValueError, "trace: hex ids must lie in 0..%lld, got %lld and %lld",
                     (long long)(m->n - 1), (long long)src, (long long)tgt);
        return NULL;
    }
    const i64 ends = END_ROOF | END_ENTRENCHED;
    if ((s_end & ~ends) != 0 || s_end < 0 || (t_end & ~ends) != 0 || t_end < 0 ||
        (detail != 0 && detail != 1) || xy_len < 1 || xy_len > ((i64)1 << 28)) {
        PyErr_Format(PyExc_ValueError, "trace: s_end and t_end must be 0..3, detail 0 or 1 and "
                     "xy_len 1..2**28, got %lld, %lld, %lld and %lld", (long long)s_end,
                     (long long)t_end, (long long)detail, (long long)xy_len);
        return NULL;
    }
    if (s_side < -1 || s_side > 5 || t_side < -1 || t_side > 5) {
        PyErr_Format(PyExc_ValueError, "trace: s_side and t_side must be -1..5, got %lld and "
                     "%lld", (long long)s_side, (long long)t_side);
        return NULL;
    }
    /* the range keys a walk writes: the pair's range (in the frame of a turned board too) */
    i64 R = hex_range(m, src, tgt);
    if (m->nframes > 0 && HX(src, HX_FRAME) >= 0 && HX(src, HX_FRAME) == HX(tgt, HX_FRAME))
        R = imax(R, hex_range(m->frames + HX(src, HX_FRAME), src, tgt));
    const i64 keys = R + 1, keys0 = hex_range(m, src, tgt) + 1, thread_len = detail ? HV_LEN : 1;
    i64 *buf = (i64 *)malloc((size_t)(4 * keys + 2 * thread_len) * sizeof(i64) +
                             (size_t)(2 * xy_len) * sizeof(int32_t));
    if (buf == NULL)
        return PyErr_NoMemory();
    i64 *hv = buf, *hh = hv + keys, *fl = hh + keys, *fk = fl + keys, *thread = fk + keys;
    i64 *tkeys = thread + thread_len;
    int32_t *xs = (int32_t *)(tkeys + thread_len), *ys = xs + xy_len;
    const i64 *fog = (const i64 *)(uintptr_t)fog_at;
    i64 out[7];
    const i64 px = iabs(HX(tgt, HX_LOS_X) - HX(src, HX_LOS_X)) +
                   iabs(HX(tgt, HX_LOS_Y) - HX(src, HX_LOS_Y));
    PyThreadState *released = px >= gil_px ? PyEval_SaveThread() : NULL;
    trace_single(m, src, tgt, sE, tE, s_end, t_end, s_side, t_side, xs, ys, xy_len, hv, hh,
                 thread, tkeys, thread_len, detail, fog, fl, fk, out);
    if (released != NULL)
        PyEval_RestoreThread(released);
    PyObject *res;
    if (!detail) {
        res = Py_BuildValue("(LLLLLLL)", (long long)out[0], (long long)out[1], (long long)out[2],
                            (long long)out[3], (long long)out[4], (long long)out[6],
                            (long long)(keys0 - 1));
    } else {
        /* each list made only while no exception is pending (out of memory) */
        PyObject *lists[5] = {NULL, NULL, NULL, NULL, NULL};
        int made = (lists[0] = int_list(hv, keys0)) != NULL &&
                   (lists[1] = int_list(hh, keys0)) != NULL &&
                   (lists[2] = int_list(thread, out[5])) != NULL &&
                   (lists[3] = int_list(tkeys, out[5])) != NULL;
        if (made && fog) {
            lists[4] = int_list(fk, keys0);
            made = lists[4] != NULL;
        } else if (made) {
            Py_INCREF(Py_None);
            lists[4] = Py_None;
        }
        res = NULL;
        if (made)
            res = Py_BuildValue("(LLLLLLOOOOO)", (long long)out[0], (long long)out[1],
                                (long long)out[2], (long long)out[3], (long long)out[4],
                                (long long)out[6], lists[0], lists[1], lists[2], lists[3],
                                lists[4]);
        for (int i = 0; i < 5; i++)
            Py_XDECREF(lists[i]);
    }
    free(buf);
    return res;
}

static PyMethodDef loskernel_methods[] = {
    {"trace", (PyCFunction)(void (*)(void))py_trace, METH_FASTCALL,
     "trace(kmap, xy_len, gil_px, src, tgt, sE, tE, s_end, t_end, s_side, t_side, detail, fog): "
     "one single query (hexwx._native.trace and trace_record call it)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef loskernel_module = {
    PyModuleDef_HEAD_INIT, "_loskernel",
    "Compiled LOS kernel of hexwx: trace() for single queries; hexwx._native calls the "
    "batch functions through ctypes.", -1,
    loskernel_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__loskernel(void)
{
    return PyModule_Create(&loskernel_module);
}
#endif
