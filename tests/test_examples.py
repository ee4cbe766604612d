"""The shipped examples say what they do (issue #14 item 17): the README's command lines and
literal outputs, the fog scenario's promise, and hill_village's road."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from hexwx.cli import main
from hexwx.io.load import load_map
from hexwx.io.scenario import load_scenario
from hexwx.lineofsight.engine import los

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_fog_on_the_hill_is_a_hindered_shot() -> None:
    # its comment: I4 (level-2 hilltop) -> C3 (wooden building) six hexes off, clear, fog +2:
    # C3 itself (target in fog) and D3, in the fog obstacle's blind-hex zone (A6.41).
    sc = load_scenario(ROOT / "scenarios" / "fog_on_the_hill.toml")
    a, b = sc.unit("hill-squad"), sc.unit("village-squad")
    r = los(sc.map, a.hex, b.hex, from_level=a.level, to_level=b.level, weather=sc.weather)
    assert (r.blocked, r.range, r.hindrance, r.lv) == (False, 6, 0, 2)
    assert sorted(h.hex for h in r.hindrances) == ["C3", "D3"]
    assert sc.map.terrain_of(sc.map.parse(b.hex)).name == "Wooden Building"
    # when the fog is gone, the same shot is unhindered
    assert los(sc.map, a.hex, b.hex, weather=sc.weather.replace(fog_level=None, fog_drm=None)).drm == 0


def test_hill_village_roads_avoid_buildings_and_walls() -> None:
    m = load_map(ROOT / "maps" / "hill_village.toml")
    for h in range(len(m)):
        for k in range(6):
            if m.road_sides[h, k]:
                o = int(m.grid.neighbours[h, k])
                assert not m.terrain_of(h).is_building and not m.terrain_of(o).is_building, \
                    m.name_of(h)
                assert m.hexside_terrain(h, k) is None, f"road across {m.name_of(h)}:{k}"


README_LOS = [line.split("#")[0].strip() for line in README.splitlines()
              if line.strip().startswith("hexwx los maps/")]


@pytest.mark.parametrize("command", README_LOS)
def test_readme_los_lines_run_and_keep_their_promise(command: str, capsys) -> None:
    argv = shlex.split(command)[1:]
    assert main([*argv, "--json"]) == 0
    import json
    d = json.loads(capsys.readouterr().out)
    line = next(x for x in README.splitlines() if command in x)
    promised = re.search(r"\(\+(\d+)\)", line)
    if promised:                      # "(+2)": a clear LOS with that DRM
        assert not d["blocked"] and d["drm"] == int(promised.group(1)), d


def test_readme_literal_los_output(capsys) -> None:
    block = re.search(r"\$ (hexwx los maps/\S+ \S+ \S+)\n((?:    .+\n)+)", README)
    assert block, "README shows a hexwx los example with its output"
    assert main(shlex.split(block.group(1))[1:]) == 0
    shown = "".join(x[4:] + "\n" for x in block.group(2).splitlines())
    assert capsys.readouterr().out == shown
