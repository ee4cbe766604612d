"""Conformance with VASL on its own boards, the LOS-SPEC section 8 worked examples, corrupt
archives, and the ``import-vasl`` round trip.

VASL's data is never copied into the repository: the tests read it from ``$HEXWX_VASL_DIR``
(boards/, SharedBoardMetadata.xml, golden/bdNN.csv.gz) and skip when it is not set.  Corrupt
archives are written into pytest's tmp_path only.
"""
from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import numpy as np
import pytest

from vasl_boards import all_boards, archive, board, golden, metadata, vasl_dir
from hexwx.cli import main
from hexwx.errors import DataError
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los, los_table
from hexwx.io.vasl import read_losdata


# -- conformance with the goldens ------------------------------------------------------------

@pytest.mark.parametrize("name", ["bd02", "bd04", "bd06"])
def test_agreement_with_vasl_goldens(name: str) -> None:
    m, rows = board(name), golden(name)
    t = los_table(m)
    n = len(m)
    blocked = np.zeros((n, n), bool)
    hind = np.zeros((n, n), np.int64)
    blocked[t.src, t.tgt] = t.blocked
    hind[t.src, t.tgt] = t.hindrance
    src = np.array([m.parse(r["src"]) for r in rows])
    tgt = np.array([m.parse(r["tgt"]) for r in rows])
    assert len(rows) == n * (n - 1)                               # every ordered pair
    assert np.array_equal(np.array([int(r["range"]) for r in rows]),
                          m.grid.distance_matrix()[src, tgt])
    vb = np.array([r["blocked"] for r in rows])
    ok = vb != "E"                                                # VASL crashed there
    v_blocked = vb == "1"
    agree = (blocked[src, tgt] == v_blocked)[ok].mean()
    assert agree >= 0.995, f"{name}: blocked agreement {agree:.4%}"
    both_clear = ok & ~v_blocked & ~blocked[src, tgt]
    v_hind = np.array([int(r["hindrance"]) if r["hindrance"] else -1 for r in rows])
    agree_h = (hind[src, tgt] == v_hind)[both_clear].mean()
    assert both_clear.sum() > 1000
    assert agree_h >= 0.995, f"{name}: hindrance agreement {agree_h:.4%}"


# -- LOS-SPEC section 8 worked examples (VASL's answers) ----------------------------------

# (#, board, from, to, from level, to level, range, blocked, rule, blocked-at pixel, hindrance)
# Levels are location levels in the hex (0 = ground); the oracle's "L2" etc. is the hex's ground
# level, which the test checks separately below.
EXAMPLES = [
    (1, "bd02", "A1", "A5", 0, 0, 4, True, "A6.2", (0, 210), None),
    (2, "bd02", "B6", "F7", 0, 0, 4, True, "A6.4", (101, 400), None),
    (3, "bd02", "A1", "H3", 0, 0, 7, True, "A6.4", (107, 75), None),
    (4, "bd02", "A1", "J4", 0, 0, 9, False, None, None, 0),
    (5, "bd02", "D7", "I4", 0, 0, 6, True, "B10.23", (208, 419), None),
    (6, "bd02", "D7", "F7", 0, 0, 2, False, None, None, None),
    (7, "bd02", "J4", "O6", 0, 0, 5, True, "A6.2", (538, 269), None),
    (8, "bd02", "A5", "F5", 0, 0, 5, True, "B9.2", (197, 312), None),
    (9, "bd02", "E5", "A5", 0, 0, 4, False, None, None, None),
    (9, "bd02", "A5", "E5", 0, 0, 4, False, None, None, None),
    (10, "bd02", "C5", "G5", 0, 0, 4, True, "B9.2", (258, 290), None),
    (11, "bd06", "A5", "E5", 0, 0, 4, False, None, None, 1),
    (12, "bd16", "J3", "B6", 0, 0, 8, False, None, None, 3),
    (13, "bd16", "A1", "H4", 0, 0, 7, False, None, None, 5),
    (13, "bd16", "A1", "I4", 0, 0, 8, True, "B.10", (361, 186), None),
    (14, "bd03", "M2", "L7", 0, 0, 6, True, "A6.2", (649, 259), None),
    (14, "bd03", "M2", "L7", 2, 0, 6, False, None, None, None),
    (15, "bd03", "L4", "U7", 0, 0, 9, True, "A6.8", (652, 268), None),
    (15, "bd03", "L4", "U7", 1, 0, 9, True, "A6.2", (652, 268), None),
    (16, "bd03", "D4", "V5", 0, 0, 18, True, "A6.2", (642, 287), None),
    (17, "bd05", "Z2", "Z3", 0, 0, 1, False, None, None, None),
    (17, "bd05", "Z2", "Z4", 0, 0, 2, True, "A6.3", (1406, 147), None),
    (17, "bd05", "Z4", "Z2", 0, 0, 2, True, "A6.2", (1406, 225), None),
    (18, "bd05", "Z2", "BB2", 0, 0, 2, True, "B19.51", (1406, 129), None),
    (19, "bd10", "U5", "U6", 0, 0, 1, True, "B23.71", (1125, 319), None),
    (19, "bd10", "U5", "U6", 1, 1, 1, True, "B23.71", (1125, 319), None),
]


