"""Annotated images of miniatures tables: terrain pieces, bases with facing, visibility circles,
lines of sight and ranges in the table's unit (in or cm), and the turn's weather.

:func:`render_table` reads a :class:`~hexwx.io.table_scenario.TableScenario` (or a bare
:class:`~hexwx.tabletop.model.TableTop`) and result objects made by the library —
:func:`hexwx.tabletop.sight.can_see` sights and :func:`hexwx.tabletop.fire.fire_answer` fire answers; it never
computes sight or range itself.  Table coordinates are cm with y growing up the table; the image
puts y = 0 at the bottom.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np
from PIL import Image, ImageChops, ImageDraw
from shapely.geometry import Point

from hexwx.errors import UsageError
from hexwx.units import ruler
from hexwx.render.style import (
    CONTOUR, OVERLAY, RGB, TABLE_CLOTH, TABLE_STYLES, Frame, Marker, Rendering,
    downsample, font, halo_text, legend_strip, line_swatch, marker_swatch, pattern_mask,
    side_colours, stack, swatch,
)

#: Default width of the table in final pixels.
DEFAULT_WIDTH_PX = 1600
#: Ruler spacing by length unit: a line every foot on inch tables, every 10 cm on cm tables.
RULER_STEP = {"in": 12.0, "cm": 10.0}


def _table_of(obj: Any) -> tuple[Any, Any]:
    """(TableTop, scenario or None) of a scenario or a table."""
    if hasattr(obj, "table") and hasattr(obj, "rules"):
        return obj.table, obj
    if hasattr(obj, "width") and hasattr(obj, "depth") and hasattr(obj, "units"):
        return obj, None
    raise UsageError(f"render_table needs a TableScenario or TableTop, got {type(obj).__name__}")


def _rings(geom: Any) -> list[list[tuple[float, float]]]:
    """Exterior rings of a (multi)polygon."""
    if hasattr(geom, "geoms"):
        return [r for g in geom.geoms for r in _rings(g)]
    if hasattr(geom, "exterior"):
        return [list(geom.exterior.coords)]
    return []


def _lines(geom: Any) -> list[list[tuple[float, float]]]:
    if hasattr(geom, "geoms"):
        return [ln for g in geom.geoms for ln in _lines(g)]
    return [list(geom.coords)]


def _fill_pattern(canvas: Image.Image, view: Frame, ring_pts: list[tuple[float, float]],
                  fill: RGB, pattern: str | None, ink: RGB) -> None:
    """Fill a polygon with ``fill`` and ``pattern`` ink, working inside its bounding box."""
    pts = [view.c(x, y) for x, y in ring_pts]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, y0 = max(0, int(min(xs))), max(0, int(min(ys)))
    x1, y1 = min(canvas.width, int(max(xs)) + 2), min(canvas.height, int(max(ys)) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in pts], fill=255)
    canvas.paste(fill, (x0, y0, x1, y1), mask)
    if pattern:
        gy, gx = np.ogrid[y0:y1, x0:x1]
        on = np.broadcast_to(pattern_mask(pattern, gx, gy, max(8, view.fpx(6))), (y1 - y0, x1 - x0))
        pat = np.ascontiguousarray(on, dtype=np.uint8) * 255
        pmask = ImageChops.multiply(mask, Image.fromarray(pat, "L"))
        canvas.paste(ink, (x0, y0, x1, y1), pmask)


def draw_terrain(canvas: Image.Image, d: ImageDraw.ImageDraw, table: Any, view: Frame) -> set[str]:
    """Terrain pieces: hills first, then areas, then lines (roads, hedges, walls); labels."""
    order = sorted(table.terrain, key=lambda p: (0 if p.spec.hill else 2 if p.spec.line else 1))
    kinds: set[str] = set()
    for p in order:
        fill, pattern, ink, width_cm = TABLE_STYLES.get(p.kind, ((200, 200, 200), None, (0, 0, 0), 0.0))
        kinds.add(p.kind)
        if p.spec.line:
            for ln in _lines(p.geometry):
                pts = [view.c(x, y) for x, y in ln]
                d.line(pts, fill=ink, width=max(view.fpx(2), round(width_cm * view.k)), joint="curve")
            continue
        for ring_pts in _rings(p.geometry):
            _fill_pattern(canvas, view, ring_pts, fill, pattern, ink)
            pts = [view.c(x, y) for x, y in ring_pts]
            d.line(pts, fill=CONTOUR if p.spec.hill else (40, 40, 40), width=view.fpx(2 if p.spec.hill else 1))
    return kinds


def label_px(view: Frame, size: float = 14.0) -> int:
    """Canvas size of a label of ``size`` final px on a picture 1,000 px wide or more; smaller
    pictures get smaller labels (down to 60 %), so they still find room."""
    return view.fpx(size * min(1.0, max(0.6, view.size[0] / 1000.0)))


class Labels:
    """Text labels placed so that none overlaps another or a base: each label takes the first
    of its candidate positions (canvas pixels, best first) whose box is clear of every box
    taken so far and inside the canvas, else the one overlapping least.  :meth:`draw` draws
    them all at the end, over every line."""

    def __init__(self, d: ImageDraw.ImageDraw, size: tuple[int, int]) -> None:
        self.d = d
        self.size = size
        self.boxes: list[tuple[float, float, float, float]] = []
        self.texts: list[tuple[tuple[float, float], str, int]] = []

    def block(self, box: tuple[float, float, float, float]) -> None:
        """Mark a region (x0, y0, x1, y1) as taken (a base, a drawn label)."""
        self.boxes.append(box)

    def _cost(self, bb: tuple[float, float, float, float]) -> float:
        w, h = self.size
        out = (max(0.0, -bb[0]) + max(0.0, bb[2] - w) + max(0.0, -bb[1]) + max(0.0, bb[3] - h)) * 1e3
        for b in self.boxes:
            ox = min(bb[2], b[2]) - max(bb[0], b[0])
            oy = min(bb[3], b[3]) - max(bb[1], b[1])
            if ox > 0 and oy > 0:
                out += ox * oy
        return out

    def place(self, text: str, size: int, candidates: Sequence[tuple[float, float]]) -> tuple[float, float]:
        """Place ``text`` (a halo label of ``size`` px) at the best candidate; its position."""
        f, stroke = font(size), max(2, size // 6)
        best: tuple[float, tuple[float, float], tuple[float, float, float, float]] | None = None
        for xy in candidates:
            x0, y0, x1, y1 = self.d.textbbox(xy, text, font=f, anchor="mm", stroke_width=stroke)
            bb = (x0 - 2.0, y0 - 2.0, x1 + 2.0, y1 + 2.0)
            cost = self._cost(bb)
            if best is None or cost < best[0]:
                best = (cost, xy, bb)
            if cost == 0:
                break
        assert best is not None
        self.texts.append((best[1], text, size))
        self.block(best[2])
        return best[1]

    def draw(self) -> None:
        """Draw every placed label."""
        for xy, text, size in self.texts:
            halo_text(self.d, xy, text, size)


def _table_point(view: Frame, cx: float, cy: float) -> tuple[float, float]:
    """The table point (cm) of canvas point (cx, cy): the inverse of ``view.c``."""
    x = cx / view.k + view.x0
    return (x, view.y1 - cy / view.k) if view.flip_y else (x, cy / view.k + view.y0)


def _around(x: float, y: float, step: float, rings: int = 4) -> list[tuple[float, float]]:
    """(x, y), then points on growing squares around it, ``step`` apart, nearest first."""
    pts = [(x + i * step, y + j * step) for i in range(-rings, rings + 1)
           for j in range(-rings, rings + 1)]
    return sorted(pts, key=lambda p: (math.dist(p, (x, y)), p[1], p[0]))


def label_terrain(labels: Labels, table: Any, view: Frame) -> None:
    """Each piece's id (and height) inside it where it is clear -- along a line piece, or near
    an area piece's representative point, inside the piece first."""
    size = label_px(view)
    for p in table.terrain:
        label = p.id + (f" (h {p.height:g})" if p.spec.hill or p.spec.dense else "")
        if p.spec.line:
            pts = [p.geometry.interpolate(t, normalized=True)
                   for t in (0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9)]
            cands = [view.c(q.x, q.y) for q in pts]
        else:
            rp = p.geometry.representative_point()
            cx, cy = view.c(rp.x, rp.y)
            near = _around(cx, cy, size * 1.2, rings=6)
            inside = [q for q in near if p.geometry.contains(Point(*_table_point(view, *q)))]
            cands = inside + [q for q in near if q not in inside]
        labels.place(label, size, cands)


