"""One LOS answer as a comparable tuple, from the single ``los`` result or from row ``i`` of a
batch (``los_pairs``): the batch tests assert the two agree field by field."""
from __future__ import annotations

from typing import Any


def single_answer(r: Any) -> tuple[Any, ...]:
    """(blocked, reason, rule, blocking hex, blocked at, hindrance, LV) of a ``LosResult``."""
    return (r.blocked, r.reason, r.rule, r.blocking_hex, r.blocked_at,
            None if r.blocked else r.hindrance, None if r.blocked else r.lv)


def batch_answer(m: Any, a: Any, i: int) -> tuple[Any, ...]:
    """The same fields for pair ``i`` of batch answer ``a`` on map ``m``."""
    text, rule = a.reason_of(i)
    terrain = a.blocking_hex[i] >= 0 and a.reason[i] > 0
    return (bool(a.blocked[i]), text, rule, m.name_of(int(a.blocking_hex[i])) if terrain else None,
            tuple(int(v) for v in a.blocked_at[i]) if a.reason[i] > 0 else None,
            None if a.blocked[i] else int(a.hindrance[i]),
            None if a.blocked[i] else (0 if a.lv is None else int(a.lv[i])))
