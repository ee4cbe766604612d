#!/usr/bin/env python3
"""The size of the on-disk map cache after loading one layout from several files (issue #27).

    python tools/bench_cache_content.py                    # this checkout
    python tools/bench_cache_content.py --hexwx /work/main # another checkout, for a before/after

Loads the layout of VASL's Hube's Pocket save (``r05/r02/r04``) three ways, each in a fresh
``hexwx los`` process with an empty cache folder of its own at the start: the layout text, a
map file laying out the same boards (``[map] vasl_boards``) and the save itself; then prints the
cache folder's files and total size after each.  With the map keyed by content the three
share one entry; keyed by the file that named it, each adds one.  Needs ``$HEXWX_VASL_DIR``.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_size(d: Path) -> tuple[int, int]:
    files = [f for f in d.iterdir() if f.is_file()]
    return len(files), sum(f.stat().st_size for f in files)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hexwx", default=str(ROOT), help="the checkout whose hexwx to run")
    args = ap.parse_args()
    vasl = os.environ.get("HEXWX_VASL_DIR")
    if not vasl:
        print("set HEXWX_VASL_DIR to VASL's reference data", file=sys.stderr)
        return 2
    save = Path(vasl) / "saves" / "hubes-pocket.vsav"
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        mapfile = Path(tmp) / "pocket.toml"
        mapfile.write_text('[map]\nname = "pocket"\nvasl_boards = [["r05"], ["r02"], ["r04"]]\n')
        env = {**os.environ, "PYTHONPATH": args.hexwx, "HEXWX_CACHE_DIR": str(cache)}
        env.pop("HEXWX_NO_CACHE", None)
        for what in ("r05/r02/r04", str(mapfile), str(save)):
            got = subprocess.run([sys.executable, "-m", "hexwx", "los", what, "5A1", "4C3"],
                                 capture_output=True, text=True, env=env, cwd=tmp)
            if got.returncode not in (0, 1):
                print(got.stderr, file=sys.stderr)
                return 1
            n, size = folder_size(cache)
            print(f"after {Path(what).name:<18} {n:2d} files, {size / 2**20:6.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
