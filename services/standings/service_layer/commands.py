"""What the other services' events ask of the standings, as the handlers take them
(``adapters/wire.py`` translates each consumed event into one)."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.standings.domain.announced import AnnouncedTournament, Entrant
from services.standings.domain.arena_standings import ArenaPlayer, RunningGame
from services.standings.domain.group_playoff_page import (
    Announcement,
    GameFacts,
    GameResult,
    MatchFacts,
    PagePlayer,
    PageWithdrawal,
)
from services.standings.domain.pairings import AnnouncedBye, AnnouncedGame, AnnouncedMatch, AnnouncedPlace
from services.standings.domain.rounds import Competitor, Profile
from services.standings.domain.tournament_info import TournamentInfo
from shared.arena_scoring import FinishedArenaGame
from shared.authority import Role
from shared.scoring import Outcome
from shared.vocabulary import DecidedIn, System


@dataclass(frozen=True)
class RecordTournament:
    """``tournament.started``: what the tournament is and its roster."""

    info: TournamentInfo
    roster: tuple[Competitor, ...]


@dataclass(frozen=True)
class RecordPairing:
    """``round.paired``: a round's games, byes and (knockouts) matches."""

    tournament_id: uuid.UUID
    round: int
    system: System
    total_rounds: int
    games: tuple[AnnouncedGame, ...]
    byes: tuple[AnnouncedBye, ...]
    matches: tuple[AnnouncedMatch, ...]
    published: bool | None  # None: public when paired, unless the ruleset says otherwise


@dataclass(frozen=True)
class RecordResult:
    """``game.finished``."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    outcome: Outcome
    reason: str
    finished_at: dt.datetime
    rated: bool = True  # False: a tie-break or sudden-death game


@dataclass(frozen=True)
class CorrectResult:
    """``game.result_corrected``: an arbiter or the organiser corrected a finished game's result."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    old_outcome: Outcome
    outcome: Outcome
    reason: str | None
    role: Role
    by: uuid.UUID
    at: dt.datetime


@dataclass(frozen=True)
class SwapColours:
    """``game.colours_swapped``: an open game's new colours."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID


@dataclass(frozen=True)
class RecordWithdrawal:
    """``player.withdrawn``: a player withdrawn, or excluded by the organiser, for good."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    excluded: bool
    reason: str | None
    role: Role | None  # None (and ``at`` None) when the event names no decision
    by: uuid.UUID | None
    at: dt.datetime | None


@dataclass(frozen=True)
class ResetTournament:
    """``tournament.reset``: a knockout back to its draft."""

    tournament_id: uuid.UUID
    at: dt.datetime
    games: tuple[uuid.UUID, ...] = ()  # the games it removed (pairing's list)
    restarts: int | None = None  # the number of the start it undoes (None: not said)


@dataclass(frozen=True)
class PublishRound:
    """``round.published``: a knockout round is public."""

    tournament_id: uuid.UUID
    round: int
    published_at: dt.datetime | None = None  # pairing's time
    restarts: int | None = None  # the number of the start the round belongs to (None: not said)


@dataclass(frozen=True)
class RecordDecision:
    """``match.decided``: who advances from a knockout match, and how."""

    tournament_id: uuid.UUID
    match_id: str
    winner: uuid.UUID
    how: DecidedIn
    decided_at: dt.datetime
    players: tuple[uuid.UUID, ...] = ()  # whom it names (both; empty: not said)
    revision: int | None = None  # None: a producer before decisions were counted


