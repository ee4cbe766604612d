"""The ``hexwx`` command line: ``main(argv) -> int`` (see :mod:`hexwx.cli.app`)."""
from __future__ import annotations

from hexwx.cli.app import main

__all__ = ["main"]
