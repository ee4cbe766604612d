"""A map made ready for LOS under one game state: the weather and the counters on it.

:func:`los_state` prepares, once per (map, weather, counters) and cached like the counters
themselves, what every query under that state needs (DESIGN principle 5): the map as the
weather leaves it (:func:`~hexwx.lineofsight.pair_lv.weathered`: snow, mud, drifts), with
rubble drawn (:func:`~hexwx.lineofsight.counter_los.with_counters`), the prepared counters and
the kernel's fog argument.  The batch forms (``los_pairs``, ``los_table`` and its chunks,
``viewshed``, ``exposure``) trace on :attr:`LosState.map` with :attr:`LosState.fog` (lists of
pairs through :meth:`LosState.trace_many`, the tables through the all-pairs kernel) and add
the counters' and the weather's DRMs with :meth:`LosState.add_counters` and
:meth:`LosState.add_lv`, so each answer is the single query's.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from hexwx import _native as K
from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.counter_los import PreparedCounters, apply as apply_counters, with_counters
from hexwx.lineofsight.counters import Counters
from hexwx.lineofsight.pair_lv import apply_lv, fog_spec, weathered
from hexwx.weather.asl.state import AslWeather


@dataclass(frozen=True, eq=False)
class LosState:
    """One (map, weather, counters) made ready for LOS (:func:`los_state`).

    ``shown``: the map as given (what results name and draw); ``map``: the map LOS is traced
    on (weather changes and rubble applied); ``counters``: the prepared counters (None: none);
    ``fog``: the kernel's fog argument (None: no fog).
    """

    shown: HexMap
    map: HexMap
    weather: AslWeather | None
    counters: PreparedCounters | None
    fog: np.ndarray | None

    def trace_many(self, src: np.ndarray, tgt: np.ndarray, s_elev: np.ndarray, t_elev: np.ndarray,
                   *, roof_s: np.ndarray | None = None, roof_t: np.ndarray | None = None,
                   where: bool = False, threads: int | None = None,
                   side_s: np.ndarray | None = None,
                   side_t: np.ndarray | None = None, ent_s: np.ndarray | None = None,
                   ent_t: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """:func:`hexwx._native.trace_many` of these pairs on :attr:`map` with this fog;
        ``side_s`` / ``side_t``: the hexside each end is in bypass along (-1 none, D2.3);
        ``ent_s`` / ``ent_t``: 1 where that end is in an entrenchment (B27.2)."""
        m = self.map
        return K.trace_many(m.kernel_map, m.kernel_terrain, src, tgt, s_elev, t_elev,
                            m.thread_capacity, roof_s, roof_t, where, threads, self.fog,
                            side_s=side_s, side_t=side_t, ent_s=ent_s, ent_t=ent_t)

    def add_counters(self, src: np.ndarray, tgt: np.ndarray, s_elev: np.ndarray,
                     t_elev: np.ndarray, blocked: np.ndarray, hindrance: np.ndarray,
                     points: tuple[np.ndarray, ...] | None = None) -> None:
        """Add the counters' DRM to the clear pairs in place (a total of six blocks, B.10);
        nothing without counters.  ``points``: each end's LOS point (x0, y0 of ``src``, x1, y1
        of ``tgt``, per pair) where an end is in bypass (:func:`end_points`)."""
        if self.counters is not None and blocked.size:
            apply_counters(self.counters, src, tgt, s_elev, t_elev, blocked, hindrance, points)

    def add_lv(self, src: np.ndarray, tgt: np.ndarray, s_level: int | np.ndarray,
               blocked: np.ndarray, hindrance: np.ndarray, rng: np.ndarray,
               t_level: int | np.ndarray = 0, fog: np.ndarray | None = None) -> np.ndarray | None:
        """The weather's LV DRM per pair, terrain + LV of 6 or more blocking in place (E3.1;
        :func:`~hexwx.lineofsight.pair_lv.apply_lv`); None without weather."""
        if self.weather is None or not blocked.size:
            return None
        return apply_lv(self.map, self.weather, src, tgt, s_level, blocked, hindrance, rng,
                        t_level, fog=fog)

    def end_points(self, src: np.ndarray, tgt: np.ndarray, side_s: np.ndarray | None,
                   side_t: np.ndarray | None) -> tuple[np.ndarray, ...] | None:
        """Each pair's ends' LOS points (x0, y0, x1, y1; float arrays): an end in bypass at
        its hexside's location point (D2.3), else its hex centre; None when no end is."""
        if side_s is None and side_t is None:
            return None
        g, loc = self.map.grid, self.map.kernel_map[6]
        out: list[np.ndarray] = []
        for h, side in ((src, side_s), (tgt, side_t)):
            x = np.asarray(g.centre_x, np.float64)[h]
            y = np.asarray(g.centre_y, np.float64)[h]
            if side is not None:
                on = side >= 0
                x, y = x.copy(), y.copy()
                x[on] = loc[h[on], side[on], 0]
                y[on] = loc[h[on], side[on], 1]
            out += [x, y]
        return tuple(out)


def los_state(m: HexMap, weather: AslWeather | None = None, counters: Any = None) -> LosState:
    """``m`` made ready for LOS under ``weather`` and ``counters`` (a
    :class:`~hexwx.lineofsight.counters.Counters`, None, or a list of counters and
    ``"NAME@HEX[:LEVEL]"``), made once per (map, weather, counters) and kept.  A counter off
    the map or at a level its hex lacks is a UsageError naming ``counters``."""
    if counters is not None and not isinstance(counters, Counters):
        counters = Counters.of(counters)     # (UsageError naming counters)
    return _los_state(m, weather, counters or None)


@lru_cache(maxsize=32)
def _los_state(m: HexMap, weather: AslWeather | None, counters: Counters | None) -> LosState:
    mm, prep = with_counters(weathered(m, weather), counters, weather)
    return LosState(m, mm, weather, prep, fog_spec(weather))