def draw_officers(d: ImageDraw.ImageDraw, table: Any, view: Frame, colours: dict[str, RGB],
                  labels: Labels) -> None:
    """Each officer (Huzzah! p.16) as a disc in his side's colour ringed in white and black at
    the centre of his base, his id placed clear beside it."""
    r = view.fpx(7)
    size = label_px(view, 12)
    for o in getattr(table, "officers", ()):
        x, y = view.c(o.x, o.y)
        col = colours.get(o.side) or side_colours([o.side])[o.side]
        d.ellipse((x - r, y - r, x + r, y + r), fill=col, outline=(255, 255, 255), width=view.fpx(2))
        d.ellipse((x - r - view.fpx(2), y - r - view.fpx(2), x + r + view.fpx(2), y + r + view.fpx(2)),
                  outline=(0, 0, 0), width=view.fpx(1))
        labels.block((x - r, y - r, x + r, y + r))
        labels.place(f"{o.id} ({o.quality})", size,
                     [(x, y - 2.2 * r), (x, y + 2.2 * r), (x + 5 * r, y), (x - 5 * r, y)])


def label_units(labels: Labels, table: Any, view: Frame) -> None:
    """Each unit's id just behind it, or ahead of its arrows, or to a side, wherever it is clear."""
    size = label_px(view)
    f = font(size)
    for u in table.units:
        cx, cy = u.centre
        a = math.radians(u.facing)
        fx, fy, rx, ry = math.sin(a), math.cos(a), math.cos(a), -math.sin(a)
        corners = [c for b in u.bases for c in b.corners]
        along = [(x - cx) * fx + (y - cy) * fy for x, y in corners]
        across = [(x - cx) * rx + (y - cy) * ry for x, y in corners]
        arrow = 0.35 * max(b.depth for b in u.bases)
        # half the label's size (cm) along the unit's facing and across it, for an on-screen box
        tw, th = labels.d.textlength(u.id, font=f) / 2 / view.k, size * 0.7 / view.k
        half_along = abs(fy) * th + abs(fx) * tw
        half_across = abs(ry) * th + abs(rx) * tw
        gap = 4 / view.scale
        spots = [(min(along) - gap - half_along, 0.0),
                 (max(along) + arrow + gap + half_along, 0.0),
                 (0.0, max(across) + gap + half_across), (0.0, min(across) - gap - half_across),
                 (min(along) - 3 * gap - 3 * half_along, 0.0)]
        cands = [view.c(cx + fx * al + rx * ac, cy + fy * al + ry * ac) for al, ac in spots]
        labels.place(u.id, size, cands)


