"""Time controls and the knockout tie-break plan, one definition for every service (RULES.md §4).

Pure values: the clocks service adds its limits and millisecond arithmetic on top; events carry the
same fields as pydantic models (``shared.events.TimeControl``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

MAX_BASE_SECONDS: Final = 6 * 3600
MAX_INCREMENT_SECONDS: Final = 600
MAX_DAYS_PER_MOVE: Final = 60


def label(base_seconds: int, increment_seconds: int, days_per_move: int | None) -> str:
    """``15+10`` (minutes + seconds), or ``2d/move`` for correspondence."""
    if days_per_move:
        return f"{days_per_move}d/move"
    return f"{base_seconds / 60:g}+{increment_seconds}"


@dataclass(frozen=True, slots=True)
class RateOfPlay:
    """A time control (the seeds' *Bedenkzeit*; FIDE's "rate of play"): Fischer ``base + increment``
    (sudden death: no increment), or ``days_per_move`` (correspondence). On the wire it is
    ``shared.events.TimeControl``, whose name the published event schema keeps."""

    base_seconds: int
    increment_seconds: int = 0
    days_per_move: int | None = None

    def label(self) -> str:
        return label(self.base_seconds, self.increment_seconds, self.days_per_move)

    def problem(self) -> str | None:
        """Why no game can be played with this time control, or None when one can."""
        if self.days_per_move is not None:
            if not 1 <= self.days_per_move <= MAX_DAYS_PER_MOVE:
                return f"days per move must be 1–{MAX_DAYS_PER_MOVE}, got {self.days_per_move}"
            return None
        if not 0 <= self.base_seconds <= MAX_BASE_SECONDS:
            return f"base time must be 0–{MAX_BASE_SECONDS} s"
        if not 0 <= self.increment_seconds <= MAX_INCREMENT_SECONDS:
            return f"the increment must be 0–{MAX_INCREMENT_SECONDS} s"
        if self.base_seconds == 0 and self.increment_seconds == 0:
            return "a time control needs base time or an increment"
        return None

    def trf(self) -> str:
        """TRF-2026 record 222: ``180+2`` (seconds); empty for correspondence."""
        return "" if self.days_per_move else f"{self.base_seconds}+{self.increment_seconds}"


@dataclass(frozen=True, slots=True)
class Stage:
    """A tie-break stage: ``games`` games at ``time_control``."""

    games: int
    time_control: RateOfPlay


@dataclass(frozen=True, slots=True)
class TieBreakSchedule:
    """What a level knockout match plays after its regular games: the stages in order, then one
    sudden-death game (the seed's *Tiebreak-Plan*; on the wire ``shared.events.TieBreakPlan``)."""

    stages: tuple[Stage, ...]
    sudden_death: RateOfPlay

    def to_dict(self) -> dict[str, Any]:
        return {
            "stages": [{"games": s.games, "time_control": clock_dict(s.time_control)} for s in self.stages],
            "sudden_death": clock_dict(self.sudden_death),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TieBreakSchedule:
        return cls(
            tuple(Stage(s["games"], RateOfPlay(**s["time_control"])) for s in data["stages"]),
            RateOfPlay(**data["sudden_death"]),
        )


def clock_dict(tc: RateOfPlay) -> dict[str, int]:
    """A tie-break time control as plain data: base + increment, in seconds."""
    return {"base_seconds": tc.base_seconds, "increment_seconds": tc.increment_seconds}


DEFAULT_PLAN: Final = TieBreakSchedule(
    (Stage(2, RateOfPlay(15 * 60, 10)), Stage(2, RateOfPlay(5 * 60, 3))), RateOfPlay(3 * 60, 2)
)
