"""The on-disk map cache (hexwx.io.mapcache): a cached map is the same map, stale or broken files
are rebuilt, an unusable folder means no cache, and each map's derived data is built once.

Every test here has its own cache folder (``cache`` fixture); in-process caches are emptied
between loads so that a second load reads the disk, as a new process would.  VASL boards come
from ``$HEXWX_VASL_DIR`` (tests skip without it); archives that a test changes are copies.
"""
from __future__ import annotations

import os
import shutil
import warnings
import dataclasses
from dataclasses import astuple, fields
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import hexwx.hexmap.pixelgeom as pixelgeom
import hexwx.hexmap.roads as roads
import hexwx.movement.costs as costs
from hexwx.cli import main
from hexwx.hexmap.board import HexMap
from hexwx.hexmap.derive import HexTerrain
from hexwx.hexmap.pixelgeom import PixelGeometry
from hexwx.io import layout, load, mapcache
from hexwx.io.load import load_map
from hexwx.lineofsight.engine import los, los_table
from hexwx.movement.costs import MoveTerrain
from hexwx.movement.paths import path
from hexwx.weather.asl.state import AslWeather, Drift
from import_helpers import modules_loaded_by
from spy_helpers import counting
from vasl_boards import archive, metadata, vasl_dir

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "hill_village.toml"
FOG = AslWeather(fog_level=0, fog_drm=1)


def forget() -> None:
    """Empty every in-process cache of maps: the next load reads the disk (or builds)."""
    load._CACHE.clear()
    layout._compose.cache_clear()
    layout._raster.cache_clear()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("HEXWX_CACHE_DIR", str(d))
    monkeypatch.delenv("HEXWX_NO_CACHE", raising=False)
    monkeypatch.delenv("HEXWX_CACHE_MAX_MB", raising=False)
    mapcache._unwritable.clear()
    forget()
    yield d
    mapcache._unwritable.clear()
    forget()


def files(d: Path) -> list[Path]:
    return sorted(d.glob("*.npy")) if d.is_dir() else []


def entries(d: Path, part: str = "map") -> list[Path]:
    """The cache files holding maps (``part="map"``: content entries), the small files naming
    them (``"names"``) or a derived array."""
    found = []
    for f in files(d):
        got = mapcache._read(f, {})
        if got is not None and got[0]["part"] == part:
            found.append(f)
    return found


def same_array(a: Any, b: Any, what: str) -> None:
    if a is None or b is None:
        assert a is None and b is None, what
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, f"{what}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
    assert np.array_equal(a, b), what


def assert_same_map(a: HexMap, b: HexMap) -> None:
    """Every field, every derived array and the movement arrays of ``a`` and ``b`` are equal."""
    assert (a.name, a.source, a.kind, a.board_images) == (b.name, b.source, b.kind, b.board_images)
    assert a.image_bytes == b.image_bytes and dict(a.move_overrides) == dict(b.move_overrides)
    assert a.grid.boards == b.grid.boards and a.grid.names() == b.grid.names()
    assert a.table.source == b.table.source
    assert [astuple(t) for t in a.table.types] == [astuple(t) for t in b.table.types]
    for f in ("elevation", "terrain", "stairways", "roads", "fills"):
        same_array(getattr(a, f), getattr(b, f), f)
    for f in fields(PixelGeometry):
        x, y = getattr(a.geometry, f.name), getattr(b.geometry, f.name)
        if isinstance(x, np.ndarray):
            same_array(x, y, f"geometry.{f.name}")
        elif dataclasses.is_dataclass(x):         # the parts of the pixel lookup
            for g in fields(x):
                u, v = getattr(x, g.name), getattr(y, g.name)
                if g.name == "turns":
                    assert [t[:2] for t in u] == [t[:2] for t in v]
                    for (*_, cu), (*_, cv) in zip(u, v, strict=True):
                        same_array(cu, cv, "geometry.lookup.turns")
                else:
                    same_array(u, v, f"geometry.lookup.{g.name}")
        else:
            assert x == y and type(x) is type(y), f"geometry.{f.name}"
    same_array(a.geometry.hex_at, b.geometry.hex_at, "geometry.hex_at")
    for f in fields(HexTerrain):
        same_array(getattr(a.hexes, f.name), getattr(b.hexes, f.name), f"hexes.{f.name}")
    def same_nested(x: Any, y: Any, what: str) -> None:
        if isinstance(x, tuple):
            assert isinstance(y, tuple) and len(x) == len(y), what
            for i, (u, v) in enumerate(zip(x, y)):
                same_nested(u, v, f"{what}[{i}]")
        else:
            same_array(x, y, what)

    same_nested(a.kernel_map, b.kernel_map, "kernel_map")
    for i, (x, y) in enumerate(zip(a.kernel_terrain, b.kernel_terrain, strict=True)):
        same_array(x, y, f"kernel_terrain[{i}]")
    for f in ("road_sides", "building_ids", "lowest_ground"):
        same_array(getattr(a, f), getattr(b, f), f)
    ma, mb = MoveTerrain.of(a), MoveTerrain.of(b)
    for f in ("centre", "level", "side_terrain", "road_sides", "cover", "building"):
        same_array(getattr(ma, f), getattr(mb, f), f"movement {f}")


