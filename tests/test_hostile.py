"""Hostile inputs through the command line (issue #17, items 3 and 4).

Every case runs ``hexwx.cli.main`` in-process and asserts the exit code (1 bad data, 2 usage),
exactly one line on stderr naming what was expected, and no traceback or "internal error".
Archive and image bombs are small here: the limits are lowered through their environment
variables (the same code path as the defaults), so each case costs milliseconds.  A few cases
also run as real subprocesses.
"""
from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwx.cli import main
from hexwx.errors import HexwxError, UsageError

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "maps" / "hill_village.toml"
TABLE = ROOT / "scenarios" / "table_agv_village_and_wood.toml"
WINTER = ROOT / "scenarios" / "winter_drifts.toml"


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(capsys, rc_expected: int, needle: str, *argv) -> str:
    rc, _out, err = run(capsys, *argv)
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert rc == rc_expected, (rc, err)
    assert needle.lower() in err.lower(), err
    return err


#: A terrain table of our own with one open-ground type: enough for the archive cases below,
#: which must fail on the archive itself whether or not VASL's data is at hand.
TINY_TERRAIN_TABLE = """<?xml version="1.0"?>
<sharedBoardMetadata><terrainTypes>
<terrainType name="Open Ground" typeCode="0" isLOSObstacle="FALSE" isLOSHindrance="FALSE"
 isHalfLevelHeight="FALSE" isInherentTerrain="FALSE" split="0.0" isLowerLOSObstacle="FALSE"
 isLowerLOSHindrance="FALSE" height="0" mapColorRed="255" mapColorGreen="255"
 mapColorBlue="255" LOSCategory="OPEN" />
</terrainTypes></sharedBoardMetadata>
"""


@pytest.fixture
def terrain_table(tmp_path) -> Path:
    """``--vasl-metadata`` for a made-up board archive (no VASL data needed)."""
    f = tmp_path / "terrain.xml"
    f.write_text(TINY_TERRAIN_TABLE)
    return f


def vasl() -> Path:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "boards" / "bd04").exists():
        pytest.skip("HEXWX_VASL_DIR with boards/bd04 is needed for this case")
    return Path(env)


# -- files that are not regular files ------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ("los", "{fifo}", "A1", "B2"),
    ("los", "--scenario", "{fifo}", "A1", "B2"),
    ("table", "{fifo}"),
    ("render", "{fifo}", "-o", "{tmp}/x.png"),
    ("los-batch", str(MAP), "{fifo}"),
    ("exposure", "{fifo}"),
    ("serve", "{fifo}", "--port", "0"),
    ("sight", "--scenario", "{fifo}"),
    ("import-vsav", "{fifo}", "-o", "{tmp}/x.toml"),
    ("weather", "run", "--scenario", "{fifo}", "--turns", "2"),
])
def test_fifo_inputs_are_refused_not_waited_on(tmp_path, capsys, argv):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    args = [a.format(fifo=fifo, tmp=tmp_path) for a in argv]
    err = one_line_error(capsys, 1, "fifo", *args)
    assert "regular file" in err or "fifo" in err.lower()


