"""The Game aggregate: two players, their colours, the clock, the moves count and the result
(RULES.md §2 "Absence", §7).

``pending → running → finished``. A game ends by a reported result, by a flag fall that nobody has to
report (the side whose time ran out loses), by forfeit when a player withdraws or is excluded, or when its
tournament closes while it is still open (a draw). Whether each side ever moved is kept: a game in which
one side never moved changes no rating.

Who reports what (RULES.md §5, the results-authority issue): a player of the game reports their own loss
(final at once) or *claims* a draw — any played result where the players run their own games — which is
final once the opponent posts the same (:meth:`Game.claim`). Two different claims make the game
``disputed``: both clocks stop and it waits for the arbiter. The organiser, an arbiter in scope and the
game server enter any result directly (:meth:`Game.report_result`, with the :class:`Decision`).

Knockouts (RULES.md §4): a game of a round its organiser has not published yet is not ``released``: it
waits, and takes no result. A match's games are played one after the other (``match_id``, ``number``),
and a game its match no longer needs is ``cancelled`` (``pending|running → cancelled``).

The game records what other services hear of (:mod:`services.clocks.domain.events`) as it changes, and
its clock keeps the changes not yet saved. A move or result reported after the flag fell is not an
error raised after the fact: the call returns a :class:`FlagFall` (the report was not applied, the game
ended on time instead), and the caller saves the game like any other.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, Clock, ClockChange, Side, TimeControl
from services.clocks.domain.decision import Decision, Role
from services.clocks.domain.events import GameCancelled, GameColoursSwapped, GameFinished, GameStarted
from shared.aggregate import Aggregate
from shared.scoring import Outcome as Outcome  # the outcomes every service shares; points come from scoring

REASON = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
TOURNAMENT_CLOSED = "tournament_closed"
MATCH_DECIDED = "match_decided"
DISPUTED = "disputed"
COLOURS_SWAPPED = "colours_swapped"
FORFEITS = frozenset({Outcome.WHITE_FORFEIT_WIN, Outcome.BLACK_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT})


class GameStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DISPUTED = "disputed"  # the players reported different results: clocks stopped, the arbiter decides
    FINISHED = "finished"
    CANCELLED = "cancelled"  # its knockout match was decided without it


def loss_for(side: Side) -> Outcome:
    return Outcome.BLACK_WIN if side is Side.WHITE else Outcome.WHITE_WIN


@dataclass(frozen=True)
class Claim:
    """A player's report that waits: for the opponent to post the same outcome, or (disputed) for the
    arbiter. ``reason`` is the claimant's (``agreement``, ``checkmate``, ...)."""

    outcome: Outcome
    reason: str
    at: dt.datetime


@dataclass(frozen=True)
class Correction:
    """A finished game's result changed by an arbiter or the organiser (pairing's decision,
    ``game.result_corrected``)."""

    old_outcome: Outcome
    outcome: Outcome
    decision: Decision


@dataclass(frozen=True)
class Forfeit:
    """How a game with a withdrawn or excluded player ends: the opponent wins by forfeit (both out: a
    double forfeit), for the reason ``withdrawal`` or ``exclusion``, as the withdrawal decided."""

    outcome: Outcome
    reason: str
    decision: Decision | None


@dataclass(frozen=True)
class FlagFall:
    """What a move or result reported too late comes to: ``side``'s time had run out at ``at`` (the
    deadline), so the report was not applied and the game ended on time with ``outcome``."""

    side: Side
    at: dt.datetime
    outcome: Outcome

    @property
    def detail(self) -> str:
        return (
            f"{self.side}'s time ran out at {self.at.isoformat()}: the game is over, {self.outcome} on time"
        )


