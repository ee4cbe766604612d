"""Odd numbers, floods and control characters (issue #25 V1, V2, the exit-3 list, J1): each is a
one-line error (exit 1 or 2) or escaped output, and every count is checked before the work
proportional to it.  Through ``hexwx.cli.main`` in-process, as ``tests/test_hostile.py``."""
from __future__ import annotations

import gzip
import struct
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from hexwx.cli import main
from hexwx.outputs import printable
from vsav_helpers import board_command, hex_centre_px, piece_command, save_text, vasl_dir, write_save

ROOT = Path(__file__).resolve().parents[1]
VILLAGE = ROOT / "maps" / "hill_village.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line(capsys: pytest.CaptureFixture[str], codes: tuple[int, ...], needle: str, *argv: object) -> str:
    rc, _out, err = run(capsys, *argv)
    assert "internal error" not in err and "Traceback" not in err, err
    assert rc in codes and len(err.strip().splitlines()) == 1, (rc, err)
    assert needle.lower() in err.lower(), err
    return err


# -- counts before work ------------------------------------------------------------------------

def test_a_flood_of_boards_in_a_save_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """30,000 boards in a 1 MB save: refused by count before any board is laid (it took over
    60 s before the 24-board limit answered)."""
    save = write_save(tmp_path / "flood.vsav",
                      save_text([board_command(*[f"{i}\t0\t02\tVER\t6.4" for i in range(30_000)])]))
    t = time.perf_counter()
    one_line(capsys, (1,), "30,000 boards exceeds", "import-vsav", save, "-o", tmp_path / "s.toml")
    assert time.perf_counter() - t < 5


def test_a_flood_of_zip_entries_is_refused_before_zipfile_reads_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWX_MAX_ZIP_ENTRIES", "100")
    big = tmp_path / "bd99"
    with zipfile.ZipFile(big, "w") as z:
        for i in range(500):
            z.writestr(f"e{i}", b"")
    built: list[int] = []
    real = zipfile.ZipFile._RealGetContents           # type: ignore[attr-defined]

    def counting(self: zipfile.ZipFile) -> None:
        built.append(1)
        real(self)

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", counting)
    one_line(capsys, (1,), "500 entries exceeds", "los", big, "A1", "B2",
             "--vasl-metadata", vasl_dir() / "SharedBoardMetadata.xml")
    assert not built            # (zipfile never read the central directory)


# -- numbers a save may hold -------------------------------------------------------------------

@pytest.mark.parametrize("zoom", ["0", "nan", "1e-320", "-1", "inf", "1e400"])
def test_odd_zooms_in_a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str], zoom: str) -> None:
    vasl_dir()
    save = write_save(tmp_path / "z.vsav", save_text([board_command(f"0\t0\t02\tVER\t6.4\tZOOM\t{zoom}")]))
    one_line(capsys, (1,), "ZOOM", "import-vsav", save, "-o", tmp_path / "s.toml")


@pytest.mark.parametrize("where", ["board x", "piece x", "piece y"])
def test_5000_digit_coordinates_in_a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    vasl_dir()
    huge = "9" * 5000
    board = f"{huge}\t0\t02\tVER\t6.4" if where == "board x" else "0\t0\t02\tVER\t6.4"
    x, y = hex_centre_px(0, 0, 8, 3)
    piece = piece_command("11", "4-6-8 Esq", x, y, nationality="ge")
    piece = piece.replace(f"Main Map;{x};{y}", f"Main Map;{huge};{y}" if where == "piece x"
                          else f"Main Map;{x};{huge}" if where == "piece y" else f"Main Map;{x};{y}")
    save = write_save(tmp_path / "c.vsav", save_text([board_command(board), piece]))
    rc, out, err = run(capsys, "import-vsav", save, "-o", tmp_path / "s.toml")
    assert "internal error" not in err and "Traceback" not in err, err
    assert rc in (0, 1) and len(err.strip().splitlines()) <= 1, err


# -- numbers in other inputs -------------------------------------------------------------------

