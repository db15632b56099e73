"""What happens in the pairing service, as its aggregates record it (past tense). The unit of work maps
each to its versioned wire event (``adapters/wire.py``) and writes it to the outbox with the change.

Events carry plain values, never an aggregate: they are facts as of the moment they were recorded.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from shared.aggregate import DomainEvent
from shared.authority import Decided
from shared.openings import DrawnOpening
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.variants import Variant
from shared.vocabulary import ByeKind, DecidedIn, Section, System


@dataclass(frozen=True)
class GroupPlayoffPlace:
    """A group-playoff match (RULES.md §5) as the events name it; for a game also who invites it and
    which extra game it is."""

    stage: str
    phase: int
    group: str | None
    match: str
    players: tuple[uuid.UUID, uuid.UUID]
    forfeited_by: uuid.UUID | None = None
    inviter: uuid.UUID | None = None
    extra: int = 0


@dataclass(frozen=True)
class GameInRound:
    """A game as a round announces it; a knockout game also names its match, its number and label in
    the match, and its own time control."""

    game_id: uuid.UUID
    board: int
    white: uuid.UUID
    black: uuid.UUID
    leg: int = 1
    match_id: str | None = None
    number: int | None = None
    label: str | None = None
    time_control: RateOfPlay | None = None
    rated: bool = True
    """False: a knockout tie-break or sudden-death game (RULES.md §4)."""
    opening: DrawnOpening | None = None
    """The drawn opening the game starts from (RULES.md §2); None: free."""
    group_playoff: GroupPlayoffPlace | None = None
    """A group-playoff game's phase, match and inviter."""


@dataclass(frozen=True)
class MatchInRound:
    """A bracket match of a knockout round; a bye (walkover) has no board, one player and no games."""

    match_id: str
    section: Section
    section_round: int
    number: int
    players: tuple[uuid.UUID | None, uuid.UUID | None]
    board: int | None = None
    first_white: uuid.UUID | None = None


@dataclass(frozen=True)
class ByeInRound:
    player_id: uuid.UUID
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


@dataclass(frozen=True)
class FinalPlace:
    """A player's place when a knockout ends; players out in the same round share ``places``."""

    player_id: uuid.UUID
    seed: int
    rank: int
    places: tuple[int, int]
    matches_won: int


@dataclass(frozen=True)
class RoundBecameDue(DomainEvent):
    """Round ``round`` may be paired now: a pairing worker pairs it (internal to pairing)."""

    tournament_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class RoundPaired(DomainEvent):
    """A round was paired, or (a knockout round whose level match went to a tie-break stage) announced
    again with the games added: every game of the round so far."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int
    total_rounds: int
    system: System
    games: tuple[GameInRound, ...]
    byes: tuple[ByeInRound, ...]
    time_control: RateOfPlay
    published: bool | None = None
    """False: a knockout round only its organiser sees until they publish it; None: public when paired."""
    matches: tuple[MatchInRound, ...] = ()
    variant: Variant = Variant.CHESS
    games_cancelled: tuple[uuid.UUID, ...] = ()
    """Games announced before and no longer to be played: a correction changed who plays a knockout
    match that had no result yet, and the match was paired again under new game ids."""


@dataclass(frozen=True)
class RoundPublished(DomainEvent):
    tournament_id: uuid.UUID
    round: int
    published_at: dt.datetime
    restarts: int = 0
    """The number of the start the round belongs to (the resets before it)."""


@dataclass(frozen=True)
class MatchDecided(DomainEvent):
    tournament_id: uuid.UUID
    match_id: str
    round: int
    section: Section
    players: tuple[uuid.UUID, uuid.UUID]
    winner: uuid.UUID
    how: DecidedIn
    games_cancelled: tuple[uuid.UUID, ...]
    decided_at: dt.datetime
    revision: int = 1
    """The match's decisions so far, this one included (:attr:`~services.pairing.domain.elimination.paired_matches.KnockoutMatch.decisions`)."""


@dataclass(frozen=True)
class RoundCompleted(DomainEvent):
    tournament_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class TournamentCompleted(DomainEvent):
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    rounds: int
    completed_at: dt.datetime
    placing: tuple[FinalPlace, ...] | None = None
    """Knockouts: the final placing, best first."""


@dataclass(frozen=True)
class ResultCorrected(DomainEvent):
    """An arbiter or the organiser corrected a finished game's result."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    old_outcome: Outcome
    outcome: Outcome
    decision: Decided


@dataclass(frozen=True)
class ByeRequested(DomainEvent):
    """A zero-point bye for a round not paired yet: the player is left out of that round."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
    decision: Decided
    kind: ByeKind = ByeKind.ZERO_POINT


@dataclass(frozen=True)
class ByeTakenBack(DomainEvent):
    """A requested bye taken back before its round was paired: the player is paired in it again."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
    decision: Decided


@dataclass(frozen=True)
class TournamentReset(DomainEvent):
    """A knockout went back to its draft: pairing forgot it, and ``games``, every game it had paired."""

    tournament_id: uuid.UUID
    decision: Decided
    games: tuple[uuid.UUID, ...] = ()
    restarts: int = 0
    """The number of the start it undoes (the resets before it)."""


@dataclass(frozen=True)
class ArenaGamePaired:
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID


@dataclass(frozen=True)
class ArenaGamesPaired(DomainEvent):
    """An arena pass made these games (``arena.paired``): clocks creates and starts them at once."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    games: tuple[ArenaGamePaired, ...]
    time_control: RateOfPlay
    paired_at: dt.datetime
    variant: Variant = Variant.CHESS


@dataclass(frozen=True)
class ArenaCompleted(DomainEvent):
    """The arena is over: its end has passed and its last game finished (``tournament.completed``)."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    completed_at: dt.datetime


@dataclass(frozen=True)
class AbsenceUnexcused(DomainEvent):
    """A player lost round ``round`` at the default time and nobody excused it before the next round's
    pairing was published: they count as withdrawn (FIDE C.04.2; registration withdraws them)."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class AbsenceExcused(DomainEvent):
    """An arbiter excused an absence before the next pairing was published: the player is paired again."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
    decision: Decided


@dataclass(frozen=True)
class GroupPlayoffAnnounced(DomainEvent):
    """Something the tournament page announces: ``groups`` (the groups' lot), ``playoff`` (a play-off
    the event created), ``lot`` (the organiser's lot for a tie), ``colour-lot`` (the final's extra game),
    ``phase`` (a phase opened), ``deadline`` (a phase's deadline set)."""

    tournament_id: uuid.UUID
    kind: str
    at: dt.datetime
    phase: int | None = None
    group: str | None = None
    players: tuple[uuid.UUID, ...] = ()
    seed: str | None = None
    drawn_by: str | None = None
    deadline: dt.datetime | None = None
    matches: tuple[GroupPlayoffPlace, ...] = ()
    game_id: uuid.UUID | None = None
    result: Outcome | None = None
