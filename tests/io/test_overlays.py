"""VASL overlays: names, placement, the terrain their art draws, layouts, rotation, SSOs.

The placements and per-pixel terrain are checked against VASL's own (``overlay-refs/`` of
``$HEXWX_VASL_DIR``, README there); where hexwx decides otherwise by the art and the rules
(docs/vasl-conformance.md, "Overlays") the test says which pixels and why.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from vasl_boards import vasl_dir

import hexwx
from hexwx.errors import DataError, UsageError
from hexwx.io.layout import load_layout, parse_board
from hexwx.io.overlays import (ARCHIVE_RULES, archive_stem, image_entry, orientation_of,
                               parse_overlay, place)


# -- names and the written forms (no VASL data needed) -----------------------------------------

@pytest.mark.parametrize("name, stem", [("og3", "ovrOG"), ("2", "ovr2"), ("x11", "ovrX"),
                                        ("rr10", "ovrRR"), ("hi8", "ovrHI"), ("be3", "ovrBE"),
                                        ("wd2", "ovrWD"), ("XP_B1", "ovrXP_B")])
def test_archive_names_follow_vasl(name: str, stem: str):
    assert archive_stem(name) == stem


def test_shared_images_and_image_names():
    assert image_entry("x11", "f") == "ovrx11f.gif"
    assert image_entry("be3", "c") == "ovrbe1c.gif"      # be2/be3 draw with be1's images
    assert image_entry("oc4", "a") == "ovroc3a.gif"


@pytest.mark.parametrize("text, expect", [
    ("x11 L5 K5", ("x11", "L5", "K5", False)),
    ("x11:l5:k5", ("x11", "L5", "K5", False)),
    ("x10 L5", ("x10", "L5", "L5", False)),
    ("wd2 J4 J5 persist", ("wd2", "J4", "J5", True)),
    ("wd2 J4 J5 true", ("wd2", "J4", "J5", True)),
])
def test_parse_overlay(text: str, expect: tuple[str, str, str, bool]):
    o = parse_overlay(text)
    assert (o.name, o.hex1, o.hex2, o.persist) == expect
    assert parse_overlay(o.written) == o


@pytest.mark.parametrize("text", ["", "x11", "x11 L5 K5 K6", "x11 L5 5K", "x/1 L5 K5", "x11 L5 K5 maybe"])
def test_bad_overlay_text_is_a_usage_error(text: str):
    with pytest.raises(UsageError, match="not an overlay|expected an overlay"):
        parse_overlay(text)


def test_inline_layout_carries_overlays():
    b = parse_board("r04+x11:L5:K5+og3:N5:O5")
    assert b.rotated and b.number == "04" and b.label == "4"
    assert [o.written for o in b.overlays] == ["x11 L5 K5", "og3 N5 O5"]


def test_orientation_cases():
    h1 = (100, 100)
    assert orientation_of(h1, (100, 36)) == "a"      # hex2 straight above
    assert orientation_of(h1, (100, 164)) == "d"     # straight below
    assert orientation_of(h1, (44, 68)) == "f"       # hex1 right of hex2 and lower
    assert orientation_of(h1, (44, 132)) == "e"      # right of it and higher
    assert orientation_of(h1, (156, 68)) == "b"      # left of it and lower
    assert orientation_of(h1, (156, 132)) == "c"     # left of it and higher
    assert orientation_of(h1, h1) == "a"


# -- VASL's placements and terrain (overlay-refs) ----------------------------------------------

def _refs() -> list[Path]:
    d = vasl_dir() / "overlay-refs"
    refs = sorted(d.glob("*.json"))
    if not refs:
        pytest.skip(f"no overlay placements in {d}")
    return refs


def _runs(rows: list[list[int]], width: int) -> np.ndarray:
    """A run-length raster of the refs ([value, run, ...] per image row) as [x, y]."""
    out = np.array([np.repeat(r[0::2], r[1::2]) for r in rows])
    assert out.shape[1] == width
    return out.T


def _persist(ref: dict) -> bool:
    """The placement keeps the board's levels (the OVR entry's 4th token or the game's flag)."""
    return bool(ref["placement"].get("persist_elevation_flag") or ref.get("persist_game"))


