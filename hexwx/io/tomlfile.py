"""Reading TOML input files with errors that name the file and the key.

Maps and scenarios (hex and tabletop) all read through :func:`load_toml` and the typed getters
of :class:`Table`, so every message has the shape ``FILE: KEY: expected ..., got ...``.
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any, Iterator, Sequence

from hexwx.errors import DataError
from hexwx.limits import TOML_DEPTH, read_text_input, toml_depth

_MISSING = object()

# The getters below are named str/int/bool/list; these aliases keep the builtins nameable there.
_Str = str
_Int = int
_Float = float


def load_toml(path: str | Path) -> "Table":
    """Parse a TOML file; raise :class:`DataError` naming the file on any failure."""
    p = Path(path)
    return Table(parse_toml(read_text_input(p, "a TOML file"), source=str(p)), source=str(p), path="")


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """Parse TOML ``text``; DataError naming ``source`` if malformed or nested too deep."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: malformed TOML: {exc}") from None
    except RecursionError:
        raise DataError(f"{source}: tables or arrays nested too deep for the TOML reader; "
                        f"expected at most {TOML_DEPTH.value} levels") from None
    toml_depth(data, source=source)
    return data


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


class Table:
    """A TOML table that remembers where it came from, with typed getters.

    ``path`` is the dotted key of this table inside the file (``"boards[1]"``), used in errors.
    """

    def __init__(self, data: dict[str, Any], *, source: str, path: str) -> None:
        self.data = data
        self.source = source
        self.path = path

    # -- error helpers ---------------------------------------------------------------------
    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, key: str | None, message: str) -> DataError:
        """A DataError ``FILE: KEY: message`` (key relative to this table, or None for the table)."""
        where = self.key(key) if key else (self.path or None)
        return DataError(f"{self.source}: {where}: {message}" if where else f"{self.source}: {message}")

    # -- getters ---------------------------------------------------------------------------
    def __contains__(self, name: str) -> bool:
        return name in self.data

    def keys(self) -> list[str]:
        return list(self.data)

    def raw(self, name: str, default: Any = _MISSING) -> Any:
        if name in self.data:
            return self.data[name]
        if default is _MISSING:
            raise self.error(name, "missing required key")
        return default

    def _typed(self, name: str, types: tuple[type, ...], what: str, default: Any) -> Any:
        value = self.raw(name, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) and bool not in types:
            raise self.error(name, f"expected {what}, got {value!r}")
        if not isinstance(value, types):
            raise self.error(name, f"expected {what}, got {_kind(value)} {value!r}")
        return value

    def str(self, name: str, default: Any = _MISSING, *, choices: Sequence[_Str] | None = None) -> Any:
        value = self._typed(name, (str,), "a string", default)
        if choices is not None and value is not default and value not in choices:
            raise self.error(name, f"expected one of {', '.join(choices)}; got {value!r}")
        return value

    def int(self, name: _Str, default: Any = _MISSING, *, min: _Int | None = None,
            max: _Int | None = None) -> Any:
        value = self._typed(name, (int,), "an integer", default)
        if value is not default:
            self._check_range(name, value, min, max)
        return value

    def number(self, name: _Str, default: Any = _MISSING, *, min: _Float | None = None,
               max: _Float | None = None) -> Any:
        value = self._typed(name, (int, float), "a number", default)
        if value is not default:
            if isinstance(value, float) and not math.isfinite(value):
                raise self.error(name, f"expected a finite number, got {value!r}")
            self._check_range(name, value, min, max)
            value = float(value)
        return value

    def bool(self, name: _Str, default: Any = _MISSING) -> Any:
        return self._typed(name, (bool,), "true or false", default)

    def list(self, name: _Str, default: Any = _MISSING) -> Any:
        return self._typed(name, (list,), "an array", default)

    def table(self, name: _Str, default: Any = _MISSING) -> Any:
        value = self._typed(name, (dict,), "a table", default)
        if value is default and default is not _MISSING:
            return value
        return Table(value, source=self.source, path=self.key(name))

    def tables(self, name: _Str, default: Any = _MISSING) -> Any:
        """An array of tables (``[[name]]``), each as a :class:`Table` keyed ``name[i]``."""
        value = self._typed(name, (list,), "an array of tables", default)
        if value is default and default is not _MISSING:
            return value
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.error(f"{name}[{i}]", f"expected a table, got {_kind(item)} {item!r}")
            out.append(Table(item, source=self.source, path=f"{self.key(name)}[{i}]"))
        return out

    def check_keys(self, allowed: Sequence[_Str]) -> None:
        """Reject keys this table does not know (catches typos such as ``levle = 2``)."""
        unknown = [k for k in self.data if k not in allowed]
        if unknown:
            raise self.error(unknown[0], f"unknown key; expected one of {', '.join(sorted(allowed))}")

    def items(self) -> Iterator[tuple[_Str, Any]]:
        return iter(self.data.items())

    def _check_range(self, name: _Str, value: float, lo: _Float | None, hi: _Float | None) -> None:
        if lo is not None and value < lo:
            raise self.error(name, f"expected a value >= {lo}, got {value!r}")
        if hi is not None and value > hi:
            raise self.error(name, f"expected a value <= {hi}, got {value!r}")
