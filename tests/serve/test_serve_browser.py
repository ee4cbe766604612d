"""The viewer page in a real browser: headless Chromium driven over the DevTools protocol.

Skipped, with a message, when no Chromium is installed (``tools/ensure_chromium.sh`` installs
Debian's ``chromium``; ``.ci/run`` calls it).  Screenshots go to the test's tmp_path.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from hexwx.cli.app import main
from cdp import Browser, Page, find_chromium
from serve_helpers import ROOT, running

MAP = ROOT / "maps" / "hill_village.toml"
SCENARIO = ROOT / "scenarios" / "fog_on_the_hill.toml"
TABLE = ROOT / "scenarios" / "table_agv_village_and_wood.toml"

EXE = find_chromium()
pytestmark = pytest.mark.skipif(EXE is None, reason="chromium is not installed: browser tests "
                                "skipped (run tools/ensure_chromium.sh)")


def cli_json(capsys: pytest.CaptureFixture[str], *argv: Any) -> Any:
    assert main([str(a) for a in argv]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert EXE is not None
    b = Browser(EXE)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    p = browser.page()
    try:
        yield p
    finally:
        p.close()


def open_page(page: Page, url: str, *, whole: bool = True) -> None:
    """Load the page; ``whole``: then press "fit" (the first view shows part of a large map at
    a readable scale) so every hex can be clicked."""
    page.goto(url)
    page.wait("document.body && document.body.dataset.ready === '1'")
    if whole:
        page.js("document.getElementById('zoom-fit').click()")


def shown_los(page: Page, a: str, b: str) -> dict[str, Any]:
    """The LOS panel once it answers ``a`` -> ``b`` (ends as clicked: hexes or unit ids)."""
    page.wait(f"document.getElementById('los-explain').dataset.pair === '{a}>{b}'")
    return page.js("""(() => ({
        drm: document.getElementById('los-drm').textContent,
        verdict: document.getElementById('los-verdict').textContent,
        explain: document.getElementById('los-explain').textContent,
        badges: [...document.querySelectorAll('#layer-los .badge')].map(b => [b.dataset.hex, Number(b.dataset.drm), b.dataset.kind]),
        lines: document.querySelectorAll('#layer-los line').length,
    }))()""")


def expect_shown(shown: dict[str, Any], want: dict[str, Any]) -> None:
    """The page shows the CLI's answer: DRM, verdict, reason with its rule, every hindrance,
    the explanation's lines as ``hexwx los`` prints them."""
    assert shown["verdict"] == want["verdict"]
    assert shown["explain"].startswith(want["explain"] + "\n")
    assert shown["explain"].splitlines()[0] == \
        f"{want['source_location']} -> {want['target_location']}: range {want['range']}"
    if want["blocked"]:
        assert shown["drm"] == "blocked" and "BLOCKED" in shown["verdict"]
        if want["rule"]:
            assert f"({want['rule']})" in shown["explain"]
        if want["blocking_terrain"]:
            assert f"by {want['blocking_terrain']}" in shown["verdict"]
    else:
        assert shown["drm"] == f"+{want['drm']}" and "CLEAR" in shown["verdict"]
        for h in want["hindrances"]:
            assert f"+{h['drm']} {h['kind']}" in shown["explain"] and f"({h['rule']})" in shown["explain"]
        on_map = sorted((h["hex"], h["drm"]) for h in want["hindrances"] if h["hex"])
        assert sorted((x[0], x[1]) for x in shown["badges"]) == on_map


