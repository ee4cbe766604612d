#!/usr/bin/env python3
"""hexwx's overlays against VASL's (``$HEXWX_VASL_DIR/overlay-refs``): placement, and the
terrain and level of every pixel under each overlay and of every hex it touches.

Pixels are counted by what VASL did with them (the refs' ``how`` raster): transparent and left
alone, transparent but spread into (VASL's margin spreading, which hexwx does not copy), opaque
with a colour VASL's table knows, opaque with an unknown colour (outlines, dots).

    HEXWX_VASL_DIR=../shared/vasl python tools/overlay_conformance.py
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

from hexwx.io.load import load_map
from hexwx.io.overlays import parse_overlay, place

KINDS = {1: "transparent", 2: "spread by VASL", 3: "known colour", 4: "unknown colour"}


def _runs(rows: list[list[int]], width: int) -> np.ndarray:
    return np.array([np.repeat(r[0::2], r[1::2]) for r in rows]).T


def main() -> int:
    vdir = os.environ.get("HEXWX_VASL_DIR")
    if not vdir:
        print("set HEXWX_VASL_DIR to VASL's reference data (overlay-refs/)", file=sys.stderr)
        return 2
    for f in sorted((Path(vdir) / "overlay-refs").glob("*.json")):
        ref = json.loads(f.read_text())
        pl = ref["placement"]
        p = place(parse_overlay(f"{pl['name']} {pl['hex1']} {pl['hex2']}"), board=pl["board"],
                  vasl_dir=vdir)
        placed = [p.x, p.y, p.width, p.height] == pl["bounds_board"] and p.orientation == pl["orientation"]
        persist = bool(pl.get("persist_elevation_flag") or ref.get("persist_game"))
        m = load_map(f"{pl['board']}+{pl['name']}:{pl['hex1']}:{pl['hex2']}" + (":persist" if persist else ""))
        px = ref["pixels"]
        w, h = px["width"], px["height"]
        x0, y0 = px["origin_board"]
        how = _runs(px["how_rle"], w)
        vt, ve = _runs(px["terrain_rle"], w), _runs(px["elevation_rle"], w)
        W, H = m.terrain.shape                 # (the part on the overlay's own board only)
        cut = (slice(max(-x0, 0), min(w, W - x0)), slice(max(-y0, 0), min(h, H - y0)))
        how, vt, ve = how[cut], vt[cut], ve[cut]
        t = m.terrain[max(x0, 0):min(x0 + w, W), max(y0, 0):min(y0 + h, H)]
        e = m.elevation[max(x0, 0):min(x0 + w, W), max(y0, 0):min(y0 + h, H)]
        print(f"{f.stem}: placement {'same as VASL' if placed else 'DIFFERS'} "
              f"({pl['image']} at {pl['bounds_board'][:2]})")
        for k, what in KINDS.items():
            sel = how == k
            if sel.any():
                print(f"   {what:15s} {sel.sum():7d} px: terrain agrees {np.mean(t[sel] == vt[sel]):7.2%}, "
                      f"level agrees {np.mean(e[sel] == ve[sel]):7.2%}")
        same_t = same_b = 0
        hexes = [hx for hx in ref["hexes"] if str(hx.get("board", pl["board"])) == str(pl["board"])]
        for hx in hexes:
            i = m.grid.parse(hx["hex"])
            same_t += m.table[int(m.hexes.centre_raw[i])].name == hx["center_terrain"]
            same_b += int(m.hexes.base[i]) == hx["center_elevation"]
        n = len(hexes)
        print(f"   hexes touched   {n:7d}: centre terrain agrees {same_t}, centre level agrees {same_b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
