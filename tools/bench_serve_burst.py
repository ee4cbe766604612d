#!/usr/bin/env python3
"""Bursts of simultaneous connections to the viewer's server (issue #25 S1: target 200 at once,
all answered, p99 <= 1 s on ``/api/los``).

    python tools/bench_serve_burst.py                        # 200 connections, 5 bursts
    python tools/bench_serve_burst.py --connections 500 --bursts 3 --source bd02

Starts ``hexwx serve SOURCE`` on 127.0.0.1 (in this process, as the tests do), asks one LOS
question to load the map, then opens N connections at once (a thread each, released together),
each asking ``/api/los``; prints the answered count and the median, p99 and slowest answer of
each burst.  Needs ``$HEXWX_VASL_DIR`` for VASL boards.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "serve"))
sys.path.insert(0, str(ROOT))


def main() -> int:
    from serve_helpers import burst, get, running
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", default=str(ROOT / "maps" / "hill_village.toml"))
    ap.add_argument("--connections", type=int, default=200)
    ap.add_argument("--bursts", type=int, default=5)
    ap.add_argument("--query", default="/api/los?from=A7&to=N7")
    args = ap.parse_args()
    with running(args.source) as srv:
        host, port = srv.server_address[:2]
        if get(srv, args.query)[0] != 200:
            print(f"{args.query}: not answered", file=sys.stderr)
            return 1
        for i in range(args.bursts):
            times = burst(host, port, args.connections, args.query)
            ok = sorted(t for t in times if t is not None)
            p99 = ok[max(0, int(0.99 * len(ok)) - 1)] if ok else float("nan")
            print(f"burst {i + 1}: {len(ok)}/{args.connections} answered; median "
                  f"{statistics.median(ok) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
                  f"slowest {ok[-1] * 1000:.0f} ms" if ok else "none answered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
