"""Read-only values: the one helper that makes a dataclass's arrays and mappings unchangeable.

Base layer (no numpy import: anything with ``setflags`` is an array).  Maps, grids and results
call it from ``__post_init__`` so that ``m.grid.neighbours[0, 0] = 5`` raises instead of
silently changing every later answer.
"""
from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any, Mapping


def read_only(value: Any) -> Any:
    """``value`` made read-only in place where it is an array; a dict becomes a read-only view."""
    if hasattr(value, "setflags") and hasattr(value, "flags"):
        value.setflags(write=False)
    elif isinstance(value, dict):
        return MappingProxyType(value)
    return value


def freeze(obj: Any, *names: str) -> None:
    """Make the fields ``names`` of the frozen dataclass ``obj`` (default: all) read-only."""
    fields = names or tuple(f.name for f in dataclasses.fields(obj))
    for name in fields:
        value = getattr(obj, name)
        frozen = read_only(value)
        if frozen is not value:
            object.__setattr__(obj, name, frozen)


def frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only copy of ``value`` (empty for None)."""
    return MappingProxyType(dict(value or {}))


def short_repr(obj: Any, *, keep: int = 4) -> str:
    """``Class(field=value, ...)`` of a dataclass with only the fields that differ from their
    defaults (and no ``repr=False`` field); a sequence or mapping longer than ``keep`` shows
    its first items and how many there are: a result's repr stays one readable line."""
    shown = []
    for f in dataclasses.fields(obj):
        if not f.repr:
            continue
        value = getattr(obj, f.name)
        if f.default is not dataclasses.MISSING and _same(value, f.default):
            continue
        shown.append(f"{f.name}={_short(value, keep)}")
    return f"{type(obj).__name__}({', '.join(shown)})"


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays compare element-wise
        return False


def _short(value: Any, keep: int) -> str:
    if isinstance(value, Mapping) and len(value) > keep:
        items = ", ".join(f"{k!r}: {v!r}" for k, v in list(value.items())[:keep])
        return f"{{{items}, ... ({len(value)} items)}}"
    if isinstance(value, (tuple, list, frozenset, set)) and len(value) > keep:
        items = ", ".join(repr(v) for v in list(value)[:keep])
        return f"({items}, ... ({len(value)} items))"
    return repr(value)
