"""Commands: what the pairing service is asked to do (imperative). The consumed events become
commands in ``adapters/wire.py``; the HTTP API builds :class:`PublishRound`, :class:`CorrectResult`,
:class:`RequestBye`, :class:`TakeBackBye` and :class:`ResetTournament`."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.pairing.domain.heading import Heading, Player
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.tournament import FideRules
from shared.commands import Actor as Actor  # re-exported: every command names its actor
from shared.openings import FREE, OpeningOption
from shared.scoring import Outcome
from shared.time_control import TieBreakSchedule
from shared.variants import Variant
from shared.vocabulary import BracketFormat, Seeding


@dataclass(frozen=True)
class StartRounds:
    """Start a `platform` tournament: a round robin below the threshold, a Swiss at or above it."""

    heading: Heading
    players: tuple[Player, ...]
    threshold: int
    extra_round: bool = False
    double_rounds: bool = False
    byes_on_request: bool = False
    variant: Variant = Variant.CHESS
    opening: OpeningOption = FREE
    ends_at: dt.datetime | None = None  # the announced end: start + duration
    fide: FideRules | None = None
    """A `fide-rapid` event: paired on its arbiters' command, by ``fide_plan`` (its system and rounds)."""
    fide_plan: Plan | None = None
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""

    @property
    def tournament_id(self) -> uuid.UUID:
        return self.heading.id


@dataclass(frozen=True)
class StartElimination:
    """Start a knockout or a double knockout, seeded as the roster is (RULES.md §4)."""

    heading: Heading
    players: tuple[Player, ...]
    format: BracketFormat
    games_per_match: int
    seeding: Seeding
    tiebreak_plan: TieBreakSchedule
    draw_seed: int | None = None
    third_place: bool = False
    second_final: bool = True
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""

    @property
    def tournament_id(self) -> uuid.UUID:
        return self.heading.id


@dataclass(frozen=True)
class StartGroupPlayoff:
    """Start a group-playoff event (RULES.md §5): eight players by seed, the groups drawn from the
    recorded lot seed (who drew it: ``drawn_by``)."""

    heading: Heading
    players: tuple[Player, ...]
    lot_seed: int
    drawn_by: uuid.UUID
    cannot_create: frozenset[uuid.UUID] = frozenset()  # said at entry they cannot create games (4T1 §4(5))
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""

    @property
    def tournament_id(self) -> uuid.UUID:
        return self.heading.id


StartTournament = StartRounds | StartElimination | StartGroupPlayoff


@dataclass(frozen=True)
class AnnouncePhase:
    """The organiser opens phase 2 or 3 of a group-playoff event (phase 2 ``with_placement``: the 5th
    and 7th-place matches at the same time)."""

    actor: Actor
    tournament_id: uuid.UUID
    phase: int
    with_placement: bool = False


@dataclass(frozen=True)
class DrawGroupLots:
    """The organiser draws the lot for what a group's play-off left tied (4T1 §5(3)(f))."""

    actor: Actor
    tournament_id: uuid.UUID
    group: str
    seed: str


@dataclass(frozen=True)
class DrawGameLot:
    """The organiser decides an overdue game by a recorded lot (4T1 §4(10))."""

    actor: Actor
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    seed: str


@dataclass(frozen=True)
class SetPhaseDeadline:
    """The organiser sets the date by which a phase must be finished."""

    actor: Actor
    tournament_id: uuid.UUID
    phase: int
    at: dt.datetime


@dataclass(frozen=True)
class PairRound:
    """Pair round ``number`` if it is due and not paired yet (a pairing worker's job)."""

    tournament_id: uuid.UUID
    number: int


@dataclass(frozen=True)
class RecordResult:
    """A game of round ``round`` ended (``game.finished``)."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    outcome: Outcome
    finished_at: dt.datetime
    reason: str | None = None
    """Why it ended: ``default_time`` is a loss by absence (fide-rapid)."""


@dataclass(frozen=True)
class PublishRound:
    """Make a paired knockout or `fide-rapid` round public (RULES.md §4, §6): its pairings are shown and
    its games may start."""

    actor: Actor
    tournament_id: uuid.UUID
    number: int


@dataclass(frozen=True)
class PairOnCommand:
    """An arbiter pairs round ``number`` of a `fide-rapid` event (unpublished until they publish it), once
    pairing has heard the roster up to ``roster_revision`` (None: as it stands)."""

    actor: Actor
    tournament_id: uuid.UUID
    number: int
    roster_revision: int | None = None


@dataclass(frozen=True)
class ExcuseAbsence:
    """An arbiter excuses a player's absence from ``round`` before the next pairing is published."""

    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
    reason: str | None = None


