"""VASL terrain SSRs (LOSSSRule entries of SharedBoardMetadata.xml) and the E3 snow terrain
changes that go through the same mechanism.  VASL data from ``$HEXWX_VASL_DIR``."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from hexwx.cli import main
from hexwx.errors import DataError, UsageError
from hexwx.hexmap.transform import TerrainChange, apply_changes
from hexwx.io.load import load_map
from hexwx.io.ssr import ssr_changes, ssr_rules
from hexwx.lineofsight.engine import los
from hexwx.movement.paths import path
from hexwx.weather.asl.state import AslWeather


def vasl_dir() -> Path:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "SharedBoardMetadata.xml").is_file():
        pytest.skip("HEXWX_VASL_DIR is not set to VASL's reference data")
    return Path(env)


def meta() -> Path:
    return vasl_dir() / "SharedBoardMetadata.xml"


def need(*boards: str) -> None:
    for b in boards:
        if not (vasl_dir() / "boards" / b).is_file():
            pytest.skip(f"board {b} is not in {vasl_dir() / 'boards'}")


def code(m, name: str) -> int:
    return m.table.code_named(name)


def test_rule_data_is_read_from_vasls_table() -> None:
    rules = ssr_rules(meta())
    assert rules["NoGrain"] == ("terrainMap", "Grain", "Open Ground")
    assert rules["Level2ToLevel1"] == ("elevationMap", "2", "1")
    assert rules["NoBridge"][0] == "customCode" and rules["Mud"][0] == "ignore"
    assert len([r for r in rules.values() if r[0] not in ("ignore", "customCode")]) >= 100


def test_no_grain_turns_every_grain_pixel_to_open_ground() -> None:
    need("bd03")
    up = load_map("bd03")
    m = load_map("bd03", ssr=["NoGrain"])
    grain, og = code(up, "Grain"), code(up, "Open Ground")
    was = up.terrain == grain
    assert was.sum() > 1000                                   # board 3 has grain fields
    assert not (m.terrain == grain).any()
    assert (m.terrain[was] == og).all()
    assert np.array_equal(m.terrain[~was], up.terrain[~was])   # nothing else changes
    assert np.array_equal(m.elevation, up.elevation)


def test_ssrs_apply_in_order_each_to_the_result_before() -> None:
    """VASL applies rules one after another: WoodsToBrush then BrushToOpenGround clears woods;
    the reverse order leaves the woods as brush."""
    need("bd02")
    up = load_map("bd02")
    woods, brush, og = code(up, "Woods"), code(up, "Brush"), code(up, "Open Ground")
    was = up.terrain == woods
    a = load_map("bd02", ssr=["WoodsToBrush", "BrushToOpenGround"])
    b = load_map("bd02", ssr=["BrushToOpenGround", "WoodsToBrush"])
    assert (a.terrain[was] == og).all() and (b.terrain[was] == brush).all()
    assert not np.array_equal(a.terrain, b.terrain)
    # and LOS sees it: board 2 A1 -> A5 is blocked by the woods in A4 (LOS-SPEC 8 #1)
    assert los(up, "A1", "A5").blocked
    assert not los(a, "A1", "A5").blocked
    rb = los(b, "A1", "A5")
    assert not rb.blocked and rb.hindrance >= 1                # brush hinders (B12)


def test_elevation_rules_follow_vasls_data() -> None:
    need("bd02")
    up = load_map("bd02")
    m = load_map("bd02", ssr=["Level2ToLevel1"])
    assert not (m.elevation == 2).any() and ((m.elevation == 1) == ((up.elevation == 1) | (up.elevation == 2))).all()
    assert m.ground_level(m.parse("I4")) == 1 and up.ground_level(up.parse("I4")) == 2
    # terrainToElevationMap: the woods become Open Ground at that level
    w = load_map("bd02", ssr=["WoodsToLevel1"])
    was = up.terrain == code(up, "Woods")
    assert (w.elevation[was] == 1).all() and (w.terrain[was] == code(up, "Open Ground")).all()
    # elevationToTerrainMap: the level's pixels drop to 0 and take the terrain
    g = load_map("bd02", ssr=["Level2ToGrain"])
    was2 = up.elevation == 2
    assert (g.elevation[was2] == 0).all() and (g.terrain[was2] == code(up, "Grain")).all()


def test_ignore_rules_change_nothing() -> None:
    need("bd02")
    up = load_map("bd02")
    m = load_map("bd02", ssr=["Mud", "NoWhiteHexIDs", "Winter"])
    assert np.array_equal(m.terrain, up.terrain) and np.array_equal(m.elevation, up.elevation)


@pytest.mark.parametrize("name, message", [
    ("NoBridge", "only as Java code"),
    ("NoSuchRule", "unknown SSR 'NoSuchRule'"),
    ("nograin", "did you mean 'NoGrain'"),
])
def test_code_only_and_unknown_rules_are_refused(name: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        ssr_changes([name], meta())


def test_bad_rule_data_names_the_rule() -> None:
    """VASL's own table writes Level1ToLevel_1's target as '_1' (not a number)."""
    change = ssr_changes(["Level1ToLevel_1"], meta())
    el = np.ones((4, 4), np.int8)
    with pytest.raises(DataError, match="Level1ToLevel_1"):
        apply_changes(el, np.zeros((4, 4), np.uint8), load_map_table(), change)


def load_map_table():
    from hexwx.io.vasl import read_metadata
    return read_metadata(meta())


def test_map_file_ssr_key(tmp_path: Path) -> None:
    need("bd03")
    f = tmp_path / "m.toml"
    f.write_text('[map]\nvasl_boards = [["03"]]\nssr = ["NoGrain"]\n')
    m = load_map(f)
    assert not (m.terrain == code(m, "Grain")).any()
    f.write_text('[map]\nvasl_boards = [["03"]]\nssr = ["NoBridge"]\n')
    with pytest.raises(DataError, match=r"m\.toml: map\.ssr: SSR 'NoBridge'"):
        load_map(f)


def test_cli_ssr_flag(capsys: pytest.CaptureFixture[str]) -> None:
    need("bd02")
    assert main(["los", "bd02", "A1", "A5", "--json"]) == 0
    assert '"blocked": true' in capsys.readouterr().out
    assert main(["los", "bd02", "A1", "A5", "--ssr", "WoodsToBrush", "--ssr", "BrushToOpenGround",
                 "--json"]) == 0
    assert '"blocked": false' in capsys.readouterr().out
    assert main(["los", "bd02", "A1", "A5", "--ssr", "NoBridge"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "NoBridge" in err


def test_change_kinds_are_checked() -> None:
    with pytest.raises(DataError, match="unknown kind"):
        TerrainChange("magic", "a", "b", name="X")


# -- E3 snow: the same mechanism -------------------------------------------------------------

def test_deep_snow_turns_brush_to_open_ground_for_los() -> None:
    """E3 3.73: bd17 A4 -> B9 crosses brush in A7 and B7, which deep snow makes Open Ground."""
    need("bd17")
    m = load_map("bd17")
    dry = los(m, "A4", "B9")
    assert {h.hex for h in dry.hindrances} >= {"A7", "B7"}
    snow = los(m, "A4", "B9", weather=AslWeather(deep_snow=True))
    assert not snow.blocked and not [h for h in snow.hindrances if "rush" in h.what]


def test_deep_snow_on_a_map_file() -> None:
    here = Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml"
    m = load_map(here)
    dry = los(m, "A7", "N7")
    assert any(h.hex == "M7" for h in dry.hindrances)
    snow = los(m, "A7", "N7", weather=AslWeather(deep_snow=True))
    assert not any(h.hex == "M7" for h in snow.hindrances)
    assert snow.hindrance == dry.hindrance - 1


def test_ground_snow_turns_marsh_to_open_ground(tmp_path: Path) -> None:
    """E3 3.722: marsh is Open Ground under ground snow, for LOS and movement alike."""
    f = tmp_path / "marsh.toml"
    f.write_text('[map]\n[terrain]\nmarsh = ["C3", "D3", "E4"]\n')
    m = load_map(f)
    dry = los(m, "A3", "H3")
    assert dry.hindrance >= 1
    snow = AslWeather(ground_snow=True)
    assert los(m, "A3", "H3", weather=snow).hindrance == 0
    # movement reads the same rule: entering the marsh costs Open Ground's 1 MF (+ snow extras 0)
    assert path(m, "B3", "C3", unit="infantry", weather=snow).total < path(m, "B3", "C3", unit="infantry").total
