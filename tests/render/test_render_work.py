"""Rendering does each piece of work once: the claims of docs/performance.md, counted.

The board art is decoded once per map object; a plain picture never builds the pixel -> hex
lookup; maps sharing a grid share its geometry; the grid draws each hexside once; hex ids are
stamped from one rendering per column and row part (and look like Pillow's own text); an SVG
render draws the map and asks for each overlay once.
"""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from hexwx.cli import main
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.coords import Grid
from hexwx.hexmap.transform import transformed
from hexwx.io.load import load_map
from hexwx.render import hexmap as H
from hexwx.render.core import render_map
from hexwx.render.style import Frame, _label_masks, halo_label, halo_text
from hexwx.weather.asl.state import AslWeather
from hexwx.weather.asl.terrain_changes import weather_changes

from spy_helpers import counting
from vasl_boards import archive

ROOT = Path(__file__).parents[2]
MAP = ROOT / "maps" / "hill_village.toml"


def fresh(m: HexMap) -> HexMap:
    """The same map as a new object on a new (equal) grid: nothing derived or drawn yet."""
    g = m.grid
    return dataclasses.replace(m, grid=Grid(g.boards, g.nbx, g.nby))


def test_a_plain_render_builds_no_pixel_lookup_and_copies_share_one() -> None:
    m = fresh(load_map(MAP))
    render_map(m, scale=0.3)
    assert "hex_at" not in vars(m.geometry)      # per-hex terrain and drawing do without it
    render_map(m, scale=0.3, weather=AslWeather(fog_level=0, deep_snow=True))
    assert "hex_at" in vars(m.geometry)          # the fog veil reads it
    snowy = transformed(m, weather_changes(AslWeather(deep_snow=True)))
    assert snowy is not m and snowy.geometry is m.geometry
    assert np.array_equal(m.geometry.hex_at, load_map(MAP).geometry.hex_at)


def test_a_map_file_builds_its_geometry_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hexwx.hexmap.pixelgeom as P
    built = counting(monkeypatch, P, "_build")
    copy = tmp_path / "village.toml"              # a new path: not in the loaded-map cache
    shutil.copy(MAP, copy)
    m = load_map(copy)                            # the loader paints the raster through it
    m.hexes, m.geometry.hex_at
    render_map(m, scale=0.3, weather=AslWeather(fog_level=0))
    assert len(built) == 1


def test_board_art_is_decoded_once_per_map(monkeypatch: pytest.MonkeyPatch) -> None:
    archive("bd02"), archive("bd04")
    import hexwx.io.vasl
    import hexwx.limits
    one = fresh(load_map("bd02"))                 # (the loader may read the art: not counted)
    decoded = counting(monkeypatch, hexwx.limits, "open_image")
    read = counting(monkeypatch, hexwx.io.vasl, "read_board_image")
    for window, scale in ((None, 0.25), (("A1", "E5"), 1.0), (None, 0.3)):
        render_map(one, background="board", window=window, scale=scale, legend=False)
    assert len(decoded) == 1 and read == []       # one board: the loader's bytes, decoded once
    two = fresh(load_map("02/04"))
    render_map(two, background="board", scale=0.2, legend=False)
    render_map(two, background="board", window=("2A1", "4E5"), legend=False)
    assert len(decoded) == 3 and len(read) == 2   # each board of the layout once


@pytest.mark.parametrize("window", [None, ("C3", "H8")])
def test_the_grid_draws_every_hexside_of_the_view_once(window: tuple[str, str] | None) -> None:
    m = load_map(MAP)
    hexes = [int(h) for h in H.visible_hexes(m, H.make_view(m, window=window))]
    nb = m.grid.neighbours

    def side(h: int, s: int) -> object:
        return frozenset((h, int(nb[h, s]))) if nb[h, s] >= 0 else (h, s)
    drawn = [side(h, (k + i) % 6) for h, k, n in H.grid_runs(m, hexes) for i in range(n)]
    assert len(drawn) == len(set(drawn))                                   # none twice
    assert set(drawn) == {side(h, s) for h in hexes for s in range(6)}     # none left out


@pytest.mark.parametrize("size", [10, 21, 27])
def test_stamped_labels_look_like_pillow_text(size: int) -> None:
    names = ["A1", "GG10", "B0", "2I4", "12FF7", "M5", "W10"]
    a = Image.new("RGB", (300, 50 * len(names)), (120, 160, 90))
    b = a.copy()
    for i, name in enumerate(names):
        xy = (150.0, 25.0 + 50 * i)
        halo_text(ImageDraw.Draw(a), xy, name, size)
        halo_label(ImageDraw.Draw(b), xy, H._name_parts(name), size)
    diff = np.abs(np.asarray(a, np.int16) - np.asarray(b, np.int16))
    assert diff.max() <= 2, (size, int(diff.max()), int((diff > 2).sum()))


