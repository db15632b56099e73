"""The events pairing publishes: rounds paired, published and completed, an arena's games, a knockout's
decided matches and final placing, byes and absences, resets, and what a group-playoff event announces."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.events.envelope import Event, register
from shared.events.values import DecisionBy, GameOutcome, TimeControl
from shared.variants import Variant
from shared.vocabulary import ByeKind, DecidedIn, Section, System


class GameOpening(BaseModel):
    """The opening a game starts from (RULES.md §2): a table code (None for random moves), the moves in
    the variant's notation (SAN for chess) and the position after them (FEN)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str | None = Field(None, max_length=20)
    moves: list[str] = Field(max_length=20)
    fen: str = Field(max_length=200)

    @property
    def label(self) -> str:
        """What pages and ``arbiter demo --json`` show: the table code, or the moves played."""
        return self.code if self.code is not None else " ".join(self.moves)


GroupPlayoffStage = Literal[
    "group", "playoff", "semi-final", "final", "third-place", "fifth-place", "seventh-place"
]


class GroupPlayoffMatch(BaseModel):
    """A match of a `group-playoff` event (RULES.md §5): what it is for, its group, its players (the one
    named first, who invites, first), and who withdrew from it (scored 0:2) if anyone."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    stage: GroupPlayoffStage
    phase: int = Field(ge=1, le=3)
    group: Literal["I", "II"] | None = None
    match: str = Field(max_length=200, description="the match's key: stage:first:second")
    players: list[uuid.UUID] = Field(min_length=2, max_length=2, description="the one named first first")
    forfeited_by: uuid.UUID | None = Field(None, description="withdrawn or excluded: the match scored 0:2")


class GroupPlayoffGame(GroupPlayoffMatch):
    """A `group-playoff` game's place in its event: its match, and who invites (creates) it."""

    inviter: uuid.UUID = Field(
        description="the player who creates the game: the one named first, unless they cannot create games"
        " and the other can (4T1 §4(5))"
    )
    extra: int = Field(0, ge=0, le=2, description="0: one of the match's two games; 1, 2: an extra game")


class PairedGame(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game_id: uuid.UUID
    board: int = Field(ge=1)
    white: uuid.UUID
    black: uuid.UUID
    leg: int = Field(1, ge=1, le=2, description="2 = the return game of a double round")
    # knockouts (RULES.md §4): a match is several games, played one after the other
    match_id: str | None = Field(None, description="the bracket match this game belongs to")
    number: int | None = Field(None, ge=1, description="the game's number within its match")
    label: str | None = Field(None, description="e.g. 'Game 2', 'Tie-break 1, game 1 (15+10)'")
    time_control: TimeControl | None = Field(
        None, description="the game's own time control (tie-break games); None: the round's"
    )
    rated: bool = Field(True, description="false: a knockout tie-break or sudden-death game (RULES.md §4)")
    opening: GameOpening | None = Field(None, description="platform: the drawn opening; None: free")
    group_playoff: GroupPlayoffGame | None = Field(
        None, description="group-playoff: the game's phase, match and inviter"
    )


class PairedMatch(BaseModel):
    """A bracket match of a knockout round; a bye (walkover) has one player and no games."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    match_id: str = Field(description="section:round:number, e.g. winners:2:1")
    section: Section
    section_round: int = Field(ge=1)
    number: int = Field(ge=1)
    board: int | None = Field(None, ge=1, description="None for a bye")
    players: list[uuid.UUID | None] = Field(min_length=2, max_length=2, description="slot order")
    first_white: uuid.UUID | None = Field(None, description="White in the first game (drawn)")


class Bye(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    player_id: uuid.UUID
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


@register
class RoundPaired(Event):
    TYPE: ClassVar[str] = "round.paired"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int = Field(ge=1)
    total_rounds: int = Field(ge=1)
    system: System
    games: list[PairedGame]
    byes: list[Bye] = Field([])
    time_control: TimeControl
    published: bool | None = Field(
        None,
        description="False: only organisers see the round until round.published (knockouts); "
        "None: public when paired",
    )
    matches: list[PairedMatch] = Field(default_factory=list, description="knockouts: the round's matches")
    variant: Variant = Field(Variant.CHESS, description="the tournament's variant: the board its games use")
    games_cancelled: list[uuid.UUID] = Field(
        default_factory=list,
        description="knockouts: games announced before that will not be played, because a correction "
        "changed who plays their match (paired again, with new games, in this announcement)",
    )


class ArenaGame(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID


@register
class ArenaPaired(Event):
    """An arena pass paired these games (docs/arena.md): clocks creates and starts them at once. A game is
    announced once per pass that made it; a worker taking over an arena may announce it again (same id)."""

    TYPE: ClassVar[str] = "arena.paired"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    games: list[ArenaGame]
    time_control: TimeControl
    paired_at: dt.datetime
    variant: Variant = Field(Variant.CHESS, description="the arena's variant: the board its games use")


@register
class RoundPublished(Event):
    """The organiser published a paired knockout round: its pairings are public, its games may start."""

    TYPE: ClassVar[str] = "round.published"
    tournament_id: uuid.UUID
    round: int = Field(ge=1)
    published_at: dt.datetime
    restarts: int | None = Field(
        default=None,
        ge=0,
        description="the number of the knockout's start the round belongs to: the resets to its draft before "
        "it (0: its first start; null: a producer before starts were numbered)",
    )


@register
class MatchDecided(Event):
    """A knockout match has its winner; the games it no longer needs are listed to be cancelled."""

    TYPE: ClassVar[str] = "match.decided"
    tournament_id: uuid.UUID
    match_id: str
    round: int = Field(ge=1)
    section: Section
    players: list[uuid.UUID] = Field(min_length=2, max_length=2)
    winner: uuid.UUID
    how: DecidedIn
    games_cancelled: list[uuid.UUID] = Field(default_factory=list)
    decided_at: dt.datetime
    revision: int | None = Field(
        default=None,
        ge=1,
        description="the match's decisions so far, this one included: 1 for its first, one more for each "
        "decision after a correction; a consumer keeps the decision with the highest (null: a producer "
        "before revisions)",
    )


@register
class ByeRequested(Event):
    """A zero-point bye for a round not yet paired, asked by the player or granted by an arbiter
    (RULES.md §6): the player is left out of that round's pairing."""

    TYPE: ClassVar[str] = "bye.requested"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1)
    kind: ByeKind = ByeKind.ZERO_POINT
    decision: DecisionBy