def test_dev_zero_as_map_is_refused(capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    one_line_error(capsys, 1, "character device", "los", "/dev/zero", "A1", "B2")


def test_fifo_as_vasl_metadata(tmp_path, capsys):
    v = vasl()
    fifo = tmp_path / "meta"
    os.mkfifo(fifo)
    one_line_error(capsys, 1, "fifo", "los", v / "boards" / "bd04", "A1", "B2",
                   "--vasl-metadata", fifo)


# -- archives ---------------------------------------------------------------------------------

def _board_zip(path: Path, entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return path


def _losdata_header(payload_len: int) -> bytes:
    return b"\xac\xed\x00\x05\x7a" + struct.pack(">i", payload_len) + struct.pack(">4i", 33, 10, 1800, 645)


def test_zip_entry_bomb_is_refused_before_inflating(tmp_path, capsys, monkeypatch, terrain_table):
    monkeypatch.setenv("HEXWX_MAX_UNPACKED_MB", "1")
    board = _board_zip(tmp_path / "bd90", {"LOSData": bytes(3 << 20)})
    assert board.stat().st_size < 20_000
    one_line_error(capsys, 1, "limit of 1 MB", "los", board, "A1", "B2",
                   "--vasl-metadata", terrain_table)


def test_gzip_bomb_inside_losdata_is_refused(tmp_path, capsys, monkeypatch, terrain_table):
    monkeypatch.setenv("HEXWX_MAX_UNPACKED_MB", "1")
    co = zlib.compressobj(9, zlib.DEFLATED, 31)
    gz = co.compress(_losdata_header(2 ** 31 - 1)) + co.compress(bytes(4 << 20)) + co.flush()
    board = _board_zip(tmp_path / "bd91", {"LOSData": gz}, zipfile.ZIP_STORED)
    one_line_error(capsys, 1, "LOSData unpacks to more than the limit of 1 MB",
                   "los", board, "A1", "B2",
                   "--vasl-metadata", terrain_table)


def _flip_method(path: Path, method: int) -> None:
    b = bytearray(path.read_bytes())
    i, j = b.find(b"PK\x03\x04"), b.find(b"PK\x01\x02")
    b[i + 8:i + 10] = struct.pack("<H", method)
    b[j + 10:j + 12] = struct.pack("<H", method)
    path.write_bytes(bytes(b))


def test_encrypted_entry_is_one_line(tmp_path, capsys, terrain_table):
    board = _board_zip(tmp_path / "bd92", {"LOSData": b"x" * 100}, zipfile.ZIP_STORED)
    b = bytearray(board.read_bytes())
    b[b.find(b"PK\x03\x04") + 6] |= 1
    b[b.find(b"PK\x01\x02") + 8] |= 1
    board.write_bytes(bytes(b))
    one_line_error(capsys, 1, "encrypted", "los", board, "A1", "B2",
                   "--vasl-metadata", terrain_table)


@pytest.mark.parametrize("method, needle", [(zipfile.ZIP_LZMA, "cannot be read"),
                                            (99, "compression method 99")])
def test_bad_or_unknown_compression_is_one_line(tmp_path, capsys, method, needle, terrain_table):
    board = _board_zip(tmp_path / "bd93", {"LOSData": b"not compressed at all" * 10},
                       zipfile.ZIP_STORED)
    _flip_method(board, method)
    one_line_error(capsys, 1, needle, "los", board, "A1", "B2",
                   "--vasl-metadata", terrain_table)


def test_save_bomb_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HEXWX_MAX_SAVE_MB", "1")
    save = _board_zip(tmp_path / "g.vsav", {"savedGame": b"!VCSK" + b"00" * (2 << 20)})
    one_line_error(capsys, 1, "limit of 1 MB", "import-vsav", save, "-o", tmp_path / "g.toml")
    assert not (tmp_path / "g.toml").exists()


def test_board_image_bomb_is_refused(tmp_path, capsys, monkeypatch):
    from PIL import Image
    v = vasl()
    board = tmp_path / "bd04"
    with zipfile.ZipFile(v / "boards" / "bd04") as src, zipfile.ZipFile(board, "w") as dst:
        dst.writestr("LOSData", src.read("LOSData"))
        buf = io.BytesIO()
        Image.new("P", (4000, 3000)).save(buf, "PNG")
        dst.writestr("bd04.png", buf.getvalue())
    monkeypatch.setenv("HEXWX_MAX_IMAGE_PIXELS", "2000000")
    one_line_error(capsys, 1, "4000 x 3000 pixels", "render", board, "--background", "board",
                   "--vasl-metadata", v / "SharedBoardMetadata.xml", "-o", tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("attr, value, needle", [("height", "inf", "height must be"),
                                                 ("height", "nan", "height must be"),
                                                 ("split", "1e999", "split must be")])
def test_terrain_table_numbers_must_be_finite(tmp_path, capsys, attr, value, needle):
    v = vasl()
    text = (v / "SharedBoardMetadata.xml").read_text()
    meta = tmp_path / "meta.xml"
    meta.write_text(text.replace(f'{attr}="', f'{attr}="{value}" x{attr}="', 1))
    one_line_error(capsys, 1, needle, "los", v / "boards" / "bd04", "A1", "B2",
                   "--vasl-metadata", meta)


# -- sizes and counts ---------------------------------------------------------------------------

def test_big_layout_in_a_map_file_is_refused_before_work(tmp_path, capsys):
    rows = ", ".join("[" + ", ".join(f'"{r * 20 + c + 1}"' for c in range(20)) + "]" for r in range(20))
    f = tmp_path / "big.toml"
    f.write_text(f'[map]\nname = "big"\nboards = [{rows}]\n')
    one_line_error(capsys, 1, "limit of 24 boards", "los", f, "1A1", "1B2")


@pytest.mark.parametrize("argv, needle", [
    (("weather", "run", "--month", "Jan", "--turns", "100000000", "--seed", "1"), "limit of 10,000"),
    (("minis", "weather", "--rules", "agv", "--turns", "100000000", "--seed", "1"), "limit of 10,000"),
    (("minis", "weather", "--rules", "wesencraft", "--turns", "9000", "--stats", "5000000"),
     "games x turns"),
    (("reach", str(MAP), "A1", "--unit", "infantry", "--mf", "1e308"), "bad --mf 1e+308"),
    (("path", str(MAP), "A1", "B5", "--unit", "infantry", "--mf", "1e308"), "bad --mf 1e+308"),
    (("los", str(MAP), "J\u0664", "A1"), "not on this map"),
    (("los", str(MAP), "A1", "B2", "--drift", "A1:NW", "--ground-snow"), "edge of the map"),
    (("path", str(MAP), "A1", "B2", "--unit", "infantry", "--drift", "A1:NW", "--ground-snow"),
     "edge of the map"),
    (("los-table", str(MAP), "-o", ""), "expected a file name"),
    (("weather", "roll", "--month", "Jan", "--seed", str(2 ** 70)), "bad --seed"),
    (("exposure", str(MAP), "--level", "99"), "level 99"),
    (("exposure", str(MAP), "--drift", "A1:NW", "--ground-snow"), "edge of the map"),
    (("exposure", str(MAP), "--from", "J\u0664"), "not on this map"),
    (("exposure", str(MAP), "--top", "-5"), "--top"),
    (("sight", "--scenario", str(WINTER), "--turn", "100000000"), "turn"),
    (("serve", str(MAP), "--port", "99999"), "--port"),
    (("import-vsav", str(MAP), "-o", ""), "expected a file name"),
    (("los-batch", str(MAP), str(MAP), "-o", ""), "expected a file name"),
    (("los-batch", str(MAP), str(MAP), "-o", str(MAP)), "own input"),
    (("render", str(MAP), "-o", ""), "expected a file name"),
])
def test_usage_errors(capsys, argv, needle):
    one_line_error(capsys, 2, needle, *argv)


def _edit(tmp_path: Path, src: Path, old: str, new: str, name: str = "x.toml") -> Path:
    text = src.read_text()
    assert old in text, old
    out = tmp_path / name
    out.write_text(text.replace(old, new, 1).replace('"../maps/', f'"{ROOT / "maps"}/'))
    return out


@pytest.mark.parametrize("old, new, needle", [
    ("size = [72, 48]", "size = [nan, 48]", "finite"),
    ("[[20, 30], [27, 27]", "[[nan, 30], [27, 27]", "finite"),
    ("[[20, 30], [27, 27]", "[[inf, 30], [27, 27]", "finite"),
    ("facing = 180", "facing = nan", "finite"),
    ("bases = 4", "bases = 100000000", "limit of 1,000"),
    ("turns = 12", "turns = 100000000", "turns"),
])
def test_bad_tabletop_scenarios(tmp_path, capsys, old, new, needle):
    one_line_error(capsys, 1, needle, "table", _edit(tmp_path, TABLE, old, new))


@pytest.mark.parametrize("old, new, needle", [
    ('hex = "B2"', 'hex = "Z99"', "units[0].hex"),
    ('hex = "B2"', 'hex = "B2"\nlevel = 3', "units[0].level"),
    ('hex = "E5"\nhexside = 2', 'hex = "A1"\nhexside = 5', "edge of the map"),
    ("turns = 5", "turns = 100000000", "turns"),
])
def test_bad_hex_scenarios_fail_at_load(tmp_path, capsys, old, new, needle):
    sc = _edit(tmp_path, WINTER, old, new)
    one_line_error(capsys, 1, needle, "weather", "run", "--scenario", sc, "--turns", "1", "--seed", "1")
    one_line_error(capsys, 1, needle, "sight", "--scenario", sc)


@pytest.mark.parametrize("body, needle", [
    ('[[depiction]]\nhex = "C4"\nterrain = "woods"\npolygon = [[nan, 0], [0.4, 0], [0.4, 0.4]]\n', "inside the hex"),
    ('[[depiction]]\nhex = "C4"\nterrain = "woods"\npolygon = [[inf, 0], [0.4, 0], [0.4, 0.4]]\n', "inside the hex"),
    ('[[depiction]]\nhex = "C4"\nterrain = "woods"\npolygon = [[-1e6, -1e6], [1e6, -1e6], [1e6, 1e6]]\n',
     "inside the hex"),
    ('[terrain]\nwoods = ["J\u0664"]\n', "not on this map"),
    ('[movement]\nwoods = { infantry = -3 }\n', "expected a cost"),
    ('[movement]\nwoods = { hovercraft = 2 }\n', "hovercraft"),
])
def test_bad_map_files_fail_at_load(tmp_path, capsys, body, needle):
    f = tmp_path / "m.toml"
    f.write_text('[map]\nname = "m"\n' + body)
    one_line_error(capsys, 1, needle, "los", f, "A1", "B2")


@pytest.mark.parametrize("labels", ['"x,y", "1"', '"=cmd|calc", "1"', '"b", "B"'])
def test_board_labels_that_no_hex_name_can_address(tmp_path, capsys, labels):
    f = tmp_path / "m.toml"
    f.write_text(f'[map]\nname = "m"\nboards = [[{labels}]]\n')
    one_line_error(capsys, 1, "board label", "los", f, "1A1", "1B2")


@pytest.mark.parametrize("kind", ["map", "table", "scenario"])
def test_deeply_nested_toml(tmp_path, capsys, kind):
    f = tmp_path / "deep.toml"
    f.write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    cmd = {"map": ("los", f, "A1", "B2"), "table": ("table", f),
           "scenario": ("los", "--scenario", f, "A1", "B2")}[kind]
    one_line_error(capsys, 1, "nested", *cmd)


# -- the API refuses what the CLI refuses ------------------------------------------------------

def test_api_refuses_bool_hexes_and_non_bool_flags():
    import hexwx
    from hexwx.weather.asl.state import AslWeather
    m = hexwx.load_map(MAP)
    with pytest.raises(UsageError, match="True"):
        hexwx.los(m, True, "C5")
    for flag in ("rain", "ground_snow", "heavy", "gusts"):
        with pytest.raises(UsageError, match=f"bad {flag} 'yes'; expected True or False"):
            AslWeather(**{flag: "yes"})


def test_distinct_seeds_give_distinct_games(capsys):
    outs = {}
    for seed in (-7, 7):
        rc, out, _ = run(capsys, "minis", "weather", "--rules", "agv", "--turns", "30", "--seed", seed)
        assert rc == 0
        outs[seed] = out.split("\n", 1)[1]  # the first line names the seed
    assert outs[-7] != outs[7]
    from hexwx.dice import Dice
    a = [Dice(seed=-7).roll(2, "x").total for _ in range(20)]
    b = [Dice(seed=7).roll(2, "x").total for _ in range(20)]
    assert a != b and a == [Dice(seed=-7).roll(2, "x").total for _ in range(20)]


def test_map_cache_is_bounded(tmp_path, monkeypatch):
    """Loading many distinct maps keeps only what the budget allows ($HEXWX_MAP_CACHE_MB, the
    bound of the #16 helper's hexwx._cache.ByteLRU), here 1 MiB: only the newest map stays."""
    from hexwx.io import load
    from hexwx.io.load import load_map
    monkeypatch.setenv("HEXWX_MAP_CACHE_MB", "1")
    for i in range(6):
        f = tmp_path / f"m{i}.toml"
        f.write_text(f'[map]\nname = "m{i}"\n')
        load_map(f)
    assert len(load._CACHE) == 1


# -- fuzzing: random bytes as every kind of input ----------------------------------------------

FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(data=st.binary(max_size=400), zipped=st.booleans(),
       cmd=st.sampled_from(["los", "table", "scenario", "vsav", "pairs"]))
def test_random_bytes_never_give_a_traceback(tmp_path_factory, capsys, data, zipped, cmd):
    d = tmp_path_factory.mktemp("fuzz")
    f = d / ("in.vsav" if cmd == "vsav" else "in.toml")
    if zipped:
        with zipfile.ZipFile(f, "w") as z:
            z.writestr({"vsav": "savedGame"}.get(cmd, "LOSData"), data)
    else:
        f.write_bytes(data)
    argv = {"los": ("los", f, "A1", "B2"), "table": ("table", f),
            "scenario": ("sight", "--scenario", f), "vsav": ("import-vsav", f, "-o", d / "o.toml"),
            "pairs": ("los-batch", MAP, f)}[cmd]
    rc, _out, err = run(capsys, *argv)
    assert "Traceback" not in err and "internal error" not in err, err
    assert rc in (0, 1, 2) and len(err.strip().splitlines()) <= 1, err


@FUZZ
@pytest.mark.filterwarnings("error::RuntimeWarning")   # an overflow in shapely is a failure too
@given(value=st.one_of(st.floats(), st.integers(min_value=-10 ** 30, max_value=10 ** 30),
                       st.text(max_size=8), st.booleans()),
       key=st.sampled_from(["size = [{v}, 48]", "facing = {v}", "bases = {v}", "turns = {v}",
                            "height = {v}"]))
def test_random_values_in_a_tabletop_scenario(tmp_path_factory, capsys, value, key):
    import json
    lit = json.dumps(value) if not isinstance(value, float) else repr(value).replace("inf", "inf")
    if isinstance(value, bool):
        lit = "true" if value else "false"
    d = tmp_path_factory.mktemp("tv")
    text = TABLE.read_text()
    field = key.split(" = ")[0]
    first = next(line for line in text.splitlines() if line.startswith(field + " = "))
    f = d / "t.toml"
    f.write_text(text.replace(first, key.format(v=lit), 1))
    rc, _out, err = run(capsys, "table", f)
    assert "Traceback" not in err and "internal error" not in err, err
    assert rc in (0, 1, 2) and len(err.strip().splitlines()) <= 1, err


# -- real processes ------------------------------------------------------------------------------

def _subprocess(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "hexwx", *argv], capture_output=True, text=True,
                          timeout=120, env=e, stdin=subprocess.DEVNULL)


def test_subprocess_fifo_and_bomb(tmp_path, terrain_table):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    board = _board_zip(tmp_path / "bd95", {"LOSData": bytes(2 << 20)})
    for argv, env in (((str(fifo), "A1", "B2"), None),
                      ((str(board), "A1", "B2", "--vasl-metadata", str(terrain_table)),
                       {"HEXWX_MAX_UNPACKED_MB": "1"})):
        p = _subprocess("los", *argv, env=env)
        assert p.returncode == 1 and "Traceback" not in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_subprocess_ascii_terminal_prints_half_mf():
    p = _subprocess("path", str(MAP), "A1", "E5", "--unit", "infantry", "--mud",
                    env={"PYTHONIOENCODING": "ascii"})
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "\\xbd" in p.stdout


def test_every_error_is_a_hexwx_error_in_the_api(tmp_path):
    """The loaders raise HexwxError (never a bare ValueError/OSError) for the files above."""
    from hexwx.io.load import load_map
    from hexwx.io.table_scenario import load_table_scenario
    f = tmp_path / "t.toml"
    f.write_text(TABLE.read_text().replace("size = [72, 48]", "size = [inf, 48]"))
    with pytest.raises(HexwxError):
        load_table_scenario(f)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(HexwxError):
        load_map(fifo)
    shutil.rmtree(tmp_path / "nope", ignore_errors=True)
