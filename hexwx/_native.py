"""The compiled pixel-walk LOS kernel (LOS-SPEC section 4), shared by single and batch queries.

One call traces one thread from the source's LOS point to the target's across the terrain
raster and applies the rule chain at every pixel: depression (A6.3), building exit (A6.8),
hexside terrain (B9), ground level, split and half-level terrain, higher-than-both and height
advantage (A6.2), blind hexes (A6.4, B10.23) and the hindrance count (B.10).

Reciprocity (DESIGN principle 2): the pixels of a thread are always generated from the end
that comes first in the canonical order (the hex id; a turned board's own order in its frame,
below) and visited in reverse when the source is the other end, and hindrances
are keyed by range from that canonical end, so A->B and B->A see the same pixels and count the
same hindrances.  VASL walks from the source and is not reciprocal (LOS-SPEC 7.4).

The map is passed as two tuples of a few packed arrays, built once per map by
:mod:`hexwx.hexmap.board` (few arguments keep calls between the kernel's functions cheap):
``M = (elevation, terrain, hex_at, HX [n, 18] per-hex ints, H6 [n, 6, 6] per-hexside ints,
ext [n, 6, 2], loc [n, 6, 2], ext bounding boxes [n, 4], pix [height, width][, frames]
[, hex size])`` and
``T = (TA [256, 15] terrain attributes by code, split [256], fast-path class [256])``; the
column orders are :data:`HX_COLUMNS`, :data:`H6_COLUMNS` and :data:`TA_COLUMNS`.  ``pix``
packs each pixel's terrain code, elevation + 128 and hex id + 1 into one int32, row-major, so
the walk reads one word per pixel from memory that mostly lies side by side.

``hex size`` (float64 [2], only on maps of boards other than geomorphic ones, such as half and
Deluxe boards) is the boards' hex width and height in pixels (:data:`GEOMORPHIC_HEX` without it).
``frames`` (optional) holds one tuple ``(origin [2], HX, H6, ext, loc, bbox, pix)`` per board
turned round among upright boards: the map turned round about that board (its pixel (x, y) is
the map's (ox - x, oy - y), hexside k the map's (k + 3) mod 6, ``pix`` only the board's
rectangle).  A pair of two hexes of that board (HX column ``frame``) is traced in its frame,
where the board lies upright, so it answers exactly as the upright board
(:mod:`hexwx.hexmap.pixelgeom`); the column ``order`` gives the canonical end (the hex id on
the map, the upright board's order in a frame).

The kernel itself is C (``hexwx/_loskernel.c``, built by ``pip install`` as the extension
``hexwx._loskernel``), with the rule-by-rule comments and citations beside the code; this
module keeps the Python names and is the one place that calls it.  A single query
(:func:`trace`, :func:`trace_record`) calls the extension module's one method,
``_loskernel.trace``: Python ints in, a tuple out, its scratch allocated in C per call, so a
query costs little more than its walk; it refuses bad arguments with ValueError or TypeError,
and gives the GIL up for a long walk only (:data:`GIL_FREE_PIXELS`).
The batch functions are called through :mod:`ctypes`: they take named structs (``struct
Buffers``, ``TraceMany``, ``AllPairs``, mirrored here and checked against the C source by
tests/architecture/test_kernel_source.py), write into arrays the caller allocates and return no
status, so they cannot fail.  The kernel keeps no state of its own and starts no threads (it is
portable C99); every batch call releases the GIL while it walks, and the batch functions
(:func:`trace_many`, the all-pairs ones) hand their blocks of pairs to Python threads
(:func:`_share`), as many as the CPUs of the process's affinity (or ``threads=``).

Bypass (D2.3): :func:`trace` and :func:`trace_many` take, per end, the hexside it is in bypass
along (-1: none).  The walk then reads that hexside's location point (``loc``, LOS-SPEC 1.8)
wherever it reads the end hex's LOS point, turned into a frame's pixels like any point (a point
off the frame's raster: the pair is traced on the map), and the obstacle of that end's own hex
is evaluated like one between the ends (docs/counters.md).  Nothing is prepared per bypass end.

Fog (E3 3.31, 3.311): every function takes an optional ``fog`` spec (:func:`fog_spec`: the fog
top, the scale of the heights and the density DRM).  With it the walk also notes the lowest
ground (HX column ``low``) of each range key of the thread -- the hexes the single query lists
-- and the kernel adds up the fog LV of the pair by the rule of
:func:`hexwx.lineofsight.lv.fog_lv` (the readable reference, with the citations): no second
walk, and batch answers equal to the single query's.
"""
from __future__ import annotations

import ctypes
import os
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from hexwx._cache import ByteLRU, nbytes_of
from hexwx._kernel_bounds import check_kernel_map
from hexwx.errors import HexwxError

#: Column order of the packed per-hex array HX (M[3]).
HX_COLUMNS = ("los_x", "los_y", "col", "dy2", "centre", "base", "depression", "levels",
              "rooftop", "stairway", "has_cliff", "inherent_near", "zero", "fill", "order",
              "frame", "low", "hillock")
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
HILLOCK = 18
HILLOCK_WALLS = 19
HILLOCK_RUBBLE = 20
ENTRENCHED = 21

#: Length of the per-key hindrance buffers the C batch functions use (range + 1 must fit).
_HV_LEN = 4096

def fog_spec(top: int, *, drm: int, scale: int = 1) -> np.ndarray:
    """The ``fog`` argument of the kernel functions: fog top (level L + 1 for fog at level L and
    lower) times ``scale``, ``scale`` (the kernel multiplies elevations and ground by it) and the
    density DRM per hex (E3 3.311)."""
    if scale < 1 or drm < 0:
        raise ValueError(f"bad fog spec: top {top}, drm {drm}, scale {scale}")
    return np.array([int(top), int(scale), int(drm)], np.int64)


