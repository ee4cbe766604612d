"""Low Visibility (LV) hindrance DRMs of ASL E3 weather, as pure functions.

The LOS engine calls :func:`lv_hindrances` (or the parts) with the weather state and the hexes
the LOS thread passes through; every DRM comes back as an :class:`LvHindrance` naming its hex
(or None for a range-based DRM), its kind and its rule (DESIGN principle 3).

Fog is the one LV that depends on the thread: :func:`fog_lv` is the readable reference of its
rule, and the compiled LOS kernel (``hexwx/_loskernel.c``: ``fog_rule``, ``fog_total``)
applies the same rule in the same walk that traces the terrain, for single and batch queries
alike (the engine passes its answer in as ``fog=``); the tests hold the two equal.

A thread is a sequence of :class:`ThreadHex`: ``name`` (hex name), ``rs`` (range from the source
hex), ``rt`` (range to the target hex), ``ground`` (ground level), ``key`` (hexes with equal
key, e.g. the two hexes along a hexspine, count once) and ``low`` (the lowest ground drawn in
the hex, or None when not known; fog exists in a hex only below its top, 3.311), listed in order
from the source, including the source (``rs == 0``) and the target (``rt == 0``).
"""
from __future__ import annotations

import builtins
import math
from typing import TYPE_CHECKING, Sequence

from hexwx.errors import UsageError
from hexwx.validate import is_whole
from hexwx.weather.asl import charts as C
from hexwx.lineofsight.results import Hindrance, ThreadHex
from hexwx.weather.asl.state import AslWeather


LvHindrance = Hindrance  # the name the weather code uses for its own hindrances

if TYPE_CHECKING:  # fractions (and decimal) are imported only when fog needs them
    from fractions import Fraction

    #: A height in levels: whole or half levels, exact as a Fraction where the ends are fractional.
    Height = int | float | Fraction


def total(hindrances: Sequence[LvHindrance]) -> int:
    """The summed LV DRM."""
    return sum(h.drm for h in hindrances)


# -------------------------------------------------------------------------------------------
# mist, rain, falling snow (3.32, 3.51, 3.52, 3.71, 3.711)
# -------------------------------------------------------------------------------------------


def mist_band_drm(range_: int) -> int:
    """3.32: 0 up to 6 hexes, then +1 per started band of 6 hexes beyond 6 (7-12 +1, 13-18 +2)."""
    _check_range(range_)
    if range_ <= C.MIST_FREE_RANGE:
        return 0
    return math.ceil((range_ - C.MIST_FREE_RANGE) / C.MIST_BAND)


def mist_drm(range_: int, *, heavy: bool = False) -> int:
    """Mist LV DRM at ``range_``; intensified precipitation adds +1 at every range (3.51/3.71)."""
    return mist_band_drm(range_) + (1 if heavy else 0)


def mist_lv(state: AslWeather, range_: int) -> list[LvHindrance]:
    """The mist LV hindrances at ``range_``: the band DRM (kind = its cause) and intensification.

    Rain (3.52) and falling snow (3.711) cause mist; intensified precipitation is +1 at <= 6
    hexes and +1 more at every longer range, never further (3.51, 3.71).
    """
    if not state.mist:
        return []
    if state.rain:
        kind, rule, heavy_rule = "rain", "E3.52, E3.32", "E3.51"
    elif state.falling_snow:
        kind, rule, heavy_rule = "falling snow", "E3.711, E3.32", "E3.71"
    else:
        kind, rule, heavy_rule = "mist", "E3.32", ""
    out = []
    band = mist_band_drm(range_)
    if band:
        out.append(LvHindrance(None, band, kind, rule, mist_band_note(range_)))
    if state.heavy:
        out.append(LvHindrance(None, 1, f"{kind} (intensified)", heavy_rule,
                               "heavy: +1 at every range"))
    return out


def mist_band_note(range_: int) -> str:
    """The mist band of ``range_`` in words: ``"range 17: 13-18 hexes"`` (E3.32)."""
    band = mist_band_drm(range_)
    if band == 0:
        return f"range {range_}: up to {C.MIST_FREE_RANGE} hexes"
    lo = C.MIST_FREE_RANGE + (band - 1) * C.MIST_BAND + 1
    return f"range {range_}: {lo}-{lo + C.MIST_BAND - 1} hexes"


# -------------------------------------------------------------------------------------------
# winter camouflage (3.712)
# -------------------------------------------------------------------------------------------