@pytest.mark.parametrize("num,bd,a,b,fl,tl,rng,blocked,rule,at,hind", EXAMPLES)
def test_spec_worked_example(num: int, bd: str, a: str, b: str, fl: int, tl: int, rng: int,
                             blocked: bool, rule: str | None, at: tuple[int, int] | None,
                             hind: int | None) -> None:
    r = los(board(bd), a, b, from_level=fl, to_level=tl)
    assert r.range == rng
    assert r.blocked is blocked, r.explain()
    assert r.rule == rule, r.explain()
    assert r.blocked_at == at, r.explain()
    if hind is not None:
        assert r.hindrance == hind, r.explain()


@pytest.mark.parametrize("bd,hexname,level", [
    # the elevations the oracle prints in section 8 ("F7(L2)" ...) are the hexes' ground levels
    ("bd02", "F7", 2), ("bd02", "H3", 2), ("bd02", "J4", 3), ("bd02", "I4", 2), ("bd02", "O6", 2),
    ("bd02", "B6", 0), ("bd02", "D7", 0), ("bd03", "L7", 1), ("bd03", "U7", 1), ("bd03", "D4", 1),
    ("bd03", "V5", 1), ("bd05", "Z2", -1), ("bd05", "Z4", 0),
])
def test_spec_ground_levels(bd: str, hexname: str, level: int) -> None:
    m = board(bd)
    assert m.ground_level(m.parse(hexname)) == level


def test_spec_example_20_edge_spine_does_not_crash() -> None:
    # VASL throws a NullPointerException on board 3 J10 -> L10 (LOS-SPEC 7.1); hexwx answers,
    # and answers the same both ways.
    m = board("bd03")
    ab, ba = los(m, "J10", "L10"), los(m, "L10", "J10")
    assert ab.range == 2
    assert ab.blocked == ba.blocked and ab.hindrance == ba.hindrance


# -- every board answers every pair --------------------------------------------------------

def answers_every_pair(name: str) -> None:
    m = board(name)
    t = los_table(m)
    n = len(m)
    shape = m.grid.shape                      # 33 x 10 (346 hexes), half and Deluxe boards
    assert n == shape.columns * shape.rows + shape.columns // 2 and len(t.src) == n * (n - 1)
    assert t.blocked.dtype == bool
    assert (t.hindrance >= 0).all()
    assert (t.hindrance[~t.blocked] < 6).all()        # six or more blocks (B.10)
    assert 0 < t.blocked.mean() < 1


def test_board_3_answers_every_pair() -> None:
    answers_every_pair("bd03")


@pytest.mark.slow
@pytest.mark.parametrize("name", all_boards())
def test_every_board_answers_every_pair(name: str) -> None:
    answers_every_pair(name)