# -- facts from registration and the clocks ----------------------------------------------------------------
@dataclass(frozen=True)
class AddLatePlayer:
    """``player.joined``: after the start (``late``), a late entry of a `fide-rapid` event."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    name: str
    rating: int | None
    late: bool
    from_round: int | None
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""


@dataclass(frozen=True)
class RecordWithdrawal:
    """A player left the started tournament for good (``player.withdrawn``): withdrawn or excluded."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    excluded: bool
    reason: str
    at: dt.datetime | None = None
    """When it was decided (None: an older producer did not say; the handler's now)."""
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""


@dataclass(frozen=True)
class RecordAppointment:
    """The organiser appointed an arbiter (``arbiter.appointed``); ``games`` None: the whole tournament."""

    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    games: frozenset[uuid.UUID] | None
    at: dt.datetime


@dataclass(frozen=True)
class RecordRevocation:
    """The organiser revoked an arbiter (``arbiter.revoked``)."""

    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    at: dt.datetime


@dataclass(frozen=True)
class RecordColours:
    """A game not yet played changed colours (``game.colours_swapped``)."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID


# -- decisions over HTTP -------------------------------------------------------------------------------
@dataclass(frozen=True)
class CorrectResult:
    """Correct a finished game's result (an arbiter in scope or the organiser, with a reason)."""

    actor: Actor
    game_id: uuid.UUID
    outcome: Outcome
    reason: str


@dataclass(frozen=True)
class Corrected:
    """What a correction changed (the answer to :class:`CorrectResult`)."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    old_outcome: Outcome
    outcome: Outcome


@dataclass(frozen=True)
class RequestBye:
    """A zero-point bye for a round not paired yet (the player, an arbiter or the organiser)."""

    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
    reason: str | None = None


@dataclass(frozen=True)
class TakeBackBye:
    """Take a requested bye back before its round is paired."""

    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class ResetTournament:
    """Put a knockout back to its draft (the organiser, while round 1 is its only round and no game has
    a result)."""

    actor: Actor
    tournament_id: uuid.UUID


# -- arenas (docs/arena.md) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class StartArena:
    """``tournament.started`` of an arena: its row, and every entrant into the waiting pool."""

    heading: Heading
    players: tuple[Player, ...]
    ends_at: dt.datetime
    variant: Variant = Variant.CHESS
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""

    @property
    def tournament_id(self) -> uuid.UUID:
        return self.heading.id


@dataclass(frozen=True)
class ArenaEntry:
    """An arena's player joined (or came back), paused or left: into the pool or out of it."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    kind: str  # "join" | "pause" | "leave"
    rating: int | None = None
    roster_revision: int | None = None
    """The roster revision it brought (docs/events.md); None: from an older producer."""


@dataclass(frozen=True)
class RecordArenaResult:
    """A game of an arena ended (``game.finished`` with its boosts): the players back into the pool."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    outcome: Outcome
    finished_at: dt.datetime
    white_boost: bool = False
    black_boost: bool = False


@dataclass(frozen=True)
class RecordPlaying:
    """A game anywhere in Arbiter started or ended: its players' in-game marker (an arena pairs nobody
    who is playing elsewhere)."""

    game_id: uuid.UUID
    players: tuple[uuid.UUID, ...]
    playing: bool


@dataclass(frozen=True)
class GameOver:
    """``game.finished``, once for both its consequences here: the players' in-game marker goes, and the
    result is recorded (``result``)."""

    result: RecordResult | RecordArenaResult
    playing: RecordPlaying


@dataclass(frozen=True)
class RunArenaPasses:
    """A pairing worker's tick: a pass over each open arena whose lease it can take."""

    token: str
