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
:mod:`hexwx.hexmap.board` (few arguments keep calls between the kernel's functions cheap):
``M = (elevation, terrain, hex_at, HX [n, 13] per-hex ints, H6 [n, 6, 6] per-hexside ints,
ext [n, 6, 2], loc [n, 6, 2], ext bounding boxes [n, 4], pix [height, width])`` and
``T = (TA [256, 15] terrain attributes by code, split [256], fast-path class [256])``; the
column orders are :data:`HX_COLUMNS`, :data:`H6_COLUMNS` and :data:`TA_COLUMNS`.  ``pix``
packs each pixel's terrain code, elevation + 128 and hex id + 1 into one int32, row-major, so
the walk reads one word per pixel from memory that mostly lies side by side.

The kernel itself is C (``hexwx/_loskernel.c``, built by ``pip install`` as the extension
``hexwx._loskernel``), with the rule-by-rule comments and citations beside the code; this
module keeps the Python names and calls it through :mod:`ctypes`.  The batch functions release
the GIL while they run, and the all-pairs functions run on the CPUs of the process's affinity
(or ``threads=``).
"""
from __future__ import annotations

import ctypes
import os
from collections import OrderedDict

import numpy as np

from hexwx.errors import HexwxError

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

# Reason codes (LOS-SPEC 5); texts and citations live in hexwx.lineofsight.engine.REASONS.
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

#: Length of the per-key hindrance buffers the C batch functions use (range + 1 must fit).
_HV_LEN = 4096


class KernelNotBuiltError(HexwxError, ImportError):
    """The compiled kernel ``hexwx._loskernel`` is missing or does not load."""


_i64 = ctypes.c_int64
_ptr = ctypes.c_void_p


class _KMap(ctypes.Structure):
    """The map as ``hexwx/_loskernel.c`` reads it (struct KMap: same fields, same order)."""

    _fields_ = [("n", _i64), ("width", _i64), ("height", _i64),
                ("hex_at", _ptr), ("hx", _ptr), ("h6", _ptr), ("ext", _ptr), ("loc", _ptr),
                ("bbox", _ptr), ("pix", _ptr), ("ta", _ptr), ("split", _ptr), ("fast", _ptr)]


_LIB: ctypes.CDLL | None = None


def clib() -> ctypes.CDLL:
    """The compiled kernel library, loaded once (KernelNotBuiltError if it is not built)."""
    global _LIB
    if _LIB is None:
        try:
            from hexwx import _loskernel
            lib = ctypes.CDLL(_loskernel.__file__)
        except (ImportError, OSError) as exc:
            raise KernelNotBuiltError(
                f"the compiled LOS kernel hexwx._loskernel is not built or does not load ({exc}); "
                f"reinstall hexwx with `pip install -e .`") from None
        kp = ctypes.POINTER(_KMap)
        # A single trace (tens of microseconds) keeps the GIL: callers
        # such as hexwx.lineofsight.engine reuse one set of scratch buffers, which concurrent Python threads
        # would otherwise share.  The batch functions own their scratch and release it.
        lib.trace_with_gil = ctypes.PyDLL(_loskernel.__file__).hexwx_trace
        lib.trace_with_gil.argtypes = [kp, _i64, _i64, _i64, _i64, _i64, _i64, _ptr, _ptr, _i64,
                                       _ptr, _ptr, _ptr, _ptr, _i64, _i64, _ptr]
        lib.trace_with_gil.restype = None
        lib.hexwx_trace_many.argtypes = [kp, _i64, _ptr, _ptr, _ptr, _ptr, _i64, _ptr, _ptr]
        lib.hexwx_trace_many.restype = ctypes.c_int
        lib.hexwx_all_pairs_matrix.argtypes = [kp, _i64, _ptr, _i64, _i64, _ptr, _ptr]
        lib.hexwx_all_pairs_matrix.restype = ctypes.c_int
        lib.hexwx_all_pairs_rows.argtypes = [kp, _i64, _ptr, _i64, _i64, _i64, _i64, _ptr, _ptr,
                                             _ptr, _ptr, _ptr]
        lib.hexwx_all_pairs_rows.restype = ctypes.c_int
        lib.hexwx_grid_lookup_all.argtypes = [_i64, _i64, _ptr, _ptr, _ptr, _i64, _ptr]
        lib.hexwx_grid_lookup_all.restype = None
        lib.hexwx_inherent_pass.argtypes = [_i64, _ptr, _ptr, _i64, _i64, _ptr, _ptr, _ptr, _ptr,
                                            _ptr, _ptr]
        lib.hexwx_inherent_pass.restype = None
        _LIB = lib
    return _LIB


class _Prepared:
    """C-contiguous copies of one map's arrays (made once) and the struct pointing at them."""

    def __init__(self, M: tuple, T: tuple) -> None:
        self.keep = (M, T)  # the ids used as cache key stay valid while this entry lives
        hex_at = _contiguous(M[2], np.int32, "hex_at", 2)
        hx = _contiguous(M[3], np.int32, "HX", 2)
        h6 = _contiguous(M[4], np.int32, "H6", 3)
        n = hx.shape[0]
        width, height = hex_at.shape
        shapes = {"HX": (hx.shape, (n, len(HX_COLUMNS))), "H6": (h6.shape, (n, 6, len(H6_COLUMNS))),
                  "ext": (M[5].shape, (n, 6, 2)), "loc": (M[6].shape, (n, 6, 2)),
                  "bbox": (M[7].shape, (n, 4)), "pix": (M[8].shape, (height, width)),
                  "TA": (T[0].shape, (256, len(TA_COLUMNS))), "split": (T[1].shape, (256,)),
                  "fast class": (T[2].shape, (256,))}
        for name, (got, want) in shapes.items():
            if tuple(got) != want:
                raise ValueError(f"kernel array {name} has shape {tuple(got)}, expected {want}")
        self.arrays = (hex_at, hx, h6, _contiguous(M[5], np.int32, "ext", 3),
                       _contiguous(M[6], np.int32, "loc", 3), _contiguous(M[7], np.int32, "bbox", 2),
                       _contiguous(M[8], np.int32, "pix", 2),
                       _contiguous(T[0], np.int32, "TA", 2),
                       _contiguous(T[1], np.float64, "split", 1),
                       _contiguous(T[2], np.int32, "fast class", 1))
        self.n = n
        self.kmap = _KMap(n, width, height,
                          *(a.ctypes.data for a in self.arrays))
        self.ref = ctypes.byref(self.kmap)
        # the largest range on the map bounds the hindrance keys a trace writes
        col, dy2 = hx[:, 2].astype(np.int64), hx[:, 3].astype(np.int64)
        self.max_range = int(col.max() - col.min() + (dy2.max() - dy2.min()) // 2) if n else 0


def _contiguous(a: np.ndarray, dtype: type, name: str, ndim: int) -> np.ndarray:
    a = np.asarray(a)
    if a.ndim != ndim:
        raise ValueError(f"kernel array {name} has {a.ndim} dimensions, expected {ndim}")
    return np.ascontiguousarray(a, dtype)


_PREPARED: OrderedDict[tuple[int, int], _Prepared] = OrderedDict()
_PREPARED_MAX = 32


def _prepared(M: tuple, T: tuple) -> _Prepared:
    key = (id(M), id(T))
    p = _PREPARED.get(key)
    if p is None:
        p = _Prepared(M, T)
        _PREPARED[key] = p
        if len(_PREPARED) > _PREPARED_MAX:
            _PREPARED.popitem(last=False)
    return p


_BUFFERS: OrderedDict[int, tuple[np.ndarray, int]] = OrderedDict()
_BUFFERS_MAX = 64


def _buffer(a: np.ndarray, dtype: type, name: str) -> int:
    """Address of a caller's buffer, which the kernel writes: must be C-contiguous ``dtype``.

    Callers reuse their buffers from query to query, so each is checked once and its address
    remembered (the entry holds the array, so its id and memory stay its own)."""
    hit = _BUFFERS.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    if not isinstance(a, np.ndarray) or a.dtype != dtype or not a.flags.c_contiguous \
            or not a.flags.writeable:
        raise ValueError(f"buffer {name} must be a writeable C-contiguous {np.dtype(dtype).name} array")
    _BUFFERS[id(a)] = (a, a.ctypes.data)
    if len(_BUFFERS) > _BUFFERS_MAX:
        _BUFFERS.popitem(last=False)
    return a.ctypes.data


def _hex_ids(p: _Prepared, *ids: np.ndarray) -> None:
    for a in ids:
        if a.size and (a.min() < 0 or a.max() >= p.n):
            raise ValueError(f"hex ids must lie in 0..{p.n - 1}")


def trace(M: tuple, T: tuple, src: int, tgt: int, sE: int, tE: int, s_roof: int, t_roof: int,
          xs: np.ndarray, ys: np.ndarray, hv: np.ndarray, hh: np.ndarray, thread: np.ndarray,
          tkeys: np.ndarray, detail: int) -> tuple[int, int, int, int, int, int]:
    """Trace one LOS; returns (reason, block_x, block_y, block_hex, hindrance_total, n_thread).

    ``hv``/``hh`` (int64, length >= range+1) receive each range key's hindrance value and
    ``hex * 256 + terrain code``;
    ``thread``/``tkeys`` (int64) receive the hexes entered in order with their keys (when
    detail=1).  ``xs``/``ys`` (int32) are scratch for the pixels of the walk.
    """
    p = _prepared(M, T)
    src, tgt = int(src), int(tgt)
    if not (0 <= src < p.n and 0 <= tgt < p.n):
        raise ValueError(f"hex ids must lie in 0..{p.n - 1}, got {src} and {tgt}")
    if len(hv) <= p.max_range or len(hh) <= p.max_range or len(tkeys) < len(thread) or len(ys) < len(xs):
        raise ValueError("trace buffers too short: hv, hh need range + 1 entries, tkeys and ys "
                         "as many as thread and xs")
    out = (_i64 * 6)()
    clib().trace_with_gil(p.ref, src, tgt, int(sE), int(tE), int(s_roof), int(t_roof),
                          _buffer(xs, np.int32, "xs"), _buffer(ys, np.int32, "ys"), len(xs),
                          _buffer(hv, np.int64, "hv"), _buffer(hh, np.int64, "hh"),
                          _buffer(thread, np.int64, "thread"), _buffer(tkeys, np.int64, "tkeys"),
                          len(thread), int(detail), ctypes.addressof(out))
    return out[0], out[1], out[2], out[3], out[4], out[5]


def trace_many(M: tuple, T: tuple, sources: np.ndarray, targets: np.ndarray, elev_s: np.ndarray,
               elev_t: np.ndarray, maxlen: int) -> tuple[np.ndarray, np.ndarray]:
    """Trace every (sources[i], targets[i]) pair; returns (reason int8, hindrance int16) arrays."""
    p = _prepared(M, T)
    cols = [np.ascontiguousarray(a, np.int64) for a in (sources, targets, elev_s, elev_t)]
    n = len(cols[0])
    if any(len(a) != n for a in cols):
        raise ValueError("sources, targets and both elevations must have the same length")
    _hex_ids(p, cols[0], cols[1])
    _check_range(p)
    reasons = np.zeros(n, np.int8)
    totals = np.zeros(n, np.int16)
    if clib().hexwx_trace_many(p.ref, n, *(a.ctypes.data for a in cols), int(maxlen),
                               reasons.ctypes.data, totals.ctypes.data) != 0:
        raise MemoryError("the LOS kernel could not allocate its scratch buffers")
    return reasons, totals


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, e.g. under taskset or a batch
    scheduler's cgroup), not the machine's count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _threads(threads: int | None) -> int:
    if threads is None:
        return available_cpus()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a whole number >= 1, got {threads!r}")
    return min(int(threads), 256)


def row_pairs(n: int, a0: int, a1: int) -> int:
    """How many unordered pairs (a, b), b > a, the rows a in [a0, a1) hold."""
    return (a1 - a0) * (n - 1) - (a1 - a0) * (a0 + a1 - 1) // 2


def all_pairs_rows(M: tuple, T: tuple, elev: np.ndarray, maxlen: int, a0: int, a1: int,
                   threads: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """LOS of the pairs (a, b) and (b, a) for every a in [a0, a1) and b > a (hex i at elev[i]).

    Returns (forward reason int8, forward hindrance int16, reverse reason, reverse hindrance,
    pixels read), the pairs in order of a then b: the all-pairs matrix one block of rows at a
    time, so a caller can stream it in bounded memory.  Runs on ``threads`` threads (default:
    the CPUs of this process's affinity) with the GIL released.
    """
    p = _prepared(M, T)
    elev = np.ascontiguousarray(elev, np.int64)
    n = len(elev)
    if n != p.n:
        raise ValueError(f"elev has {n} entries, expected one per hex ({p.n})")
    if not 0 <= a0 <= a1 <= n:
        raise ValueError(f"rows {a0}..{a1} outside 0..{n}")
    _check_range(p)
    count = row_pairs(n, a0, a1)
    fr, rr = np.zeros(count, np.int8), np.zeros(count, np.int8)
    ft, rt = np.zeros(count, np.int16), np.zeros(count, np.int16)
    visited = _i64(0)
    if clib().hexwx_all_pairs_rows(p.ref, n, elev.ctypes.data, int(maxlen), _threads(threads),
                                   int(a0), int(a1), fr.ctypes.data, ft.ctypes.data,
                                   rr.ctypes.data, rt.ctypes.data, ctypes.addressof(visited)) != 0:
        raise MemoryError("the LOS kernel could not allocate its scratch buffers")
    return fr, ft, rr, rt, int(visited.value)


def all_pairs_matrix(M: tuple, T: tuple, elev: np.ndarray, maxlen: int,
                     threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """LOS between every ordered pair of hexes (hex i at elevation elev[i]).

    Returns (reason int8 [n, n], hindrance int16 [n, n]).  Each unordered pair is traced once
    from its lower id and mirrored (the kernel is reciprocal), except pairs with a depression
    end, whose ground-ignore update (R1b) depends on direction: those are traced both ways.
    The pairs are shared among ``threads`` threads (default: the CPUs of this process's
    affinity, :func:`available_cpus`).
    """
    p = _prepared(M, T)
    elev = np.ascontiguousarray(elev, np.int64)
    n = len(elev)
    if n != p.n:
        raise ValueError(f"elev has {n} entries, expected one per hex ({p.n})")
    _check_range(p)
    reasons = np.zeros((n, n), np.int8)
    totals = np.zeros((n, n), np.int16)
    if clib().hexwx_all_pairs_matrix(p.ref, n, elev.ctypes.data, int(maxlen), _threads(threads),
                                     reasons.ctypes.data, totals.ctypes.data) != 0:
        raise MemoryError("the LOS kernel could not allocate its scratch buffers")
    return reasons, totals


def _check_range(p: _Prepared) -> None:
    if p.max_range + 1 > _HV_LEN:
        raise ValueError(f"the map is too large for the batch kernel: ranges up to {p.max_range}, "
                         f"at most {_HV_LEN - 1} supported")