def _load(ref: dict) -> tuple[hexwx.HexMap, hexwx.HexMap]:
    pl = ref["placement"]
    over = f"{pl['board']}+{pl['name']}:{pl['hex1']}:{pl['hex2']}" + (":persist" if _persist(ref) else "")
    return hexwx.load_map(over), hexwx.load_map(pl["board"])


def test_placements_are_vasls():
    for f in _refs():
        ref = json.loads(f.read_text())
        pl = ref["placement"]
        p = place(parse_overlay(f"{pl['name']} {pl['hex1']} {pl['hex2']}"), board=pl["board"],
                  vasl_dir=vasl_dir())
        assert Path(p.archive).name == pl["archive"], f.name
        assert (p.orientation, p.image, p.origin.lower()) == \
            (pl["orientation"], pl["image"], pl["origin_hex"].lower()), f.name
        assert [p.x, p.y, p.width, p.height] == pl["bounds_board"], f.name


def _on_board(ref: dict, m: hexwx.HexMap, m0: hexwx.HexMap) -> dict[str, np.ndarray]:
    """The refs' rasters and ours over the part of the overlay's rectangle on its own board
    (a placement on a layout may run onto the next board: that part is not the overlay's)."""
    px = ref["pixels"]
    w, h = px["width"], px["height"]
    x0, y0 = px["origin_board"]
    W, H = m0.terrain.shape
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    cut = (slice(xa - x0, xb - x0), slice(ya - y0, yb - y0))
    out = {k: _runs(px[f"{k}_rle"], w)[cut] for k in ("how", "terrain", "elevation", "board_terrain")}
    for name, mm in (("ours", m), ("board", m0)):
        out[f"{name}_t"] = mm.terrain[xa:xb, ya:yb]
        out[f"{name}_e"] = mm.elevation[xa:xb, ya:yb]
    return out


def test_pixels_agree_with_vasl_where_the_art_decides():
    """Opaque pixels whose colour VASL's table knows get VASL's terrain (desert archives aside:
    their rule is ARCHIVE_RULES); unknown colours take a neighbour's, agreeing with VASL on
    at least 95 %; every transparent pixel keeps the board (VASL spreads terrain into a few of
    them: not copied); levels agree on level ground."""
    for f in _refs():
        ref = json.loads(f.read_text())
        r = _on_board(ref, *_load(ref))
        how, t, e = r["how"], r["ours_t"], r["ours_e"]
        assert np.array_equal(r["board_t"], r["board_terrain"]), f.name
        transparent = (how == 1) | (how == 2)
        assert np.array_equal(t[transparent], r["board_t"][transparent]), f.name
        assert np.array_equal(e[transparent], r["board_e"][transparent]), f.name
        if ref["placement"]["archive"] in ARCHIVE_RULES:
            continue
        known, unknown = how == 3, how == 4
        vt, ve = r["terrain"], r["elevation"]
        if _persist(ref):   # open ground drawn over the board's own open terrain keeps the board
            assert (t[known] == vt[known]).mean() >= 0.98, f.name
        else:
            assert np.array_equal(t[known], vt[known]), f.name
        assert not unknown.any() or (t[unknown] == vt[unknown]).mean() >= 0.95, f.name
        flat = known & (r["board_e"] == 0)          # (see the next test)
        assert not flat.any() or (e[flat] == ve[flat]).mean() >= 0.99, f.name


