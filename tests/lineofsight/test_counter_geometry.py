"""The two forms of the Cyrus-Beck clip of hexwx.lineofsight.counter_los agree: ``crosses`` (one
segment, the single query) and ``_crosses_many`` (many segments, the batch forms) give the same
answer on any segment and convex polygon, boundary cases included: a segment along an edge
(A6.1: a LOS along a hexside is in both hexes), through or from a vertex, parallel to an edge,
of zero length, ending on the boundary, and degenerate (flat) polygons.  Both are kept because
the scalar one is some 150x faster for one segment (a numpy call per effect would cost a
single ``los()`` more than its 1.2x budget, tools/bench_counters.py)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from hexwx.lineofsight.counter_los import Effect, _crosses_many, crosses

coord = st.floats(-200.0, 200.0, allow_nan=False, allow_infinity=False)
# on a half-unit grid: exact collinear and vertex cases, and runs of exactly MIN_RUN_PX (0.5)
small = st.integers(-80, 80).map(lambda i: i / 2)


@st.composite
def polygons(draw) -> tuple[tuple[float, float], ...]:
    """A convex polygon: a regular k-gon (hexagons most), a bypass triangle (centre and two
    adjacent corners of a hexagon), an integer-grid hexagon, or a flat (zero-area) one."""
    shape = draw(st.sampled_from(["regular", "hexagon", "triangle", "grid", "flat"]))
    cx, cy = draw(coord), draw(coord)
    r = draw(st.floats(0.5, 80.0))
    rot = draw(st.floats(0.0, 2 * math.pi))
    if shape == "grid":
        return ((0.0, 0.0), (2.0, 0.0), (3.0, 1.0), (2.0, 2.0), (0.0, 2.0), (-1.0, 1.0))
    if shape == "flat":
        return ((cx, cy), (cx + r, cy), (cx + 2 * r, cy))
    k = 6 if shape in ("hexagon", "triangle") else draw(st.integers(3, 9))
    pts = tuple((cx + r * math.cos(rot + 2 * math.pi * i / k),
                 cy + r * math.sin(rot + 2 * math.pi * i / k)) for i in range(k))
    if shape == "triangle":
        i = draw(st.integers(0, 5))
        return ((cx, cy), pts[i], pts[(i + 1) % 6])
    return pts


@st.composite
def segments(draw, poly: tuple[tuple[float, float], ...]) -> tuple[float, float, float, float]:
    """A segment: random, along an edge's line, from or through a vertex, parallel to an axis,
    a point, or from a point inside to one on the boundary."""
    how = draw(st.sampled_from(["random", "grid", "edge", "vertex", "through", "axis",
                                "point", "boundary"]))
    k = len(poly)
    i = draw(st.integers(0, k - 1))
    (ax, ay), (bx, by) = poly[i], poly[(i + 1) % k]
    s = draw(st.floats(-3.0, 3.0))
    u = draw(st.floats(-3.0, 3.0))
    if how == "random":
        return draw(coord), draw(coord), draw(coord), draw(coord)
    if how == "grid":
        return draw(small), draw(small), draw(small), draw(small)
    if how == "edge":          # on the edge's line, maybe beyond its ends
        return ax + s * (bx - ax), ay + s * (by - ay), ax + u * (bx - ax), ay + u * (by - ay)
    if how == "vertex":        # from a vertex outwards or inwards
        return ax, ay, draw(coord), draw(coord)
    if how == "through":       # through a vertex: the vertex lies between the ends
        dx, dy = draw(coord), draw(coord)
        return ax - dx * abs(s), ay - dy * abs(s), ax + dx, ay + dy
    if how == "axis":          # horizontal or vertical: edges parallel to it give den == 0
        y = draw(st.sampled_from([ay, by, draw(coord)]))
        x0, x1 = draw(coord), draw(coord)
        return (x0, y, x1, y) if draw(st.booleans()) else (y, x0, y, x1)
    if how == "point":
        x, y = draw(st.sampled_from([(ax, ay), (draw(coord), draw(coord))]))
        return x, y, x, y
    mx, my = sum(p[0] for p in poly) / k, sum(p[1] for p in poly) / k   # inside to boundary
    t = draw(st.floats(0.0, 1.0))
    return mx, my, ax + t * (bx - ax), ay + t * (by - ay)


@st.composite
def cases(draw):
    poly = draw(polygons())
    segs = draw(st.lists(segments(poly), min_size=1, max_size=12))
    return poly, segs


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
@example(((((0.0, 0.0), (2.0, 0.0), (3.0, 1.0), (2.0, 2.0), (0.0, 2.0), (-1.0, 1.0)),
           [(0.0, 0.0, 0.5, 0.0), (1.0, 1.0, 1.5, 1.0), (0.0, 1.0, 0.0, 1.0)])))
def test_scalar_and_vectorised_clips_agree(case) -> None:
    poly, segs = case
    e = Effect(0, "x", "smoke", 3, 0, 2, "A24", 0, poly)
    a = np.array(segs, dtype=float)
    many = _crosses_many(e, a[:, 0], a[:, 1], a[:, 2], a[:, 3])
    one = [crosses(e.edges, *s) for s in segs]
    assert many.tolist() == one, (poly, segs)


@settings(max_examples=200, deadline=None)
@given(polygons(), st.integers(0, 8), st.floats(0.05, 0.95))
def test_a_segment_along_an_edge_crosses_and_one_through_a_vertex_only_does_not(
        poly, i, t) -> None:
    """The boundary cases both forms share: along an edge (longer than MIN_RUN_PX) is in; a
    segment that touches a regular polygon at one vertex only, pointing away, is not."""
    assume(len({(round(x, 6), round(y, 6)) for x, y in poly}) == len(poly))
    e = Effect(0, "x", "smoke", 3, 0, 2, "A24", 0, poly)
    k = len(poly)
    (ax, ay), (bx, by) = poly[i % k], poly[(i + 1) % k]
    assume(math.hypot(bx - ax, by - ay) > 2.0)
    area = sum(poly[j][0] * poly[(j + 1) % k][1] - poly[(j + 1) % k][0] * poly[j][1]
               for j in range(k))
    assume(abs(area) > 1.0)
    assert crosses(e.edges, ax, ay, bx, by)
    assert _crosses_many(e, *(np.array([v]) for v in (ax, ay, bx, by))).tolist() == [True]
    mx, my = sum(p[0] for p in poly) / k, sum(p[1] for p in poly) / k
    ox, oy = ax + (ax - mx) * t * 3, ay + (ay - my) * t * 3     # outwards from vertex a
    assert not crosses(e.edges, ax, ay, ox, oy)
    assert _crosses_many(e, *(np.array([v]) for v in (ax, ay, ox, oy))).tolist() == [False]
