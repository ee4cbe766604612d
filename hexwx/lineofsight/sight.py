"""Who sees whom: LOS between every pair of units on opposing sides of a hex scenario.

:func:`sightings` takes the map, the units (anything with ``id``, ``side``, ``hex``, ``level``
and ``kind``, such as :class:`hexwx.io.scenario.ScenarioUnit`) and the weather, and returns one
:class:`Sighting` per ordered pair (viewer, target) of units whose sides differ.  Both
directions are listed: blocked and terrain hindrance are the same both ways (A6.1, LOS is
reciprocal) but weather LV is not always -- it depends on the target (infantry vs vehicle,
winter camouflage, E3.712) and on which end is in fog (E3.311).  Units without a side (markers)
and units of kinds not asked for are left out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from hexwx.errors import UsageError
from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.engine import LosResult, los
from hexwx.outputs import printable

#: Unit kinds that look and are looked at by default (markers and support weapons do not).
SIGHT_KINDS: tuple[str, ...] = ("infantry", "vehicle")


@dataclass(frozen=True)
class Sighting:
    """The LOS from one unit (viewer) to one unit of another side (target).  ``*_concealed``:
    the unit is under a "?" (A12); ``*_hidden``: it is HIP (A12.3) -- a player sees where
    the LOS runs, not who is there."""

    viewer: str
    target: str
    viewer_side: str
    target_side: str
    result: LosResult
    viewer_concealed: bool = False
    target_concealed: bool = False
    viewer_hidden: bool = False
    target_hidden: bool = False

    @property
    def sees(self) -> bool:
        return not self.result.blocked

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {"viewer": self.viewer, "target": self.target,
                "viewer_side": self.viewer_side, "target_side": self.target_side,
                "viewer_hex": r.source, "target_hex": r.target,
                "viewer_level": r.source_level, "target_level": r.target_level,
                "viewer_location": r.source_location, "target_location": r.target_location,
                "viewer_concealed": self.viewer_concealed,
                "target_concealed": self.target_concealed,
                "viewer_hidden": self.viewer_hidden, "target_hidden": self.target_hidden,
                "range": r.range, "blocked": r.blocked,
                "hindrance": None if r.blocked else r.hindrance,
                "lv": None if r.blocked else r.lv,
                "drm": None if r.blocked else r.drm,
                "reason": r.reason, "rule": r.rule, "blocking_hex": r.blocking_hex,
                "blocking_terrain": r.blocking_terrain, "verdict": r.verdict,
                "hindrances": [h.to_json() for h in r.hindrances], "notes": list(r.notes)}

    def line(self) -> str:
        """One line a player reads: who, where, and the answer with the DRM and its parts."""
        r = self.result
        ends = (f"{_who(self.viewer, self.viewer_side, r.source_location or r.source, self.viewer_concealed, self.viewer_hidden)}"
                f" -> {_who(self.target, self.target_side, r.target_location or r.target, self.target_concealed, self.target_hidden)}")
        if r.blocked:
            return f"{ends}: range {r.range}, {r.verdict}"
        parts = ", ".join(h.explain() for h in r.hindrances)
        return (f"{ends}: range {r.range}, sees, DRM +{r.drm}"
                + (f" = {parts}" if parts else " (no hindrance)"))


def _who(uid: str, side: str, where: str, concealed: bool, hidden: bool) -> str:
    marks = [m for m, on in (("concealed", concealed), ("HIP", hidden)) if on]
    return f"{printable(uid)} ({printable(side)}, {where}{''.join(', ' + m for m in marks)})"


def sightings(m: HexMap, units: Iterable[Any], *, weather: Any = None,
              kinds: Sequence[str] = SIGHT_KINDS, counters: Any = None,
              side: str | None = None, visible_only: bool = False) -> list[Sighting]:
    """Every ordered pair of units on different sides, with its LOS under ``weather`` and
    ``counters`` (:class:`~hexwx.lineofsight.counters.Counters`: SMOKE, wrecks, the vehicles on
    the map -- a vehicle unit is a hindrance to the others' LOS, D9).

    Units are taken in the order given; pairs are listed viewer by viewer.  ``side``: only the
    viewers of that side; ``visible_only``: only the pairs with a LOS.  A unit's ``kind``
    decides whether it is a target as infantry (LV for winter camouflage, E3.712) and
    ``winter_camouflage``, ``concealed``, ``hidden`` and ``entrenched`` (B27.2) are read when
    present.
    """
    chosen = [u for u in units if getattr(u, "side", None) and getattr(u, "kind", "infantry") in kinds]
    if side is not None and not any(u.side == side for u in chosen):
        sides = sorted({u.side for u in chosen})
        raise UsageError(f"no unit of side {side!r}; expected one of {', '.join(sides) or '(none)'}")
    hexes = {u.id: m.parse(u.hex) for u in chosen}
    cache: dict[tuple[Any, ...], LosResult] = {}
    out: list[Sighting] = []
    for a in chosen:
        if side is not None and a.side != side:
            continue
        for b in chosen:
            if a is b or a.side == b.side:
                continue
            infantry = getattr(b, "kind", "infantry") == "infantry"
            camo = bool(getattr(b, "winter_camouflage", False))
            sa, sb = getattr(a, "hexside", None), getattr(b, "hexside", None)
            ea, eb = bool(getattr(a, "entrenched", False)), bool(getattr(b, "entrenched", False))
            key = (hexes[a.id], int(a.level), sa, ea, hexes[b.id], int(b.level), sb, eb, infantry,
                   camo)
            r = cache.get(key)
            if r is None:
                r = los(m, hexes[a.id], hexes[b.id], from_level=int(a.level), to_level=int(b.level),
                        weather=weather, target_is_infantry=infantry, target_winter_camouflage=camo,
                        counters=counters, from_hexside=sa, to_hexside=sb,
                        from_entrenched=ea, to_entrenched=eb)
                cache[key] = r
            if visible_only and r.blocked:
                continue
            out.append(Sighting(a.id, b.id, a.side, b.side, r,
                                bool(getattr(a, "concealed", False)),
                                bool(getattr(b, "concealed", False)),
                                bool(getattr(a, "hidden", False)), bool(getattr(b, "hidden", False))))
    return out
