"""SMOKE under the weather (E3.53 rain, E3.734 Mud and/or Deep Snow): only SMOKE from a Blaze
or placed inside a building exists; every other SMOKE counter is left out of every query form
with a note citing the rule.  Map: maps/hill_village.toml (D4: a two-level building with a
rooftop; C3: a one-level building)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import hexwx
from hexwx.errors import UsageError
from hexwx.cli.app import main
from hexwx.io.scenario import ScenarioUnit
from hexwx.lineofsight.batch import los_pairs
from hexwx.lineofsight.counters import Counters, under_weather
from hexwx.lineofsight.exposure import exposure
from hexwx.lineofsight.pairs import los_table_chunks
from hexwx.lineofsight.sight import sightings
from hexwx.weather.asl.state import AslWeather

MAP = "maps/hill_village.toml"
RAIN = AslWeather(rain=True)
MUD = AslWeather(base="Mud")
DEEP_SNOW = AslWeather(deep_snow=True)
# a clear, unhindered ground-level LOS of range 6 along hexrow A; A4 lies between
SRC, TGT, MID = "A1", "A7", "A4"


@pytest.fixture(scope="module")
def m():
    return hexwx.load_map(MAP)


def test_the_reference_los_is_clear_and_smoke_hinders_it_in_clear_weather(m) -> None:
    r = hexwx.los(m, SRC, TGT, weather=AslWeather())
    assert not r.blocked and r.hindrance == 0 and MID in [t.name for t in r.thread]
    assert hexwx.los(m, SRC, TGT, weather=AslWeather(),
                     counters=[f"White +3 Smoke@{MID}"]).hindrance == 3


@pytest.mark.parametrize("weather,rule", [(RAIN, "E3.53"), (MUD, "E3.734"),
                                          (DEEP_SNOW, "E3.734")])
def test_placed_smoke_does_not_exist_and_the_answer_says_why(m, weather, rule) -> None:
    """E3.53 / E3.734: a placed +3 SMOKE counter cannot exist: no smoke hindrance, a note."""
    r = hexwx.los(m, SRC, TGT, weather=weather, counters=[f"White +3 Smoke@{MID}"])
    bare = hexwx.los(m, SRC, TGT, weather=weather)
    assert (r.blocked, r.hindrance, r.lv) == (bare.blocked, bare.hindrance, bare.lv)
    assert not [h for h in r.hindrances if h.kind == "smoke"]
    [note] = r.notes
    assert "White +3 Smoke in A4 left out" in note and f"({rule})" in note
    assert f"note: {note}" in r.explain()
    assert r.to_json()["notes"] == [note]


@pytest.mark.parametrize("weather", [RAIN, MUD, DEEP_SNOW])
def test_blaze_smoke_still_hinders(m, weather) -> None:
    """E3.53, E3.734: SMOKE emanating from a Blaze exists in rain, Mud and Deep Snow."""
    bare = hexwx.los(m, SRC, TGT, weather=weather)
    r = hexwx.los(m, SRC, TGT, weather=weather, counters=[f"Blaze@{MID}"])
    assert r.hindrance == bare.hindrance + 3 and not r.notes
    assert [(h.hex, h.kind, h.drm) for h in r.hindrances if h.kind == "blaze"] == [(MID, "blaze", 3)]


def test_smoke_fire_missions_and_wp_do_not_exist_in_rain(m) -> None:
    c = Counters.of([f"White +1 WP@{MID}", "+2 Smoke Sm FFE:1@A5", f"Gray +2 Smoke@{MID}"])
    kept, notes = under_weather(c, RAIN, m)
    assert not kept and len(notes) == 3 and all("(E3.53)" in n for n in notes)
    # HE fire, vehicles and wrecks are not SMOKE: the weather leaves them
    other = Counters.of(["Red FFE:1@A4", "vehicle:T-34@A3", "Burnt Out Wreck@A5"])
    assert under_weather(other, RAIN, m) == (other, ())


@pytest.mark.parametrize("weather", [RAIN, MUD, DEEP_SNOW])
def test_smoke_grenades_inside_a_building_location_are_kept(m, weather) -> None:
    """E3.53 (SMOKE grenades placed inside a building), E3.734 (SMOKE entirely placed inside a
    building): a grenade at a building's ground level, or SMOKE at an upper building level."""
    inside = Counters.of(["Smoke grenade +2@C3", "WP grenade +1@D4:1", "White +2 Smoke@D4:2"])
    assert under_weather(inside, weather, m) == (inside, ())
    # into the level-1 Location of D4 with the grenade's SMOKE there: the target is in it (A24)
    r = hexwx.los(m, "D6", "D4", to_level=1, weather=weather, counters=["Smoke grenade +2@D4:1"])
    bare = hexwx.los(m, "D6", "D4", to_level=1, weather=weather)
    assert not r.notes and r.hindrance == bare.hindrance + 2 and not bare.blocked


