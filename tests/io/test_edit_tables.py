"""The [levels]/[terrain]/[roads] readers shared by drawn map files and VASL layout edits."""
from __future__ import annotations

import tomllib

import pytest

from hexwx.errors import DataError
from hexwx.hexmap.coords import Grid
from hexwx.io.edit_tables import read_levels, read_roads, read_terrain
from hexwx.io.tomlfile import Table


def _doc(text: str) -> Table:
    return Table(tomllib.loads(text), source="x.toml", path="")


def test_levels_terrain_and_roads_read_by_hex() -> None:
    grid = Grid.layout([["1", "2"]])
    doc = _doc('[levels]\n1 = ["1C4"]\n[terrain]\nwoods = ["1D4", "2A5"]\n'
               '[roads]\npaved = [["1C4", "1C5"]]\n')
    assert read_levels(doc, grid) == {grid.parse("1C4"): 1}
    assert read_terrain(doc, grid) == {"woods": [grid.parse("1D4"), grid.parse("2A5")]}
    (step,) = read_roads(doc, grid)
    assert (step.terrain, step.level, step.a, step.b) == ("paved road", 2, grid.parse("1C4"), grid.parse("1C5"))
    assert step.side == grid.side_towards(step.a, step.b)


def test_a_join_hex_written_twice_says_which_hex_it_is() -> None:
    grid = Grid.layout([["1", "2"]])
    doc = _doc('[terrain]\nwoods = ["1GG5"]\ngrain = ["2A5"]\n')
    with pytest.raises(DataError, match=r"x\.toml: terrain\.grain: hex '2A5' \(the same hex as '1GG5'\) is already 'woods'"):
        read_terrain(doc, grid)
