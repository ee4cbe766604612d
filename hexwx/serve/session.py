"""What ``hexwx serve`` has loaded, and the answers of its JSON API (no HTTP here).

A :class:`Session` holds one source -- a hex map (hexwx map file or VASL board archive), a hex
scenario (its map, weather and units) or a tabletop scenario -- and answers queries given as
parsed query strings (name -> values).  Hex-map answers are produced by the same functions the
command line prints, so ``/api/los?from=A7&to=N7`` is byte for byte ``hexwx los MAP A7 N7
--json``.  Queries run concurrently (the LOS kernel keeps its scratch per thread); one lock
guards the answer cache and the board picture.
"""
from __future__ import annotations

import argparse
import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from hexwx.errors import DataError, UsageError
from hexwx.serve import params as P

Query = dict[str, list[str]]
Answer = tuple[str, bytes]          # (content type, body)
JSON = "application/json; charset=utf-8"


def _one(query: Query, key: str, *, required: bool = True) -> str | None:
    vals = query.get(key)
    if not vals:
        if required:
            raise UsageError(f"missing parameter {key!r}")
        return None
    if len(vals) > 1:
        raise UsageError(f"parameter {key!r} given {len(vals)} times; expected once")
    return vals[0]


def _json(data: Any) -> Answer:
    return JSON, (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")


def _text(text: str) -> Answer:
    return JSON, (text + "\n").encode("utf-8")


def source_kind(path: str) -> str:
    """``"map"``, ``"scenario"`` (hex), ``"table"`` or ``"save"`` (a VASL .vsav)."""
    if Path(path).suffix.lower() == ".vsav":
        return "save"
    from hexwx.io.load import source_kind as kind
    return kind(path)


#: Maps under extra SSRs (``ssr=``) a session keeps (~12 MiB a board each, with their arrays).
SSR_MAPS = 4


class Session:
    """One loaded source and its API.  ``answer(route, query)`` -> (content type, body)."""

    def __init__(self, source: str, *, vasl_metadata: str | None = None,
                 vasl_dir: str | None = None, ssr: tuple[str, ...] = (),
                 counters: Any = None, no_counters: bool = False) -> None:
        self.source = source
        self.kind = source_kind(source)
        self.vasl_metadata, self.vasl_dir, self.ssr = vasl_metadata, vasl_dir, tuple(ssr)
        self.lock = threading.RLock()
        self.map: Any = None
        self.scenario: Any = None
        self.table: Any = None
        self._cache: OrderedDict[tuple, Answer] = OrderedDict()
        self._ssr_maps: OrderedDict[tuple[str, ...], Any] = OrderedDict()
        self._map_body: tuple[tuple[Any, ...], Answer] | None = None     # /api/map, its state
        self._base_png: bytes | None = None
        self._base_type = "image/png"
        self._base_box: tuple[float, float, float, float] = (0, 0, 0, 0)
        if self.kind == "table":
            from hexwx.io.table_scenario import load_table_scenario
            self.table = load_table_scenario(source)
        elif self.kind == "scenario":
            from hexwx.io.scenario import load_scenario
            self.scenario = load_scenario(source)
            self.map = self.scenario.map
        elif self.kind == "save":
            self.scenario = _load_save(source, vasl_metadata, vasl_dir)
            self.map = self.scenario.map
        else:
            self.map = self._load(())
        from hexwx.lineofsight.counters import Counters
        extra = Counters.of(counters)
        if no_counters and extra:
            raise UsageError("no_counters answers as the bare map: leave out counters",
                             param="counters")
        own = self.scenario.los_counters if self.scenario is not None else Counters()
        #: the counters every answer uses: the scenario's or save's, then --counter
        self.counters = Counters() if no_counters else own + extra
        if self.map is not None and self.counters:
            from hexwx.lineofsight.counter_los import prepare
            prepare(self.map, self.counters)        # a bad hex or level: an error now

    def _load(self, ssr: tuple[str, ...]) -> Any:
        """The map with the server's SSRs and then ``ssr`` (cached by ``load_map``)."""
        from hexwx.io.load import load_map
        return load_map(self.source, vasl_metadata=self.vasl_metadata, vasl_dir=self.vasl_dir,
                        ssr=self.ssr + tuple(ssr))

    def map_for(self, args: argparse.Namespace) -> Any:
        """The map a query asks about: the loaded one, or it under more VASL SSRs (``ssr=``).

        Any page may ask for any set of SSRs, so those maps are kept by count (the last
        :data:`SSR_MAPS`) and never written to the map cache folder
        (:func:`hexwx.io.mapcache.transient`)."""
        extra = tuple(getattr(args, "ssr", None) or ())
        if not extra:
            return self.map
        if self.kind != "map":
            raise UsageError("ssr= applies to maps; a scenario's map is as the scenario says")
        with self.lock:
            m = self._ssr_maps.get(extra)
            if m is not None:
                self._ssr_maps.move_to_end(extra)
                return m
        from hexwx.io.mapcache import transient
        with transient():
            m = self._load(extra)
        with self.lock:
            self._ssr_maps[extra] = m
            while len(self._ssr_maps) > SSR_MAPS:
                self._ssr_maps.popitem(last=False)
        return m

    # -- the board picture -----------------------------------------------------------------
    def base_image(self) -> tuple[str, bytes]:
        """(content type, bytes) of the map as players know it: the boards' own art from
        their VASL archives, placed and turned as the layout says; or hexwx's drawing of a
        map file (with hex ids)."""
        with self.lock:
            if self._base_png is None:
                if self.map is None:
                    raise UsageError("this source is a tabletop: it has no board image")
                m = self.map
                W, H = m.grid.width_px, m.grid.height_px
                if m.board_images:
                    self._base_type, self._base_png = "image/jpeg", _board_art(m)
                else:
                    from hexwx.render.core import render_map
                    self._base_type = "image/png"
                    self._base_png = render_map(m, background="terrain", legend=False).to_png()
                self._base_box = (0.0, 0.0, float(W), float(H))
            return self._base_type, self._base_png

    def base_png(self) -> bytes:
        return self.base_image()[1]

    # -- routes ------------------------------------------------------------------------------
    def routes(self) -> dict[str, Callable[[Query], Answer]]:
        if self.kind == "table":
            return {"map": self._table_map, "sight": self._table_sight,
                    "table-move": self._table_move, "table-fire": self._table_fire}
        return {"map": self._map, "los": self._los, "viewshed": self._viewshed,
                "exposure": self._exposure, "path": self._path, "reach": self._reach,
                "sight": self._sight}

    def answer(self, route: str, query: Query) -> Answer:
        """The answer of ``/api/ROUTE?QUERY``; UsageError/DataError for a bad request."""
        fn = self.routes().get(route)
        if fn is None:
            raise UsageError(f"no such API {route!r}; expected one of {', '.join(self.routes())}")
        P.check_query(query)
        return fn(query)          # LOS queries are thread-safe (per-thread kernel scratch)

    def _cached(self, key: tuple, make: Callable[[], Answer]) -> Answer:
        with self.lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        out = make()
        with self.lock:
            self._cache[key] = out
            while len(self._cache) > 64:
                self._cache.popitem(last=False)
        return out

    # -- hex maps ----------------------------------------------------------------------------
    def _weather(self, args: argparse.Namespace) -> Any:
        from hexwx.front.options import weather_from_args
        return weather_from_args(args, scenario=self.scenario)

    def _map(self, query: Query) -> Answer:
        if query:
            raise UsageError("/api/map takes no parameters")
        return self.map_answer()

    def map_state(self) -> tuple[Any, ...]:
        """What ``/api/map`` says that could change while the session runs: the map object
        (a map under other SSRs is another object; maps compare by identity), the terrain
        table its SSR list is read from, the scenario's weather and units, and the counters."""
        sc = self.scenario
        return (self.map, self.vasl_metadata, self.vasl_dir, self.ssr,
                None if sc is None else (sc, getattr(sc, "name", ""), sc.weather, sc.units),
                self.counters.to_json())

    def map_answer(self) -> Answer:
        """``/api/map``'s body (:meth:`map_json`): built once per :meth:`map_state` -- its hex
        list and the SSRs that change the map (a pass over the rasters) are not rebuilt per
        request -- and built anew when that state changes.  A body built while the state
        changed (another thread) is served but not kept: it may not be that state's."""
        state = self.map_state()
        with self.lock:
            done = self._map_body
            if done is not None and done[0] == state:
                return done[1]
        out = _json(self.map_json())
        with self.lock:
            if self.map_state() == state:
                self._map_body = (state, out)
        return out

    def map_json(self) -> dict[str, Any]:
        """The map for the page: size, hex centres, names and levels, the board image and its
        place, the scenario's units and weather, the query options."""
        from hexwx.movement.charts import MOVE_CLASSES
        m = self.map
        shape = m.grid.shape
        self.base_png()
        x0, y0, w, h = self._base_box
        from hexwx.lineofsight.locations import location_name
        hx = m.hexes
        hexes = [{"name": m.name_of(i), "x": round(float(m.grid.centre_x[i]), 2),
                  "y": round(float(m.grid.centre_y[i]), 2), "ground": int(hx.base[i]),
                  "levels": int(hx.levels[i]), "rooftop": bool(hx.rooftop[i]),
                  "terrain": m.terrain_of(i).name,
                  # each location as the CLI names it: "J4 (hill level 3)", "D4 rooftop"
                  "places": [location_name(m, i, lv) for lv in m.levels_at(i)]}
                 for i in range(len(m))]
        out: dict[str, Any] = {
            "kind": self.kind, "name": m.name, "source": Path(self.source).name,
            "width": m.grid.width_px, "height": m.grid.height_px,
            # drawn turned round, as VASL shows a layout of rotated boards (hex centres below
            # are map pixels: the page turns them, the board picture and blocking points)
            "turned": bool(getattr(m, "shown_turned", False)),
            "hex": {"width": shape.hex_width, "side": shape.hex_side, "height": shape.hex_height},
            "image": {"href": "/api/board", "x": x0, "y": y0, "w": w, "h": h},
            "boards": [{"label": b.label, "x": b.bx, "y": b.by} for b in m.grid.boards],
            "hexes": hexes, "unit_classes": list(MOVE_CLASSES), "units": [], "weather": None,
            "counters": self.counters.to_json(),
            "options": {c: _options(c) for c in ("los", "path", "reach", "exposure")},
        }
        if self.kind == "map" and m.board_images:
            out["ssrs"] = _ssr_names(m, self.vasl_metadata, self.vasl_dir)
        if self.scenario is not None:
            out["scenario"] = getattr(self.scenario, "name", "")
            from hexwx.render.style import side_colours_hex
            colours = side_colours_hex(u.side for u in self.scenario.units if u.side)
            out["units"] = [{"id": u.id, "side": u.side, "hex": u.hex, "level": u.level,
                             "kind": u.kind, "colour": colours.get(u.side),
                             "marker": u.is_marker, "concealed": u.concealed}
                            for u in self.scenario.units]
            w = self.scenario.weather
            out["weather"] = {"text": w.describe(), "flags": weather_flags(w)}
        return out

    def _endpoints(self, query: Query, *keys: str) -> list[str]:
        return [str(_one(query, k)) for k in keys]

    def _los(self, query: Query) -> Answer:
        from hexwx.front.answers import los_json_text
        a, b = self._endpoints(query, "from", "to")
        args = P.parse("los", query, ["MAP", a, b], consumed=("from", "to"))
        return _text(los_json_text(self.map_for(args), self.scenario, a, b, args,
                                   counters=self.counters))

    def _viewshed(self, query: Query) -> Answer:
        from hexwx.front.answers import scenario_of
        (a,) = self._endpoints(query, "from")
        args = P.parse("viewshed", query, [a], consumed=("from",))
        key = ("viewshed", json.dumps(sorted(query.items())))

        def make() -> Answer:
            m = self.map_for(args)
            weather = self._weather(args)
            vs = scenario_of(m, self.scenario).viewshed(a, level=args.from_level,
                                                        weather=weather, map=m,
                                                        counters=self.counters)
            return _json({**vs.to_json(), "weather": weather.to_json()})
        return self._cached(key, make)

    def _exposure(self, query: Query) -> Answer:
        from hexwx.front.answers import exposure_json
        args = P.parse("exposure", query, ["MAP"])
        key = ("exposure", json.dumps(sorted(query.items())))
        return self._cached(key, lambda: _json(exposure_json(self.map_for(args), args,
                                                             scenario=self.scenario,
                                                             counters=self.counters)))

    def _path(self, query: Query) -> Answer:
        from hexwx.front.answers import path_json_text
        a, b = self._endpoints(query, "from", "to")
        args = P.parse("path", query, ["MAP", a, b], consumed=("from", "to"))
        return _text(path_json_text(self.map_for(args), self.scenario, args,
                                    counters=self.counters))

    def _reach(self, query: Query) -> Answer:
        from hexwx.front.answers import reach_json_text
        (a,) = self._endpoints(query, "from")
        args = P.parse("reach", query, ["MAP", a], consumed=("from",))
        return _text(reach_json_text(self.map_for(args), self.scenario, args,
                                     counters=self.counters))

    def _sight(self, query: Query) -> Answer:
        """Who sees whom: the LOS from the selected unit to every other unit of the scenario."""
        if self.scenario is None:
            raise UsageError("/api/sight needs a scenario or save with units; this is a map")
        (uid,) = self._endpoints(query, "unit")
        unit = self.scenario.unit(uid)
        args = P.parse("sight", query, [uid], consumed=("unit",))
        weather = self._weather(args)
        sees = self.scenario.sight(unit.id, weather=weather, counters=self.counters)
        rows = [{"target": other.id, "side": other.side, "hex": other.hex,
                 "blocked": res.blocked, "drm": None if res.blocked else res.drm,
                 "range": res.range, "reason": res.reason, "rule": res.rule,
                 "verdict": res.verdict, "explain": res.explain()} for other, res in sees]
        return _json({"unit": unit.id, "hex": unit.hex, "side": unit.side, "sees": rows,
                      "weather": weather.to_json() if sees else None})

    # -- tabletops ---------------------------------------------------------------------------
    def _table_map(self, query: Query) -> Answer:
        if query:
            raise UsageError("/api/map takes no parameters")
        return _json(self.table_json())

    def table_json(self) -> dict[str, Any]:
        """The table for the page: size, pieces (polygons or lines), units and their bases,
        and every turn's weather line and visibility, in the table's unit."""
        sc = self.table
        t = sc.table
        r = lambda v: round(t.to_unit(v), 4)  # noqa: E731

        def coords(geom: Any) -> list[list[float]]:
            if geom.geom_type == "Polygon":
                pts = list(geom.exterior.coords)
            elif geom.geom_type == "LineString":
                pts = list(geom.coords)
            else:  # a collection: its hull, good enough for drawing
                pts = list(geom.convex_hull.exterior.coords)
            return [[r(x), r(y)] for x, y in pts]

        from hexwx.render.style import side_colours_hex
        colours = side_colours_hex([u.side for u in t.units] + [o.side for o in t.officers])
        turns = []
        for turn in range(1, sc.turns + 1):
            line, rep, vis = sc.weather_line(turn)
            turns.append({"turn": turn, "text": line, "weather": rep.weather,
                          "visibility": None if vis is None else r(vis)})
        return {
            "kind": "table", "name": sc.name, "rules": sc.rules, "unit": t.unit,
            "source": Path(self.source).name, "width": r(t.width), "depth": r(t.depth),
            "pieces": [{"id": p.id, "kind": p.kind, "height": p.height,
                        "line": p.geometry.geom_type == "LineString", "points": coords(p.geometry)}
                       for p in t.terrain],
            "units": [{"id": u.id, "side": u.side, "arm": u.arm, "facing": u.facing,
                       "colour": colours[u.side],
                       "centre": [r(u.centre[0]), r(u.centre[1])],
                       "bases": [[[r(x), r(y)] for x, y in b.corners] for b in u.bases]}
                      for u in t.units],
            "officers": [{"id": o.id, "side": o.side, "quality": o.quality,
                          "command_radius": r(o.command_radius_cm), "position": [r(o.x), r(o.y)],
                          "colour": colours.get(o.side)} for o in t.officers],
            "turns": turns,
        }

    def _table_sight(self, query: Query) -> Answer:
        """``from`` and ``to``: that sight (as ``hexwx table --can-see A B --json``); only
        ``from``: its sight of every unit of another side; neither: every such pair."""
        args = P.parse("table-sight", query, [])
        sc = self.table
        sc.check_turn(args.turn)
        vis = sc.visibility_cm(args.turn)
        t = sc.table
        if args.frm and args.to:
            pairs = [(args.frm, args.to)]
        else:
            viewers = [t.unit_by_id(args.frm)] if args.frm else list(t.units)
            pairs = [(a.id, b.id) for a in viewers for b in t.units if b.side != a.side]
        out = [sc.can_see(a, b, turn=args.turn).to_json() for a, b in pairs]
        return _json({"turn": args.turn, "sights": out})

    def _table_fire(self, query: Query) -> Answer:
        """``from``, ``to``, ``turn``: may ``from`` shoot at ``to`` -- the fields of ``hexwx table
        SCENARIO --fire A B --turn N --json`` and, as ``text``, the lines the CLI prints."""
        args = P.parse("table-fire", query, [])
        answer = self.table.fire(args.frm, args.to, args.turn)
        return _json({**answer.to_json(), "turn": args.turn, "text": answer.text()})

    def _table_move(self, query: Query) -> Answer:
        """``unit``, ``turn`` [, ``outline``]: exactly ``hexwx table SCENARIO --move UNIT
        --turn N [--outline] --json`` (the allowance, its factors and the turn's weather)."""
        (uid,) = self._endpoints(query, "unit")
        args = P.parse("table-move", query, [uid], consumed=("unit",))
        return _text(json.dumps(self.table.move_json(uid, turn=args.turn, outline=args.outline),
                                indent=2))


def _options(command: str) -> list[dict[str, Any]]:
    """The API parameters of ``command`` for the page's panels: name, switch or value,
    choices, help and the CLI group they belong to."""
    p = P.parser(command)
    groups = {id(a): g.title for g in p._action_groups for a in g._group_actions}
    out = []
    for name, act in P.options_of(p).items():
        kind = "switch" if act.nargs == 0 else ("int" if act.type is int else
                                                 "float" if act.type is float else "text")
        out.append({"name": name, "kind": kind,
                    "choices": [str(c) for c in act.choices] if act.choices else None,
                    "repeat": isinstance(act, argparse._AppendAction),
                    "help": (act.help or "").replace("%%", "%"), "group": groups.get(id(act))})
    return out


def weather_flags(w: Any) -> dict[str, Any]:
    """API weather parameters that state weather ``w`` (for the page's panel)."""
    out: dict[str, Any] = {}
    if w.fog_level is not None:
        out["fog"] = w.fog_level
        out["fog_drm"] = w.fog_drm or 1
    for name in ("rain", "falling_snow", "heavy", "ground_snow", "deep_snow", "extreme_winter",
                 "plowed_roads"):
        if getattr(w, name, False):
            out[name] = True
    for name in ("mist", "mud", "overcast", "gusty"):
        try:
            if getattr(w, name):
                out[name] = True
        except AttributeError:
            pass
    if w.month:
        out["month"] = w.month
    if w.wind and w.wind != "none":
        out["wind"] = w.wind
    if w.drifts:
        out["drift"] = [str(d) for d in w.drifts]
    return out


def _load_save(path: str, vasl_metadata: str | None, vasl_dir: str | None) -> Any:
    """A VASL save as a hex scenario: its boards as laid out, its pieces as units."""
    from hexwx.io.scenario import load_save
    return load_save(path, vasl_metadata=vasl_metadata, vasl_dir=vasl_dir)


#: The viewer's ground under and between the boards' art (a parchment grey, not paper white).
ART_GROUND = (230, 226, 214)


def _board_art(m: Any) -> bytes:
    """JPEG of the boards' own images placed (and turned 180 degrees) as in the layout
    (:func:`hexwx.render.hexmap.compose_art`); a board without a readable image stays blank."""
    import io as _io

    from hexwx.render.hexmap import compose_art
    buf = _io.BytesIO()
    compose_art(m, errors="blank", ground=ART_GROUND).save(buf, "JPEG", quality=85)
    return buf.getvalue()


def _ssr_names(m: Any, metadata: str | None, vasl_dir: str | None) -> list[str]:
    """VASL's terrain SSRs that change map ``m``'s LOS data (:func:`hexwx.io.ssr.ssrs_that_change`)."""
    try:
        from hexwx.io.layout import metadata_path
        from hexwx.io.ssr import ssrs_that_change
        return ssrs_that_change(m, metadata_path(metadata, vasl_dir))
    except (ImportError, DataError, UsageError):
        return []