@pytest.mark.parametrize("spec", ["White +3 Smoke@C3", "Smoke grenade +2@A4", "White +2 Smoke@D4:3"])
def test_smoke_outside_a_building_location_is_left_out_under_mud(m, spec) -> None:
    """A plain SMOKE counter at a building's ground level fills the hex from outside; a grenade
    in open ground is not in a building; the rooftop (D4 level 3) is not inside (B23.8)."""
    kept, notes = under_weather(Counters.of([spec]), MUD, m)
    assert not kept and "(E3.734)" in notes[0]


def test_rain_and_mud_together_cite_both_rules(m) -> None:
    w = AslWeather(base="Mud", rain=True)
    [note] = under_weather(Counters.of([f"White +3 Smoke@{MID}"]), w, m)[1]
    assert "during rain and Mud" in note and "(E3.53, E3.734)" in note


def test_every_batch_form_agrees_with_the_single_query(m) -> None:
    """los_pairs, los_table (ground level, streamed, by level), viewshed, exposure and
    sightings leave the SMOKE out as los does:
    with rain each equals its answer with the Blaze alone, and the single los."""
    mixed = Counters.of([f"White +3 Smoke@{MID}", "White +3 Smoke@C5", "Blaze@B6",
                         "Smoke grenade +2@C3", "Gray +1 WP@E5"])
    kept = Counters.of(["Blaze@B6", "Smoke grenade +2@C3"])
    assert under_weather(mixed, RAIN, m)[0] == kept
    rng = np.random.default_rng(23)
    src = rng.integers(0, len(m), 150)
    tgt = rng.integers(0, len(m), 150)
    pairs = los_pairs(m, src, tgt, weather=RAIN, counters=mixed)
    same = los_pairs(m, src, tgt, weather=RAIN, counters=kept)
    dry = los_pairs(m, src, tgt, weather=AslWeather(), counters=mixed)
    assert np.array_equal(pairs.hindrance, same.hindrance)
    assert np.array_equal(pairs.blocked, same.blocked)
    assert not np.array_equal(pairs.hindrance[~dry.blocked], dry.hindrance[~dry.blocked]) or \
        not np.array_equal(pairs.blocked, dry.blocked)           # the SMOKE did matter
    for i in range(0, 150, 5):
        r = hexwx.los(m, int(src[i]), int(tgt[i]), weather=RAIN, counters=mixed)
        assert r.blocked == bool(pairs.blocked[i])
        if not r.blocked:
            assert (r.hindrance, r.lv) == (int(pairs.hindrance[i]), int(pairs.lv[i]))
    table = hexwx.los_table(m, weather=RAIN, counters=mixed)
    table_kept = hexwx.los_table(m, weather=RAIN, counters=kept)
    assert np.array_equal(table.hindrance, table_kept.hindrance)
    assert np.array_equal(table.blocked, table_kept.blocked)
    assert not np.array_equal(hexwx.los_table(m, counters=mixed).hindrance,
                              hexwx.los_table(m, counters=kept).hindrance)   # dry, it matters
    chunks = [c for c, _ in los_table_chunks(m, weather=RAIN, counters=mixed, chunk_pairs=20000)]
    got = {(s, t): h for c in chunks for s, t, h in zip(c.src.tolist(), c.tgt.tolist(),
                                                         c.hindrance.tolist())}
    assert got == dict(zip(zip(table.src.tolist(), table.tgt.tolist()),
                           table_kept.hindrance.tolist()))
    levels = hexwx.los_table(m, weather=RAIN, counters=mixed, from_level=1)
    levels_kept = hexwx.los_table(m, weather=RAIN, counters=kept, from_level=1)
    assert np.array_equal(levels.hindrance, levels_kept.hindrance) and len(levels.src)
    v = hexwx.viewshed(m, SRC, weather=RAIN, counters=mixed)
    assert np.array_equal(v.drm, hexwx.viewshed(m, SRC, weather=RAIN, counters=kept).drm)
    assert len(v.notes) == 3 and v.to_json()["notes"] == list(v.notes)
    a7 = m.parse(TGT)
    assert v.drm[a7] == hexwx.los(m, SRC, TGT, weather=RAIN, counters=mixed).drm
    ex = exposure(m, observers=[SRC, "E1", "C8"], weather=RAIN, counters=mixed)
    ex_kept = exposure(m, observers=[SRC, "E1", "C8"], weather=RAIN, counters=kept)
    assert np.array_equal(ex.count, ex_kept.count)
    units = [ScenarioUnit("a", "Axis", SRC), ScenarioUnit("b", "Allied", TGT)]
    seen = sightings(m, units, weather=RAIN, counters=mixed)
    assert len(seen) == 2 and all(s.result.notes and s.result.hindrance == 0 for s in seen)
    assert hexwx.los(m, SRC, TGT, counters=mixed).hindrance == 3     # dry: A4's SMOKE


