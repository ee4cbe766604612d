"""LOS at every level: locations named as players name them with their elevation, and every
batch form (``los_pairs``, ``los_table`` at levels, ``viewshed`` from a building level or a
rooftop, ``hexwx los-table --from-level/--to-level/--all-locations``, ``hexwx los-batch``)
giving exactly the single query's answer."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from vasl_boards import board, metadata
from hexwx.cli import main
from hexwx.errors import UsageError
from hexwx.io.load import load_map
from hexwx.lineofsight.batch import LV_BLOCKED, locations, los_pairs
from hexwx.lineofsight.engine import los, los_table, viewshed
from hexwx.lineofsight.locations import location_name
from hexwx.weather.asl.state import AslWeather

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "hill_village.toml"    # D4: a 2-level stone building with a rooftop


def village():
    return load_map(VILLAGE)


# -- naming the locations ------------------------------------------------------------------

def test_locations_are_named_as_players_name_them() -> None:
    m = village()
    assert location_name(m, m.parse("J4"), 0) == "J4 (hill level 3)"
    assert location_name(m, m.parse("A1"), 0) == "A1 (level 0)"
    assert location_name(m, m.parse("D4"), 2) == "D4 level 2 (stone building)"
    assert location_name(m, m.parse("D4"), 3) == "D4 rooftop"


def test_vasl_board_locations() -> None:
    m2, m5, m20 = board("bd02"), board("bd05"), board("bd20")
    assert location_name(m2, m2.parse("J4"), 0) == "J4 (hill level 3)"
    assert location_name(m5, m5.parse("Z2"), 0) == "Z2 (gully level -1)"
    h = int(np.flatnonzero((m20.hexes.levels == 2) & (m20.hexes.rooftop == 1))[0])
    name = m20.name_of(h)
    kind = m20.terrain_of(h).name.split(",")[0].lower()
    assert location_name(m20, h, 1) == f"{name} level 1 ({kind})"
    assert location_name(m20, h, 3) == f"{name} rooftop"


def test_explain_and_json_say_the_elevation(capsys: pytest.CaptureFixture[str]) -> None:
    r = los(village(), "D4", "J4", from_level=3)
    assert r.explain().splitlines()[0].startswith("D4 rooftop -> J4 (hill level 3): range")
    data = r.to_json()
    assert (data["source_elevation"], data["target_elevation"]) == (3, 3)
    assert data["source_location"] == "D4 rooftop" and data["source_level"] == 3
    rc = main(["los", str(VILLAGE), "D4", "J4", "--from-level", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert out["source_location"] == "D4 level 2 (stone building)"
    assert (out["source_elevation"], out["target_elevation"]) == (2, 3)
    for key in ("source", "target", "source_level", "target_level", "range", "blocked",
                "hindrance", "lv", "drm", "reason", "rule", "blocked_at", "blocking_hex",
                "hindrances", "thread"):
        assert key in out                                   # every earlier field is kept


def test_render_caption_names_the_elevation() -> None:
    from hexwx.render.core import los_caption, render_map
    m = village()
    r = los(m, "D4", "J4", from_level=3)
    assert los_caption(r).startswith("LOS D4 rooftop, elevation 3 -> J4 (hill level 3), range")
    vs = viewshed(m, "D4", level=2)
    cap = render_map(m, viewshed=vs, viewshed_from="D4", viewshed_level=2, scale=0.2).caption
    assert "viewshed of D4 level 2 (stone building), elevation 2:" in cap


# -- batch forms = the single query ----------------------------------------------------------

def _same_as_los(m, a, i: int, weather=None) -> None:
    r = los(m, int(a.src[i]), int(a.tgt[i]), from_level=int(a.src_level[i]),
            to_level=int(a.tgt_level[i]), weather=weather)
    text, rule = a.reason_of(i)
    got = (bool(a.blocked[i]), text, rule, int(a.hindrance[i]), int(a.range[i]),
           m.name_of(int(a.blocking_hex[i])) if a.blocking_hex[i] >= 0 else None,
           tuple(int(v) for v in a.blocked_at[i]) if a.reason[i] > 0 else None,
           int(a.src_elevation[i]), int(a.tgt_elevation[i]))
    want = (r.blocked, r.reason, r.rule, r.hindrance, r.range, r.blocking_hex, r.blocked_at,
            r.source_elevation, r.target_elevation)
    assert got == want, r.explain()
    if weather is not None and not r.blocked:
        assert int(a.lv[i]) == r.lv, r.explain()


def _mixed_pairs(m, n: int, seed: int) -> tuple[np.ndarray, ...]:
    h, lv = locations(m)
    rng = np.random.default_rng(seed)
    i, j = rng.integers(0, len(h), n), rng.integers(0, len(h), n)
    return h[i], h[j], lv[i], lv[j]


@pytest.mark.parametrize("name", ["bd10", "bd20", "bd22"])
def test_los_pairs_equal_los_one_by_one(name: str) -> None:
    m = board(name)
    s, t, sl, tl = _mixed_pairs(m, 600, seed=len(name))
    a = los_pairs(m, s, t, sl, tl)
    assert a.blocked.any() and (~a.blocked).any()
    for i in range(len(a)):
        _same_as_los(m, a, i)


def test_los_pairs_with_weather_equal_los() -> None:
    m = village()
    w = AslWeather(fog_level=0, fog_drm=1)
    s, t, sl, tl = _mixed_pairs(m, 300, seed=3)
    a = los_pairs(m, s, t, sl, tl, weather=w)
    assert a.lv is not None and (a.lv > 0).any()
    for i in range(len(a)):
        _same_as_los(m, a, i, weather=w)
    assert set(np.unique(a.reason).tolist()) <= set(range(0, 18)) | {LV_BLOCKED}


def test_los_pairs_rejects_missing_locations() -> None:
    m = village()
    with pytest.raises(UsageError, match="level 4 does not exist in hex D4"):
        los_pairs(m, ["D4"], ["A1"], [4], [0])
    with pytest.raises(UsageError, match="ZZ9"):
        los_pairs(m, ["ZZ9"], ["A1"])
    with pytest.raises(UsageError, match="whole numbers"):
        los_pairs(m, ["D4"], ["A1"], [1.5], [0])


def test_viewshed_from_a_rooftop_uses_the_rooftop() -> None:
    m = village()
    vs = viewshed(m, "D4", level=3)
    for t in range(len(m)):
        r = los(m, "D4", t, from_level=3)
        assert bool(vs.blocked[t]) == r.blocked, r.explain()


def test_los_table_at_levels() -> None:
    m = village()
    t = los_table(m, from_level=2)
    assert set(t.src.tolist()) == {m.parse("D4")} and (t.src_level == 2).all()
    assert len(t.src) == len(m) - 1 and (t.tgt_level == 0).all()
    for i in range(0, len(t.src), 7):
        r = los(m, int(t.src[i]), int(t.tgt[i]), from_level=2)
        assert (bool(t.blocked[i]), int(t.hindrance[i])) == (r.blocked, r.hindrance)
    every = los_table(m, all_locations=True)
    nloc = len(m) + 3                                        # D4 levels 1, 2 and its rooftop
    assert len(every.src) == nloc * (nloc - 1)
    with pytest.raises(UsageError, match="level 5"):
        los_table(m, from_level=5)


def test_cli_los_table_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.csv"
    assert main(["los-table", str(VILLAGE), "--from-level", "3", "-o", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == ["src", "src_level", "tgt", "tgt_level", "range", "blocked", "hindrance"]
    m = village()
    for row in rows[::9]:
        r = los(m, row["src"], row["tgt"], from_level=int(row["src_level"]))
        assert row["blocked"] == ("1" if r.blocked else "0")
        assert row["hindrance"] == ("" if r.blocked else str(r.hindrance))


# -- hexwx los-batch ---------------------------------------------------------------------------

def _pairs_csv(tmp_path: Path, m, n: int) -> tuple[Path, list[tuple[str, int, str, int]]]:
    s, t, sl, tl = _mixed_pairs(m, n, seed=11)
    pairs = [(m.name_of(int(a)), int(b), m.name_of(int(c)), int(d)) for a, b, c, d in zip(s, sl, t, tl)]
    p = tmp_path / "pairs.csv"
    with p.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["tgt", "src", "src_level", "tgt_level"])     # any column order
        for a, al, b, bl in pairs:
            w.writerow([b, a, al, "" if bl == 0 else bl])        # an empty level is 0
    return p, pairs


def test_los_batch_jsonl_equals_los_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = village()
    p, pairs = _pairs_csv(tmp_path, m, 150)
    out = tmp_path / "answers.jsonl"
    assert main(["los-batch", str(VILLAGE), str(p), "-o", str(out), "--fog", "0", "--fog-drm", "1"]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == len(pairs)
    w = AslWeather(fog_level=0, fog_drm=1)
    for got, (a, al, b, bl) in zip(lines, pairs):
        want = los(m, a, b, from_level=al, to_level=bl, weather=w).to_json()
        assert got == {k: want[k] for k in got}, (a, al, b, bl)
        assert "hindrances" not in got and "thread" not in got


def test_los_batch_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = board("bd10")
    p, pairs = _pairs_csv(tmp_path, m, 200)
    assert main(["los-batch", str(board_path("bd10")), str(p), "--vasl-metadata", str(metadata())]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(pairs)
    for row, (a, al, b, bl) in zip(rows, pairs):
        r = los(m, a, b, from_level=al, to_level=bl)
        assert (row["source"], row["target"], int(row["source_level"]), int(row["target_level"])) == (a, b, al, bl)
        assert row["blocked"] == str(int(r.blocked)) and row["reason"] == r.reason
        assert row["hindrance"] == ("" if r.blocked else str(r.hindrance))
        assert row["source_location"] == r.source_location
        assert int(row["target_elevation"]) == r.target_elevation


def board_path(name: str) -> Path:
    from vasl_boards import archive
    return archive(name)


@pytest.mark.parametrize("text,message", [
    ("src,tgt\nA1,ZZ9\n", "line 2: tgt 'ZZ9' is not a hex of this map"),
    ("src,tgt,src_level\nA1,B2,0\nD4,A1,x\n", "line 3: src_level 'x' is not a whole number"),
    ("src,tgt,src_level\nA1,B2,0\nD4,A1,4\n", "line 3: src_level: level 4 does not exist in hex D4"),
    ("source,target\nA1,B2\n", "no column 'src'"),
    ("", "empty file"),
])
def test_los_batch_bad_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                            message: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(text)
    rc = main(["los-batch", str(VILLAGE), str(p)])
    err = capsys.readouterr().err
    assert rc == 1 and message in err and str(p) in err
    assert len(err.strip().splitlines()) == 1
