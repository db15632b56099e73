"""Phase 1 of the ``group-playoff`` event (4T1 rules, RULES.md §5): the two groups and their matches.

The highest-rated player goes to group I, the second to group II; the other six are drawn by a
recorded lot (:func:`shared.seed_draw.draw_order` with a stored seed, reproducible), the first drawn to
group I, the next to group II, and so on. **Decision:** equal ratings are ordered by the order of entry
(earlier first), the order in which entries count.

Every meeting in a group is a two-game match, one game with each colour. The pairings follow the Berger
table for four (1-4, 2-3; 4-3, 1-2; 2-4, 3-1); the player named first in a pairing *invites*: they create
both games (the game record names them), and have White in the first game — unless they said at entry
that they cannot create games and the other player can: then the other invites (4T1 §4(5),
:meth:`~services.pairing.domain.group_playoff.competition.GroupPlayoff.inviter`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from shared.seed_draw import draw_order

__all__ = ["BERGER_FOUR", "Entrant", "GroupLot", "draw_groups", "group_pairings", "seeded"]

PLAYERS = 8
GROUPS = ("I", "II")
BERGER_FOUR: tuple[tuple[int, int], ...] = ((1, 4), (2, 3), (4, 3), (1, 2), (2, 4), (3, 1))
"""The Berger pairings of a group of four (group numbers 1-4), the player named first first."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A confirmed player: their rating at entry, the order their entry arrived in, and whether they
    can create games (4T1 §3(5), said at entry)."""

    player: str
    rating: int
    order: int
    creates_games: bool = True


@dataclass(frozen=True, slots=True)
class GroupLot:
    """The recorded lot that drew the groups: its seed, who drew it and when, and the groups drawn."""

    seed: int
    drawn_by: str
    drawn_at: dt.datetime
    groups: tuple[tuple[str, ...], tuple[str, ...]]


def seeded(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """By rating, highest first; equal ratings by the order of entry."""
    return tuple(sorted(entrants, key=lambda e: (-e.rating, e.order)))


def draw_groups(entrants: Sequence[Entrant], seed: int, drawn_by: str, drawn_at: dt.datetime) -> GroupLot:
    """Group I: the highest rated, group II: the second; the rest alternately by the drawn order."""
    if len(entrants) != PLAYERS or len({e.player for e in entrants}) != PLAYERS:
        raise ValueError(f"a group-playoff event has {PLAYERS} different players, not {len(entrants)}")
    order = seeded(entrants)
    first, second = [order[0].player], [order[1].player]
    for i, player in enumerate(draw_order([e.player for e in order[2:]], seed)):
        (first if i % 2 == 0 else second).append(player)
    return GroupLot(seed, drawn_by, drawn_at, (tuple(first), tuple(second)))


def group_pairings(members: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The six meetings of a group of four, each as (named first, named second)."""
    if len(members) != 4:
        raise ValueError("a group has four players")
    return tuple((members[a - 1], members[b - 1]) for a, b in BERGER_FOUR)