def winter_camouflage_lv(state: AslWeather, range_: int, *, target_is_infantry: bool = True,
                         target_winter_camouflage: bool = False,
                         target_positive_tem: bool = False) -> list[LvHindrance]:
    """3.712: +1 vs a winter-camouflaged target in any snow, beyond 8 hexes (infantry) or 16
    (others), unless it already has a positive TEM other than SMOKE."""
    _check_range(range_)
    if not (state.any_snow and target_winter_camouflage) or target_positive_tem:
        return []
    beyond = C.WINTER_CAMOUFLAGE_BEYOND["infantry" if target_is_infantry else "other"]
    if range_ > beyond:
        who = "infantry" if target_is_infantry else "a vehicle"
        return [LvHindrance(None, 1, "winter camouflage", "E3.712",
                            f"range {range_}, beyond {beyond} hexes for {who}")]
    return []


def winter_camouflage_note(state: AslWeather, range_: int, *, target_is_infantry: bool = True,
                           target_winter_camouflage: bool = False,
                           target_tem: tuple[int, str | None] = (0, None),
                           tem_terrain: str = "") -> str | None:
    """Why a winter-camouflaged target did or did not get its +1 (E3.712), in words; None when
    the target has no winter camouflage.  ``target_tem``: (TEM, rule) of its Location, and
    ``tem_terrain`` the terrain giving it."""
    if not target_winter_camouflage:
        return None
    beyond = C.WINTER_CAMOUFLAGE_BEYOND["infantry" if target_is_infantry else "other"]
    who = "infantry" if target_is_infantry else "a vehicle"
    if not state.any_snow:
        return "winter camouflage: no +1, there is no snow (E3.712)"
    tem, rule = target_tem
    if tem > 0:
        what = f"{tem_terrain}, " if tem_terrain else ""
        cite = f", {rule}" if rule else ""
        return (f"winter camouflage: no +1, the target already has a positive TEM "
                f"(+{tem} {what.rstrip(', ')}{cite}) (E3.712)")
    if range_ <= beyond:
        return (f"winter camouflage: no +1 at range {range_}, it counts only beyond {beyond} "
                f"hexes for {who} (E3.712)")
    return (f"winter camouflage: +1 at range {range_}, beyond {beyond} hexes for {who}, and "
            f"the target has no positive TEM (E3.712)")


# -------------------------------------------------------------------------------------------
# fog (3.31, 3.311) by level
# -------------------------------------------------------------------------------------------


def fog_top(state: AslWeather) -> int | None:
    """The height where fog ends: level L+1 for fog at level L and lower (3.311), or None."""
    return None if state.fog_level is None else state.fog_level + 1


#: Why the fog of a hex counts, by the kernel's code (its FOG_* enum): 0 it does not, 1
#: the thread is in the fog (or an end hex is), 2 the fog top is level with the higher end
#: (A6.2), 3 the lower end lies in the fog top's blind zone (A6.4).  :func:`_fog_hex_rule_scaled`
#: gives the same citations.
FOG_RULES: tuple[str, ...] = ("", "E3.311", "E3.311, A6.2", "E3.311, A6.4")
#: The citations of a hex in fog, level with the fog top, in the fog top's blind zone.
FOG_IN_RULE, FOG_LEVEL_RULE, FOG_BLIND_RULE = FOG_RULES[1:]


#: Every fog top the weather can give: level L + 1 for each fog level L of the 3.31 chart.
FOG_TOPS: tuple[int, ...] = tuple(sorted({level + 1 for level in C.FOG_LEVEL_CHART.values()}))


def fog_params(state: AslWeather) -> tuple[int, int, int] | None:
    """(fog top, scale d, density DRM) for the kernel, the top scaled by d as :func:`_scaled`
    does (the kernel scales elevations and ground by d); None without fog."""
    top = fog_top(state)
    if top is None:
        return None
    (top_d,), d = _scaled(top)
    return top_d, d, int(state.fog_drm or 1)


def fog_blind_zone(top: Height, hi: Height, lo: Height, r_hi: int) -> Height:
    """How many hexes behind a fog hex are hidden from the higher end (A6.41, A6.42).

    One per level the fog top is above the lower end, +1 per full 5 hexes from the higher end
    to the fog hex (A6.41), −1 per level the higher end stands above the fog top beyond the
    first (A6.42); at least 1.
    """
    zone = top - lo - (hi - top) + 1 + r_hi // 5   # exact: levels are whole or half numbers
    return max(zone, 1)


