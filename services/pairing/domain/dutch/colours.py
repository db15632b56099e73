"""Colour preferences (C.04.3 A.6) and the colour allocation rules (C.04.3 E).

Only games played over the board count; forfeits and byes carry no colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from services.pairing.domain.dutch.model import Colour


@dataclass(frozen=True, slots=True)
class ColourPreference:
    """A player's colour preference before a round.

    ``colour`` is the preferred colour (None: no preference); ``imbalance`` is |whites - blacks|;
    ``repeated`` is the colour of the last two games when they were the same, else None.
    """

    colour: Colour | None
    imbalance: int
    repeated: Colour | None

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """Colour difference beyond ±1 or the same colour in the last two games."""
        return self.absolute_imbalance or self.repeated is not None

    @property
    def strong(self) -> bool:
        """Colour difference ±1 (and not absolute)."""
        return not self.absolute and self.imbalance > 0

    @property
    def mild(self) -> bool:
        return self.colour is not None and not self.absolute and not self.strong


def preference(colours: Sequence[Colour]) -> ColourPreference:
    """The preference that follows from the colours of the games played, oldest first."""
    whites = sum(1 for c in colours if c is Colour.WHITE)
    blacks = len(colours) - whites
    run = 0
    last: Colour | None = None
    for c in colours:
        run = run + 1 if c is last else 1
        last = c
    lower = Colour.BLACK if whites > blacks else Colour.WHITE
    imbalance = abs(whites - blacks)
    colour: Colour | None
    if imbalance > 1:
        colour = lower
    elif run > 1 and last is not None:
        colour = last.opposite
    elif imbalance > 0:
        colour = lower
    elif last is not None:
        colour = last.opposite
    else:
        colour = None
    return ColourPreference(colour, imbalance, last if run > 1 else None)


def compatible(a: Colour | None, b: Colour | None) -> bool:
    """Two preferences can both be met."""
    return a is None or b is None or a is not b


@dataclass(frozen=True, slots=True)
class ColourSide:
    """What the allocation rules need to know about one player of a pair."""

    pref: ColourPreference
    history: tuple[Colour, ...]  # colours of played games, oldest first
    score: int
    rank: int  # 0-based rank (pairing-number order among the players in the event)


def _first_difference(a: Sequence[Colour], b: Sequence[Colour]) -> tuple[Colour | None, Colour | None]:
    """Walking back from the latest played game of each, the colours where the two histories
    first differ (E.4: alternate from the most recent round in which they had different colours)."""
    i, j = len(a) - 1, len(b) - 1
    while i >= 0 and j >= 0 and a[i] is b[j]:
        i -= 1
        j -= 1
    return (a[i] if i >= 0 else None), (b[j] if j >= 0 else None)


class ColourRule(Enum):
    """The colour allocation rules of C.04.3 E, in the order they are tried."""

    BOTH = "E.1"  # grant both colour preferences (or the only one)
    STRONGER = "E.2"  # grant the stronger preference (absolute, then the wider difference; strong)
    ALTERNATE = "E.3"  # alternate from the most recent round in which the two had different colours
    HIGHER_RANKED = "E.4"  # grant the higher-ranked player's preference
    INITIAL = "E.5"  # no preferences: the initial colour and the ranks decide

    @property
    def text(self) -> str:
        return _RULE_TEXT[self]


_RULE_TEXT = {
    ColourRule.BOTH: "both colour preferences can be granted",
    ColourRule.STRONGER: "the stronger colour preference is granted",
    ColourRule.ALTERNATE: "colours alternate from the last round in which the two had different colours",
    ColourRule.HIGHER_RANKED: "the higher-ranked player gets their preference",
    ColourRule.INITIAL: "with no preferences, the initial colour and the ranks decide",
}


def _neutral(player: ColourSide, opponent: ColourSide) -> tuple[Colour, ColourRule] | None:
    p, o = player.pref, opponent.pref
    if compatible(p.colour, o.colour):
        if p.colour is not None:
            return p.colour, ColourRule.BOTH
        if o.colour is not None:
            return o.colour.opposite, ColourRule.BOTH
        return None
    assert p.colour is not None and o.colour is not None
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.colour, ColourRule.STRONGER
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return o.colour.opposite, ColourRule.STRONGER
    if p.strong and not o.strong:
        return p.colour, ColourRule.STRONGER
    if o.strong and not p.strong:
        return o.colour.opposite, ColourRule.STRONGER
    mine, theirs = _first_difference(player.history, opponent.history)
    if mine is not None and theirs is not None:
        return theirs, ColourRule.ALTERNATE
    return None


def _ranks_below(player: ColourSide, opponent: ColourSide) -> bool:
    """The player comes after the opponent in the bracket order (lower score, or same score and
    a larger pairing number)."""
    return (player.score, opponent.rank) < (opponent.score, player.rank)


def allocate(player: ColourSide, opponent: ColourSide, initial: Colour) -> Colour:
    """The colour the player gets against the opponent (C.04.3 E.1-E.5)."""
    return allocation(player, opponent, initial)[0]


def allocation(player: ColourSide, opponent: ColourSide, initial: Colour) -> tuple[Colour, ColourRule]:
    """The colour the player gets against the opponent, and the rule that decides it."""
    decided = _neutral(player, opponent)
    if decided is not None:
        return decided
    if player.pref.colour is None:
        # E.5: no preference on either side; the rank decides, as in round 1.
        if _ranks_below(player, opponent):
            return (initial if opponent.rank & 1 else initial.opposite), ColourRule.INITIAL
        return (initial.opposite if player.rank & 1 else initial), ColourRule.INITIAL
    # E.4: the higher-ranked player gets their preference.
    if _ranks_below(player, opponent):
        assert opponent.pref.colour is not None
        return opponent.pref.colour.opposite, ColourRule.HIGHER_RANKED
    return player.pref.colour, ColourRule.HIGHER_RANKED