@dataclass(frozen=True)
class CancelGame:
    """``game.cancelled``: a game its knockout match no longer needed."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    cancelled_at: dt.datetime


@dataclass(frozen=True)
class CompleteTournament:
    """``tournament.completed`` (a knockout's with its final placing)."""

    tournament_id: uuid.UUID
    completed_at: dt.datetime
    placing: tuple[AnnouncedPlace, ...] | None


@dataclass(frozen=True)
class AddPlayer:
    """``player.joined`` with ``late``: a late entry of a started `fide-rapid` event (joins before
    the start come with the roster of ``tournament.started``: ``late`` False is ignored)."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    name: str
    rating: int | None
    profile: Profile | None
    late: bool
    from_round: int | None


@dataclass(frozen=True)
class RecordPenalty:
    """``game.penalised``: a penalty an arbiter gave in a game."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    player_id: uuid.UUID
    kind: str
    occurrence: int
    consequence: str
    reason: str | None
    role: Role
    by: uuid.UUID
    at: dt.datetime


@dataclass(frozen=True)
class RecordByeRequest:
    """``bye.requested``: a zero-point bye asked for a round not paired yet."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class TakeBackBye:
    """``bye.taken_back``: a requested bye taken back before its round was paired."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class ExcuseAbsence:
    """``absence.excused``: an arbiter excused a player's absence from a round."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int


NextRoundNews = RecordByeRequest | TakeBackBye | ExcuseAbsence
"""What decides who the round to come leaves out (the TRF written before its pairing says so)."""


# -- arenas (docs/arena.md) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class RecordArena:
    """``tournament.started`` of an arena: its players so far."""

    arena_id: uuid.UUID
    name: str
    started_at: dt.datetime
    ends_at: dt.datetime
    players: tuple[ArenaPlayer, ...]


@dataclass(frozen=True)
class RecordArenaEntry:
    """``player.joined``: a player listed from now on (an arena's; other tournaments' are ignored)."""

    arena_id: uuid.UUID
    player: ArenaPlayer


@dataclass(frozen=True)
class RecordArenaPairing:
    """``arena.paired``: games in progress."""

    arena_id: uuid.UUID
    games: tuple[RunningGame, ...]


@dataclass(frozen=True)
class RecordArenaGame:
    """``game.finished`` of an arena game, with its boosts."""

    arena_id: uuid.UUID
    game: FinishedArenaGame


# -- tournaments announced before their start (the index) -----------------------------------------------
@dataclass(frozen=True)
class RecordAnnouncement:
    """``tournament.scheduled``: a tournament with a start time, upcoming until it starts."""

    tournament: AnnouncedTournament


@dataclass(frozen=True)
class RecordEntry:
    """``player.joined`` before the start: an entry of an announced tournament."""

    tournament_id: uuid.UUID
    entrant: Entrant


@dataclass(frozen=True)
class RecordLeaving:
    """``player.left``: an entry withdrawn before the start."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class RecordStart:
    """``tournament.started``: no longer upcoming (its own projection shows it from now on)."""

    tournament_id: uuid.UUID


@dataclass(frozen=True)
class RecordCancellation:
    """``tournament.cancelled``: it will not be played."""

    tournament_id: uuid.UUID
    detail: str


AnnouncementNews = RecordAnnouncement | RecordEntry | RecordLeaving | RecordStart | RecordCancellation


# -- a group-playoff event's page (docs/group-playoff.md): one queue, in the order of the events ------
@dataclass(frozen=True)
class StartGroupPlayoffPage:
    """``tournament.started`` of a group-playoff event: its players and the groups' lot seed."""

    tournament_id: uuid.UUID
    name: str
    started_at: dt.datetime
    players: tuple[PagePlayer, ...]
    lot_seed: str | None


@dataclass(frozen=True)
class GroupPlayoffPageFact:
    """Another event of the page's queue: an announcement (with the matches it names), games paired
    (a group-playoff event's), a result, a withdrawal, the completion with the placing."""

    tournament_id: uuid.UUID
    announcement: Announcement | None = None
    matches: tuple[MatchFacts, ...] = ()
    games: tuple[GameFacts, ...] = ()
    result: tuple[str, GameResult] | None = None
    withdrawal: tuple[str, PageWithdrawal] | None = None
    completed: tuple[dt.datetime, tuple[tuple[str, int], ...]] | None = None
