"""hexwx's LOS with counters against VASL's own answers ($HEXWX_VASL_DIR/counters/).

For each counter set (``bdNN__setK``): the counters of ``bdNN__setK.counters.csv`` become
hexwx :class:`~hexwx.lineofsight.counters.Counters` (a piece VASL's metadata does not know and
hexwx's catalogue does not either is a vehicle, as the set file says; a location marker under a
counter sets its level, as the rules place SMOKE inside a building Location), and every pair of
``bdNN__setK.csv.gz`` is answered with them and, for ``.nocounters.csv.gz``, without.

Scored: the pairs where hexwx and VASL agree without counters (blocked, and hindrance when
clear), so that what differs is the counters.  Agreement on blocked and on the hindrance total
is given for all of those and for the pairs whose counters VASL applies by the rules (no smoke
at an upper Location or in an end hex with ends at different levels, no vehicle or wreck, no
FFE, no nationality or labelled counter VASL reads as a vehicle, no terrain counter, no burning
wreck).  Every difference is put under one cause (:func:`cause`), with an example.

Used by ``tools/vasl_conformance.py --counters``.
"""
from __future__ import annotations

import csv
import gzip
from collections import Counter as Tally, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from hexwx.errors import UsageError
from hexwx.io.load import load_map
from hexwx.lineofsight.batch import los_pairs
from hexwx.lineofsight.counter_los import prepare
from hexwx.lineofsight.counters import Counter, Counters, counter_type
from hexwx.lineofsight.engine import los

#: Causes of a difference, in the order they are tested (docs/vasl-conformance.md).
CAUSES = (
    "VASL: entrenchment makes the whole hex open ground (hexwx: B27, terrain unchanged)",
    "VASL: rubble replaces the hex's hexside terrain too / terrain counter",
    "VASL: FFE, nationality or labelled SMOKE read as a vehicle (hexwx: C1 / A24)",
    "VASL: vehicle or wreck only with a LOS to it from both ends, at its centre (hexwx: D9)",
    "VASL: a vehicle that has moved is no hindrance (hexwx: D9, it still is)",
    "VASL: burning wreck / Blaze with a vehicle",
    "VASL: SMOKE at ground level under a Building Level marker (hexwx: A24, in that Location)",
    "VASL: target-hex SMOKE tested against the source's level",
    "VASL: SMOKE in an end hex (firer +1, ends at its top)",
    "VASL: several SMOKE counters of one hex added up to 3 (hexwx: the largest, A24)",
    "VASL: SMOKE in several hexes of one range / per-hex cap 3",
    "SMOKE between the ends: VASL's blind-hex test of SMOKE (VASL issue #1179) / blind zone (A6.4)",
    "OBA blast area",
    "other",
)