def assert_same_answers(a: HexMap, b: HexMap, pairs: int = 150) -> None:
    """All-pairs tables (clear and fogged) and single LOS answers with their explanations."""
    for weather in (None, FOG):
        ta, tb = los_table(a, weather=weather), los_table(b, weather=weather)
        for f in ("src", "tgt", "range", "blocked", "hindrance", "lv"):
            same_array(getattr(ta, f), getattr(tb, f), f"los_table {f}")
    names = a.grid.names()
    rng = np.random.default_rng(7)
    for i, j in rng.integers(0, len(names), (pairs, 2)):
        for weather in (None, FOG):
            ra, rb = los(a, names[i], names[j], weather=weather), los(b, names[i], names[j], weather=weather)
            assert ra.to_json() == rb.to_json() and ra.explain() == rb.explain()


def fresh_and_cached(cache: Path, monkeypatch: pytest.MonkeyPatch,
                     load_it: Callable[[], HexMap]) -> tuple[HexMap, HexMap]:
    """The map built without the cache, and the same map read back from a cache file."""
    before = files(cache)
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")
    fresh = load_it()
    assert files(cache) == before and not fresh.kept_on_disk
    monkeypatch.delenv("HEXWX_NO_CACHE")
    forget()
    first = load_it()                 # built and written
    assert len(files(cache)) > len(before) and first.kept_on_disk
    forget()
    builds = counting(monkeypatch, layout, "_build")
    lookups = counting(monkeypatch, pixelgeom, "_grid_lookup_all")
    cached = load_it()                # read back: nothing decoded or derived
    assert not builds and not lookups and cached is not first
    assert all(cached.holds(k) for k in ("geometry", "hexes", "kernel_map", "kernel_terrain"))
    return fresh, cached


# -- a cached map is the same map -------------------------------------------------------------

