"""Small checks of arguments shared by every layer (base layer: imports only the errors).

Messages keep the hexwx shape: lower case, the offending value quoted, what was expected.
"""
from __future__ import annotations

from typing import Iterable, TypeGuard

import operator

from hexwx.errors import UsageError


def is_whole(value: object, lo: int | None = None, hi: int | None = None) -> TypeGuard[int]:
    """True for an integer (Python or numpy, never a bool) within ``lo``..``hi`` when given."""
    if isinstance(value, bool):
        return False
    try:
        n = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return (lo is None or n >= lo) and (hi is None or n <= hi)


def whole(value: object, what: str, lo: int | None = None, hi: int | None = None, *,
          expected: str | None = None) -> int:
    """``value`` as an int if it is a whole number in ``lo``..``hi``; else a :class:`UsageError`
    ``bad WHAT VALUE; expected EXPECTED`` (by default "a whole number >= lo" or "lo-hi")."""
    if is_whole(value, lo, hi):
        return operator.index(value)
    if expected is None:
        if lo is not None and hi is not None:
            expected = f"{lo}-{hi}"
        elif lo is not None:
            expected = f"a whole number >= {lo}"
        elif hi is not None:
            expected = f"a whole number <= {hi}"
        else:
            expected = "a whole number"
    raise UsageError(f"bad {what} {value!r}; expected {expected}")


def one_of(value: object, choices: Iterable[str], what: str) -> str:
    """``value`` if it is one of ``choices``; else ``unknown WHAT VALUE; expected one of ...``."""
    options = tuple(choices)
    if isinstance(value, str) and value in options:
        return value
    raise UsageError(f"unknown {what} {value!r}; expected one of {', '.join(options)}")