def _fog_arg(fog: np.ndarray | None) -> int | None:
    """The address of a fog spec for the kernel; checked once per array (the engine keeps one
    spec per weather, and a single query is a few microseconds)."""
    if fog is None:
        return None
    known = _FOG_ADDRESSES.get(id(fog))
    if known is not None and known[0] is fog:
        return known[1]
    if fog.dtype != np.int64 or fog.shape != (3,) or not fog.flags.c_contiguous:
        raise ValueError("fog must be a fog_spec() array")
    address = int(fog.ctypes.data)
    if fog.flags.writeable:          # its contents may change: not kept
        return address
    if len(_FOG_ADDRESSES) >= 256:
        _FOG_ADDRESSES.clear()
    _FOG_ADDRESSES[id(fog)] = (fog, address)   # (the array is held: its id is not reused)
    return address


#: id -> (read-only fog spec, its address): :func:`_fog_arg`'s checked specs.
_FOG_ADDRESSES: dict[int, tuple[np.ndarray, int]] = {}


class KernelNotBuiltError(HexwxError, ImportError):
    """The compiled kernel ``hexwx._loskernel`` is missing or does not load."""


_i64 = ctypes.c_int64
_ptr = ctypes.c_void_p


class _KMap(ctypes.Structure):
    """The map as ``hexwx/_loskernel.c`` reads it (struct KMap: same fields, same order)."""

    _fields_ = [("n", _i64), ("width", _i64), ("height", _i64),
                ("hex_at", _ptr), ("hx", _ptr), ("h6", _ptr), ("ext", _ptr), ("loc", _ptr),
                ("bbox", _ptr), ("pix", _ptr), ("ta", _ptr), ("split", _ptr), ("fast", _ptr),
                ("nframes", _i64), ("frames", _ptr), ("ox", _i64), ("oy", _i64),
                ("hex_w", ctypes.c_double), ("hex_h", ctypes.c_double)]


#: The answer of :func:`trace`: (reason code (``CLEAR`` or why blocked), blocking pixel x, y,
#: blocking hex (-1: none), terrain hindrance total, fog LV (0 without fog), range).
Verdict = tuple[int, int, int, int, int, int, int]
#: The answer of :func:`trace_record`: the :data:`Verdict` without the range, then per range
#: key (0..range, from the lower hex id) the hindrance value and ``hex * 256 + terrain code``,
#: the hexes of the thread in order and their keys, and with fog each key's fog code
#: (``FOG_*``; None without fog).
Record = tuple[int, int, int, int, int, int, list[int], list[int], list[int], list[int],
               list[int] | None]


class _Buffers(ctypes.Structure):
    """One worker's scratch for the batch functions (struct Buffers): pixels of the walk
    (``xy_len`` each) and per-key hindrances and lowest ground (:data:`_HV_LEN` each)."""

    _fields_ = [("xs", _ptr), ("ys", _ptr), ("hv", _ptr), ("hh", _ptr), ("fl", _ptr),
                ("xy_len", _i64)]


class _TraceMany(ctypes.Structure):
    """A list of pairs for ``hexwx_trace_many`` (struct TraceMany)."""

    _fields_ = [("m", ctypes.POINTER(_KMap)), ("sources", _ptr), ("targets", _ptr),
                ("elev_s", _ptr), ("elev_t", _ptr), ("roof_s", _ptr), ("roof_t", _ptr),
                ("ent_s", _ptr), ("ent_t", _ptr), ("reasons", _ptr), ("totals", _ptr),
                ("where", _ptr), ("fog", _ptr), ("lv", _ptr), ("side_s", _ptr), ("side_t", _ptr)]


class _AllPairs(ctypes.Structure):
    """An all-pairs job for ``hexwx_all_pairs`` (struct AllPairs)."""

    _fields_ = [("m", ctypes.POINTER(_KMap)), ("n", _i64), ("a0", _i64), ("full", _i64),
                ("elev", _ptr), ("fwd_reason", _ptr), ("rev_reason", _ptr), ("fwd_total", _ptr),
                ("rev_total", _ptr), ("fog", _ptr), ("fwd_lv", _ptr), ("rev_lv", _ptr),
                ("ntops", _i64), ("tops", _ptr), ("deficit", _ptr)]


_LIB: ctypes.CDLL | None = None


def _unloaded(*args: Any) -> Any:
    clib()
    return _TRACE(*args)


#: The extension module's single-query method (``_loskernel.trace``), set by :func:`clib`.
_TRACE: Callable[..., Any] = _unloaded

#: The packed map ``M`` or terrain ``T`` array tuple (HexMap.kernel_map / kernel_terrain).
KernelArrays = tuple[np.ndarray, ...]
#: Hex width and height of geomorphic boards; a map of other boards (half, Deluxe) adds its own
#: as a float64 [2] array after ``pix`` in its kernel arrays (``M[9:]``, beside the frames tuple).
GEOMORPHIC_HEX = (56.25, 64.5)


#: The kernel interface this module speaks (``HEXWX_KERNEL_ABI`` in ``hexwx/_loskernel.c``).
KERNEL_ABI = 5


def _check_interface(lib: ctypes.CDLL, path: str) -> None:
    """KernelNotBuiltError unless ``lib`` speaks :data:`KERNEL_ABI` (a library left from an
    older build would misread every struct this module passes)."""
    try:
        version = lib.hexwx_kernel_abi
    except AttributeError:
        found: int | None = None
    else:
        version.argtypes = []
        version.restype = _i64
        found = int(version())
    if found != KERNEL_ABI:
        raise KernelNotBuiltError(
            f"the compiled LOS kernel {path} is from another version of hexwx (interface "
            f"{found if found is not None else 'unknown'}, this hexwx needs {KERNEL_ABI}); rebuild "
            f"it with `pip install -e .` and remove any other hexwx/_loskernel*.so beside it")