def test_cached_board_equals_a_fresh_one(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board, meta = archive("bd02"), metadata()
    fresh, cached = fresh_and_cached(cache, monkeypatch, lambda: load_map(board, vasl_metadata=meta))
    assert_same_map(fresh, cached)
    assert_same_answers(fresh, cached)
    assert not cached.elevation.flags.writeable and not cached.kernel_map[-1].flags.writeable
    # mapped from the file, every array 64-byte aligned (the C kernel reads them in place)
    assert all(a.ctypes.data % 64 == 0 for a in (*cached.kernel_map, *cached.kernel_terrain,
                                                  cached.hexes.base, cached.geometry.ext))
    a, b = (path(m, "A5", "P6", unit="infantry", weather=AslWeather(base="Mud")) for m in (fresh, cached))
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("name", ["bd1a", "bda"])
def test_cached_half_and_deluxe_boards_keep_their_hex_grid(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                           name: str) -> None:
    """A half or Deluxe board read back from the cache has its own hex size, not the
    geomorphic one (the grid is rebuilt from the header), and answers as the fresh board."""
    board, meta = archive(name), metadata()
    fresh, cached = fresh_and_cached(cache, monkeypatch, lambda: load_map(board, vasl_metadata=meta))
    assert cached.grid.shape == fresh.grid.shape and not cached.grid.shape.geomorphic
    assert cached.geometry.lookup.shape == fresh.grid.shape
    assert_same_map(fresh, cached)
    assert_same_answers(fresh, cached, pairs=40)


@pytest.mark.parametrize("text", ["r05/r02/r04", "02,r04"])   # all turned round; one of two
def test_cached_layout_equals_a_fresh_one(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                          text: str) -> None:
    for b in ("bd02", "bd04", "bd05"):
        archive(b)
    d = vasl_dir()
    fresh, cached = fresh_and_cached(cache, monkeypatch, lambda: load_map(text, vasl_dir=d))
    assert len(cached.grid.boards) == len(text.replace("/", ",").split(","))
    assert cached.image_bytes is None
    assert cached.geometry.turned == fresh.geometry.turned == (() if text[0] == "r" else (1,))
    assert_same_map(fresh, cached)
    assert_same_answers(fresh, cached, pairs=60)


def test_cached_map_files_equal_fresh_ones(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    """A drawn map file (with movement overrides) and a map file editing VASL boards."""
    fresh, cached = fresh_and_cached(cache, monkeypatch, lambda: load_map(VILLAGE))
    assert_same_map(fresh, cached)
    assert_same_answers(fresh, cached, pairs=60)
    archive("bd02")
    f = tmp_path / "two.toml"
    f.write_text('[map]\nname = "two"\nvasl_boards = [["02", {board = "r02", label = "2b"}]]\n'
                 '[terrain]\nwoods = ["2I4"]\n[levels]\n2 = ["2bA1"]\n[roads]\ndirt = [["2A1", "2A2"]]\n')
    d = vasl_dir()
    fresh, cached = fresh_and_cached(cache, monkeypatch, lambda: load_map(f, vasl_dir=d))
    assert cached.terrain_of(cached.parse("2I4")).name == "Woods"
    assert_same_map(fresh, cached)


@pytest.mark.parametrize("args", [["los", "bd02", "I4", "P6"], ["los", str(VILLAGE), "A7", "N7"]])
def test_a_cached_los_reads_no_file_but_the_cache(cache: Path, args: list[str]) -> None:
    """From the cache, ``hexwx los`` imports neither the archive, XML and TOML readers nor the
    drawing code (the start-up the cache is for; docs/performance.md)."""
    vasl_dir()
    code = f"from hexwx.cli import main\nmain({args!r})"
    runs = [modules_loaded_by(code) for _ in range(2)]
    readers = {"hexwx.io.vasl", "hexwx.io.vsav", "zipfile", "xml.etree.ElementTree", "PIL",
               "hexwx.io.tomlfile", "tomllib", "hashlib", "tempfile", "shutil", "fractions"}
    assert {"tempfile", "hexwx.io.mapcache"} <= runs[0] and readers & runs[0]   # built and written
    assert "hexwx.io.mapcache" in runs[1] and not readers & runs[1]


def test_cli_answers_the_same_from_the_cache(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["los", str(archive("bd02")), "I4", "P6", "--vasl-metadata", str(metadata()), "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    forget()
    assert files(cache) and main(args) == 0
    assert capsys.readouterr().out == first


# -- stale, broken and foreign files ----------------------------------------------------------

def board_copy(tmp_path: Path) -> Path:
    p = tmp_path / "bd02"
    shutil.copyfile(archive("bd02"), p)
    return p


def test_touching_the_archive_rebuilds(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    board, meta = board_copy(tmp_path), metadata()
    load_map(board, vasl_metadata=meta)
    forget()
    builds = counting(monkeypatch, layout, "_build")
    load_map(board, vasl_metadata=meta)
    assert not builds
    st = board.stat()
    os.utime(board, ns=(st.st_atime_ns, st.st_mtime_ns + 1))   # 1 ns later: another key
    forget()
    load_map(board, vasl_metadata=meta)
    assert len(builds) == 1 and len(entries(cache, "names")) == 2
    assert len(entries(cache)) == 1       # (the same map: its content is stored once)
    forget()
    load_map(board, vasl_metadata=meta)
    assert len(builds) == 1


@pytest.mark.parametrize("how", ["rewritten, mtime put back", "replaced, mtime put back"])
def test_a_same_size_edit_with_the_mtime_put_back_rebuilds(cache: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           how: str) -> None:
    """The stamp of an input holds its inode and ctime: an edit that keeps the size and puts
    the mtime back is still seen."""
    board, meta = board_copy(tmp_path), metadata()
    load_map(board, vasl_metadata=meta)
    forget()
    st = board.stat()
    data = board.read_bytes()
    if how.startswith("rewritten"):
        board.write_bytes(data)
    else:
        other = tmp_path / "new"
        other.write_bytes(data)
        os.replace(other, board)
    os.utime(board, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert board.stat().st_mtime_ns == st.st_mtime_ns and board.stat().st_size == st.st_size
    builds = counting(monkeypatch, layout, "_build")
    load_map(board, vasl_metadata=meta)
    assert len(builds) == 1


def test_another_terrain_table_or_limit_or_code_is_another_key(cache: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    board, meta = archive("bd02"), metadata()
    other = tmp_path / "SharedBoardMetadata.xml"
    shutil.copyfile(meta, other)
    load_map(board, vasl_metadata=meta)
    builds = counting(monkeypatch, layout, "_build")
    for change in (lambda: None, lambda: monkeypatch.setenv("HEXWX_MAX_UNPACKED_MB", "40"),
                   lambda: monkeypatch.setattr(mapcache, "_fingerprint", "other code")):
        change()
        forget()
        load_map(board, vasl_metadata=other)
    assert len(builds) == 3


def test_the_fingerprint_covers_the_code_that_builds_maps() -> None:
    """Every hexwx module that the loaders and derivations import (at any depth, also inside
    functions; not for type checkers or notebook pictures) is in mapcache.CODE, so that
    changing it changes every key."""
    from architecture.test_layers import MODULES, imports_of
    seen: set[str] = set()
    todo = ["hexwx.io.mapcache", "hexwx.io.layout", "hexwx.io.mapfile", "hexwx.hexmap.board",
            "hexwx.hexmap.roads", "hexwx.movement.costs"]
    while todo:
        mod = todo.pop()
        if mod not in seen:
            seen.add(mod)
            todo += [t for t, _line, _top, png in imports_of(MODULES[mod]) if not png]
    covered = {"hexwx." + c[:-3].replace("/", ".") if c != "__init__.py" else "hexwx"
               for c in mapcache.CODE}
    packages = {m for m in seen if MODULES[m].name == "__init__.py" and m != "hexwx"}
    assert seen - packages - covered == set()
    assert covered <= set(MODULES)     # (no stale names in the list)


def offset_of(f: Path, name: str) -> int:
    """Where the data of array ``name`` starts in cache file ``f`` (the record after the
    header holds every array)."""
    import json
    from numpy.lib import format as npformat
    with open(f, "rb") as fh:
        npformat.read_magic(fh)
        shape, _, dtype = npformat.read_array_header_1_0(fh)
        header = json.loads(fh.read(shape[0])[8:])   # (after the header's CRC-32)
        npformat.read_magic(fh)
        npformat.read_array_header_1_0(fh)
        data = fh.tell()
    return data + next(offset for entry, _dt, _shp, offset in header["arrays"] if entry == name)


@pytest.mark.parametrize("damage", ["truncate", "empty", "garbage", "header", "a per-hex array",
                                    "longer", "a pixel"])
def test_a_broken_file_is_rebuilt(cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    board, meta = archive("bd02"), metadata()
    good = load_map(board, vasl_metadata=meta)
    [f] = entries(cache)
    data = bytearray(f.read_bytes())
    if damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "empty":
        data = bytearray()
    elif damage == "garbage":
        data = bytearray(os.urandom(5000))
    elif damage == "header":
        data[200:210] = b"XXXXXXXXXX"
    elif damage == "a per-hex array":
        data[offset_of(f, "hexes.base") + 40] ^= 0x01
    elif damage == "longer":
        data += b"\0" * 64
    else:                             # the big rasters: checked as well, every read
        data[offset_of(f, "kernel.8") + 123457] ^= 0x40
    f.write_bytes(bytes(data))
    forget()
    builds = counting(monkeypatch, layout, "_build")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = load_map(board, vasl_metadata=meta)
    assert len(builds) == 1
    assert_same_map(good, again)
    forget()
    load_map(board, vasl_metadata=meta)        # rewritten: read back now
    assert len(builds) == 1


def test_storing_a_map_already_cached_reads_only_the_entrys_header(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A map built again (its names file gone) finds its content entry by name: store checks
    the entry's header and length, neither reads its ~12 MiB again nor rewrites it."""
    board, meta = archive("bd02"), metadata()
    good = load_map(board, vasl_metadata=meta)
    [entry] = entries(cache)
    [names] = entries(cache, "names")
    before = entry.stat()
    names.unlink()
    forget()
    slurped: list[Path] = []
    real = mapcache._slurp
    monkeypatch.setattr(mapcache, "_slurp", lambda p: slurped.append(Path(p)) or real(p))
    builds = counting(monkeypatch, layout, "_build")
    again = load_map(board, vasl_metadata=meta)
    assert len(builds) == 1 and entry not in slurped
    after = entry.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert len(entries(cache, "names")) == 1
    forget()
    assert_same_map(good, load_map(board, vasl_metadata=meta))
    assert len(builds) == 1 and entry in slurped         # read (CRC-checked) when loaded
    assert_same_map(good, again)


def test_a_flipped_bit_behind_a_whole_header_is_rewritten_once_a_read_finds_it(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """store trusts an entry's header; every read checks the data's CRC-32, and an entry a
    read found broken is written again however whole its header looks."""
    board, meta = archive("bd02"), metadata()
    good = load_map(board, vasl_metadata=meta)
    [entry] = entries(cache)
    [names] = entries(cache, "names")
    data = bytearray(entry.read_bytes())
    data[offset_of(entry, "kernel.8") + 4242] ^= 0x10
    entry.write_bytes(bytes(data))
    names.unlink()
    forget()
    builds = counting(monkeypatch, layout, "_build")
    assert_same_map(good, load_map(board, vasl_metadata=meta))
    assert len(builds) == 1 and entry.read_bytes() == bytes(data)   # header whole: kept
    forget()
    assert_same_map(good, load_map(board, vasl_metadata=meta))      # the read finds the flip
    assert len(builds) == 2 and entry.read_bytes() != bytes(data)   # ... and it is rewritten
    forget()
    assert_same_map(good, load_map(board, vasl_metadata=meta))
    assert len(builds) == 2


def test_a_foreign_file_is_ignored(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache file of another map under this map's name (or any other file) is a miss."""
    meta = metadata()
    load_map(archive("bd02"), vasl_metadata=meta)
    [f2] = entries(cache, "names")
    load_map(archive("bd04"), vasl_metadata=meta)
    [f4] = [f for f in entries(cache, "names") if f != f2]
    shutil.copyfile(f4, f2)
    forget()
    m = load_map(archive("bd02"), vasl_metadata=meta)
    assert m.source == str(archive("bd02")) and m.name == "bd02"


def test_a_broken_derived_part_is_rebuilt(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board, meta = archive("bd02"), metadata()
    roads_before = np.array(load_map(board, vasl_metadata=meta).road_sides)
    [part] = cache.glob("*.road_sides.npy")
    part.write_bytes(part.read_bytes()[:-7])
    forget()
    calls = counting(monkeypatch, roads, "drawn_road_sides")
    same_array(load_map(board, vasl_metadata=meta).road_sides, roads_before, "road_sides")
    assert len(calls) == 1
    forget()
    same_array(load_map(board, vasl_metadata=meta).road_sides, roads_before, "road_sides")
    assert len(calls) == 1


# -- no cache: off, unusable, bounded ---------------------------------------------------------

def test_hexwx_no_cache_is_honoured(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")
    m = load_map(archive("bd02"), vasl_metadata=metadata())
    los(m, "I4", "P6")
    path(m, "A5", "P6", unit="infantry")
    assert not cache.exists() and mapcache.cache_dir() is None
    monkeypatch.setenv("HEXWX_NO_CACHE", "0")          # 0 (or empty) leaves it on
    assert mapcache.cache_dir() == cache


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HEXWX_CACHE_DIR", raising=False)
    monkeypatch.delenv("HEXWX_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert mapcache.cache_dir() == tmp_path / "hexwx"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")   # the XDG spec: absolute only
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert mapcache.cache_dir() == tmp_path / "home" / ".cache" / "hexwx"


@pytest.mark.parametrize("kind", ["below a file", "read-only"])
def test_an_unusable_folder_means_no_cache(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    if kind == "below a file":
        (tmp_path / "file").write_text("x")
        d = tmp_path / "file" / "cache"
    else:
        d = tmp_path / "ro"
        d.mkdir()
        d.chmod(0o500)
        if os.access(d, os.W_OK):          # root writes anyway: a folder no one may write to
            d = Path("/proc/self")
    monkeypatch.setenv("HEXWX_CACHE_DIR", str(d))
    monkeypatch.delenv("HEXWX_NO_CACHE", raising=False)
    mapcache._unwritable.clear()
    forget()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            m = load_map(archive("bd02"), vasl_metadata=metadata())
            assert los(m, "I4", "P6").blocked
            path(m, "A5", "P6", unit="infantry")
            assert main(["los", str(archive("bd02")), "I4", "P6", "--vasl-metadata",
                         str(metadata())]) == 0
        out = capsys.readouterr()
        assert out.err == "" and "BLOCKED" in out.out
        assert not files(d)
    finally:
        if d.is_dir() and d.is_relative_to(tmp_path):
            d.chmod(0o700)
        mapcache._unwritable.clear()
        forget()


def test_a_missing_folder_is_created(cache: Path) -> None:
    assert not cache.exists()
    load_map(VILLAGE)
    assert len(entries(cache)) == 1 and len(entries(cache, "names")) == 1


def test_the_cache_is_bounded(cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Past $HEXWX_CACHE_MAX_MB, the least recently used files go (a board is ~12 MB)."""
    monkeypatch.setenv("HEXWX_CACHE_MAX_MB", "30")
    meta = metadata()
    for b in ("bd02", "bd04", "bd05"):
        load_map(archive(b), vasl_metadata=meta)
        forget()
    sizes = [f.stat().st_size for f in entries(cache)]
    assert len(sizes) == 2 and sum(f.stat().st_size for f in files(cache)) <= 30 * 2**20
    kept = {mapcache._read(f, {"key": ""}) for f in files(cache)}
    assert kept == {None}   # (files of other keys read as misses)
    builds = counting(monkeypatch, layout, "_build")
    load_map(archive("bd05"), vasl_metadata=meta)     # the newest stays
    assert not builds
    forget()
    load_map(archive("bd02"), vasl_metadata=meta)     # the oldest went
    assert len(builds) == 1


# -- derived data is built once ---------------------------------------------------------------

def test_map_file_geometry_is_built_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a drawn map file builds the pixel geometry once, and nothing drawn from it again
    (SSRs, snow, drifts, edits of VASL boards) builds it a second time."""
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")
    lookups = counting(monkeypatch, pixelgeom, "_grid_lookup_all")
    f = tmp_path / "village.toml"
    f.write_text(VILLAGE.read_text())
    m = load_map(f)
    los(m, "A7", "N7")
    los(m, "A7", "N7", weather=AslWeather(ground_snow=True, drifts=(Drift("C5", 1),)))
    path(m, "A7", "N7", unit="infantry")
    assert len(lookups) == 1
    archive("bd02")
    g = tmp_path / "edited.toml"
    g.write_text('[map]\nvasl_boards = [["02"]]\nssr = ["NoGrain"]\n[terrain]\nwoods = ["I4"]\n'
                 '[roads]\ndirt = [["A1", "A2"]]\n')
    e = load_map(g, vasl_dir=vasl_dir())
    los(e, "I4", "P6", weather=AslWeather(deep_snow=True))
    path(e, "A1", "P6", unit="infantry")
    assert len(lookups) == 2


def test_first_path_reads_derived_data_from_the_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first path() on a map derives its movement arrays (drawn roads, cover, buildings)
    once; a later process reads them from the cache instead of deriving them again."""
    board, meta = archive("bd02"), metadata()
    m = load_map(board, vasl_metadata=meta)
    los(m, "I4", "P6")
    first = path(m, "A5", "P6", unit="infantry", weather=AslWeather(base="Mud"))
    assert {p.name.split(".")[1] for p in cache.glob("*.*.npy")} >= {
        "road_sides", "mud_cover", "building_ids"}   # (lowest ground: in the map's own file)
    forget()
    spies = [counting(monkeypatch, roads, "drawn_road_sides"),
             counting(monkeypatch, costs, "drawn_cover"),
             counting(monkeypatch, HexMap, "_building_ids"),
             counting(monkeypatch, HexMap, "_lowest_ground"),
             counting(monkeypatch, pixelgeom, "_grid_lookup_all")]
    again = load_map(board, vasl_metadata=meta)
    assert path(again, "A5", "P6", unit="infantry", weather=AslWeather(base="Mud")).to_json() == \
        first.to_json()
    los(again, "I4", "P6", weather=FOG)
    path(again, "A5", "P6", unit="tracked")
    assert [len(s) for s in spies] == [0, 0, 0, 0, 0]


def test_derived_data_is_built_once_without_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWX_NO_CACHE", "1")
    forget()
    calls = counting(monkeypatch, roads, "drawn_road_sides")
    m = load_map(archive("bd02"), vasl_metadata=metadata())
    for unit in ("infantry", "tracked", "non-tracked"):
        path(m, "A5", "P6", unit=unit)
    assert len(calls) == 1 and not m.road_sides.flags.writeable
    forget()


def test_exposure_pairs_are_traced_once_across_processes(cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The all-pairs trace behind exposure heat maps (hexwx serve, hexwx exposure) is stored
    beside the map: a later process reads it and answers every weather the same, untraced."""
    import hexwx._native as K
    from hexwx.lineofsight import exposure as E
    board, meta = archive("bd15"), metadata()         # bd15 has hexes above low fog
    m = load_map(board, vasl_metadata=meta)
    weathers = [None, FOG, AslWeather(fog_level=0, fog_drm=2), AslWeather(base="Mist")]
    first = [E.exposure(m, weather=w).count for w in weathers]
    spotters = ["A1", "C5", "H3"]
    first_seen = [E.exposure(m, observers=spotters, weather=w).seen for w in weathers]
    assert E.ground_pairs(m).fog_deficit, "expected a fog top some thread clears"
    parts = {p.name.split(".")[1] for p in cache.glob("*.*.npy")}
    assert {"ground_pairs_v1_reasons", "ground_pairs_v1_hindrance"} <= parts
    forget()
    traces = counting(monkeypatch, K, "all_pairs_matrix")
    again = load_map(board, vasl_metadata=meta)
    assert again is not m
    rows = counting(monkeypatch, K, "trace_many")
    for w, want, seen in zip(weathers, first, first_seen):   # observers first: read from disk
        np.testing.assert_array_equal(E.exposure(again, observers=spotters, weather=w).seen, seen)
        np.testing.assert_array_equal(E.exposure(again, weather=w).count, want)
    assert traces == [] and rows == []


def test_one_layout_named_by_three_files_is_stored_once(cache: Path, tmp_path: Path) -> None:
    """Issue #27: the map is keyed by what it is, not by the file that named it -- the layout
    text, a map file laying out the same boards and a save give one content entry, and maps
    read from it in one process share its arrays."""
    from vsav_helpers import real_save
    mapfile = tmp_path / "pocket.toml"
    mapfile.write_text('[map]\nname = "pocket"\nvasl_boards = [["r05"], ["r02"], ["r04"]]\n')
    vasl = str(vasl_dir())
    maps = []
    for what in ("r05/r02/r04", mapfile, real_save("hubes-pocket.vsav")):
        load_map(what, vasl_dir=vasl)
        forget()
        maps.append(load_map(what, vasl_dir=vasl))      # read back from the cache
    assert len(entries(cache)) == 1 and len(entries(cache, "names")) >= 3
    assert len({m.name for m in maps}) == 3               # each keeps its own name
    assert all(np.shares_memory(maps[0].kernel_map[8], m.kernel_map[8]) for m in maps[1:])
    assert [los(m, "5A1", "4C3").to_json() for m in maps[1:]] == [los(maps[0], "5A1", "4C3").to_json()] * 2
