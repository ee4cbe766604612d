"""Seeded dice that record every roll with its purpose (DESIGN principle 4).

ASL names: a *dr* is one die, a *DR* two dice.  Miniatures rules throw 1D6, 2D6 or both.
A :class:`Dice` is reproducible from its seed, or scripted with fixed values for tests, and its
:attr:`Dice.log` lists every :class:`Roll` in order.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from hexwx.validate import whole
from hexwx.errors import UsageError


#: Seeds are 64-bit signed integers.
SEED_MIN, SEED_MAX = -(2 ** 63), 2 ** 63 - 1


def seed_int(seed: int) -> int:
    """The non-negative integer that seeds the generators for ``seed`` (UsageError if bad).

    Python's and numpy's generators ignore the sign of an int seed (or refuse it), so -7 and 7
    would give the same game: a negative seed ``s`` maps to ``2**64 - s`` instead, above every
    non-negative seed; non-negative seeds are used as they are (runs repeat as before).
    """
    seed = whole(seed, "seed", SEED_MIN, SEED_MAX,
                 expected=f"a whole number from {SEED_MIN} to {SEED_MAX}")
    return seed if seed >= 0 else 2 ** 64 - seed


@dataclass(frozen=True)
class Roll:
    """One throw of one or more six-sided dice, with why it was thrown."""

    purpose: str
    dice: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def is_double(self) -> bool:
        """True for two (or more) dice all showing the same number."""
        return len(self.dice) >= 2 and len(set(self.dice)) == 1

    def __str__(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        shown = f"{faces}={self.total}" if len(self.dice) > 1 else faces
        return f"{self.purpose}: {shown}"


@dataclass
class Dice:
    """Six-sided dice driven by a seed, or by a script of fixed face values.

    ``Dice(seed=7)`` is reproducible; ``Dice.scripted([3, 4, 6])`` returns exactly those faces
    in order and raises :class:`UsageError` when the script runs out.
    """

    seed: int | None = None
    log: list[Roll] = field(default_factory=list)
    _script: Iterator[int] | None = field(default=None, repr=False)
    _rng: random.Random = field(init=False, repr=False)

    def __repr__(self) -> str:
        return f"Dice(seed={self.seed!r}, {len(self.log)} rolls)"

    def __post_init__(self) -> None:
        self._rng = random.Random(None if self.seed is None else seed_int(self.seed))

    @classmethod
    def scripted(cls, faces: Iterable[int]) -> "Dice":
        faces = list(faces)
        bad = [f for f in faces if not isinstance(f, int) or not 1 <= f <= 6]
        if bad:
            raise UsageError(f"scripted dice faces must be whole numbers 1-6, got {bad!r}")
        dice = cls(seed=None)
        dice._script = iter(faces)
        return dice

    def _face(self, purpose: str) -> int:
        if self._script is None:
            return self._rng.randint(1, 6)
        try:
            return next(self._script)
        except StopIteration:
            raise UsageError(f"scripted dice ran out of faces at roll for {purpose!r}") from None

    def roll(self, n: int, purpose: str) -> Roll:
        """Throw ``n`` dice for ``purpose``; record and return the :class:`Roll`."""
        if n < 1:
            raise UsageError(f"number of dice must be at least 1, got {n}")
        r = Roll(purpose, tuple(self._face(purpose) for _ in range(n)))
        self.log.append(r)
        return r

    def dr(self, purpose: str) -> int:
        """One die (ASL *dr*); returns its face."""
        return self.roll(1, purpose).total

    def DR(self, purpose: str) -> Roll:  # noqa: N802 - ASL's own name for a two-dice roll
        """Two dice (ASL *DR*); returns the :class:`Roll` (``.total``, ``.dice``, ``.is_double``)."""
        return self.roll(2, purpose)

    def format_log(self) -> str:
        """The log as text, one roll a line."""
        return "\n".join(str(r) for r in self.log)

    def log_as_json(self) -> list[dict[str, object]]:
        return [{"purpose": r.purpose, "dice": list(r.dice), "total": r.total} for r in self.log]
