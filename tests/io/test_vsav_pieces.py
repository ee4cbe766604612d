"""Pieces of VASL saves classified (hexwx.io.vsav_pieces): units at their Locations, LOS
counters, location markers, "?" and HIP, markers with no effect.

The test saves are built from real piece definitions: the LOS counters and location markers of
VASL's module (``$HEXWX_VASL_DIR/counters/pieces.txt``) and the units of a real save (moved onto
the board); only the position, the stack and the layer shown are set here.
"""
from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

import pytest

from hexwx.io.vsav import read_save, split_sequence, trait_chain
from hexwx.io.vsav_pieces import location_marker, save_contents, vassal_name
from vasl_boards import vasl_dir
from vsav_helpers import board_command, chain, escape, hex_centre_px, real_save, save_text, write_save

BD03 = "0\t0\t03\tVER\t6.1"


@lru_cache(maxsize=1)
def module_pieces() -> dict[str, list[tuple[str, str]]]:
    """entryName -> the slot's traits (type, state), from the module's buildFile extract."""
    p = vasl_dir() / "counters" / "pieces.txt"
    if not p.is_file():
        pytest.skip(f"{p} is missing")
    out: dict[str, list[tuple[str, str]]] = {}
    entry = None
    for line in p.read_text().splitlines():
        m = re.match(r'PieceSlot entryName="([^"]+)"', line)
        if m:
            entry = m.group(1)
        elif line.startswith("raw: +/") and entry and entry not in out:
            parts = split_sequence(line[len("raw: +/"):], "/")
            out[entry] = trait_chain(parts[1], "/".join(parts[2:]))
    return out


@lru_cache(maxsize=1)
def save_units() -> dict[str, list[tuple[str, str]]]:
    """Unit name -> traits, from the real Streets of Stalingrad save (its set-up area)."""
    save = read_save(real_save("streets-of-stalingrad.vsav"))
    out: dict[str, list[tuple[str, str]]] = {}
    for pc in save.off_board():
        out.setdefault(pc.name, list(pc.traits))
    return out


def command(gid: str, traits: list[tuple[str, str]], x: int, y: int, *,
            layers: dict[int, str] | None = None, label: str | None = None,
            hidden: bool = False, concealed: bool = False) -> str:
    """A piece command from real traits, at map pixel (x, y), with Embellishment ``layers``
    (trait index -> state), a label typed on it, HIP or its own "?" side."""
    types, states = [t for t, _ in traits], [s for _, s in traits]
    for i, t in enumerate(types):
        head = t.split(";", 1)[0]
        if layers and i in layers:
            states[i] = layers[i]
        elif head == "label" and label is not None and not types[i].startswith("label;50"):
            states[i] = label
            label = None
        elif head == "hide" and hidden:
            states[i] = "player1"
        elif head == "conceal" and concealed:
            states[i] = "player1;"
    bs = states[-1].split(";")
    states[-1] = ";".join(["Main Map", str(x), str(y), *bs[3:]])
    return "+/" + gid + "/" + escape(chain(types), "/") + "/" + escape(chain(states), "/")


def stack(gid: str, x: int, y: int, members: list[str]) -> str:
    return "+/" + gid + "/stack/" + escape(";".join(["Main Map", str(x), str(y), *members]), "/")


def at(hex_name: str) -> tuple[int, int]:
    col = ord(hex_name[0]) - ord("A")
    row = int(hex_name[1:]) - 1 + (col % 2)
    return hex_centre_px(0, 0, col, row)


def smoke(gid: str, x: int, y: int, layer: int = 6, label: str | None = None) -> str:
    """The module's Smoke piece with layer ``layer`` shown (3 Gray +1 WP, 4 Gray +2 Smoke,
    5 White +2 WP, 6 White +3 Smoke, 7 the grenades)."""
    traits = module_pieces()["Smoke"]
    layers = {i: ("-1;" if traits[i][1].endswith(";") else "-1")
              for i in range(len(traits)) if traits[i][0].startswith("emb2")}
    layers[layer] = "1;" if traits[layer][1].endswith(";") else "1"
    return command(gid, traits, x, y, layers=layers, label=label)


def building(gid: str, x: int, y: int, level_layer: int) -> str:
    """The module's Building marker: layer 2 Ground Level, 3 Level 1, 4 Level 2, 6 Roof."""
    return command(gid, module_pieces()["Building"], x, y, layers={3: str(level_layer)})


def unit(gid: str, name: str, x: int, y: int, **kw) -> str:
    return command(gid, save_units()[name], x, y, **kw)


@pytest.fixture
def game(tmp_path: Path):
    """A save on board 3: a squad on Building Level 1 in M2, a leader above it, a concealed
    squad under a "?" in F5 on a foxhole's ... (see the asserts), SMOKE, a wreck, HIP."""
    m2, f5, l4, i5, c3 = at("M2"), at("F5"), at("L4"), at("I5"), at("C3")
    cmds = [board_command(BD03),
            building("10", *m2, 3), unit("11", "4-6-8 Esq", *m2), unit("12", "geLDR", *m2),
            stack("s1", *m2, ["10", "11", "12"]),
            unit("20", "6-2-8 Esq", *f5), command("21", module_pieces()["Foxhole"], *f5),
            command("22", save_units()["?"], *f5),
            stack("s2", *f5, ["20", "21", "22"]),
            building("30", *l4, 6), unit("31", "4-5-8 Esq", *l4, hidden=True),
            stack("s3", *l4, ["30", "31"]),
            smoke("40", *i5), smoke("41", *c3, layer=4, label="A"),
            command("42", module_pieces()["Burnt Out Wreck"], *at("G7")),
            unit("43", "T-34 M43", at("E8")[0] + 26, at("E8")[1]),       # bypass, hexside 2
            unit("44", "LMG", *at("A9"), concealed=True)]
    return write_save(tmp_path / "game.vsav", save_text(cmds))


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
