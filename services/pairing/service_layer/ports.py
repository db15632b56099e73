"""What the service layer needs from persistence: one repository per aggregate and the unit of work
holding them. The adapters implement them twice, on SQL (one module per aggregate: ``adapters/
tournaments.py``, ``round_results.py``, ``eliminations.py``, ``arbiters.py``, ``group_playoffs.py``,
``arena_repository.py``; ``adapters/unit_of_work.py``) and in memory for the tests (``adapters/memory.py``);
one contract suite holds both to the same behaviour."""

from __future__ import annotations

import uuid
from contextlib import AbstractContextManager
from typing import Any, Protocol, Self

from services.pairing.domain.arbiters import Arbiters
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.domain.roster import RosterHeard
from services.pairing.domain.rounds.results import RoundResults
from services.pairing.domain.rounds.tournament import PairingTournament
from services.pairing.service_layer.arena_ports import ArenaRepository
from shared.aggregate import Seen
from shared.events import Envelope
from shared.resets import Resets
from shared.vocabulary import System


class TournamentRepository(Protocol):
    """Round robins and Swiss tournaments, whole: what pairing a round needs."""

    @property
    def seen(self) -> Seen[PairingTournament]: ...

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> PairingTournament | None: ...
    def add(self, tournament: PairingTournament) -> None: ...
    def save(self, tournament: PairingTournament) -> None:
        """Write the rounds paired since it was loaded. Raises :class:`~services.pairing.domain.errors.
        RoundTaken` if another worker paired one of them first."""


class RoundResultsRepository(Protocol):
    """One round of a round robin or a Swiss, keyed ``(tournament id, round number)``: what a result
    changes. Rounds are added by pairing them (:class:`TournamentRepository`), never here."""

    @property
    def seen(self) -> Seen[RoundResults]: ...

    def get(self, key: tuple[uuid.UUID, int], *, lock: bool = False) -> RoundResults | None: ...
    def save(self, results: RoundResults) -> None: ...


class EliminationRepository(Protocol):
    """Knockouts and double knockouts."""

    @property
    def seen(self) -> Seen[Elimination]: ...

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Elimination | None: ...
    def add(self, elimination: Elimination) -> None: ...
    def save(self, elimination: Elimination) -> None:
        """Raises :class:`~services.pairing.domain.errors.RoundTaken` if another worker paired a round
        it adds first."""


class GroupPlayoffRepository(Protocol):
    """Group-playoff events (4T1, RULES.md §5), whole."""

    @property
    def seen(self) -> Seen[GroupPlayoffTournament]: ...

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> GroupPlayoffTournament | None: ...
    def add(self, tournament: GroupPlayoffTournament) -> None: ...
    def save(self, tournament: GroupPlayoffTournament) -> None: ...


class ArbitersRepository(Protocol):
    """The arbiters of each tournament, keyed by tournament id; kept before the tournament starts here
    (appointments may arrive first) and after a knockout goes back to its draft."""

    @property
    def seen(self) -> Seen[Arbiters]: ...

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Arbiters | None: ...
    def add(self, arbiters: Arbiters) -> None: ...
    def save(self, arbiters: Arbiters) -> None: ...


class RosterRepository(Protocol):
    """What pairing has heard of each tournament's roster (registration's roster revisions), keyed by
    tournament id; kept whether the tournament has started here or not."""

    @property
    def seen(self) -> Seen[RosterHeard]: ...

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> RosterHeard | None: ...
    def add(self, heard: RosterHeard) -> None: ...
    def save(self, heard: RosterHeard) -> None: ...


class ResetsRepository(Protocol):
    """What each reset of a knockout to its draft removed, kept after its tournament's rows are gone
    (written by :class:`EliminationRepository` with the reset)."""

    def of(self, tournament_id: uuid.UUID) -> Resets:
        """The tournament's resets (none: empty)."""


class PairingUnitOfWork(Protocol):
    """One transaction: the aggregates' changes, the events they recorded (outbox) and the consumed
    event (inbox)."""

    @property
    def tournaments(self) -> TournamentRepository: ...
    @property
    def results(self) -> RoundResultsRepository: ...
    @property
    def eliminations(self) -> EliminationRepository: ...
    @property
    def arbiters(self) -> ArbitersRepository: ...
    @property
    def resets(self) -> ResetsRepository: ...
    @property
    def rosters(self) -> RosterRepository: ...
    @property
    def arenas(self) -> ArenaRepository: ...
    @property
    def group_playoffs(self) -> GroupPlayoffRepository: ...

    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None: ...

    def lock(self, tournament_id: uuid.UUID) -> System | None:
        """Take the tournament's row lock, which every change of a tournament holds (results and
        pairing of one tournament never interleave), and say how it is paired; None if there is no
        such tournament. A repository's ``get(..., lock=True)`` in the same unit of work does not
        lock again."""

    def tournament_of_game(self, game_id: uuid.UUID) -> uuid.UUID | None:
        """The tournament a game belongs to, or None if pairing paired no such game."""

    def first_delivery(self, envelope: Envelope, handler: str) -> bool: ...
    def savepoint(self) -> AbstractContextManager[None]: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
