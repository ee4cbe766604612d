"""docs/mapfile.md says true things (issue #14 item 16): its example file loads and means what
its comments say, and its error examples are the errors hexwx gives."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexwx.errors import DataError
from hexwx.io.mapfile import load_mapfile
from hexwx.movement.paths import path

DOC = Path(__file__).resolve().parents[2] / "docs" / "mapfile.md"


def doc_example(tmp_path: Path) -> Path:
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    assert block, "docs/mapfile.md has no ```toml example"
    p = tmp_path / "example.toml"
    p.write_text(block.group(1))
    return p


def test_the_documented_example_means_what_it_says(tmp_path: Path) -> None:
    m = load_mapfile(doc_example(tmp_path))
    assert m.name == "Hill and village"
    hx = m.parse
    assert (m.ground_level(hx("G3")), m.ground_level(hx("G4")), m.ground_level(hx("I4"))) == (1, 1, 2)
    assert m.ground_level(hx("A1")) == 0                               # unlisted: level 0
    assert m.terrain_of(hx("M2")).name == m.terrain_of(hx("M3")).name == "Woods"
    assert m.terrain_of(hx("E2")).name == "Grain"
    # "a two-level stone building (levels 1-2 and a rooftop)": locations 0, 1, 2 and roof 3
    assert list(m.levels_at(hx("D4"))) == [0, 1, 2, 3] and m.is_rooftop(hx("D4"), 3)
    # "D5:NE is the same hexside as E5:SW"
    assert m.hexside_terrain(hx("D5"), 1).name == m.hexside_terrain(hx("E5"), 4).name == "Wall"
    assert m.hexside_terrain(hx("K5"), 2).name == "Cliff"
    # roads: A5-B5-C5 dirt (1), H1-H2 paved (2)
    side = m.grid.side_towards
    assert m.road_sides[hx("A5"), side(hx("A5"), hx("B5"))] == 1
    assert m.road_sides[hx("B5"), side(hx("B5"), hx("C5"))] == 1
    assert m.road_sides[hx("H1"), side(hx("H1"), hx("H2"))] == 2
    # the depiction draws woods inside C4 without filling it
    woods = m.table.code_named("Woods")
    assert m.fills[hx("C4")] < 0 and (m.terrain[m.geometry.hex_at == hx("C4")] == woods).any()
    # [movement] woods = { infantry = 3 }
    assert path(m, "M2", "M3", unit="infantry").total == 3


@pytest.mark.parametrize("text, message", [
    ('[map]\n[terrain]\nforest = ["A1"]\n',
     "x.toml: terrain.forest: unknown terrain 'forest'; expected one of open, road, "),
    ('[map]\n[levels]\n2 = ["A11"]\n', "x.toml: levels.2: hex 'A11' is not on this map"),
    ('[map]\nboards = [["1", "2"]]\n[terrain]\nwoods = ["1GG5"]\ngrain = ["2A5"]\n',
     "x.toml: terrain.grain: hex '2A5' (the same hex as '1GG5') is already 'woods'"),
    ('[map]\n[hexsides]\nwall = ["D5:NE"]\nhedge = ["E5:SW"]\n',
     "x.toml: hexsides.hedge: hexside 'E5:SW' (the same hexside as 'D5:NE') already has wall; "
     "one hexside takes one hexside terrain"),
])
def test_the_documented_errors(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "x.toml"
    p.write_text(text)
    with pytest.raises(DataError) as exc:
        load_mapfile(p)
    assert message in str(exc.value)
    documented = " ".join(DOC.read_text().split())            # the docs quote it (wrapped)
    assert message.split(": ", 1)[1].rstrip(", ") in documented


def test_a_half_hex_listed_twice_with_levels(tmp_path: Path) -> None:
    p = tmp_path / "y.toml"
    p.write_text('[map]\nboards = [["1", "2"]]\n[levels]\n1 = ["2A5"]\n2 = ["1GG5"]\n')
    with pytest.raises(DataError, match=r"hex '1GG5' \(the same hex as '2A5'\) already has level 1"):
        load_mapfile(p)
