"""A least-recently-used cache bounded by the bytes its entries hold (maps, kernel copies).

Long batch runs load many maps; each holds rasters and derived arrays of ~15 MiB a board, so
caches keyed by map are bounded by size, not by count: :class:`ByteLRU` evicts the least
recently used entries once the total passes its budget (the newest entry always stays).
The default budget is ``$HEXWX_MAP_CACHE_MB`` MiB (512).
"""
from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import numpy as np

from hexwx.errors import UsageError

V = TypeVar("V")

DEFAULT_MB = 512


#: The largest size setting read (1 PiB): beyond it a number means "no bound" in practice.
_MAX_MB = float(2**30)


def megabytes_setting(name: str, default: float) -> int:
    """Bytes of the size setting ``$name`` in MiB (``default`` when unset or empty).  UsageError
    naming the variable for anything but a number from 0 up (nan, inf, ``1e400``, text); sizes
    past 1 PiB are read as 1 PiB."""
    text = os.environ.get(name, "").strip()
    try:
        mb = float(text) if text else float(default)
    except ValueError:
        mb = math.nan
    if not mb >= 0 or math.isinf(mb):       # (nan fails the first test)
        raise UsageError(f"${name}={text[:40]!r}: expected a size in MiB, a number from 0 up")
    return int(min(mb, _MAX_MB) * 2**20)


def budget_bytes() -> int:
    """The cache budget in bytes: ``$HEXWX_MAP_CACHE_MB`` MiB, else 512 MiB."""
    return megabytes_setting("HEXWX_MAP_CACHE_MB", DEFAULT_MB)


def nbytes_of(obj: Any, _depth: int = 0) -> int:
    """Bytes of the numpy arrays an object holds: itself, its attributes (cached properties
    included), tuples, lists and dicts of them, two levels deep; each array counted once."""
    seen: set[int] = set()

    def walk(o: Any, depth: int) -> int:
        if isinstance(o, np.ndarray):
            base = o.base if isinstance(o.base, np.ndarray) else o
            if id(base) in seen:
                return 0
            seen.add(id(base))
            return int(base.nbytes)
        if depth > 2:
            return 0
        if isinstance(o, (tuple, list)):
            return sum(walk(x, depth + 1) for x in o)
        if isinstance(o, dict):  # a dict of derived values (HexMap._memo) is no level of its own
            return sum(walk(x, depth) for x in o.values())
        if isinstance(o, (bytes, bytearray)):
            return len(o)
        d = getattr(o, "__dict__", None)
        return sum(walk(x, depth + 1) for x in d.values()) if isinstance(d, dict) else 0

    return walk(obj, _depth)


class ByteLRU(Generic[V]):
    """A thread-safe LRU mapping bounded by the bytes of its values (``size(value)``, measured
    again whenever an entry is added, since cached values may grow as they derive data)."""

    def __init__(self, budget: Callable[[], int] = budget_bytes,
                 size: Callable[[Any], int] = nbytes_of) -> None:
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self._budget = budget
        self._size = size

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            v = self._data.get(key)
            if v is not None:
                self._data.move_to_end(key)
            return v

    def put(self, key: Hashable, value: V) -> V:
        """Store ``value`` (or keep the one already there) and evict down to the budget."""
        with self._lock:
            value = self._data.setdefault(key, value)
            self._data.move_to_end(key)
            budget = self._budget()
            total = sum(self._size(v) for v in self._data.values())
            while total > budget and len(self._data) > 1:
                _, old = self._data.popitem(last=False)
                total -= self._size(old)
            return value

    def nbytes(self) -> int:
        with self._lock:
            return sum(self._size(v) for v in self._data.values())

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
