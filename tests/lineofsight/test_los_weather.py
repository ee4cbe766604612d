"""LV and drifts in the LOS answer: single queries, batch forms and the CLI agree (E3)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hexwx.cli import main
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los, los_table, viewshed
from hexwx.weather.asl.state import AslWeather, Drift

ROOT = Path(__file__).resolve().parents[2]
HILL = ROOT / "maps" / "hill_village.toml"
FIELDS = ROOT / "maps" / "hedgerow_fields.toml"

WEATHERS = {
    "fog 0 +1": AslWeather(fog_level=0, fog_drm=1),
    "fog 1 +3": AslWeather(fog_level=1, fog_drm=3),
    "mist": AslWeather(base="Mist"),
    "heavy rain": AslWeather(base="Overcast", rain=True, heavy=True),
}


@pytest.mark.parametrize("label", WEATHERS)
def test_batch_lv_equals_single_queries(label: str) -> None:
    m, w = load_map(HILL), WEATHERS[label]
    t = los_table(m, weather=w)
    rng = np.random.default_rng(11)
    for i in rng.choice(len(t.src), 1500, replace=False):
        r = los(m, int(t.src[i]), int(t.tgt[i]), weather=w)
        assert r.blocked == bool(t.blocked[i]), r.explain()
        if not r.blocked:
            assert (r.hindrance, r.lv) == (int(t.hindrance[i]), int(t.lv[i])), r.explain()


@pytest.mark.parametrize("label", ["fog 0 +1", "mist"])
def test_viewshed_lv_equals_single_queries(label: str) -> None:
    m, w = load_map(HILL), WEATHERS[label]
    src = m.parse("J4")
    v = viewshed(m, src, weather=w)
    for h in range(len(m)):
        if h == src:
            continue
        r = los(m, src, h, weather=w)
        assert v.blocked[h] == r.blocked, r.explain()
        if not r.blocked:
            assert v.drm[h] == r.drm, r.explain()


def test_mist_band_adds_to_a_clear_lof() -> None:
    # A7 -> N7 on hill_village: clear, range 13, terrain hindrance +3 (two orchards, brush).
    # Mist at 13-18 hexes is +2 (E3 3.32), so the total is +5 and the LOS stays clear.
    m = load_map(HILL)
    r = los(m, "A7", "N7", weather=WEATHERS["mist"])
    assert (r.blocked, r.range, r.hindrance, r.lv, r.drm) == (False, 13, 3, 2, 5)
    assert any(h.kind == "mist" and h.hex is None and h.drm == 2 for h in r.hindrances)


def test_terrain_and_lv_of_six_block() -> None:
    # Heavy rain: mist +1 at <= 6 and +1 more beyond (3.51): 13-18 hexes -> +3.  With the +3 of
    # terrain on A7 -> N7 that is 6: blocked (E3.1 treats LV like a LOS hindrance).
    m = load_map(HILL)
    r = los(m, "A7", "N7", weather=WEATHERS["heavy rain"])
    assert r.blocked and r.rule == "E3.1"
    assert (r.hindrance, r.lv) == (3, 3)


def _snowy(*drifts: tuple[str, int]) -> AslWeather:
    return AslWeather(base="Snow", ground_snow=True, drifts=tuple(Drift(h, s) for h, s in drifts))


def test_drift_hexsides_act_as_hedges() -> None:
    # A5 -> E5 on hedgerow_fields is clear and level; drifts all round C5 put a hedge across the
    # thread between two level-0 units: blocked, B9.2 (E3 3.752).
    m = load_map(FIELDS)
    assert not los(m, "A5", "E5").blocked
    w = _snowy(*[("C5", s) for s in range(6)])
    r = los(m, "A5", "E5", weather=w)
    assert r.blocked and r.rule == "B9.2" and r.blocking_hex is not None
    assert los(m, "E5", "A5", weather=w).blocked  # reciprocal
    # the firer's own hexside does not block (B9.2)
    assert not los(m, "C5", "E5", weather=w).blocked


def test_drifts_leave_the_map_unchanged_and_are_cached() -> None:
    m = load_map(FIELDS)
    before = m.terrain.copy()
    sides = ((m.parse("C5"), 1),)
    d1 = m.with_hexside_terrain(sides, "Hedge")
    d2 = m.with_hexside_terrain(sides, "Hedge")
    assert d1 is d2 and d1 is not m
    assert np.array_equal(m.terrain, before)
    assert d1.hexside_terrain(m.parse("C5"), 1).name == "Hedge"
    assert m.hexside_terrain(m.parse("C5"), 1) is None


def test_a_wall_keeps_its_hexside_under_a_drift() -> None:
    m = load_map(FIELDS)
    k5 = m.parse("K5")
    assert m.hexside_terrain(k5, 0).name == "Wall"
    d = m.with_hexside_terrain(((k5, 0),), "Hedge")
    assert d.hexside_terrain(k5, 0).name == "Wall"


def test_drift_off_the_map_is_a_usage_error() -> None:
    from hexwx.errors import UsageError
    with pytest.raises(UsageError, match="ZZ9"):
        los(load_map(FIELDS), "A5", "E5", weather=AslWeather(
            base="Snow", ground_snow=True, drifts=(Drift("ZZ9", 1),)))


def test_cli_los_table_with_fog_has_an_lv_column(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.csv"
    assert main(["los-table", str(HILL), "-o", str(out), "--fog", "0", "--fog-drm", "1"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "src,tgt,range,blocked,hindrance,lv"
    n = 346
    assert len(lines) == 1 + n * (n - 1)
    # J4 (level 3) -> C5 is blocked (blind hex).  A7 -> B7, adjacent, both in fog: +1 for the
    # firer's hex, +1 for the target's (as in the E3 example 2B5 -> 2I4, which counts B5) and +1
    # for firing out of fog (A24.8) = lv 3
    rows = {tuple(line.split(",")[:2]): line.split(",") for line in lines[1:]}
    assert rows[("A7", "B7")][3] == "0" and rows[("A7", "B7")][5] == "3"
    assert rows[("J4", "C5")][3] == "1" and rows[("J4", "C5")][5] == ""
