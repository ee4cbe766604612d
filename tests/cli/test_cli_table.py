"""``hexwx table``: text and JSON answers, exit codes, one-line errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexwx.cli import main

ROOT = Path(__file__).resolve().parents[2]
HUZZAH = str(ROOT / "scenarios" / "table_huzzah_fog_lifts.toml")
AGV = str(ROOT / "scenarios" / "table_agv_village_and_wood.toml")
MININAP = str(ROOT / "scenarios" / "table_mininap_dawn_crossroads.toml")

LINE = """
rules = "huzzah"
[table]
size = [100, 100]
[[terrain]]
id = "bois"
kind = "wood"
rect = [40, 45, 60, 55]
[[units]]
id = "A"
side = "x"
arm = "infantry"
position = [50, 10]
[[units]]
id = "B"
side = "y"
arm = "infantry"
facing = 180
position = [50, 90]
[[units]]
id = "C"
side = "y"
arm = "infantry"
facing = 180
position = [20, 18]
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def line_file(tmp_path: Path) -> str:
    p = tmp_path / "line.toml"
    p.write_text(LINE)
    return str(p)


def test_can_see_blocked_by_wood_json(capsys: pytest.CaptureFixture[str], line_file: str) -> None:
    code, out, _ = run(capsys, "table", line_file, "--can-see", "A", "B", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["blocked"] is True and data["visible"] is False and data["los"] == "blocked"
    assert data["blocked_by"] == [{"kind": "wood", "id": "bois"}]
    assert data["range"] == 78  # Huzzah!: centre (50, 10) to the nearest edge y = 88


def test_range_short_and_arc(capsys: pytest.CaptureFixture[str], line_file: str) -> None:
    # C at (20, 18) facing south: A's centre (50, 10) sees C's front (centre (20, 16),
    # hypot(30, 6) = 30.59) and east flank (centre (22, 18), hypot(28, 8) = 29.12); range to
    # the closer, the flank (Huzzah! p.11): outside 20 cm, and outside the arc (its nearest
    # corner bears about 70 degrees left of A's facing)
    code, out, _ = run(capsys, "table", line_file, "--range", "A", "C", "--json")
    data = json.loads(out)
    assert code == 0 and data["weapon_range"] == 20
    assert data["range"] == pytest.approx((28 ** 2 + 8 ** 2) ** 0.5, abs=1e-6)
    assert data["in_arc"] is False and data["in_range"] is False and data["can_fire"] is False
    assert data["face"] == "left flank" and data["band"] == "out of range"
    assert data["range_to"] == [22, 18]


def test_fire_text_agv_rain_forbids(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 18: rain on turn 4 (AGV Rain: no musket or artillery fire at all); the scenario
    # gives the ranges (the seed has none) and AGV has no arc.
    code, out, _ = run(capsys, "table", AGV, "--fire", "3e-ligne", "52nd", "--turn", "4")
    assert code == 0
    assert "turn 4: rain" in out and "arc: none in this rule set" in out
    assert "weapon range: 8 in (scenario: ranges.infantry (the seed gives none))" in out
    assert "no musket or artillery fire at all (AGV Rain): applies" in out
    assert "may fire: no" in out


def test_dense_fog_without_a_distance_is_not_unlimited(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    p = tmp_path / "fog.toml"
    p.write_text(LINE.replace('rules = "huzzah"', 'rules = "huzzah"\n[weather]\n'
                              'weather = "dense fog"'))
    code, out, _ = run(capsys, "table", str(p))
    assert code == 0 and "turn 1: dense fog" in out
    assert "unlimited" not in out and "foul weather" in out


def test_move_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", HUZZAH, "--move", "cuirassiers")
    assert code == 0
    assert "allowance: 25 cm" in out and "Huzzah! p.20" in out


def test_move_json_under_agv_rain(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 18: showers on turns 1-3, rain from turn 4 (AGV: units move at half rate)
    code, out, _ = run(capsys, "table", AGV, "--move", "52nd", "--turn", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["weather"] == "rain"
    assert data["allowance"] == 3 and data["unit"] == "in"


def test_move_outline_keeps_off_the_mill_stream(capsys: pytest.CaptureFixture[str]) -> None:
    # batterie-a-pied: 6 in of move from 1 in or so north of the mill-stream (water): its
    # bases grown by 6 in would cross the stream, the outline stops at it
    import shapely
    from shapely.geometry import Polygon
    from hexwx.io.table_scenario import load_table_scenario
    code, out, _ = run(capsys, "table", AGV, "--move", "batterie-a-pied", "--outline", "--json")
    reach = json.loads(out)["reach"]
    area = shapely.union_all([Polygon(p[0], p[1:]) for p in reach["polygons"]])
    stream = Polygon([(0, 6), (72, 9), (72, 10), (0, 7)])
    t = load_table_scenario(AGV).table
    bases = shapely.affinity.scale(t.unit_by_id("batterie-a-pied").geometry, 1 / 2.54, 1 / 2.54,
                                   origin=(0, 0))
    assert code == 0 and reach["distance"] == 6
    assert bases.buffer(6).intersection(stream).area > 5        # the plain circle would cross
    # (JSON rounds to 0.001 in: a sliver along the bank at most)
    assert area.intersection(stream).area < 0.01 and area.buffer(0.001).contains(bases)
    assert area.area == pytest.approx(reach["area"], rel=1e-3)
    code, text, _ = run(capsys, "table", AGV, "--move", "batterie-a-pied", "--outline")
    assert code == 0 and f"reach: {reach['area']:.1f} sq in" in text and "water" in text


def test_visibility_from_time_of_day_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", MININAP, "--can-see", "bn-1", "ir-12")
    assert code == 0
    assert "visibility 10 cm" in out and "beyond the visibility distance of 10 cm" in out


def test_outline_lists_units(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", HUZZAH, "--turn", "4")
    assert code == 0 and "turn 4: fair" in out and "french-guns" in out


@pytest.mark.parametrize("argv,code,message", [
    (["--can-see", "A", "Z"], 2, "'Z'; expected a unit id: one of A, B, C"),
    (["--move", "A", "--turn", "99"], 2, "--turn must be from 1 to 12, got 99"),
    (["--can-see", "A", "A"], 2, "cannot look at itself"),
    (["--outline"], 2, "--outline goes with --move UNIT"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], line_file: str, argv: list[str],
                             code: int, message: str) -> None:
    got, out, err = run(capsys, "table", line_file, *argv)
    assert got == code and message in err and err.count("\n") == 1 and out == ""


def test_bad_file_exits_1_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(LINE.replace('kind = "wood"', 'kind = "forest"'))
    code, _, err = run(capsys, "table", str(p), "--move", "A")
    assert code == 1 and "terrain[0].kind" in err and "'forest'" in err and err.count("\n") == 1
    code, _, err = run(capsys, "table", str(tmp_path / "missing.toml"))
    assert code == 1 and "no such file" in err


def test_two_questions_at_once_is_a_usage_error(capsys: pytest.CaptureFixture[str], line_file: str) -> None:
    code, _, err = run(capsys, "table", line_file, "--move", "A", "--can-see", "A", "B")
    assert code == 2 and "not allowed with" in err


def test_help_mentions_the_questions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--help")
    assert code == 0 and "--can-see A B" in out and "--move UNIT" in out and "examples:" in out


# ---------------------------------------------------------------------------- Huzzah! orders

def test_group_advance_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    # p.19: the cuirassiers (cavalry in line, 25 cm) ordered with french-1 (infantry) go at most
    # the infantry's 20 cm, and both stop at the brook, whose near edge runs y = 40 - x / 45:
    # french-1's front (y = 32, x 62-78) meets it at x = 78, 38.27 - 32 = 6.27 cm ahead; the
    # cuirassiers' (y = 27, x 36-44) at x = 44, 39.02 - 27 = 12.02 cm ahead.
    code, out, _ = run(capsys, "table", HUZZAH, "--advance", "french-1", "cuirassiers")
    assert code == 0
    assert "french-1: 6.3 cm (own move 15 cm; limited by water 'brook' (impassable)" in out
    assert "cuirassiers: 12 cm (own move 25 cm; limited by water 'brook'" in out
    code, out, _ = run(capsys, "table", HUZZAH, "--retire", "french-1", "cuirassiers", "--json")
    data = json.loads(out)
    assert code == 0 and data["order"] == "retire"
    assert [u["distance"] for u in data["units"]] == [7.5, 7.5]        # half of 15 (p.20)


def test_charge_and_out_of_range_and_command(capsys: pytest.CaptureFixture[str]) -> None:
    # french-1 (front y = 32) charges allied-1 (front y = 54) 22 cm ahead: beyond its 15 cm.
    code, out, _ = run(capsys, "table", HUZZAH, "--charge", "french-1", "allied-1", "--json")
    data = json.loads(out)
    assert code == 0 and data["contact"] == 22 and data["reaches"] is False
    assert data["face"] == "front"
    code, out, _ = run(capsys, "table", HUZZAH, "--out-of-range", "french-guns")
    assert code == 0 and "not out of range" in out
    # general-foy is skilful: radius 50 cm (p.16); french-guns' farthest corner is beyond it
    code, out, _ = run(capsys, "table", HUZZAH, "--command", "general-foy")
    assert code == 0 and "radius 50 cm, moves 60 cm" in out
    assert "french-guns: farthest corner 52.2 cm: not completely within" in out


def test_order_wording_takes_its_numbers_from_the_orders_constants(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The drift (p.19) and "out of range" (p.18) the text names are orders.DRIFT_CM and
    # orders.OUT_OF_RANGE_CM, written once: as they are, and as a changed rule would say them.
    code, out, _ = run(capsys, "table", HUZZAH, "--advance", "french-1")
    assert code == 0 and "drift up to 5 cm at the end (Huzzah! p.19)" in out
    code, out, _ = run(capsys, "table", HUZZAH, "--out-of-range", "french-guns")
    assert code == 0 and "(beyond 80 cm of the nearest enemy" in out
    code, out, _ = run(capsys, "table", "--help")
    assert "<= 5 cm drift" in " ".join(out.split()) and "beyond 80 cm" in out
    import hexwx.tabletop.command
    import hexwx.tabletop.orders
    monkeypatch.setattr(hexwx.tabletop.orders, "DRIFT_CM", 7.0)
    monkeypatch.setattr(hexwx.tabletop.orders, "OUT_OF_RANGE_CM", 90.0)
    monkeypatch.setattr(hexwx.tabletop.command, "OFFICER_MOVE_CM", 55.0)
    code, out, _ = run(capsys, "table", HUZZAH, "--advance", "french-1")
    assert code == 0 and "drift up to 7 cm at the end" in out
    code, out, _ = run(capsys, "table", HUZZAH, "--out-of-range", "french-guns")
    assert code == 0 and "(beyond 90 cm of the nearest enemy" in out
    code, out, _ = run(capsys, "table", "--help")
    help_text = " ".join(out.split())
    assert "<= 7 cm drift" in help_text and "beyond 90 cm" in help_text and "55 cm move" in help_text


def test_orders_are_huzzah_only_and_name_the_unit(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "table", AGV, "--advance", "52nd")
    assert code == 2 and "Huzzah! orders" in err and "'agv'" in err
    code, _, err = run(capsys, "table", HUZZAH, "--command", "napoleon")
    assert code == 2 and "unknown officer 'napoleon'" in err


def test_order_drawn_to_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from PIL import Image
    out = tmp_path / "advance.png"
    code, text, _ = run(capsys, "table", HUZZAH, "--advance", "french-1", "-o", str(out))
    assert code == 0 and "french-1: 6.3 cm" in text          # stops at the brook, 6.27 cm ahead
    assert Image.open(out).size[0] == 1600
    code, _, err = run(capsys, "table", HUZZAH, "--move", "french-1", "-o", str(out))
    assert code == 2 and "-o goes with --advance" in err


def test_huzzah_move_outline_is_advance_and_retire_not_a_circle(
        capsys: pytest.CaptureFixture[str], line_file: str) -> None:
    # A: one 4 cm infantry base in line at (50, 10) facing north, 15 cm (p.20).  Advance: 15 cm
    # straight ahead with 5 cm drift, (4 + 10) x (4 + 15) = 266 sq cm; retire: 7.5 cm straight
    # back, 4 x 11.5 = 46; they share the base (16): 296 sq cm -- not the bases grown by 15 cm
    # every way (about 16 + 4 x 4 x 15 + pi x 15^2 = 982).
    code, out, _ = run(capsys, "table", line_file, "--move", "A", "--outline", "--json")
    reach = json.loads(out)["reach"]
    assert code == 0 and reach["area"] == pytest.approx(296, abs=0.01)
    assert "advance straight ahead with up to 5 cm drift" in reach["reading"]
    (ring,) = reach["polygons"][0][:1]
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((43, 57, 0.5, 27))


def test_the_examples_in_docs_tabletop_are_what_the_commands_print(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex
    text = (ROOT / "docs" / "tabletop.md").read_text()
    start = text.index("```\n$ hexwx table ")
    block = text[start + 4:text.index("```", start + 3)]
    monkeypatch.chdir(ROOT)
    examples = block.strip().split("\n\n")
    assert len(examples) >= 5
    for example in examples:
        command, *printed = example.splitlines()
        code, out, _ = run(capsys, *shlex.split(command[2:])[1:])
        assert code == 0 and out.rstrip().splitlines() == printed, command