def _side_colours(table: Any) -> dict[str, RGB]:
    """The colour of each side on the table (the one palette, :func:`style.side_colours`)."""
    return side_colours([u.side for u in table.units]
                        + [o.side for o in getattr(table, "officers", ())])


def draw_units(d: ImageDraw.ImageDraw, table: Any, view: Frame, colours: dict[str, RGB],
               labels: Labels | None = None) -> list[Marker]:
    """Every base filled with its side's colour, a heavy white front edge with a black arrow for
    the facing (each base, arrow included, marked as taken in ``labels``)."""
    markers = []
    for u in table.units:
        col = colours[u.side]
        for b in u.bases:
            corners = [view.c(x, y) for x, y in b.corners]
            if labels is not None:
                a = math.radians(b.facing)
                tip = view.c(b.x + math.sin(a) * 0.85 * b.depth, b.y + math.cos(a) * 0.85 * b.depth)
                xs = [c[0] for c in corners] + [tip[0]]
                ys = [c[1] for c in corners] + [tip[1]]
                labels.block((min(xs), min(ys), max(xs), max(ys)))
            d.polygon(corners, fill=col, outline=(0, 0, 0), width=view.fpx(1))
            d.line((*corners[0], *corners[1]), fill=(255, 255, 255), width=view.fpx(3))
            _facing_arrow(d, view, b)
        b0 = u.bases[0]
        markers.append(Marker("base", u.id, view.final(*_inside(b0, 0.0, -0.3)), col))
    return markers