def test_hexes_under_overlays_agree_with_vasl():
    """Every hex the overlay touches has VASL's centre terrain and (on level ground) its centre
    level; the one difference kept: woods drawn without a level on level-0 art lie at level 0
    (the art), where VASL leaves them at the hill's level (docs/vasl-conformance.md)."""
    for f in _refs():
        ref = json.loads(f.read_text())
        if ref["placement"]["archive"] in ARCHIVE_RULES:
            continue
        m, m0 = _load(ref)
        for hx in ref["hexes"]:
            if str(hx.get("board", ref["placement"]["board"])) != str(ref["placement"]["board"]):
                continue                            # (a hex of the next board of a layout)
            i = m.grid.parse(hx["hex"])
            assert m.table[int(m.hexes.centre_raw[i])].name == hx["center_terrain"], (f.name, hx["hex"])
            if hx["board_base_height"] == 0:
                assert int(m.hexes.base[i]) == hx["center_elevation"], (f.name, hx["hex"])


def test_hillock_overlay_draws_hillocks_on_the_boards_ground():
    vasl_dir()
    m, m0 = hexwx.load_map("04+h3:T6:T5"), hexwx.load_map("04")
    hill = m.table.code_named("Hillock")
    names = {m.grid.name(h) for h in np.flatnonzero(m.hexes.centre == hill)}
    assert {"T6", "U6", "V5", "W6"} <= names
    assert np.array_equal(m.elevation, m0.elevation)      # a hillock is no hill (F6)
    assert (m.terrain == m.table.code_named("Hillock Summit")).sum() == 0   # h3 draws none


def test_wadi_overlay_is_a_depression_below_the_board():
    vasl_dir()
    m, m0 = hexwx.load_map("04+w2:Y5:Y6"), hexwx.load_map("04")
    wadi = m.terrain == m.table.code_named("Wadi")
    assert wadi.sum() > 5000
    assert np.array_equal(m.elevation[wadi], m0.elevation[wadi] - 1)
    deep = np.flatnonzero(m.hexes.depression)
    assert len(deep) >= 3 and all(m.table[int(m.hexes.centre[h])].name == "Wadi" for h in deep)


def test_dier_overlay_draws_diers_with_lips_on_their_edges():
    vasl_dir()
    m = hexwx.load_map("04+d1:M5:M4")
    dier, lip = m.table.code_named("Dier"), m.table.code_named("Dier Lip")
    is_dier = m.hexes.centre == dier
    assert is_dier.sum() >= 8
    nb = m.grid.neighbours
    edge = is_dier[:, None] & ~is_dier[np.maximum(nb, 0)] & (nb >= 0)
    inner = is_dier[:, None] & is_dier[np.maximum(nb, 0)] & (nb >= 0)
    assert edge.sum() >= 10 and (m.hexes.loc_terrain[edge] == lip).all()     # F4: the lip
    assert not (m.hexes.loc_terrain[inner] == lip).any()                     # none inside


# -- overlays in layouts, rotation, persist ------------------------------------------------------

def test_overlay_never_paints_onto_a_neighbouring_board():
    vasl_dir()
    # hi7 turned d from K5 reaches below board 4's bottom edge (VASL's bd04+bd03 placement)
    p = place(parse_overlay("hi7 K5 K6"), board="04", vasl_dir=vasl_dir())
    assert p.y + p.height > 645                   # the image itself runs over the join
    plain = hexwx.load_map("04/03")
    over = hexwx.load_map("04+hi7:K5:K6/03")
    changed = np.argwhere((over.terrain != plain.terrain) | (over.elevation != plain.elevation))
    assert len(changed) > 10000
    assert changed[:, 1].max() < 645              # board 3 starts at y = 645: untouched


def test_overlay_on_a_rotated_board_turns_with_it():
    vasl_dir()
    up = hexwx.load_map("04,03+x11:L5:K5")
    turned = hexwx.load_map("04,r03+x11:L5:K5")
    for name in ("3K5", "3L5", "3J4", "3K4", "3M5"):
        a, b = up.grid.parse(name), turned.grid.parse(name)
        assert up.hexes.centre[a] == turned.hexes.centre[b], name
    assert up.table[int(up.hexes.centre[up.grid.parse("3L5")])].name == "Stone Building"
    assert hexwx.los(up, "3K4", "3L6").blocked == hexwx.los(turned, "3K4", "3L6").blocked is True
    # every board turned (composed turned round as a whole): the overlay turns with its board
    alone, hube = hexwx.load_map("02+wd2:J4:J5"), hexwx.load_map("r05/r02+wd2:J4:J5/r04")
    for name in alone.grid.names():
        h = hube.grid.parse("2" + name)
        if not hube.grid.is_half_hex(h):
            assert hube.hexes.centre[h] == alone.hexes.centre[alone.grid.parse(name)], name


