"""Regenerate the golden PNGs of tests/render/test_render_golden.py (tests/data/golden/*.png).

    python tools/regen_golden_png.py            # write all
    python tools/regen_golden_png.py hex_los.png

Look at the images (they are small) before committing them: a golden image is a claim that
this is what the map should look like.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def _cases() -> dict:
    sys.path.insert(0, str(TESTS))
    spec = importlib.util.spec_from_file_location("test_render_golden", TESTS / "render" / "test_render_golden.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod.CASES, mod.GOLDEN, mod.stored_form


def main(argv: list[str]) -> int:
    cases, golden, stored_form = _cases()
    names = argv or sorted(cases)
    unknown = [n for n in names if n not in cases]
    if unknown:
        print(f"unknown case {unknown[0]!r}; expected one of {', '.join(sorted(cases))}", file=sys.stderr)
        return 2
    golden.mkdir(parents=True, exist_ok=True)
    for name in names:
        img = stored_form(cases[name]())
        path = golden / name
        img.save(path, format="PNG", optimize=True)
        print(f"wrote {path.relative_to(ROOT)} ({img.width} x {img.height}, {path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
