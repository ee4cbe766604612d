"""Renders draw and name VASL's terrain as players know it (issue 27 item 3): shellholes and
graveyards by their own names and patterns, every terrain of VASL's table with a style, the
fog veil in a fogged LOS's notebook picture, snow that leaves the board art legible."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image

from hexwx.lineofsight.engine import los
from hexwx.render.core import render_map
from hexwx.render.hexmap import legend_terrain, terrain_class
from hexwx.render.style import TERRAIN_STYLES
from hexwx.weather.asl.state import AslWeather
from tests.vasl_boards import board


def test_every_vasl_terrain_has_a_style_and_a_name() -> None:
    m = board("bd12")
    rows = legend_terrain(m.table, [t.code for t in m.table.types])
    named = ", ".join(label for _k, label in rows)
    for t in m.table.types:
        assert terrain_class(t) in TERRAIN_STYLES
        if terrain_class(t) not in ("open", "hexside"):
            assert t.name.lower().split(",")[0] in named, t.name
    assert "other hindrance" not in named


def test_graveyard_is_named_graveyard() -> None:
    m = board("bd12")
    r = render_map(m, window=("R1", "Z6"))
    assert "graveyard" in r.legend and "other hindrance" not in r.legend


def test_shellholes_are_drawn_and_named() -> None:
    m = board("bd03")
    plain = render_map(m, window=("F1", "K7"), legend=False, hex_ids=False)
    assert "shellholes" in render_map(m, window=("F1", "K7")).legend
    # the crater pattern's ink shows in a shellholes hex and in no open hex of the window
    ink = np.array(TERRAIN_STYLES["shellholes"].ink)
    img = np.asarray(plain.image, np.int16)

    def inked(name: str) -> int:
        x, y = m.grid.centre(m.parse(name))
        (x0, y0), (x1, y1) = plain.to_image(x - 20, y - 15), plain.to_image(x + 20, y + 15)
        return int((np.abs(img[y0:y1, x0:x1] - ink).sum(axis=2) < 40).sum())
    assert "Shellholes" in m.terrain_of(m.parse("H5")).name
    assert inked("H5") > 10 and inked("K4") == 0


def test_fogged_los_notebook_picture_has_the_fog_veil() -> None:
    m = board("bd02")
    fog = AslWeather(fog_level=0, fog_drm=3)
    r = los(m, "I4", "B5", weather=fog)
    png = Image.open(io.BytesIO(r._repr_png_() or b"")).convert("RGB")
    kw = dict(los=r, window=(r.source, r.target), scale=1.0, legend=False)
    veiled = np.asarray(render_map(r.map, weather=fog, **kw).image, np.int16)
    bare = np.asarray(render_map(r.map, **kw).image, np.int16)
    h, w = veiled.shape[:2]
    a = np.asarray(png, np.int16)[:h, :w]                 # the map above the legend
    assert png.width == w and np.abs(a - veiled).max() == 0
    assert np.abs(a - bare).max() > 0


def test_snow_leaves_the_board_art_legible() -> None:
    """Deep snow over VASL's art: the art's contrast (spread of brightness) mostly survives."""
    m = board("bd02")
    art = np.asarray(render_map(m, window=("A1", "H6"), background="board", legend=False,
                                hex_ids=False).image.convert("L"), float)
    snow = np.asarray(render_map(m, window=("A1", "H6"), background="board", legend=False,
                                 hex_ids=False, weather=AslWeather(deep_snow=True)).image.convert("L"), float)
    assert snow.mean() > art.mean()                    # whiter
    assert snow.std() > 0.75 * art.std()               # and the art still reads


def test_turned_layout_is_drawn_as_vasl_shows_it() -> None:
    """r05/r02/r04: VASL shows board 5 on top, each board turned round; hexwx composes the
    boards upright in reverse order (exact answers) and its pictures turn the map back."""
    import dataclasses
    from hexwx.io.load import load_map
    from tests.vasl_boards import metadata, vasl_dir
    m = load_map("r05/r02/r04", vasl_dir=str(vasl_dir()), vasl_metadata=str(metadata()))
    assert m.shown_turned
    upright = dataclasses.replace(m, shown_turned=False)
    for background in ("board", "terrain"):
        kw = dict(scale=0.25, legend=False, hex_ids=False, background=background)
        turned = np.asarray(render_map(m, **kw).image, float)
        plain = np.asarray(render_map(upright, **kw).image, float)
        assert turned.shape == plain.shape
        # the same picture turned round, up to the phase of the terrain patterns: 6 x 6 blocks
        h, w = (turned.shape[0] // 6) * 6, (turned.shape[1] // 6) * 6
        a = turned[:h, :w].reshape(h // 6, 6, w // 6, 6, 3).mean(axis=(1, 3))
        b = plain[::-1, ::-1][:h, :w].reshape(h // 6, 6, w // 6, 6, 3).mean(axis=(1, 3))
        assert (np.abs(a - b).max(axis=2) <= 25).mean() > 0.97, background
        assert (np.abs(a - plain[:h, :w].reshape(h // 6, 6, w // 6, 6, 3).mean(axis=(1, 3)))
                .max(axis=2) <= 25).mean() < 0.8                    # and not the upright one
    r = render_map(m, los=los(m, "5K3", "2F7"), window=("5K3", "2F7"))
    (ax, ay), (bx, by) = (r.to_image(*m.grid.centre(m.parse(h))) for h in ("5K3", "2F7"))
    assert ay < by                                  # board 5 above board 2, as in VASL
    (mk,) = r.markers_of("blocked")
    assert mk.target == "5J2" and r.image.getpixel(mk.xy)[0] > 150    # the blocking point's disc


def test_fogged_viewshed_notebook_picture_has_the_fog_veil() -> None:
    """A viewshed asked under fog draws its notebook picture with the fog veil, as its LOS does."""
    from pathlib import Path

    from hexwx import load_map, viewshed
    from hexwx.render.core import result_png
    m = load_map(Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml")
    fog = AslWeather(fog_level=0, fog_drm=1)
    vs = viewshed(m, "A7", weather=fog)
    seen = [m.name_of(int(h)) for h in np.flatnonzero(~vs.blocked)]
    kw = dict(viewshed=vs, viewshed_from=vs.source, viewshed_level=vs.level)
    png = vs._repr_png_()
    assert png == result_png(m, seen, weather=fog, **kw)
    assert png != result_png(m, seen, **kw)
