"""Time-control categories: a rating is kept per variant and per category."""

from __future__ import annotations

from enum import StrEnum


class Speed(StrEnum):
    ULTRABULLET = "ultrabullet"
    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"


def speed_of(base_seconds: int, increment_seconds: int, days_per_move: int | None = None) -> Speed:
    """By the estimated game duration, base + 40 × increment (the online platforms' convention)."""
    if days_per_move:
        return Speed.CORRESPONDENCE
    estimate = base_seconds + 40 * increment_seconds
    if estimate < 30:
        return Speed.ULTRABULLET
    if estimate < 180:
        return Speed.BULLET
    if estimate < 480:
        return Speed.BLITZ
    if estimate < 1500:
        return Speed.RAPID
    return Speed.CLASSICAL


def rating_key(variant: str, speed: Speed) -> str:
    return f"{variant}:{speed.value}"