def clib() -> ctypes.CDLL:
    """The compiled kernel library, loaded once (KernelNotBuiltError if it is not built)."""
    global _LIB, _TRACE
    if _LIB is None:
        try:
            from hexwx import _loskernel
            lib = ctypes.CDLL(_loskernel.__file__)
        except (ImportError, OSError) as exc:
            raise KernelNotBuiltError(
                f"the compiled LOS kernel hexwx._loskernel is not built or does not load ({exc}); "
                f"reinstall hexwx with `pip install -e .`") from None
        _check_interface(lib, _loskernel.__file__)
        # Every function is reentrant (no global state: callers pass their own scratch, see
        # Scratch) and is called through CDLL, which releases the GIL while it runs, so
        # batch blocks on several Python threads run in parallel.
        bp = ctypes.POINTER(_Buffers)
        lib.hexwx_trace_many.argtypes = [ctypes.POINTER(_TraceMany), bp, _i64, _i64]
        lib.hexwx_trace_many.restype = None
        lib.hexwx_all_pairs.argtypes = [ctypes.POINTER(_AllPairs), bp, _i64, _i64,
                                        ctypes.POINTER(_i64)]
        lib.hexwx_all_pairs.restype = None
        lib.hexwx_fog_straight.argtypes = [_ptr, _i64, _i64, _i64, _ptr]
        lib.hexwx_fog_straight.restype = None
        lib.hexwx_grid_lookup_all.argtypes = [_i64, _i64, _ptr, _ptr, _ptr, _i64, ctypes.c_double,
                                              ctypes.c_double, _ptr]
        lib.hexwx_grid_lookup_all.restype = None
        lib.hexwx_inherent_pass.argtypes = [_i64, _ptr, _ptr, _i64, _i64, _ptr, _ptr, _ptr, _ptr,
                                            _ptr, _ptr]
        lib.hexwx_inherent_pass.restype = None
        lib.hexwx_fill_rows.argtypes = [_ptr, _i64, _i64, _i64]
        lib.hexwx_fill_rows.restype = None
        _TRACE = _loskernel.trace
        _LIB = lib
    return _LIB


class _Prepared:
    """C-contiguous copies of one map's arrays (made once) and the struct pointing at them."""

    def __init__(self, M: KernelArrays, T: KernelArrays) -> None:
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
        frames = next((e for e in M[9:] if isinstance(e, tuple)), ())
        hex_w, hex_h = next((tuple(map(float, e)) for e in M[9:] if isinstance(e, np.ndarray)),
                            GEOMORPHIC_HEX)
        self.frame_arrays = [self._frame(f, n, shapes) for f in frames]
        self.frames = (_KMap * max(1, len(frames)))()
        for i, (origin, fa) in enumerate(self.frame_arrays):
            fh, fw = fa[-1].shape
            self.frames[i] = _KMap(n, fw, fh, None, *(a.ctypes.data for a in fa[:-1]),
                                   fa[-1].ctypes.data, *(a.ctypes.data for a in self.arrays[7:]),
                                   0, None, origin[0], origin[1], hex_w, hex_h)
        self.kmap = _KMap(n, width, height,
                          *(a.ctypes.data for a in self.arrays), len(frames),
                          ctypes.addressof(self.frames), 0, 0, hex_w, hex_h)
        self.pointer = ctypes.pointer(self.kmap)   # (a struct field takes a pointer object)
        #: the struct's address and the walk's pixel buffer length, as ``_loskernel.trace``
        #: takes them: a walk visits at most one pixel per step along both axes (the map's
        #: ``HexMap.thread_capacity``, with room to spare)
        self.address = ctypes.addressof(self.kmap)
        self.xy_len = 2 * (width + height) + 64
        # every value the kernel indexes with lies inside its array; the largest range on the
        # map bounds the hindrance keys a trace writes
        self.max_range = check_kernel_map(hx, h6, self.arrays[6], [fa for _, fa in self.frame_arrays],
                                          HX_COLUMNS, H6_COLUMNS)
        # the hexsides an end may be in bypass along: on the map, the point on the raster
        loc = self.arrays[4]
        self.bypass_ok = ((h6[:, :, H6_COLUMNS.index("side_on_map")] != 0) & (loc[..., 0] >= 0)
                          & (loc[..., 0] < width) & (loc[..., 1] >= 0) & (loc[..., 1] < height))


    @staticmethod
    def _frame(f: tuple[np.ndarray, ...], n: int,
               shapes: dict[str, tuple[tuple[int, ...], tuple[int, ...]]]
               ) -> tuple[tuple[int, int], tuple[np.ndarray, ...]]:
        """One frame's origin and C-contiguous arrays (HX, H6, ext, loc, bbox, pix)."""
        if len(f) != 7:
            raise ValueError(f"a kernel frame is (origin, HX, H6, ext, loc, bbox, pix), got {len(f)} arrays")
        names = ("HX", "H6", "ext", "loc", "bbox")
        arrays = []
        for name, a in zip(names, f[1:6]):
            if tuple(np.shape(a)) != shapes[name][1]:
                raise ValueError(f"kernel frame array {name} has shape {np.shape(a)}, "
                                 f"expected {shapes[name][1]}")
            arrays.append(_contiguous(a, np.int32, name, len(shapes[name][1])))
        arrays.append(_contiguous(f[6], np.int32, "frame pix", 2))
        ox, oy = (int(v) for v in np.asarray(f[0]).ravel()[:2])
        return (ox, oy), tuple(arrays)

    def nbytes(self) -> int:
        return nbytes_of(self.arrays) + sum(nbytes_of(fa) for _, fa in self.frame_arrays)