def test_a_20_digit_level_in_a_pairs_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pairs = tmp_path / "p.csv"
    pairs.write_text("src,tgt,src_level,tgt_level\nA7,N7,12345678901234567890,0\n")
    one_line(capsys, (1,), "line 2: src_level", "los-batch", VILLAGE, pairs)


@pytest.mark.parametrize("var", ["HEXWX_CACHE_MAX_MB", "HEXWX_MAP_CACHE_MB"])
@pytest.mark.parametrize("value", ["nan", "inf", "1e400", "-3", "lots"])
def test_odd_cache_sizes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch, var: str, value: str) -> None:
    monkeypatch.setenv("HEXWX_CACHE_DIR", str(tmp_path / "cache"))      # (a write: pruned)
    monkeypatch.setenv(var, value)
    from hexwx.io import load
    load._CACHE.clear()
    m = tmp_path / "m.toml"
    m.write_text('[map]\nname = "m"\n[terrain]\nwoods = ["C4"]\n')
    one_line(capsys, (2,), var, "los", m, "C3", "C5")


def test_a_30_digit_input_limit(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWX_MAX_INPUT_MB", "1" * 30)
    one_line(capsys, (2,), "HEXWX_MAX_INPUT_MB", "los", VILLAGE, "C3", "C5")


def _board_with_elevations(path: Path, elevation: np.ndarray) -> Path:
    """A copy of VASL's board 2 whose LOSData holds ``elevation`` (int8, x-major)."""
    from hexwx.io.vasl import _block_payload
    src = vasl_dir() / "boards" / "bd02"
    with zipfile.ZipFile(src) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    payload = bytearray(_block_payload(gzip.decompress(entries["LOSData"]), str(src)))
    _w, _h, gw, gh = struct.unpack_from(">4i", payload, 0)
    pairs = np.frombuffer(bytes(payload[16:16 + 2 * gw * gh]), np.uint8).reshape(gw, gh, 2).copy()
    pairs[:, :, 0] = elevation.view(np.uint8)
    payload[16:16 + 2 * gw * gh] = pairs.tobytes()
    entries["LOSData"] = gzip.compress(b"\xac\xed\x00\x05\x7a" + struct.pack(">i", len(payload)) + payload)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return path


def test_render_of_a_board_with_extreme_elevations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elevation = np.full((1800, 645), 127, np.int8)
    elevation[1::2] = -128
    board = _board_with_elevations(tmp_path / "bd02", elevation)
    for out in ("r.png", "r.svg"):
        rc, _out, err = run(capsys, "render", board, "-o", tmp_path / out)
        assert rc == 0 and (tmp_path / out).stat().st_size > 0, err


# -- control characters ------------------------------------------------------------------------

def test_sight_escapes_control_characters_of_piece_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vasl_dir()
    ge, ru = hex_centre_px(0, 0, 8, 3), hex_centre_px(0, 0, 12, 3)
    save = write_save(tmp_path / "g.vsav", save_text([
        board_command("0\t0\t02\tVER\t6.4"),
        piece_command("11", "4-6-8\nFORGED: sees everything\x9b2J\x08", *ge, nationality="ge"),
        piece_command("12", "6-2-8\u202eEsq\x07", *ru, nationality="r\nFORGED\x07")]))
    scenario = tmp_path / "g.toml"
    assert run(capsys, "import-vsav", save, "-o", scenario)[0] == 0
    rc, out, err = run(capsys, "sight", "--scenario", scenario)
    assert rc == 0, err
    lines = out.splitlines()
    assert len(lines) == 4                      # the header, the count, two pairs
    assert not any(ch in out for ch in "\x9b\x08\x07\u202e")
    assert "r\\x0aFORGED\\x07" in out and not any(ln.startswith("FORGED") for ln in lines)


@pytest.mark.parametrize("text, shown", [("I4", "I4"), ("Kübelwagen ½", "Kübelwagen ½"),
                                         ("a\nb", "a\\x0ab"), ("\x1b[31m", "\\x1b[31m"),
                                         ("\x9b", "\\x9b"), ("x\u2028y", "x\\u2028y")])
def test_printable(text: str, shown: str) -> None:
    assert printable(text) == shown
