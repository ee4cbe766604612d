"""Weather for LOS queries of many pairs at once (batch, tables, viewsheds, exposure).

:func:`weathered` is the map as the weather leaves it; :func:`fog_spec` the kernel's fog
argument; :func:`apply_lv` adds the LV DRM of every pair -- the array form of
:func:`hexwx.lineofsight.lv.lv_hindrances`, giving the single query's numbers.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from hexwx import _native as K
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.transform import transformed
from hexwx.lineofsight.lv import fog_params, lv_hindrances, mist_lv
from hexwx.lineofsight.results import ThreadHex
from hexwx.validate import check_type
from hexwx.weather.asl.state import AslWeather
from hexwx.weather.asl.terrain_changes import weather_changes


def check_query(m: object, weather: object) -> None:
    """UsageError naming the parameter unless ``m`` is a HexMap and ``weather`` an AslWeather
    or None (a string or a dict of fields is refused, not read)."""
    check_type(m, HexMap, "m", "a HexMap (hexwx.load_map)")
    if weather is not None:
        check_type(weather, AslWeather, "weather", "an AslWeather or None")


def weathered(m: HexMap, weather: AslWeather | None) -> HexMap:
    """The map as the weather leaves it for LOS: snow turns brush (deep snow, E3 3.73) and marsh
    / mudflats (E3 3.722) into Open Ground; drift hexsides act as hedges (E3 3.752)."""
    m = transformed(m, weather_changes(weather))
    drifts = weather.drifts if weather is not None else ()
    if not drifts:
        return m
    sides = [(m.grid.inner_hexside(d.hex, d.hexside, "drift"), d.hexside) for d in drifts]
    return m.with_hexside_terrain(tuple(sides), "Hedge")


@lru_cache(maxsize=64)
def fog_spec(weather: AslWeather | None) -> np.ndarray | None:
    """The kernel's fog argument for ``weather`` (None without fog), made once per weather."""
    if weather is None:
        return None
    p = fog_params(weather)
    if p is None:
        return None
    top, d, drm = p
    spec = K.fog_spec(top, drm=drm, scale=d)
    spec.setflags(write=False)
    return spec


@lru_cache(maxsize=64)
def _mist_table(weather: AslWeather, ranges: int) -> np.ndarray:
    """Mist / rain / falling snow LV by range 0..ranges-1 (:func:`lv.mist_lv`), read-only."""
    t = np.array([sum(h.drm for h in mist_lv(weather, r)) for r in range(ranges)], np.int64)
    t.setflags(write=False)
    return t


def _mist_totals(weather: AslWeather, rng: np.ndarray) -> np.ndarray:
    """The LV DRM by range (mist, rain, falling snow; 3.32, 3.51, 3.52, 3.71, 3.711) of each
    pair: a new int64 array of the shape of ``rng``."""
    if not weather.mist or rng.size == 0:
        return np.zeros(rng.shape, np.int64)
    out: np.ndarray = _mist_table(weather, int(rng.max()) + 1)[rng]
    return out.astype(np.int64, copy=False)


def fog_straight(fog: np.ndarray, s_elev: np.ndarray, t_elev: np.ndarray,
                  rng: np.ndarray) -> np.ndarray:
    """Fog LV (``fog``: :func:`fog_spec`) of many pairs on a thread of one hex per range step
    with fog in every hex between the ends (``lv.lv_total_straight``), looked up in the
    kernel's small cube by (source elevation, target elevation, range), made once per fog and
    extent.  A real thread may cross hexes above the fog (3.311):
    :mod:`hexwx.lineofsight.exposure` subtracts the kernel's fog deficit of each pair."""
    lo = int(min(s_elev.min(), t_elev.min()))
    levels = int(max(s_elev.max(), t_elev.max())) - lo + 1
    cube = _fog_cube(tuple(fog.tolist()), lo, levels, int(rng.max()) + 1)
    out: np.ndarray = cube[s_elev - lo, t_elev - lo, rng]
    return out


@lru_cache(maxsize=64)
def _fog_cube(fog: tuple[int, int, int], lo: int, levels: int, ranges: int) -> np.ndarray:
    """The straight-thread fog LV cube [source elevation - lo, target elevation - lo, range]
    (:func:`hexwx._native.fog_straight`); read-only."""
    cube = K.fog_straight(K.fog_spec(fog[0], drm=fog[2], scale=fog[1]), lo, levels, ranges)
    cube.setflags(write=False)
    return cube


def apply_lv(m: HexMap, weather: AslWeather, src: np.ndarray, tgt: np.ndarray,
              s_level: int | np.ndarray, blocked: np.ndarray, hindrance: np.ndarray,
              rng: np.ndarray, t_level: int | np.ndarray = 0,
              fog: np.ndarray | None = None) -> np.ndarray:
    """Add weather LV to batch results in place (blocked) and return the LV DRM per pair.

    The pairs are (``src``, ``tgt``) broadcast together to the shape of ``rng``, ``blocked``
    and ``hindrance``: one list of pairs, or observers ``[k, 1]`` against targets ``[1, n]``.
    ``fog``: the kernel's fog LV of each pair (traced with :func:`fog_spec`; required when
    the weather has fog).  ``s_level``/``t_level``: each end's level in its hex (a number or
    one per pair).  As :func:`lv.lv_hindrances` has it: fire within one building gets no LV
    (E3 3.8), fire within one location halved fog (3.311).
    """
    if weather.fog:
        if fog is None:
            raise ValueError("fog LV of the pairs is missing: trace them with the fog spec")
        lv = np.broadcast_to(fog, rng.shape).astype(np.int64)
        if weather.mist:
            lv += _mist_totals(weather, rng)
    else:
        lv = _mist_totals(weather, rng)
    bid = m.building_ids
    b_src = bid[src]
    lv[(b_src >= 0) & (b_src == bid[tgt])] = 0
    one = src == tgt                                                      # one location
    if not isinstance(s_level, int) or not isinstance(t_level, int) or s_level != t_level:
        one = one & (np.asarray(s_level) == np.asarray(t_level))
    if one.any():
        if one.shape != lv.shape:
            one = np.broadcast_to(one, lv.shape)
        height = np.broadcast_to(m.hexes.base[src] + np.asarray(s_level, np.int64), lv.shape)[one]
        lv[one] = [_same_location_lv(weather, e) for e in height.tolist()]   # (cached by height)
    over = ~blocked & (lv > 0) & (hindrance + lv >= 6)
    blocked |= over
    out: np.ndarray = lv.astype(np.int32)
    return out


@lru_cache(maxsize=256)
def _same_location_lv(weather: AslWeather, elevation: int) -> int:
    """LV DRM of fire within one location at ``elevation`` (fog halved, 3.311; mist by range
    0), by :func:`lv.lv_hindrances` itself."""
    here = [ThreadHex("here", 0, 0, elevation, 0, elevation)]
    return sum(h.drm for h in lv_hindrances(weather, thread=here, source_elevation=elevation,
                                            target_elevation=elevation, range=0,
                                            same_location=True))
