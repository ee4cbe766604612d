"""The exceptions hexwx raises.

Every error is a :class:`HexwxError`.  Errors about input (files, keys, hex ids, options) also
subclass :class:`ValueError`.  Messages are lower-case, quote the offending input and say what
was expected; the CLI prints them on one line.
"""
from __future__ import annotations


class HexwxError(Exception):
    """Base class of every hexwx error.  ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class DataError(HexwxError, ValueError):
    """Bad data in a file (map, scenario, archive): the message names the file and key."""

    exit_code = 1


class UsageError(HexwxError, ValueError):
    """A bad argument to a command or function: unknown hex id, level, unit class, option."""

    exit_code = 2

