"""``hexwx sight`` on a save built from real pieces: counters in the DRM, concealed units
marked, --side, --visible-only, --no-counters; the answers are those of ``hexwx.los``."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hexwx
from hexwx.cli.app import main
from hexwx.io.scenario import load_scenario
from piece_helpers import at, command, save_units, smoke, stack, unit
from vasl_boards import board
from vsav_helpers import board_command, save_text, write_save


def _run(capsys, *argv: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.fixture(scope="module")
def pair() -> tuple[str, str, str]:
    """Two ground-level hexes of board 3 with a clear, unhindered LOS of range >= 4, and a hex
    at range 2 on it (single-letter columns: tests/piece_helpers.at)."""
    m = board("bd03")
    t = hexwx.los_table(m)
    names = m.grid.names()
    base = m.hexes.base
    ok = ~t.blocked & (t.hindrance == 0) & (t.range >= 4) & (base[t.src] == 0) & (base[t.tgt] == 0)
    for i in np.flatnonzero(ok).tolist():
        a, b = names[t.src[i]], names[t.tgt[i]]
        if len(a) > 3 or len(b) > 3 or not a[1:].isdigit() or not b[1:].isdigit():
            continue
        r = hexwx.los(m, a, b)
        mid = next(th.name for th in r.thread if th.rs == 2)
        if len(mid) <= 3 and mid[1:].isdigit():
            return a, b, mid
    pytest.skip("no suitable pair on board 3")


def test_sight_reads_smoke_and_concealment_from_the_save(pair, tmp_path: Path, capsys) -> None:
    a, b, mid = pair
    qmark = save_units()["?"]
    cmds = [board_command("0\t0\t03\tVER\t6.1"),
            unit("1", "4-6-8 Esq", *at(a)),
            unit("2", "6-2-8 Esq", *at(b)), command("3", qmark, *at(b)),
            stack("s1", *at(b), ["2", "3"]),
            smoke("4", *at(mid))]
    save = write_save(tmp_path / "g.vsav", save_text(cmds))
    toml = tmp_path / "g.toml"
    assert _run(capsys, "import-vsav", save, "-o", toml)[0] == 0
    rc, out, err = _run(capsys, "sight", "--scenario", toml, "--json")
    assert rc == 0, err
    d = json.loads(out)
    got = {(p["viewer"], p["target"]): p for p in d["pairs"]}
    p = got[("ge-4-6-8-Esq", "ru-6-2-8-Esq")]
    assert p["target_concealed"] is True and p["viewer_concealed"] is False
    assert p["hindrance"] == 3 and p["hindrances"][0]["name"] == "White +3 Smoke"
    m = load_scenario(toml).map
    ref = hexwx.los(m, a, b, counters=[f"White +3 Smoke@{mid}"])
    assert (p["blocked"], p["drm"]) == (ref.blocked, ref.drm)
    # text: one line per sighting, the DRM and its parts, concealment marked
    rc, out, _ = _run(capsys, "sight", "--scenario", toml, "--side", "Axis")
    line = next(x for x in out.splitlines() if x.startswith("ge-4-6-8-Esq"))
    assert "concealed" in line and f"DRM +3 = +3 smoke (White +3 Smoke) in {mid} (A24)" in line
    assert not any(x.startswith("ru-") for x in out.splitlines())
    # the bare map: no SMOKE
    rc, out, _ = _run(capsys, "sight", "--scenario", toml, "--no-counters", "--json")
    bare = {(q["viewer"], q["target"]): q for q in json.loads(out)["pairs"]}
    assert bare[("ge-4-6-8-Esq", "ru-6-2-8-Esq")]["hindrance"] == 0
    # the save itself as MAP: its SMOKE counts, --no-counters answers as the bare map
    rc, out, err = _run(capsys, "los", save, a, b, "--json")
    assert rc == 0, err
    assert json.loads(out)["hindrance"] == 3
    rc, out, _ = _run(capsys, "los", save, a, b, "--json", "--no-counters")
    assert json.loads(out)["hindrance"] == 0
    # --visible-only leaves out the blocked pairs, --side an unknown side is an error
    rc, out, _ = _run(capsys, "sight", "--scenario", toml, "--visible-only", "--json")
    assert all(not q["blocked"] for q in json.loads(out)["pairs"])
    rc, _out, err = _run(capsys, "sight", "--scenario", toml, "--side", "Martian")
    assert rc == 2 and "no unit of side 'Martian'" in err
