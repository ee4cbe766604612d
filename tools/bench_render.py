"""Benchmark rendering: drawing in process, and whole ``hexwx render`` runs in fresh processes.

    python tools/bench_render.py [MAP] [--repeat N]          # drawing only, in process
    python tools/bench_render.py --fresh [--board bd02] [--rounds 9] [--more]

In process (default): MAP defaults to maps/hill_village.toml.  Times: the first render (cold:
fonts, palettes, pattern tables) and the median of N warm renders, for the plain map and for the
map with a LOS thread, a viewshed, a path, a reach and fog + snow + drifts.  The LOS, viewshed
and movement results are computed once beforehand (they are not rendering).

``--fresh`` (issue #16's target: one board's render <= 2x a Pillow decode + encode of the same
image): each round starts fresh interpreters, interleaved so that load on a shared machine
hits them alike, with .pyc files written and reused as for a user, and a map cache of their own (a temporary
folder, filled by the warm-up run):

* ``pillow``: ``Image.open(ART).save(OUT)``, ART being the board's own art (the GIF in its
  archive) saved once as an RGB PNG of 1800 x 645 (the mode and size of a render);
* ``pillow P``: the same with the art kept as a palette PNG (cheaper: one byte a pixel);
* ``render``: ``hexwx render BOARD -o OUT.png``;
* ``import numpy`` (the start-up every render pays);
* ``render, no cache``: the same with ``HEXWX_NO_CACHE=1`` (the board decoded and every layer
  drawn, as the first render of a board on a machine does);
* ``floor``: ``import numpy`` (with one OpenBLAS thread, as the command line asks) and
  Pillow's drawing modules, then encode the render's own image with hexwx's PNG writer (its
  pixels read raw from a file): the least a render can cost, before reading a board or drawing
  anything;
* with ``--more``: ``hexwx render maps/hill_village.toml`` and a 2 x 2 layout of boards.

Prints each median and the median of the per-round ratios render / pillow.  Needs
``$HEXWX_VASL_DIR``.
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from bench_startup import ENV, interleaved, print_medians  # noqa: E402  (fresh runs, as a user's)


def timed(fn, repeat: int) -> tuple[float, float]:
    t = time.perf_counter()
    fn()
    cold = time.perf_counter() - t
    warm = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        warm.append(time.perf_counter() - t)
    return cold, statistics.median(warm)


def in_process(args: argparse.Namespace) -> int:
    from hexwx.io.load import load_map
    from hexwx.lineofsight.engine import los, viewshed
    from hexwx.movement.paths import path, reach
    from hexwx.render.core import render_map
    from hexwx.weather.asl.state import AslWeather, Drift
    m = load_map(args.map)
    m.hexes, m.geometry.hex_at  # derived data is map loading, not rendering
    w = AslWeather(fog_level=0, ground_snow=True, drifts=(Drift("E5", 2),))
    res = los(m, *args.los, weather=w)
    vs = viewshed(m, args.src, weather=w)
    p = path(m, args.los[0], args.los[1], unit="infantry", weather=w)
    rc = reach(m, args.src, unit="infantry", mf=4, weather=w)
    cases = {
        "plain map": lambda: render_map(m),
        "LOS + weather": lambda: render_map(m, los=res, weather=w),
        "all overlays": lambda: render_map(m, los=res, viewshed=vs, viewshed_from=args.src, path=p,
                                           reach=rc, weather=w),
        "board window 0.5x": lambda: render_map(m, los=res, window=("A1", "P10"), scale=0.5),
    }
    size = render_map(m).image.size
    print(f"map {args.map}: image {size[0]} x {size[1]} (with legend), repeat {args.repeat}")
    for name, fn in cases.items():
        cold, warm = timed(fn, args.repeat)
        print(f"  {name:<20} first {cold * 1000:6.0f} ms   median {warm * 1000:6.0f} ms")
    return 0


def board_art(board: str, out_rgb: Path, out_p: Path) -> None:
    """The board's own image from its archive, saved as an RGB and a palette PNG."""
    from PIL import Image
    archive = Path(os.environ["HEXWX_VASL_DIR"]) / "boards" / board
    with zipfile.ZipFile(archive) as zf:
        name = next(n for n in zf.namelist() if n.lower() in (f"{board}.gif", f"{board}.png"))
        art = Image.open(io.BytesIO(zf.read(name)))
        art.load()
    art.save(out_p)
    art.convert("RGB").save(out_rgb)


