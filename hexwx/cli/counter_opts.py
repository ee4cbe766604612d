"""``--counter NAME@HEX[:LEVEL]`` and ``--no-counters``: the counters a map command answers with.

The counters come from the scenario (its ``[[counters]]`` and its vehicles, D9) or from a VASL
save given as MAP (its LOS counters and vehicles, :mod:`hexwx.io.vsav_pieces`), then every
``--counter``.  ``--no-counters`` answers as the bare map.  Names, hexes and levels are checked
against the map here, so a bad counter is a one-line usage error before any work.
"""
from __future__ import annotations

import argparse
from typing import Any

from hexwx.errors import UsageError


def add_counter_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--counter", action="append", default=[], metavar="NAME@HEX[:LEVEL]",
                   help="a counter on the map, by the name VASL's piece carries ('White +3 "
                        "Smoke@I4', 'Burnt Out Wreck@K5', 'Stone Rubble@M2', 'vehicle:T-34@F3', "
                        "'Blaze@M2:1' inside level 1; '@HEX/S' in bypass at hexside S); "
                        "repeatable, added to a scenario's or save's counters (docs/counters.md)")
    p.add_argument("--no-counters", action="store_true",
                   help="answer as the bare map: no counters from the scenario, the save or "
                        "--counter")


def counters_from_args(args: argparse.Namespace, m: Any, *, scenario: Any = None,
                       source: Any = None) -> Any:
    """The :class:`~hexwx.lineofsight.counters.Counters` of a command: the scenario's (or the
    save's when ``source`` is a VASL save), then ``--counter``; none with ``--no-counters``.
    UsageError naming a bad counter."""
    from hexwx.lineofsight.counter_los import prepare
    from hexwx.lineofsight.counters import Counters, parse_counter
    given = list(getattr(args, "counter", None) or [])
    if getattr(args, "no_counters", False):
        if given:
            raise UsageError("--no-counters answers as the bare map: leave out --counter")
        return Counters()
    items: list[Any] = []
    if scenario is not None:
        items += scenario.los_counters
    elif source is not None and str(source).lower().endswith(".vsav"):
        from hexwx.io.vsav import is_vasl_save   # (not imported for other maps: start-up)
        if is_vasl_save(source):
            from hexwx.io.vsav_import import save_los_counters
            items += save_los_counters(source, m)
    try:
        items += [parse_counter(t) for t in given]
        counters = Counters(tuple(items))
        prepare(m, counters)
    except UsageError as exc:
        raise UsageError(f"--counter: {exc}") from None
    return counters
