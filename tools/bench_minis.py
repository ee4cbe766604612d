"""Benchmark the miniatures weather: numpy Monte Carlo, single-game model, exact odds.

    python tools/bench_minis.py [--games 100000] [--turns 12]

Target (issue 6): 100,000 games of 12 turns in at most 10 s per rule set on 2 cores.
"""
from __future__ import annotations

import argparse
import time

from hexwx.dice import Dice
from hexwx.weather.minis.common import RULES, exact_distribution, frequencies, run_weather

HUZZAH = {"weather": "dense fog", "ground": "soft", "changes": {4: {"weather": "clear"}}}


def best_of(repeat: int, fn: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--single", type=int, default=2_000, help="games for the per-game model")
    args = parser.parse_args()
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
