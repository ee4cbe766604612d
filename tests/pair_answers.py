"""One form for a single ``los()`` answer and a batch's answer for pair ``i``, so tests can
compare the two field by field (verdict, reason and rule, blocking hex and point, hindrance, LV)."""
from __future__ import annotations

from typing import Any


def single_answer(r: Any) -> tuple:
    """The compared fields of a ``LosResult``."""
    return (r.blocked, r.reason, r.rule, r.blocking_hex, r.blocked_at,
            None if r.blocked else r.hindrance, None if r.blocked else r.lv)


def batch_answer(m: Any, a: Any, i: int) -> tuple:
    """The same fields of pair ``i`` of ``PairAnswers`` ``a`` on map ``m``."""
    text, rule = a.reason_of(i)
    terrain = a.blocking_hex[i] >= 0 and a.reason[i] > 0
    return (bool(a.blocked[i]), text, rule, m.name_of(int(a.blocking_hex[i])) if terrain else None,
            tuple(int(v) for v in a.blocked_at[i]) if a.reason[i] > 0 else None,
            None if a.blocked[i] else int(a.hindrance[i]),
            None if a.blocked[i] else (0 if a.lv is None else int(a.lv[i])))
