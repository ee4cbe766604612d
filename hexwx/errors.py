"""The exceptions hexwx raises.

Every error is a :class:`HexwxError`.  Errors about input (files, keys, hex ids, options) also
subclass :class:`ValueError`.  Messages are lower-case, quote the offending input and say what
was expected; the CLI prints them on one line.
"""
from __future__ import annotations


class HexwxError(Exception):
    """Base class of every hexwx error.  ``exit_code`` is what the CLI exits with; ``param``
    names the function parameter a bad argument was given for (``from_level``), when there is
    one, so that a front end can name its own option instead (the CLI: ``--from-level``)."""

    exit_code = 1

    def __init__(self, *args: object, param: str | None = None) -> None:
        super().__init__(*args)
        self.param = param


class DataError(HexwxError, ValueError):
    """Bad data in a file (map, scenario, archive): the message names the file and key."""

    exit_code = 1


class UsageError(HexwxError, ValueError):
    """A bad argument to a command or function: unknown hex id, level, unit class, option."""

    exit_code = 2

