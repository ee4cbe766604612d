"""What an E3 weather state does: a list of effects, each with its rule (for reports and the CLI).

The texts are short summaries in our own words; the rule numbers point at the rulebook.
"""
from __future__ import annotations

from dataclasses import dataclass

from hexwx.weather.asl import charts as C
from hexwx.weather.asl.state import AslWeather

#: Topics in report order.
TOPICS: tuple[str, ...] = ("weather", "EC", "LV", "wind", "movement", "HE", "entrenching",
                           "smoke", "air support", "fires", "bog/manhandling", "terrain",
                           "minefields", "extreme winter", "drifts")


@dataclass(frozen=True)
class Effect:
    """One consequence of the weather: topic (see :data:`TOPICS`), text, rule."""

    topic: str
    text: str
    rule: str

    def __str__(self) -> str:
        return f"[{self.topic}] {self.text} ({self.rule})"

    def to_json(self) -> dict[str, str]:
        return {"topic": self.topic, "text": self.text, "rule": self.rule}


_EC_RULE = {"Snow": "E3.73, E3.74", "Mud": "E3.6", "Moist": "E3.3, E3.713", "normal": "E3.2, B25.5"}


def effects(state: AslWeather) -> list[Effect]:
    """Every effect of ``state`` with its rule, grouped by topic in :data:`TOPICS` order."""
    out: list[Effect] = []

    def add(topic: str, text: str, rule: str) -> None:
        out.append(Effect(topic, text, rule))

    if state.is_clear:
        add("weather", "clear: weather has no effect", "E3.2")
    else:
        add("weather", state.describe(), "E3")

    # EC -------------------------------------------------------------------------------------
    ec = state.ec
    if ec == "Wet":
        rule = "E3.72" if state.ground_snow else "E3.51"
        why = "ground snow" if state.ground_snow else "rain has fallen; wet for the rest of the scenario"
        add("EC", f"EC are Wet ({why})", rule)
    elif ec == "normal":
        add("EC", "EC are determined normally", "B25.5")
    elif ec == "Moist":
        add("EC", "EC are Moist", "E3.3" if ("Fog" in state.base or "Mist" in state.base) else "E3.713")
    else:
        add("EC", f"EC are {ec}", _EC_RULE[ec])

    # LV -------------------------------------------------------------------------------------
    if state.fog_level is not None:
        add("LV", f"fog at level {state.fog_level} and lower: +{state.fog_drm} LV per fogged hex "
            f"up to the start of level {state.fog_level + 1}; hexes above it hinder only within "
            "their blind-hex zone", "E3.31, E3.311, A6.4")
        add("LV", "fire within one fog location: fog DRM halved, fractions rounded up", "E3.311")
        add("LV", "firing out of a fog location: +1", "A24.8")
    if state.mist:
        cause = {"rain": "rain causes mist", "falling snow": "falling snow causes mist"}.get(
            state.precipitation or "", "mist")
        rule = {"rain": "E3.52, E3.32", "falling snow": "E3.711, E3.32"}.get(state.precipitation or "", "E3.32")
        add("LV", f"{cause}: +1 LV per started 6 hexes beyond 6 (7-12 +1, 13-18 +2, ...)", rule)
    if state.heavy:
        add("LV", f"{state.precipitation} intensified: mist +1 at 6 hexes or less and +1 more at "
            "longer ranges; it never increases further", "E3.51" if state.rain else "E3.71")
    if state.any_snow:
        add("LV", "winter camouflage: +1 LV vs such targets beyond 8 hexes (infantry) or 16 "
            "(others) unless they have a positive TEM other than smoke; -1 concealment dr",
            "E3.712")
    if not state.is_clear:
        add("LV", "fire from a building to another location of the same building through a "
            "building hexside is always in clear weather", "E3.8")

    # wind -----------------------------------------------------------------------------------
    if state.overcast:
        kind = state.precipitation_kind
        rule = "E3.71" if kind == "falling snow" else "E3.51"
        if state.precipitation:
            add("wind", f"{kind} stops on a wind change DR <= {C.PRECIPITATION_STOP_DR}; "
                + ("already intensified" if state.heavy else
                   f"it intensifies on >= {C.PRECIPITATION_INTENSIFY_DR}"), rule)
        else:
            add("wind", f"{kind} starts on a wind change DR >= {C.PRECIPITATION_START_DR}", rule)
    if state.gusty:
        add("wind", f"gusts on a wind change DR >= {C.GUSTS_DR}", "E3.4, B25.651")
    if state.fog and C.FOG_LIFT_EVERY[state.effective_wind]:
        add("wind", f"fog drops one level each {C.FOG_LIFT_EVERY[state.effective_wind]} "
            f"({C.WIND_FORCE_NAMES[state.effective_wind]})", "E3.312")

    # movement ---------------------------------------------------------------------------------
    if state.rained:
        add("movement", "during and after rain: +1 MF/MP per level changed (up or down) unless "
            "by stairwell or paved road", "E3.54")
    if state.mud:
        add("movement", "mud: unpaved roads give no road bonus and cost as open ground; paved "
            "roads, bridges and runways are unaffected", "E3.6")
        add("movement", "mud: +1/2 MF (infantry) or +1 MP (vehicles) per open-ground hexside "
            "unless entering non-open terrain", "E3.64, E3.65")
    if state.ground_snow or state.deep_snow:
        add("movement", "snow: infantry/cavalry +1 MF per level changed unless by stairwell or "
            "plowed road; road bonus only on plowed roads", "E3.723")
    if state.ground_snow:
        add("movement", "ground snow: road entry costs at least 1 MP; non-tracked vehicles "
            "(not sledges) +1 MP per hexside, even on plowed roads", "E3.724")
    if state.deep_snow:
        add("movement", "deep snow: infantry/cavalry +1/2 MF per hexside unless entering "
            "woods/building/rubble or crossing a plowed road hexside; gallop only on plowed roads",
            "E3.733")
        add("movement", "deep snow: road entry at least 1 MP; off plowed roads tracked +1 MP, "
            "non-tracked +2 MP per hexside; on plowed roads non-tracked +1 MP", "E3.7331")
    if state.drifts or state.drifts_in_play:
        add("movement", "a drift hexside takes all of a unit's MF/MP; vehicles take a bog "
            "check (+2); it also counts as a hedge; no bypass along it", "E3.752")
    if state.rained or state.mud or state.ground_snow or state.deep_snow or state.drifts:
        add("movement", "weather MF/MP additions are added per hexside crossed, after the "
            "terrain cost (towing excepted)", "E3.9")
    if state.plowed_roads:
        add("movement", "roads are plowed (by SSR)", "E3.733")

    # HE / residual FP -----------------------------------------------------------------------
    if state.mud:
        add("HE", "mud: +1 TEM to HE attacks in open ground (not mines, air bursts, specific "
            "collateral, direct fire vs vehicles/pillboxes); residual FP one column lower",
            "E3.62")
    if state.deep_snow:
        add("HE", "deep snow: +1 TEM to HE attacks in open ground (same exceptions); residual "
            "FP one column lower", "E3.731")

    # entrenching ------------------------------------------------------------------------------
    if state.mud:
        add("entrenching", "+1 DRM to entrenching attempts", "E3.63")
    if state.ground_snow or state.deep_snow:
        add("entrenching", "+2 DRM to entrenching attempts", "E3.722")
    if state.extreme_winter:
        add("entrenching", "foxholes may not be dug", "E3.743")

    # smoke ------------------------------------------------------------------------------------
    if state.rain:
        add("smoke", "only blaze smoke or smoke grenades inside a building exist; no drift",
            "E3.53")
    if state.mud or state.deep_snow:
        add("smoke", "only smoke placed entirely inside a building or from a blaze exists",
            "E3.734")

    # air support --------------------------------------------------------------------------------
    if state.fog:
        add("air support", "no air support against locations in fog", "E3.313")
    if state.overcast:
        add("air support", "no air support while overcast", "E3.55")

    # fires --------------------------------------------------------------------------------------
    if state.mud:
        add("fires", "fires spread only across hexsides crossing building/woods/brush/grain/"
            "orchard (in season) symbols, or by gusts", "E3.6")
    if state.ground_snow or state.deep_snow:
        extra = " (brush does not count in deep snow)" if state.deep_snow else ""
        add("fires", "blazes spread only across hexsides crossing building/woods/brush "
            f"symbols{extra}, or by gusts", "E3.721")

    # bog / manhandling ------------------------------------------------------------------------
    if state.mud:
        add("bog/manhandling", "vehicle bog and gun manhandling are harder in mud", "E3.61")
    if state.deep_snow:
        add("bog/manhandling", "vehicle bog and gun manhandling are harder in deep snow",
            "E3.7332")

    # terrain ----------------------------------------------------------------------------------
    if state.ground_snow or state.deep_snow:
        add("terrain", "marsh and mudflats become open ground, streams freeze, ice rules apply",
            "E3.722")
    if state.deep_snow:
        add("terrain", "brush becomes open ground", "E3.73")
    if state.snow and state.ec == "Moist":
        add("terrain", "falling snow possible: streams are frigid", "E3.713")

    # minefields -------------------------------------------------------------------------------
    if state.deep_snow:
        add("minefields", "+1 DRM to minefield attacks and clearance; A-P attacks at half FP; "
            "A-T factors one less", "E3.732")

    # extreme winter ---------------------------------------------------------------------------
    if state.extreme_winter:
        add("extreme winter", "B#/X# of weapons (not DC) lowered: Russians before April 1941 by "
            "1, Axis before April 1942 by 2; such units' ELR one lower", "E3.741")
        add("extreme winter", "non-Finnish Axis before April 1942 / Russians before April 1941: "
            "original rally DR >= 11 outside a building/pillbox causes casualty reduction", "E3.742")
        add("extreme winter", "non-Finnish Axis defender before April 1942: dr 6 before a set-up "
            "motorized vehicle's first start MP immobilizes it", "E3.744")

    # drifts -----------------------------------------------------------------------------------
    for d in state.drifts:
        add("drifts", f"drift in {d.hex} on hexside {d.hexside} ({('N', 'NE', 'SE', 'S', 'SW', 'NW')[d.hexside]})",
            "E3.75, E3.751")
    if state.drifts_in_play and not state.drifts:
        add("drifts", f"{C.DRIFTS_PER_BOARD} drift counters per board; placement needs the map",
            "E3.75")
    if state.ground_snow or state.deep_snow:
        add("drifts", "a new drift on each board at the start of every RPh after heavy winds or "
            "gusts", "E3.75")

    order = {t: i for i, t in enumerate(TOPICS)}
    return sorted(out, key=lambda e: order.get(e.topic, len(order)))
