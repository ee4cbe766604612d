"""The viewer's JSON API, over real HTTP on 127.0.0.1, against the command line's own answers."""
from __future__ import annotations

import io
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from hexwx.cli.app import main
from serve_helpers import ROOT, get, get_json, raw, running

MAP = ROOT / "maps" / "hill_village.toml"
SCENARIO = ROOT / "scenarios" / "fog_on_the_hill.toml"
TABLE = ROOT / "scenarios" / "table_agv_village_and_wood.toml"


def cli(capsys: pytest.CaptureFixture[str], *argv: Any) -> str:
    rc = main([str(a) for a in argv])
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


@pytest.fixture(scope="module")
def server() -> Any:
    with running(MAP) as srv:
        yield srv


# the same questions, as query string and as command line flags
QUESTIONS = [
    ("from=J4&to=C5", ["J4", "C5"]),
    ("from=A7&to=N7", ["A7", "N7"]),
    ("from=E8&to=F6&fog=0&fog_drm=2", ["E8", "F6", "--fog", "0", "--fog-drm", "2"]),
    ("from=I4&to=B5&heavy=1&rain=1", ["I4", "B5", "--heavy", "--rain"]),
    ("from=A1&to=N7&mist=1", ["A1", "N7", "--mist"]),
    ("from=D4&to=J4&from_level=1&falling_snow=true&deep_snow=1",
     ["D4", "J4", "--from-level", "1", "--falling-snow", "--deep-snow"]),
    ("from=C5&to=H7&drift=D6:N&drift=E6:SE&ground_snow=1&mud=0",
     ["C5", "H7", "--drift", "D6:N", "--drift", "E6:SE", "--ground-snow"]),
    ("from=A1&to=GG10&fog=-1", ["A1", "GG10", "--fog", "-1"]),
]


@pytest.mark.parametrize("query,argv", QUESTIONS)
def test_los_body_is_exactly_the_cli_json(server: Any, capsys: pytest.CaptureFixture[str],
                                          query: str, argv: list[str]) -> None:
    status, headers, body = get(server, f"/api/los?{query}")
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert body.decode("utf-8") == cli(capsys, "los", MAP, *argv, "--json")