def _contiguous(a: np.ndarray, dtype: type, name: str, ndim: int) -> np.ndarray:
    a = np.asarray(a)
    if a.ndim != ndim:
        raise ValueError(f"kernel array {name} has {a.ndim} dimensions, expected {ndim}")
    return np.ascontiguousarray(a, dtype)


#: Prepared maps, bounded by the bytes of their arrays (hexwx._cache.ByteLRU): an entry keeps
#: its map's kernel arrays alive, so a count bound would let a long batch hold dozens of maps.
_PREPARED: ByteLRU[_Prepared] = ByteLRU(size=lambda p: p.nbytes())


def _prepared(M: KernelArrays, T: KernelArrays) -> _Prepared:
    """The prepared copy of one map (a bounded cache shared by all threads, under a lock).

    An entry holds ``(M, T)``, so the ids in its key stay those of the same objects while it
    lives; a caller keeps its own reference to the entry, so eviction by another thread
    never frees arrays a running trace reads.
    """
    key = (id(M), id(T))
    p = _PREPARED.get(key)
    if p is None:
        # outside the cache's lock: two threads may both build it, one copy is kept
        p = _PREPARED.put(key, _Prepared(M, T))
    return p


class Scratch:
    """One batch worker's scratch (struct Buffers, :attr:`buffers`): the walk's pixels
    (``xs``/``ys``, int32, ``maxlen``), and per range key the hindrance value and ``hex * 256
    + terrain code`` (``hv``/``hh``) and the lowest ground (``fl``) (int64, ``keys``).  Owned by
    one thread at a time (:func:`_scratch`): the kernel keeps no state of its own, so blocks
    with distinct scratch run concurrently."""

    __slots__ = ("maxlen", "keys", "xs", "ys", "hv", "hh", "fl", "buffers")

    def __init__(self, maxlen: int, keys: int = _HV_LEN) -> None:
        self.maxlen, self.keys = int(maxlen), int(keys)
        self.xs = np.zeros(self.maxlen, np.int32)
        self.ys = np.zeros(self.maxlen, np.int32)
        self.hv = np.zeros(self.keys, np.int64)
        self.hh = np.zeros(self.keys, np.int64)
        self.fl = np.zeros(self.keys, np.int64)
        self.buffers = _Buffers(*(a.ctypes.data for a in (self.xs, self.ys, self.hv, self.hh,
                                                          self.fl)), self.maxlen)


def _check_sides(p: _Prepared, src: np.ndarray, tgt: np.ndarray, s_side: np.ndarray | None,
                 t_side: np.ndarray | None) -> None:
    """ValueError unless every bypass hexside is -1 (none) or a hexside of its hex on the map
    whose location point lies on the raster (the kernel reads that point)."""
    ok = p.bypass_ok
    for h, side in ((src, s_side), (tgt, t_side)):
        if side is None:
            continue
        bad = (side < -1) | (side > 5)
        on = side >= 0
        if bad.any() or not ok[h[on], side[on]].all():
            raise ValueError("a bypass hexside must be -1 or a hexside 0-5 of its hex on the map")


def _hex_ids(p: _Prepared, *ids: np.ndarray) -> None:
    for a in ids:
        if a.size and (a.min() < 0 or a.max() >= p.n):
            raise ValueError(f"hex ids must lie in 0..{p.n - 1}")


#: A single trace gives the GIL up while it walks only when its ends' LOS points lie this many
#: pixels apart or more (``|dx| + |dy|``; about 10 us of walk if nothing blocks it): a thread
#: waiting for the GIL takes microseconds to wake, so for a shorter walk the hand-over costs two
#: threads more than it gains.  Measured on bd02 with a free core (docs/performance.md): clear
#: queries 1,000-1,249 px apart gain (1.29x two threads against one giving the GIL up, 0.99x
#: keeping it), but random queries -- most walks short or soon blocked -- lose with it given up
#: from 600 or 1,200 px on (0.66-0.92x; kept 0.95-1.01x, from 2,000 px 0.93-1.00x).  So a
#: walk within one board keeps the GIL, and a walk across boards gives it up.
GIL_FREE_PIXELS = 2000

#: The end flags of a single trace (``enum { END_ROOF, END_ENTRENCHED }`` in the kernel).
END_ROOF, END_ENTRENCHED = 1, 2

#: (M, T, prepared map) of the last single query: most queries in a row ask one map, and this
#: spares them the shared cache's lock.  Replaced whole, so threads read it without a lock;
#: it keeps that map's kernel arrays alive until a query on another map replaces it.
_LAST: tuple[Any, Any, Any] = (None, None, None)


def _single(M: KernelArrays, T: KernelArrays) -> _Prepared:
    """The prepared map for a single query (the kernel loaded), remembered as :data:`_LAST`."""
    global _LAST
    clib()
    p = _prepared(M, T)
    _LAST = (M, T, p)
    return p


def _single_args(M: KernelArrays, T: KernelArrays, src: int, tgt: int, s_side: int, t_side: int,
                 s_ent: int, t_ent: int) -> tuple[_Prepared, int, int]:
    """The prepared map of a single query and the ends' extra flags (END_ENTRENCHED); a bypass
    hexside that is not -1 or a hexside 0-5 of its hex on the map is a ValueError."""
    last = _LAST
    p = last[2] if last[0] is M and last[1] is T else _single(M, T)
    if s_side != -1 or t_side != -1:
        if not (0 <= src < p.n and 0 <= tgt < p.n):
            raise ValueError(f"hex ids must lie in 0..{p.n - 1}, got {src} and {tgt}")
        for h, side in ((src, s_side), (tgt, t_side)):
            if side != -1 and not (0 <= side <= 5 and p.bypass_ok[h, side]):
                raise ValueError("a bypass hexside must be -1 or a hexside 0-5 of its hex on "
                                 "the map")
    return p, END_ENTRENCHED if s_ent else 0, END_ENTRENCHED if t_ent else 0