# -- corrupt inputs ------------------------------------------------------------------------

def expect_data_error(path: Path, meta: Path | None = None) -> str:
    with pytest.raises(DataError) as exc:
        load_map(path, vasl_metadata=meta or metadata())
    msg = str(exc.value)
    assert str(path) in msg and "\n" not in msg
    return msg


def test_truncated_archive(tmp_path: Path) -> None:
    data = archive("bd04").read_bytes()
    p = tmp_path / "bd04"
    p.write_bytes(data[: len(data) // 2])
    expect_data_error(p)


def test_zip_without_losdata(tmp_path: Path) -> None:
    p = tmp_path / "bd98"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("readme.txt", "not a board")
    assert "LOSData" in expect_data_error(p)


def test_losdata_that_is_not_gzip(tmp_path: Path) -> None:
    p = tmp_path / "bd97"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("LOSData", b"this is not gzip data at all" * 10)
    assert "gzip" in expect_data_error(p)


def test_losdata_gzip_of_garbage(tmp_path: Path) -> None:
    p = tmp_path / "bd96"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("LOSData", gzip.compress(b"\x00\x01garbage" * 100))
    assert "LOSData" in expect_data_error(p)


def test_losdata_cut_short(tmp_path: Path) -> None:
    # a real LOSData stream, cut to a tenth after decompression and packed again
    with zipfile.ZipFile(archive("bd04")) as zf:
        stream = gzip.decompress(zf.read("LOSData"))
    p = tmp_path / "bd95"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("LOSData", gzip.compress(stream[: len(stream) // 10]))
    assert "truncated" in expect_data_error(p)


def test_terrain_code_missing_from_the_table(tmp_path: Path) -> None:
    codes = sorted(set(np.unique(read_losdata(archive("bd04")).terrain).tolist()))
    assert 0 in codes and len(codes) > 1
    meta = tmp_path / "tiny-metadata.xml"     # a tiny table of our own with open ground only
    meta.write_text('<?xml version="1.0"?>\n<boardMetadata><terrainTypes>\n'
                    '<terrainType name="Open Ground" typeCode="0" LOSCategory="OPEN" />\n'
                    '</terrainTypes></boardMetadata>\n')
    msg = expect_data_error(archive("bd04"), meta)
    assert f"terrain code {codes[1]}" in msg and str(meta) in msg


def test_malformed_metadata(tmp_path: Path) -> None:
    meta = tmp_path / "broken.xml"
    meta.write_text("<boardMetadata><terrainType")
    with pytest.raises(DataError) as exc:
        load_map(archive("bd04"), vasl_metadata=meta)
    assert str(meta) in str(exc.value)


# -- import-vasl round trip ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["bd02", "bd03"])
def test_import_vasl_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                name: str) -> None:
    out = tmp_path / f"{name}.toml"
    rc = main(["import-vasl", str(archive(name)), "-o", str(out),
               "--vasl-metadata", str(metadata())])
    _, err = capsys.readouterr()
    assert rc == 0 and str(out) in err
    exported = load_map(out)
    m = board(name)
    assert len(exported) == len(m)
    for h in range(len(m)):
        name_ = m.name_of(h)
        assert exported.name_of(exported.parse(name_)) == name_
        assert exported.ground_level(exported.parse(name_)) == m.ground_level(h), name_
    # walls and hedges survive on both sides of their hexside
    for h in range(len(m)):
        for k in range(6):
            t = m.hexside_terrain(h, k)
            if t is not None and t.name in ("Wall", "Hedge"):
                t2 = exported.hexside_terrain(exported.parse(m.name_of(h)), k)
                assert t2 is not None and t2.name == t.name, (m.name_of(h), k)


def test_import_vasl_of_a_toml_map_is_a_data_error(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "x.toml"
    p.write_text('[map]\nname = "x"\n')
    rc = main(["import-vasl", str(p), "-o", str(tmp_path / "y.toml")])
    _, err = capsys.readouterr()
    assert rc == 1 and str(p) in err and len(err.strip().splitlines()) == 1


