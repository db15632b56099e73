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
game server enter any result directly (:meth:`Game.report_result`, with the :class:`~shared.authority.Decided`).

Knockouts (RULES.md §4): a game of a round its organiser has not published yet is not ``released``: it
waits, and takes no result. A match's games are played one after the other (``match_id``, ``number``),
and a game its match no longer needs is ``cancelled`` (``pending|running → cancelled``).

Double rounds (RULES.md §2): a pairing's two games are played one after the other. Leg 2 exists from the
pairing on but waits, pending, until leg 1 ends (``next_leg``, :mod:`.legs`); :meth:`Game.begin` then
starts it with a clock of its own.

FIDE rapid (RULES.md §6): over the board (``server_clock`` False) the boards keep the time: the game
runs with no clock on the server — no move is reported, no flag falls — and takes results, absences
and penalties. A player not at the board by the default time loses by forfeit (:mod:`.default_time`:
applied by the server's clock, or an absence an arbiter records). An arbiter imposes penalties
(:meth:`Game.penalise`, :mod:`.penalties`): a loss by penalty ends the game with nobody entering the
result.

Its status, the reasons it ends for, and what it keeps or answers on the way (claims, corrections,
forfeits, a :class:`FlagFall`) are in :mod:`.endings`.

The game records what other services hear of (:mod:`services.clocks.domain.events`) as it changes, and
its clock keeps the changes not yet saved. A move or result reported after the flag fell is not an
error raised after the fact: the call returns a :class:`FlagFall` (the report was not applied, the game
ended on time instead), and the caller saves the game like any other.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from services.clocks.domain import errors
from services.clocks.domain.boost import BoostNotOffered, boost
from services.clocks.domain.clock import ChangeKind, Clock, ClockChange, ClockRate, Side
from services.clocks.domain.default_time import DefaultTime
from services.clocks.domain.endings import (
    BOARD_CLOCK,
    COLOURS_SWAPPED,
    DISCONNECTED,
    DISPUTED,
    FORFEITS,
    MATCH_DECIDED,
    MATCH_REPAIRED,
    REASON,
    TOURNAMENT_CLOSED,
    TOURNAMENT_RESET,
    Claim,
    Correction,
    FlagFall,
    Forfeit,
    GameStatus,
    loss_for,
)
from services.clocks.domain.events import (
    GameCancelled,
    GameColoursSwapped,
    GameFinished,
    GamePenalised,
    GameStarted,
)
from services.clocks.domain.penalties import (
    EXTRA_MINUTE_MS,
    ILLEGAL_MOVE,
    ILLEGAL_MOVE_PENALTY,
    Consequence,
    Incident,
    PenaltyKind,
    displaced,
    illegal_moves,
    sanction,
    under_a_minute,
)
from services.clocks.domain.presence import Reconnection
from shared.aggregate import Aggregate
from shared.authority import Decided, Role
from shared.games import boards
from shared.openings import DrawnOpening
from shared.scoring import Outcome as Outcome  # the outcomes every service shares; points come from scoring
from shared.variants import Variant
from shared.vocabulary import Ruleset


@dataclass
class Game(Aggregate, DefaultTime, Reconnection):
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
    decision: Decided | None = None  # who entered the result, if someone decided it
    corrections: list[Correction] = field(default_factory=list)
    server_clock: bool = True  # False over the board: the boards keep the time, the server runs no clock
    default_time: dt.timedelta | None = None  # server clocks: no first move by then loses by forfeit
    incidents: list[Incident] = field(default_factory=list)  # penalties, oldest first
    variant: Variant = Variant.CHESS
    opening: DrawnOpening | None = None  # the drawn opening it starts from (RULES.md §2); None: free
    position: str | None = None  # the FEN now, once a move was reported with its text; None: the start
    line: list[str] = field(default_factory=list)  # the moves reported with their text, after the opening
    closes_at: dt.datetime | None = None  # its tournament's close (duration + 10 min): still open, a draw
    away: Side | None = None  # disconnected after their first move: back by ``back_by`` or the game is lost
    back_by: dt.datetime | None = None
    arena: bool = False  # an arena's game: the players may take the boost (RULES.md §3)
    # its tournament's ruleset as known when it was created (None: not known yet then); what its result
    # is routed by (``game.finished.<ruleset>``, shared.events.QUALIFIERS)
    ruleset: Ruleset | None = None
    # a double round's leg 1: the pairing's leg 2, which waits and starts when this game ends (legs.py)
    next_leg: uuid.UUID | None = None

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
        control: ClockRate,
        at: dt.datetime,
        leg: int = 1,
        match_id: str | None = None,
        number: int | None = None,
        label: str | None = None,
        released: bool = True,
        rated: bool = True,
        server_clock: bool = True,
        default_time: dt.timedelta | None = None,
        variant: Variant = Variant.CHESS,
        opening: DrawnOpening | None = None,
        closes_at: dt.datetime | None = None,
        arena: bool = False,
        ruleset: Ruleset | None = None,
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
            server_clock=server_clock,
            default_time=default_time if server_clock else None,
            variant=variant,
            opening=opening,
            closes_at=closes_at,
            arena=arena,
            ruleset=ruleset,
        )

    # -- reading --------------------------------------------------------------------------------
    @property
    def control(self) -> ClockRate:
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
        """When the game ends on the server unless the side to move moves first: its flag falls, or (the
        default time) a player's first move is missing. None unless running on the server's clock."""
        if self.status is not GameStatus.RUNNING:
            return None
        flag = self.clock.deadline
        for other in (self.closes_at, self.back_by):
            if other is not None:
                flag = other if flag is None else min(flag, other)
        if self.default_time is None:
            return flag
        due = self._default_due()
        if due is None:
            return flag
        return due[1] if flag is None else min(flag, due[1])

    @property
    def both_moved(self) -> bool | None:
        """False: one side never moved, so the game changes no rating (RULES.md §2). None over the board:
        the server does not see the moves."""
        if not self.server_clock:
            return None
        return self.white_moved and self.black_moved

    @property
    def first_to_move(self) -> Side:
        """Who moves first: White from chess's initial position; otherwise as the start position says
        (an opening of an odd number of moves; English draughts, where Black moves first)."""
        if self.variant is Variant.CHESS and self.opening is None:
            return Side.WHITE
        return Side.WHITE if boards.white_to_move(self.start_position) else Side.BLACK

    @property
    def start_position(self) -> boards.Position:
        """The position the game starts from: after its opening, or the variant's initial one."""
        if self.opening is not None:
            return boards.Position(self.variant, self.opening.fen)
        return boards.start(self.variant)

    @property
    def board_position(self) -> boards.Position:
        """The position now, as far as the reported moves say (moves reported without their text are
        not on it)."""
        return self.start_position if self.position is None else boards.Position(self.variant, self.position)

    @property
    def tracked(self) -> bool:
        """Whether the board follows the game: every move so far was reported with its text. A game whose
        moves are reported as clock presses only (over an older client) is timed, not checked."""
        return self.moves == len(self.line)

    def side_of(self, player_id: uuid.UUID) -> Side | None:
        if player_id == self.white:
            return Side.WHITE
        if player_id == self.black:
            return Side.BLACK
        return None

    # -- playing --------------------------------------------------------------------------------
    def begin(self, at: dt.datetime, forfeit: Forfeit | None = None) -> None:
        """The game's turn has come: its round starts, or the game before it ended (in its knockout
        match, or a double round's leg 1). It starts now — unless it ends at once: drawn at the close
        when its tournament has closed already (RULES.md §2 "Duration": a game still open then is
        drawn; a leg 2 whose leg 1 ended after the close is never played), or by ``forfeit`` (a player
        withdrew, or is busy elsewhere now)."""
        if self.closes_at is not None and at >= self.closes_at:
            self.report_result(Outcome.DRAW, TOURNAMENT_CLOSED, self.closes_at)
        elif forfeit is not None:
            self.forfeit(forfeit, at)
        else:
            self.start(at)

    def start(self, at: dt.datetime) -> ClockChange | None:
        """The game begins; White's time runs on the server's clock (over the board: on the board's, and
        the server's stays as it is)."""
        if self.status is not GameStatus.PENDING:
            raise errors.AlreadyStarted(f"the game is already {self.status}")
        change = self.clock.start(at, first=self.first_to_move) if self.server_clock else None
        self.status = GameStatus.RUNNING
        self.started_at = at
        self.record(
            GameStarted(self.tournament_id, self.id, self.round, self.white, self.black, at, self.control)
        )
        return change

    def take_boost(self, player_id: uuid.UUID, at: dt.datetime) -> FlagFall | None:
        """An arena's player takes the boost before their own first move (RULES.md §3, ``boost.py``):
        the clock change is recorded with its reason. Refused (409) outside an arena, after one's first
        move, twice, with no base time, or when the player cannot pay for it. If the flag had fallen
        first, that stands (returned, as for a move)."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.NotAPlayer("only White and Black of this game can take its boost")
        if not self.arena:
            raise BoostNotOffered("the boost is taken in arena games only")
        self._require_running()
        late = self._time_out(at)
        if late is not None:
            return late
        taken = boost(self.clock, side, at, moved=self._moved(side), boosted=side in self.clock.boosted)
        change = taken.apply(self.clock, at)
        if change.kind is ChangeKind.FLAGGED:
            return self._lose_on_time(change)
        return None

    @property
    def boosted(self) -> tuple[bool, bool] | None:
        """An arena game: (White, Black) took the boost; None for other games."""
        if not self.arena:
            return None
        return Side.WHITE in self.clock.boosted, Side.BLACK in self.clock.boosted

    def release(self) -> bool:
        """Its knockout round was published: the game takes results, and its match may start it.
        True when this call released it."""
        if self.released:
            return False
        self.released = True
        return True

    def move(self, player_id: uuid.UUID, at: dt.datetime, move: str | None = None) -> FlagFall | None:
        """``player_id`` reports a completed move at ``at``: None when it was applied. Too late, the
        move is not applied: the game is finished on time, and the :class:`FlagFall` says so. With its
        text (``move``, in the variant's notation) the move is checked by the variant's move generator
        (:class:`~shared.games.boards.IllegalMove` if it is not legal) and played on the board."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.NotAPlayer("only White and Black of this game can move")
        self._require_running()
        if not self.server_clock:
            raise errors.BoardClock("the boards keep this game's time: its moves are not reported")
        if self.default_time is not None:
            defaulted = self._defaulted(at)
            if defaulted is not None:
                return defaulted
        played: tuple[str, boards.Position] | None = None
        if move is not None and side is self.clock.to_move and self.tracked:
            before = self.board_position
            written = boards.notation(before, move)  # IllegalMove (422) before the clock is pressed
            played = (written, boards.play(before, written))
        change = self.clock.press(side, at)
        if change.kind is ChangeKind.FLAGGED:
            return self._lose_on_time(change)
        if played is not None:
            self.line.append(played[0])
            self.position = played[1].fen
        self.moves += 1
        if side is Side.WHITE:
            self.white_moved = True
        else:
            self.black_moved = True
        if self.claims:
            self.claims = {}  # the game went on: a claim not confirmed lapses (a draw offer declined)
        return None

    def penalise(
        self,
        player_id: uuid.UUID,
        kind: PenaltyKind,
        at: dt.datetime,
        decision: Decided,
        *,
        displaced_elsewhere: int = 0,
        white_ms: int | None = None,
        black_ms: int | None = None,
    ) -> FlagFall | None:
        """An arbiter penalises ``player_id`` (:mod:`.penalties`): the incident is kept with its
        occurrence and consequence (``game.penalised``). The extra minute changes the opponent's time on
        the server's clock (over the board the arbiter sets the board's clock: the incident is the
        record); a loss ends the game, reason ``illegal_move``, with the arbiter's decision.
        ``displaced_elsewhere``: the player's displaced-pieces occurrences in the tournament's other
        games. The remaining times decide whether a warning is skipped: the server's clock says them
        (stating them is refused), over the board the arbiter states them, required for displaced
        pieces. If the server's clock had decided the game first, that stands (returned, as for a move)."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.PlayerNotInGame(f"{player_id} does not play this game")
        self._require_running()
        if self.server_clock:
            if white_ms is not None or black_ms is not None:
                raise errors.TimesFromTheClock(
                    "the server keeps this game's clock: the remaining times are its own"
                )
            late = self._time_out(at)
            if late is not None:
                return late
            white_ms = self.clock.remaining_ms(Side.WHITE, at)
            black_ms = self.clock.remaining_ms(Side.BLACK, at)
        elif kind is PenaltyKind.DISPLACED_PIECES and (white_ms is None or black_ms is None):
            raise errors.TimesRequired(
                "state both remaining times (white_ms, black_ms): under one minute the warning is skipped"
            )
        mine = [i for i in self.incidents if i.player_id == player_id]
        penalty = sanction(
            kind,
            illegal_moves_before=illegal_moves(mine, player_id),
            displaced_before=displaced_elsewhere + displaced(mine, player_id),
            under_a_minute=under_a_minute(white_ms, black_ms),
        )
        incident = Incident(
            at, kind, player_id, penalty.occurrence, penalty.consequence, decision, white_ms, black_ms
        )
        self.incidents = [*self.incidents, incident]
        self.record(
            GamePenalised(
                self.tournament_id,
                self.id,
                self.round,
                player_id,
                kind,
                penalty.occurrence,
                penalty.consequence,
                decision,
            )
        )
        if penalty.consequence is Consequence.EXTRA_MINUTE and self.clock.running:
            self.clock.adjust(side.other, EXTRA_MINUTE_MS, ILLEGAL_MOVE_PENALTY, at)
        elif penalty.consequence is Consequence.LOSS:
            return self._end(loss_for(side), ILLEGAL_MOVE, at, decision)
        return None

    def keep_time(self, server_clock: bool, default_time: dt.timedelta | None, at: dt.datetime) -> bool:
        """What the tournament says of its clocks (``tournament.started``) arrived after the game was
        created: over the board the server's clock stops (nobody reports moves there: it would only
        flag White); with server clocks the default time applies — unless it has passed already: it is not
        applied after the fact (the players may have moved meanwhile). True when this changed the game."""
        if not server_clock or (
            default_time is not None and self.started_at is not None and self.started_at + default_time <= at
        ):
            default_time = None
        if self.over or (self.server_clock, self.default_time) == (server_clock, default_time):
            return False
        if self.server_clock and not server_clock and self.clock.running:
            change = self.clock.stop(at, BOARD_CLOCK)
            if change.kind is ChangeKind.FLAGGED:
                self._lose_on_time(change)
                return True
        self.server_clock, self.default_time = server_clock, default_time
        return True

    def report_result(
        self, outcome: Outcome, reason: str, at: dt.datetime, *, decision: Decided | None = None
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
            late = self._time_out(at)
            if late is not None:
                return late
        theirs = self.claims.get(side.other)
        if theirs is not None and theirs.outcome is outcome:
            return self._end(outcome, theirs.reason, at, Decided(player_id, Role.PLAYER, at))
        if outcome is own_loss:
            return self._end(outcome, reason, at, None)
        self.claims = {**self.claims, side: Claim(outcome, reason, at)}
        if theirs is not None and self.status is GameStatus.RUNNING:
            if self.clock.running:
                self.clock.stop(at, DISPUTED)  # the flag was checked at this instant: it stops
            self.status = GameStatus.DISPUTED
        return None

    def forfeit(self, forfeit: Forfeit, at: dt.datetime) -> FlagFall | None:
        """A player withdrew or was excluded: the game ends by forfeit (or on time, if the flag had
        fallen before)."""
        return self.report_result(forfeit.outcome, forfeit.reason, at, decision=forfeit.decision)

    def swap_colours(self, at: dt.datetime, decision: Decided) -> FlagFall | None:
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
        if self.status is GameStatus.RUNNING and self.default_time is not None:
            defaulted = self._defaulted(at)
            if defaulted is not None:
                return defaulted
        if self.status is GameStatus.RUNNING and self.clock.running:
            change = self.clock.restart_turn(at, COLOURS_SWAPPED)
            if change.kind is ChangeKind.FLAGGED:
                return self._lose_on_time(change)
        self.white, self.black = self.black, self.white
        self.claims = {}
        self.record(
            GameColoursSwapped(self.tournament_id, self.id, self.round, self.white, self.black, decision)
        )
        return None

    def correct(self, outcome: Outcome, decision: Decided) -> bool:
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
        nobody having to report it — or, first, has the default time passed with a player's first move
        missing? Then that player loses by forfeit. True when this call finished the game."""
        if self.status is not GameStatus.RUNNING:
            return False
        if self.default_time is not None and self._defaulted(at) is not None:
            return True
        if self._closing(at):
            assert self.closes_at is not None
            self.report_result(Outcome.DRAW, TOURNAMENT_CLOSED, self.closes_at)
            return True
        if self._gone(at):
            assert self.away is not None and self.back_by is not None
            self.report_result(loss_for(self.away), DISCONNECTED, self.back_by)
            return True
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
        if self.status is GameStatus.RUNNING and self.clock.running:
            self.clock.stop(at, reason)
        self.status = GameStatus.CANCELLED
        self.reason = reason
        self.finished_at = at
        self.claims = {}
        self.record(
            GameCancelled(self.tournament_id, self.id, self.round, reason, at, self.white, self.black)
        )
        return True

    def undo(self, at: dt.datetime) -> bool:
        """Its knockout's reset to the draft removes the game (round 1 never happened). A game that
        started (``game.started`` marked its players as in it) is cancelled, reason ``tournament_reset``,
        so that the mark goes; its clock stops where it is (no flag falls: nobody loses a removed game).
        True when it was cancelled; a game not started, or over, records nothing."""
        if self.status not in (GameStatus.RUNNING, GameStatus.DISPUTED):
            return False
        if self.clock.running:
            self.clock.stop(at, TOURNAMENT_RESET)
        self.status = GameStatus.CANCELLED
        self.reason = TOURNAMENT_RESET
        self.finished_at = at
        self.claims = {}
        self.record(
            GameCancelled(
                self.tournament_id, self.id, self.round, TOURNAMENT_RESET, at, self.white, self.black
            )
        )
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

    def closes(self, closes_at: dt.datetime | None) -> bool:
        """Its tournament's close, heard after the game was created (``tournament.started`` travels on
        another queue than ``round.paired``). True when this changed the game."""
        if self.over or self.closes_at == closes_at:
            return False
        self.closes_at = closes_at
        return True

    def _closing(self, at: dt.datetime) -> bool:
        """Whether the tournament's close came by ``at`` before this game's flag fell (RULES.md §2
        "Duration": a game still open then is drawn)."""
        if self.closes_at is None or at < self.closes_at:
            return False
        flag = self.clock.deadline
        return flag is None or flag > self.closes_at

    def _require_not_cancelled(self) -> None:
        if self.status is GameStatus.CANCELLED:
            why = (
                "its match was paired again with other players"
                if self.reason == MATCH_REPAIRED
                else "its match was decided without it"
            )
            raise errors.GameAlreadyCancelled(f"this game was cancelled: {why}")

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
        self, outcome: Outcome, reason: str, at: dt.datetime, decision: Decided | None
    ) -> FlagFall | None:
        """The result stands: the clock stops (a disputed game's already has; over the board there is
        none), unless the flag had fallen — or the default time passed — first."""
        if self.status is GameStatus.RUNNING and self.default_time is not None:
            defaulted = self._defaulted(at)
            if defaulted is not None:
                return defaulted
        if self.status is GameStatus.RUNNING and self.clock.running:
            change = self.clock.stop(at, reason)
            if change.kind is ChangeKind.FLAGGED:
                return self._lose_on_time(change)
        self._finish(outcome, reason, at, decision)
        return None

    def _moved(self, side: Side) -> bool:
        return self.white_moved if side is Side.WHITE else self.black_moved

    def _time_out(self, at: dt.datetime) -> FlagFall | None:
        """The server's clock decided the running game by ``at``: the default time, or a flag fall."""
        if self.default_time is not None:
            defaulted = self._defaulted(at)
            if defaulted is not None:
                return defaulted
        change = self.clock.check_flag(at)
        return None if change is None else self._lose_on_time(change)

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
        self, outcome: Outcome, reason: str, at: dt.datetime, decision: Decided | None = None
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
                self.boosted,
                self.ruleset,
            )
        )


def _check_result(outcome: Outcome, reason: str) -> None:
    if outcome is Outcome.NOT_PLAYED:
        raise errors.InvalidResult(f"{outcome.value!r} (not played) is not how a game ends")
    if not REASON.match(reason):
        raise errors.InvalidResult(
            f"the reason must be a short lowercase code like 'resignation' or 'agreement', got {reason!r}"
        )