def test_path_reach_exposure_match_the_cli(server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    _, _, body = get(server, "/api/path?from=B3&to=K6&unit=infantry&mud=1")
    assert body.decode() == cli(capsys, "path", MAP, "B3", "K6", "--unit", "infantry", "--mud", "--json")
    _, _, body = get(server, "/api/path?from=B3&to=K6&unit=infantry&avoid_sight_of=J4,N7")
    want = cli(capsys, "path", MAP, "B3", "K6", "--unit", "infantry", "--avoid-sight-of", "J4,N7", "--json")
    assert body.decode() == want and json.loads(want)["exposed_steps"] is not None
    _, _, body = get(server, "/api/reach?from=A7&unit=infantry&mf=4&deep_snow=1")
    assert body.decode() == cli(capsys, "reach", MAP, "A7", "--unit", "infantry", "--mf", "4",
                                "--deep-snow", "--json")
    status, d = get_json(server, "/api/exposure?from=J4,N7&fog=0")
    assert status == 200
    assert d == json.loads(cli(capsys, "exposure", MAP, "--from", "J4,N7", "--fog", "0", "--json"))


def test_viewshed_agrees_with_single_los(server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    status, d = get_json(server, "/api/viewshed?from=J4&fog=0&fog_drm=1")
    assert status == 200 and d["source"] == "J4"
    for tgt in ("C5", "N7", "A1", "K4", "GG10", "E8"):
        one = json.loads(cli(capsys, "los", MAP, "J4", tgt, "--fog", "0", "--fog-drm", "1", "--json"))
        assert (d["hexes"][tgt] is None) == one["blocked"], tgt
        if not one["blocked"]:
            assert d["hexes"][tgt] == one["drm"], tgt


def test_map_describes_hexes_image_and_options(server: Any) -> None:
    status, d = get_json(server, "/api/map")
    assert status == 200 and d["kind"] == "map" and len(d["hexes"]) == 346
    names = {h["name"] for h in d["hexes"]}
    assert {"A1", "GG10", "J4"} <= names
    los_opts = {o["name"] for o in d["options"]["los"]}
    assert {"fog", "fog_drm", "mist", "rain", "falling_snow", "heavy", "ground_snow", "deep_snow",
            "mud", "drift", "from_level", "to_level"} <= los_opts
    assert "scenario" not in los_opts and "vasl_metadata" not in los_opts
    status, headers, png = get(server, d["image"]["href"])
    assert status == 200 and headers["content-type"] == "image/png" and png[:4] == b"\x89PNG"


def test_page_and_static_files(server: Any) -> None:
    status, headers, body = get(server, "/")
    assert status == 200 and b"/static/viewer.js" in body and headers["content-type"].startswith("text/html")
    for name in ("viewer.js", "viewer.css"):
        status, _, body = get(server, f"/static/{name}")
        assert status == 200 and len(body) > 100
    assert b"http://" not in get(server, "/")[2].replace(b"http://www.w3.org", b"")  # no CDN


HOSTILE = [
    "/api/los?from=Z99&to=A1",                         # not a hex
    "/api/los?from=A7",                                # missing target
    "/api/los?from=A7&to=N7&from_level=7",             # no such level
    "/api/los?from=A7&to=N7&from_level=x",             # not a number
    "/api/los?from=A7&to=N7&fog=9",                    # fog level off the map
    "/api/los?from=A7&to=N7&mist=perhaps",             # a switch with a bad value
    "/api/los?from=A7&to=N7&scenario=/etc/passwd",     # file options are not parameters
    "/api/los?from=A7&to=N7&vasl_metadata=/etc/passwd",
    "/api/los?from=A7&to=N7&help=1",
    "/api/los?from=A7&to=N7&Fog=0",                    # parameter names are lower case
    "/api/los?from=A7&to=N7&fog=" + "9" * 5000,        # huge parameter
    "/api/los?" + "&".join(f"mist{i}=1" for i in range(200)),   # too many parameters
    "/api/los?from=%ff%fe&to=A1",                      # not UTF-8
    "/api/los?from=A7&to=-h",                          # an option where a hex goes
    "/api/los?from=A7&from=B7&to=N7",                  # a repeated end
    "/api/reach?from=A7&unit=infantry&mf=-1",
    "/api/path?from=A7&to=N7&unit=spaceship",
    "/api/viewshed?from=A7&from_level=99",
    "/api/exposure?from=A7,Q99",
    "/api/exposure?level=-1",
    "/api/sight?unit=nobody",                          # no units on a map
    "/api/nosuch",
    "/static/../session.py",
    "/static/%2e%2e/server.py",
    "/static/..%2f..%2fpyproject.toml",
    "/api/../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/static/viewer.js%00.png",
    "/api/board?x=1",
    "/api/los?from=A7&to=N7&vasl_dir=/etc",
    "/api/los?from=A7&to=N7&ignore_board_extras=1",
    "/api/map?x=1",
]


@pytest.mark.parametrize("target", HOSTILE)
def test_hostile_requests_get_a_one_line_json_error(server: Any, target: str) -> None:
    status, headers, body = get(server, target)
    assert status in (400, 404), (status, body[:200])
    text = body.decode("utf-8")
    assert text.count("\n") == 1 and text.endswith("\n")
    err = json.loads(text)["error"]
    assert err and "Traceback" not in err and "File \"" not in err
    assert headers["content-type"].startswith("application/json")
    if target.startswith("/api/") and "nosuch" not in target and ".." not in target:
        assert status == 400


def test_malformed_http_and_methods(server: Any) -> None:
    answer = raw(server, b"GARBAGE\r\n\r\n")       # HTTP/0.9 style: no status line, the body
    assert b"Traceback" not in answer and json.loads(answer.split(b"\r\n\r\n")[-1])["error"]
    long_line = b"GET /api/los?from=" + b"A" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    first = raw(server, long_line).split(b"\r\n", 1)[0]
    assert b" 414 " in first + b" " or b" 400 " in first + b" "
    answer = raw(server, b"POST /api/los HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
    assert b" 405 " in answer.split(b"\r\n", 1)[0] + b" "
    status, _, body = get(server, "/api/map", headers={"Host": "evil.example:80"})
    assert status == 400 and b"Host" in body            # DNS rebinding: only our own host name


def test_concurrent_queries_agree(server: Any) -> None:
    """Many threads at once: every answer equals the answer asked alone."""
    targets = [f"/api/los?from={a}&to={b}&fog=0" for a, b in
               [("J4", "C5"), ("A7", "N7"), ("E8", "F6"), ("I4", "B5"), ("D4", "J4")]] * 8
    targets += ["/api/viewshed?from=J4", "/api/exposure?from=J4,N7"] * 4
    alone = {t: get(server, t)[2] for t in set(targets)}
    with ThreadPoolExecutor(8) as ex:
        together = list(ex.map(lambda t: get(server, t)[2], targets))
    assert all(alone[t] == b for t, b in zip(targets, together))


def test_warm_up_starts_after_the_first_api_answer(capsys: pytest.CaptureFixture[str]) -> None:
    """``hexwx serve`` traces all pairs in the background once the page has asked for its map,
    on every CPU but one; an exposure asked meanwhile waits for it and answers as the CLI."""
    from hexwx.serve.server import WARM_MAX_HEXES, warm_threads
    assert [warm_threads(c) for c in (1, 2, 8)] == [1, 1, 7]
    assert WARM_MAX_HEXES >= 4 * 333              # a 4-board layout is warmed (issue #15 target)
    with running(MAP, warm=True) as srv:
        assert not srv.warm_done.wait(0.3)         # nothing asked yet: nothing traced
        assert get(srv, "/api/map")[0] == 200
        status, d = get_json(srv, "/api/exposure?fog=0")  # asked at once: waits for the trace
        assert srv.warm_done.wait(60) and srv.warm_seconds is not None
        assert status == 200 and d == json.loads(cli(capsys, "exposure", MAP, "--fog", "0", "--json"))
    with running(TABLE, warm=True) as srv:         # no hexes: nothing to warm
        assert srv.warm_done.is_set()


def test_scenario_units_and_who_sees_whom(capsys: pytest.CaptureFixture[str]) -> None:
    with running(SCENARIO) as srv:
        status, d = get_json(srv, "/api/map")
        assert status == 200 and d["kind"] == "scenario"
        assert {u["id"] for u in d["units"]} == {"hill-squad", "village-squad"}
        # the one palette of sides (render.style.side_colours): German, American in order
        assert {u["side"]: u["colour"] for u in d["units"]} == {"German": "#0072b2",
                                                                  "American": "#d55e00"}
        assert d["weather"]["flags"]["fog"] == 0
        status, s = get_json(srv, "/api/sight?unit=hill-squad")
        one = json.loads(cli(capsys, "los", "--scenario", SCENARIO, "hill-squad", "village-squad", "--json"))
        row = s["sees"][0]
        assert row["target"] == "village-squad" and row["blocked"] == one["blocked"]
        assert row["drm"] == one["drm"]
        # unit ids work as LOS ends, answered as `hexwx los --scenario`
        _, _, body = get(srv, "/api/los?from=hill-squad&to=village-squad")
        assert body.decode() == cli(capsys, "los", "--scenario", SCENARIO, "hill-squad",
                                    "village-squad", "--json")
        _, _, body = get(srv, "/api/los?from=hill-squad&to=village-squad&mist=1")
        assert body.decode() == cli(capsys, "los", "--scenario", SCENARIO, "hill-squad",
                                    "village-squad", "--mist", "--json")


def test_table_scenario_turns_and_sights(capsys: pytest.CaptureFixture[str]) -> None:
    with running(TABLE) as srv:
        status, d = get_json(srv, "/api/map")
        assert status == 200 and d["kind"] == "table" and d["units"] and d["pieces"]
        assert len(d["turns"]) >= 4 and all("visibility" in t for t in d["turns"])
        a, b = "52nd", "rha-battery"
        status, s = get_json(srv, f"/api/sight?turn=4&from={a}&to={b}")
        want = json.loads(cli(capsys, "table", TABLE, "--can-see", a, b, "--turn", "4", "--json"))
        want.pop("weather")
        assert status == 200 and s["sights"][0] == want
        assert get(srv, "/api/sight?turn=99")[0] == 400
        assert get(srv, "/api/los?from=A1&to=A2")[0] == 400     # no hex LOS on a table


RIVER = ROOT / "scenarios" / "table_wesencraft_river_farm.toml"


def test_table_fire_is_the_cli_answer(capsys: pytest.CaptureFixture[str]) -> None:
    with running(TABLE) as srv:
        status, d = get_json(srv, "/api/table-fire?from=batterie-a-pied&to=52nd&turn=2")
        assert status == 200
        want = json.loads(cli(capsys, "table", TABLE, "--fire", "batterie-a-pied", "52nd",
                              "--turn", "2", "--json"))
        want.pop("weather_report")
        assert {k: v for k, v in d.items() if k not in ("text", "turn")} == want
        assert "may fire: no" in d["text"] and "(AGV Showers): applies" in d["text"]
        assert get(srv, "/api/table-fire?from=nobody&to=52nd")[0] == 400
        status, m = get_json(srv, "/api/map")
        colours = {u["side"]: u["colour"] for u in m["units"]}
        assert colours == {"british": "#0072b2", "french": "#d55e00"}   # Okabe-Ito blue, vermillion


def test_table_officers_on_the_map() -> None:
    with running(ROOT / "scenarios" / "table_huzzah_fog_lifts.toml") as srv:
        status, m = get_json(srv, "/api/map")
        assert status == 200
        assert [(o["id"], o["quality"], o["command_radius"], o["position"], o["colour"])
                for o in m["officers"]] == [
            ("general-foy", "skilful", 50.0, [75.0, 12.0], "#0072b2"),     # p.16: skilful 50 cm
            ("general-hill", "average", 40.0, [100.0, 90.0], "#d55e00")]


@pytest.mark.parametrize("source,unit,turn,outline", [
    (TABLE, "52nd", 3, False), (TABLE, "52nd", 4, True), (TABLE, "23rd-ld", 12, True),
    (RIVER, "horse-1", 1, True), (RIVER, "guns", 8, False),
])
def test_table_move_is_exactly_the_cli_json(capsys: pytest.CaptureFixture[str], source: Path,
                                            unit: str, turn: int, outline: bool) -> None:
    with running(source) as srv:
        q = f"/api/table-move?unit={unit}&turn={turn}" + ("&outline=1" if outline else "")
        status, headers, body = get(srv, q)
        assert status == 200 and headers["content-type"].startswith("application/json")
        argv = ["table", source, "--move", unit, "--turn", str(turn), "--json"]
        want = cli(capsys, *argv, *(["--outline"] if outline else []))
        assert body.decode("utf-8") == want
        d = json.loads(want)
        assert d["weather_report"]["turn"] == turn and ("reach" in d) == outline
        if outline:                     # the outline holds the unit's own bases
            xs = [x for poly in d["reach"]["polygons"] for x, _y in poly[0]]
            assert min(xs) < max(xs) and d["reach"]["area"] > 0


TABLE_HOSTILE = [
    "/api/table-move?unit=nobody&turn=1",                  # no such unit
    "/api/table-move?turn=1",                              # no unit
    "/api/table-move?unit=52nd&turn=0",                    # turns are 1..12
    "/api/table-move?unit=52nd&turn=13",
    "/api/table-move?unit=52nd&turn=-1",
    "/api/table-move?unit=52nd&turn=x",
    "/api/table-move?unit=52nd&turn=1.5",
    "/api/table-move?unit=52nd&turn=" + "9" * 5000,        # huge
    "/api/table-move?unit=52nd&unit=rha-battery",          # repeated
    "/api/table-move?unit=52nd&outline=perhaps",
    "/api/table-move?unit=52nd&json=1",                    # output form is not a parameter
    "/api/table-move?unit=52nd&scenario=/etc/passwd",      # nor are files
    "/api/table-move?unit=--help",
    "/api/table-move?unit=52nd%00&turn=1",                 # control character
    "/api/table-move?unit=../../etc/passwd",
]


@pytest.fixture(scope="module")
def table_server() -> Any:
    with running(TABLE) as srv:
        yield srv


@pytest.mark.parametrize("target", TABLE_HOSTILE)
def test_table_move_hostile_requests(table_server: Any, target: str) -> None:
    status, headers, body = get(table_server, target)
    text = body.decode("utf-8")
    assert status == 400, text
    assert text.count("\n") == 1 and json.loads(text)["error"] and "Traceback" not in text


def test_table_move_is_not_served_for_hex_maps(server: Any) -> None:
    status, d = get_json(server, "/api/table-move?unit=52nd&turn=1")
    assert status == 400 and "table-move" not in d["error"].split("expected")[-1]


def test_vasl_board(capsys: pytest.CaptureFixture[str]) -> None:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: needs a VASL board archive")
    bd, meta = Path(env) / "boards" / "bd02", Path(env) / "SharedBoardMetadata.xml"
    with running(bd, vasl_metadata=str(meta)) as srv:
        _, _, body = get(srv, "/api/los?from=A1&to=A5")
        assert body.decode() == cli(capsys, "los", bd, "A1", "A5", "--vasl-metadata", meta, "--json")
        d = json.loads(body)
        assert d["blocked"] and d["rule"] == "A6.2"       # LOS-SPEC 8 #1
        _, _, body = get(srv, "/api/los?from=I4&to=B5&fog=0&fog_drm=1")
        assert body.decode() == cli(capsys, "los", bd, "I4", "B5", "--fog", "0", "--fog-drm", "1",
                                    "--vasl-metadata", meta, "--json")
        # a VASL SSR changes the map the question is asked on, as --ssr does
        status, d = get_json(srv, "/api/map")
        assert "NoGrain" in d["ssrs"]
        status, headers, art = get(srv, "/api/board")
        assert status == 200 and headers["content-type"] == "image/jpeg" and art[:2] == b"\xff\xd8"
        for q, flags in (("from=A1&to=A5&ssr=NoGrain", ["A1", "A5", "--ssr", "NoGrain"]),
                         ("from=I4&to=P6&ssr=BrushToOpenGround", ["I4", "P6", "--ssr", "BrushToOpenGround"])):
            _, _, body = get(srv, f"/api/los?{q}")
            assert body.decode() == cli(capsys, "los", bd, *flags, "--vasl-metadata", meta, "--json")
        assert get(srv, "/api/los?from=A1&to=A5&ssr=NoSuchRule")[0] == 400


def test_layout_of_boards_serves_turned_art(capsys: pytest.CaptureFixture[str]) -> None:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: needs VASL board archives")
    with running("r03,02", vasl_dir=env) as srv:
        status, d = get_json(srv, "/api/map")
        assert status == 200 and d["width"] == 3600 and len(d["boards"]) == 2
        status, headers, art = get(srv, "/api/board")
        assert status == 200 and headers["content-type"] == "image/jpeg"
        _, _, body = get(srv, "/api/los?from=3A1&to=2I4")
        assert body.decode() == cli(capsys, "los", "r03,02", "3A1", "2I4", "--vasl-dir", env, "--json")


@pytest.mark.parametrize("board,hex_size,size", [("1a", (56.3125, 64.5), (901, 1290)),
                                                ("a", (168.7857142857, 194.2), (2363, 971))])
def test_half_and_deluxe_boards_are_served_at_their_own_hex_size(
        capsys: pytest.CaptureFixture[str], board: str, hex_size: tuple[float, float],
        size: tuple[int, int]) -> None:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: needs VASL board archives")
    from PIL import Image
    with running(board, vasl_dir=env) as srv:
        status, d = get_json(srv, "/api/map")
        assert status == 200 and (d["hex"]["width"], d["hex"]["height"]) == hex_size
        assert (d["width"], d["height"]) == size
        c5 = next(h for h in d["hexes"] if h["name"] == "C5")
        assert (c5["x"], c5["y"]) == (round(2 * hex_size[0], 2), round(4.5 * hex_size[1], 2))
        status, _, art = get(srv, "/api/board")
        assert status == 200 and Image.open(io.BytesIO(art)).size == size   # not resized
        _, _, body = get(srv, "/api/los?from=A1&to=C5")
        assert body.decode() == cli(capsys, "los", board, "A1", "C5", "--vasl-dir", env, "--json")


def test_vasl_save_units_and_los(capsys: pytest.CaptureFixture[str]) -> None:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: needs VASL's saves and boards")
    save = Path(env) / "saves" / "streets-of-stalingrad.vsav"
    with running(save, vasl_dir=env) as srv:
        status, d = get_json(srv, "/api/map")
        # the 121 pieces on its board are set-up perimeters and a label: markers, not units
        assert status == 200 and d["kind"] == "save" and d["units"] == []
        a, b = d["hexes"][0]["name"], d["hexes"][-1]["name"]
        _, _, body = get(srv, f"/api/los?from={a}&to={b}")
        assert body.decode() == cli(capsys, "los", save, a, b, "--vasl-dir", env, "--json")


def test_the_serve_command_prints_its_url_and_serves(tmp_path: Path) -> None:
    import subprocess
    import sys
    import urllib.request
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "hexwx", "serve", str(MAP), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("hexwx serve: http://127.0.0.1:")
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/los?from=J4&to=C5", timeout=30) as r:
            assert json.loads(r.read())["blocking_hex"] == "D4"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    bad = subprocess.run([sys.executable, "-m", "hexwx", "serve", str(MAP), "--port", "70000"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--port" in bad.stderr
    missing = subprocess.run([sys.executable, "-m", "hexwx", "serve", str(tmp_path / "nope.toml")],
                             capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
