"""``--counter`` and ``--no-counters`` on the map commands (hexwx.cli.counter_opts)."""
from __future__ import annotations

import argparse
import json

import pytest

import hexwx
from hexwx.cli.app import main
from hexwx.cli.counter_opts import add_counter_options, counters_from_args
from hexwx.errors import UsageError

VILLAGE = "maps/hill_village.toml"


def _run(capsys, *argv: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _clear_pair(m):
    t = hexwx.los_table(m)
    import numpy as np
    i = int(np.flatnonzero(~t.blocked & (t.hindrance == 0) & (t.range >= 4))[0])
    r = hexwx.los(m, int(t.src[i]), int(t.tgt[i]))
    return r.source, r.target, next(th.name for th in r.thread if th.rs == 2)


def test_los_counter_flag_adds_the_counter(capsys) -> None:
    m = hexwx.load_map(VILLAGE)
    a, b, mid = _clear_pair(m)
    rc, out, err = _run(capsys, "los", VILLAGE, a, b, "--counter", f"White +3 Smoke@{mid}",
                        "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["hindrance"] == 3 and d["lv"] == 0
    assert d["hindrances"] == [{"hex": mid, "drm": 3, "kind": "smoke", "rule": "A24", "note": None,
                                "name": "White +3 Smoke"}]
    rc, out, _ = _run(capsys, "los", VILLAGE, a, b, "--counter", f"White +3 Smoke@{mid}")
    assert f"+3 smoke (White +3 Smoke) in {mid} (A24)" in out


def test_bad_counters_are_one_line_usage_errors(capsys) -> None:
    for spec, msg in (("T-34@C5", "unknown counter 'T-34'"), ("Blaze@Q99", "counter 'Blaze@Q99'"),
                      ("Blaze", "bad counter 'Blaze'"), ("Blaze@C5:7", "level 7 does not exist")):
        rc, out, err = _run(capsys, "los", VILLAGE, "A1", "C5", "--counter", spec)
        assert rc == 2 and out == "" and msg in err and len(err.strip().splitlines()) == 1
    rc, _out, err = _run(capsys, "los", VILLAGE, "A1", "C5", "--counter", "Blaze@C5",
                         "--no-counters")
    assert rc == 2 and "--no-counters" in err


def test_no_counters_ignores_the_scenario_counters(tmp_path) -> None:
    p = argparse.ArgumentParser()
    add_counter_options(p)
    m = hexwx.load_map(VILLAGE)

    from hexwx.lineofsight.counters import Counter

    class Sc:
        los_counters = (Counter("Blaze", "C5"),)
    assert len(counters_from_args(p.parse_args([]), m, scenario=Sc())) == 1
    assert len(counters_from_args(p.parse_args(["--counter", "Wreck@D5"]), m, scenario=Sc())) == 2
    assert len(counters_from_args(p.parse_args(["--no-counters"]), m, scenario=Sc())) == 0
    with pytest.raises(UsageError, match="--counter: counter 'Wreck@Z99'"):
        counters_from_args(p.parse_args(["--counter", "Wreck@Z99"]), m)


def test_los_table_with_counters_equals_los(capsys, tmp_path) -> None:
    m = hexwx.load_map(VILLAGE)
    a, b, mid = _clear_pair(m)
    out = tmp_path / "t.csv"
    rc, _o, err = _run(capsys, "los-table", VILLAGE, "--counter", f"White +3 Smoke@{mid}",
                       "-o", out, "-q")
    assert rc == 0, err
    row = next(line for line in out.read_text().splitlines() if line.startswith(f"{a},{b},"))
    r = hexwx.los(m, a, b, counters=[f"White +3 Smoke@{mid}"])
    assert row.split(",")[3:] == ["0", str(r.hindrance)] and r.hindrance == 3


def test_los_batch_and_exposure_take_counters_and_a_scenario(capsys, tmp_path) -> None:
    m = hexwx.load_map(VILLAGE)
    a, b, mid = _clear_pair(m)
    pairs = tmp_path / "p.csv"
    pairs.write_text(f"src,tgt\n{a},{b}\n")
    rc, out, err = _run(capsys, "los-batch", VILLAGE, pairs, "--counter",
                        f"White +3 Smoke@{mid}", "--format", "jsonl")
    assert rc == 0, err
    assert json.loads(out)["hindrance"] == 3
    sc = tmp_path / "s.toml"
    from pathlib import Path
    village = Path(VILLAGE).resolve()
    sc.write_text(f'map = "{village}"\n[[counters]]\nname = "White +3 Smoke"\nhex = "{mid}"\n')
    rc, out, err = _run(capsys, "los-batch", "--scenario", sc, pairs, "--format", "jsonl")
    assert rc == 0, err
    assert json.loads(out)["hindrance"] == 3
    rc, out, _ = _run(capsys, "los-batch", "--scenario", sc, pairs, "--format", "jsonl",
                      "--no-counters")
    assert json.loads(out)["hindrance"] == 0
    # exposure: SMOKE of +3 with the terrain of six blocks some LOS: never more observers
    rc, out, _ = _run(capsys, "exposure", VILLAGE, "--json")
    bare = json.loads(out)
    rc, out, _ = _run(capsys, "exposure", "--scenario", sc, "--json")
    smoked = json.loads(out)
    assert rc == 0
    bare_c = bare.get("counts") or bare.get("hexes")
    smoked_c = smoked.get("counts") or smoked.get("hexes")
    assert bare_c.keys() == smoked_c.keys()
    assert all((smoked_c[k] or 0) <= (bare_c[k] or 0) for k in bare_c)
