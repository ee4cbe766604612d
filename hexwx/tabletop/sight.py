"""Line of sight, ranges, arcs and the visibility limit on a tabletop (the fire answer that
puts them together with weapon ranges and weather is :mod:`hexwx.tabletop.fire`).

Geometry is exact (shapely, no sampling).  For a base ``a`` of the viewer and a base ``b`` of
the target, a *line* is a straight segment from a point of ``a`` to a point of ``b`` whose
interior does not enter the interior of any blocker (touching a blocker's edge or corner is
clear).  :func:`has_clear_line` decides this exactly: if any clear segment exists, one exists on
a line through two vertices of the bases or of the blockers clipped to the sight region (the
extreme positions of a segment sliding between obstacles), so testing those finitely many
candidate lines is exact.

Readings (docs/tabletop.md):

* **Blockers.**  Dense terrain (woods, built-up areas; Huzzah! p.18) and hills block a line when
  their top is higher than *both* ends; so a unit on a hill sees over lower woods and hills
  (dense pieces default to 1 level above the ground they stand on).  A piece that overlaps the
  viewer's or the target's base does not block that pair (units see out of the wood or off the
  hill they stand in).  Bases of every other unit block at any height ("fully nor partly
  blocked by another unit", Huzzah! p.11); so do the other bases of the two units themselves,
  which keeps sight reciprocal (A sees B iff B sees A).  A line may graze the edge of a terrain
  piece but not run along the edge of a base (a column's rear bases are masked by its front).
* **Levels.**  A base stands at the height of the highest hill containing its centre.
* **Unit sight.**  A unit sees a target unit when at least one of its bases has a line to one of
  the target's bases; the answer names the bases that do.
* **Sight region.**  The convex hull of both units' bases less the bases; another unit whose base
  enters it *partly blocks* the target (Huzzah! p.11 forbids such targets).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon
from shapely.ops import nearest_points, unary_union
from shapely.geometry.base import BaseGeometry

from hexwx.errors import UsageError
from hexwx.units import ruler
from hexwx.validate import check_type, number, renamed
from hexwx.weather.minis.common import fire_rules
from hexwx.weather.minis.mininap import TURN_MINUTES, time_of_day_sight
from hexwx.weather.minis.registry import RULE_NAMES, check_rules
from hexwx.tabletop.faces import Face, closest_visible_face
from hexwx.tabletop.model import Base, TableTop, TerrainPiece, Unit, from_cm

if TYPE_CHECKING:
    from hexwx.weather.minis.common import TurnReport

#: Tolerance (cm) by which blockers are shrunk before the interior test, so a line that grazes a
#: corner or runs along an edge stays clear despite floating-point noise (1e-7 cm = 1 nm).
GRAZE_CM = 1e-7

RULE_SETS = RULE_NAMES  # the registry's names (hexwx.weather.minis.registry)


# --------------------------------------------------------------------------------------------
# Exact clear-line test between two convex bases
# --------------------------------------------------------------------------------------------

def _ccw_coords(poly: Polygon) -> np.ndarray:
    pts = np.asarray(poly.exterior.coords)[:-1]
    x, y = pts[:, 0], pts[:, 1]
    area2 = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    return pts if area2 > 0 else pts[::-1]


def _clip(p0: np.ndarray, d: np.ndarray, poly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cyrus-Beck: for lines ``p0 + t d`` (arrays of shape (M, 2)) the interval [t0, t1] inside
    the convex CCW polygon ``poly`` (t0 > t1 when the line misses it)."""
    v0 = poly
    e = np.roll(poly, -1, axis=0) - v0
    normal = np.stack([e[:, 1], -e[:, 0]], axis=1)  # outward for a CCW polygon
    num = np.einsum("mk,ek->me", p0, normal) - np.einsum("ek,ek->e", v0, normal)[None, :]
    den = np.einsum("mk,ek->me", d, normal)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -num / den
    entering = den < 0
    leaving = den > 0
    parallel_out = (den == 0) & (num > 0)
    t0 = np.max(np.where(entering, t, -np.inf), axis=1, initial=-np.inf)
    t1 = np.min(np.where(leaving, t, np.inf), axis=1, initial=np.inf)
    miss = parallel_out.any(axis=1)
    t0[miss], t1[miss] = 1.0, 0.0
    return t0, t1


