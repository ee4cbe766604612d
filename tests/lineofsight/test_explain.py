"""The LOS answer in words (issue 27 item 1): what blocks and its height, every part of a
six-or-more total, mist bands, why winter camouflage did or did not count, one citation style,
plain words for the building-exit and blind-hex cases -- in the text and in the JSON."""
from __future__ import annotations

import json
import re

import pytest

from hexwx.cli import main
from hexwx.lineofsight import engine as E
from hexwx.lineofsight.engine import REASONS, los
from hexwx.lineofsight.lv import mist_band_drm, mist_band_note
from hexwx.lineofsight.results import LosResult
from hexwx.weather.asl.state import AslWeather
from tests.vasl_boards import board, cli_args

#: A rule as the rulebook prints it: chapter letter, number, optional example, joined by ", ".
ONE_RULE = r"[A-Z]\d*\.\d+(?: Ex\. \d+)?"
CITATION = re.compile(rf"^{ONE_RULE}(?:, {ONE_RULE})*$")


def _cli(capsys: pytest.CaptureFixture[str], name: str, *args: str) -> str:
    """What ``hexwx los BOARD ARGS`` prints for VASL board ``name``."""
    archive, *meta = cli_args(name)
    assert main(["los", archive, *args, *meta]) == 0
    return capsys.readouterr().out


def test_blocked_answer_names_the_orchard_and_its_height(capsys: pytest.CaptureFixture[str]) -> None:
    m = board("bd12")
    r = los(m, "P3", "P9", from_level=1)
    assert r.blocked and r.blocking_hex == "P6"
    x, y = r.blocked_at or (0, 0)
    assert m.table[int(m.terrain[x, y])].name.lower().startswith(r.blocking_terrain or "?")
    assert r.blocking_terrain == "orchard" == m.terrain_of(m.parse("P6")).name.lower()
    assert r.blocking_ground == m.ground_level(m.parse("P6")) == 0 and r.blocking_top == 1
    text = _cli(capsys, "bd12", "P3", "P9", "--from-level", "1")
    assert "BLOCKED by orchard in P6 (top at level 1: ground level 0 + 1)" in text
    assert "(A6.2)" in text
    d = json.loads(_cli(capsys, "bd12", "P3", "P9", "--from-level", "1", "--json"))
    assert d["blocking_terrain"] == "orchard" and d["blocking_top"] == 1 and d["blocking_ground"] == 0
    assert d["blocked_by"].startswith("orchard in P6") and d["verdict"] in text
    # every field the JSON had before is still there
    assert {"source", "target", "range", "blocked", "reason", "rule", "blocked_at", "blocking_hex",
            "hindrance", "lv", "drm", "hindrances", "thread", "source_location"} <= set(d)


def test_higher_ground_is_named_as_a_hill() -> None:
    m = board("bd02")
    r = los(m, "S6", "K3")
    assert r.rule == "A6.2" and r.reason == REASONS[2][0]     # ground level higher than both
    x, y = r.blocked_at or (0, 0)
    assert r.blocking_terrain == "hill" and r.blocking_top == r.blocking_ground == m.elevation[x, y] > 0
    assert f"BLOCKED by hill in {r.blocking_hex} (ground level {r.blocking_ground})" in r.explain()


def test_six_or_more_lists_every_part(capsys: pytest.CaptureFixture[str]) -> None:
    text = _cli(capsys, "bd02", "I4", "B5", "--fog", "0", "--fog-drm", "3")
    r = los(board("bd02"), "I4", "B5", weather=AslWeather(fog_level=0, fog_drm=3))
    assert r.blocked and r.by_hindrances and r.blocking_terrain is None
    total = sum(h.drm for h in r.hindrances)
    assert total >= 6 and len(r.hindrances) >= 2
    assert f"{total} in all:" in text
    for h in r.hindrances:
        assert f"  +{h.drm} {h.kind} in {h.hex} ({h.rule})" in text
    d = json.loads(_cli(capsys, "bd02", "I4", "B5", "--fog", "0",
                        "--fog-drm", "3", "--json"))
    assert d["verdict"].endswith(f"= {total}") and len(d["hindrances"]) == len(r.hindrances)