def own_pixels(py: str, board: str, d: Path) -> tuple[int, int]:
    """Render ``board`` once and keep its pixels raw in ``d/r.raw``: the "floor" run imports
    what every render imports (numpy, Pillow's drawing modules) and encodes that very image,
    which is what a render costs at the least."""
    from PIL import Image
    subprocess.run([py, "-m", "hexwx", "render", board, "-o", str(d / "r.png")], check=True,
                   stdout=subprocess.DEVNULL, env=ENV)
    im = Image.open(d / "r.png").convert("RGB")
    (d / "r.raw").write_bytes(im.tobytes())
    return im.size


def fresh(args: argparse.Namespace) -> int:
    if not os.environ.get("HEXWX_VASL_DIR"):
        print("set HEXWX_VASL_DIR", file=sys.stderr)
        return 2
    py = sys.executable
    with tempfile.TemporaryDirectory() as d:
        ENV["HEXWX_CACHE_DIR"] = f"{d}/cache"     # every run here (bench_startup.wall) uses ENV
        rgb, pal = Path(d) / "art.png", Path(d) / "art_p.png"
        board_art(args.board, rgb, pal)
        size = own_pixels(py, args.board, Path(d))
        runs = {
            "pillow": [py, "-c", f"from PIL import Image; Image.open({str(rgb)!r}).save({d + '/o.png'!r})"],
            "pillow P": [py, "-c", f"from PIL import Image; Image.open({str(pal)!r}).save({d + '/o.png'!r})"],
            "render": [py, "-m", "hexwx", "render", args.board, "-o", f"{d}/r.png"],
            "render, no cache": ["env", "HEXWX_NO_CACHE=1", py, "-m", "hexwx", "render", args.board,
                                 "-o", f"{d}/n.png"],
            "import numpy": [py, "-c", "import numpy"],
            "floor": [py, "-c", "import os; os.environ.setdefault('OPENBLAS_NUM_THREADS', '1'); "
                      "import numpy; from PIL import Image, ImageDraw, ImageFont; "
                      "from hexwx.render.png import png_bytes; "
                      f"open({d + '/f.png'!r}, 'wb').write(png_bytes(Image.frombytes('RGB', {size}, "
                      f"open({d + '/r.raw'!r}, 'rb').read())))"],
        }
        if args.more:
            runs["render hill_village"] = [py, "-m", "hexwx", "render",
                                           str(ROOT / "maps" / "hill_village.toml"), "-o", f"{d}/h.png"]
            runs["render 4 boards"] = [py, "-m", "hexwx", "render", "02,04/03,05", "-o", f"{d}/l.png"]
        times = interleaved(runs, args.rounds)
    print(f"{args.rounds} rounds, fresh processes, medians ({args.board}, python "
          f"{sys.version.split()[0]}):")
    print_medians(times, "pillow", width=22)
    ratios = [r / p for r, p in zip(times["render"], times["pillow"])]
    print(f"  median of per-round ratios render / pillow: {statistics.median(ratios):.2f}x "
          f"(target <= 2)")
    with open("/proc/loadavg") as f:
        print(f"  load average at the end: {' '.join(f.read().split()[:3])}")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", nargs="?", default=str(ROOT / "maps" / "hill_village.toml"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--los", nargs=2, default=("B3", "K6"))
    ap.add_argument("--from", dest="src", default="E5")
    ap.add_argument("--fresh", action="store_true", help="whole CLI runs in fresh processes")
    ap.add_argument("--board", default="bd02", help="--fresh: the board (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=9, help="--fresh: rounds (default %(default)s)")
    ap.add_argument("--more", action="store_true", help="--fresh: also a map file and 4 boards")
    args = ap.parse_args(argv)
    return fresh(args) if args.fresh else in_process(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