def test_overlay_terrain_counts_in_los_and_movement():
    vasl_dir()
    m, m0 = hexwx.load_map("04+x11:L5:K5"), hexwx.load_map("04")
    assert not hexwx.los(m0, "K4", "L6").blocked
    res = hexwx.los(m, "K4", "L6")
    assert res.blocked and res.blocking_hex in ("K5", "L5")
    step = hexwx.path(m, "K4", "K5", unit="infantry").steps[0]
    assert step.cost == 2.0 and "Stone Building" in step.parts[0].what


def test_hill_overlay_levels_block_like_a_boards_hill():
    vasl_dir()
    m, m0 = hexwx.load_map("04+hi8:H4:I5"), hexwx.load_map("04")
    assert not hexwx.los(m0, "E8", "J6").blocked
    res = hexwx.los(m, "E8", "J6")                  # across hi8's level-1 slope in F7 (A6.2)
    assert res.blocked and res.blocking_hex == "F7" and "ground level" in res.reason
    g6 = m.grid.parse("G6")
    assert m.hexes.base[g6] == 3 and m0.hexes.base[g6] == 0


def test_persist_elevation_keeps_the_hill_under_the_overlay():
    vasl_dir()
    plain = hexwx.load_map("02")
    art = hexwx.load_map("02+wd2:J4:J5")
    kept = hexwx.load_map("02+wd2:J4:J5:persist")
    game = load_layout([["02+wd2:J4:J5"]], persist_elevation=True)
    j4 = plain.grid.parse("J4")
    assert plain.hexes.base[j4] == 3
    assert art.hexes.base[j4] == 0                      # the overlay's own (level-0) art
    assert kept.hexes.base[j4] == game.hexes.base[j4] == 3
    assert kept.table[int(kept.hexes.centre[j4])].name == "Woods"
    assert np.array_equal(kept.elevation, plain.elevation)


def test_bad_overlays_are_one_line_errors():
    vasl_dir()
    for text, expect in (("04+zz9:L5:K5", "unknown overlay"), ("04+x11:L5:L9", "not neighbouring"),
                         ("04+x10:L5:K5", "covers one hex"), ("04+x11:L5:L5", "two neighbouring"),
                         ("04+1:B5:C5", "no image")):
        with pytest.raises(DataError, match=expect) as err:
            hexwx.load_map(text)
        assert "\n" not in str(err.value) and "board" in str(err.value)


# -- board overlay SSRs, map files, the cache ----------------------------------------------------

def test_board_overlay_ssr_lays_the_boards_own_image():
    vasl_dir()
    m0 = hexwx.load_map("04")
    m = hexwx.load_map("04", ssr=["SSO_A74"])
    assert (m.terrain != m0.terrain).sum() > 1000
    assert any(a.endswith("bd04") and img == "4_SSO_A74.gif" for _i, a, img, _x, _y in m.overlay_art)
    with pytest.raises(UsageError, match="unknown SSR"):
        hexwx.load_map("04", ssr=["SSO_NoSuch"])
    # a name VASL's LOS ignores (NoRoads) or keeps in code is read from the board's image
    roads = m0.terrain == m0.table.code_named("Dirt Road")
    no_roads = hexwx.load_map("04", ssr=["NoRoads"])
    assert (no_roads.terrain[roads] == no_roads.table.code_named("Open Ground")).mean() > 0.95


