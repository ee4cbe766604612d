"""hexwx: line of sight, hindrances and movement under weather.

Two worlds share one engine: ASL-style hex maps (geomorphic boards, VASL archives, E3 weather)
and miniatures tabletops measured in inches or centimetres.
"""
from __future__ import annotations

from hexwx.errors import DataError, HexwxError, UsageError

__all__ = ["HexwxError", "DataError", "UsageError", "__version__"]
__version__ = "0.1.0"
