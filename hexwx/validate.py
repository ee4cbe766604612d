"""The argument checks of every public function (base layer: imports only the errors).

One message shape: ``bad PARAM VALUE; expected EXPECTED``, raised as a :class:`UsageError` whose
``param`` is the parameter's name, so that the command line can name its flag instead
(``hexwx.cli.app``).  Each check returns the value in its checked form.
"""
from __future__ import annotations

import math
import operator
import os
import warnings
from pathlib import Path
from typing import Iterable, TypeGuard, TypeVar

from hexwx.errors import DataError, UsageError

T = TypeVar("T")


def bad(param: str, value: object, expected: str) -> UsageError:
    """The error for a bad argument: ``bad PARAM VALUE; expected EXPECTED``."""
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return UsageError(f"bad {param} {shown}; expected {expected}", param=param)


def renamed(value: T, old_value: T | None, param: str, old: str, where: str) -> T:
    """The value of keyword ``param`` whose former name ``old`` is still accepted, with a
    :class:`DeprecationWarning` naming ``where`` (the function); both at once is refused."""
    if old_value is None:
        return value
    if value is not None:
        raise UsageError(f"give {param} only ({old} is its former name)", param=old)
    warnings.warn(f"{where}({old}=...) is now {param}=...", DeprecationWarning, stacklevel=3)
    return old_value


def is_whole(value: object, lo: int | None = None, hi: int | None = None) -> TypeGuard[int]:
    """True for an integer (Python or numpy, never a bool) within ``lo``..``hi`` when given."""
    if isinstance(value, bool):
        return False
    try:
        n = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return (lo is None or n >= lo) and (hi is None or n <= hi)


def _range_text(lo: float | None, hi: float | None, kind: str) -> str:
    if lo is not None and hi is not None:
        return f"{lo}-{hi}" if kind == "a whole number" else f"{kind} from {lo:g} to {hi:g}"
    if lo is not None:
        return f"{kind} >= {lo:g}" if kind != "a whole number" else f"{kind} >= {lo}"
    if hi is not None:
        return f"{kind} <= {hi:g}" if kind != "a whole number" else f"{kind} <= {hi}"
    return kind


def whole(value: object, param: str, lo: int | None = None, hi: int | None = None, *,
          expected: str | None = None) -> int:
    """``value`` as an int if it is a whole number (never a bool) in ``lo``..``hi``."""
    if is_whole(value, lo, hi):
        return operator.index(value)
    raise bad(param, value, expected or _range_text(lo, hi, "a whole number"))


def is_number(value: object) -> bool:
    """True for a finite real number (Python or numpy, never a bool or a string)."""
    if isinstance(value, (bool, str, bytes)):
        return False
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def number(value: object, param: str, lo: float | None = None, hi: float | None = None, *,
           expected: str | None = None) -> float:
    """``value`` as a float if it is a finite real number (never a bool) in ``lo``..``hi``."""
    ok = not isinstance(value, (bool, str, bytes))
    v = math.nan
    if ok:
        try:
            v = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            ok = False
    if ok and math.isfinite(v) and (lo is None or v >= lo) and (hi is None or v <= hi):
        return v
    raise bad(param, value, expected or _range_text(lo, hi, "a number"))


def one_of(value: object, choices: Iterable[str], param: str) -> str:
    """``value`` if it is one of ``choices``."""
    options = tuple(choices)
    if isinstance(value, str) and value in options:
        return value
    raise bad(param, value, f"one of {', '.join(options)}")


def check_type(value: object, cls: type[T], param: str, expected: str | None = None) -> T:
    """``value`` if it is an instance of ``cls`` (e.g. weather must be an AslWeather)."""
    if isinstance(value, cls):
        return value
    raise bad(param, value, expected or f"a{'n' if cls.__name__[0] in 'AEIOU' else ''} "
                                        f"{cls.__name__}")


def check_flag(value: object, param: str) -> bool:
    """``value`` if it is True or False (numpy booleans too)."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):   # numpy 1, 2
        return bool(value)
    raise bad(param, value, "True or False")


def check_text(value: object, param: str, expected: str = "a non-empty string") -> str:
    """``value`` if it is a non-empty string."""
    if isinstance(value, str) and value.strip():
        return value
    raise bad(param, value, expected)


def check_texts(values: object, param: str, expected: str = "a list of names") -> tuple[str, ...]:
    """``values`` as a tuple of non-empty strings (a list or tuple; one string is refused,
    since it would be read letter by letter)."""
    if isinstance(values, (list, tuple)) and all(isinstance(v, str) and v.strip() for v in values):
        return tuple(values)
    raise bad(param, values, expected)


def _missing(param: str, value: object, expected: str) -> DataError:
    return DataError(f"bad {param} {str(value)!r}; expected {expected}", param=param)


def check_path(value: object, param: str, *, must_exist: bool = True) -> Path:
    """``value`` (a str or path) as a :class:`Path`; with ``must_exist`` an existing file (a
    missing file is bad data, :class:`DataError`: exit 1 on the command line)."""
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        p = Path(value)
        if not must_exist or p.is_file():
            return p
        raise _missing(param, value, "an existing file" + (" (it is a folder)" if p.is_dir()
                                                           else " (there is no such file)"))
    raise bad(param, value, "a file path")


def optional_path(value: object, param: str) -> Path | None:
    """None, or ``value`` as an existing file (an empty string is refused, not ignored)."""
    return None if value is None else check_path(value, param)


def optional_dir(value: object, param: str) -> Path | None:
    """None, or ``value`` as an existing folder."""
    if value is None:
        return None
    if not (isinstance(value, (str, os.PathLike)) and str(value).strip()):
        raise bad(param, value, "a folder path")
    if not Path(value).is_dir():
        raise _missing(param, value, "an existing folder")
    return Path(value)


def source_text(value: object, param: str, expected: str) -> str | os.PathLike[str]:
    """``value`` if it is a non-empty str or path (what names a file, board or layout)."""
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        return value
    raise bad(param, value, expected)