@register
class ByeTakenBack(Event):
    """A zero-point bye asked for a round not yet paired, taken back before it was paired (by the player,
    an arbiter or the organiser): the player is paired in that round again."""

    TYPE: ClassVar[str] = "bye.taken_back"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1)
    decision: DecisionBy


@register
class TournamentReset(Event):
    """The organiser reset a knockout to its draft: round 1 is undone (RULES.md §4)."""

    TYPE: ClassVar[str] = "tournament.reset"
    tournament_id: uuid.UUID
    decision: DecisionBy
    games: list[uuid.UUID] = Field(
        default_factory=list,
        description="the games the reset removed (every game paired for the start it undoes): news of them "
        "that comes after the reset is settled, not waited for",
    )
    restarts: int | None = Field(
        default=None,
        ge=0,
        description="the number of the start it undoes: the resets before it (0: the knockout's first start; "
        "null: a producer before starts were numbered)",
    )


@register
class AbsenceUnexcused(Event):
    """A player lost by default (not at the board in time) and no arbiter excused it before the next round was
    paired: by FIDE C.04.2 the player counts as withdrawn (registration withdraws them)."""

    TYPE: ClassVar[str] = "absence.unexcused"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1, description="the round the player was absent from")


@register
class AbsenceExcused(Event):
    """An arbiter accepted the reasons for an absence before the next pairing: the player is paired again."""

    TYPE: ClassVar[str] = "absence.excused"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1)
    decision: DecisionBy


@register
class RoundCompleted(Event):
    TYPE: ClassVar[str] = "round.completed"
    tournament_id: uuid.UUID
    round: int


class Placing(BaseModel):
    """A knockout's final place: players out in the same round share ``places``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    player_id: uuid.UUID
    seed: int = Field(ge=1)
    rank: int = Field(ge=1, description="dense: one step per group")
    places: list[int] = Field(min_length=2, max_length=2, description="the span shared, e.g. [5, 8]")
    matches_won: int = Field(ge=0)


@register
class TournamentCompleted(Event):
    TYPE: ClassVar[str] = "tournament.completed"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    rounds: int
    completed_at: dt.datetime
    placing: list[Placing] | None = Field(None, description="knockouts: the final placing")


@register
class GroupPlayoffAnnounced(Event):
    """What a group-playoff event announces on its page (RULES.md §5): ``groups`` (a group as the lot drew
    it), ``playoff`` (a play-off match the event created), ``lot`` (the organiser's lot for a tie, the
    players in the order drawn), ``colour-lot`` (White in the final's extra game), ``phase`` (a phase
    opened, with the matches it opened), ``deadline`` (a phase's deadline), ``withdrawal`` (a player
    withdrawn or excluded: every match of ``phase`` scored 0:2), ``game-lot`` (an overdue game's result
    drawn by the organiser's lot: ``game_id``, ``result``, the players in the order drawn, the first
    drawn wins)."""

    TYPE: ClassVar[str] = "group_playoff.announced"
    tournament_id: uuid.UUID
    kind: Literal["groups", "playoff", "lot", "colour-lot", "phase", "deadline", "withdrawal", "game-lot"]
    at: dt.datetime
    phase: int | None = Field(None, ge=1, le=3)
    group: Literal["I", "II"] | None = None
    players: list[uuid.UUID] = Field([])
    seed: str | None = Field(None, description="the lot's recorded seed")
    drawn_by: str | None = Field(None, description="who drew the lot ('system': from the event's seed)")
    deadline: dt.datetime | None = None
    matches: list[GroupPlayoffMatch] = Field(
        default_factory=list, description="phase, playoff: the matches created (those scored 0:2 too)"
    )
    game_id: uuid.UUID | None = Field(None, description="game-lot: the overdue game")
    result: GameOutcome | None = Field(None, description="game-lot: the result the lot gave")
