"""Tabletop scenario files: loading, unit conversion, weather by turn, and one-line errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from hexwx.errors import DataError, UsageError
from hexwx.io.table_scenario import load_table_scenario, parse_start

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios").glob("table_*.toml"))

BASIC = """
rules = "huzzah"
turns = 6
[table]
size = [120, 80]
unit = "cm"
[[terrain]]
id = "bois"
kind = "wood"
rect = [50, 30, 70, 50]
[[units]]
id = "A"
side = "french"
arm = "infantry"
position = [60, 10]
bases = 2
[[units]]
id = "B"
side = "british"
arm = "infantry"
facing = 180
position = [60, 70]
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_every_rule_set_has_a_shipped_table_scenario() -> None:
    names = {p.name.split("_")[1] for p in SHIPPED}
    assert names >= {"agv", "mininap", "wesencraft", "huzzah"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_scenarios_load(path: Path) -> None:
    sc = load_table_scenario(path)
    assert sc.rules == path.name.split("_")[1]
    assert len(sc.table.units) >= 4 and len(sc.table.terrain) >= 4
    for u in sc.table.units:
        for b in u.bases:
            assert sc.table.outline.covers(b.polygon)


def test_basic_file_loads_in_cm(tmp_path: Path) -> None:
    sc = load_table_scenario(write(tmp_path, BASIC))
    t = sc.table
    assert (t.width, t.depth) == (120, 80)
    assert [b.x for b in t.unit_by_id("A").bases] == [58, 62]  # 4 cm default bases side by side
    assert sc.report(1).weather == "clear" and sc.visibility_cm(1) is None


def test_inch_table_is_converted_to_cm(tmp_path: Path) -> None:
    text = BASIC.replace('unit = "cm"', 'unit = "in"\nbase = [1.5, 1]').replace(
        "size = [120, 80]", "size = [72, 48]").replace("[60, 70]", "[60, 40]")
    text = text.replace("rect = [50, 30, 70, 50]", "rect = [50, 20, 70, 30]")
    t = load_table_scenario(write(tmp_path, text)).table
    assert t.width == pytest.approx(182.88) and t.depth == pytest.approx(121.92)
    a = t.unit_by_id("A")
    assert a.bases[0].frontage == pytest.approx(3.81)
    assert t.to_unit(a.centre[0]) == pytest.approx(60)


def test_explicit_base_points(tmp_path: Path) -> None:
    text = BASIC.replace("position = [60, 10]\nbases = 2", "bases = [[10, 10], [10, 15]]\nformation = \"column\"")
    a = load_table_scenario(write(tmp_path, text)).table.unit_by_id("A")
    assert [(b.x, b.y) for b in a.bases] == [(10, 10), (10, 15)]


def test_huzzah_schedule_changes_on_the_given_turn(tmp_path: Path) -> None:
    text = BASIC + """
[weather]
mode = "schedule"
[[weather.schedule]]
turn = 1
weather = "dense fog"
visibility = 30
ground = "soft"
[[weather.schedule]]
turn = 4
weather = "fair"
"""
    sc = load_table_scenario(write(tmp_path, text))
    assert sc.report(3).weather == "dense fog" and sc.visibility_cm(3) == 30
    assert sc.report(3).ground == "soft"
    assert sc.report(4).weather == "fair" and sc.visibility_cm(4) is None
    assert sc.report(4).ground == "normal"


def test_mininap_dawn_start_limits_visibility(tmp_path: Path) -> None:
    text = BASIC.replace('rules = "huzzah"', 'rules = "mininap"\nstart = "4 AM"') + """
[weather]
weather = "showers"
visibility = 24
"""
    sc = load_table_scenario(write(tmp_path, text))
    assert sc.visibility_cm(1) == 10  # dawn 10 cm < showers 24 cm
    assert sc.visibility_cm(2) == 24  # dawn 60 cm > showers 24 cm
    assert sc.report(1).time_of_day == "4:00 AM" and sc.report(3).time_of_day == "5:00 AM"


def test_mininap_dusk_ends_the_battle(tmp_path: Path) -> None:
    text = BASIC.replace('rules = "huzzah"', 'rules = "mininap"\nstart = "4 PM"').replace(
        "turns = 6", "turns = 10")
    sc = load_table_scenario(write(tmp_path, text))
    assert sc.visibility_cm(6) == 50
    assert sc.report(7).battle_ends and sc.visibility_cm(7) == 0
    assert sc.report(9).battle_ends  # after the end, the last report stands


def test_rolled_weather_is_reproducible(tmp_path: Path) -> None:
    text = BASIC.replace('rules = "huzzah"', 'rules = "agv"') + '[weather]\nmode = "rolled"\nseed = 18\n'
    one = load_table_scenario(write(tmp_path, text, "a.toml"))
    two = load_table_scenario(write(tmp_path, text, "b.toml"))
    assert [one.report(t).weather for t in range(1, 7)] == [two.report(t).weather for t in range(1, 7)]
    assert one.report(1).rolls  # the dice that made it are recorded


def test_bad_rolled_option_value_is_a_data_error(tmp_path: Path) -> None:
    text = BASIC + '[weather]\nmode = "rolled"\nseed = 1\noptions = { weather = "foul" }\n'
    sc = load_table_scenario(write(tmp_path, text))
    with pytest.raises(DataError, match=r"weather\.options: unknown huzzah weather 'foul'"):
        sc.report(1)


def test_turn_out_of_range_is_a_usage_error(tmp_path: Path) -> None:
    sc = load_table_scenario(write(tmp_path, BASIC))
    with pytest.raises(UsageError, match="from 1 to 6"):
        sc.report(7)


@pytest.mark.parametrize("start,hour", [("4 AM", 4), ("12 noon", 12), ("2 PM", 14), ("16:00", 16)])
def test_parse_start(start: str, hour: int) -> None:
    assert parse_start(start) == hour


BAD = [
    ('rules = "huzzah"', 'rules = "dba"', r"rules: expected one of agv, mininap, wesencraft, huzzah; got 'dba'"),
    ('kind = "wood"', 'kind = "jungle"', r"terrain\[0\]\.kind: expected one of .*got 'jungle'"),
    ("position = [60, 10]", "position = [1, 10]", r"units\[0\]\.position: unit 'A' base A\.1 is off the table"),
    ("position = [60, 70]", "position = [62, 11]", r"units\[1\]\.position: unit 'B' overlaps unit 'A'"),
    ('id = "B"', 'id = "A"', r"units\[1\]\.id: duplicate unit id 'A'"),
    ('arm = "infantry"', 'arm = "dragoons"', r"units\[0\]\.arm: expected one of infantry, cavalry, artillery"),
    ("rect = [50, 30, 70, 50]", "rect = [70, 30, 50, 50]", r"terrain\[0\]\.rect: expected x0 < x1"),
    ("rect = [50, 30, 70, 50]", "rect = [50, 30, 70]", r"terrain\[0\]\.rect: expected \[x0, y0, x1, y1\]"),
    ('kind = "wood"', 'kind = "hedge"', r"terrain\[0\]\.rect: a hedge is a line"),
    ("turns = 6", "turns = 6\nstart = \"teatime\"", r"start: expected a time such as"),
    ('side = "french"', 'sidee = "french"', r"units\[0\]\.sidee: unknown key"),
    ("size = [120, 80]", "size = [120]", r"table\.size: expected \[width, depth\]"),
    ("size = [120, 80]", "size = [1e300, 80]", r"table\.size: expected a table of at most 100 m a side"),
    ("size = [120, 80]", "size = [120, 10001]", r"table\.size: expected a table of at most 100 m"),
]


def test_a_table_of_a_hundred_metres_loads(tmp_path: Path) -> None:
    sc = load_table_scenario(write(tmp_path, BASIC.replace("size = [120, 80]", "size = [10000, 80]")))
    assert sc.table.width == 10000


@pytest.mark.parametrize("old,new,message", BAD, ids=[b[1] for b in BAD])
def test_bad_files_give_one_line_errors_naming_file_and_key(tmp_path: Path, old: str, new: str,
                                                            message: str) -> None:
    assert old in BASIC
    path = write(tmp_path, BASIC.replace(old, new, 1))
    with pytest.raises(DataError, match=message) as info:
        load_table_scenario(path)
    text = str(info.value)
    assert text.startswith(str(path)) and "\n" not in text


def test_schedule_must_start_on_turn_one(tmp_path: Path) -> None:
    text = BASIC + '[weather]\nmode = "schedule"\n[[weather.schedule]]\nturn = 2\nweather = "fog"\n'
    with pytest.raises(DataError, match=r"weather\.schedule\[0\]\.turn: the first schedule entry must be turn 1"):
        load_table_scenario(write(tmp_path, text))


def test_weather_keys_must_fit_the_mode(tmp_path: Path) -> None:
    text = BASIC + '[weather]\nmode = "rolled"\nseed = 3\nvisibility = 10\n'
    with pytest.raises(DataError, match=r"weather\.visibility: not used with mode = 'rolled'"):
        load_table_scenario(write(tmp_path, text))


def test_start_time_cannot_be_given_with_rolled_weather(tmp_path: Path) -> None:
    text = BASIC.replace('rules = "huzzah"', 'rules = "mininap"\nstart = "10 AM"') + \
        '[weather]\nmode = "rolled"\nseed = 3\n'
    with pytest.raises(DataError, match=r"start: the start time is rolled"):
        load_table_scenario(write(tmp_path, text))


def test_missing_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such file"):
        load_table_scenario(tmp_path / "nope.toml")


# -- Mini-Nap 2 dawn/dusk and mud, one reading on every path (issue #14 items 10, 11) -------------

def _timed(tmp_path: Path, rules: str, start: str) -> object:
    text = (f'rules = "{rules}"\nturns = 12\nstart = "{start}"\n[table]\nsize = [100, 100]\n'
            '[weather]\nmode = "fixed"\nweather = "clear"\n')
    return load_table_scenario(write(tmp_path, text, f"{rules}.toml"))


def test_dusk_only_for_a_mininap_four_pm_start(tmp_path: Path) -> None:
    # Reading: the Dusk rule belongs to the 4 PM start (seed 001 time chart): 300 cm on turn 1,
    # -50 cm a turn, 0 cm on turn 7 (7:00 PM) when the battle ceases.
    reps = _timed(tmp_path, "mininap", "4 PM").reports()
    assert [r.visibility_cm for r in reps] == [300, 250, 200, 150, 100, 50, 0]
    assert reps[-1].battle_ends and reps[-1].time_of_day == "7:00 PM"
    # the same from the weather model with the 4 PM start rolled (2D6 = 12, then clear: 3+4)
    from hexwx.dice import Dice
    from hexwx.weather.minis.common import run_minis_weather
    rolled = run_minis_weather("mininap", 12, dice=Dice.scripted([6, 6, 3, 4]))
    assert [r.visibility_cm for r in rolled] == [r.visibility_cm for r in reps]


@pytest.mark.parametrize("rules, start", [("mininap", "2 PM"), ("mininap", "12 noon"),
                                          ("agv", "4 PM"), ("agv", "4 AM")])
def test_no_dusk_elsewhere(tmp_path: Path, rules: str, start: str) -> None:
    # a 2 PM or noon Mini-Nap 2 battle never reaches the Dusk rule; AGV has no time of day
    sc = _timed(tmp_path, rules, start)
    reps = sc.reports()
    assert len(reps) == 12 and not any(r.battle_ends for r in reps)
    assert {r.visibility_cm for r in reps} == {None}
    assert all(sc.visibility_cm(t) is None for t in range(1, 13))


def test_rolled_showers_game_keeps_normal_ground(tmp_path: Path) -> None:
    # seed 36: the Showers pattern, showers on turns 2 and 3 -- no mud (seed 001 gives mud to
    # the Rain pattern's rain and showers and to snow only), so movement is not halved.
    text = BASIC.replace('rules = "huzzah"', 'rules = "mininap"') + '[weather]\nmode = "rolled"\nseed = 36\n'
    sc = load_table_scenario(write(tmp_path, text))
    rep = sc.report(3)
    assert (rep.pattern, rep.weather, rep.ground) == ("showers", "showers", "normal")


def test_ranges_and_officers_load_in_the_tables_unit(tmp_path: Path) -> None:
    text = BASIC.replace('rules = "huzzah"', 'rules = "agv"').replace('unit = "cm"', 'unit = "in"')
    text = text.replace("size = [120, 80]", "size = [72, 48]").replace("[60, 70]", "[30, 40]")
    text = text.replace("[60, 10]", "[30, 8]").replace("rect = [50, 30, 70, 50]", "rect = [5, 5, 10, 10]")
    text += ('\n[ranges]\ninfantry = 8\nartillery = [12, 24]\n'
             '[[officers]]\nid = "ney"\nside = "french"\nposition = [30, 2]\nquality = "poor"\n')
    sc = load_table_scenario(write(tmp_path, text))
    assert sc.ranges == {"infantry": (None, pytest.approx(8 * 2.54)),
                         "artillery": (pytest.approx(12 * 2.54), pytest.approx(24 * 2.54))}
    (o,) = sc.table.officers
    assert (o.id, o.quality, o.command_radius_cm) == ("ney", "poor", 30.0)
    assert o.centre == pytest.approx((30 * 2.54, 2 * 2.54))


@pytest.mark.parametrize("extra, message", [
    ('[ranges]\nlancers = 4\n', r"ranges\.lancers: unknown key"),
    ('[ranges]\nartillery = [24, 12]\n', r"ranges\.artillery: expected 0 < short <= long"),
    ('[ranges]\ninfantry = "far"\n', r"ranges\.infantry: expected a range or \[short, long\]"),
    ('[[officers]]\nid = "x"\nside = "a"\nposition = [500, 10]\n', r"officers\[0\]\.position: officer 'x' is off the table"),
    ('[[officers]]\nid = "A"\nside = "a"\nposition = [5, 10]\n', r"officers\[0\]\.id: officer id 'A' is also a unit id"),
    ('[[officers]]\nid = "x"\nside = "a"\nposition = [5, 10]\nquality = "great"\n', r"officers\[0\]\.quality: expected one of excellent"),
])
def test_bad_ranges_and_officers(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(DataError, match=r"s\.toml: " + message):
        load_table_scenario(write(tmp_path, BASIC + "\n" + extra))