@dataclass
class Game(Aggregate):
    id: uuid.UUID
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int
    board: int
    leg: int
    white: uuid.UUID
    black: uuid.UUID
    clock: Clock
    created_at: dt.datetime  # when it was paired
    status: GameStatus = GameStatus.PENDING
    moves: int = 0
    white_moved: bool = False
    black_moved: bool = False
    outcome: Outcome | None = None
    reason: str | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None  # or cancelled
    match_id: str | None = None  # knockouts: the match, and the game's number and name in it
    number: int | None = None
    label: str | None = None
    released: bool = True  # False while its knockout round is unpublished
    rated: bool = True  # False: a knockout's tie-break or sudden-death game
    claims: dict[Side, Claim] = field(default_factory=dict)  # reported by a player, awaiting the other
    decision: Decision | None = None  # who entered the result, if someone decided it
    corrections: list[Correction] = field(default_factory=list)

    @classmethod
    def pair(
        cls,
        *,
        game_id: uuid.UUID,
        tournament_id: uuid.UUID,
        organiser_id: uuid.UUID,
        round: int,
        board: int,
        white: uuid.UUID,
        black: uuid.UUID,
        control: TimeControl,
        at: dt.datetime,
        leg: int = 1,
        match_id: str | None = None,
        number: int | None = None,
        label: str | None = None,
        released: bool = True,
        rated: bool = True,
    ) -> Game:
        if white == black:
            raise errors.InvalidPairing(f"game {game_id}: a player cannot play themselves")
        return cls(
            game_id,
            tournament_id,
            organiser_id,
            round,
            board,
            leg,
            white,
            black,
            Clock.new(control),
            at,
            match_id=match_id,
            number=number,
            label=label,
            released=released,
            rated=rated,
        )

    # -- reading --------------------------------------------------------------------------------
    @property
    def control(self) -> TimeControl:
        return self.clock.control

    @property
    def finished(self) -> bool:
        return self.status is GameStatus.FINISHED

    @property
    def over(self) -> bool:
        """Finished or cancelled: nothing more happens to this game."""
        return self.status in (GameStatus.FINISHED, GameStatus.CANCELLED)

    @property
    def disputed(self) -> bool:
        return self.status is GameStatus.DISPUTED

    @property
    def corrected(self) -> bool:
        return bool(self.corrections)

    @property
    def deadline(self) -> dt.datetime | None:
        """When the game ends on time unless the side to move moves first; None unless running."""
        return self.clock.deadline if self.status is GameStatus.RUNNING else None

    @property
    def both_moved(self) -> bool:
        """False: one side never moved, so the game changes no rating (RULES.md §2)."""
        return self.white_moved and self.black_moved

    def side_of(self, player_id: uuid.UUID) -> Side | None:
        if player_id == self.white:
            return Side.WHITE
        if player_id == self.black:
            return Side.BLACK
        return None

    # -- playing --------------------------------------------------------------------------------
    def start(self, at: dt.datetime) -> ClockChange:
        if self.status is not GameStatus.PENDING:
            raise errors.AlreadyStarted(f"the game is already {self.status}")
        change = self.clock.start(at)
        self.status = GameStatus.RUNNING
        self.started_at = at
        self.record(
            GameStarted(self.tournament_id, self.id, self.round, self.white, self.black, at, self.control)
        )
        return change

    def release(self) -> bool:
        """Its knockout round was published: the game takes results, and its match may start it.
        True when this call released it."""
        if self.released:
            return False
        self.released = True
        return True

    def move(self, player_id: uuid.UUID, at: dt.datetime) -> FlagFall | None:
        """``player_id`` reports a completed move at ``at``: None when it was applied. Too late, the
        move is not applied: the game is finished on time, and the :class:`FlagFall` says so."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.NotAPlayer("only White and Black of this game can move")
        self._require_running()
        change = self.clock.press(side, at)
        if change.kind is ChangeKind.FLAGGED:
            return self._lose_on_time(change)
        self.moves += 1
        if side is Side.WHITE:
            self.white_moved = True
        else:
            self.black_moved = True
        if self.claims:
            self.claims = {}  # the game went on: a claim not confirmed lapses (a draw offer declined)
        return None

    def report_result(
        self, outcome: Outcome, reason: str, at: dt.datetime, *, decision: Decision | None = None
    ) -> FlagFall | None:
        """Someone with the authority to (the organiser, an arbiter in scope, the game server) enters
        the result: None when it was recorded. The clock is authoritative: if the flag had already
        fallen, the game is finished on time instead, and the :class:`FlagFall` says so. A game not
        started yet takes a result too (a forfeit); a disputed one is decided by it."""
        self._require_open_for_results()
        _check_result(outcome, reason)
        return self._end(outcome, reason, at, decision)

    def claim(
        self,
        player_id: uuid.UUID,
        outcome: Outcome,
        reason: str,
        at: dt.datetime,
        *,
        players_run_games: Callable[[], bool] = lambda: False,
    ) -> FlagFall | None:
        """A player of the game reports its result. Their own loss (a resignation) is final at once.
        A draw — and, where the players run their own games (``players_run_games``, asked only for a
        player's win), any played result — is a claim until the opponent posts the same outcome (then
        final, decided by the opponent's confirmation). The opponent's different claim makes the game
        disputed: both clocks stop and the arbiter decides. A pending claim does not stop the clock;
        the flag falling first ends the game on time (returned, as for a move)."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.NotYourGame("you do not play this game")
        self._require_open_for_results()
        _check_result(outcome, reason)
        if self.status is GameStatus.PENDING:
            raise errors.GameNotStarted("the game has not started: its players report it once it is played")
        own_loss = loss_for(side)
        if outcome in FORFEITS:
            raise errors.ResultNotAllowed(
                "a forfeit is entered by the organiser or an arbiter, not by a player"
            )
        if outcome is not own_loss and outcome is not Outcome.DRAW and not players_run_games():
            raise errors.ResultNotAllowed(
                "a player reports their own loss, or a draw for the opponent to confirm; "
                "a win is the opponent's to concede (or the arbiter's to enter)"
            )
        if self.status is GameStatus.RUNNING:
            flag = self.clock.check_flag(at)
            if flag is not None:
                return self._lose_on_time(flag)
        theirs = self.claims.get(side.other)
        if theirs is not None and theirs.outcome is outcome:
            return self._end(outcome, theirs.reason, at, Decision(player_id, Role.PLAYER, at))
        if outcome is own_loss:
            return self._end(outcome, reason, at, None)
        self.claims = {**self.claims, side: Claim(outcome, reason, at)}
        if theirs is not None and self.status is GameStatus.RUNNING:
            self.clock.stop(at, DISPUTED)  # the flag was checked at this instant: it stops
            self.status = GameStatus.DISPUTED
        return None

    def forfeit(self, forfeit: Forfeit, at: dt.datetime) -> FlagFall | None:
        """A player withdrew or was excluded: the game ends by forfeit (or on time, if the flag had
        fallen before)."""
        return self.report_result(forfeit.outcome, forfeit.reason, at, decision=forfeit.decision)

    def swap_colours(self, at: dt.datetime, decision: Decision) -> FlagFall | None:
        """The organiser or an arbiter swaps White and Black before the first move. A running clock
        starts White's turn again at ``at``: the new White has their whole time. Pending claims go
        (they named the old colours). Too late — White's flag had fallen — the game ends on time."""
        if self.finished:
            raise errors.GameOver(f"the game is already finished: {self.outcome} ({self.reason})")
        self._require_not_cancelled()
        if self.disputed:
            raise errors.ResultDisputed("the game's result is disputed: the arbiter decides it")
        if self.moves:
            raise errors.GameUnderWay(f"{self.moves} moves were made: the colours stay as they are")
        if self.status is GameStatus.RUNNING:
            change = self.clock.restart_turn(at, COLOURS_SWAPPED)
            if change.kind is ChangeKind.FLAGGED:
                return self._lose_on_time(change)
        self.white, self.black = self.black, self.white
        self.claims = {}
        self.record(
            GameColoursSwapped(self.tournament_id, self.id, self.round, self.white, self.black, decision)
        )
        return None

    def correct(self, outcome: Outcome, decision: Decision) -> bool:
        """The result is corrected (pairing decided it may be): the outcome changes, the old one is kept
        with the decision. True when this changed the outcome."""
        if not self.finished or self.outcome is None:
            raise errors.GameNotFinished(f"the game is {self.status}: only a finished game is corrected")
        if outcome is Outcome.NOT_PLAYED:
            raise errors.InvalidResult(f"{outcome.value!r} (not played) is not how a game ends")
        if outcome is self.outcome:
            return False
        self.corrections = [*self.corrections, Correction(self.outcome, outcome, decision)]
        self.outcome = outcome
        return True

    def check_flag(self, at: dt.datetime) -> bool:
        """The ticker's question: has the flag fallen by ``at``? If so the side to move loses on time,
        nobody having to report it. True when this call finished the game."""
        if self.status is not GameStatus.RUNNING:
            return False
        change = self.clock.check_flag(at)
        if change is None:
            return False
        self._lose_on_time(change)
        return True

    def cancel(self, at: dt.datetime, reason: str = MATCH_DECIDED) -> bool:
        """Its match no longer needs this game: the clock stops and nobody plays it, unless its flag
        had already fallen (then it ends on time instead). True when this call ended it one way or the
        other; a game already over stays as it is."""
        if self.over:
            return False
        if self.check_flag(at):
            return True
        if self.status is GameStatus.RUNNING:
            self.clock.stop(at, reason)
        self.status = GameStatus.CANCELLED
        self.reason = reason
        self.finished_at = at
        self.claims = {}
        self.record(GameCancelled(self.tournament_id, self.id, self.round, reason, at))
        return True

    def close(self, at: dt.datetime) -> bool:
        """The tournament closed while this game was open: a draw, unless the flag had already fallen.
        True when this call finished the game."""
        if self.over:
            return False
        if self.check_flag(at):
            return True
        self.report_result(Outcome.DRAW, TOURNAMENT_CLOSED, at)
        return True

    def _require_not_cancelled(self) -> None:
        if self.status is GameStatus.CANCELLED:
            raise errors.GameCancelled("this game was cancelled: its match was decided without it")

    def _require_running(self) -> None:
        self._require_not_cancelled()
        if self.status is GameStatus.PENDING:
            raise errors.GameNotStarted("the game has not started yet")
        if self.finished:
            raise errors.GameOver(f"the game is already finished: {self.outcome} ({self.reason})")
        if self.disputed:
            raise errors.ResultDisputed("the game's result is disputed: it waits for the arbiter")

    def _require_open_for_results(self) -> None:
        if self.finished:
            raise errors.GameOver(f"the game is already finished: {self.outcome} ({self.reason})")
        self._require_not_cancelled()
        if not self.released:
            raise errors.RoundNotPublished("this game's round is not published yet: it takes no result")

    def _end(
        self, outcome: Outcome, reason: str, at: dt.datetime, decision: Decision | None
    ) -> FlagFall | None:
        """The result stands: the clock stops (a disputed game's already has), unless the flag had
        fallen first."""
        if self.status is GameStatus.RUNNING:
            change = self.clock.stop(at, reason)
            if change.kind is ChangeKind.FLAGGED:
                return self._lose_on_time(change)
        self._finish(outcome, reason, at, decision)
        return None

    def _lose_on_time(self, change: ClockChange) -> FlagFall:
        side = self._flagged(change)
        outcome = loss_for(side)
        self._finish(outcome, change.reason, change.at)
        return FlagFall(side, change.at, outcome)

    def _flagged(self, change: ClockChange) -> Side:
        if change.side is None:
            raise errors.ClockNotRunning("a flag fall without a side")
        return change.side

    def _finish(
        self, outcome: Outcome, reason: str, at: dt.datetime, decision: Decision | None = None
    ) -> None:
        self.outcome = outcome
        self.reason = reason
        self.finished_at = at
        self.status = GameStatus.FINISHED
        self.decision = decision
        self.claims = {}
        self.record(
            GameFinished(
                self.tournament_id,
                self.id,
                self.round,
                self.white,
                self.black,
                outcome,
                reason,
                self.moves,
                at,
                self.both_moved,
                self.rated,
                decision,
            )
        )


def _check_result(outcome: Outcome, reason: str) -> None:
    if outcome is Outcome.NOT_PLAYED:
        raise errors.InvalidResult(f"{outcome.value!r} (not played) is not how a game ends")
    if not REASON.match(reason):
        raise errors.InvalidResult(
            f"the reason must be a short lowercase code like 'resignation' or 'agreement', got {reason!r}"
        )