def test_click_two_hexes_then_weather(page: Page, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with running(MAP) as srv:
        open_page(page, srv.url)
        assert page.js("document.querySelectorAll('#layer-hexes polygon').length") == 346
        # hover shows the hex id
        page.mouse("mouseMoved", *page.centre_of('[data-hex="E8"]'))
        page.wait("document.getElementById('hover').textContent.startsWith('E8')")
        # click the source, then the target
        page.click('[data-hex="E8"]')
        page.click('[data-hex="F6"]')
        shown = shown_los(page, "E8", "F6")
        expect_shown(shown, cli_json(capsys, "los", MAP, "E8", "F6", "--json"))
        page.screenshot(tmp_path / "los_clear_weather.png")

        # weather: fog at level 0 re-answers at once
        page.js("(() => { const f = document.getElementById('wx-fog'); f.value = '0';"
                "f.dispatchEvent(new Event('change', {bubbles: true})); })()")
        page.wait("document.getElementById('los-explain').textContent.includes('fog')")
        fogged = page.js("document.querySelectorAll('#layer-wx polygon.fog').length")
        import numpy as np
        from hexwx.io.load import load_map
        assert fogged == int((load_map(MAP).hexes.base <= 0).sum())     # fog at level 0 and lower
        shown = shown_los(page, "E8", "F6")
        want = cli_json(capsys, "los", MAP, "E8", "F6", "--fog", "0", "--json")
        expect_shown(shown, want)
        assert any(k == "lv" for _h, _d, k in shown["badges"]) == any(
            h["hex"] and "fog" in h["kind"] for h in want["hindrances"])
        page.screenshot(tmp_path / "los_fog.png")

        # a new source; the target follows the mouse until clicked
        page.click('[data-hex="J4"]')
        page.mouse("mouseMoved", *page.centre_of('[data-hex="C5"]'))
        shown = shown_los(page, "J4", "C5")
        expect_shown(shown, cli_json(capsys, "los", MAP, "J4", "C5", "--fog", "0", "--json"))
        page.mouse("mouseMoved", *page.centre_of('[data-hex="N7"]'))
        shown = shown_los(page, "J4", "N7")
        expect_shown(shown, cli_json(capsys, "los", MAP, "J4", "N7", "--fog", "0", "--json"))

        # viewshed and exposure overlays
        page.js("document.getElementById('tog-viewshed').click()")
        page.wait("document.querySelectorAll('#layer-fill polygon').length > 0")
        vs = page.js("document.querySelectorAll('#layer-fill polygon[data-seen=\"0\"]').length")
        api = cli_json(capsys, "exposure", MAP, "--from", "J4", "--fog", "0", "--json")
        assert vs == sum(1 for h, c in api["hexes"].items() if c == 0 and h != "J4")
        page.js("document.getElementById('tog-exposure').click()")
        page.wait("document.querySelectorAll('#layer-fill polygon[data-count]').length === 346")
        counts = page.js("Object.fromEntries([...document.querySelectorAll('#layer-text text')]"
                         ".map((t, i) => [i, Number(t.textContent)]))")
        full = cli_json(capsys, "exposure", MAP, "--fog", "0", "--json")
        assert sorted(counts.values()) == sorted(c for c in full["hexes"].values() if c is not None)
        page.screenshot(tmp_path / "exposure.png")


def test_path_mode(page: Page, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with running(MAP) as srv:
        open_page(page, srv.url)
        page.js("document.querySelector('input[name=mode][value=path]').click()")
        page.click('[data-hex="B3"]')
        page.click('[data-hex="K6"]')
        page.wait("document.getElementById('move-explain').textContent.includes('total')")
        want = cli_json(capsys, "path", MAP, "B3", "K6", "--unit", "infantry", "--json")
        text = page.js("document.getElementById('move-explain').textContent")
        assert f"path {' '.join(want['hexes'])}" in text and f"total {want['total']:g} MF" in text
        assert page.js("document.querySelectorAll('#layer-los .path-badge').length") == len(want["steps"])
        # each badge lies below its hex's centre: the hex id (top of the hex) stays uncovered
        gaps = page.js("""[...document.querySelectorAll('#layer-los .path-badge')].map(b => {
            const h = window.hexwxViewer.byName[b.dataset.step];
            return Number(b.getAttribute('cy')) - Number(b.getAttribute('r')) - h.y; })""")
        assert len(gaps) == len(want["steps"]) and min(gaps) > 0
        page.screenshot(tmp_path / "path.png")


def test_scenario_units_who_sees_whom(page: Page, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with running(SCENARIO) as srv:
        open_page(page, srv.url)
        assert page.js("document.querySelectorAll('.counter').length") == 2
        assert page.js("document.querySelectorAll('.marker').length") == 0
        assert "fog" in page.js("document.getElementById('weather-scenario').textContent").lower()
        page.click('rect.counter[data-unit="hill-squad"]')
        page.wait("document.getElementById('sight-explain').textContent.includes('village-squad')")
        text = page.js("document.getElementById('sight-explain').textContent")
        want = cli_json(capsys, "los", "--scenario", SCENARIO, "hill-squad", "village-squad", "--json")
        assert (f"DRM +{want['drm']}" in text) if not want["blocked"] else (want["verdict"] in text)
        assert page.js("document.querySelectorAll('#layer-overlay .sight-line').length") == 1
        # the second unit clicked is the target: the LOS between the units, as `los --scenario`
        page.click('rect.counter[data-unit="village-squad"]')
        expect_shown(shown_los(page, "hill-squad", "village-squad"), want)
        page.screenshot(tmp_path / "scenario.png")


def test_table_turn_slider(page: Page, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with running(TABLE) as srv:
        open_page(page, srv.url)
        page.wait("document.getElementById('table-explain').textContent.length > 0")
        n = page.js("document.querySelectorAll('#layer-los line').length")
        assert n > 0
        page.js("(() => { const t = document.getElementById('turn'); t.value = '4';"
                "t.dispatchEvent(new Event('input')); })()")
        page.wait("document.getElementById('turn-text').textContent.startsWith('turn 4')")
        page.click('polygon.base[data-unit="52nd"]')
        want = cli_json(capsys, "table", TABLE, "--can-see", "52nd", "3e-ligne", "--turn", "4", "--json")
        page.wait("document.getElementById('table-explain').dataset.turn === '4' && "
                  "document.getElementById('table-explain').dataset.from === '52nd'")
        assert page.js("document.querySelectorAll('#layer-los line.sight-line').length") == 3
        text = page.js("document.getElementById('table-explain').textContent")
        assert f"52nd -> 3e-ligne: {'sees' if want['visible'] else 'does not see'} ({want['los']})" in text
        page.screenshot(tmp_path / "table.png")


def test_table_two_units_picked_show_the_fire_answer(page: Page, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # first click: the firer; second: the target; the panel shows `hexwx table --fire A B`
    with running(TABLE) as srv:
        open_page(page, srv.url)
        page.js("(() => { const t = document.getElementById('turn'); t.value = '4';"
                "t.dispatchEvent(new Event('input')); })()")
        page.wait("document.getElementById('turn-text').textContent.startsWith('turn 4')")
        page.click('polygon.base[data-unit="3e-ligne"]')
        page.click('polygon.base[data-unit="52nd"]')
        page.wait("document.getElementById('table-fire').dataset.pair === '3e-ligne>52nd' && "
                  "document.getElementById('table-fire').dataset.turn === '4'")
        want = cli_json(capsys, "table", TABLE, "--fire", "3e-ligne", "52nd", "--turn", "4", "--json")
        text = page.js("document.getElementById('table-fire').textContent")
        assert "no musket or artillery fire at all (AGV Rain): applies" in text     # seed 18: rain
        assert f"may fire: {'yes' if want['may_fire'] else 'no'}" in text
        assert page.js("document.getElementById('table-fire').dataset.mayFire") == str(want["may_fire"]).lower()
        line = page.js("(() => { const l = document.querySelector('#layer-fire line');"
                       "return [l.getAttribute('x1'), l.getAttribute('x2'), l.getAttribute('class')]; })()")
        assert [float(v) for v in line[:2]] == pytest.approx([want["range_from"][0], want["range_to"][0]])
        assert line[2] == "fire-line no"
        # the bases carry the one palette of sides (hexwx.render.style.side_colours)
        from hexwx.render.style import side_colours_hex
        fill = page.js("document.querySelector('polygon.base[data-unit=\"52nd\"]').getAttribute('fill')")
        assert fill == side_colours_hex(["british", "french"])["british"]
        page.screenshot(tmp_path / "table_fire.png")


def test_huzzah_table_shows_officers_and_a_flank_shot(page: Page, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    huzzah = ROOT / "scenarios" / "table_huzzah_fog_lifts.toml"
    with running(huzzah) as srv:
        open_page(page, srv.url)
        assert page.js("document.querySelectorAll('#layer-units circle.officer').length") == 2
        page.click('polygon.base[data-unit="french-1"]')
        page.click('polygon.base[data-unit="allied-2"]')
        page.wait("document.getElementById('table-fire').dataset.pair === 'french-1>allied-2'")
        want = cli_json(capsys, "table", huzzah, "--fire", "french-1", "allied-2", "--json")
        text = page.js("document.getElementById('table-fire').textContent")
        assert f"face hit: {want['face']}" in text and want["face"] == "left flank"
        page.screenshot(tmp_path / "table_huzzah.png")


def move_turns(capsys: pytest.CaptureFixture[str], scenario: Path) -> tuple[str, int, int]:
    """A unit and two turns of ``scenario`` whose weather changes its move, found by asking
    ``hexwx table --move`` for every unit and turn (not assumed)."""
    from hexwx.io.table_scenario import load_table_scenario
    sc = load_table_scenario(str(scenario))
    for u in sc.table.units:
        seen: dict[float, int] = {}
        for turn in range(1, sc.turns + 1):
            a = cli_json(capsys, "table", scenario, "--move", u.id, "--turn", turn, "--json")
            key = a["weather_multiplier"]
            if seen and key not in seen and a["allowance"] not in {
                    cli_json(capsys, "table", scenario, "--move", u.id, "--turn", t, "--json")["allowance"]
                    for t in seen.values()}:
                return u.id, next(iter(seen.values())), turn
            seen.setdefault(key, turn)
    raise AssertionError(f"{scenario.name}: the weather never changes a unit's move")


def shown_move(page: Page, unit: str, turn: int) -> dict[str, Any]:
    page.wait(f"document.getElementById('move-allow').dataset.turn === '{turn}' && "
              f"document.getElementById('move-allow').dataset.unit === '{unit}'")
    return page.js("""(() => {
        const p = document.querySelector('#layer-overlay path.reach');
        const b = p ? p.getBBox() : null;
        return {text: document.getElementById('move-allow').textContent,
                reach: b ? [b.x, b.y, b.width, b.height] : null};
    })()""")


def test_table_movement_follows_the_turn(page: Page, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    unit, t1, t2 = move_turns(capsys, TABLE)
    with running(TABLE) as srv:
        open_page(page, srv.url)
        page.js(f"(() => {{ const t = document.getElementById('turn'); t.value = '{t1}';"
                "t.dispatchEvent(new Event('input')); })()")
        page.click(f'polygon.base[data-unit="{unit}"]')
        page.js("document.getElementById('tog-move').click()")
        shots = {}
        for turn in (t1, t2):
            if turn == t2:              # the slider moves to a turn of other weather
                page.js(f"(() => {{ const t = document.getElementById('turn'); t.value = '{turn}';"
                        "t.dispatchEvent(new Event('input')); })()")
            shown = shown_move(page, unit, turn)
            want = cli_json(capsys, "table", TABLE, "--move", unit, "--turn", turn, "--outline", "--json")
            text, u = shown["text"], want["unit"]
            assert f"allowance: {want['allowance']:g} {u}" in text
            assert f"base move {want['base_move']:g} {u} ({want['source']})" in text
            assert f"weather x{want['weather_multiplier']:g}" in text and want["weather"] in text
            assert f"terrain {want['terrain']} x{want['terrain_factor']:g}" in text
            assert all(n in text for n in want["notes"])
            # the drawn reach is the CLI's outline (page units = table units, y turned)
            xs = [x for poly in want["reach"]["polygons"] for x, _y in poly[0]]
            ys = [y for poly in want["reach"]["polygons"] for _x, y in poly[0]]
            assert shown["reach"] is not None
            assert shown["reach"][2] == pytest.approx(max(xs) - min(xs), abs=0.01)
            assert shown["reach"][3] == pytest.approx(max(ys) - min(ys), abs=0.01)
            shots[turn] = (want["allowance"], text, shown["reach"][2])
            page.screenshot(tmp_path / f"table_move_turn{turn}.png")
        assert shots[t1][0] != shots[t2][0] and shots[t1][1] != shots[t2][1]
        # a longer move, a wider outline
        assert (shots[t1][0] > shots[t2][0]) == (shots[t1][2] > shots[t2][2])
        # unticked: the outline and the text go
        page.js("document.getElementById('tog-move').click()")
        page.wait("!document.querySelector('#layer-overlay path.reach') && "
                  "document.getElementById('move-allow').textContent === ''")


def test_counters_drawn_and_in_the_answers(page: Page, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``hexwx serve MAP --counter``: the counter's tile on the map, and a LOS through it shows
    its hindrance (the answer of ``hexwx los --counter``)."""
    from hexwx.lineofsight.counters import parse_counter
    with running(MAP, counters=[parse_counter("White +3 Smoke@C2")]) as srv:
        open_page(page, srv.url)
        assert page.js("document.querySelectorAll('#layer-counters .map-counter').length") == 1
        assert page.js("document.querySelector('.map-counter title').textContent") == \
            "White +3 Smoke in C2: smoke +3 (A24)"
        page.click('[data-hex="A1"]')
        page.click('[data-hex="G3"]')
        shown = shown_los(page, "A1", "G3")
        want = cli_json(capsys, "los", MAP, "A1", "G3", "--counter", "White +3 Smoke@C2", "--json")
        assert want["hindrance"] == 3
        expect_shown(shown, want)
        page.screenshot(tmp_path / "counters.png")


def api_los(srv: Any, query: str) -> dict[str, Any]:
    from serve_helpers import get_json
    status, d = get_json(srv, f"/api/los?{query}")
    assert status == 200, d
    return d


def test_panels_answer_the_selection_through_mode_changes(page: Page, tmp_path: Path) -> None:
    """Issue 27: LOS J4 -> B5 in fog, then path mode, A5 then I2: the LOS panel answers A5 -> I2
    (never J4 -> B5's explanation under the new ends), as /api/los does, in every mode."""
    from tests.vasl_boards import archive, metadata
    with running(archive("bd02"), vasl_metadata=str(metadata())) as srv:
        open_page(page, srv.url, whole=False)
        assert page.js("window.hexwxViewer.view.k") >= 1        # readable: board art at its scale
        page.screenshot(tmp_path / "bd02_first_view.png")
        page.js("document.getElementById('zoom-fit').click()")
        page.js("(() => { const f = document.getElementById('wx-fog'); f.value = '0';"
                "f.dispatchEvent(new Event('change', {bubbles: true})); })()")
        page.click('[data-hex="J4"]')
        page.click('[data-hex="B5"]')
        expect_shown(shown_los(page, "J4", "B5"), api_los(srv, "from=J4&to=B5&fog=0"))
        page.js("document.querySelector('input[name=mode][value=path]').click()")
        page.click('[data-hex="A5"]')
        # one end chosen: no answer is shown, not J4 -> B5's under A5
        page.wait("document.getElementById('los-explain').dataset.pair === '' && "
                  "document.getElementById('los-verdict').textContent === ''")
        assert page.js("document.getElementById('src-name').textContent") == "A5"
        page.click('[data-hex="I2"]')
        want = api_los(srv, "from=A5&to=I2&fog=0")
        assert want["blocked"] and want["blocking_hex"] == "C4"
        expect_shown(shown_los(page, "A5", "I2"), want)
        page.wait("document.getElementById('move-explain').textContent.includes('path A5')")
        assert page.js("document.querySelectorAll('#layer-los line').length") == 0   # the path's
        page.screenshot(tmp_path / "bd02_path_mode.png")
        # back to LOS mode: the same selection, its line drawn
        page.js("document.querySelector('input[name=mode][value=los]').click()")
        page.wait("document.querySelectorAll('#layer-los line').length > 0")
        expect_shown(shown_los(page, "A5", "I2"), want)
        assert page.js("document.getElementById('move-explain').textContent") == ""
        # reach mode: one click, one end; the LOS panel empties
        page.js("document.querySelector('input[name=mode][value=reach]').click()")
        page.click('[data-hex="E5"]')
        page.wait("document.getElementById('los-explain').dataset.pair === ''")
        assert page.js("document.getElementById('los-drm').textContent") == "–"


def test_location_names_as_the_cli(page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    """J4 on hill_village is "hill level 3" on the page as in `hexwx los`."""
    with running(MAP) as srv:
        open_page(page, srv.url)
        page.mouse("mouseMoved", *page.centre_of('[data-hex="J4"]'))
        page.wait("document.getElementById('hover').textContent.startsWith('J4 (hill level 3)')")
        page.click('[data-hex="J4"]')
        assert page.js("document.getElementById('src-level').options[0].textContent") == "J4 (hill level 3)"
        page.click('[data-hex="D4"]')
        want = cli_json(capsys, "los", MAP, "J4", "D4", "--json")
        assert want["source_location"] == "J4 (hill level 3)"
        names = page.js("[...document.getElementById('tgt-level').options].map(o => o.textContent)")
        from hexwx.io.load import load_map
        from hexwx.lineofsight.locations import location_name
        m = load_map(MAP)
        d4 = m.parse("D4")
        assert names == [location_name(m, d4, lv) for lv in m.levels_at(d4)] and len(names) > 1
        expect_shown(shown_los(page, "J4", "D4"), want)


def test_save_markers_are_not_units(page: Page, tmp_path: Path) -> None:
    """The Stalingrad save's perimeter markers and label are markers with no effect
    (hexwx.io.vsav_pieces): no units, no unit counters, no sight lines."""
    from tests.vasl_boards import vasl_dir
    save = vasl_dir() / "saves" / "streets-of-stalingrad.vsav"
    if not save.is_file():
        pytest.skip(f"{save} is not there")
    with running(save, vasl_dir=str(vasl_dir())) as srv:
        open_page(page, srv.url)
        units = page.js("window.hexwxViewer.map.units")
        assert units == []
        assert page.js("document.querySelectorAll('.counter').length") == 0
        assert page.js("document.getElementById('sec-units').hidden") is True
        page.screenshot(tmp_path / "stalingrad.png")


def test_turned_layout_is_drawn_as_vasl_shows_it(page: Page, tmp_path: Path) -> None:
    """Hube's Pocket (every board rotated): board 5 on top as in VASL, its art turned, the LOS
    blocking point inside the hex the answer names; hex names and answers as the CLI's."""
    from tests.vasl_boards import vasl_dir, metadata
    with running("r05/r02/r04", vasl_dir=str(vasl_dir()), vasl_metadata=str(metadata())) as srv:
        open_page(page, srv.url)
        assert page.js("window.hexwxViewer.map.turned") is True
        assert "rotate(180" in page.js("document.querySelector('#layer-image image').getAttribute('transform')")
        y5 = page.centre_of('[data-hex="5K3"]')[1]
        y2 = page.centre_of('[data-hex="2F7"]')[1]
        y4 = page.centre_of('[data-hex="4E5"]')[1]
        assert y5 < y2 < y4                                   # r05 above r02 above r04
        page.click('[data-hex="5K3"]')
        page.click('[data-hex="2F7"]')
        want = api_los(srv, "from=5K3&to=2F7")
        expect_shown(shown_los(page, "5K3", "2F7"), want)
        assert want["blocked"] and want["blocking_hex"] == "5J2"
        bx, by = page.centre_of("#layer-los circle.blockpt")
        box = page.js("(() => { const b = document.querySelector('[data-hex=\"5J2\"]')"
                      ".getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })()")
        assert box[0] <= bx <= box[2] and box[1] <= by <= box[3]
        page.screenshot(tmp_path / "hubes.png")
