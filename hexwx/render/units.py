"""Units drawn on hex maps: a counter per unit, coloured by side, with its id.

Reads unit objects only (``id``, ``side``, ``hex``, ``kind``, e.g.
:class:`hexwx.io.scenario.ScenarioUnit`).  Units sharing a hex are stacked with a small offset,
as counters are on the board; past :data:`MAX_SHOWN` in one hex a ``+N`` badge says how many
more.  Infantry is a square counter, vehicles a rounded one, other pieces (markers, support
weapons) a small grey one.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Iterator

from PIL import ImageDraw

from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import HEX_WIDTH_PX
from hexwx.render.style import OI, RGB, Marker, font, halo_text
from hexwx.render.style import side_colours as style_side_colours

NO_SIDE: RGB = (150, 150, 150)
MAX_SHOWN = 4
COUNTER_PX = 24.0      # counter size in map pixels (a hex is 64.5 high)
STACK_OFFSET_PX = 5.0


def side_colours(units: Iterable[Any]) -> dict[str, RGB]:
    """The colour of each side among ``units`` (the one palette: :func:`style.side_colours`)."""
    return style_side_colours(getattr(u, "side", "") or "" for u in units
                              if getattr(u, "side", ""))


def visible_stacks(m: HexMap, view: Any, pieces: Iterable[Any]
                   ) -> Iterator[tuple[float, float, list[Any]]]:
    """(hex centre x, y, the pieces there in order) of every hex holding ``pieces`` (anything
    with a ``hex``) that the view shows."""
    by_hex: dict[int, list[Any]] = defaultdict(list)
    for p in pieces:
        by_hex[m.parse(p.hex)].append(p)
    for h, here in by_hex.items():
        x, y = m.grid.centre(h)
        if view.sees(x, y, HEX_WIDTH_PX):
            yield x, y, here


def draw_units(d: ImageDraw.ImageDraw, m: HexMap, view: Any, units: Iterable[Any]) -> list[Marker]:
    """Draw ``units`` on canvas ``d``; one :class:`Marker` per unit drawn (at its counter)."""
    units = list(units)
    colours = side_colours(units)
    markers: list[Marker] = []
    k = view.k
    for x, y, here in visible_stacks(m, view, units):
        shown = here[:MAX_SHOWN]
        n = len(shown)
        for i, u in enumerate(shown):
            off = (i - (n - 1) / 2) * STACK_OFFSET_PX
            cx_m, cy_m = x + off, y + off + 4.0
            kind = getattr(u, "kind", "infantry")
            size = COUNTER_PX * (0.7 if kind == "other" else 1.0)
            colour = colours.get(getattr(u, "side", "") or "", NO_SIDE) if kind != "other" or \
                getattr(u, "side", "") else NO_SIDE
            cx, cy = view.c(cx_m, cy_m)
            half = size / 2 * k
            box = (cx - half, cy - half, cx + half, cy + half)
            if kind == "vehicle":
                d.rounded_rectangle(box, radius=half * 0.45, fill=colour, outline=(0, 0, 0),
                                    width=view.px(1.2))
            else:
                d.rectangle(box, fill=colour, outline=(0, 0, 0), width=view.px(1.2))
            markers.append(Marker("unit", str(u.id), view.final(cx_m - size / 2 + 3, cy_m - size / 2 + 3),
                                  colour, str(u.id)))
        # the ids, under the stack, one line each
        label_y = y + 4.0 + (n - 1) / 2 * STACK_OFFSET_PX + COUNTER_PX / 2 + 7
        size_px = round(9.5 * k)
        for i, u in enumerate(shown):
            halo_text(d, view.c(x, label_y + i * 11), str(u.id), size_px)
        if len(here) > MAX_SHOWN:
            more = f"+{len(here) - MAX_SHOWN}"
            cx, cy = view.c(x + COUNTER_PX * 0.9, y - COUNTER_PX * 0.5)
            d.text((cx, cy), more, font=font(round(11 * k)), fill=(0, 0, 0), anchor="mm")
    return markers


def units_caption(units: Iterable[Any]) -> str:
    """``units: Axis 4 (blue), Allied 3 (vermillion), no side 2 (grey)``."""
    units = list(units)
    colours = side_colours(units)
    names = {OI[n]: n for n in OI}
    counts: dict[str, int] = defaultdict(int)
    for u in units:
        counts[getattr(u, "side", "") or ""] += 1
    parts = [f"{s} {counts[s]} ({names.get(c, 'coloured')})" for s, c in colours.items()]
    if counts.get(""):
        parts.append(f"no side {counts['']} (grey)")
    return "units: " + ", ".join(parts)
