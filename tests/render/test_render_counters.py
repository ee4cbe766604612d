"""Counters on renders (hexwx.render.counters): a tile per counter, rubble redrawn, the counter
hindrances of a LOS badged on its thread, and the caption; ``hexwx render --counter``."""
from __future__ import annotations

from pathlib import Path

import hexwx
from hexwx.cli.app import main
from hexwx.lineofsight.counters import Counters
from hexwx.render.counters import KIND_COLOURS, code
from hexwx.render.hexmap import render_map

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "hill_village.toml"


def close(a, b, tol: int) -> bool:
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a, b))


def test_counters_are_drawn_and_the_los_badges_them() -> None:
    m = hexwx.load_map(VILLAGE)
    c = Counters.of(["White +3 Smoke@C2", "vehicle:T-34@E2", "Stone Rubble@C5"])
    r0 = hexwx.los(m, "A1", "G3", counters=c)
    assert r0.hindrance == 3
    r = render_map(m, los=r0, counters=c.items, window=("A1", "H6"), scale=1.5)
    tiles = r.markers_of("counter")
    assert sorted(t.target for t in tiles) == ["Stone Rubble@C5", "White +3 Smoke@C2",
                                               "vehicle:T-34@E2"]
    for t in tiles:
        assert close(r.image.getpixel(t.xy), t.colour, 35)
    assert {t.colour for t in tiles} == {KIND_COLOURS["smoke"], KIND_COLOURS["vehicle"],
                                         KIND_COLOURS["rubble"]}
    assert [b.label for b in r.markers_of("hindrance")] == ["+3"]
    assert "counters: 1 smoke, 1 vehicle, 1 rubble" in r.caption
    assert "C2 smoke +3 White +3 Smoke (A24)" in r.caption
    assert [code(x) for x in c] == ["S3", "V", "R"]


def test_render_counter_option(tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.png"
    rc = main(["render", str(VILLAGE), "--counter", "White +3 Smoke@C2", "--los", "A1", "G3",
               "-o", str(out)])
    text = capsys.readouterr().out
    assert rc == 0 and out.exists()
    assert "counters: 1 smoke" in text and "total DRM +3" in text
    rc = main(["render", str(VILLAGE), "--counter", "Smoke@C2", "-o", str(out)])
    assert rc == 2


def test_svg_carries_the_counters(tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.svg"
    rc = main(["render", str(VILLAGE), "--counter", "White +3 Smoke@C2", "--los", "A1", "G3",
               "-o", str(out)])
    text = out.read_text()
    assert rc == 0 and "counters: 1 smoke" in text
    assert '<title>+3 smoke (White +3 Smoke) in C2 (A24)</title>' in text