def test_cli_forms_print_the_note(m, capsys, tmp_path) -> None:
    """hexwx los (text, JSON), los-table and los-batch (note on stderr: the CSV stays a CSV)
    and exposure (text, JSON) say which SMOKE the rain left out."""
    smoke = ["--counter", f"White +3 Smoke@{MID}", "--rain"]
    assert main(["los", MAP, SRC, TGT, *smoke]) == 0
    out = capsys.readouterr().out
    assert "note: White +3 Smoke in A4 left out" in out and "(E3.53)" in out
    assert main(["los", MAP, SRC, TGT, *smoke, "--json"]) == 0
    assert "E3.53" in json.loads(capsys.readouterr().out)["notes"][0]
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(f"src,tgt\n{SRC},{TGT}\n")
    assert main(["los-batch", MAP, str(pairs), *smoke]) == 0
    got = capsys.readouterr()
    assert "E3.53" in got.err and "E3.53" not in got.out
    row = dict(zip(*[line.split(",") for line in got.out.splitlines()[:2]]))
    assert row["hindrance"] == "0"
    assert main(["los-table", MAP, *smoke, "-o", str(tmp_path / "t.csv"), "--quiet"]) == 0
    assert "note: White +3 Smoke in A4 left out" in capsys.readouterr().err
    assert main(["exposure", MAP, "--from", SRC, *smoke, "--json"]) == 0
    assert "E3.53" in json.loads(capsys.readouterr().out)["notes"][0]


def test_render_viewshed_caption_has_the_note(m, capsys, tmp_path) -> None:
    assert main(["render", MAP, "--from", SRC, "--viewshed", "--rain", "--counter",
                 f"White +3 Smoke@{MID}", "-o", str(tmp_path / "v.png")]) == 0
    out = capsys.readouterr().out
    assert "note: White +3 Smoke in A4 left out" in out and "(E3.53)" in out


def test_a_bad_counter_is_still_refused_under_rain(m) -> None:
    """SMOKE the rain would leave out is still checked against the map: a hex off the map or a
    level the hex lacks is the usual error naming ``counters``, not a silent note."""
    with pytest.raises(UsageError, match=r"counters: counter 'White \+3 Smoke@ZZ99'"):
        hexwx.los(m, SRC, TGT, weather=RAIN, counters=["White +3 Smoke@ZZ99"])
    with pytest.raises(UsageError, match=r"level 2 does not exist in hex A4"):
        los_pairs(m, [SRC], [TGT], weather=RAIN, counters=["White +3 Smoke@A4:2"])
