"""Entrenched ends in the batch forms: one flag per pair, as ``los(from_entrenched=)`` takes it.

A unit in an entrenchment (foxholes, trench, A-T ditch) is at its hex's ground level and sees
as B27.2 says: hexside terrain on the thread blocks its LOS to and from a non-adjacent unit at
its elevation or lower (docs/counters.md, "Entrenched units").  The kernel takes the flag per
pair (``ent_s`` / ``ent_t`` of :func:`hexwx._native.trace_many`); this module checks what a
batch form was given for it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from hexwx.errors import UsageError
from hexwx.validate import bad, check_flag

#: What a level of an entrenched end must be, in words (as ``los`` says it).
GROUND_ONLY = "0: a unit in an entrenchment is at its hex's ground level (B27)"
#: Why an end cannot be both in bypass and in an entrenchment, in words.
NOT_BOTH_WHY = ("the entrenchment is a Location of its own in the hex (B27), bypass is at a "
                "hexside (D2.3)")
NOT_BOTH = f"an end in an entrenchment or in bypass, not both: {NOT_BOTH_WHY}"


def check_not_both(entrenched: Any, sides: Any, param: str) -> None:
    """UsageError naming ``param`` (the hexside parameter) when some end is both entrenched
    (``entrenched``: a flag or one per pair, 0/1) and in bypass (``sides``: a hexside, None
    or -1 for none, or one per pair)."""
    if entrenched is None or sides is None:
        return
    ent = np.asarray(entrenched) != 0
    side = np.asarray(sides)
    both = ent & (side >= 0)
    if both.any():
        raise bad(param, int(side.flat[int(np.flatnonzero(both)[0])] if side.ndim else side),
                  NOT_BOTH)


def flags_array(n: int, flags: Any, param: str, levels: np.ndarray | None = None,
                level_param: str = "level") -> np.ndarray | None:
    """One entrenchment flag per pair (int64 0/1) from None (no end), one bool for all, or a
    sequence of ``n`` bools; None when no entry is entrenched.  UsageError naming ``param``
    for anything else, or naming ``level_param`` when an entrenched end's level (``levels``,
    one per pair) is not 0."""
    if flags is None:
        return None
    if isinstance(flags, (list, tuple, np.ndarray)):
        if len(flags) != n:
            raise UsageError(f"{len(flags)} {param} for {n} pairs: give one per pair "
                             f"(True or False) or one for all", param=param)
        a = np.asarray(flags)
        out = a.astype(np.int64) if a.dtype == bool else \
            np.array([check_flag(f, param) for f in list(flags)], np.int64)
    else:
        out = np.full(n, int(check_flag(flags, param)), np.int64)
    if not out.any():
        return None
    if levels is not None:
        wrong = (out != 0) & (np.asarray(levels) != 0)
        if wrong.any():
            raise bad(level_param, int(np.asarray(levels)[np.flatnonzero(wrong)[0]]), GROUND_ONLY)
    return out
