#!/usr/bin/env python3
"""Make docs/viewer.png (the viewer on maps/hill_village.toml, a LOS in fog),
docs/viewer-table.png (a tabletop: a battery's movement this turn, its reach stopped by a
stream) and, with VASL's data ($HEXWX_VASL_DIR), out/viewer-layout.png (Hube's Pocket,
r05/r02/r04, drawn as VASL shows it, a blocked LOS: VASL's board art, so it is written outside
docs/ and never committed) -- needs Chromium.

    python tools/viewer_screenshot.py [-o docs/viewer.png] [--table-output docs/viewer-table.png]
                                      [--layout-output out/viewer-layout.png]
"""
from __future__ import annotations

import os

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "serve"))


def main() -> None:
    from cdp import Browser, find_chromium
    from serve_helpers import running
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=str(ROOT / "docs" / "viewer.png"))
    ap.add_argument("--table-output", default=str(ROOT / "docs" / "viewer-table.png"))
    ap.add_argument("--layout-output", default=str(ROOT / "out" / "viewer-layout.png"))
    a = ap.parse_args()
    exe = find_chromium()
    if exe is None:
        raise SystemExit("chromium is not installed (tools/ensure_chromium.sh)")
    browser = Browser(exe, 1400, 760)
    page = browser.page()
    try:
        with running(ROOT / "maps" / "hill_village.toml") as srv:
            page.goto(srv.url)
            page.wait("document.body && document.body.dataset.ready === '1'")
            page.js("document.getElementById('zoom-fit').click()")     # every hex clickable
            page.js("(() => { const f = document.getElementById('wx-fog'); f.value = '0';"
                    "f.dispatchEvent(new Event('change', {bubbles: true})); })()")
            page.click('[data-hex="E8"]')
            page.click('[data-hex="G9"]')
            page.wait("document.getElementById('los-explain').dataset.pair === 'E8>G9'")
            page.js("document.getElementById('zoom-in').click()")
            page.js("document.getElementById('zoom-in').click()")
            x, y = page.centre_of('[data-hex="G7"]')
            page.js(f"(() => {{ const v = window.hexwxViewer.view; v.x += {700 - x}; v.y += {380 - y};"
                    "document.getElementById('viewport').setAttribute('transform',"
                    "`translate(${v.x},${v.y}) scale(${v.k})`); })()")
            page.mouse("mouseMoved", *page.centre_of('[data-hex="F9"]'))
            page.screenshot(Path(a.output))
            print(f"wrote {a.output}")
        with running(ROOT / "scenarios" / "table_agv_village_and_wood.toml") as srv:
            page.goto(srv.url)
            page.wait("document.body && document.body.dataset.ready === '1'")
            page.click('polygon.base[data-unit="batterie-a-pied"]')
            page.js("document.getElementById('tog-move').click()")
            page.wait("document.getElementById('move-allow').dataset.unit === 'batterie-a-pied' && "
                      "document.getElementById('table-explain').dataset.from === 'batterie-a-pied'")
            page.screenshot(Path(a.table_output))
            print(f"wrote {a.table_output}")
        vasl = os.environ.get("HEXWX_VASL_DIR")
        if not vasl:
            print(f"not written: {a.layout_output} (set HEXWX_VASL_DIR to VASL's data)")
            return
        with running("r05/r02/r04", vasl_dir=vasl) as srv:
            page.goto(srv.url)
            page.wait("document.body && document.body.dataset.ready === '1'")
            page.js("document.getElementById('zoom-fit').click()")
            page.click('[data-hex="5K3"]')
            page.click('[data-hex="2F7"]')
            page.wait("document.getElementById('los-explain').dataset.pair === '5K3>2F7'")
            page.js("document.getElementById('zoom-in').click()")
            # the map's right edge at the stage's, the LOS in the middle of the height
            _x, y = page.centre_of('[data-hex="2H9"]')
            page.js(f"(() => {{ const S = window.hexwxViewer, v = S.view;"
                    "const r = document.getElementById('map').getBoundingClientRect();"
                    f"v.x = r.width - S.map.width * v.k; v.y += {330 - y};"
                    "document.getElementById('viewport').setAttribute('transform',"
                    "`translate(${v.x},${v.y}) scale(${v.k})`); })()")
            page.mouse("mouseMoved", *page.centre_of('[data-hex="5J2"]'))
            Path(a.layout_output).parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(Path(a.layout_output))
            print(f"wrote {a.layout_output}")
    finally:
        page.close()
        browser.close()


if __name__ == "__main__":
    main()
