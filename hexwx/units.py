"""Lengths: the one inch-to-centimetre factor (base layer; tabletops and miniatures weather)."""
from __future__ import annotations

#: One inch in centimetres, exact by definition.
CM_PER_INCH = 2.54

#: Centimetres per table unit.
UNIT_CM: dict[str, float] = {"in": CM_PER_INCH, "cm": 1.0}
