"""Lengths: the one inch-to-centimetre factor (base layer; tabletops and miniatures weather)."""
from __future__ import annotations

#: One inch in centimetres, exact by definition.
CM_PER_INCH = 2.54

#: Centimetres per table unit.
UNIT_CM: dict[str, float] = {"in": CM_PER_INCH, "cm": 1.0}

#: What a ruler shows: lengths in text are rounded to this many decimals of their unit (a
#: millimetre in cm, a tenth of an inch in inches).  JSON keeps the exact numbers.
RULER_DECIMALS = 1


def ruler(value: float, unit: str) -> str:
    """``value`` (already in ``unit``) as a ruler reads it: ``"12 in"``, ``"2.4 in"``,
    ``"48.1 cm"`` (rounded to :data:`RULER_DECIMALS`, no trailing zeros)."""
    shown = round(float(value), RULER_DECIMALS) + 0.0      # + 0.0 turns -0.0 into 0.0
    return f"{shown:g} {unit}"


def ruler_cm(value_cm: float, unit: str) -> str:
    """A length given in cm, shown in ``unit`` as a ruler reads it (:func:`ruler`)."""
    return ruler(value_cm / UNIT_CM[unit], unit)


def count(n: int, word: str) -> str:
    """``"1 base"``, ``"3 bases"``: a whole number with its noun (plural by adding "s")."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
