"""``hexwx serve``: the map in the browser (click two hexes for their LOS) and its JSON API."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from hexwx.errors import UsageError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve",
        description="Serve MAP (hexwx map or VASL board archive), a hex SCENARIO or a tabletop "
                    "scenario as a web page on this machine: click a hex (and its level) and "
                    "another for the LOS with every hindrance, weather panel, viewshed, "
                    "exposure heat map, path and reach; units of scenarios; tabletop sight by "
                    "turn.  The page's JSON API (/api/los?from=A7&to=N7 ...) answers exactly as "
                    "the commands do.  See docs/viewer.md.",
        epilog="examples:\n  hexwx serve maps/hill_village.toml --open\n"
               "  hexwx serve bd02 --port 8765\n  hexwx serve scenarios/fog_on_the_hill.toml\n"
               "  curl 'http://127.0.0.1:8765/api/los?from=A7&to=N7&fog=0'",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", metavar="MAP|SCENARIO|SAVE",
                   help="hexwx map, VASL board archive, board name (bd02) or layout (\"r05/r02\"), "
                        "hex scenario, table scenario or VASL save")
    p.add_argument("--port", type=int, default=8765, metavar="N",
                   help="TCP port (default 8765; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", metavar="H",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--verbose", action="store_true", help="log every request to stderr")
    from hexwx.cli.counter_opts import add_counter_options
    from hexwx.cli.hex import add_map_options
    add_map_options(p)
    add_counter_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hexwx.serve.server import make_server
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0-65535, got {args.port}")
    from hexwx.lineofsight.counters import parse_counter
    counters = [parse_counter(t) for t in args.counter]
    try:
        server = make_server(args.source, host=args.host, port=args.port,
                             vasl_metadata=args.vasl_metadata, vasl_dir=args.vasl_dir,
                             ssr=tuple(args.ssr or ()), verbose=args.verbose, warm=True,
                             counters=counters, no_counters=args.no_counters)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    print(f"hexwx serve: {server.url}  ({server.session.kind} {args.source}; Ctrl-C stops)",
          flush=True)
    if args.open:
        import webbrowser
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("hexwx serve: stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
