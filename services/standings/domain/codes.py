"""Tie-break codes: parsing and validation of an organiser's ordered list.

Codes follow C.07's acronyms with modifiers after ``-`` (``/`` is accepted as well, as TRF-2026 and
TieBreakServer write them): ``BH-C1`` (cut the least significant value), ``BH-M1`` (median: cut the
least and the most significant), ``DE-P`` (forfeits count as played games). Output is always spelled
with ``-``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["CODES", "Direction", "TieBreak", "TieBreakCodeError", "parse_code", "parse_codes"]


class TieBreakCodeError(ValueError):
    """An unknown or malformed tie-break code; the message names it."""


class Direction(StrEnum):
    HIGHER_FIRST = "desc"
    LOWER_FIRST = "asc"


@dataclass(frozen=True, slots=True)
class _Kind:
    name: str
    title: str
    article: str
    modifiers: str  # letters allowed: C (cut), M (median), P (forfeits as played)
    direction: Direction = Direction.HIGHER_FIRST


CODES: dict[str, _Kind] = {
    k.name: k
    for k in (
        _Kind("PTS", "points", "C.07 5", ""),
        _Kind("BH", "Buchholz", "C.07 8.1", "CM"),
        _Kind("SB", "Sonneborn-Berger", "C.07 8.2", "CM"),
        _Kind("FB", "Fore Buchholz", "C.07 8.3", "CM"),
        _Kind("AOB", "average of opponents' Buchholz", "C.07 8.4", ""),
        _Kind("PS", "progressive score", "C.07 7.5", "C"),
        _Kind("ARO", "average rating of opponents", "C.07 10.1", "CM"),
        _Kind("TPR", "tournament performance rating", "C.07 10.2", "CM"),
        _Kind("PTP", "perfect tournament performance", "C.07 10.3", "CM"),
        _Kind("APRO", "average performance rating of opponents", "C.07 10.4", ""),
        _Kind("DE", "direct encounter", "C.07 6", "P", Direction.LOWER_FIRST),
        _Kind("WIN", "number of wins", "C.07 7.1", ""),
        _Kind("WON", "games won over the board", "C.07 7.2", ""),
        _Kind("BPG", "games played with Black", "C.07 7.3", ""),
        _Kind("BWG", "games won with Black", "C.07 7.4", ""),
        _Kind("GE", "games elected to play", "C.07 7.6", ""),
        _Kind("KS", "Koya system", "C.07 9.1", ""),
        _Kind("SNO", "start number", "C.07 4.2 (organiser's choice)", "", Direction.LOWER_FIRST),
    )
}
_ALIASES = {"REP": "GE", "TPN": "SNO", "PT": "PTS", "POINTS": "PTS", "SOLKOFF": "BH"}
_MODIFIER = re.compile(r"^([CMP])(\d*)$")


@dataclass(frozen=True, slots=True)
class TieBreak:
    name: str
    low: int = 0  # values cut at the bottom
    high: int = 0  # values cut at the top (median)
    forfeits_played: bool = False  # DE-P

    @property
    def code(self) -> str:
        if self.high:
            return f"{self.name}-M{self.high}"
        if self.low:
            return f"{self.name}-C{self.low}"
        if self.forfeits_played:
            return f"{self.name}-P"
        return self.name

    @property
    def direction(self) -> Direction:
        return CODES[self.name].direction

    @property
    def title(self) -> str:
        kind = CODES[self.name]
        if self.high:
            return f"{kind.title}, median {self.high}"
        if self.low:
            return f"{kind.title}, cut {self.low}"
        return kind.title


def parse_code(text: str) -> TieBreak:
    raw = text.strip()
    parts = [p for p in re.split(r"[-/]", raw.upper())]
    if not raw or any(not p for p in parts):
        raise TieBreakCodeError(f"malformed tie-break code {text!r}")
    name = _ALIASES.get(parts[0], parts[0])
    kind = CODES.get(name)
    if kind is None:
        known = ", ".join(sorted(CODES))
        raise TieBreakCodeError(f"unknown tie-break code {text!r} (known: {known})")
    low = high = 0
    forfeits = False
    for modifier in parts[1:]:
        match = _MODIFIER.match(modifier)
        if match is None or match.group(1) not in kind.modifiers:
            allowed = ", ".join(kind.modifiers) or "none"
            raise TieBreakCodeError(
                f"tie-break code {text!r}: modifier {modifier!r} not allowed for {name} (allowed: {allowed})"
            )
        letter, digits = match.groups()
        if letter == "P":
            if digits:
                raise TieBreakCodeError(f"tie-break code {text!r}: P takes no number")
            forfeits = True
            continue
        count = int(digits) if digits else 1
        if count < 1:
            raise TieBreakCodeError(f"tie-break code {text!r}: {letter} needs a number of at least 1")
        if letter == "C":
            low = count
        else:
            low = high = count
    return TieBreak(name, low, high, forfeits)


def parse_codes(texts: str | list[str]) -> list[TieBreak]:
    """An ordered list from ``"BH,BH-C1,SB"`` or a list of codes. PTS may lead; it is implied."""
    items = texts.replace(";", ",").split(",") if isinstance(texts, str) else list(texts)
    out: list[TieBreak] = []
    for item in items:
        if item.strip() == "" and isinstance(texts, str) and texts.strip() == "":
            continue
        tb = parse_code(item)
        if tb in out:
            raise TieBreakCodeError(f"tie-break {tb.code} listed twice")
        out.append(tb)
    if out and out[0].name == "PTS":
        out = out[1:]
    if any(tb.name == "PTS" for tb in out):
        raise TieBreakCodeError("PTS (points) can only come first")
    return out