def _inside(b: Any, across: float, along: float) -> tuple[float, float]:
    """A point inside base ``b``: ``across``/``along`` in -0.5..0.5 of frontage/depth."""
    a = math.radians(b.facing)
    fx, fy = math.sin(a), math.cos(a)
    rx, ry = fy, -fx
    return (b.x + rx * across * b.frontage + fx * along * b.depth,
            b.y + ry * across * b.frontage + fy * along * b.depth)


def _facing_arrow(d: ImageDraw.ImageDraw, view: Frame, b: Any) -> None:
    a = math.radians(b.facing)
    fx, fy = math.sin(a), math.cos(a)
    rx, ry = fy, -fx
    tip = (b.x + fx * (b.depth / 2 + 0.35 * b.depth), b.y + fy * (b.depth / 2 + 0.35 * b.depth))
    w = 0.18 * b.frontage
    left = (b.x + fx * b.depth / 2 - rx * w, b.y + fy * b.depth / 2 - ry * w)
    right = (b.x + fx * b.depth / 2 + rx * w, b.y + fy * b.depth / 2 + ry * w)
    d.polygon([view.c(*tip), view.c(*left), view.c(*right)], fill=(0, 0, 0))


def draw_rulers(d: ImageDraw.ImageDraw, table: Any, view: Frame, labels: Labels | None = None) -> None:
    """Faint lines every foot (in) or 10 cm, labelled along the bottom and left edges (the
    numbers marked as taken in ``labels``)."""
    def mark(xy: tuple[float, float], text: str, size: int, anchor: str) -> None:
        halo_text(d, xy, text, size, anchor=anchor)
        if labels is not None:
            labels.block(d.textbbox(xy, text, font=font(size), anchor=anchor,
                                    stroke_width=max(2, size // 6)))

    step_u = RULER_STEP.get(table.unit, 10.0)
    step = table.from_unit(step_u)
    n = 1
    while n * step < table.width - 1e-9:
        x = n * step
        d.line((*view.c(x, 0), *view.c(x, table.depth)), fill=(150, 160, 130), width=view.fpx(1))
        mark(view.c(x, 0), f"{n * step_u:g}", label_px(view, 11), "mb")
        n += 1
    n = 1
    while n * step < table.depth - 1e-9:
        y = n * step
        d.line((*view.c(0, y), *view.c(table.width, y)), fill=(150, 160, 130), width=view.fpx(1))
        mark(view.c(0, y), f" {n * step_u:g}", label_px(view, 11), "lm")
        n += 1


def draw_visibility(d: ImageDraw.ImageDraw, table: Any, view: Frame, vis_cm: float,
                    units: Iterable[Any], colours: dict[str, RGB]) -> None:
    """A dashed circle of the visibility distance around each of ``units``."""
    for u in units:
        cx, cy = view.c(*u.centre)
        r = vis_cm * view.k
        steps = max(24, int(2 * math.pi * r / view.fpx(10)))
        for i in range(0, steps, 2):
            a0, a1 = 2 * math.pi * i / steps, 2 * math.pi * (i + 1) / steps
            d.line((cx + r * math.cos(a0), cy + r * math.sin(a0), cx + r * math.cos(a1), cy + r * math.sin(a1)),
                   fill=colours[u.side], width=view.fpx(2))


def _fmt(v: float | None, unit: str) -> str:
    return "unlimited" if v is None else ruler(v, unit)


def draw_sight(d: ImageDraw.ImageDraw, table: Any, view: Frame, s: Any,
               labels: Labels | None = None) -> list[Marker]:
    """A line of sight between unit centres: green solid when visible, red dashed when not
    (orange dashed when only partly blocked); the range at its middle; blockers outlined red."""
    a, b = table.unit_by_id(s.viewer).centre, table.unit_by_id(s.target).centre
    if s.visible and s.los == "clear":
        colour, dashed = OVERLAY["los clear"], False
    elif s.visible:
        colour, dashed = OVERLAY["hindrance"], True
    else:
        colour, dashed = OVERLAY["los blocked"], True
    for x in s.blocked_by or (s.obstacles if s.los == "blocked" else ()):
        for ring_pts in _rings(x.geometry):
            d.line([view.c(*p) for p in ring_pts], fill=OVERLAY["los blocked"], width=view.fpx(3))
    _line(d, view, a, b, colour, dashed)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    verdict = "sees" if s.visible else "cannot see"
    _line_label(d, view, labels, a, b, f"{s.viewer} {verdict} {s.target}: {_fmt(s.range, s.unit)}")
    return [Marker("sight", f"{s.viewer}->{s.target}", view.final(*a), colour, s.los)]


def draw_range(d: ImageDraw.ImageDraw, table: Any, view: Frame, r: Any,
               labels: Labels | None = None) -> list[Marker]:
    """A fire answer's range in blue between the two points the rule set measures between
    (Huzzah!: the firer's centre and the centre of the target's face hit), with the range,
    weapon range and band under its middle."""
    a = (table.from_unit(r.range_from[0]), table.from_unit(r.range_from[1]))
    b = (table.from_unit(r.range_to[0]), table.from_unit(r.range_to[1]))
    _line(d, view, a, b, OVERLAY["path"], False, width=2.5)
    d.ellipse([*(c - view.fpx(4) for c in view.c(*b)), *(c + view.fpx(4) for c in view.c(*b))],
              fill=OVERLAY["path"], outline=(255, 255, 255))
    wr = f" / weapon {_fmt(r.weapon_range, r.unit)}, {r.band}" if r.weapon_range is not None else ""
    _line_label(d, view, labels, a, b, f"range {_fmt(r.range, r.unit)}{wr}")
    return [Marker("range", f"{r.firer}->{r.target}", view.final(*a), OVERLAY["path"])]


def _line_label(d: ImageDraw.ImageDraw, view: Frame, labels: Labels | None,
                a: tuple[float, float], b: tuple[float, float], text: str) -> None:
    """``text`` beside the middle of the line a-b, or further along it, wherever it is clear."""
    ca, cb = view.c(*a), view.c(*b)
    length = math.dist(ca, cb) or 1.0
    nx, ny = -(cb[1] - ca[1]) / length, (cb[0] - ca[0]) / length
    size = label_px(view)
    cands = [(ca[0] + (cb[0] - ca[0]) * t + nx * k * size, ca[1] + (cb[1] - ca[1]) * t + ny * k * size)
             for t in (0.5, 0.4, 0.6, 0.3, 0.7) for k in (1.0, -1.0, 2.2, -2.2)]
    if labels is None:
        halo_text(d, cands[0], text, size)
    else:
        labels.place(text, size, cands)


def _line(d: ImageDraw.ImageDraw, view: Frame, a: tuple[float, float], b: tuple[float, float],
          colour: RGB, dashed: bool, width: float = 3.5) -> None:
    ca, cb = view.c(*a), view.c(*b)
    d.line((*ca, *cb), fill=(255, 255, 255), width=view.fpx(width + 2.5))
    if not dashed:
        d.line((*ca, *cb), fill=colour, width=view.fpx(width))
        return
    length = math.dist(ca, cb)
    if length == 0:
        return
    ux, uy = (cb[0] - ca[0]) / length, (cb[1] - ca[1]) / length
    t, dash, gap = 0.0, view.fpx(10), view.fpx(6)
    while t < length:
        e = min(length, t + dash)
        d.line((ca[0] + ux * t, ca[1] + uy * t, ca[0] + ux * e, ca[1] + uy * e), fill=colour, width=view.fpx(width))
        t = e + gap


@dataclass(frozen=True)
class Outline:
    """An area to draw on the table (cm): where an order may take a unit's bases, a charger
    squared up, an officer's command radius; ``kind`` picks the colour (:data:`OUTLINE_COLOURS`)."""

    label: str
    geometry: Any
    kind: str = "reach"


#: Outline kinds -> colour (the reach colour for where bases may go; black for the charger
#: squared up, which no side's colour is mistaken for).
OUTLINE_COLOURS: dict[str, RGB] = {"reach": OVERLAY["reach"], "charge": (0, 0, 0),
                                   "command": OVERLAY["los clear"]}


def draw_outlines(canvas: Image.Image, view: Frame, outlines: Sequence[Outline]) -> None:
    """Each outline as a translucent fill with a solid edge (labels: :func:`label_outlines`)."""
    for o in outlines:
        colour = OUTLINE_COLOURS.get(o.kind, OVERLAY["reach"])
        veil = Image.new("L", canvas.size, 0)
        vd = ImageDraw.Draw(veil)
        for ring in _rings(o.geometry):
            vd.polygon([view.c(*p) for p in ring], fill=70)
        canvas.paste(colour, (0, 0, *canvas.size), veil)
        d = ImageDraw.Draw(canvas)
        for ring in _rings(o.geometry):
            d.line([view.c(*p) for p in ring], fill=colour, width=view.fpx(2.5), joint="curve")


def label_outlines(labels: Labels, view: Frame, outlines: Sequence[Outline]) -> None:
    """Each outline's label above it, or near, wherever it is clear."""
    size = label_px(view)
    for o in outlines:
        x0, y0, x1, y1 = o.geometry.bounds
        top = view.c((x0 + x1) / 2, y1)
        labels.place(o.label, size, _around(top[0], top[1] - size, size * 1.2, rings=5))


def sight_caption(s: Any) -> str:
    """One caption line of a sight result (its own reason and rule)."""
    rule = f" ({s.rule})" if s.rule else ""
    return f"{s.viewer} -> {s.target}: {s.los}, {'visible' if s.visible else 'not visible'}: {s.reason}{rule}"


def range_caption(r: Any) -> str:
    """One caption line of a fire answer: range, band, arc (Huzzah!), face, may fire, why."""
    fire = {True: "yes", False: "no", None: "cannot say"}[r.may_fire]
    arc = "" if r.in_arc is None else f", in arc: {'yes' if r.in_arc else 'no'}"
    band = f", {r.band}" if r.band else ""
    why = f" ({'; '.join(r.reasons)})" if r.reasons else ""
    return (f"{r.firer} -> {r.target}: range {_fmt(r.range, r.unit)} ({r.method}){band}{arc}, "
            f"{r.face} face; may fire: {fire}{why}")


def render_table(obj: Any, *, turn: int = 1, sights: Sequence[Any] = (), ranges: Sequence[Any] = (),
                 width_px: int = DEFAULT_WIDTH_PX, visibility: bool = True, legend: bool = True,
                 title: str | None = None, outlines: Sequence[Outline] = (),
                 notes: Sequence[str] = ()) -> Rendering:
    """Draw a table scenario (or table) on ``turn`` with sights, ranges (fire answers) and
    ``outlines`` (orders' areas); ``caption`` holds the turn's weather, each result's
    explanation and ``notes``."""
    table, sc = _table_of(obj)
    if not isinstance(width_px, int) or not 200 <= width_px <= 8000:
        raise UsageError(f"width must be 200-8000 px, got {width_px!r}")
    view = Frame(0.0, 0.0, table.width, table.depth, width_px / table.width, flip_y=True)
    canvas = Image.new("RGB", view.canvas_size, TABLE_CLOTH)
    d = ImageDraw.Draw(canvas)
    name = title or getattr(sc, "name", None) or table.name or "table"
    captions = [f"{name} ({sc.rules}): table {table.to_unit(table.width):g} x "
                f"{table.to_unit(table.depth):g} {table.unit}" if sc else name]
    vis = None
    if sc is not None:
        sc.check_turn(turn)
        line, _rep, vis = sc.weather_line(turn)
        captions.append(line)
    labels = Labels(d, canvas.size)
    draw_rulers(d, table, view, labels)
    kinds = draw_terrain(canvas, d, table, view)
    colours = _side_colours(table)
    if visibility and vis is not None:
        shown = {s.viewer for s in sights} | {r.firer for r in ranges}
        units = [u for u in table.units if not shown or u.id in shown]
        draw_visibility(d, table, view, vis, units, colours)
    draw_outlines(canvas, view, outlines)
    markers = draw_units(d, table, view, colours, labels)
    draw_officers(d, table, view, colours, labels)
    label_units(labels, table, view)
    label_outlines(labels, view, outlines)
    label_terrain(labels, table, view)
    for r in ranges:
        markers += draw_range(d, table, view, r, labels)
    for s in sights:
        markers += draw_sight(d, table, view, s, labels)
    labels.draw()
    captions += [sight_caption(s) for s in sights] + [range_caption(r) for r in ranges] + list(notes)
    image = downsample(canvas, view.size)
    entries = table_legend(kinds, colours, bool(sights), bool(ranges), vis is not None and visibility,
                           outlines={o.kind for o in outlines},
                           officers=bool(getattr(table, "officers", ())))
    if legend:
        image = stack([image, legend_strip(entries, captions, image.width, size=15)])
    return Rendering(image=image, caption="\n".join(captions), markers=tuple(markers),
                     scale=view.scale, origin=(0.0, 0.0), flip_y=table.depth,
                     legend=tuple(label for _i, label in entries))


#: Legend words of each outline kind.
OUTLINE_LEGEND = {"reach": "where the move may take it", "charge": "charger squared up",
                  "command": "command radius"}


def table_legend(kinds: set[str], colours: dict[str, RGB], sights: bool, ranges: bool,
                 vis: bool, size: int = 20, outlines: Iterable[str] = (), officers: bool = False
                 ) -> list[tuple[Image.Image, str]]:
    out: list[tuple[Image.Image, str]] = []
    for k, (fill, pattern, ink, width) in TABLE_STYLES.items():
        if k in kinds:
            out.append((line_swatch(size, ink, max(3, width * 1.5)) if width else
                        swatch(size, fill, pattern, ink), k))
    for side, col in colours.items():
        out.append((marker_swatch(size, col, "square"), side))
    if officers:
        out.append((marker_swatch(size, (255, 255, 255), "circle"), "officer (side's colour)"))
    if vis:
        out.append((line_swatch(size, (0, 0, 0), 2, (4, 3)), "visibility limit"))
    if sights:
        out += [(line_swatch(size, OVERLAY["los clear"], 4), "sees"),
                (line_swatch(size, OVERLAY["hindrance"], 4, (5, 3)), "partly blocked, sees"),
                (line_swatch(size, OVERLAY["los blocked"], 4, (5, 3)), "cannot see")]
    if ranges:
        out.append((line_swatch(size, OVERLAY["path"], 4), "range"))
    for kind in sorted(outlines):
        out.append((swatch(size, OUTLINE_COLOURS.get(kind, OVERLAY["reach"]), None, (0, 0, 0)),
                    OUTLINE_LEGEND.get(kind, kind)))
    return out
