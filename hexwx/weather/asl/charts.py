"""ASL Chapter E3 weather charts as data, shaped like the printed charts (DESIGN principle 1).

Only literals live here; :mod:`hexwx.weather.asl.state` applies them.  Each chart carries its rule
number.  Where the printed chart is unclear the reading from ``RULES-NOTES.md`` is noted.
"""
from __future__ import annotations

MONTHS: tuple[str, ...] = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

# --- E3 DYO Temperate Weather Chart ------------------------------------------------------------
#: The four month columns of the E3 chart, left to right.
TEMPERATE_COLUMNS: tuple[tuple[str, ...], ...] = (
    ("Mar", "Apr", "May"),
    ("Jun", "Jul", "Aug"),
    ("Sep", "Oct", "Nov"),
    ("Dec", "Jan", "Feb"),
)

#: E3 DYO Temperate Weather Chart: DR -> result per column of :data:`TEMPERATE_COLUMNS`.
TEMPERATE_WEATHER_CHART: dict[int, tuple[str, str, str, str]] = {
    #      Mar-May          Jun-Aug           Sep-Nov           Dec-Feb
    2:  ("Mud",            "Overcast",       "Fog/Mist",       "Gusty"),
    3:  ("Mud",            "Clear & Gusty",  "Clear & Gusty",  "Overcast"),
    4:  ("Clear & Gusty",  "Fog/Mist",       "Mud",            "Mud & Overcast"),
    5:  ("Overcast",       "Overcast",       "Overcast",       "Clear & Gusty"),
    6:  ("Clear",          "Clear",          "Clear",          "Snow"),
    7:  ("Clear & Gusty",  "Clear",          "Clear",          "Clear"),
    8:  ("Clear",          "Clear",          "Clear",          "Clear & Gusty"),
    9:  ("Fog/Mist",       "Clear",          "Clear & Gusty",  "Snow"),
    10: ("Mud",            "Clear & Gusty",  "Mud",            "Snow"),
    11: ("Mud & Overcast", "Mud",            "Mud & Overcast", "Snow"),
    12: ("Snow*",          "Mud & Overcast", "Snow*",          "Snow"),
}

#: E3 chart footnote ``*``: Snow only in these months; otherwise the result is Overcast.
SNOW_STAR_MONTHS: tuple[str, ...] = ("Mar", "Nov")
SNOW_STAR_OTHERWISE = "Overcast"

# --- 3.3 Fog/Mist dr ----------------------------------------------------------------------------
#: 3.3: (lowest dr, highest dr, result).
FOG_MIST_DR: tuple[tuple[int, int, str], ...] = (
    (1, 5, "Mist"),
    (6, 6, "Fog"),
)

# --- 3.31 Fog Level Chart -----------------------------------------------------------------------
#: 3.31 Fog Level Chart: dr -> fog at this level and lower.
FOG_LEVEL_CHART: dict[int, int] = {
    1: -1,
    2: 0,
    3: 1,
    4: 2,
    5: 3,
    6: 4,
}

# --- 3.311 Fog Density --------------------------------------------------------------------------
#: 3.311 Fog Density: (lowest dr, highest dr, fog DRM per hex).
#: Reading (RULES-NOTES): the row printed "-1 +1" is "dr <= 1: +1".
FOG_DENSITY_CHART: tuple[tuple[int, int, int], ...] = (
    (1, 1, +1),
    (2, 3, +2),
    (4, 6, +3),
)

# --- 3.7 Snow Chart -----------------------------------------------------------------------------
#: 3.7 Snow Chart: final dr -> condition.  Final dr 0 (a 1 with the -1 drm) reads as the 0-1 row.
SNOW_CHART: dict[int, str] = {
    0: "Falling Snow",
    1: "Falling Snow",
    2: "Ground Snow",
    3: "Ground & Falling Snow",
    4: "Deep Snow",
    5: "Deep Snow & Falling Snow",
    6: "Deep Snow & Drifts",
    7: "Extreme Winter",          # make another dr (3.74)
}

#: 3.7 Snow Chart drm by month (other months +0).
SNOW_CHART_DRM: dict[str, int] = {"Dec": +1, "Jan": +1, "Feb": +1, "Mar": -1, "Nov": -1}

