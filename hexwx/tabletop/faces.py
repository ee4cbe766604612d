"""The faces of a unit (front, rear, left and right flank) and which one a point sees.

Huzzah! Glorious Empires p.11-12 measures range "from the centre of the firing unit to the centre
of the closest visible face of the target unit" and gives +1 for "firing on a target's flank or
rear"; p.19 squares chargers up with "the closest visible face of the enemy"; p.22: "a unit in
square has no flank or rear".

Readings (docs/tabletop.md "Faces"):

* A unit's faces are the four sides of the rectangle that holds its bases, squared to its facing
  (every base of a unit shares the unit's facing): the front is the side ahead, the rear the
  side behind, the flanks left and right.
* A face is *visible* from a point when the point lies strictly outside the line of that side
  (on the face's outer side): a point straight ahead sees only the front, a point off a front
  corner sees the front and that flank.
* The *closest visible face* is the visible face whose centre is nearest to the point -- the
  same distance the range is measured along, so the face hit and the range agree.  A point on or
  inside the rectangle (units in contact) sees the face it is nearest to.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from hexwx.tabletop.model import Unit

#: Face names in a fixed order, and what kind of face each is for fire and charges.
FACES = ("front", "right flank", "rear", "left flank")
FACE_KIND = {"front": "front", "rear": "rear", "left flank": "flank", "right flank": "flank"}


@dataclass(frozen=True)
class Face:
    """One side of a unit: its ``name`` (:data:`FACES`), end points and centre in cm, and the
    outward unit normal."""

    name: str
    a: tuple[float, float]
    b: tuple[float, float]
    normal: tuple[float, float]

    @property
    def kind(self) -> str:
        """"front", "flank" or "rear"."""
        return FACE_KIND[self.name]

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.a[0] + self.b[0]) / 2.0, (self.a[1] + self.b[1]) / 2.0)

    @property
    def length(self) -> float:
        return math.dist(self.a, self.b)

    def outside(self, p: tuple[float, float]) -> float:
        """How far ``p`` lies beyond the face's line, outward (negative: inside)."""
        return (p[0] - self.a[0]) * self.normal[0] + (p[1] - self.a[1]) * self.normal[1]


def axes(facing: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Unit vectors ahead and to the right for a facing in degrees clockwise from +y."""
    a = math.radians(facing)
    return (math.sin(a), math.cos(a)), (math.cos(a), -math.sin(a))


def faces(unit: Unit) -> tuple[Face, ...]:
    """The unit's four faces in :data:`FACES` order (see the module docstring)."""
    (fx, fy), (rx, ry) = axes(unit.facing)
    pts = [c for b in unit.bases for c in b.corners]
    ahead = [x * fx + y * fy for x, y in pts]
    right = [x * rx + y * ry for x, y in pts]
    lo_a, hi_a, lo_r, hi_r = min(ahead), max(ahead), min(right), max(right)

    def at(al: float, ri: float) -> tuple[float, float]:
        return (al * fx + ri * rx, al * fy + ri * ry)

    fl, fr, rr, rl = at(hi_a, lo_r), at(hi_a, hi_r), at(lo_a, hi_r), at(lo_a, lo_r)
    return (Face("front", fl, fr, (fx, fy)), Face("right flank", fr, rr, (rx, ry)),
            Face("rear", rr, rl, (-fx, -fy)), Face("left flank", rl, fl, (-rx, -ry)))


def visible_faces(unit: Unit, p: tuple[float, float]) -> tuple[Face, ...]:
    """The faces of ``unit`` that point ``p`` sees (strictly outside their line)."""
    return tuple(f for f in faces(unit) if f.outside(p) > 1e-9)


def closest_visible_face(unit: Unit, p: tuple[float, float]) -> Face:
    """The visible face of ``unit`` whose centre is nearest ``p`` (module docstring); a point
    that sees no face (inside the unit's rectangle) gets the face whose line it is nearest."""
    seen = visible_faces(unit, p)
    if not seen:
        return max(faces(unit), key=lambda f: f.outside(p))
    return min(seen, key=lambda f: math.dist(f.centre, p))
