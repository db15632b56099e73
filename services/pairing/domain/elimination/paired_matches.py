"""The matches of a knockout as pairing pairs them (RULES.md §4): each match's service round and board,
the seeds in its two slots, the slot with White in game 1, its games (:class:`KnockoutGame`: planned by
``match_play.py``, with their results, cancelled or replaced), and how it was decided; and what a result
changed in its match (:class:`Recorded`). Pure values, kept by the :class:`~.elimination.Elimination`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from services.pairing.domain.elimination.bracket import MatchId
from services.pairing.domain.elimination.match_play import PlannedGame
from shared.scoring import Outcome
from shared.vocabulary import DecidedIn

__all__ = ["KnockoutGame", "KnockoutMatch", "Recorded", "round_of_games"]


@dataclass
class KnockoutGame:
    game_id: uuid.UUID
    planned: PlannedGame
    outcome: Outcome | None = None
    cancelled: bool = False
    replaced_by: uuid.UUID | None = None
    """A cancelled game the match needed again after a correction: the game paired in its place. A
    replaced game no longer counts in its match."""

    @property
    def counts(self) -> bool:
        return self.replaced_by is None

    @property
    def open(self) -> bool:
        """Still to be played: no result, not cancelled."""
        return self.outcome is None and not self.cancelled and self.replaced_by is None


@dataclass
class KnockoutMatch:
    """A match as paired: its service round and board, the seeds in its two slots, which slot had
    White in game 1 (drawn), its games, and how it was decided (once it is)."""

    id: MatchId
    round: int
    board: int
    players: tuple[int, int]
    first_white: int
    games: list[KnockoutGame] = field(default_factory=list)
    how: DecidedIn | None = None
    decisions: int = 0
    """How many times the match was decided: its first decision, then each one after a correction (a
    new winner, or the same winner decided elsewhere). Published as ``match.decided``'s ``revision``,
    so that a consumer that hears two decisions in either order keeps the later."""

    def seed(self, slot: int) -> int:
        return self.players[slot]

    def white(self, game: KnockoutGame) -> int:
        return self.players[game.planned.white]

    def black(self, game: KnockoutGame) -> int:
        return self.players[1 - game.planned.white]

    def counted(
        self, overrides: Mapping[uuid.UUID, Outcome] | None = None
    ) -> list[tuple[PlannedGame, Outcome | None]]:
        """The games that count in the match, with their outcomes (``overrides`` replacing some)."""
        extra = overrides or {}
        return [(g.planned, extra.get(g.game_id, g.outcome)) for g in self.games if g.counts]

    @property
    def decided(self) -> bool:
        return self.how is not None


@dataclass(frozen=True)
class Recorded:
    """What a game's result changed: games added to the match (the next tie-break stage), or the match
    decided (its winner's seed, and the games it no longer needs)."""

    match: KnockoutMatch
    added: tuple[KnockoutGame, ...] = ()
    winner: int | None = None
    cancelled: tuple[KnockoutGame, ...] = ()


def round_of_games(matches: Iterable[KnockoutMatch]) -> list[tuple[KnockoutMatch, KnockoutGame]]:
    """Every game of these matches, by board then game number."""
    return [
        (m, g)
        for m in sorted(matches, key=lambda m: m.board)
        for g in sorted(m.games, key=lambda g: g.planned.number)
    ]
