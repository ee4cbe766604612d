"""A damaged or planted map-cache entry never gives a wrong answer, a crash or a hang (issue #25
C1), and the kernel never reads outside its arrays whatever the map's arrays hold.

Damage that could kill the process (a kernel reading out of bounds, a mapped file cut short)
is tried in a child process, so that a failure is a failed test, not a dead test run.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from hexwx.io import layout, mapcache
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los
from test_mapcache import cache, counting, entries, files, forget, offset_of  # noqa: F401
from vasl_boards import archive, metadata

ROOT = Path(__file__).resolve().parents[2]


def child(code: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with this checkout's hexwx."""
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=full, timeout=timeout)


# -- bits flipped in an entry -----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_random_bit_flips_never_change_an_answer(cache: Path, seed: int) -> None:
    """Bits flipped anywhere in the map's entry (most land in the per-pixel rasters, which
    were not checked by default before): the map is rebuilt and answers as before."""
    board, meta = archive("bd02"), metadata()
    good = load_map(board, vasl_metadata=meta)
    want = [los(good, a, b).to_json() for a, b in (("C5", "P5"), ("I4", "P6"), ("A5", "I2"))]
    [f] = entries(cache)
    data = bytearray(f.read_bytes())
    rng = np.random.default_rng(seed)
    start = offset_of(f, "kernel.8") if seed < 3 else 0    # the packed pixels, or anywhere
    for at in rng.integers(start, len(data), 1 + seed * 3):
        data[at] ^= 1 << int(rng.integers(0, 8))
    f.write_bytes(bytes(data))
    forget()
    again = load_map(board, vasl_metadata=meta)
    assert [los(again, a, b).to_json() for a, b in (("C5", "P5"), ("I4", "P6"), ("A5", "I2"))] == want