def test_hex_ids_render_each_column_and_row_once() -> None:
    m = load_map(MAP)
    view = H.make_view(m, scale=0.5)
    hexes = H.visible_hexes(m, view)
    parts = {p for h in hexes for p in H._name_parts(m.grid.name(int(h)))}
    _label_masks.cache_clear()
    H.draw_hex_ids(ImageDraw.Draw(Image.new("RGB", view.canvas_size)), m, view, hexes)
    info = _label_masks.cache_info()
    assert info.misses == len(parts) and info.hits == 2 * len(hexes) - len(parts)
    assert len(parts) < len(hexes) / 5


def test_svg_draws_the_map_once_and_prints_the_png_caption(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import hexwx.lineofsight.engine as engine
    import hexwx.render.svg as svg
    drawn = counting(monkeypatch, svg, "render_map")
    asked = counting(monkeypatch, engine, "los")
    argv = ["render", str(MAP), "--los", "E8", "G9", "--fog", "0", "--scale", "0.4"]
    assert main([*argv, "-o", str(tmp_path / "a.svg")]) == 0
    svg_out = capsys.readouterr().out
    assert len(drawn) == 1 and len(asked) == 1
    assert main([*argv, "-o", str(tmp_path / "a.png")]) == 0
    png_out = capsys.readouterr().out
    assert svg_out.split("\n", 1)[1] == png_out.split("\n", 1)[1]


def test_one_frame_serves_maps_and_tables() -> None:
    hexes = Frame(100, 50, 500, 250, 0.5)                        # map pixels, y down
    table = Frame(0.0, 0.0, 120.0, 80.0, 10.0, flip_y=True)       # cm, y up the table
    assert hexes.size == (200, 100) and hexes.canvas_size == (400, 200)
    assert hexes.c(100, 50) == (0.0, 0.0) and hexes.final(300, 150) == (100, 50)
    assert table.final(0.0, 0.0) == (0, 800) and table.final(120.0, 80.0) == (1200, 0)
    assert table.c(10.0, 70.0) == (200.0, 200.0) and table.fpx(3) == 6 and hexes.px(3) == 3
    assert hexes.sees(90, 60, 20) and not hexes.sees(90, 60)


def test_caption_wrapping_agrees_with_measuring_every_line_whole() -> None:
    import random

    from hexwx.render.style import text_width, wrap

    def measured(text: str, size: int, width: float) -> list[str]:
        lines = []
        for para in text.split("\n"):
            line = ""
            for word in para.split(" "):
                cand = f"{line} {word}" if line else word
                if line and text_width(cand, size) > width:
                    lines.append(line)
                    line = word
                else:
                    line = cand
            lines.append(line)
        return lines
    words = ("LOS B3 -> K6, range 9: BLOCKED at F5: woods (A6.2) hindrances: C3 grain +1 "
             "(B5.1); fog +1 (E3.31) LV +2, total DRM +3\nweather: WWWW iiii").split(" ")
    rng = random.Random(5)
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 50)))
        for size, width in ((11, 120), (15, 777), (21, 400)):
            assert wrap(text, size, width) == measured(text, size, width), (text, size, width)


