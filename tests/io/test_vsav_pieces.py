"""Pieces of VASL saves classified (hexwx.io.vsav_pieces): units at their Locations, LOS
counters, location markers, "?" and HIP, markers with no effect.

The test saves are built from real piece definitions (tests/piece_helpers.py): the LOS counters
and location markers of VASL's module and the units of a real save, moved onto board 3.
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hexwx.io.vsav import read_save
from hexwx.io.vsav_pieces import location_marker, save_contents, vassal_name
from piece_helpers import game_save, module_pieces
from vasl_boards import vasl_dir
from vsav_helpers import real_save


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return game_save(tmp_path)


def test_every_piece_is_classified(game) -> None:
    c = save_contents(read_save(game))
    assert c.by_class() == {"unit": 6, "los counter": 3, "location marker": 3,
                            "concealment": 1, "no effect": 0}
    names = {(it.name, it.cls) for it in c.items}
    assert {("White +3 Smoke", "los counter"), ("Gray +2 Smoke (A)", "los counter"),
            ("Burnt Out Wreck", "los counter"), ("Building Level 1", "location marker"),
            ("1S Foxhole", "location marker"), ("Building Roof Level", "location marker"),
            ("?", "concealment")} <= names


def test_units_get_their_locations_side_and_concealment(game) -> None:
    m = pytest.importorskip("tests.vasl_boards").board("bd03")
    c = save_contents(read_save(game), m)
    got = {u.id: (u.hex, u.level, u.entrenched, u.concealed, u.hidden, u.side, u.role, u.hexside)
           for u in c.units}
    assert got["ge-4-6-8-Esq"] == ("M2", 1, False, False, False, "Axis", "squad", None)
    assert got["geLDR"] == ("M2", 1, False, False, False, "Axis", "leader", None)
    assert got["ru-6-2-8-Esq"] == ("F5", 0, True, True, False, "Allied", "squad", None)
    # the roof marker puts the unit on L4's rooftop (B23.8; VASL keeps it at ground level)
    assert got["ru-4-5-8-Esq"][:6] == ("L4", 2, False, False, True, "Allied")
    assert got["ru-T-34-M43"][6:] == ("vehicle", 2)
    assert got["ge-LMG"][3] is True and got["ge-LMG"][6] == "sw"


def test_save_counters_are_query_counters(game) -> None:
    c = save_contents(read_save(game))
    specs = sorted(x.spec() for x in c.counters)
    assert specs == sorted(["White +3 Smoke@I5", "Gray +2 Smoke@C3", "Burnt Out Wreck@G7",
                            "Building Level 1@M2", "1S Foxhole@F5", "Building Roof Level@L4"])


def test_vassal_names_of_module_pieces() -> None:
    pieces = module_pieces()
    assert vassal_name(pieces["Smoke"]) == "Smoke grenade +2"
    assert vassal_name(pieces["Building"]) == "Building Level 1"
    assert vassal_name(pieces["Rubble"]) == "Wood Rubble Ground Level"
    assert vassal_name(pieces["FFE"]) == "Red FFE :1"


@pytest.mark.parametrize("case", ["levels"])
def test_stack_search_matches_vasl(case: str) -> None:
    """VASL's own answers (counters/levels/bd03.levels.csv): which marker places the piece."""
    p = vasl_dir() / "counters" / "levels" / "bd03.levels.csv"
    if not p.is_file():
        pytest.skip(f"{p} is missing")
    from hexwx.io.vsav_pieces import SaveItem
    from hexwx.lineofsight.counters import counter_type
    from hexwx.errors import UsageError
    rows = list(csv.DictReader(p.open()))
    checked = 0
    for r in rows:
        names = r["stack_bottom_to_top"].split("/")
        if any(n.startswith("~") for n in names):
            continue          # hidden markers: hexwx counts them (the rule), VASL not
        items = []
        for n in names:
            try:
                t = counter_type(n)
            except UsageError:
                t = None
            exact = t is not None and t.name == n     # VASL matches exact names only
            items.append(SaveItem(None, n, "x", type=t if exact else None))   # type: ignore[arg-type]
        got = location_marker(items, int(r["index"]))
        assert (got.name if got else "") == r["counter_found"], r["case"]
        checked += 1
    assert checked >= 20


def test_real_save_markers_are_not_units() -> None:
    save = read_save(real_save("streets-of-stalingrad.vsav"))
    c = save_contents(save)
    assert len(c.items) == 121 and c.units == () and not c.counters
    assert c.by_class()["no effect"] == 121


def test_import_vsav_writes_units_at_their_locations_and_counters(game, tmp_path: Path) -> None:
    import tomllib

    from hexwx.cli.app import main
    from hexwx.io.scenario import load_scenario
    out = tmp_path / "game.toml"
    assert main(["import-vsav", str(game), "-o", str(out)]) == 0
    doc = tomllib.loads(out.read_text())
    units = {u["id"]: u for u in doc["units"]}
    assert units["ge-4-6-8-Esq"]["level"] == 1 and units["ru-4-5-8-Esq"]["hidden"] is True
    assert units["ru-6-2-8-Esq"]["concealed"] is True and units["ru-6-2-8-Esq"]["entrenched"]
    assert units["ru-T-34-M43"]["hexside"] == 2
    assert {"name": "White +3 Smoke", "hex": "I5"} in doc["counters"]
    sc = load_scenario(out)
    assert sc.unit("ge-4-6-8-Esq").level == 1 and len(sc.counters) == 6
    assert sc.unit("ru-T-34-M43").hexside == 2
