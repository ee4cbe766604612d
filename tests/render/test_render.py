"""Structural checks of rendered hex maps: the right colour in the right place, captions that
match the results, overlays marked where they belong, clear errors for bad input."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from hexwx.errors import DataError, UsageError
from hexwx.render.core import los_caption, render_map
from hexwx.render.hexmap import LV_KINDS, terrain_class
from hexwx.render.style import HEXSIDE_STYLES, OVERLAY, TERRAIN_STYLES, level_colour
from hexwx.hexmap.terrain import CATALOGUE_TYPES
from hexwx.weather.asl.state import AslWeather, Drift

from render_helpers import (FakeViewshed, blocked_los_by_woods, clear_los_through_grain, close,
                            synthetic_map)

WINDOW = ("A1", "J9")


@pytest.fixture(scope="module")
def m():
    return synthetic_map()


@pytest.fixture(scope="module")
def plain(m):
    return render_map(m, window=WINDOW, legend=False)


def pixel(r, x: float, y: float) -> tuple[int, int, int]:
    return r.image.getpixel(r.to_image(x, y))


def below_centre(m, name: str, dy: float = 14.0) -> tuple[float, float]:
    """A map point inside hex ``name``, below its centre (away from the hex id label)."""
    x, y = m.grid.centre(m.grid.parse(name))
    return (x + 3.0, y + dy)


# -- the map itself ------------------------------------------------------------------------

def test_full_board_is_at_least_1600_px_wide(m):
    r = render_map(m, legend=False, hex_ids=False)
    assert r.image.width >= 1600
    assert r.image.size == (1800, 645)


def test_open_ground_has_the_colour_of_its_level(m, plain):
    assert close(pixel(plain, *below_centre(m, "B6")), level_colour(0), 6)
    assert close(pixel(plain, *below_centre(m, "F7")), level_colour(1), 6)
    assert close(pixel(plain, *below_centre(m, "G8")), level_colour(2), 6)


def test_terrain_hexes_have_their_fill_or_pattern_colour(m, plain):
    for name, key in (("E5", "woods"), ("C3", "grain"), ("G4", "wooden building")):
        st = TERRAIN_STYLES[key]
        xs = [below_centre(m, name, dy)[0] + dx for dx in range(0, 8, 2) for dy in (10, 14)]
        got = [plain.image.getpixel(plain.to_image(x, below_centre(m, name)[1])) for x in xs]
        assert any(close(p, st.fill, 20) for p in got), (name, got)


def test_wall_is_drawn_on_its_hexside(m, plain):
    h = m.grid.parse("D6")
    (ax, ay), (bx, by) = m.grid.corners(h)[0], m.grid.corners(h)[1]
    assert close(pixel(plain, (ax + bx) / 2, (ay + by) / 2), HEXSIDE_STYLES["wall"][1], 30)
    assert "wall" in plain.legend


def test_legend_lists_levels_and_terrain_shown(plain):
    for label in ("level 0", "level 1", "level 2", "woods", "grain", "wooden building"):
        assert label in plain.legend
    assert "marsh" not in plain.legend


def test_hex_ids_can_be_left_out(m, plain):
    bare = render_map(m, window=WINDOW, legend=False, hex_ids=False)
    a = np.asarray(plain.image, np.int16)
    b = np.asarray(bare.image, np.int16)
    assert np.abs(a - b).sum() > 0
    # the label of B6 sits above its centre: dark text pixels there only with ids
    x, y = m.grid.centre(m.grid.parse("B6"))
    x0, y0 = plain.to_image(x - 12, y - 30)
    x1, y1 = plain.to_image(x + 12, y - 16)
    assert a[y0:y1, x0:x1].min() < 80 < b[y0:y1, x0:x1].min()


def test_every_catalogue_terrain_has_a_style():
    for t in CATALOGUE_TYPES:
        assert terrain_class(t) in TERRAIN_STYLES


def test_legend_and_caption_are_added_below_the_map(m, plain):
    r = render_map(m, window=WINDOW)
    assert r.image.width == plain.image.width
    assert r.image.height > plain.image.height + 40


def test_repr_png_is_a_png(plain):
    data = plain._repr_png_()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


# -- LOS overlay ---------------------------------------------------------------------------

def test_hindrance_and_lv_hexes_carry_badges_with_their_colour(m):
    res = clear_los_through_grain()
    r = render_map(m, los=res, window=WINDOW, legend=False)
    hind = r.markers_of("hindrance")
    lv = r.markers_of("lv")
    assert [(x.target, x.label) for x in hind] == [("C3", "+1")]
    assert [(x.target, x.label) for x in lv] == [("D3", "+1")]
    assert close(r.image.getpixel(hind[0].xy), OVERLAY["hindrance"], 35)
    assert close(r.image.getpixel(lv[0].xy), OVERLAY["lv"], 35)


def test_clear_thread_is_green(m):
    res = clear_los_through_grain()
    r = render_map(m, los=res, window=WINDOW, legend=False)
    (ax, ay), (bx, by) = (m.grid.centre(m.grid.parse(h)) for h in (res.source, res.target))
    t = 0.75  # a point of the line away from the badges
    assert close(pixel(r, ax + (bx - ax) * t, ay + (by - ay) * t), OVERLAY["los clear"], 45)


def test_blocked_thread_marks_the_blocking_point(m):
    res = blocked_los_by_woods(m)
    r = render_map(m, los=res, window=WINDOW, legend=False)
    (mk,) = r.markers_of("blocked")
    assert mk.target == "E5"
    assert close(r.image.getpixel(mk.xy), OVERLAY["los blocked"], 35)
    # the clear part before the blocking point is green
    ax, ay = m.grid.centre(m.grid.parse("C5"))
    px, py = res.blocked_at
    assert close(pixel(r, ax + (px - ax) * 0.5, ay + (py - ay) * 0.5), OVERLAY["los clear"], 45)


def test_caption_is_the_los_explanation(m):
    res = clear_los_through_grain()
    r = render_map(m, los=res, window=WINDOW)
    cap = los_caption(res)
    assert cap in r.caption
    assert "range 3" in cap and "clear" in cap
    assert "C3 grain +1 (B15)" in cap and "D3 lv +1" in cap
    assert "terrain hindrance +1, LV +1, total DRM +2" in cap


def test_blocked_caption_names_hex_reason_and_rule(m):
    cap = render_map(m, los=blocked_los_by_woods(m), window=WINDOW).caption
    assert "BLOCKED in E5: woods (B13)" in cap


@pytest.mark.parametrize("kind", LV_KINDS[:3])
def test_weather_kinds_are_lv_badges(m, kind):
    res = clear_los_through_grain()
    res = type(res)(**{**res.__dict__, "hindrances": (type(res.hindrances[0])("D3", 2, kind, "E3"),)})
    r = render_map(m, los=res, window=WINDOW, legend=False)
    assert [x.label for x in r.markers_of("lv")] == ["+2"]


# -- viewshed and weather ------------------------------------------------------------------

def _viewshed(m):
    n = len(m.grid)
    blocked = np.zeros(n, bool)
    drm = np.zeros(n, np.int32)
    blocked[m.grid.parse("H6")] = True
    drm[m.grid.parse("C6")] = 2
    return FakeViewshed(blocked, drm)


def test_viewshed_veils_hidden_hexes_and_labels_hindered_ones(m, plain):
    r = render_map(m, viewshed=_viewshed(m), viewshed_from="B6", window=WINDOW, legend=False)
    hidden = pixel(r, *below_centre(m, "H6"))
    assert sum(hidden) < sum(pixel(plain, *below_centre(m, "H6"))) - 120
    (mk,) = r.markers_of("viewshed hindered")
    assert mk.target == "C6" and mk.label == "+2"
    red, _g, blue = r.image.getpixel(mk.xy)
    assert red > blue + 60   # orange veil
    assert "viewshed of B6" in r.caption and "1 of them hindered" in r.caption


def test_fog_veils_only_hexes_at_or_below_the_fog_level(m, plain):
    r = render_map(m, weather=AslWeather(fog_level=0), window=WINDOW, legend=False)
    low, hill = below_centre(m, "B6"), below_centre(m, "F7")
    assert pixel(r, *low) != pixel(plain, *low)
    assert pixel(r, *hill) == pixel(plain, *hill)
    assert "fog" in render_map(m, weather=AslWeather(fog_level=0), window=WINDOW).legend


def test_drift_is_a_white_bar_on_its_hexside(m):
    w = AslWeather(ground_snow=True, drifts=(Drift("D5", 2),))
    r = render_map(m, weather=w, window=WINDOW)
    (mk,) = r.markers_of("drift")
    assert mk.target == "D5"
    assert close(r.image.getpixel(mk.xy), (255, 255, 255), 25)
    assert "drifts: D5:2" in r.caption


def test_mud_changes_the_map(m, plain):
    r = render_map(m, weather=AslWeather(base="Mud"), window=WINDOW, legend=False)
    assert np.abs(np.asarray(r.image, np.int16) - np.asarray(plain.image, np.int16)).mean() > 2


# -- movement (real hexwx.movement.paths results) ------------------------------------------------

def test_path_badges_show_the_cumulative_cost(m):
    from hexwx.movement.paths import path
    p = path(m, "B6", "F7", unit="infantry")
    r = render_map(m, path=p, window=WINDOW, legend=False)
    badges = r.markers_of("path")
    assert [b.target for b in badges] == list(p.hexes)
    assert badges[0].label == "0"
    assert float(badges[-1].label) == p.total
    running = 0.0
    for b, st in zip(badges[1:], p.steps):
        running += st.cost
        assert float(b.label) == running


def test_reach_shades_and_labels_each_reachable_hex(m):
    from hexwx.movement.paths import reach
    rc = reach(m, "C6", unit="infantry", mf=2)
    r = render_map(m, reach=rc, window=WINDOW)
    got = {x.target: float(x.label) for x in r.markers_of("reach")}
    assert got == {h: c for h, c in rc.costs.items()}
    assert f"{len(rc.costs)} hexes" in r.caption


# -- bad input -----------------------------------------------------------------------------

def test_unknown_overlay_hex_is_a_usage_error(m):
    res = clear_los_through_grain()
    bad = type(res)(**{**res.__dict__, "source": "Z99"})
    with pytest.raises(UsageError, match="'Z99'"):
        render_map(m, los=bad)
    with pytest.raises(UsageError, match="bad viewshed_from: .*'QQ3'"):
        render_map(m, viewshed=_viewshed(m), viewshed_from="QQ3")


def test_bad_window_scale_and_background(m):
    with pytest.raises(UsageError, match="window: .*'A99'"):
        render_map(m, window=("A1", "A99"))
    with pytest.raises(UsageError, match="scale"):
        render_map(m, scale=0)
    with pytest.raises(UsageError, match="bad background 'photo'"):
        render_map(m, background="photo")
    with pytest.raises(UsageError, match="background='board' needs a VASL board") as err:
        render_map(m, background="board")
    from hexwx.cli.app import flag_message      # the command line names its flag, twice
    shown = flag_message(str(err.value), err.value.param)
    assert shown.startswith("--background board needs") and "(use --background terrain)" in shown


def test_unwritable_output_is_a_one_line_data_error(m, plain, tmp_path):
    with pytest.raises(DataError, match="does not exist") as e:
        plain.save(tmp_path / "missing" / "x.png")
    assert "\n" not in str(e.value)
    with pytest.raises(DataError, match="is a directory"):
        plain.save(tmp_path / "dir.png") if (tmp_path / "dir.png").mkdir() is None else None
    with pytest.raises(UsageError, match=r"must end in \.png"):
        plain.save(tmp_path / "x.jpg")
    out = plain.save(tmp_path / "ok.png")
    assert Image.open(out).size == plain.image.size


@pytest.mark.parametrize("kind, lv", [("grain", False), ("brush", False), ("fog", True),
                                      ("firing out of fog", True), ("rain (intensified)", True),
                                      ("falling snow", True), ("winter camouflage", True)])
def test_lv_kinds_are_whole_words(kind, lv):
    from hexwx.render.hexmap import is_lv
    assert is_lv(kind) is lv


def test_map_options_are_one_typed_value() -> None:
    """render_map, map_svg and the notebook pictures take one MapOptions (its fields as
    keywords too); a misspelt option is a UsageError naming it, not a silent default."""
    from pathlib import Path

    from hexwx.io.load import load_map
    from hexwx.lineofsight.engine import los
    from hexwx.render.hexmap import MapOptions
    from hexwx.render.svg import map_svg
    m = load_map(Path(__file__).resolve().parents[2] / "maps" / "hill_village.toml")
    r = los(m, "A7", "N7")
    opts = MapOptions(los=r, window=("A5", "N9"), legend=False)
    assert render_map(m, opts).to_png() == render_map(m, los=r, window=("A5", "N9"),
                                                     legend=False).to_png()
    assert map_svg(m, opts) == map_svg(m, los=r, window=("A5", "N9"), legend=False)
    with pytest.raises(UsageError, match="bad lso") as err:
        render_map(m, lso=r)
    assert err.value.param == "lso"
    with pytest.raises(UsageError, match="bad background 'photo'"):
        MapOptions(background="photo")