@pytest.mark.parametrize("layer", ["terrain_layer", "decorations_layer"])
def test_the_kept_layers_are_drawn_once_per_map_and_scale(layer: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole-map render keeps its coloured terrain and its line work with the map in the
    on-disk cache: a later load of the map draws the same picture without drawing them again,
    while another scale, a window or a change of the drawing code draws anew."""
    from hexwx.io import load
    monkeypatch.setenv("HEXWX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HEXWX_NO_CACHE", raising=False)

    def reload() -> HexMap:
        monkeypatch.setattr(load, "_CACHE", type(load._CACHE)())   # a new process, as it were
        return load_map(MAP)

    drawings: list[int] = []
    real = getattr(H, layer)

    def counting(*a, **k):  # type: ignore[no-untyped-def]
        drawings.append(1)
        return real(*a, **k)
    monkeypatch.setattr(H, layer, counting)
    first = render_map(reload())
    assert len(drawings) == 1
    m = reload()
    assert m.kept_on_disk
    again = render_map(m)
    assert len(drawings) == 1
    assert again.image.tobytes() == first.image.tobytes() and again.legend == first.legend
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")
    plain = render_map(reload())                       # no cache: drawn, the same pixels
    assert len(drawings) == 2 and plain.image.tobytes() == first.image.tobytes()
    monkeypatch.delenv("HEXWX_NO_CACHE")
    render_map(reload(), scale=0.5)
    render_map(reload(), window=["A1", "C3"])
    assert len(drawings) == 4
    render_map(reload(), hex_ids=False)
    assert len(drawings) == 4 + (layer == "decorations_layer")   # the ids are in the lines only
    H._drawing_code_tag.cache_clear()
    monkeypatch.setattr(H, "_drawing_code_tag", lambda: "0badc0de")
    render_map(reload())
    assert len(drawings) == 5 + (layer == "decorations_layer")


@pytest.mark.parametrize("board", ["bd02", MAP])
def test_the_line_layer_pasted_over_looks_like_lines_drawn_on_the_picture(board: object) -> None:
    """The grid, hexsides, joins and hex ids drawn on a transparent layer and pasted over the
    terrain give the pixels of drawing them straight on the enlarged picture: off by a level or
    two where anti-aliased edges meet, more only at a few pixels where a name's halo crosses the
    translucent grid (there the layer has the grid's sharp line, the picture its average)."""
    from hexwx.render.style import GRID_LINE, downsample
    if board == "bd02":
        archive("bd02")
    m = load_map(board)                              # type: ignore[arg-type]
    view = H.make_view(m, scale=0.6)
    hexes = H.visible_hexes(m, view)
    base, _classes, _levels = H.terrain_layer(m, view)
    straight = base.copy()
    straight.paste(GRID_LINE[:3], (0, 0, *base.size), downsample(H.grid_mask(m, view, hexes), base.size))
    canvas = straight.resize(view.canvas_size, Image.Resampling.NEAREST)
    d = ImageDraw.Draw(canvas)
    sides = H.draw_hexsides(d, m, view, hexes)
    H.draw_board_joins(d, m, view)
    H.draw_hex_ids(d, m, view, hexes)
    straight = downsample(canvas, view.size)
    lines, layer_sides = H.decorations_layer(m, view, hexes, True)
    base.paste(lines, (0, 0), lines)
    diff = np.abs(np.asarray(base, np.int16) - np.asarray(straight, np.int16))
    assert layer_sides == sides
    worst = diff.max(axis=2)
    assert (worst > 3).mean() < 1e-4 and (worst > 0).mean() < 0.05, (int(worst.max()), float((worst > 0).mean()))
    assert np.abs(np.asarray(base, np.int16) - np.asarray(H.terrain_layer(m, view)[0], np.int16)).max() > 100


def test_a_layer_with_alpha_is_averaged_down_strip_by_strip_to_the_same_pixels() -> None:
    """downsample() reduces a tall RGBA canvas a strip at a time (bounded memory): the pixels
    are those of one whole reduce()."""
    from hexwx.render import style
    rng = np.random.default_rng(5)
    rows = 2 * (2 * style._STRIP_ROWS + 37)                 # three strips, the last one short
    canvas = Image.fromarray(rng.integers(0, 256, (rows, 90, 4), dtype=np.uint8), "RGBA")
    small = style.downsample(canvas, (45, rows // 2))
    assert small.mode == "RGBA" and np.array_equal(np.asarray(small), np.asarray(canvas.reduce(2)))


def test_one_art_composer_raises_for_a_render_and_leaves_the_board_blank_for_the_viewer(
        tmp_path: Path) -> None:
    # The render (errors="raise") and the viewer (errors="blank") compose the boards' art
    # with the same function; only what a board without an image does differs.
    import io
    import zipfile

    from hexwx.errors import UsageError
    from hexwx.serve.session import ART_GROUND, _board_art
    archive("bd02"), archive("bd04")
    m = load_map("02/04")
    no_image = tmp_path / "bd02"
    with zipfile.ZipFile(no_image, "w") as zf:
        zf.writestr("BoardMetadata.xml", "<boardMetadata/>")
    first, second = m.board_images
    broken = dataclasses.replace(m, board_images=((str(no_image),) + tuple(first[1:]), second))
    with pytest.raises(UsageError) as err:
        H.compose_art(broken)
    assert err.value.param == "background" and str(no_image) in str(err.value)
    ground = (1, 2, 3)
    whole = np.asarray(H.compose_art(m, errors="blank", ground=ground))
    blank = np.asarray(H.compose_art(broken, errors="blank", ground=ground))
    w, h = m.grid.shape.width_px, m.grid.shape.height_px
    (x0, y0), (x1, y1) = (int(first[1]), int(first[2])), (int(second[1]), int(second[2]))
    assert (blank[y0:y0 + h, x0:x0 + w] == ground).all()           # board 02: left blank
    assert not (whole[y0:y0 + h, x0:x0 + w] == ground).all()
    assert np.array_equal(blank[y1:y1 + h, x1:x1 + w], whole[y1:y1 + h, x1:x1 + w])
    # the viewer's picture is that composition on its own ground (JPEG: near, not equal)
    served = np.asarray(Image.open(io.BytesIO(_board_art(m))).convert("RGB"), float)
    composed = np.asarray(H.compose_art(m, errors="blank", ground=ART_GROUND), float)
    assert served.shape == composed.shape and np.abs(served - composed).mean() < 4
    with pytest.raises(UsageError, match="errors"):
        H.compose_art(m, errors="ignore")
