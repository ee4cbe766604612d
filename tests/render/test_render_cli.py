"""Rendering real library results, and ``hexwx render`` end to end (exit codes, errors)."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from hexwx.cli import main
from hexwx.render.core import los_caption, render_map, render_table
from hexwx.render.style import OVERLAY, SIDE_COLOURS

from render_helpers import close

ROOT = Path(__file__).parents[2]
MAP = ROOT / "maps" / "hill_village.toml"
TABLE = ROOT / "scenarios" / "table_agv_village_and_wood.toml"
WINTER = ROOT / "scenarios" / "winter_drifts.toml"


@pytest.fixture(scope="module")
def m():
    from hexwx.io.load import load_map
    return load_map(MAP)


def test_real_los_caption_matches_the_result(m):
    from hexwx.lineofsight.engine import los
    from hexwx.weather.asl.state import AslWeather
    res = los(m, "E8", "F6", weather=AslWeather(fog_level=0))
    r = render_map(m, los=res, window=("C5", "H9"))
    assert los_caption(res) in r.caption
    assert f"total DRM +{res.drm}" in r.caption
    assert f"range {res.range}" in r.caption
    placed = [h for h in res.hindrances if h.hex]
    assert len(r.markers_of("hindrance")) + len(r.markers_of("lv")) == len(placed)
    for mk in r.markers_of("hindrance"):
        assert close(r.image.getpixel(mk.xy), OVERLAY["hindrance"], 35)


def test_real_blocked_los_marks_the_blocking_hex(m):
    from hexwx.lineofsight.engine import los
    res = los(m, "B3", "K6")
    assert res.blocked
    r = render_map(m, los=res)
    (mk,) = r.markers_of("blocked")
    assert mk.target == (res.blocking_hex or "")
    assert close(r.image.getpixel(mk.xy), OVERLAY["los blocked"], 35)
    assert f"BLOCKED by {res.blocking_terrain} in {res.blocking_hex}" in r.caption
    assert res.verdict in r.caption


def test_table_bases_sights_and_weather_caption():
    from hexwx.tabletop.sight import can_see
    from hexwx.io.table_scenario import load_table_scenario
    sc = load_table_scenario(TABLE)
    s = can_see(sc.table, "52nd", "rha-battery", rules=sc.rules, visibility_cm=sc.visibility_cm(4))
    r = render_table(sc, turn=4, sights=[s])
    assert r.image.width == 1600
    lines = r.caption.splitlines()
    assert lines[1].startswith("turn 4: ") and "visibility 12 in" in lines[1]
    assert s.reason in r.caption
    bases = {mk.target: mk for mk in r.markers_of("base")}
    assert close(r.image.getpixel(bases["52nd"].xy), SIDE_COLOURS[0], 30)       # british first
    assert close(r.image.getpixel(bases["3e-ligne"].xy), SIDE_COLOURS[1], 30)
    assert "visibility limit" in r.legend
    assert r._repr_png_()[:4] == b"\x89PNG"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["render", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_map_with_los(capsys, tmp_path):
    out_png = tmp_path / "los.png"
    code, out, err = run(capsys, str(MAP), "--los", "E8", "F6", "--fog", "0", "--window", "C5", "H9",
                         "-o", str(out_png))
    assert code == 0, err
    assert out.startswith(f"wrote {out_png}")
    assert "LOS E8 (level 0) -> F6 (level 0), range 2" in out
    assert Image.open(out_png).format == "PNG"


def test_cli_scenario_shades_its_weather(capsys, tmp_path):
    code, out, err = run(capsys, str(WINTER), "--scale", "0.3", "-o", str(tmp_path / "w.png"))
    assert code == 0, err
    assert "drifts: E5:2, H3:2" in out


def test_cli_table(capsys, tmp_path):
    code, out, err = run(capsys, str(TABLE), "--turn", "4", "--los", "52nd", "rha-battery",
                         "--range", "52nd", "rha-battery", "--width", "400", "-o", str(tmp_path / "t.png"))
    assert code == 0, err
    assert "52nd -> rha-battery: range" in out


@pytest.mark.parametrize("argv, code, message", [
    (["--los", "E8", "Z99"], 2, "--los: hex 'Z99' is not on this map"),
    (["--from", "QQ1", "--viewshed"], 2, "--from: hex 'QQ1'"),
    (["--viewshed"], 2, "--viewshed needs --from HEX"),
    (["--reach", "E5", "--unit", "infantry"], 2, "--reach needs --mf"),
    (["--path", "E5", "F6"], 2, "--path needs --unit"),
    (["--range", "A", "B"], 2, "--range is for table scenarios"),
    (["--background", "board"], 2, "--background board needs a VASL board"),
])
def test_cli_bad_overlays(capsys, tmp_path, argv, code, message):
    got, out, err = run(capsys, str(MAP), *argv, "-o", str(tmp_path / "x.png"))
    assert got == code
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_unwritable_output(capsys, tmp_path):
    code, out, err = run(capsys, str(MAP), "-o", str(tmp_path / "no" / "such" / "x.png"))
    assert code == 1
    assert "does not exist" in err and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, str(MAP), "-o", str(tmp_path / "x.gif"))
    assert code == 2 and "must end in .png" in err


def test_cli_table_rejects_hex_options(capsys, tmp_path):
    code, out, err = run(capsys, str(TABLE), "--viewshed", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "is for hex maps" in err


def test_cli_help_lists_examples(capsys):
    assert main(["render", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--los FROM TO" in out and "--background" in out and "examples:" in out
