"""VASL's reference data for the tests, read from ``$HEXWX_VASL_DIR`` (boards/,
SharedBoardMetadata.xml, golden/, golden-upper/); a test that needs it skips when it is not set.
Nothing of it is copied into the repository."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest

from hexwx.hexmap.board import HexMap
from hexwx.io.load import load_map


def vasl_dir() -> Path:
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env:
        pytest.skip("HEXWX_VASL_DIR is not set: point it at VASL's reference data "
                    "(boards/, SharedBoardMetadata.xml, golden/) to run the VASL tests")
    d = Path(env)
    if not (d / "boards").is_dir() or not (d / "SharedBoardMetadata.xml").is_file():
        pytest.skip(f"HEXWX_VASL_DIR={env} has no boards/ or SharedBoardMetadata.xml")
    return d


def metadata() -> Path:
    return vasl_dir() / "SharedBoardMetadata.xml"


def archive(board: str) -> Path:
    p = vasl_dir() / "boards" / board
    if not p.is_file():
        pytest.skip(f"board {board} is not in {vasl_dir() / 'boards'}")
    return p


@lru_cache(maxsize=None)
def _board(path: str, meta: str) -> HexMap:
    return load_map(path, vasl_metadata=meta)


def board(name: str) -> HexMap:
    return _board(str(archive(name)), str(metadata()))


def all_boards(default: tuple[str, ...] = ("bd03",)) -> list[str]:
    """Every board archive in $HEXWX_VASL_DIR/boards (for parametrizing; ``default`` without it)."""
    env = os.environ.get("HEXWX_VASL_DIR")
    if not env or not (Path(env) / "boards").is_dir():
        return list(default)
    return sorted(p.name for p in (Path(env) / "boards").iterdir())
