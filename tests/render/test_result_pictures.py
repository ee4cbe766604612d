"""Every result draws itself (notebooks), and ``render -o x.svg`` writes vector overlays."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PIL import Image

from hexwx.cli.app import main
from hexwx.dice import Dice
from hexwx.io.load import load_map
from hexwx.io.table_scenario import load_table_scenario
from hexwx.lineofsight.engine import los, viewshed
from hexwx.lineofsight.exposure import exposure
from hexwx.movement.paths import path, reach
from hexwx.tabletop.sight import can_see

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "hill_village.toml"
TABLE = ROOT / "scenarios" / "table_agv_village_and_wood.toml"


def png_size(data: bytes | None) -> tuple[int, int]:
    assert data is not None and data[:4] == b"\x89PNG"
    return Image.open(io.BytesIO(data)).size


def test_hex_results_draw_themselves_cropped() -> None:
    m = load_map(MAP)
    whole = png_size(m._repr_png_())
    small_path = png_size(path(m, "B3", "E5", unit="infantry")._repr_png_())
    assert small_path[0] < whole[0]                   # cropped to the path
    png_size(reach(m, "E5", unit="infantry", mf=3)._repr_png_())
    png_size(viewshed(m, "J4")._repr_png_())
    png_size(exposure(m, observers=["J4"])._repr_png_())
    assert path(m, "B3", "E5", unit="infantry") == path(m, "B3", "E5", unit="infantry")


def test_table_results_draw_themselves() -> None:
    sc = load_table_scenario(TABLE)
    png_size(sc._repr_png_())
    s = can_see(sc.table, "52nd", "3e-ligne", rules=sc.rules, visibility_cm=sc.visibility_cm(4))
    w, h = png_size(s._repr_png_())
    assert w < 900                                    # cropped to the two units
    assert s == can_see(sc.table, "52nd", "3e-ligne", rules=sc.rules, visibility_cm=sc.visibility_cm(4))


def test_weather_runs_draw_themselves() -> None:
    from hexwx.weather.asl import AslWeather, run_weather as asl_run
    from hexwx.weather.minis.common import run_minis_weather
    r = run_minis_weather("agv", 5, dice=Dice(seed=3))
    svg = r._repr_svg_()
    ElementTree.fromstring(svg)
    assert all(f">{x.weather}" in svg for x in r)
    if any(x.visibility_cm is not None for x in r):
        assert svg.count("data-visibility-cm") + svg.count(">unlimited<") == len(r)
    a = asl_run(AslWeather(month="Oct", wind="mild"), Dice(seed=3), 2)
    assert isinstance(a, list) and len(a) == 4
    assert all(f"DR {x.dr}:" in a._repr_svg_() for x in a)


def test_render_svg_overlays_match_the_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "los.svg"
    assert main(["render", str(MAP), "--los", "E8", "G9", "--fog", "0", "-o", str(out)]) == 0
    svg = out.read_text()
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg") and 'href="data:image/png;base64,' in svg
    res = los(load_map(MAP), "E8", "G9", weather=__import__("hexwx").AslWeather(fog_level=0))
    badges = sorted((h, int(d)) for h, d in re.findall(r'class="badge" data-hex="([^"]+)" data-drm="(\d+)"', svg))
    assert badges == sorted((h.hex, h.drm) for h in res.hindrances if h.hex)
    assert "total DRM +5" in svg or f"+{res.drm}" in svg
    capsys.readouterr()
    out2 = tmp_path / "heat.svg"
    assert main(["render", str(MAP), "--exposure", "--exposure-from", "J4,N7", "-o", str(out2)]) == 0
    counts = dict(re.findall(r'data-hex="([A-Z]+\d+)" data-count="(\d+)"', out2.read_text()))
    want = exposure(load_map(MAP), observers=["J4", "N7"]).to_json()["hexes"]
    assert counts and all(int(c) == want[h] for h, c in counts.items())


def test_render_svg_refused_for_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(TABLE), "-o", str(tmp_path / "t.svg")]) == 2
    assert main(["render", str(MAP), "--exposure-from", "J4", "-o", str(tmp_path / "t.png")]) == 2


@pytest.mark.parametrize("scale", [0.45, 0.7, 1.3])
def test_svg_overlays_cover_the_edge_hexes_at_any_scale(scale: float) -> None:
    """The SVG veils every hex the render's own view sees -- those on the map's right and
    bottom edges too, whatever the rounding of the picture's size at this scale."""
    from hexwx.render.svg import map_svg
    m = load_map(MAP)
    v = viewshed(m, "A7")
    assert map_svg(m, viewshed=v, scale=scale).count("<polygon") == map_svg(m, viewshed=v).count("<polygon") > 300
