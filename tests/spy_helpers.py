"""A spy for the tests that count work: how often a function runs, and on what."""
from __future__ import annotations

from typing import Any

import pytest


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Wrap ``owner.name`` (the real one still runs): the list gets each call's first
    argument (None for a call without one), so its length counts the calls."""
    calls: list[Any] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, spy)
    return calls
