"""Writing TOML (the reading side is the standard library's ``tomllib``).

A small writer for the documents hexwx produces: tables, arrays of tables, strings, integers,
floats, booleans and (nested) arrays of those.  Strings are TOML basic strings with every
character TOML requires escaped (``"``, ``\\``, control characters); keys that are not bare
keys are quoted the same way.  ``tomllib.loads(dumps(d)) == d`` for every document it accepts.
"""
from __future__ import annotations

import math
import re
from typing import Any, Mapping, Sequence

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")   # used with fullmatch: "$" would let "k\n" through
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def quote(s: str) -> str:
    """``s`` as a TOML basic string."""
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def key(k: str) -> str:
    """``k`` as a TOML key: bare if it can be, else quoted."""
    if not isinstance(k, str):
        raise TypeError(f"TOML keys are strings, got {k!r}")
    return k if _BARE_KEY.fullmatch(k) else quote(k)


def value(v: Any) -> str:
    """An inline TOML value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} {v!r} as TOML")


def comment_lines(text: str) -> list[str]:
    """``text`` as TOML comment lines: one ``# ...`` per line, control characters shown as
    ``\\uXXXX`` (a comment may hold none but tab)."""
    out = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        clean = "".join(ch if ch == "\t" or (ord(ch) >= 0x20 and ord(ch) != 0x7F)
                        else f"\\u{ord(ch):04X}" for ch in line)
        out.append(f"# {clean}".rstrip())
    return out


def _comments(lines: Sequence[str]) -> list[str]:
    return [c for line in lines for c in comment_lines(line)]


def _is_table_array(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and bool(v) and all(isinstance(x, Mapping) for x in v)


def dumps(doc: Mapping[str, Any], *, comments: Mapping[str, Sequence[str]] | None = None) -> str:
    """The TOML text of ``doc``.  ``comments`` maps a top-level key to comment lines put above it
    (the key ``""`` puts lines at the top of the document)."""
    comments = comments or {}
    lines: list[str] = _comments(comments.get("", ()))
    _emit(doc, [], lines, comments)
    return "\n".join(lines).rstrip("\n") + "\n"


def _emit(table: Mapping[str, Any], path: list[str], lines: list[str],
          comments: Mapping[str, Sequence[str]]) -> None:
    simple = [(k, v) for k, v in table.items()
              if not isinstance(v, Mapping) and not _is_table_array(v)]
    nested = [(k, v) for k, v in table.items() if isinstance(v, Mapping) or _is_table_array(v)]
    for k, v in simple:
        if not path:
            lines += _comments(comments.get(k, ()))
        lines.append(f"{key(k)} = {value(v)}")
    for k, v in nested:
        sub = path + [key(k)]
        if lines and lines[-1] != "":
            lines.append("")
        if not path:
            lines += _comments(comments.get(k, ()))
        if isinstance(v, Mapping):
            lines.append(f"[{'.'.join(sub)}]")
            _emit(v, sub, lines, {})
        else:
            for i, item in enumerate(v):
                if i:
                    lines.append("")
                lines.append(f"[[{'.'.join(sub)}]]")
                _emit(item, sub, lines, {})
