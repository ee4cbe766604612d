"""Counters drawn on hex maps: a small labelled tile per counter in its hex (docs/counters.md).

Reads :class:`~hexwx.lineofsight.counters.Counter` objects only (``name``, ``hex``, ``level``,
``kind``).  The tiles sit at the left of their hex, one under another, each kind with its
colour and a short code: ``S3`` SMOKE +3, ``B3`` Blaze, ``V`` vehicle, ``W`` wreck, ``R``
rubble, ``E`` entrenchment, ``F`` FFE, ``L2`` a Building Level 2 marker.  The counters a LOS
meets carry their DRM badge on the thread (:func:`hexwx.render.hexmap.draw_los`).
"""
from __future__ import annotations

from collections import Counter as Tally
from typing import Any, Iterable

from PIL import ImageDraw

from hexwx.hexmap.board import HexMap
from hexwx.render.style import OI, RGB, Marker, font
from hexwx.render.units import visible_stacks

#: Tile colour per counter kind.
KIND_COLOURS: dict[str, RGB] = {
    "smoke": (205, 205, 205), "blaze": OI["vermillion"], "vehicle": (60, 60, 60),
    "wreck": (110, 90, 70), "rubble": (150, 120, 90), "entrenchment": (200, 170, 110),
    "oba": OI["reddish purple"], "location": (250, 250, 250), "no effect": (230, 230, 230)}
TILE_PX = 15.0           # tile size in map pixels
TILE_OFFSET_PX = (-23.0, -8.0)   # the left of the hex: the id is above, units at the centre


def code(c: Any) -> str:
    """The short code of a counter's tile."""
    t = c.type
    if t.kind in ("smoke", "blaze"):
        return f"{'S' if t.kind == 'smoke' else 'B'}{t.drm}"
    if t.kind == "location":
        return "RF" if t.level is None else f"L{t.level}"
    return {"vehicle": "V", "wreck": "W", "rubble": "R", "entrenchment": "E", "oba": "F"}.get(
        t.kind, "-")


def draw_counters(d: ImageDraw.ImageDraw, m: HexMap, view: Any,
                  counters: Iterable[Any]) -> list[Marker]:
    """Draw ``counters`` on canvas ``d``; one :class:`Marker` (kind ``counter``) per tile."""
    markers: list[Marker] = []
    k = view.k
    for x, y, here in visible_stacks(m, view, counters):
        for i, c in enumerate(here):
            cx_m = x + TILE_OFFSET_PX[0]
            cy_m = y + TILE_OFFSET_PX[1] + i * (TILE_PX + 1)
            colour = KIND_COLOURS.get(c.kind, (230, 230, 230))
            cx, cy = view.c(cx_m, cy_m)
            half = TILE_PX / 2 * k
            d.rectangle((cx - half, cy - half, cx + half, cy + half), fill=colour,
                        outline=(0, 0, 0), width=view.px(1.0))
            ink = (255, 255, 255) if sum(colour) < 300 else (0, 0, 0)
            d.text((cx, cy + half * 0.25), code(c), font=font(round(7.5 * k)), fill=ink,
                   anchor="mm")
            markers.append(Marker("counter", f"{c.name}@{c.hex}",
                                  view.final(cx_m - TILE_PX / 2 + 1.5, cy_m - TILE_PX / 2 + 1.5),
                                  colour, c.name))
    return markers


def counters_caption(counters: Iterable[Any]) -> str:
    """``counters: 2 smoke, 1 wreck, 1 vehicle``."""
    tally = Tally(c.kind for c in counters)
    return "counters: " + ", ".join(f"{n} {k}" for k, n in tally.items())