def test_map_file_overlays_and_cache_key(tmp_path: Path):
    vasl_dir()
    f = tmp_path / "ovr.toml"
    f.write_text('[map]\nvasl_boards = [[{ board = "04", overlays = ["x11 L5 K5"] }]]\n')
    m = hexwx.load_map(f)
    inline = hexwx.load_map("04+x11:L5:K5")
    assert np.array_equal(m.terrain, inline.terrain) and np.array_equal(m.elevation, inline.elevation)
    assert not np.array_equal(m.terrain, hexwx.load_map("04").terrain)
    f.write_text('[map]\nvasl_boards = [[{ board = "04", overlays = ["x11 L5"] }]]\n')
    with pytest.raises(DataError, match="not neighbouring|two neighbouring"):
        hexwx.load_map(f)
    f.write_text('[map]\nvasl_boards = [["04"]]\npersist_elevation = "yes"\n')
    with pytest.raises(DataError, match="persist_elevation"):
        hexwx.load_map(f)


def test_the_picture_shows_the_overlay():
    vasl_dir()
    from hexwx.render.hexmap import board_art
    m, m0 = hexwx.load_map("04+x11:L5:K5"), hexwx.load_map("04")
    a, b = np.asarray(board_art(m)), np.asarray(board_art(m0))
    diff = np.argwhere((a != b).any(axis=2))
    assert len(diff) > 3000
    ys, xs = diff[:, 0], diff[:, 1]
    assert 506 <= xs.min() and xs.max() < 506 + 225 and 161 <= ys.min() and ys.max() < 161 + 194


def test_saves_carry_overlays_and_the_persist_choice(tmp_path: Path):
    vasl_dir()
    from vsav_helpers import board_command, save_text, write_save

    from hexwx.io.scenario import load_scenario
    from hexwx.io.tomlwrite import dumps
    from hexwx.io.vsav import read_save
    from hexwx.io.vsav_import import scenario_document
    plain = write_save(tmp_path / "a.vsav", save_text(
        [board_command("0\t0\t02\tVER\t6.4\tOVR\twd2\tJ4\tJ5\tSSR\tNoGrain")]))
    own = write_save(tmp_path / "b.vsav", save_text(
        [board_command("0\t0\t02\tVER\t6.4\tOVR\twd2\tJ4\tJ5\ttrue\tSSR\tNoGrain")]))
    game = write_save(tmp_path / "c.vsav", save_text(
        ["command.los.persistelevation|true", board_command("0\t0\t02\tVER\t6.4\tOVR\twd2\tJ4\tJ5")]))
    assert read_save(own).boards[0].overlays == ("wd2 J4 J5 persist",)
    assert read_save(own).boards[0].ssr == ("NoGrain",)
    assert read_save(game).persist_elevation and not read_save(plain).persist_elevation
    j4 = hexwx.load_map("02").grid.parse("J4")
    bases = [int(hexwx.load_map(p).hexes.base[j4]) for p in (plain, own, game)]
    assert bases == [0, 3, 3]
    doc, _off = scenario_document(read_save(game), name="c")
    assert doc["map"]["persist_elevation"] is True
    assert doc["map"]["vasl_boards"] == [[{"board": "02", "overlays": ["wd2 J4 J5"]}]]
    f = tmp_path / "c.toml"
    f.write_text(dumps(doc))
    assert np.array_equal(load_scenario(f).map.elevation, hexwx.load_map(game).elevation)


def test_the_viewer_shows_the_overlay():
    vasl_dir()
    import io

    from PIL import Image

    from hexwx.serve.session import _board_art
    m, m0 = hexwx.load_map("04,r03+x11:L5:K5"), hexwx.load_map("04,r03")
    a = np.asarray(Image.open(io.BytesIO(_board_art(m))).convert("L"), float)
    b = np.asarray(Image.open(io.BytesIO(_board_art(m0))).convert("L"), float)
    diff = np.abs(a - b) > 40                   # (JPEG: small differences everywhere)
    ys, xs = np.nonzero(diff)
    assert len(xs) > 2000
    # board 3 is turned: x11's rectangle (506, 161, 225, 194) lies turned round on its place
    assert 1800 + 1800 - 506 - 225 <= xs.min() and xs.max() < 1800 + 1800 - 506
    assert 645 - 161 - 194 <= ys.min() and ys.max() < 645 - 161