def _vertices(geom: BaseGeometry) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for part in getattr(geom, "geoms", [geom]):
        if isinstance(part, Polygon):
            out.append(np.asarray(part.exterior.coords)[:-1, :2])
            out.extend(np.asarray(r.coords)[:-1, :2] for r in part.interiors)
        elif not part.is_empty:
            out.append(np.asarray(part.coords)[:, :2])
    return out


def has_clear_line(a: Polygon, b: Polygon, blockers: Sequence[BaseGeometry]) -> bool:
    """True when a straight segment joins a point of base ``a`` to a point of base ``b`` without
    entering the interior of any blocker (exact; touching an edge or corner is clear).

    ``a`` and ``b`` must be convex (base rectangles); blockers may be any polygons.  Symmetric
    in ``a`` and ``b``."""
    hull = shapely.union(a, b).convex_hull
    # boundary contact counts here: a neighbour touching the hull closes seams once merged
    relevant = [g for g in blockers if shapely.intersects(hull, g)]
    if not relevant:
        return True
    # merge first (touching blockers, e.g. bases side by side, leave no seam), then shrink
    shrunk = shapely.buffer(shapely.union_all(relevant), -GRAZE_CM, join_style="mitre")
    if shrunk.is_empty:
        return True
    shapely.prepare(shrunk)
    pa, pb = _ccw_coords(a), _ccw_coords(b)
    pts = [pa, pb] + [v for g in relevant for v in _vertices(shapely.intersection(g, hull))]
    cand = np.unique(np.round(np.concatenate(pts), 9), axis=0)
    i, j = np.triu_indices(len(cand), k=1)
    p0, d = cand[i], cand[j] - cand[i]
    keep = np.hypot(d[:, 0], d[:, 1]) > 1e-9
    p0, d = p0[keep], d[keep]
    ta0, ta1 = _clip(p0, d, pa)
    tb0, tb1 = _clip(p0, d, pb)
    hit = (ta0 <= ta1) & (tb0 <= tb1)
    p0, d, ta0, ta1, tb0, tb1 = p0[hit], d[hit], ta0[hit], ta1[hit], tb0[hit], tb1[hit]
    if len(p0) == 0:
        return False
    # the gap between the two bases along each line: from the exit of one to the entry of the other
    forward = ta1 <= tb0
    s0 = np.where(forward, ta1, tb1)
    s1 = np.where(forward, tb0, ta0)
    if np.any(s1 - s0 <= 1e-12):  # bases in contact along this line
        return True
    starts = p0 + d * s0[:, None]
    ends = p0 + d * s1[:, None]
    segs = shapely.linestrings(np.stack([starts, ends], axis=1))
    crossing = shapely.relate_pattern(segs, shrunk, "T********")
    return bool(not np.all(crossing))


# --------------------------------------------------------------------------------------------
# Blockers of a pair of bases
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Blocker:
    """Something that can stop a line: a terrain piece or another unit's base."""

    kind: str  # terrain kind, or "unit"
    id: str  # terrain id or unit id
    geometry: BaseGeometry = field(repr=False, compare=False)
    top: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id}

    @property
    def solid(self) -> BaseGeometry:
        """The geometry lines are tested against.  Reading: a line may graze terrain, but not
        run along the edge of a base (so the rear bases of a column are masked by the front
        base): bases are grown by twice :data:`GRAZE_CM`, undoing the shrink."""
        if self.kind != "unit":
            return self.geometry
        return shapely.buffer(self.geometry, 2 * GRAZE_CM, join_style="mitre")


def terrain_blockers(table: TableTop, a: Base, b: Base) -> list[tuple[TerrainPiece, float]]:
    """Dense terrain and hills that block a line between bases ``a`` and ``b`` by height:
    their top is higher than both ends, and they do not overlap either base (reading, module
    docstring).  Returns (piece, top) pairs."""
    hull = shapely.union(a.polygon, b.polygon).convex_hull
    la, lb = table.base_level(a), table.base_level(b)
    out = []
    for piece in table.terrain_touching(hull):
        if not (piece.dense or piece.is_hill):
            continue
        top = table.top_of(piece)
        if top <= la or top <= lb:
            continue
        g = piece.geometry
        if shapely.relate_pattern(g, a.polygon, "T********") or \
                shapely.relate_pattern(g, b.polygon, "T********"):
            continue
        out.append((piece, top))
    return out