def trace(M: KernelArrays, T: KernelArrays, src: int, tgt: int, sE: int, tE: int,
          s_roof: int = 0, t_roof: int = 0, fog: np.ndarray | None = None, *,
          s_side: int = -1, t_side: int = -1, s_ent: int = 0, t_ent: int = 0) -> Verdict:
    """Trace one LOS from hex ``src`` at elevation ``sE`` to ``tgt`` at ``tE`` (``s_roof`` /
    ``t_roof`` 1: that end is a rooftop, B23.8): the :data:`Verdict`, with the fog LV when
    ``fog`` (:func:`fog_spec`) is given.  ``s_side`` / ``t_side`` (0-5, -1 none): that end is
    in bypass along that hexside and traced from its location point (D2.3); ``s_ent`` /
    ``t_ent`` (0/1): that end is a unit in an entrenchment (B27.2).  ValueError for a hex id
    outside the map or a bypass hexside off it.  The GIL is released while the kernel walks a
    long thread (:data:`GIL_FREE_PIXELS`); the call allocates its own scratch, so concurrent
    and nested calls never share any."""
    if s_side == -1 and t_side == -1 and not s_ent and not t_ent:     # the common query
        last = _LAST
        p = last[2] if last[0] is M and last[1] is T else _single(M, T)
        s_flag = t_flag = 0
    else:
        p, s_flag, t_flag = _single_args(M, T, src, tgt, s_side, t_side, s_ent, t_ent)
    out: Verdict = _TRACE(p.address, p.xy_len, GIL_FREE_PIXELS, src, tgt, sE, tE,
                          s_roof | s_flag, t_roof | t_flag, s_side, t_side, 0,
                          None if fog is None else _fog_arg(fog))
    return out


def trace_record(M: KernelArrays, T: KernelArrays, src: int, tgt: int, sE: int, tE: int,
                 s_roof: int = 0, t_roof: int = 0, fog: np.ndarray | None = None, *,
                 s_side: int = -1, t_side: int = -1, s_ent: int = 0, t_ent: int = 0) -> Record:
    """:func:`trace` with its record (:data:`Record`): the hindrances by range key, the
    thread's hexes and (with ``fog``) each key's fog code, for the single query's explanation."""
    p, s_flag, t_flag = _single_args(M, T, src, tgt, s_side, t_side, s_ent, t_ent)
    out: Record = _TRACE(p.address, p.xy_len, GIL_FREE_PIXELS, src, tgt, sE, tE,
                         s_roof | s_flag, t_roof | t_flag, s_side, t_side, 1,
                         None if fog is None else _fog_arg(fog))
    return out