def fog_lv(state: AslWeather, *, thread: Sequence[ThreadHex], source_elevation: float,
           target_elevation: float, same_location: bool = False) -> list[LvHindrance]:
    """Fog LV hindrances along ``thread`` (3.31, 3.311, A6, A24.8).

    Reading (RULES-NOTES "fog geometry"): fog at level L and lower is Smoke of the density DRM
    filling every hex up to the start of level L+1 (the *fog top*), in hill hexes too (E3
    example: G4).  Each hex (or hexspine pair, by ``key``) counts once:

    * an end hex counts when that end is in fog (elevation < L+1): the target hex, and the
      firer's own hex (E3 example 2B5→2I4);
    * fog exists only where a hex has ground below the fog top (its ``low``, when given):
      an intermediate hex whose every pixel is at or above the fog top holds no fog (E3 example:
      G4 is a level-1 hex with fog "in the level 0 portion"; a hex all of level 2 under fog at
      level 1 has none);
    * an intermediate hex with fog counts when the fog top is higher than both ends (the thread is in
      fog), or level with the higher end and above the lower (no height advantage, A6.2); when
      the fog top lies strictly between the ends it counts only if the lower end is inside its
      blind-hex zone (:func:`fog_blind_zone`, A6.41/A6.42), measured from the higher end;
    * firing out of fog adds +1 (A24.8);
    * fire within one fog location: the DRM halved, fractions rounded up (3.311).

    These height rules are the ASL obstacle rules with the fog top as obstacle height.  A thread
    height interpolated linearly between the ends is *not* used to decide "through fog": it would
    put 2E5 in 2I4→2B5 (6/7 of a level up) and 2D5 in 2J4→2B5 in fog, contradicting the E3
    example's +3 and +2.  ``ground`` is therefore not needed for fog.  The result is the same in
    both directions except the firing-out +1.
    """
    top = fog_top(state)
    if top is None:
        return []
    drm = int(state.fog_drm or 1)
    # exact integer arithmetic: heights scaled by d (1 for whole levels, 2 with a rooftop's half)
    (top_d, se_d, te_d), d = _scaled(top, source_elevation, target_elevation)
    thread = list(thread)
    if not thread:
        raise UsageError("empty LOS thread; expected the hexes from source to target")
    src, tgt = thread[0], thread[-1]
    if same_location:
        if se_d < top_d:
            return [LvHindrance(src.name, math.ceil(drm / 2), "fog", FOG_IN_RULE,
                                "fire within one location: half the fog DRM")]
        return []
    out: list[LvHindrance] = []
    groups: dict[int, list[ThreadHex]] = {}
    order: list[int] = []
    for h in thread:
        if h.key not in groups:
            groups[h.key] = []
            order.append(h.key)
        groups[h.key].append(h)
    for key in order:
        members = groups[key]
        first = members[0]
        name = "/".join(m.name for m in members)
        low = _group_low(members)
        rule = _fog_hex_rule_scaled(top_d, se_d, te_d, first.rs, first.rt,
                                    None if low is None else low * d, d)
        if rule:
            out.append(LvHindrance(name, drm, "fog", rule))
    if se_d < top_d:
        out.append(LvHindrance(src.name, 1, "firing out of fog", "A24.8"))
    return out


def _group_low(members: Sequence[ThreadHex]) -> int | None:
    """The lowest ground of a hex (or hexspine pair); None when a member does not say."""
    lows = [m.low for m in members]
    return None if any(x is None for x in lows) else min(x for x in lows if x is not None)


def fog_hex_rule(top: Height, se: Height, te: Height, rs: int,
                 rt: int, low: Height | None = None) -> str | None:
    """Whether the fog of one hex of a thread (``rs`` from the source, ``rt`` to the target)
    hinders a LOS between elevations ``se`` and ``te``: the rule that makes it count, or None.
    ``low`` is the hex's lowest ground (None: unknown, taken as below the fog top).
    The per-hex part of :func:`fog_lv` (see its reading)."""
    vals, d = _scaled(top, se, te, *(() if low is None else (low,)))
    return _fog_hex_rule_scaled(vals[0], vals[1], vals[2], rs, rt,
                                None if low is None else vals[3], d)


