"""hexwx TOML map files: the bundled maps load as written, and every malformed map is a
DataError whose one-line message names the file and the key."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hexwx.errors import DataError
from hexwx.io.load import load_map
from hexwx.io.mapfile import load_mapfile, parse_hexside
from hexwx.hexmap.terrain import Category, catalogue_type

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*.toml"))

HEAD = '[map]\nname = "test"\n'


def write(tmp_path: Path, body: str, name: str = "m.toml", head: str = HEAD) -> Path:
    p = tmp_path / name
    p.write_text(head + body)
    return p


# -- the bundled maps ------------------------------------------------------------------------

def test_there_are_bundled_maps() -> None:
    assert {p.name for p in MAPS} >= {"hill_village.toml", "hedgerow_fields.toml"}


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_bundled_map_loads_as_written(path: Path) -> None:
    """Every hex has the level and terrain the file gives it (checked against the file read with
    tomllib, not against hexwx), and every listed hexside carries its terrain on both sides."""
    doc = tomllib.loads(path.read_text())
    m = load_map(path)
    assert m.kind == "hexwx" and len(m) == 346
    level = {m.parse(n): int(k) for k, names in doc.get("levels", {}).items() for n in names}
    for h in range(len(m)):
        assert m.ground_level(h) == level.get(h, 0), m.name_of(h)

    on_road = {m.parse(n) for runs in doc.get("roads", {}).values() for run in runs for n in run}
    default = catalogue_type(doc["map"].get("default", "open")).name
    listed = {m.parse(n): catalogue_type(k).name
              for k, names in doc.get("terrain", {}).items() for n in names}
    for h in range(len(m)):
        got = m.terrain_of(h)
        want = listed.get(h, default)
        # a road strip drawn through a hex's centre dot makes the centre terrain road (buildings
        # are still found at their hexside location points, LOS-SPEC 2.2 step 1)
        if got.name != want:
            assert h in on_road and got.category == Category.ROAD and \
                not catalogue_type(_key(want)).is_building, (m.name_of(h), got.name, want)

    sides = set()
    for key, specs in doc.get("hexsides", {}).items():
        want = catalogue_type(key).name
        for spec in specs:
            name, side = parse_hexside(spec)
            h = m.parse(name)
            other = m.grid.neighbour(h, side)
            sides.add((h, side))
            t = m.hexside_terrain(h, side)
            assert t is not None and t.name == want, spec
            if other >= 0:
                sides.add((other, (side + 3) % 6))
                t2 = m.hexside_terrain(other, (side + 3) % 6)
                assert t2 is not None and t2.name == want, spec
    stray = [(m.name_of(h), s) for h in range(len(m)) for s in range(6)
             if m.hexside_terrain(h, s) is not None and (h, s) not in sides]
    assert stray == []


def _key(name: str) -> str:
    from hexwx.hexmap.terrain import CATALOGUE_TYPES
    return next(t.key for t in CATALOGUE_TYPES if t.name == name)


def test_roads_of_a_map_file_are_road_hexsides(tmp_path: Path) -> None:
    m = load_map(write(tmp_path, '[roads]\ndirt = [["C4", "C5", "D5"]]\npaved = [["F2", "G2"]]\n'))
    c4, c5, d5 = m.parse("C4"), m.parse("C5"), m.parse("D5")
    assert m.road_sides[c4, 3] == 1 and m.road_sides[c5, 0] == 1      # C4 S / C5 N
    assert m.road_sides[c5, m.grid.side_towards(c5, d5)] == 1
    assert m.road_sides[d5, m.grid.side_towards(d5, c5)] == 1
    f2, g2 = m.parse("F2"), m.parse("G2")
    assert m.road_sides[f2, m.grid.side_towards(f2, g2)] == 2
    assert int(m.road_sides.sum()) == 4 * 1 + 2 * 2     # 4 dirt hexside ends, 2 paved ends
    # the hex's terrain is its fill (open ground); the road is drawn through its centre dot
    assert m.terrain_of(c5).category == Category.OPEN
    assert m.table[int(m.hexes.centre[c5])].category == Category.ROAD


def test_two_board_map_file(tmp_path: Path) -> None:
    p = write(tmp_path, '[map]\nname = "two"\nboards = [["1", "2"]]\n'
                        '[levels]\n2 = ["2A5", "2C3"]\n[terrain]\nwoods = ["2A6"]\n'
                        '[hexsides]\nwall = ["2A5:S"]\n', head="")
    m = load_map(p)
    assert len(m) == 2 * 346 - 10                                    # the GG/A seam merges
    assert m.ground_level(m.parse("1GG5")) == 2                     # the seam cell is 2A5
    assert m.ground_level(m.parse("1C3")) == 0 and m.ground_level(m.parse("2C3")) == 2
    assert m.terrain_of(m.parse("1GG6")).name == "Woods"
    assert m.hexside_terrain(m.parse("1GG6"), 0).name == "Wall"


def test_default_terrain(tmp_path: Path) -> None:
    m = load_map(write(tmp_path, '[terrain]\nopen = ["C4"]\n',
                       head='[map]\nname = "g"\ndefault = "grain"\n'))
    assert m.terrain_of(m.parse("A1")).name == "Grain"
    assert m.terrain_of(m.parse("C4")).name == "Open Ground"


# -- malformed maps ------------------------------------------------------------------------

BAD: list[tuple[str, str, str, str]] = [
    # (id, file body after [map], key that must be named, another word the message must hold)
    ("unknown terrain", '[terrain]\nforest = ["C4"]\n', "terrain.forest", "forest"),
    ("hexside terrain in [terrain]", '[terrain]\nwall = ["C4"]\n', "terrain.wall", "hexsides"),
    ("hex not on map", '[terrain]\nwoods = ["C44"]\n', "terrain.woods", "C44"),
    ("hex not a string", '[terrain]\nwoods = [3]\n', "terrain.woods", "3"),
    ("terrain not a list", '[terrain]\nwoods = "C4"\n', "terrain.woods", "array"),
    ("level hex not on map", '[levels]\n1 = ["HH1"]\n', "levels.1", "HH1"),
    ("level above range", '[levels]\n12 = ["C4"]\n', "levels.12", "12"),
    ("level below range", '[levels]\n-3 = ["C4"]\n', "levels.-3", "-3"),
    ("level not a number", '[levels]\nhigh = ["C4"]\n', "levels.high", "level"),
    ("hex at two levels", '[levels]\n1 = ["C4"]\n2 = ["C4"]\n', "levels.2", "C4"),
    ("hex in two terrains", '[terrain]\nwoods = ["C4"]\ngrain = ["c4"]\n', "terrain.grain", "'c4'"),
    ("hexside without side", '[hexsides]\nwall = ["C4"]\n', "hexsides.wall", "C4"),
    ("hexside bad side", '[hexsides]\nwall = ["C4:XX"]\n', "hexsides.wall", "C4:XX"),
    ("hexside side 6", '[hexsides]\nhedge = ["C4:6"]\n', "hexsides.hedge", "C4:6"),
    ("hexside hex off map", '[hexsides]\nwall = ["C44:N"]\n', "hexsides.wall", "C44"),
    ("hexside not a string", '[hexsides]\nwall = [3]\n', "hexsides.wall", "3"),
    ("unknown hexside terrain", '[hexsides]\nfence = ["C4:N"]\n', "hexsides.fence", "fence"),
    ("road not adjacent", '[roads]\ndirt = [["C4", "C6"]]\n', "roads.dirt[0]", "adjacent"),
    ("road of one hex", '[roads]\ndirt = [["C4"]]\n', "roads.dirt[0]", "two"),
    ("road hex off map", '[roads]\npaved = [["C4", "C44"]]\n', "roads.paved[0]", "C44"),
    ("unknown road kind", '[roads]\nrailway = [["C4", "C5"]]\n', "roads.railway", "railway"),
    ("unknown section", '[terrrain]\nwoods = ["C4"]\n', "terrrain", "unknown"),
    ("unknown map key", 'foo = 1\n', "map.foo", "unknown"),
    ("depiction of two points", '[[depiction]]\nhex = "C4"\nterrain = "woods"\n'
     'polygon = [[0, 0], [1, 1]]\n', "depiction[0].polygon", "three"),
    ("depiction unknown terrain", '[[depiction]]\nhex = "C4"\nterrain = "lava"\n'
     'polygon = [[0, 0], [1, 0], [0, 1]]\n', "depiction[0].terrain", "lava"),
]


@pytest.mark.parametrize("body,key,word", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_malformed_map_is_a_data_error_naming_file_and_key(tmp_path: Path, body: str, key: str,
                                                           word: str) -> None:
    p = write(tmp_path, body)
    with pytest.raises(DataError) as exc:
        load_map(p)
    msg = str(exc.value)
    assert msg.startswith(f"{p}: {key}: "), msg
    assert word in msg and "\n" not in msg


@pytest.mark.parametrize("head,key,word", [
    ('[map]\nboards = "2"\n', "map.boards", "array"),
    ('[map]\nboards = [["1"], ["1"]]\n', "map.boards", "distinct"),
    ('[map]\ndefault = "lava"\n', "map.default", "lava"),
    ('name = "no map table"\n', "name", "unknown"),
    ('', "map", "missing"),
])
def test_malformed_map_table(tmp_path: Path, head: str, key: str, word: str) -> None:
    p = write(tmp_path, "", head=head)
    with pytest.raises(DataError) as exc:
        load_map(p)
    assert str(exc.value).startswith(f"{p}: {key}: ") and word in str(exc.value)


def test_malformed_toml_names_file_and_line(tmp_path: Path) -> None:
    p = write(tmp_path, '[terrain\nwoods = ["C4"]\n', head="")
    with pytest.raises(DataError) as exc:
        load_mapfile(p)
    msg = str(exc.value)
    assert msg.startswith(f"{p}: malformed TOML") and "line 1" in msg and "\n" not in msg


def test_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "bin.toml"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DataError) as exc:
        load_map(p)
    assert str(p) in str(exc.value)


def test_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "nowhere.toml"
    with pytest.raises(DataError) as exc:
        load_map(p)
    assert str(p) in str(exc.value) and "no such file" in str(exc.value)


def test_directory_is_not_a_map(tmp_path: Path) -> None:
    with pytest.raises(DataError) as exc:
        load_map(tmp_path)
    assert str(tmp_path) in str(exc.value)


def test_seam_alias_counts_as_the_same_hex(tmp_path: Path) -> None:
    # 1GG5 and 2A5 are one cell: listing it under two terrains is a duplicate
    p = write(tmp_path, '[map]\nname = "two"\nboards = [["1", "2"]]\n'
                        '[terrain]\nwoods = ["1GG5"]\ngrain = ["2A5"]\n', head="")
    with pytest.raises(DataError) as exc:
        load_map(p)
    assert str(exc.value).startswith(f"{p}: terrain.grain: ")


@pytest.mark.parametrize("text,expected", [("D5:NE", ("D5", 1)), ("D5:1", ("D5", 1)),
                                           ("gg10:nw", ("gg10", 5)), ("B0 : S", ("B0", 3))])
def test_parse_hexside(text: str, expected: tuple[str, int]) -> None:
    assert parse_hexside(text) == expected