def pair_blockers(table: TableTop, viewer: Unit, target: Unit, a: Base, b: Base) -> list[Blocker]:
    """Every blocker of the line between ``a`` (of ``viewer``) and ``b`` (of ``target``)."""
    out = [Blocker(p.kind, p.id, p.geometry, top) for p, top in terrain_blockers(table, a, b)]
    hull = shapely.union(a.polygon, b.polygon).convex_hull
    for i in table.base_tree.query(hull, predicate="intersects"):
        unit, base = table.base_index[i]
        if base is a or base is b:
            continue
        out.append(Blocker("unit", unit.id, base.polygon))
    return out


# --------------------------------------------------------------------------------------------
# Ranges and arcs
# --------------------------------------------------------------------------------------------

#: How each rule set measures range.  Huzzah! p.11: "from the centre of the firing unit to the
#: centre of the closest visible face of the target unit" (p.15's "to nearest base" names the
#: base, not the point: RULES-NOTES; faces in :mod:`hexwx.tabletop.faces`).  AGV, Mini-Nap 2 and
#: the Wesencraft gauge do not say: reading, the shortest distance between the bases.
RANGE_METHOD = {
    "huzzah": "centre-to-closest-visible-face-centre",
    "agv": "nearest-edges",
    "mininap": "nearest-edges",
    "wesencraft": "nearest-edges",
}

#: Huzzah! p.11: "Arc of fire is 45 degrees to either side of the unit."
ARC_HALF_ANGLE = 45.0


