"""VASL boards for rule tests: read from ``$HEXWX_VASL_DIR`` (never copied into the repository);
the test skips with a clear message when the reference data is not there."""
from __future__ import annotations

import csv
import gzip
import os
from functools import lru_cache
from pathlib import Path

import pytest

from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map


def vasl_dir() -> Path:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: point it at VASL's reference data (boards/, "
                    "SharedBoardMetadata.xml) to run the tests on VASL boards")
    d = Path(env).resolve()  # absolute: tests write it into files in other folders
    if not (d / "boards").is_dir() or not (d / "SharedBoardMetadata.xml").is_file():
        pytest.skip(f"HEXWX_VASL_DIR={env} has no boards/ or SharedBoardMetadata.xml")
    return d


def archive(name: str) -> Path:
    p = vasl_dir() / "boards" / name
    if not p.is_file():
        pytest.skip(f"board {name} is not in {vasl_dir() / 'boards'}")
    return p


def metadata() -> Path:
    return vasl_dir() / "SharedBoardMetadata.xml"


@lru_cache(maxsize=None)
def _board(path: str, meta: str) -> HexMap:
    return load_map(path, vasl_metadata=meta)


def board(name: str) -> HexMap:
    """The VASL board ``name`` (e.g. ``"bd02"``), loaded once per test session."""
    return _board(str(archive(name)), str(metadata()))


def golden(name: str) -> list[dict[str, str]]:
    """The rows of VASL's all-pairs answers ``golden/<name>.csv.gz`` (skips when absent)."""
    p = vasl_dir() / "golden" / f"{name}.csv.gz"
    if not p.is_file():
        pytest.skip(f"no golden {p}")
    with gzip.open(p, "rt", newline="") as fh:
        return list(csv.DictReader(fh))


def cli_args(name: str) -> list[str]:
    """``[ARCHIVE, "--vasl-metadata", FILE]`` for a CLI call on board ``name``."""
    return [str(archive(name)), "--vasl-metadata", str(metadata())]


def all_boards(default: tuple[str, ...] = ("bd03",)) -> list[str]:
    """Every board archive in $HEXWX_VASL_DIR/boards (for parametrizing; ``default`` without it)."""
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "boards").is_dir():
        return list(default)
    return sorted(p.name for p in (Path(env) / "boards").iterdir())
