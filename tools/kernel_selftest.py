#!/usr/bin/env python3
"""The Python half of the kernel's stand-alone self-test (tools/kernel_selftest.c).

    python tools/kernel_selftest.py write DIR [MAP]   # the map's kernel arrays for the C program
    python tools/kernel_selftest.py check DIR [MAP]   # its answers against this package's kernel

``write`` stores the kernel arrays of MAP (default maps/hill_village.toml, which needs no VASL
data) at ground level with fog at level 0, and a few thousand pairs; ``check`` compares what
the C program wrote (every pair of the all-pairs matrix, and trace_many's pairs with their
blocking pixels and fog LV) byte for byte with what :mod:`hexwx._native` answers here.
tools/check_portable_kernel.sh builds the C program for Windows and runs it under Wine, so a
Windows build of the kernel is checked against the Linux one.  Exit 0 when identical.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexwx import _native as K  # noqa: E402
from hexwx.io.load import load_map  # noqa: E402

#: The KMap arrays in the order of hexwx._native's packed tuples, with their file names.
_MAP_ARRAYS = ("hex_at", "hx", "h6", "ext", "loc", "bbox", "pix")
_TERRAIN_ARRAYS = ("ta", "split", "fast")


def _case(map_path: str) -> tuple[object, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The map, elevations (ground level), fog spec (fog at level 0: top 1) and the pairs."""
    m = load_map(map_path)
    elev = np.ascontiguousarray(m.hexes.base, np.int64)
    fog = K.fog_spec(int(elev.min()) + 1, drm=1)
    n = len(m)
    rng = np.random.default_rng(21)
    k = min(5000, n * n)
    return m, elev, fog, rng.integers(0, n, k).astype(np.int64), rng.integers(0, n, k).astype(np.int64)


def write(folder: Path, map_path: str) -> None:
    m, elev, fog, src, tgt = _case(map_path)
    p = K._prepared(m.kernel_map, m.kernel_terrain)  # type: ignore[attr-defined]
    if p.frame_arrays:
        raise SystemExit(f"{map_path}: a map with turned boards (frames) is not supported here")
    folder.mkdir(parents=True, exist_ok=True)
    for name, a in zip(_MAP_ARRAYS + _TERRAIN_ARRAYS, p.arrays):
        a.tofile(folder / f"{name}.bin")
    for name, a in (("elev", elev), ("fog", fog), ("src", src), ("tgt", tgt)):
        a.tofile(folder / f"{name}.bin")
    width, height = p.arrays[0].shape
    capacity = m.thread_capacity  # type: ignore[attr-defined]
    (folder / "meta.txt").write_text(f"{p.n} {width} {height} {capacity} {len(src)}\n")
    print(f"kernel_selftest: {map_path}, {p.n} hexes, {len(src)} pairs written to {folder}")


def check(folder: Path, map_path: str) -> int:
    m, elev, fog, src, tgt = _case(map_path)
    M, T, capacity = m.kernel_map, m.kernel_terrain, m.thread_capacity  # type: ignore[attr-defined]
    n = len(elev)
    reasons, totals, lv = K.all_pairs_matrix(M, T, elev, capacity, threads=1, fog=fog)
    r, t, where, mlv = K.trace_many(M, T, src, tgt, elev[src], elev[tgt], capacity, where=True,
                                    threads=1, fog=fog)
    want = {"reasons": reasons, "totals": totals, "lv": lv, "many_reasons": r,
            "many_totals": t, "many_where": where, "many_lv": mlv}
    bad = []
    for name, a in want.items():
        path = folder / f"out_{name}.bin"
        got = np.fromfile(path, a.dtype) if path.exists() else None
        if got is None or got.tobytes() != np.ascontiguousarray(a).tobytes():
            bad.append(name)
    blocked = int((reasons != 0).sum())
    if bad:
        print(f"kernel_selftest: DIFFERENT from this build's kernel: {', '.join(bad)}")
        return 1
    print(f"kernel_selftest: identical to this build's kernel ({n * n} ordered pairs, "
          f"{blocked} blocked; {len(src)} single pairs)")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=("write", "check"))
    ap.add_argument("folder", type=Path)
    ap.add_argument("map", nargs="?", default=str(ROOT / "maps" / "hill_village.toml"))
    args = ap.parse_args(argv)
    if args.action == "write":
        write(args.folder, args.map)
        return 0
    return check(args.folder, args.map)


if __name__ == "__main__":
    sys.exit(main())