def trace_many(M: KernelArrays, T: KernelArrays, sources: np.ndarray, targets: np.ndarray, elev_s: np.ndarray,
               elev_t: np.ndarray, maxlen: int, roof_s: np.ndarray | None = None,
               roof_t: np.ndarray | None = None, where: bool = False,
               threads: int | None = None, fog: np.ndarray | None = None, *,
               ent_s: np.ndarray | None = None,
               ent_t: np.ndarray | None = None,
               side_s: np.ndarray | None = None,
               side_t: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Trace every (sources[i], targets[i]) pair; returns (reason int8, hindrance int16) arrays,
    with ``where`` a third, int32 [n, 3]: the blocking hex (-1 if clear) and pixel x, y, and
    with ``fog`` (:func:`fog_spec`) last the fog LV of each pair (int16).

    ``roof_s``/``roof_t`` (0/1 per pair, default none) mark rooftop ends (B23.8; LOS-SPEC 6.2),
    exactly the ``s_roof``/``t_roof`` of :func:`trace`, ``ent_s``/``ent_t`` entrenched ends
    (B27.2), its ``s_ent``/``t_ent``, and ``side_s``/``side_t`` (a hexside 0-5 or -1 per pair,
    default none) its ``s_side``/``t_side``.  The pairs are shared among ``threads``
    threads (default: the CPUs of this process's affinity, :func:`available_cpus`); each
    pair's answer is the single trace's.
    """
    p = _prepared(M, T)
    n = len(sources)
    cols = [np.ascontiguousarray(a, np.int64) for a in (sources, targets, elev_s, elev_t)]
    roofs = [np.zeros(n, np.int64) if r is None else np.ascontiguousarray(r, np.int64)
             for r in (roof_s, roof_t, ent_s, ent_t)]
    if any(len(a) != n for a in cols + roofs):
        raise ValueError("sources, targets, both elevations, rooftop and entrenchment flags "
                         "must have the same length")
    _hex_ids(p, cols[0], cols[1])
    _check_range(p)
    sides = [None if a is None else np.ascontiguousarray(a, np.int64) for a in (side_s, side_t)]
    if any(a is not None and len(a) != n for a in sides):
        raise ValueError("bypass hexsides must have one entry per pair")
    if any(a is not None for a in sides):
        _check_sides(p, cols[0], cols[1], *sides)
    reasons = np.zeros(n, np.int8)
    totals = np.zeros(n, np.int16)
    at = np.full((n, 3), -1, np.int32) if where else None
    lv = np.zeros(n, np.int16) if fog is not None else None
    job = _TraceMany(p.pointer, *(a.ctypes.data for a in cols + roofs), reasons.ctypes.data,
                     totals.ctypes.data, None if at is None else at.ctypes.data, _fog_arg(fog),
                     None if lv is None else lv.ctypes.data,
                     *(None if a is None else a.ctypes.data for a in sides))
    kernel = clib().hexwx_trace_many

    def run(scratch: Scratch, i0: int, i1: int) -> int:
        kernel(ctypes.byref(job), ctypes.byref(scratch.buffers), i0, i1)
        return 0

    blocks = [(i, min(i + _PAIR_BLOCK, n)) for i in range(0, n, _PAIR_BLOCK)]
    _share(run, iter(blocks), _threads(threads), maxlen)
    out: tuple[np.ndarray, ...] = (reasons, totals) if at is None else (reasons, totals, at)
    return out if lv is None else out + (lv,)


#: Pairs per block of :func:`trace_many` (a thread takes the next block when it is done).
_PAIR_BLOCK = 256
#: The least pairs per block of the all-pairs functions; blocks start larger (see _row_blocks).
_ROW_BLOCK_PAIRS = 512


def _share(run: Callable[[Scratch, int, int], int], blocks: Iterator[tuple[int, int]],
           threads: int, maxlen: int) -> int:
    """Run ``run(scratch, start, stop)`` over ``blocks`` on up to ``threads`` threads, this one
    included, each with its own :class:`Scratch`; returns the sum of what the calls return.

    Dynamic scheduling: each thread takes the next block when it has finished one, so threads
    slowed by other work on the machine take fewer.  The kernel starts no threads of its own
    (it is portable C99); it releases the GIL while a block runs (ctypes does), so the blocks
    run in parallel.  The helpers are the idle threads of a pool kept for the process (no
    thread start per call); one that has not begun when this thread runs out of blocks is
    called off.
    """
    lock = threading.Lock()
    total = [0]
    errors: list[BaseException] = []

    def work() -> None:
        scratch = _scratch(maxlen)
        done = 0
        try:
            while not errors:
                with lock:
                    block = next(blocks, None)
                if block is None:
                    break
                done += run(scratch, *block)
        except BaseException as exc:   # re-raised in the calling thread below
            errors.append(exc)
        with lock:
            total[0] += done

    helpers = [_Helpers.submit(work) for _ in range(_Helpers.ensure(threads - 1))]
    try:
        work()
    finally:
        _join(helpers, errors)
    if errors:
        raise errors[0]
    return total[0]


def _join(helpers: list[_Task], errors: list[BaseException]) -> None:
    """Wait until no helper runs a block any more: the kernel writes into the caller's arrays,
    which must outlive every block.  A signal arriving meanwhile (Ctrl-C) stops the helpers
    after their current block and is raised once they have."""
    interrupted: BaseException | None = None
    pending = list(helpers)
    while pending:
        try:
            pending[0].wait_or_call_off()
            pending.pop(0)
        except BaseException as exc:
            if interrupted is None:
                interrupted = exc
                errors.append(exc)      # helpers take no further block
    if interrupted is not None:
        raise interrupted


class _Task:
    """One helper's share of a :func:`_share` call: pending, running, done or called off."""

    __slots__ = ("fn", "state", "done")

    def __init__(self, fn: Callable[[], None]) -> None:
        self.fn, self.state, self.done = fn, "pending", threading.Event()

    def wait_or_call_off(self) -> None:
        """Call the task off if no helper has begun it, else wait until it ends."""
        with _Helpers.lock:
            if self.state == "pending":
                self.state = "called off"
                return
        self.done.wait()


class _Helpers:
    """The process's helper threads for :func:`_share`: daemon threads kept idle between calls,
    as many as the most any call has asked for (at most 255), so no call waits for a thread to
    start.  Concurrent calls queue their tasks; each caller works through its own blocks too,
    so none depends on a helper being free."""

    lock = threading.Lock()
    tasks: queue.SimpleQueue[_Task] = queue.SimpleQueue()
    started = 0

    @classmethod
    def ensure(cls, count: int) -> int:
        """Start helpers up to ``count`` in all; returns how many there are, at most ``count``."""
        with cls.lock:
            while cls.started < min(count, 255):
                try:
                    threading.Thread(target=cls._serve, name="hexwx-kernel", daemon=True).start()
                except RuntimeError:   # no more threads: the running ones take the blocks
                    break
                cls.started += 1
            return min(count, cls.started)

    @classmethod
    def submit(cls, fn: Callable[[], None]) -> _Task:
        task = _Task(fn)
        cls.tasks.put(task)
        return task

    @classmethod
    def _serve(cls) -> None:
        while True:
            task = cls.tasks.get()
            with cls.lock:
                if task.state != "pending":
                    continue
                task.state = "running"
            try:
                task.fn()
            finally:
                task.done.set()


_SCRATCH = threading.local()


def _scratch(maxlen: int) -> Scratch:
    """This thread's batch scratch, kept between calls (reallocated for a longer walk)."""
    s: Scratch | None = getattr(_SCRATCH, "batch", None)
    if s is None or s.maxlen < maxlen:
        s = _SCRATCH.batch = Scratch(maxlen)
    return s


def _row_blocks(n: int, a0: int, a1: int, threads: int) -> Iterator[tuple[int, int]]:
    """Blocks of rows [a0, a1) of the all-pairs functions (row a holds n - 1 - a pairs):
    guided scheduling -- each block about an eighth of the pairs left per thread, at least
    _ROW_BLOCK_PAIRS (or one row) -- so that few calls cross the boundary and the last blocks,
    short, even out the threads' ends."""
    a = a0
    while a < a1:
        want = max(_ROW_BLOCK_PAIRS, row_pairs(n, a, a1) // (8 * threads))
        b, got = a + 1, n - 1 - a
        while b < a1 and got < want:
            got += n - 1 - b
            b += 1
        yield a, b
        a = b


def _run_all_pairs(kernel: Any, job: _AllPairs, maxlen: int, a0: int, a1: int,
                   threads: int) -> int:
    """Rows [a0, a1) of ``job`` through ``kernel`` (hexwx_all_pairs of some build) on
    ``threads`` threads; returns the pixels read."""
    def run(scratch: Scratch, r0: int, r1: int) -> int:
        visited = _i64(0)
        kernel(ctypes.byref(job), ctypes.byref(scratch.buffers), r0, r1, ctypes.byref(visited))
        return int(visited.value)

    return _share(run, _row_blocks(int(job.n), a0, a1, threads), threads, maxlen)


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


def _all_pairs_args(M: KernelArrays, T: KernelArrays, elev: np.ndarray, a0: int,
                    a1: int) -> tuple[_Prepared, np.ndarray, int]:
    """The checks of the all-pairs functions: the prepared map, the elevations (one per hex,
    int64) and the hex count; ValueError for rows outside 0..n."""
    p = _prepared(M, T)
    elev = np.ascontiguousarray(elev, np.int64)
    n = len(elev)
    if n != p.n:
        raise ValueError(f"elev has {n} entries, expected one per hex ({p.n})")
    if not 0 <= a0 <= a1 <= n:
        raise ValueError(f"rows {a0}..{a1} outside 0..{n}")
    _check_range(p)
    return p, elev, n


def all_pairs_rows(M: KernelArrays, T: KernelArrays, elev: np.ndarray, maxlen: int, a0: int, a1: int,
                   threads: int | None = None, fog: np.ndarray | None = None) -> tuple[Any, ...]:
    """LOS of the pairs (a, b) and (b, a) for every a in [a0, a1) and b > a (hex i at elev[i]).

    Returns (forward reason int8, forward hindrance int16, reverse reason, reverse hindrance,
    pixels read), and with ``fog`` (:func:`fog_spec`) also (forward fog LV, reverse fog LV)
    (int16), the pairs in order of a then b: the all-pairs matrix one block of rows at a
    time, so a caller can stream it in bounded memory.  Runs on ``threads`` threads (default:
    the CPUs of this process's affinity) with the GIL released.
    """
    p, elev, n = _all_pairs_args(M, T, elev, a0, a1)
    count = row_pairs(n, a0, a1)
    fr, rr = np.zeros(count, np.int8), np.zeros(count, np.int8)
    ft, rt = np.zeros(count, np.int16), np.zeros(count, np.int16)
    fl = rl = None
    if fog is not None:
        fl, rl = np.zeros(count, np.int16), np.zeros(count, np.int16)
    job = _AllPairs(p.pointer, n, a0, 0, elev.ctypes.data, fr.ctypes.data, rr.ctypes.data,
                    ft.ctypes.data, rt.ctypes.data, _fog_arg(fog),
                    None if fl is None else fl.ctypes.data, None if rl is None else rl.ctypes.data,
                    0, None, None)
    visited = _run_all_pairs(clib().hexwx_all_pairs, job, maxlen, a0, a1, _threads(threads))
    if fl is None:
        return fr, ft, rr, rt, visited
    return fr, ft, rr, rt, visited, fl, rl


def all_pairs_matrix(M: KernelArrays, T: KernelArrays, elev: np.ndarray, maxlen: int,
                     threads: int | None = None, fog: np.ndarray | None = None,
                     fog_tops: tuple[int, ...] = (), rows: tuple[int, int] | None = None,
                     out: tuple[np.ndarray, ...] | None = None) -> tuple[np.ndarray, ...]:
    """LOS between every ordered pair of hexes (hex i at elevation elev[i]).

    Returns (reason int8 [n, n], hindrance int16 [n, n]), then with ``fog``
    (:func:`fog_spec`) the fog LV int16 [n, n], then with ``fog_tops`` (whole fog tops) the fog
    deficit uint8 [len(fog_tops), n, n]: per pair and fog top, how many hexes the fog LV of a
    thread of one hex per range step (fog in every hex, ``lv.lv_total_straight``) counts that
    this thread does not (a hex above the fog, 3.311), at most 255 -- so that the LV of any fog
    density at these tops follows without a new trace.  Each unordered pair is traced once
    from its lower id and mirrored (the kernel is reciprocal), except pairs with a depression
    end, whose ground-ignore update (R1b) depends on direction: those are traced both ways.
    The pairs are shared among ``threads`` threads (default: the CPUs of this process's
    affinity, :func:`available_cpus`).

    ``rows`` (a0, a1): only the pairs (a, b) and (b, a) with a0 <= a < a1 and b > a, written
    into ``out`` (arrays as this function returns them, from an earlier call) or into new
    zeroed arrays: a caller may fill the matrices a block of rows at a time.
    """
    a0, a1 = (0, len(elev)) if rows is None else (int(rows[0]), int(rows[1]))
    p, elev, n = _all_pairs_args(M, T, elev, a0, a1)
    tops = np.ascontiguousarray(fog_tops, np.int64)
    shapes: list[tuple[tuple[int, ...], type[np.generic]]] = [((n, n), np.int8), ((n, n), np.int16)]
    shapes += [((n, n), np.int16)] if fog is not None else []
    shapes += [((len(tops), n, n), np.uint8)] if len(tops) else []
    if out is None:
        out = tuple(np.zeros(shape, dtype) for shape, dtype in shapes)
    elif len(out) != len(shapes) or any(
            a.shape != shape or a.dtype != dtype or not a.flags.c_contiguous or not a.flags.writeable
            for a, (shape, dtype) in zip(out, shapes)):
        raise ValueError("out: expected the arrays all_pairs_matrix returns for this map and options")
    reasons, totals = out[0], out[1]
    lv = out[2] if fog is not None else None
    deficit = out[-1] if len(tops) else None
    job = matrix_job(p, elev, reasons, totals, fog, lv, tops, deficit)
    _run_all_pairs(clib().hexwx_all_pairs, job, maxlen, a0, a1, _threads(threads))
    return out


def matrix_job(p: _Prepared, elev: np.ndarray, reasons: np.ndarray, totals: np.ndarray,
               fog: np.ndarray | None = None, lv: np.ndarray | None = None,
               tops: np.ndarray | None = None, deficit: np.ndarray | None = None) -> _AllPairs:
    """The all-pairs job writing [n, n] matrices (checked by the caller); the arrays must
    outlive every call with it."""
    ntops = 0 if tops is None else len(tops)
    return _AllPairs(p.pointer, len(elev), 0, 1, elev.ctypes.data, reasons.ctypes.data, None,
                     totals.ctypes.data, None, _fog_arg(fog), None if lv is None else lv.ctypes.data,
                     None, ntops, tops.ctypes.data if ntops and tops is not None else None,
                     None if deficit is None else deficit.ctypes.data)


def fog_straight(fog: np.ndarray, lo: int, levels: int, ranges: int) -> np.ndarray:
    """Fog LV (:func:`fog_spec`) of a thread of one hex per range step with fog in every hex
    (``lv.lv_total_straight``): int32 [levels, levels, ranges], the source at elevation
    ``lo + a``, the target at ``lo + b``, range ``r``.  The all-pairs fog deficits count what
    each real thread loses against it."""
    if levels < 0 or ranges < 0:
        raise ValueError(f"bad extent: {levels} levels, {ranges} ranges")
    out = np.zeros((levels, levels, ranges), np.int32)
    clib().hexwx_fog_straight(_fog_arg(fog), int(lo), int(levels), int(ranges), out.ctypes.data)
    return out


def grid_lookup_all(W: int, H: int, border: np.ndarray, first: np.ndarray,
                     nrows: np.ndarray, hex_w: float = 56.25, hex_h: float = 64.5) -> np.ndarray:
    """The hex of every pixel, int32 [W, H] (-1 = none), by the grid lookup of LOS-SPEC 1.6,
    for hexes ``hex_w`` apart column to column and ``hex_h`` high (geomorphic by default)."""
    border = np.ascontiguousarray(border, np.int32)
    first = np.ascontiguousarray(first, np.int32)
    nrows = np.ascontiguousarray(nrows, np.int32)
    if border.ndim != 3 or border.shape[1:] != (6, 2) or first.shape != nrows.shape:
        raise ValueError("grid lookup needs border [n, 6, 2] and first/nrows per column")
    out = np.empty((W, H), np.int32)
    clib().hexwx_grid_lookup_all(W, H, border.ctypes.data, first.ctypes.data, nrows.ctypes.data,
                                 len(first), float(hex_w), float(hex_h), out.ctypes.data)
    return out


def fill_rows(values: np.ndarray, none: int) -> np.ndarray:
    """A copy of int16 ``values`` [height, width] with each pixel equal to ``none`` given the
    value of the nearest pixel to its left on its row that has one, else the nearest to its
    right (``none`` where its row has none): the levels of overlay art drawn without one
    (:func:`hexwx.io.overlays.overlay_terrain`)."""
    if values.ndim != 2:
        raise ValueError(f"fill_rows needs a 2-d array, not shape {values.shape}")
    out = np.array(values, np.int16, order="C")
    clib().hexwx_fill_rows(out.ctypes.data, out.shape[0], out.shape[1], int(none))
    return out


def inherent_pass(centre: np.ndarray, border: np.ndarray, W: int, H: int, terrain: np.ndarray,
                   inherent: np.ndarray, lx: np.ndarray, ly: np.ndarray, loc: np.ndarray,
                   on: np.ndarray) -> None:
    """Replace ``centre[h]`` (int32, in place) by inherent terrain filling hex h: the first
    inherent pixel, column by column inside the border's bounding box, whose nearest location
    is the centre (LOS-SPEC 2.2 step 6).  (:mod:`hexwx.hexmap.derive`)"""
    if centre.dtype != np.int32 or not centre.flags.c_contiguous:
        raise ValueError("centre must be a C-contiguous int32 array")
    n = len(centre)
    terrain = np.ascontiguousarray(terrain, np.uint8)
    if terrain.shape != (W, H):
        raise ValueError(f"terrain raster has shape {terrain.shape}, expected {(W, H)}")
    inherent = np.ascontiguousarray(inherent, np.int8)
    if inherent.shape != (256,):
        raise ValueError("inherent needs one entry per terrain code (256)")
    args = [np.ascontiguousarray(a, np.int32) for a in (border, lx, ly, loc, on)]
    if args[0].shape != (n, 6, 2) or args[3].shape != (n, 6, 2) or args[4].shape != (n, 6):
        raise ValueError("inherent pass needs border and loc [n, 6, 2] and on [n, 6]")
    border, lx, ly, loc, on = args
    clib().hexwx_inherent_pass(n, centre.ctypes.data, border.ctypes.data, W, H, terrain.ctypes.data,
                               inherent.ctypes.data, lx.ctypes.data, ly.ctypes.data,
                               loc.ctypes.data, on.ctypes.data)


def _check_range(p: _Prepared) -> None:
    if p.max_range + 1 > _HV_LEN:
        raise ValueError(f"the map is too large for the batch kernel: ranges up to {p.max_range}, "
                         f"at most {_HV_LEN - 1} supported")
