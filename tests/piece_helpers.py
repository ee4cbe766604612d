"""Building VASL saves from real piece definitions: the LOS counters and location markers of
VASL's module (``$HEXWX_VASL_DIR/counters/pieces.txt``) and the units of a real save (moved onto
a board); only the position, the stack and the layer shown are set here."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from hexwx.io.vsav import read_save, split_sequence, trait_chain
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


def game_save(tmp_path: Path) -> Path:
    """A save on board 3: a squad under a leader on Building Level 1 in M2; a squad in F5
    with a foxhole and a "?" above it; a HIP squad on a roof marker in L4; SMOKE in I5, a
    labelled dispersed SMOKE in C3, a wreck in G7; a T-34 in bypass of E8; a concealed LMG."""
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
