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

from hexwx.hexmap.board import HexMap
from hexwx.lineofsight.engine import LosResult, los
from hexwx.outputs import printable

#: Unit kinds that look and are looked at by default (markers and support weapons do not).
SIGHT_KINDS: tuple[str, ...] = ("infantry", "vehicle")


@dataclass(frozen=True)
class Sighting:
    """The LOS from one unit (viewer) to one unit of another side (target)."""

    viewer: str
    target: str
    viewer_side: str
    target_side: str
    result: LosResult

    @property
    def sees(self) -> bool:
        return not self.result.blocked

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {"viewer": self.viewer, "target": self.target,
                "viewer_side": self.viewer_side, "target_side": self.target_side,
                "viewer_hex": r.source, "target_hex": r.target,
                "viewer_level": r.source_level, "target_level": r.target_level,
                "range": r.range, "blocked": r.blocked,
                "hindrance": None if r.blocked else r.hindrance,
                "lv": None if r.blocked else r.lv,
                "drm": None if r.blocked else r.drm,
                "reason": r.reason, "rule": r.rule, "blocking_hex": r.blocking_hex,
                "blocking_terrain": r.blocking_terrain, "verdict": r.verdict,
                "hindrances": [h.to_json() for h in r.hindrances], "notes": list(r.notes)}

    def line(self) -> str:
        """One line of text: who, where, and the answer."""
        r = self.result
        ends = (f"{printable(self.viewer)} ({printable(self.viewer_side)}, {r.source}"
                f"{'' if not r.source_level else f' level {r.source_level}'}) -> "
                f"{printable(self.target)} ({printable(self.target_side)}, {r.target}"
                f"{'' if not r.target_level else f' level {r.target_level}'})")
        if r.blocked:
            return f"{ends}: range {r.range}, {r.verdict}"
        return (f"{ends}: range {r.range}, sees: hindrance +{r.hindrance}, LV +{r.lv}, "
                f"total +{r.drm}")


def sightings(m: HexMap, units: Iterable[Any], *, weather: Any = None,
              kinds: Sequence[str] = SIGHT_KINDS) -> list[Sighting]:
    """Every ordered pair of units on different sides, with its LOS under ``weather``.

    Units are taken in the order given; pairs are listed viewer by viewer.  A unit's ``kind``
    decides whether it is a target as infantry (LV for winter camouflage, E3.712) and
    ``winter_camouflage`` is read when present.
    """
    chosen = [u for u in units if getattr(u, "side", None) and getattr(u, "kind", "infantry") in kinds]
    hexes = {u.id: m.parse(u.hex) for u in chosen}
    cache: dict[tuple[int, int, int, int, bool, bool], LosResult] = {}
    out: list[Sighting] = []
    for a in chosen:
        for b in chosen:
            if a is b or a.side == b.side:
                continue
            infantry = getattr(b, "kind", "infantry") == "infantry"
            camo = bool(getattr(b, "winter_camouflage", False))
            key = (hexes[a.id], int(a.level), hexes[b.id], int(b.level), infantry, camo)
            r = cache.get(key)
            if r is None:
                r = los(m, hexes[a.id], hexes[b.id], from_level=int(a.level), to_level=int(b.level),
                        weather=weather, target_is_infantry=infantry, target_winter_camouflage=camo)
                cache[key] = r
            out.append(Sighting(a.id, b.id, a.side, b.side, r))
    return out
