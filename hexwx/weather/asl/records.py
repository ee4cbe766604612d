"""What the E3 weather procedures log: each chart roll with its result and rule, and events."""
from __future__ import annotations

from dataclasses import dataclass

from hexwx.dice import Roll

# -------------------------------------------------------------------------------------------
# logged rolls and events
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRoll:
    """One roll on a chart: the dice, any drm, the final number, what it gave, and the rule."""

    purpose: str
    dice: tuple[int, ...]
    drm: int
    final: int
    result: str
    rule: str

    def __str__(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        raw = sum(self.dice)
        shown = f"{faces}={raw}" if len(self.dice) > 1 else faces
        if self.drm:
            shown += f" {self.drm:+d} = {self.final}"
        return f"{self.purpose}: {shown} -> {self.result} ({self.rule})"

    def to_json(self) -> dict[str, object]:
        return {"purpose": self.purpose, "dice": list(self.dice), "drm": self.drm,
                "final": self.final, "result": self.result, "rule": self.rule}


def chart_roll(roll: Roll, result: str, rule: str, drm: int = 0, final: int | None = None) -> ChartRoll:
    return ChartRoll(roll.purpose, roll.dice, drm, roll.total + drm if final is None else final,
                     result, rule)


@dataclass(frozen=True)
class WeatherEvent:
    """Something the weather did at a moment of play, with its rule."""

    turn: int
    player_turn: int
    text: str
    rule: str

    def __str__(self) -> str:
        return f"turn {self.turn}.{self.player_turn}: {self.text} ({self.rule})"

    def to_json(self) -> dict[str, object]:
        return {"turn": self.turn, "player_turn": self.player_turn, "text": self.text,
                "rule": self.rule}