#: 3.74 reading (RULES-NOTES): a second final dr of 7 reads as 6.
EXTREME_WINTER_SECOND_DR_MAX = 6

#: What each Snow Chart condition turns on: (falling snow, ground snow, deep snow, drifts).
SNOW_CONDITION_FLAGS: dict[str, tuple[bool, bool, bool, bool]] = {
    "Falling Snow":             (True, False, False, False),
    "Ground Snow":              (False, True, False, False),
    "Ground & Falling Snow":    (True, True, False, False),
    "Deep Snow":                (False, False, True, False),
    "Deep Snow & Falling Snow": (True, False, True, False),
    "Deep Snow & Drifts":       (False, False, True, True),
}

# --- 3.4, 3.5, 3.51, 3.71: Wind Change DR thresholds (the "Overcast" rules) ---------------------
#: 3.51 / 3.71: precipitation starts on a Wind Change DR >= this while Overcast.
PRECIPITATION_START_DR = 10
#: 3.51 / 3.71: precipitation stops on a Wind Change DR <= this (whatever its intensity).
PRECIPITATION_STOP_DR = 3
#: 3.51 / 3.71: a DR >= this while precipitation falls intensifies it (once only).
PRECIPITATION_INTENSIFY_DR = 10
#: 3.4: Gusts occur in Gusty weather on a Wind Change DR >= this.
GUSTS_DR = 10

#: Weather chart results that are Overcast from the start (3.5).
OVERCAST_RESULTS: tuple[str, ...] = ("Overcast", "Mud & Overcast")
#: Weather chart results that are Gusty (3.4).
GUSTY_RESULTS: tuple[str, ...] = ("Gusty", "Clear & Gusty")
#: Weather chart results that are Mud (3.6).
MUD_RESULTS: tuple[str, ...] = ("Mud", "Mud & Overcast")

# --- 3.312 Fog and wind -------------------------------------------------------------------------
#: 3.312: how often fog drops one level, by wind force ("game turn" or "player turn").
FOG_LIFT_EVERY: dict[str, str | None] = {
    "none": None,
    "mild": "game turn",
    "heavy": "player turn",
    "gusts": "player turn",
}

#: Wind forces (B25.6; an input here).
WIND_FORCES: tuple[str, ...] = ("none", "mild", "heavy", "gusts")
WIND_FORCE_NAMES: dict[str, str] = {"none": "no wind", "mild": "Mild Breeze",
                                    "heavy": "Heavy Winds", "gusts": "Gusts"}

# --- 3.32 Mist ----------------------------------------------------------------------------------
#: 3.32: mist starts at this range; +1 per started band of this many hexes beyond MIST_FREE_RANGE.
MIST_FREE_RANGE = 6
MIST_BAND = 6

# --- 3.712 Winter camouflage --------------------------------------------------------------------
#: 3.712: +1 LV when fired on beyond this range (hexes).
WINTER_CAMOUFLAGE_BEYOND: dict[str, int] = {"infantry": 8, "other": 16}

# --- 3.75 Drifts --------------------------------------------------------------------------------
#: 3.75: Drift counters per board.
DRIFTS_PER_BOARD = 6
#: 3.75 reading (RULES-NOTES): the hexrows named on a board's six Drift counters, spread evenly
#: across the 33 columns (symmetric about Q); a drift starts at coordinate 5 of that hexrow.
DRIFT_COUNTER_HEXROWS: tuple[str, ...] = ("C", "I", "N", "T", "Y", "EE")
DRIFT_START_ROW = 5

# --- Environmental conditions (RULES-NOTES reading) ---------------------------------------------
#: EC from the weather, strongest first: (condition, EC, rule).
EC_TABLE: tuple[tuple[str, str, str], ...] = (
    ("extreme winter", "Snow", "E3.74"),
    ("deep snow", "Snow", "E3.73"),
    ("ground snow", "Wet", "E3.72"),
    ("mud", "Mud", "E3.6"),
    ("rain (now or earlier)", "Wet", "E3.51"),
    ("fog or mist", "Moist", "E3.3"),
    ("falling snow possible", "Moist", "E3.713"),
)

#: ASL phases of a Player Turn (for the state's phase field).
PHASES: tuple[str, ...] = ("setup", "RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")