def test_the_cli_answer_survives_a_flipped_pixel(cache: Path) -> None:
    """The reported case: one bit of the packed pixels made ``los bd02 C5 P5`` block in I5."""
    args = ["los", str(archive("bd02")), "C5", "P5", "--vasl-metadata", str(metadata())]
    first = subprocess.run([sys.executable, "-m", "hexwx", *args], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert first.returncode == 0 and "K5" in first.stdout
    [f] = entries(cache)
    data = bytearray(f.read_bytes())
    base = offset_of(f, "kernel.8")
    pix = np.frombuffer(bytes(data[base:base + 645 * 1800 * 4]), np.int32).reshape(645, 1800)
    ids = (pix >> 16) - 1
    # every pixel of the line's hexes past the source gets another hex's id: a wrong answer
    # unless the damage is seen
    for y, x in zip(*np.nonzero(ids == ids.max())):
        at = base + 4 * (int(y) * 1800 + int(x)) + 2
        data[at] ^= 0x01
    f.write_bytes(bytes(data))
    again = subprocess.run([sys.executable, "-m", "hexwx", *args], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (again.returncode, again.stdout) == (0, first.stdout), again.stderr


# -- the kernel's own bounds ------------------------------------------------------------------

BAD_ARRAY = """
    import numpy as np
    from hexwx import _native
    from hexwx.io.load import load_map
    m = load_map({board!r}, vasl_metadata={meta!r})
    M, T = list(m.kernel_map), m.kernel_terrain
    hx, h6, pix = M[3].copy(), M[4].copy(), M[8].copy()
    C, S = _native.HX_COLUMNS, _native.H6_COLUMNS
    damage = {damage!r}
    if damage == "pixel hex id":
        pix[300, 900] = (pix[300, 900] & 0xFFFF) | (5000 << 16)
    elif damage == "negative pixel":
        pix[300, 900] = -1 << 20
    elif damage == "LOS point":
        hx[7, C.index("los_x")] = 10 ** 8
    elif damage == "neighbour":
        h6[:, :, S.index("neighbour")] = 10 ** 7
    elif damage == "terrain code":
        hx[:, C.index("centre")] = 10 ** 6
    elif damage == "hexside code":
        h6[:, :, S.index("loc_terrain")] = -(10 ** 6)
    M[3], M[4], M[8] = hx, h6, pix
    try:
        for a in range(0, 300, 7):
            _native.trace_record(tuple(M), T, a, 345 - a, 0, 0)
    except ValueError as exc:
        print("refused:", exc)
    else:
        print("traced")
"""


@pytest.mark.parametrize("damage", ["pixel hex id", "negative pixel", "LOS point", "neighbour",
                                    "terrain code", "hexside code"])
def test_the_kernel_refuses_arrays_out_of_range(damage: str) -> None:
    got = child(BAD_ARRAY.format(board=str(archive("bd02")), meta=str(metadata()), damage=damage),
                env={"HEXWX_NO_CACHE": "1"})
    assert got.returncode == 0, f"the child died: {got.returncode} {got.stderr[-500:]}"
    assert got.stdout.startswith("refused: kernel array"), got.stdout


# -- entries others could have planted, FIFOs, truncation -------------------------------------

@pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")
def test_an_entry_of_another_user_is_not_used(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board, meta = archive("bd02"), metadata()
    load_map(board, vasl_metadata=meta)
    for f in files(cache):
        os.chown(f, 4242, 4242)
    forget()
    builds = counting(monkeypatch, layout, "_build")
    load_map(board, vasl_metadata=meta)
    assert len(builds) == 1


@pytest.mark.parametrize("mode", [0o777, 0o1777, 0o770])
def test_a_folder_others_may_write_to_is_not_used(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                  mode: int) -> None:
    board, meta = archive("bd02"), metadata()
    load_map(board, vasl_metadata=meta)
    before = files(cache)
    cache.chmod(mode)
    try:
        forget()
        mapcache._unwritable.clear()
        builds = counting(monkeypatch, layout, "_build")
        m = load_map(board, vasl_metadata=meta)
        assert len(builds) == 1 and not m.kept_on_disk
        assert files(cache) == before      # and nothing written there
    finally:
        cache.chmod(0o700)


@pytest.mark.parametrize("which", ["names", "map"])
def test_a_fifo_at_an_entry_name_is_skipped(cache: Path, which: str) -> None:
    board, meta = archive("bd02"), metadata()
    good = load_map(board, vasl_metadata=meta)
    [f] = entries(cache, which)
    f.unlink()
    os.mkfifo(f)
    forget()
    signal.alarm(20)                # (a hang fails the test instead of the run)
    try:
        m = load_map(board, vasl_metadata=meta)
        assert los(m, "C5", "P5").to_json() == los(good, "C5", "P5").to_json()
    finally:
        signal.alarm(0)


def test_truncating_an_entry_in_use_kills_nothing(cache: Path) -> None:
    board, meta = archive("bd02"), metadata()
    load_map(board, vasl_metadata=meta)
    [f] = entries(cache)
    got = child(f"""
        import os
        from hexwx.io.load import load_map
        from hexwx.lineofsight.engine import los_table
        m = load_map({str(board)!r}, vasl_metadata={str(meta)!r})
        assert m.kept_on_disk                  # read from the cache
        os.truncate({str(f)!r}, 0)
        t = los_table(m)
        print("answered", int(t.blocked.sum()))
    """)
    assert got.returncode == 0 and got.stdout.startswith("answered"), (got.returncode, got.stderr[-500:])


def test_check_kernel_map_names_the_array_out_of_range() -> None:
    """The check itself, on the arrays of a real map and on damaged copies of them."""
    from hexwx import _native
    from hexwx._kernel_bounds import check_kernel_map
    m = load_map(archive("bd02"), vasl_metadata=metadata())
    M = m.kernel_map
    hx, h6, pix = M[3], M[4], M[8]
    cols = (_native.HX_COLUMNS, _native.H6_COLUMNS)
    assert check_kernel_map(hx, h6, pix, [], *cols) == 32 + 20 // 2   # (A..GG, rows 0..10)
    bad = hx.copy()
    bad[3, _native.HX_COLUMNS.index("los_y")] = pix.shape[0]
    with pytest.raises(ValueError, match="HX los_y"):
        check_kernel_map(bad, h6, pix, [], *cols)
    bad = pix.copy()
    bad[0, 0] = (len(hx) + 1) << 16
    with pytest.raises(ValueError, match="pix"):
        check_kernel_map(hx, h6, bad, [], *cols)
