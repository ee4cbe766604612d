"""The terrain of a bypassed hex on its unit's own LOS (D2.3; docs/counters.md "Units in
bypass"): its obstacle blocks a LOS traced across it (tests/lineofsight/test_bypass_los.py);
its *hindrances* do not count.  VASL applies its rule chain to a non-centre Location's own hex,
but every hindrance it adds goes through one function that counts none in the source or the
target hex (``addHindranceHex``; LOS-SPEC 4.5: "only if the current hex is neither the source
nor the target"), so grain drawn in the bypassed hex never adds to the unit's LOS -- the same
rule as for a unit at the centre (LOS-SPEC 4.4: terrain in the firer's and target's own hexes
is no hindrance).  Real boards: VASL's board 4 and 6, whose grain hexes a thread from a
hexside's point crosses for dozens of pixels."""
from __future__ import annotations

import numpy as np
import pytest

import hexwx
from tests.vasl_boards import board


def _own_grain_pixels(m, h: int, side: int, tgt: int) -> int:
    """How many grain pixels of hex ``h`` itself (the raster's own hex, not its neighbours')
    the segment from ``h``'s hexside point to ``tgt``'s centre crosses (sampled finely)."""
    M = m.kernel_map
    pix = M[8]
    grain = [c for c, t in m.table.by_code.items() if t.name == "Grain"]
    x0, y0 = M[6][h, side]
    x1, y1 = m.grid.centre_x[tgt], m.grid.centre_y[tgt]
    k = np.linspace(0.0, 1.0, 1500)
    xy = np.unique(np.stack([(x0 + (x1 - x0) * k).astype(int),
                             (y0 + (y1 - y0) * k).astype(int)], 1), axis=0)
    xy = xy[(xy[:, 0] >= 0) & (xy[:, 0] < pix.shape[1]) & (xy[:, 1] >= 0) & (xy[:, 1] < pix.shape[0])]
    p = pix[xy[:, 1], xy[:, 0]]
    return int((((p >> 16) - 1 == h) & np.isin(p & 255, grain)).sum())


@pytest.mark.parametrize("name", ["bd04", "bd06"])
def test_grain_in_the_bypassed_hex_never_hinders_its_units_los(name) -> None:
    """The property over every hexside of the board's grain-filled hexes and every hex 2-5
    away whose thread from the hexside crosses 15 or more grain pixels of the bypassed hex:
    the verdict is reciprocal and, where clear, no hindrance is counted in that hex, either
    way round."""
    m = board(name)
    pix = m.kernel_map[8]
    grain = [c for c, t in m.table.by_code.items() if t.name == "Grain"]
    per_hex = np.bincount(((pix >> 16) - 1)[np.isin(pix & 255, grain)] + 1,
                          minlength=len(m) + 1)[1:]
    rng = np.random.default_rng(11)
    hexes = rng.choice(np.flatnonzero(per_hex >= 600), 4, replace=False).tolist()
    checked = hindered = 0
    for h in hexes:
        d = m.grid.distances_from(h)
        near = np.flatnonzero((d >= 2) & (d <= 5)).tolist()
        for side in np.flatnonzero(m.kernel_map[4][h, :, 0]).tolist():
            for t in near:
                if _own_grain_pixels(m, h, side, t) < 15:
                    continue
                a = hexwx.los(m, h, t, from_hexside=side)
                b = hexwx.los(m, t, h, to_hexside=side)
                assert a.blocked == b.blocked, (h, side, t)
                if a.blocked:
                    continue
                assert a.hindrance == b.hindrance, (h, side, t)
                own = m.name_of(h)
                assert all(own not in x.hex.split("/") for x in a.hindrances), (h, side, t)
                assert a.hindrance == sum(x.drm for x in a.hindrances)
                checked += 1
                hindered += int(a.hindrance > 0)
    assert checked > 100 and hindered > 0      # hindrances between the ends still count


def test_example_bd04_c1_bypassed_along_its_north_hexside() -> None:
    """Board 4: a unit bypassing grain hex C1 along its N hexside sees B4 across 40-odd grain
    pixels of C1 itself; the only hindrance is a hex between them."""
    m = board("bd04")
    c1, b4 = m.parse("C1"), m.parse("B4")
    assert m.terrain_of(c1).name == "Grain" and _own_grain_pixels(m, c1, 0, b4) >= 30
    r = hexwx.los(m, "C1", "B4", from_hexside=0)
    assert not r.blocked and r.source_location.endswith("in bypass N")
    assert r.hindrance == sum(x.drm for x in r.hindrances)
    assert all("C1" not in x.hex.split("/") and "B4" not in x.hex.split("/")
               for x in r.hindrances)
    assert r.hindrance == hexwx.los(m, "B4", "C1", to_hexside=0).hindrance