def test_mist_names_its_band(capsys: pytest.CaptureFixture[str]) -> None:
    text = _cli(capsys, "bd02", "P5", "EE3", "--mist")
    assert "+2 mist, range 15: 13-18 hexes (E3.32)" in text
    for r in range(7, 40):
        lo, hi = (int(x) for x in re.fullmatch(rf"range {r}: (\d+)-(\d+) hexes", mist_band_note(r)).groups())
        assert lo <= r <= hi and hi - lo == 5
        assert mist_band_drm(lo) == mist_band_drm(hi) == mist_band_drm(r) > mist_band_drm(lo - 1)
    d = json.loads(_cli(capsys, "bd02", "P5", "EE3", "--falling-snow", "--heavy",
                        "--json"))
    notes = {h["kind"]: h["note"] for h in d["hindrances"]}
    assert notes["falling snow"] == "range 15: 13-18 hexes"
    assert notes["falling snow (intensified)"] == "heavy: +1 at every range"


def test_winter_camouflage_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    m = board("bd03")
    snow = AslWeather(ground_snow=True)
    r = los(m, "F3", "Q3", weather=snow, target_winter_camouflage=True)
    assert not r.blocked and r.range > 8 and "shellholes" in m.terrain_of(m.parse("Q3")).name.lower()
    assert all(h.kind != "winter camouflage" for h in r.hindrances)
    (note,) = r.notes
    assert "no +1" in note and "+1 shellholes, B2.1" in note and note.endswith("(E3.712)")
    text = _cli(capsys, "bd03", "F3", "Q3", "--ground-snow", "--target-camouflaged")
    assert f"note: {note}" in text
    # the same target as a vehicle: shellholes give no TEM to vehicles, but 11 <= 16 hexes
    v = los(m, "F3", "Q3", weather=snow, target_winter_camouflage=True, target_is_infantry=False)
    assert "no +1 at range 11" in v.notes[0] and "16 hexes for a vehicle" in v.notes[0]
    # no snow, no camouflage; and an open target in snow beyond 8 hexes gets it
    assert "no snow" in los(m, "F3", "Q3", weather=AslWeather(), target_winter_camouflage=True).notes[0]
    o = los(board("bd02"), "P5", "DD1", weather=snow, target_winter_camouflage=True,
            target_positive_tem=False)
    assert not o.blocked and o.notes[0].startswith("winter camouflage: +1 at range 14")
    assert [h.note for h in o.hindrances if h.kind == "winter camouflage"] == \
        ["range 14, beyond 8 hexes for infantry"]


def test_one_citation_style() -> None:
    rules = {rule for _, rule in REASONS.values() if rule} | {E.LV_BLOCK_REASON[1]}
    m = board("bd02")
    for w in (AslWeather(fog_level=0, fog_drm=3), AslWeather(base="Mist"),
              AslWeather(falling_snow=True, heavy=True, ground_snow=True)):
        for a, b in (("I4", "B5"), ("P5", "EE3"), ("J4", "B5"), ("V8", "V8")):
            r = los(m, a, b, weather=w, target_winter_camouflage=True, target_positive_tem=False)
            rules |= {h.rule for h in r.hindrances}
    assert rules and all(CITATION.match(rule) for rule in rules), sorted(rules)


def test_building_exit_and_blind_hex_in_plain_words() -> None:
    r = los(board("bd03"), "L4", "M5", from_level=1)
    assert r.rule == "A6.8" and "inside a building" in r.reason and "wooden building" in r.explain()
    hill = los(board("bd02"), "H10", "Z4")
    assert hill.rule == "A6.4"
    low, high = sorted((hill.source, hill.target),
                       key=lambda n: hill.source_elevation if n == hill.source else hill.target_elevation)
    assert f"blind hex: {low} lies too close behind this obstacle to be seen from {high}" in hill.explain()


def test_hand_made_answer_without_terrain_reads_as_before() -> None:
    r = LosResult("C5", "G5", 0, 0, 4, True, "woods", "B13", (1, 1), "E5", 0, 0, ())
    assert r.verdict == "BLOCKED in E5: woods (B13)" and r.blocked_by is None


def test_terrain_six_or_more_lists_every_part() -> None:
    """LOS-SPEC 8 #13: board 16 A1 -> I4, the sixth grain hex (H3) blocks (B.10)."""
    r = los(board("bd16"), "A1", "I4")
    assert r.blocked and r.rule == "B.10" and r.blocking_hex == "H3" and r.by_hindrances
    text = r.explain()
    assert f"BLOCKED in H3: {r.reason} (B.10), 6 in all:" in text
    assert sum(h.drm for h in r.hindrances) == 6 == text.count("  +1 grain in ")
    assert r.verdict.endswith("= 6") and r.blocked_by.startswith("hindrances +1")
