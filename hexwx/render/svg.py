"""SVG pictures of hex maps: the base picture embedded as an image, the overlays as vectors.

``map_svg(m, los=..., viewshed=..., path=..., reach=..., exposure=..., weather=...)`` draws the
map without overlays with :func:`hexwx.render.hexmap.render_map` (terrain or the VASL board's
own art, weather shading, hex ids), embeds it as a PNG, and draws every overlay on top as SVG
elements that stay sharp at any zoom and carry ``data-*`` attributes (hex, DRM, kind, cost)
for scripts: the LOS thread and blocking point, hindrance and LV badges, viewshed, exposure
and reach fills with their numbers, the path with cumulative costs.  The caption is printed
under the map as text.  Colours and shapes are those of the PNG (docs/rendering.md).
"""
from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, Sequence
from xml.sax.saxutils import escape

import numpy as np

from hexwx.hexmap.board import HexMap
from hexwx.render.hexmap import (MapOptions, hindrance_place, is_lv, path_caption, reach_caption,
                                 exposure_caption, los_caption, make_view, reach_costs, render_map,
                                 viewshed_caption)
from hexwx.render.style import OVERLAY

if TYPE_CHECKING:
    from hexwx.lineofsight.engine import LosResult, Viewshed
    from hexwx.lineofsight.exposure import Exposure
    from hexwx.movement.paths import MovePath, Reach


def _rgb(c: Sequence[int], a: float | None = None) -> str:
    return f"rgb({c[0]},{c[1]},{c[2]})" if a is None else f"rgba({c[0]},{c[1]},{c[2]},{a:.3f})"


def map_svg(m: HexMap, options: MapOptions | None = None, /, **changes: object) -> str:
    """The SVG text of ``m`` with the answers ``options`` names (as :func:`map_svg_parts`)."""
    return map_svg_parts(m, options, **changes)[0]


