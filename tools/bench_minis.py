"""Benchmark the miniatures weather: numpy Monte Carlo, single-game model, exact odds.

    python tools/bench_minis.py [--games 100000] [--turns 12]
    python tools/bench_minis.py --orders [--repeat 5]

Target (issue 6): 100,000 games of 12 turns in at most 10 s per rule set on 2 cores.
``--orders`` times the Huzzah! tabletop answers on scenarios/table_huzzah_fog_lifts.toml
instead: every charge, every unit's and side's advance and retire, every fire answer of the
first and last turns (fog, then clear); and ten fire answers of a firer with nine enemies in
front, none at short range (p.11's choice of a target at short range).
"""
from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from hexwx.dice import Dice
from hexwx.weather.minis.common import exact_distribution, frequencies
from hexwx.weather.minis.common import run_minis_weather as run_weather
from hexwx.weather.minis.registry import RULE_NAMES as RULES

if TYPE_CHECKING:
    from hexwx.tabletop.model import TableTop

HUZZAH = {"weather": "dense fog", "ground": "soft", "changes": {4: {"weather": "clear"}}}


def best_of(repeat: int, fn: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def _rival_table() -> "TableTop":
    """An infantry firer F facing a row of nine enemy units 14 cm ahead, 9 cm apart: the one
    straight ahead (E4) at long range (Huzzah! p.11-12: 20 cm, short under 10), the others at
    long range or out of range, so none is a rival at short range."""
    from hexwx.tabletop.model import TableTop, Unit, arrange_bases
    units = [Unit("F", "a", "infantry", "line", 0.0, arrange_bases("F", 100, 100, 2, 4, 4, 0.0,
                                                                   "line"))]
    for i in range(9):
        units.append(Unit(f"E{i}", "b", "infantry", "line", 180.0,
                          arrange_bases(f"E{i}", 64 + 9 * i, 116, 1, 4, 4, 180.0, "line")))
    return TableTop(300.0, 300.0, "cm", (), tuple(units))


def bench_orders(repeat: int) -> None:
    """Best-of-``repeat`` times of the Huzzah! order and fire answers on the example table."""
    from itertools import permutations
    from pathlib import Path

    from hexwx.io.table_scenario import load_table_scenario
    from hexwx.tabletop.fire import fire_answer
    from hexwx.tabletop.orders import charge, group_moves

    sc = load_table_scenario(Path(__file__).resolve().parents[1] / "scenarios"
                             / "table_huzzah_fog_lifts.toml")
    t = sc.table
    ids = [u.id for u in t.units]
    pairs = list(permutations(ids, 2))
    sides: dict[str, list[str]] = {}
    for u in t.units:
        sides.setdefault(u.side, []).append(u.id)
    groups = [[u] for u in ids] + list(sides.values())
    cases = {
        f"charge ({len(pairs)} pairs)": lambda: [charge(t, a, b) for a, b in pairs],
        f"group_moves ({len(groups)} groups x 2 orders)":
            lambda: [group_moves(t, g, o) for g in groups for o in ("advance", "retire")],
        f"fire_answer ({len(pairs)} pairs, turns 1, {sc.turns})":
            lambda: [sc.fire(a, b, turn) for a, b in pairs for turn in (1, sc.turns)],
    }
    rivals = _rival_table()
    cases["fire_answer x10, 8 rivals, none short"] = lambda: [
        fire_answer(rivals, "F", "E4", rules="huzzah") for _ in range(10)]
    for name, fn in cases.items():
        print(f"{name:<42} {best_of(repeat, fn) * 1000:9.1f} ms")
    print(f"(best of {repeat})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--single", type=int, default=2_000, help="games for the per-game model")
    parser.add_argument("--orders", action="store_true",
                        help="time the Huzzah! tabletop orders and fire answers instead")
    parser.add_argument("--repeat", type=int, default=5, help="--orders: best of this many")
    args = parser.parse_args()
    if args.orders:
        bench_orders(args.repeat)
        return
    print(f"{'rules':<11} {'numpy MC':>10} {'games/s':>12} {'per-game model':>16} "
          f"{'exact odds':>11}")
    for rules in RULES:
        opts = HUZZAH if rules == "huzzah" else {}
        mc = best_of(3, lambda: frequencies(rules, args.games, args.turns, seed=1, **opts))
        single = best_of(1, lambda: [run_weather(rules, args.turns, dice=Dice(seed=s), **opts)
                                     for s in range(args.single)])
        exact = best_of(1, lambda: exact_distribution(rules, args.turns, **opts))
        print(f"{rules:<11} {mc:>9.3f}s {args.games / mc:>12,.0f} "
              f"{single / args.single * args.games:>15.1f}s {exact:>10.2f}s")
    print(f"({args.games:,} games x {args.turns} turns; numpy MC best of 3; per-game model "
          f"timed on {args.single:,} games and scaled; exact odds of every turn enumerated)")


if __name__ == "__main__":
    main()
