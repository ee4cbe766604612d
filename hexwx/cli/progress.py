"""A one-line progress bar on stderr for long commands.

Shown only when stderr is a terminal, only once a run has taken ``delay`` seconds (2 s), and
never with ``--quiet``; piped or redirected output stays clean.
"""
from __future__ import annotations

import sys
import time
from typing import IO


class Progress:
    """``update(done)`` as work advances; ``close()`` clears the line."""

    def __init__(self, total: int, label: str, *, quiet: bool = False, delay: float = 2.0,
                 stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(int(total), 1)
        self.label = label
        self.enabled = not quiet and bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self.delay = delay
        self.shown = False
        self._last = 0.0

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or now - self._last < 0.2:
            return
        self._last = now
        frac = min(done / self.total, 1.0)
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        bar = "#" * int(30 * frac)
        self.stream.write(f"\r{self.label} [{bar:<30}] {100 * frac:5.1f}%  "
                          f"{elapsed:.0f} s, ~{eta:.0f} s left ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()
            self.shown = False
