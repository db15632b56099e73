"""The ratings registration keeps (RULES.md §2 "Rating"): one Glicko-2 rating per account, variant and
speed class, moved by every rated game when it finishes (``game.finished``).

* :class:`PlayerRating` is the aggregate: an account's rating under one key (``chess:blitz``), the
  games counted, and a :class:`~services.registration.domain.events.RatingUpdated` recorded each time a
  game moves it (published as ``rating.updated``).
* :func:`rate` decides whether a finished game moves ratings (``rating.moves_ratings``: friendly
  tournaments, tie-break and sudden-death games, forfeits and games where one side never moved move
  none) and, if so, applies the Glicko-2 step to both players from their ratings before the game.

**Decisions** (docs/ratings.md): a rating period is one game (``rating.py``); an account's first
rating under a key starts from the rating its identity provider gave for that key (``accounts.ratings``)
with the newcomer's deviation and volatility, or from the newcomer's 1500; a `fide-rapid` event's games
are FIDE-rated over the board and move no platform rating; a player without an account (entered by
hand) has no rating to move, so neither player's moves; a corrected result does not rate the game again.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.registration.domain.events import RatingUpdated
from services.registration.domain.rating import (
    NEWCOMER,
    FinishedGame,
    Glicko2Rating,
    RatingDecision,
    moves_ratings,
    rate_game,
)
from shared.aggregate import Aggregate
from shared.scoring import Outcome
from shared.vocabulary import Ruleset


@dataclass
class PlayerRating(Aggregate):
    account_id: uuid.UUID
    key: str
    value: Glicko2Rating = NEWCOMER
    games: int = 0
    updated_at: dt.datetime | None = None

    @classmethod
    def first(cls, account_id: uuid.UUID, key: str, given: int | None) -> PlayerRating:
        """The rating before the account's first rated game under ``key``: the one the identity
        provider gave, with a newcomer's deviation, or a newcomer's."""
        start = NEWCOMER if given is None else Glicko2Rating(float(given))
        return cls(account_id, key, start)

    def moved_to(
        self, value: Glicko2Rating, *, game_id: uuid.UUID, tournament_id: uuid.UUID, at: dt.datetime
    ) -> None:
        previous = self.value
        self.value, self.games, self.updated_at = value, self.games + 1, at
        self.record(
            RatingUpdated(
                self.account_id,
                self.key,
                value.rating,
                value.deviation,
                value.volatility,
                previous.rating,
                self.games,
                game_id,
                tournament_id,
                at,
            )
        )


@dataclass(frozen=True)
class RatedGame:
    """A finished game as registration hears it, with what it knows of its tournament."""

    game_id: uuid.UUID
    tournament_id: uuid.UUID
    outcome: Outcome
    finished_at: dt.datetime
    ruleset: Ruleset
    tournament_rated: bool
    game_rated: bool = True
    both_moved: bool | None = None
    moves: int = 0
    accounts: bool = True  # both players have an account

    def decision(self) -> RatingDecision:
        if self.ruleset is Ruleset.FIDE_RAPID:
            return RatingDecision(
                False, "a fide-rapid game: FIDE-rated over the board, not a platform rating"
            )
        if not self.accounts:
            return RatingDecision(False, "a player without an account")
        return moves_ratings(
            FinishedGame(self.outcome, self.tournament_rated, self.game_rated, self.both_moved, self.moves)
        )


def rate(game: RatedGame, white: PlayerRating, black: PlayerRating) -> RatingDecision:
    """Move both players' ratings by ``game`` when it is rated; the decision either way."""
    decision = game.decision()
    if decision.moves:
        new_white, new_black = rate_game(white.value, black.value, game.outcome)
        white.moved_to(new_white, game_id=game.game_id, tournament_id=game.tournament_id, at=game.finished_at)
        black.moved_to(new_black, game_id=game.game_id, tournament_id=game.tournament_id, at=game.finished_at)
    return decision
