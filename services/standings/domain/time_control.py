"""A tournament's time control, as the pages and the TRF export write it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TimeControl:
    base_seconds: int
    increment_seconds: int = 0
    days_per_move: int | None = None

    def label(self) -> str:
        """``3+2`` (minutes + seconds), or ``2 days/move``."""
        if self.days_per_move:
            return f"{self.days_per_move} days/move"
        return f"{self.base_seconds / 60:g}+{self.increment_seconds}"

    def trf(self) -> str:
        """TRF-2026 record 222: ``180+2`` (seconds); empty for correspondence."""
        return "" if self.days_per_move else f"{self.base_seconds}+{self.increment_seconds}"