def range_points(firer: Unit, target: Unit, rules: str, *, face: Face | None = None
                 ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two points the range is measured between (cm), the way ``rules`` says
    (:data:`RANGE_METHOD`): Huzzah! the firer's centre and the centre of the target's closest
    visible face (``face`` when the caller has found it already); otherwise the nearest points
    of the two units' bases."""
    check_rules(rules)
    if rules == "huzzah":
        seen = closest_visible_face(target, firer.centre) if face is None else face
        return firer.centre, seen.centre
    a, b = nearest_points(firer.geometry, target.geometry)
    return (float(a.x), float(a.y)), (float(b.x), float(b.y))


def range_cm(firer: Unit, target: Unit, rules: str) -> float:
    """The range from ``firer`` to ``target`` in cm (:func:`range_points`)."""
    p, q = range_points(firer, target, rules)
    return math.dist(p, q)


def arc_polygon(unit: Unit, reach_cm: float, half_angle: float = ARC_HALF_ANGLE) -> BaseGeometry:
    """The arc of fire: everything within ``half_angle`` degrees either side of the unit's
    facing, seen from any point of its frontage (:func:`frontage`), out to ``reach_cm`` (only
    exact as a wedge for half_angle 45, where each wedge is a square standing on its corner).

    Reading of Huzzah! p.11 "45 degrees to either side of the unit": the arc opens from the
    unit's front, not from its centre point -- a line of eight bases sees a target just in front
    of its end base.  The wedges from the points of one straight front edge make one convex
    shape: the hull of the wedges at its two ends.
    """
    if half_angle != 45.0:
        raise UsageError(f"arc half-angle must be 45, got {half_angle!r}")
    u1 = math.radians(unit.facing - half_angle)
    u2 = math.radians(unit.facing + half_angle)
    d1 = (math.sin(u1) * reach_cm, math.cos(u1) * reach_cm)
    d2 = (math.sin(u2) * reach_cm, math.cos(u2) * reach_cm)

    def wedge(cx: float, cy: float) -> list[tuple[float, float]]:
        return [(cx, cy), (cx + d1[0], cy + d1[1]), (cx + d1[0] + d2[0], cy + d1[1] + d2[1]),
                (cx + d2[0], cy + d2[1])]

    parts = [MultiPoint(wedge(*a) + wedge(*b)).convex_hull for a, b in frontage(unit)]
    return parts[0] if len(parts) == 1 else unary_union(parts)


def frontage(unit: Unit) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The unit's front: the front edges (front-left, front-right corners) of the bases in its
    foremost rank along the unit's facing -- every base of a line, the head of a column.  A unit
    without bases fronts from its centre."""
    if not unit.bases:
        c = unit.centre
        return [(c, c)]
    a = math.radians(unit.facing)
    fx, fy = math.sin(a), math.cos(a)
    edges = [(b.corners[0], b.corners[1]) for b in unit.bases]
    ahead = [((p[0] + q[0]) * fx + (p[1] + q[1]) * fy) / 2.0 for p, q in edges]
    rank = min(b.depth for b in unit.bases) / 2.0      # same rank: within half a base depth
    top = max(ahead)
    return [e for e, d in zip(edges, ahead) if d >= top - rank]


def in_arc(table: TableTop, firer: Unit, target: Unit) -> bool:
    """True when any part of a target base lies within 45 degrees either side of the firer's
    facing, seen from the firer's frontage (Huzzah! p.11; reading in :func:`arc_polygon`; a base
    touching the arc's edge is in it)."""
    reach = 2.0 * math.hypot(table.width, table.depth) + 1.0
    wedge = arc_polygon(firer, reach)
    return any(wedge.distance(b.polygon) <= 1e-9 for b in target.bases)


# --------------------------------------------------------------------------------------------
# Visibility limit (weather and time of day)
# --------------------------------------------------------------------------------------------

def time_of_day_visibility_cm(start_hour: int | None, turn: int) -> float | None:
    """Mini-Nap 2 time-of-day visibility in cm on ``turn`` (1-based) for a battle that started
    at ``start_hour`` (0-23), None when no dawn/dusk rule applies: the dawn and dusk rules of
    :func:`hexwx.weather.minis.mininap.time_of_day_sight` (half-hour turns)."""
    if start_hour is None:
        return None
    start = start_hour * 60
    return time_of_day_sight(start, start + TURN_MINUTES * (turn - 1))


def visibility_limit_cm(report: TurnReport | None, *, time_of_day_cm: float | None = None
                        ) -> float | None:
    """The visibility distance now: the smaller of the weather's and the time of day's
    (Mini-Nap 2 App. D note: "always use the minimum"); None = unlimited."""
    limits = [v for v in ((report.visibility_cm if report is not None else None), time_of_day_cm)
              if v is not None]
    return min(limits) if limits else None


# --------------------------------------------------------------------------------------------
# The answer
# --------------------------------------------------------------------------------------------

#: How :attr:`Sight.reason` opens for each line of sight, before its first ``los_reasons``.
LOS_OPENING = {"clear": "clear: ", "blocked": "blocked ", "partly blocked": ""}


@dataclass(frozen=True)
class Sight:
    """The answer to "can ``viewer`` see ``target``", in the table's unit.

    ``los`` is "clear", "partly blocked" (another unit's base is in the sight region, or some
    but not all of the viewer's bases have a line) or "blocked"; ``visible`` is a line exists
    *and* the range is within the visibility distance.  ``los_reasons`` say why ``los`` is
    what it is, without the word itself ("by terrain 'wood'", "2 of 3 bases have a line");
    ``visibility_reason`` what the visibility limit allows (:func:`visibility_check`)."""

    viewer: str
    target: str
    rules: str
    unit: str
    los: str
    visible: bool
    range: float
    visibility: float | None
    within_visibility: bool
    bases_with_line: tuple[str, ...]
    bases_total: int
    clear_fraction: float
    obstacles: tuple[Blocker, ...]
    blocked_by: tuple[Blocker, ...]
    partly_blocked_by_units: tuple[str, ...]
    los_reasons: tuple[str, ...]
    visibility_reason: str
    rule: str | None
    seen_over: tuple[str, ...] = ()
    table: TableTop | None = field(default=None, repr=False, compare=False)   # for drawing

    @property
    def reasons(self) -> tuple[str, ...]:
        """The parts of :attr:`reason`: why the line of sight is what :attr:`los` says (the
        first part opens with that word where :data:`LOS_OPENING` says), the range, and what
        the visibility limit allows."""
        opening = LOS_OPENING[self.los] + self.los_reasons[0]
        return (opening, *self.los_reasons[1:], f"range {ruler(self.range, self.unit)}",
                self.visibility_reason)

    @property
    def reason(self) -> str:
        """The whole explanation in one line: :attr:`reasons` joined by "; "."""
        return "; ".join(self.reasons)

    def __repr__(self) -> str:
        return (f"Sight({self.viewer} -> {self.target}, {self.rules}: "
                f"{'visible' if self.visible else 'not visible'}, {self.reason})")

    def _repr_png_(self) -> bytes | None:
        """The sight drawn on its table, cropped to the two units, for notebooks."""
        if self.table is None:
            return None
        from hexwx.render.core import sight_png
        return sight_png(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer, "target": self.target, "rules": self.rules, "unit": self.unit,
            "los": self.los, "visible": self.visible, "blocked": self.los == "blocked",
            "range": round(self.range, 6),
            "visibility": None if self.visibility is None else round(self.visibility, 6),
            "within_visibility": self.within_visibility,
            "bases_with_line": list(self.bases_with_line), "bases_total": self.bases_total,
            "clear_fraction": round(self.clear_fraction, 6),
            "obstacles": [o.to_json() for o in self.obstacles],
            "blocked_by": [o.to_json() for o in self.blocked_by],
            "partly_blocked_by_units": list(self.partly_blocked_by_units),
            "reason": self.reason, "rule": self.rule, "seen_over": list(self.seen_over),
        }


def visibility_check(distance_cm: float, limit_cm: float | None, rules: str,
                     unit: str = "cm") -> tuple[bool, str]:
    """Whether an action at ``distance_cm`` is allowed under the visibility limit, and why.

    AGV: no firing, charging or intercepts beyond the visibility distance; Mini-Nap 2 adds
    break-throughs; the Wesencraft gauge: unseen foes cannot be fired at (fog, 6 cm)."""
    if limit_cm is None:
        return True, "visibility unlimited"
    shown = ruler(from_cm(limit_cm, unit), unit)
    if distance_cm <= limit_cm + 1e-9:
        return True, f"within the visibility distance of {shown}"
    what = {"wesencraft": "unseen foes cannot be fired at",
            "huzzah": "the scenario limits visibility",
            "agv": "no firing, charging or intercepts"}.get(
        rules, "no firing, charging, intercepts or break-throughs")
    return False, f"beyond the visibility distance of {shown}: {what}"


def visibility_text(rules: str, weather: str, visibility: float | None, unit: str) -> str:
    """"visibility 24 cm", or for no distance: "visibility unlimited" -- except under a weather
    that the rule set calls bad without giving a distance (Huzzah!'s dense fog, heavy snow and
    heavy rain are foul weather, p.10: a scenario sets any distance)."""
    if visibility is not None:
        return f"visibility {ruler(visibility, unit)}"
    if rules == "huzzah" and weather.lower() not in ("clear", "fair"):
        foul = any(r.effect == "fire factor" for r in fire_rules(rules, weather))
        return ("visibility: no distance set (foul weather, Huzzah! p.10: the scenario sets "
                "any limit)" if foul else "visibility: no distance set by the scenario")
    return "visibility unlimited"


VISIBILITY_RULE = {
    "agv": "AGV weather guidelines: maximum visibility range",
    "mininap": "Mini-Nap 2 App. D: maximum visibility range, time of day",
    "wesencraft": "Wesencraft weather gauge: fog visibility 6 cm",
    "huzzah": "Huzzah! p.10: conditions set by scenario",
}


def can_see(table: TableTop, viewer: str | None = None, target: str | None = None, *,
            rules: str, visibility_cm: float | None = None, viewer_id: str | None = None,
            target_id: str | None = None) -> Sight:
    """Can unit ``viewer`` see unit ``target`` (unit ids, as the scenario queries take them)?
    Exact geometry, explained (see module docstring for the readings); ``visibility_cm`` is the
    limit now (None = unlimited).  ``viewer_id``/``target_id`` are the former names of
    ``viewer``/``target``, still accepted with a DeprecationWarning."""
    viewer = renamed(viewer, viewer_id, "viewer", "viewer_id", "can_see")
    target = renamed(target, target_id, "target", "target_id", "can_see")
    check_type(table, TableTop, "table", "a TableTop (a TableScenario's table)")
    check_rules(rules)
    if visibility_cm is not None:
        number(visibility_cm, "visibility_cm", 0)
    looker = table.unit_by_id(viewer, "viewer")
    seen = table.unit_by_id(target, "target")
    if looker is seen:
        raise UsageError(f"a unit cannot look at itself: {viewer!r}")
    return _sight(table, looker, seen, rules, visibility_cm)


def _sight(table: TableTop, viewer: Unit, target: Unit, rules: str,
           visibility_cm: float | None) -> Sight:
    """:func:`can_see` on checked arguments: the lines between two distinct units' bases."""
    clear_bases: list[str] = []
    all_blockers: dict[tuple[str, str], Blocker] = {}
    pair_lists: list[tuple[Base, Base, list[Blocker]]] = []
    for a in viewer.bases:
        seen = False
        for b in target.bases:
            bl = pair_blockers(table, viewer, target, a, b)
            pair_lists.append((a, b, bl))
            for x in bl:
                if x.kind != "unit" or x.id not in (viewer.id, target.id):
                    all_blockers.setdefault((x.kind, x.id), x)
            if not seen and has_clear_line(a.polygon, b.polygon, [x.solid for x in bl]):
                seen = True
        if seen:
            clear_bases.append(a.id)

    region = shapely.difference(
        shapely.union(viewer.geometry, target.geometry).convex_hull,
        shapely.union(viewer.geometry, target.geometry))
    region_area = region.area
    obstacles = tuple(x for x in all_blockers.values()
                      if shapely.relate_pattern(region, x.geometry, "T********"))
    if region_area > 0 and obstacles:
        covered = shapely.intersection(region, shapely.union_all([x.geometry for x in obstacles]))
        clear_fraction = max(0.0, 1.0 - covered.area / region_area)
    else:
        clear_fraction = 1.0
    partly_units = tuple(sorted({x.id for x in obstacles if x.kind == "unit"}))
    blocking_ids = {x.id for x in obstacles if x.kind != "unit"}
    seen_over = tuple(p.id for p in table.terrain_touching(region)
                      if (p.dense or p.is_hill) and p.id not in blocking_ids
                      and shapely.relate_pattern(region, p.geometry, "T********"))

    blocked_by: tuple[Blocker, ...] = ()
    if not clear_bases:
        los = "blocked"
        # which obstacles alone block every line
        singles = []
        for key, x in all_blockers.items():
            if all(not has_clear_line(a.polygon, b.polygon,
                                      [y.solid for y in bl if (y.kind, y.id) == key or
                                       (y.kind == "unit" and y.id in (viewer.id, target.id))])
                   for a, b, bl in pair_lists):
                singles.append(x)
        blocked_by = tuple(singles)
    elif partly_units or len(clear_bases) < len(viewer.bases):
        los = "partly blocked"
    else:
        los = "clear"

    rng = range_cm(viewer, target, rules)
    ok, why = visibility_check(rng, visibility_cm, rules, table.unit)
    visible = los != "blocked" and ok
    u = table.unit
    if los == "blocked":
        names = ", ".join(f"{x.kind} {x.id!r}" for x in (blocked_by or obstacles)) or "own bases"
        bits = [f"by {names}"]
    elif los == "partly blocked":
        bits = [f"{len(clear_bases)} of {len(viewer.bases)} bases have a line"]
        if partly_units:
            bits.append("partly blocked by unit " + ", ".join(repr(p) for p in partly_units))
    else:
        bits = ["its base has a line" if len(viewer.bases) == 1 else
                f"all {len(viewer.bases)} bases have a line"]
    if visibility_cm is not None and not ok:
        rule = VISIBILITY_RULE[rules]
    elif los != "clear":
        rule = "Huzzah! p.11 (dense terrain p.18)" if rules == "huzzah" else \
            "hexwx reading: dense terrain and hills higher than both ends, other units' bases"
    else:
        rule = None
    return Sight(
        viewer=viewer.id, target=target.id, rules=rules, unit=u, los=los, visible=visible,
        range=table.to_unit(rng),
        visibility=None if visibility_cm is None else table.to_unit(visibility_cm),
        within_visibility=ok, bases_with_line=tuple(clear_bases),
        bases_total=len(viewer.bases), clear_fraction=clear_fraction,
        obstacles=obstacles, blocked_by=blocked_by, partly_blocked_by_units=partly_units,
        los_reasons=tuple(bits), visibility_reason=why, rule=rule, seen_over=seen_over, table=table)
