"""Why a line of sight is blocked: the kernel's reason codes with their text and rule."""
from __future__ import annotations

from hexwx import _native as K

#: Reason code -> (text, rule citation).  Texts are ours; citations as in LOS-SPEC 5.
REASONS: dict[int, tuple[str, str | None]] = {
    K.CLEAR: ("clear", None),
    K.HIGHER_THAN_BOTH: ("terrain is higher than both the source and the target", "A6.2"),
    K.GROUND_HIGHER: ("ground level is higher than both the source and the target", "A6.2"),
    K.HEIGHT_ADVANTAGE: ("a height advantage is needed to see over this terrain", "A6.2"),
    K.HALF_LEVEL: ("half-level terrain is as high as both the source and the target", "A6.2"),
    K.BLIND_OBSTACLE: ("the source or target is in a blind hex behind an obstacle", "A6.4"),
    K.BLIND_CREST: ("the source or target is in a blind hex behind a crest", "B10.23"),
    K.HEXSIDE: ("intervening hexside terrain (wall, hedge) at the level of both ends", "B9.2"),
    K.BOCAGE: ("bocage blocks the LOS", "B9.52"),
    K.ROWHOUSE: ("the LOS cannot cross a rowhouse wall", "B23.71"),
    K.HINDRANCE_SIX: ("hindrances total six or more", "B.10"),
    K.LEAVE_BUILDING: ("the LOS must leave the building before it leaves the unit's hex", "A6.8"),
    K.EXITS_DEPRESSION: ("the LOS leaves the depression before the range allows it", "A6.3"),
    K.ENTERS_DEPRESSION: ("the LOS enters the depression before the range allows it", "A6.3"),
    K.CREST_EXIT: ("the LOS leaves a crest line at a vertex", "B19.51"),
    K.CREST_ENTRY: ("the LOS enters a crest line at a vertex", "B19.51"),
    K.SPLIT_SAME_LEVEL: ("split terrain blocks LOS between units at its own level", None),
    K.SAME_HEX: ("different levels of a building not joined by a stairway", "B23.22"),
}
LV_BLOCK_REASON = ("terrain and LV hindrances total six or more", "E3.1")
