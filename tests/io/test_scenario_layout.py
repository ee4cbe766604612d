"""Hex scenarios whose map is a VASL save or a layout table, units of kind 'other' / no side."""
from __future__ import annotations

from pathlib import Path

import pytest

import hexwx
from hexwx.errors import DataError
from hexwx.io.scenario import load_scenario
from vsav_helpers import board_command, real_save, save_text, vasl_dir, write_save


def test_map_table_is_a_layout_with_ssr(tmp_path: Path):
    vasl_dir()
    p = tmp_path / "s.toml"
    p.write_text('name = "t"\n[map]\nvasl_boards = [["r05"], ["r02"]]\nssr = ["BrushToOpenGround"]\n'
                 '[[units]]\nid = "a"\nhex = "5I4"\nkind = "other"\n'
                 '[[units]]\nid = "b"\nside = "Axis"\nhex = "2K3"\nnationality = "German"\n')
    sc = load_scenario(p)
    ref = hexwx.load_map("r05/r02", ssr=["BrushToOpenGround"])
    assert sc.map.grid.names() == ref.grid.names()
    assert (sc.map.terrain == ref.terrain).all()
    assert [(u.side, u.kind, u.nationality) for u in sc.units] == [("", "other", ""),
                                                                   ("Axis", "infantry", "German")]


def test_map_may_be_a_save(tmp_path: Path):
    save = real_save("hubes-pocket.vsav")
    p = tmp_path / "s.toml"
    p.write_text(f'name = "t"\nmap = "{save}"\n')
    assert load_scenario(p).map.grid.names() == hexwx.load_map("r05/r02/r04").grid.names()


def test_bad_map_tables(tmp_path: Path):
    vasl_dir()
    p = tmp_path / "s.toml"
    p.write_text('name = "t"\n[map]\nboards = [["01"]]\n')
    with pytest.raises(DataError, match="boards"):
        load_scenario(p)
    p.write_text('name = "t"\n[map]\nvasl_boards = [["01"], ["02", "03"]]\n')
    with pytest.raises(DataError, match=r"s\.toml: map: .*same number of boards"):
        load_scenario(p).map
    bad = write_save(tmp_path / "bad.vsav", save_text([board_command("0\t0\t77\tVER\t1")]))
    p.write_text(f'name = "t"\nmap = "{bad.name}"\n')
    with pytest.raises(DataError, match="bad.vsav: board '77'"):
        load_scenario(p).map