def _scaled(*heights: Height) -> tuple[list[int], int]:
    """The heights as integers times a common scale d (1 for whole levels, 2 for halves): exact
    comparisons without Fraction arithmetic per hex."""
    if all(type(h) is int for h in heights):
        return [int(h) for h in heights], 1
    from fractions import Fraction
    fr = [Fraction(h) for h in heights]
    d = math.lcm(*(f.denominator for f in fr))
    return [int(f * d) for f in fr], d


def _fog_hex_rule_scaled(top: int, se: int, te: int, rs: int, rt: int, low: int | None,
                         d: int) -> str | None:
    """:func:`fog_hex_rule` on heights scaled by ``d`` (integers)."""
    if rs == 0:                                 # the firer's hex
        return FOG_IN_RULE if se < top else None
    if rt == 0:                                 # the target's hex
        return FOG_IN_RULE if te < top else None
    if low is not None and low >= top:          # no ground below the fog top: no fog here
        return None
    hi, lo = max(se, te), min(se, te)
    if top > hi:
        return FOG_IN_RULE
    if top == hi and top > lo:
        return FOG_LEVEL_RULE
    if lo < top < hi:
        r_hi, r_lo = (rs, rt) if se > te else (rt, rs)
        # fog_blind_zone() scaled by d: top - lo - (hi - top) + 1 + r_hi // 5, at least 1
        zone = top - lo - (hi - top) + d * (1 + r_hi // 5)
        if d * r_lo <= max(zone, d):
            return FOG_BLIND_RULE
    return None


def lv_total_straight(state: AslWeather, *, source_elevation: int, target_elevation: int,
                      range: int) -> int:  # noqa: A002
    """The LV DRM :func:`lv_hindrances` gives a straight thread of one hex per range step
    between two ground-level hexes with no units (no winter camouflage) -- without building
    the thread, fog assumed in every hex between the ends.  The reference of the kernel's
    straight-thread fog cube (``hexwx._native.fog_straight``), which exposure's cached pairs
    correct by each thread's fog deficit."""
    r = range
    _check_range(r)
    total_drm = mist_drm(r, heavy=state.heavy) if state.mist else 0   # = what mist_lv sums
    top = fog_top(state)
    if top is None:
        return total_drm
    drm = int(state.fog_drm or 1)
    se, te = source_elevation, target_elevation
    hexes = sum(1 for k in builtins.range(r + 1) if fog_hex_rule(top, se, te, k, r - k))
    return total_drm + drm * hexes + (1 if se < top else 0)


# -------------------------------------------------------------------------------------------
# everything together
# -------------------------------------------------------------------------------------------


def lv_hindrances(state: AslWeather, *, thread: Sequence[ThreadHex] | None,
                  source_elevation: float, target_elevation: float, range: int,  # noqa: A002
                  target_is_infantry: bool = True, target_positive_tem: bool = False,
                  target_winter_camouflage: bool = False, same_building: bool = False,
                  same_location: bool = False,
                  fog: Sequence[LvHindrance] | None = None) -> list[LvHindrance]:
    """All weather LV hindrances for one LOS: fog (by level), mist/rain/falling snow by range,
    winter camouflage.  Fire from a building to another Location of the same building through a
    building hexside (``same_building``) is always Clear (3.8): no LV at all.  Fire within one
    Location (``same_location``) is not "to another Location": fog applies at half its DRM,
    fractions rounded up (3.311), also inside a building.

    ``fog``: the fog hindrances of this LOS between two locations as the kernel found them
    (:func:`fog_lv`'s answer); None: :func:`fog_lv` works them out on ``thread``, which may
    then be None only when there is no fog.
    """
    _check_range(range)
    if same_building and not same_location:
        return []
    out: list[LvHindrance] = []
    if state.fog and fog is not None and not same_location:
        out += fog
    elif state.fog:
        if thread is None:
            raise UsageError("fog LV needs the LOS thread (hexes from source to target)")
        out += fog_lv(state, thread=thread, source_elevation=source_elevation,
                      target_elevation=target_elevation, same_location=same_location)
    out += mist_lv(state, range)
    out += winter_camouflage_lv(state, range, target_is_infantry=target_is_infantry,
                                target_winter_camouflage=target_winter_camouflage,
                                target_positive_tem=target_positive_tem)
    return out


def _check_range(range_: int) -> None:
    if not is_whole(range_, 0):
        raise UsageError(f"bad range {range_!r}; expected a whole number of hexes >= 0")