def map_svg_parts(m: HexMap, options: MapOptions | None = None, /,
                  **changes: object) -> tuple[str, str]:
    """(SVG text, caption) of ``m`` with the given overlays (see the module docstring): the
    caption is the one a PNG render prints, made in the same pass.  The options' ``counters``
    are drawn on the base picture as a PNG render draws them."""
    o = (options or MapOptions()).but(**changes) if changes else (options or MapOptions())
    los, viewshed, path, reach, exposure = o.los, o.viewshed, o.path, o.reach, o.exposure
    scale, window = o.scale, o.window
    base = render_map(m, MapOptions(weather=o.weather, background=o.background, scale=scale,
                                    window=window, hex_ids=o.hex_ids, legend=False, title=o.title,
                                    counters=o.counters))
    view = make_view(m, scale=scale, window=window)     # (the render's own view: its edges)
    W, H = base.image.size
    k = view.scale

    def P(x: float, y: float) -> tuple[float, float]:
        fx, fy = ((view.x1 - x, view.y1 - y) if view.turned else (x - view.x0, y - view.y0))
        return round(fx * k, 2), round(fy * k, 2)

    def hexpts(h: int) -> str:
        return " ".join(f"{a},{b}" for a, b in (P(x, y) for x, y in m.grid.corners(h)))

    g = m.grid
    inside = [h for h in range(len(m)) if view.sees(float(g.centre_x[h]), float(g.centre_y[h]), 0)]
    out: list[str] = []
    captions = [line for line in base.caption.splitlines()]
    fs = max(9.0, 13 * k)

    def text(x: float, y: float, s: str, cls: str = "num") -> None:
        out.append(f'<text class="{cls}" x="{x}" y="{y}">{escape(s)}</text>')

    if viewshed is not None:
        blocked = np.asarray(viewshed.blocked, bool)
        drm = np.asarray(viewshed.drm, np.int32)
        out.append('<g class="viewshed">')
        for h in inside:
            if blocked[h]:
                out.append(f'<polygon points="{hexpts(h)}" fill="{_rgb(OVERLAY["viewshed hidden"], .5)}" '
                           f'data-hex="{g.name(h)}" data-seen="0"/>')
            elif drm[h] > 0:
                out.append(f'<polygon points="{hexpts(h)}" fill="{_rgb(OVERLAY["viewshed hindered"], min(.75, .2 + .12 * int(drm[h])))}" '
                           f'data-hex="{g.name(h)}" data-drm="{int(drm[h])}"/>')
                text(*P(*g.centre(h)), f"+{int(drm[h])}")
        out.append("</g>")
        src = m.parse(viewshed.source)
        captions.append(viewshed_caption(m, viewshed, src, viewshed.level))
    if exposure is not None:
        count = np.asarray(exposure.count, np.int32)
        top = max(1, int(count.max()))
        out.append('<g class="exposure">')
        for h in inside:
            c = int(count[h])
            if c < 0:
                continue
            alpha = 0.0 if c == 0 else .12 + .6 * c / top
            out.append(f'<polygon points="{hexpts(h)}" fill="{_rgb(OVERLAY["exposure"], alpha)}" '
                       f'data-hex="{g.name(h)}" data-count="{c}"/>')
            text(*P(*g.centre(h)), str(c))
        out.append("</g>")
        captions.append(exposure_caption(exposure))
    if reach is not None:
        costs = reach_costs(m, reach)
        out.append('<g class="reach">')
        for h, cost in costs.items():
            out.append(f'<polygon points="{hexpts(h)}" fill="{_rgb(OVERLAY["reach"], .45)}" '
                       f'data-hex="{g.name(h)}" data-cost="{cost:g}"/>')
            text(*P(*g.centre(h)), f"{cost:g}")
        out.append("</g>")
        captions.append(reach_caption(m, reach, m.parse(reach.start)))
    if path is not None and path.found and path.hexes:
        pts = [P(*g.centre(m.parse(h))) for h in path.hexes]
        out.append(f'<polyline class="path" points="{" ".join(f"{a},{b}" for a, b in pts)}" '
                   f'fill="none" stroke="{_rgb(OVERLAY["path"])}" stroke-width="{6 * k}" '
                   'stroke-linejoin="round" stroke-linecap="round"/>')
        total = 0.0
        for st, (x, y) in zip(path.steps, pts[1:]):
            total += st.cost or 0
            label = "all" if st.all_mf else f"{total:g}"
            out.append(f'<circle cx="{x}" cy="{y}" r="{13 * k}" fill="white" '
                       f'stroke="{_rgb(OVERLAY["path"])}" stroke-width="{2.5 * k}" data-hex="{st.to}" '
                       f'data-cost="{label}"/>')
            text(x, y, label)
    if path is not None:
        captions.append(path_caption(path))
    if los is not None:
        pa, pb = P(*g.centre(m.parse(los.source))), P(*g.centre(m.parse(los.target)))
        clear, red = _rgb(OVERLAY["los clear"]), _rgb(OVERLAY["los blocked"])
        lw = 5 * k
        if los.blocked and los.blocked_at:
            pt = P(*los.blocked_at)
            out.append(f'<line class="los" x1="{pa[0]}" y1="{pa[1]}" x2="{pt[0]}" y2="{pt[1]}" stroke="{clear}" stroke-width="{lw}"/>')
            out.append(f'<line class="los-after" x1="{pt[0]}" y1="{pt[1]}" x2="{pb[0]}" y2="{pb[1]}" stroke="{red}" '
                       f'stroke-width="{lw}" stroke-dasharray="{12 * k} {7 * k}"/>')
            rr = 10 * k
            out.append(f'<circle class="blocking-point" cx="{pt[0]}" cy="{pt[1]}" r="{rr}" fill="{red}" stroke="white" '
                       f'stroke-width="{2 * k}" data-hex="{los.blocking_hex or ""}"/>')
            h2 = rr / 2
            out.append(f'<path d="M{pt[0] - h2},{pt[1] - h2}L{pt[0] + h2},{pt[1] + h2}M{pt[0] + h2},'
                       f'{pt[1] - h2}L{pt[0] - h2},{pt[1] + h2}" stroke="white" stroke-width="{3 * k}"/>')
        else:
            lcol = red if los.blocked else clear
            out.append(f'<line class="los" x1="{pa[0]}" y1="{pa[1]}" x2="{pb[0]}" y2="{pb[1]}" stroke="{lcol}" stroke-width="{lw}"/>')
        if not (los.blocked and los.blocked_at):
            seen: dict[str, int] = {}
            for hd in los.hindrances:
                if not hd.hex:
                    continue
                _hs, (cx, cy) = hindrance_place(m, hd.hex)
                n = seen.get(hd.hex, 0)
                seen[hd.hex] = n + 1
                x, y = P(cx + (14 if n % 2 == 0 else -14), cy + 16 + 14 * (n // 2))
                lv = is_lv(hd.kind)
                bcol = OVERLAY["lv" if lv else "hindrance"]
                br = 11 * k
                shape = (f'<circle cx="{x}" cy="{y}" r="{br}"' if lv else
                         f'<rect x="{x - br}" y="{y - br}" width="{2 * br}" height="{2 * br}"')
                out.append(f'<g class="badge" data-hex="{escape(hd.hex)}" data-drm="{hd.drm}" '
                           f'data-kind="{"lv" if lv else "hindrance"}">{shape} fill="{_rgb(bcol, .55)}" '
                           f'stroke="{_rgb(bcol)}" stroke-width="{3 * k}"/>'
                           f'<text class="num" x="{x}" y="{y}">+{hd.drm}</text>'
                           f'<title>{escape(hd.explain())}</title></g>')
        captions.append(los_caption(los))
    cap_lines = [c for block in captions for c in block.splitlines()] if o.legend else []
    line_h = 18
    total_h = H + (len(cap_lines) * line_h + 12 if cap_lines else 0)
    png = base64.b64encode(base.to_png()).decode("ascii")
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{total_h}" '
            f'viewBox="0 0 {W} {total_h}" font-family="sans-serif">'
            f'<style>.num{{font-size:{fs:.1f}px;font-weight:bold;text-anchor:middle;'
            'dominant-baseline:central;paint-order:stroke;stroke:white;stroke-width:3px}'
            '.cap{font-size:13px}</style>'
            f'<title>{escape(captions[0] if captions else m.name)}</title>'
            f'<rect width="{W}" height="{total_h}" fill="white"/>'
            f'<image href="data:image/png;base64,{png}" x="0" y="0" width="{W}" height="{H}"/>')
    caps = [f'<text class="cap" x="8" y="{H + 16 + i * line_h}">{escape(c)}</text>'
            for i, c in enumerate(cap_lines)]
    return head + "".join(out) + "".join(caps) + "</svg>\n", "\n".join(captions)