def read_set(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def set_counters(rows: list[dict[str, str]]) -> tuple[Counters, dict[str, list[dict[str, str]]]]:
    """The set's counters as hexwx reads them, and the rows by hex."""
    stacks: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        if r["stack"]:
            stacks[r["stack"]].append(r)
    out: list[Counter] = []
    by_hex: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        by_hex[r["hex"]].append(r)
        name = r["name"].strip()
        try:
            t = counter_type(name)
        except UsageError:
            name = f"vehicle:{name}"          # the set file's vehicles (VASL: not in metadata)
            t = counter_type(name)
        level = 0
        if r["stack"] and t.hinders:
            below = sorted(stacks[r["stack"]], key=lambda x: int(x["stack_index"]))
            for other in below[:int(r["stack_index"])][::-1]:
                try:
                    ot = counter_type(other["name"].strip())
                except UsageError:
                    continue
                if ot.kind == "location" and ot.level:
                    level = ot.level
                    break
        side = int(r["pos"][1]) if r["pos"].startswith("h") and t.kind in ("vehicle", "wreck") else None
        out.append(Counter(name, r["hex"], level, side))
    return Counters(tuple(out)), by_hex


def _known_hindrance(name: str) -> bool:
    """Whether hexwx's catalogue reads ``name`` as SMOKE or OBA (VASL: a vehicle)."""
    try:
        return counter_type(name.strip()).kind in ("smoke", "blaze", "oba")
    except UsageError:
        return False


def _int(v: str) -> int:
    return int(v) if v not in ("", None) else 0


def _hexes(field: str) -> dict[str, int]:
    return {k: int(v) for k, v in (x.split(":") for x in field.split(";") if x)}


def cause(row: dict[str, str], res: Any, by_hex: dict[str, list[dict[str, str]]],
          counters: Counters) -> str:
    """The cause of one difference between VASL's answer ``row`` and hexwx's ``res``."""
    src, tgt = row["src"], row["tgt"]
    kinds = {c.hex: [] for c in counters}
    for c in counters:
        kinds[c.hex].append(c)
    meta_rows = [r for rs in by_hex.values() for r in rs]
    if any(r["metadata_type"] == "ENTRENCHMENT" or "entrenchment" in r["applied_as"]
           for r in meta_rows) and row["blocked"] != str(int(res.blocked)):
        return CAUSES[0]
    if any(r["metadata_type"] == "TERRAIN" for r in meta_rows) and \
            row["blocked"] != str(int(res.blocked)):
        return CAUSES[1]
    v_veh = _hexes(row.get("vehicle_hexes", ""))
    h_veh = {h.hex for h in res.hindrances if h.kind in ("vehicle", "wreck")}
    h_smoke = {h.hex: h.drm for h in res.hindrances if h.kind in ("smoke", "blaze")}
    h_oba = {h.hex for h in res.hindrances if h.kind == "oba"}
    as_vehicle = {r["hex"]: r["name"].strip() for rs in by_hex.values() for r in rs
                  if r["applied_as"] == "vehicle" and _known_hindrance(r["name"])}
    named = {h.name for h in res.hindrances if h.name}
    if set(as_vehicle) & (set(v_veh) | {src, tgt}) or \
            {counter_type(n).name for n in as_vehicle.values()} & named:
        return CAUSES[2]
    if any("Moved" in r["props"] for rs in by_hex.values() for r in rs
           if r["hex"] in h_veh):
        return CAUSES[4]
    blaze_on_vehicle = [hx for hx, cs in kinds.items() if any(c.kind == "blaze" for c in cs)
                        and any(c.kind in ("vehicle", "wreck") for c in cs)]
    if any(hx in v_veh or hx in h_smoke or hx in h_veh for hx in blaze_on_vehicle):
        return CAUSES[5]
    if set(v_veh) != h_veh:
        return CAUSES[3]
    upper = {c.hex for c in counters if c.level > 0 and c.type.hinders}
    v_smoke = _hexes(row.get("smoke_hexes", ""))
    if upper & (set(v_smoke) | set(h_smoke)):
        return CAUSES[6]
    several = {hx for hx, cs in kinds.items()
               if sum(c.kind in ("smoke", "blaze") for c in cs) > 1}
    if several & (set(v_smoke) | set(h_smoke)) and v_smoke != h_smoke:
        return CAUSES[9]
    if tgt in v_smoke or tgt in h_smoke:
        if row["src_level"] != row["tgt_level"] and (tgt in v_smoke) != (tgt in h_smoke):
            return CAUSES[7]
    if src in v_smoke or src in h_smoke or tgt in v_smoke or tgt in h_smoke:
        if v_smoke.get(src) != h_smoke.get(src) or v_smoke.get(tgt) != h_smoke.get(tgt):
            return CAUSES[8]
    if set(v_smoke) == set(h_smoke) and v_smoke != h_smoke or \
            (set(v_smoke) >= set(h_smoke) and len(row.get("smoke_by_range", "").split(";"))
             < len(v_smoke)):
        return CAUSES[10]
    if set(v_smoke) != set(h_smoke):
        return CAUSES[11]
    if bool(row.get("oba")) != bool(h_oba):
        return CAUSES[12]
    return CAUSES[13]


def compare_set(vasl_dir: Path, stem: str) -> dict[str, Any]:
    """Agreement figures and differences by cause for one counter set."""
    board = stem.split("__")[0]
    m = load_map(vasl_dir / "boards" / board, vasl_metadata=vasl_dir / "SharedBoardMetadata.xml")
    base = vasl_dir / "counters"
    counters, by_hex = set_counters(read_set(base / f"{stem}.counters.csv"))
    with gzip.open(base / f"{stem}.csv.gz", "rt", newline="") as fh:
        rows = list(csv.DictReader(fh))
    with gzip.open(base / f"{stem}.nocounters.csv.gz", "rt", newline="") as fh:
        bare_rows = list(csv.DictReader(fh))
    rubbled = prepare(m, counters)
    tops = {}
    if rubbled is not None:
        mm = rubbled.map
        tops = {n: mm.levels_at(h)[-1] for h, n in enumerate(mm.grid.names())}
    gone = [i for i, r in enumerate(rows) if tops and
            (int(r["src_level"]) > tops[r["src"]] or int(r["tgt_level"]) > tops[r["tgt"]])]
    keep = sorted(set(range(len(rows))) - set(gone))   # a rubbled building has no upper levels
    rows = [rows[i] for i in keep]
    bare_rows = [bare_rows[i] for i in keep]
    src = [r["src"] for r in rows]
    tgt = [r["tgt"] for r in rows]
    sl = np.array([int(r["src_level"]) for r in rows])
    tl = np.array([int(r["tgt_level"]) for r in rows])
    bare = los_pairs(m, src, tgt, sl, tl)
    got = los_pairs(m, src, tgt, sl, tl, counters=counters)
    ok_rows = [i for i, (r, b) in enumerate(zip(rows, bare_rows))
               if r["blocked"] in "01" and b["blocked"] in "01"
               and int(b["blocked"]) == int(bare.blocked[i])
               and (b["blocked"] == "1" or _int(b["hindrance"]) == int(bare.hindrance[i]))]
    agree_b = agree_h = clear = 0
    rule_rows = rule_b = rule_h = 0
    causes: Tally[str] = Tally()
    example: dict[str, str] = {}
    for i in ok_rows:
        r = rows[i]
        vb = r["blocked"] == "1"
        hb = bool(got.blocked[i])
        same = vb == hb and (vb or _int(r["hindrance"]) == int(got.hindrance[i]))
        agree_b += vb == hb
        if not vb and not hb:
            clear += 1
            agree_h += _int(r["hindrance"]) == int(got.hindrance[i])
        res = None
        why = None
        if not same:
            res = los(m, r["src"], r["tgt"], from_level=int(r["src_level"]),
                      to_level=int(r["tgt_level"]), counters=counters)
            why = cause(r, res, by_hex, counters)
            causes[why] += 1
            example.setdefault(why, f"{r['src']}:{r['src_level']} -> {r['tgt']}:{r['tgt_level']}"
                                    f" VASL {'blocked' if vb else '+' + r['hindrance']}"
                                    f" (smoke {r['smoke_hexes'] or '-'}, vehicle "
                                    f"{r['vehicle_hexes'] or '-'}), hexwx "
                                    f"{'blocked' if hb else '+' + str(int(got.hindrance[i]))}")
        if why is None or why in CAUSES[11:]:
            rule_rows += 1
            rule_b += vb == hb
            rule_h += same
    return {"set": stem, "counters": len(counters), "pairs": len(rows), "scored": len(ok_rows),
            "rubbled_levels": len(gone),
            "agree_blocked": agree_b, "clear_both": clear, "agree_hindrance": agree_h,
            "rule_rows": rule_rows, "rule_blocked": rule_b, "rule_same": rule_h,
            "causes": causes, "examples": example}


def counter_sets(vasl_dir: Path, boards: list[str] | None = None) -> list[str]:
    stems = sorted(p.name[:-len(".counters.csv")] for p in (vasl_dir / "counters").glob("*.counters.csv"))
    return [s for s in stems if not boards or s.split("__")[0] in boards]


def report(vasl_dir: Path, boards: list[str] | None = None) -> int:
    """Print the agreement per set, the totals and the differences by cause."""
    total: Tally[str] = Tally()
    examples: dict[str, str] = {}
    sums = Tally()
    print("set            counters  scored  blocked agree  hindrance agree (clear both)  "
          "by the rules: same")
    for stem in counter_sets(vasl_dir, boards):
        r = compare_set(vasl_dir, stem)
        for k in ("scored", "agree_blocked", "clear_both", "agree_hindrance", "rule_rows",
                  "rule_same", "rubbled_levels"):
            sums[k] += r[k]
        total.update(r["causes"])
        for k, v in r["examples"].items():
            examples.setdefault(k, f"{stem}: {v}")
        print(f"{stem:14s} {r['counters']:8d} {r['scored']:7d} {r['agree_blocked']:7d} "
              f"{100 * r['agree_blocked'] / max(r['scored'], 1):5.1f}%  {r['agree_hindrance']:6d} of "
              f"{r['clear_both']:5d} {100 * r['agree_hindrance'] / max(r['clear_both'], 1):5.1f}%   "
              f"{r['rule_same']:6d} of {r['rule_rows']:5d} "
              f"{100 * r['rule_same'] / max(r['rule_rows'], 1):5.1f}%")
    print(f"{'all':14s} {'':8s} {sums['scored']:7d} {sums['agree_blocked']:7d} "
          f"{100 * sums['agree_blocked'] / max(sums['scored'], 1):5.1f}%  "
          f"{sums['agree_hindrance']:6d} of {sums['clear_both']:5d} "
          f"{100 * sums['agree_hindrance'] / max(sums['clear_both'], 1):5.1f}%   "
          f"{sums['rule_same']:6d} of {sums['rule_rows']:5d} "
          f"{100 * sums['rule_same'] / max(sums['rule_rows'], 1):5.1f}%")
    if sums["rubbled_levels"]:
        print(f"not scored: {sums['rubbled_levels']} pairs at an upper level of a rubbled "
              f"building (B24: no such Location; VASL keeps it)")
    print("\ndifferences by cause:")
    for c in CAUSES:
        if total[c]:
            print(f"  {total[c]:6d}  {c}\n          e.g. {examples[c]}")
    return 0
