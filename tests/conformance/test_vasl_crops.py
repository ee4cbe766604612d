"""Cropped boards against VASL's own answers (``$HEXWX_VASL_DIR/crops``), built from the very
``bd`` command text each golden came from (issue #24 item 1).

Every layout there is checked: the hexes of the map are VASL's (by every board's name for
them), ranges equal VASL's, and blocked/clear and the hindrance total agree on >= 99.9 % of
the pairs VASL answers.  Where they differ it is VASL's crop artefacts (new map edges, the
raster VASL misplaces by a pixel: crops/README.md), not the boards: hexwx keeps every hex's
printed terrain (docs/vasl-conformance.md).
"""
from __future__ import annotations

import csv
import gzip
from pathlib import Path

import numpy as np
import pytest

from hexwx import _native as K
from hexwx.io.vsav_import import board_command_map

from vasl_boards import vasl_dir


def crop_layouts() -> list[str]:
    import os
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "crops").is_dir():
        return ["bd02_rows_A-P"]     # (skips below, naming the variable)
    return sorted(p.name[:-len(".bd.txt")] for p in (Path(env) / "crops").glob("*.bd.txt"))


@pytest.mark.parametrize("name", crop_layouts())
def test_crop_agrees_with_vasl(name: str) -> None:
    d = vasl_dir() / "crops"
    if not (d / f"{name}.csv.gz").is_file():
        pytest.skip(f"no golden {d / name}.csv.gz")
    cmd = (d / f"{name}.bd.txt").read_text()
    m = board_command_map(cmd, source=name, vasl_dir=vasl_dir(),
                          vasl_metadata=vasl_dir() / "SharedBoardMetadata.xml")
    with open(d / f"{name}.hexes.csv", newline="") as fh:
        hexes = list(csv.DictReader(fh))
    # the same hexes: every name VASL gives a hex names one hex of ours, and no two
    ids = {h["hex"]: {m.parse(a) for a in h["aliases"].split("|")} for h in hexes}
    assert all(len(v) == 1 for v in ids.values())
    assert sorted(i for v in ids.values() for i in v) == list(range(len(m)))
    with gzip.open(d / f"{name}.csv.gz", "rt", newline="") as fh:
        rows = list(csv.DictReader(fh))
    src = np.array([m.parse(r["src"]) for r in rows])
    tgt = np.array([m.parse(r["tgt"]) for r in rows])
    rng = np.array([int(r["range"] or -1) for r in rows])
    known = rng >= 0
    assert np.array_equal(m.grid.ranges(src, tgt)[known], rng[known])
    reasons, totals = K.all_pairs_matrix(m.kernel_map, m.kernel_terrain,
                                         m.hexes.base.astype(np.int64), m.thread_capacity)
    vb = np.array([r["blocked"] for r in rows])
    ok = vb != "E"
    ours = reasons[src, tgt] != 0
    agree = (ours == (vb == "1"))[ok].mean()
    clear = ok & (vb == "0") & ~ours
    v_hind = np.array([int(r["hindrance"] or -1) for r in rows])
    h_agree = (totals[src, tgt] == v_hind)[clear].mean()
    assert agree >= 0.999 and h_agree >= 0.999, (name, agree, h_agree)
