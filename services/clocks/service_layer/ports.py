"""What the clocks service layer needs from the outside world, as ports: the game and tournament
repositories, the deadline store and the unit of work. ``adapters/`` implements them (SQL and Redis, and in-memory fakes
held to the same contract suites); the composition root wires them."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol

from services.clocks.domain.game import Game
from services.clocks.domain.penalties import Incident
from services.clocks.domain.presence import Presence
from services.clocks.domain.tournament import Tournament
from shared.aggregate import Seen
from shared.events import Envelope
from shared.vocabulary import Ruleset


class GameRepository(Protocol):
    """The games, as aggregates. A game handed out or taken in is ``seen``: the unit of work collects
    its events and keeps its deadline in the store."""

    seen: Seen[Game]
    removed: set[uuid.UUID]  # ids of the games removed in this unit of work

    def get(self, game_id: uuid.UUID, *, lock: bool = False) -> Game | None: ...

    def add(self, game: Game) -> None:
        """Store a new game (its clock's changes so far with it)."""

    def save(self, game: Game) -> None:
        """Write what changed: the game's state and its clock's new changes."""

    def existing(self, game_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        """Which of these games exist already."""

    def of_round(self, tournament_id: uuid.UUID, round: int) -> list[Game]:
        """A round's games, locked, by board."""

    def in_match(self, tournament_id: uuid.UUID, match_id: str) -> list[Game]:
        """A knockout match's games in their order, locked."""

    def unfinished_in(self, tournament_id: uuid.UUID) -> list[Game]:
        """A tournament's games not finished (pending, running, disputed or cancelled), locked."""

    def playing_elsewhere(self, tournament_id: uuid.UUID, player_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        """The players among ``player_ids`` with a game running in another tournament (or arena)."""
        ...

    def running_of(self, player_id: uuid.UUID) -> list[Game]:
        """The player's running games, in any tournament, locked."""
        ...

    def open_games_of(self, tournament_id: uuid.UUID, player_id: uuid.UUID) -> list[Game]:
        """A player's released games still open (pending, running or disputed) in a tournament, locked,
        by round, board and number."""

    def of_tournament(self, tournament_id: uuid.UUID) -> list[Game]:
        """Every game of a tournament, locked."""

    def remove(self, game: Game) -> None:
        """Delete a game and its clock's history (a tournament reset to its draft)."""

    def overdue(self, now: dt.datetime, *, limit: int = 100) -> list[uuid.UUID]:
        """Running games whose deadline has passed, earliest first (the sweep behind the store)."""

    def incidents_of(
        self, tournament_id: uuid.UUID, player_id: uuid.UUID, *, other_than: uuid.UUID | None = None
    ) -> list[Incident]:
        """The player's incidents (penalties) in the tournament's games, except ``other_than``'s,
        oldest first."""


class PresenceRepository(Protocol):
    """What the game server last reported of each player's presence."""

    def of(self, player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Presence]:
        """The players' presence, for those with one reported."""
        ...

    def report(self, player_id: uuid.UUID, status: Presence, at: dt.datetime) -> None: ...


class TournamentRepository(Protocol):
    """What is known of each tournament (its organiser, ruleset, timing, arbiters, withdrawn players)."""

    seen: Seen[Tournament]

    def get(self, tournament_id: uuid.UUID) -> Tournament | None:
        """What is known, unlocked; None when nothing is."""

    def of_ruleset(self, ruleset: Ruleset) -> list[uuid.UUID]:
        """The tournaments of a ruleset known here."""

    def lock(self, tournament_id: uuid.UUID) -> Tournament:
        """The tournament, locked for a change; one known from now on if nothing was (its first news
        may be an appointment or a withdrawal, before ``tournament.started``)."""

    def save(self, tournament: Tournament) -> None:
        """Write its organiser, ruleset and timing and what changed among its arbiters and withdrawals."""


class DeadlineStoreUnavailable(RuntimeError):
    """The store cannot be reached; callers fall back on the database."""


class DeadlineStore(Protocol):
    """Which game's flag falls when, for the ticker to find the due ones fast. An index over the
    games' deadlines that may lag or lose entries (the database stays authoritative). Every method
    may raise :class:`DeadlineStoreUnavailable`."""

    def schedule(self, deadlines: Mapping[uuid.UUID, dt.datetime]) -> None:
        """Set (or move) each game's deadline."""

    def cancel(self, game_ids: Iterable[uuid.UUID]) -> None:
        """Forget these games (finished, or unknown); unknown ids are ignored."""

    def due(self, now: dt.datetime, limit: int = 100) -> list[uuid.UUID]:
        """Games whose deadline is at or before ``now``, earliest first. Nothing is removed: an entry
        stays until it is cancelled or moved, so a ticker that dies mid-way loses nothing."""

    def deadline_of(self, game_id: uuid.UUID) -> dt.datetime | None: ...

    def ping(self) -> None:
        """Raise DeadlineStoreUnavailable if the store cannot be reached (the readiness probe)."""


class ClocksUnitOfWork(Protocol):
    """One transaction: the games, the tournaments, the outbox (the events the games recorded) and the
    inbox. After it
    commits, the deadline store holds the deadline of every game it saw, or forgets the game once it is
    over (best effort: the games' deadlines in the database stay authoritative)."""

    @property
    def games(self) -> GameRepository: ...

    @property
    def tournaments(self) -> TournamentRepository: ...

    @property
    def presence(self) -> PresenceRepository: ...

    @property
    def deadlines(self) -> DeadlineStore: ...

    def __enter__(self) -> Any: ...
    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None: ...
    def first_delivery(self, envelope: Envelope, handler: str) -> bool: ...
    def savepoint(self) -> AbstractContextManager[None]: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...

    def forget(self, game_id: uuid.UUID) -> None:
        """After commit the store forgets this game (one it names that does not exist)."""
