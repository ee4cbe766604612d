"""Why a line of sight is blocked: the kernel's reason codes with their text and rule."""
from __future__ import annotations

from hexwx import _native as K
from hexwx.lineofsight.results import HINDRANCE_SIX_RULE, LV_SIX_RULE

#: Reason code -> (text, rule citation).  Texts are ours, in a player's words; citations as in
#: LOS-SPEC 5.  The answer names the terrain at the blocking pixel besides (``blocked_by``).
REASONS: dict[int, tuple[str, str | None]] = {
    K.CLEAR: ("clear", None),
    K.HIGHER_THAN_BOTH: ("terrain is higher than both the source and the target", "A6.2"),
    K.GROUND_HIGHER: ("ground level is higher than both the source and the target", "A6.2"),
    K.HEIGHT_ADVANTAGE: ("a height advantage is needed to see over this terrain", "A6.2"),
    K.HALF_LEVEL: ("half-level terrain is as high as both the source and the target", "A6.2"),
    K.BLIND_OBSTACLE: ("blind hex: the lower end lies too close behind this obstacle to be seen "
                       "from the higher end", "A6.4"),
    K.BLIND_CREST: ("blind hex: the lower end lies too close behind this crest of higher ground "
                    "to be seen from the higher end", "B10.23"),
    K.HEXSIDE: ("intervening hexside terrain (wall, hedge) at the level of both ends", "B9.2"),
    K.BOCAGE: ("bocage blocks the LOS", "B9.52"),
    K.ROWHOUSE: ("the LOS cannot cross a rowhouse wall", "B23.71"),
    K.HINDRANCE_SIX: ("hindrances total six or more", HINDRANCE_SIX_RULE),
    K.LEAVE_BUILDING: ("a unit inside a building sees out only through its own hex's walls: "
                       "this LOS runs on through the building into the next hex, to a "
                       "different level", "A6.8"),
    K.EXITS_DEPRESSION: ("the LOS leaves the depression before the range allows it", "A6.3"),
    K.ENTERS_DEPRESSION: ("the LOS enters the depression before the range allows it", "A6.3"),
    K.CREST_EXIT: ("the LOS leaves a crest line at a vertex", "B19.51"),
    K.CREST_ENTRY: ("the LOS enters a crest line at a vertex", "B19.51"),
    K.SPLIT_SAME_LEVEL: ("split terrain blocks LOS between units at its own level", None),
    K.SAME_HEX: ("different levels of a building not joined by a stairway", "B23.22"),
    K.HILLOCK: ("a unit on a hillock sees over one other hillock, not a second one", "F6.4"),
    K.HILLOCK_WALLS: ("a unit on a hillock sees over one wall or hedge, not a second one",
                      "F6.4"),
    K.HILLOCK_RUBBLE: ("a unit on a hillock sees over one rubble hex, not a second one", "F6.4"),
    K.ENTRENCHED: ("a unit in an entrenchment cannot see over hexside terrain to a "
                   "non-adjacent unit at its own elevation or lower, nor be seen over it",
                   "B27.2"),
}
LV_BLOCK_REASON = ("terrain and LV hindrances total six or more", LV_SIX_RULE)
