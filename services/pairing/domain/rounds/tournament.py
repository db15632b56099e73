"""A round robin or a Swiss as the pairing service runs it (the `platform` ruleset, RULES.md §2): who
plays, the rounds paired so far and their results. Pure: engines are called through :class:`Pairer`.

Under the arbiter's authority (RULES.md §4–§6): a finished game's result may be corrected (rounds already
paired stand; the next pairing uses the corrected score); a withdrawn player is left out of every later
Swiss round (a `platform` player excluded by the organiser stays in the draw: their games are lost by
forfeit); where the settings offer them, a player asks for a zero-point bye for a round not paired yet.
A round robin's schedule never changes.

Two aggregates hold such a tournament, both changed only under the tournament's row lock:
:class:`PairingTournament`, its whole history, which pairing a round needs; and
:class:`~services.pairing.domain.rounds.results.RoundResults`, the one round a result changes, so that a
result does not load the history.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import Protocol

from services.pairing.domain import events
from services.pairing.domain.arbiters import deciding
from services.pairing.domain.changes import (
    Change,
    Changing,
    ColoursSet,
    OutcomeCorrected,
    RoundAdded,
    WithdrawalRecorded,
)
from services.pairing.domain.corrections import replaced_outcome
from services.pairing.domain.errors import (
    AbsenceAlreadyExcused,
    AbsenceNotFound,
    ByeAlreadyRequested,
    ByeNotFound,
    ByesNotOffered,
    ColoursFixed,
    EventMismatch,
    ExcuseTooLate,
    GameNotFound,
    NotAnArbiterHere,
    NotOrganiser,
    NotYourBye,
    PairedWhenDue,
    PlayerAlreadyWithdrawn,
    PlayerNotFound,
    PublishedWhenPaired,
    RoundAlreadyPaired,
    RoundNotDue,
    RoundNotPaired,
    RoundOutOfRange,
    RoundUnfinished,
)
from services.pairing.domain.heading import Heading, Player, Status, Withdrawal
from services.pairing.domain.rounds.platform import Plan, plan
from services.pairing.domain.rounds.platform import double_rounds as plays_double_rounds
from shared.aggregate import Aggregate
from shared.authority import Authority, Decided, Role
from shared.openings import FREE, DrawnOpening, OpeningOption, OpeningTable, draw_openings
from shared.scoring import Outcome
from shared.variants import Variant
from shared.vocabulary import ByeKind, Ruleset, System

GAME_NAMESPACE = uuid.UUID("5b0c3f4e-7a44-4c55-9d0e-2f3a1e6b8c01")

DEFAULT_TIME = "default_time"
"""``game.finished``'s reason for a loss at the default time: the loser was absent (RULES.md §6)."""


@dataclass
class Game:
    game_id: uuid.UUID
    round: int
    board: int
    white: int  # seed
    black: int  # seed
    leg: int = 1
    outcome: Outcome | None = None
    reason: str | None = None
    """Why it ended (``game.finished``): ``default_time`` is a loss by absence."""
    opening: DrawnOpening | None = None  # the drawn opening (RULES.md §2); None: free

    def absentees(self) -> tuple[int, ...]:
        """The seeds not at the board by the default time: a forfeit's losers."""
        if self.reason != DEFAULT_TIME:
            return ()
        return {
            Outcome.WHITE_FORFEIT_WIN: (self.black,),
            Outcome.BLACK_FORFEIT_WIN: (self.white,),
            Outcome.DOUBLE_FORFEIT: (self.white, self.black),
        }.get(self.outcome or Outcome.NOT_PLAYED, ())


@dataclass(frozen=True)
class RoundBye:
    round: int
    seed: int
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


@dataclass
class Round:
    number: int
    games: list[Game]
    byes: list[RoundBye]
    completed: bool = False
    published: bool = True  # knockout rounds: once their organiser publishes them


@dataclass(frozen=True)
class Board:
    """An engine's answer for one board: seeds of White and Black."""

    white: int
    black: int


@dataclass(frozen=True)
class Draw:
    """An engine's answer for a round: boards in order and who gets the pairing-allocated bye."""

    boards: tuple[Board, ...]
    bye: int | None = None


@dataclass(frozen=True)
class ByeRequest:
    """A zero-point bye asked for round ``round`` before it was paired (RULES.md §6)."""

    round: int
    seed: int
    decision: Decided


@dataclass(frozen=True)
class ByeRequestAdded(Change):
    request: ByeRequest


@dataclass(frozen=True)
class ByeRequestRemoved(Change):
    round: int
    seed: int


@dataclass(frozen=True)
class FideRules:
    """What a `fide-rapid` event pairs by (RULES.md §6): its rounds are paired on an arbiter's command and
    public once published; Baku acceleration; what a late entry scores for the rounds it missed."""

    acceleration: bool = False
    late_entry_bye: ByeKind = ByeKind.ZERO_POINT


@dataclass(frozen=True)
class RoundDropped(Change):
    """An unpublished round's pairing was thrown away (paired again, or an absence excused)."""

    number: int


@dataclass(frozen=True)
class RoundReleased(Change):
    """A `fide-rapid` round was published."""

    number: int
    at: dt.datetime


@dataclass(frozen=True)
class PlayerAdded(Change):
    """A late entry joined with seed ``seed``."""

    seed: int


@dataclass(frozen=True)
class AbsenceExcusedRecorded(Change):
    round: int
    seed: int


class Pairer(Protocol):
    def pair(self, tournament: PairingTournament, round_no: int) -> Draw: ...


@dataclass(eq=False)
class PairingTournament(Aggregate, Changing):
    heading: Heading
    plan: Plan
    double_rounds: bool
    players: tuple[Player, ...]
    rounds: list[Round] = field(default_factory=list)
    status: Status = Status.RUNNING
    byes_on_request: bool = False
    """Players may ask for a zero-point bye before a round is paired (a Swiss only)."""
    withdrawals: dict[int, Withdrawal] = field(default_factory=dict)
    """Players (by seed) who left the tournament for good."""
    bye_requests: dict[tuple[int, int], ByeRequest] = field(default_factory=dict)
    """Requested byes by (round, seed), for rounds paired or not."""
    variant: Variant = Variant.CHESS
    opening: OpeningOption = FREE
    """The opening option: each round's openings are drawn when it is paired (``docs/openings.md``)."""
    ends_at: dt.datetime | None = None
    """The announced end (start + duration): no round is paired after it (RULES.md §2 "Duration")."""
    fide: FideRules | None = None
    """A `fide-rapid` event: paired on command, published by its arbiters. None: paired when due."""
    excused: dict[tuple[int, int], Decided] = field(default_factory=dict)
    """Absences (round, seed) an arbiter excused (fide-rapid)."""

    @classmethod
    def start(
        cls,
        heading: Heading,
        players: tuple[Player, ...],
        *,
        threshold: int,
        extra_round: bool = False,
        double_rounds: bool = False,
        byes_on_request: bool = False,
        variant: Variant = Variant.CHESS,
        opening: OpeningOption = FREE,
        ends_at: dt.datetime | None = None,
        fide: FideRules | None = None,
        fide_plan: Plan | None = None,
    ) -> PairingTournament:
        """The system and the number of rounds are chosen from the players present (four players
        always play double rounds); round 1 is due. A `fide-rapid` event comes with its plan (the
        organiser's system and rounds) and waits for its arbiters to pair round 1."""
        if fide is not None:
            assert fide_plan is not None
            chosen, double = fide_plan, False
        else:
            chosen = plan(len(players), threshold=threshold, extra_round=extra_round)
            double = plays_double_rounds(chosen, len(players), organiser_chose=double_rounds)
        t = cls(
            heading,
            chosen,
            double,
            tuple(sorted(players, key=lambda p: p.seed)),
            byes_on_request=byes_on_request,
            variant=variant,
            opening=opening,
            ends_at=ends_at,
            fide=fide,
        )
        if fide is None:
            t.record(events.RoundBecameDue(t.id, 1))
        return t

    @property
    def id(self) -> uuid.UUID:
        return self.heading.id

    @property
    def organiser_id(self) -> uuid.UUID:
        return self.heading.organiser_id

    @property
    def name(self) -> str:
        return self.heading.name

    @property
    def system(self) -> System:
        return self.plan.system

    @property
    def total_rounds(self) -> int:
        return self.plan.rounds

    def player(self, seed: int) -> Player:
        return self.players[seed - 1]

    def seed_of(self, player_id: uuid.UUID) -> int:
        for p in self.players:
            if p.player_id == player_id:
                return p.seed
        raise PlayerNotFound(f"player {player_id} does not play in tournament {self.id}")

    def game(self, game_id: uuid.UUID) -> Game:
        for rnd in self.rounds:
            for g in rnd.games:
                if g.game_id == game_id:
                    return g
        raise GameNotFound(f"game {game_id} is not in tournament {self.id}")

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 0 < number <= len(self.rounds) else None

    def next_round_number(self) -> int | None:
        """The round to pair now, or None (the current round is still being played, or all are done)."""
        if self.status is Status.COMPLETED or len(self.rounds) >= self.total_rounds:
            return None
        if self.rounds and not self.rounds[-1].completed:
            return None
        return len(self.rounds) + 1

    def pair_round(
        self, number: int, pairer: Pairer, *, now: dt.datetime, italian: OpeningTable | None = None
    ) -> Round:
        """Pair round ``number`` and draw its openings, one per pairing (both games of a double round
        play it, colours swapped); ``italian``: the Italian table, where the variant draws from it."""
        if number != self.next_round_number():
            raise RoundNotDue(f"round {number} cannot be paired now (next: {self.next_round_number()})")
        draw = pairer.pair(self, number)
        openings = draw_openings(
            self.opening,
            self.variant,
            pairings=len(draw.boards),
            seed=f"{self.id}:{number}",
            used=self.openings_used(),
            italian=italian,
        )
        games: list[Game] = []
        for board_no, (board, opening) in enumerate(zip(draw.boards, openings, strict=True), start=1):
            games.append(self._game(number, board_no, board.white, board.black, leg=1, opening=opening))
            if self.double_rounds:
                games.append(self._game(number, board_no, board.black, board.white, leg=2, opening=opening))
        byes = [RoundBye(number, draw.bye)] if draw.bye is not None else []
        byes += [RoundBye(number, seed, ByeKind.ZERO_POINT) for seed in self.requested_byes(number)]
        rnd = Round(number, games, byes)
        self.rounds.append(rnd)
        self.change(RoundAdded(number, now))
        self.record(self._paired(rnd))
        return rnd

    def openings_used(self) -> list[DrawnOpening]:
        """The openings drawn in the rounds so far, one per pairing (a double round's return game
        plays its first game's)."""
        return [g.opening for rnd in self.rounds for g in rnd.games if g.leg == 1 and g.opening is not None]

    def publish_round(
        self, number: int, *, authority: Authority, by: uuid.UUID, at: dt.datetime | None = None
    ) -> bool:
        """A `fide-rapid` round is public once an arbiter publishes it: ``round.paired`` goes out (the
        clocks create its games), and the absences of the round before that nobody excused are reported
        (``absence.unexcused``: the player counts as withdrawn). False if it was published already.
        Other rounds (knockouts aside) are public as soon as they are paired."""
        if authority.decides(by) is None:
            raise NotOrganiser("only the organiser of this tournament or its arbiters may publish its rounds")
        if self.fide is None:
            raise PublishedWhenPaired(f"a {self.system.value} round is public as soon as it is paired")
        rnd = self.round(number)
        if rnd is None:
            raise RoundNotPaired(f"round {number} of tournament {self.id} is not paired")
        if rnd.published:
            return False
        assert at is not None
        rnd.published = True
        self.change(RoundReleased(number, at))
        self.record(self._paired(rnd))
        for seed in self.unexcused(number - 1):
            self.record(events.AbsenceUnexcused(self.id, self.player(seed).player_id, number - 1))
        return True

    # -- fide-rapid: rounds on the arbiters' command ------------------------------------------------
    def published_rounds(self) -> int:
        return sum(1 for r in self.rounds if r.published)

    def unfinished_boards(self, number: int) -> list[int]:
        """The boards of round ``number`` without a result."""
        rnd = self.round(number)
        if rnd is None:
            return []
        return sorted({g.board for g in rnd.games if g.outcome is None})

    def pair_on_command(
        self, number: int, pairer: Pairer, *, authority: Authority, by: uuid.UUID, now: dt.datetime
    ) -> Round:
        """An arbiter of the whole event (or its organiser) pairs round ``number`` of a `fide-rapid`
        event: the round after the last one published, once every board of that one has a result. An
        unpublished pairing of the round is replaced. The round stays unpublished (seen by the officials
        only) until :meth:`publish_round`."""
        if self.fide is None:
            raise PairedWhenDue(
                f"a {self.heading.ruleset.value} round is paired by the service when it is due"
            )
        deciding(authority, by, None, at=now, refusal=NotAnArbiterHere, what="pair its rounds")
        if not 1 <= number <= self.total_rounds:
            raise RoundOutOfRange(f"tournament {self.id} has {self.total_rounds} rounds, not {number}")
        due = self.published_rounds() + 1
        if number < due:
            raise RoundAlreadyPaired(f"round {number} of tournament {self.id} is published already")
        if number > due:
            raise RoundNotDue(f"round {number} cannot be paired before round {due} is published")
        missing = self.unfinished_boards(number - 1)
        if missing:
            listed = ", ".join(str(b) for b in missing)
            raise RoundUnfinished(
                f"round {number - 1} lacks results on board{'s' if len(missing) > 1 else ''} {listed}",
                round=number - 1,
                boards=missing,
            )
        if self.round(number) is not None:
            self._drop(number)
        draw = pairer.pair(self, number)
        games = [  # over the board: openings are free (fide-rapid takes no opening option)
            self._game(number, i, b.white, b.black, leg=1, opening=None)
            for i, b in enumerate(draw.boards, start=1)
        ]
        byes = [RoundBye(number, draw.bye)] if draw.bye is not None else []
        byes += [RoundBye(number, seed, ByeKind.ZERO_POINT) for seed in self.requested_byes(number)]
        rnd = Round(number, games, byes, published=False)
        self.rounds.append(rnd)
        self.change(RoundAdded(number, now))
        return rnd

    def _drop(self, number: int) -> None:
        rnd = self.rounds[-1]
        assert rnd.number == number and not rnd.published
        self.rounds.pop()
        self.change(RoundDropped(number))

    def absentees(self, number: int) -> frozenset[int]:
        """Who lost round ``number`` at the default time (not at the board)."""
        rnd = self.round(number)
        if rnd is None:
            return frozenset()
        return frozenset(seed for g in rnd.games for seed in g.absentees())

    def unexcused(self, number: int) -> list[int]:
        """The absentees of round ``number`` nobody excused who are still in the draw."""
        return sorted(
            seed
            for seed in self.absentees(number)
            if (number, seed) not in self.excused and self.stays_in_draw(seed)
        )

    def excuse_absence(
        self,
        player_id: uuid.UUID,
        number: int,
        *,
        authority: Authority,
        by: uuid.UUID,
        at: dt.datetime,
        reason: str | None = None,
    ) -> bool:
        """An arbiter of the whole event (or its organiser) excuses a player's absence from round
        ``number`` before round ``number + 1`` is published: the player is paired again. An unpublished
        pairing of that round is thrown away (True), so that the arbiters pair it again with them."""
        decision = deciding(
            authority, by, None, at=at, reason=reason, refusal=NotAnArbiterHere, what="excuse an absence"
        )
        seed = self.seed_of(player_id)
        if seed not in self.absentees(number):
            raise AbsenceNotFound(f"player {player_id} did not lose round {number} at the default time")
        if (number, seed) in self.excused:
            raise AbsenceAlreadyExcused(
                f"the absence of player {player_id} from round {number} is excused already"
            )
        following = self.round(number + 1)
        if following is not None and following.published:
            raise ExcuseTooLate(
                f"round {number + 1} is published: an absence is excused before the next pairing is published"
            )
        if not self.stays_in_draw(seed):
            raise PlayerAlreadyWithdrawn(f"player {player_id} has left tournament {self.id}")
        self.excused[(number, seed)] = decision
        self.change(AbsenceExcusedRecorded(number, seed))
        self.record(events.AbsenceExcused(self.id, player_id, number, decision))
        if following is None:
            return False
        self._drop(number + 1)
        return True

    def add_late(
        self, player_id: uuid.UUID, name: str, rating: int | None, from_round: int | None
    ) -> Player | None:
        """A late entry (``player.joined``, ``late``): the next seed, paired from ``from_round`` or the
        next round not paired yet, whichever is later; the rounds before are byes as the settings say.
        None if nothing changed (not a `fide-rapid` event, or heard again)."""
        if self.fide is None or any(p.player_id == player_id for p in self.players):
            return None
        first = max(from_round or 1, len(self.rounds) + 1)
        player = Player(len(self.players) + 1, player_id, name, rating, first)
        self.players = (*self.players, player)
        self.change(PlayerAdded(player.seed))
        return player

    # -- who plays ---------------------------------------------------------------------------------
    def withdraw(self, player_id: uuid.UUID, *, excluded: bool, reason: str, at: dt.datetime) -> bool:
        """Record that a player left for good (``player.withdrawn``); False if they had already. Their
        games so far stand; whether they are paired again is :meth:`stays_in_draw`."""
        seed = self.seed_of(player_id)
        if seed in self.withdrawals:
            return False
        self.withdrawals[seed] = Withdrawal(at, excluded, reason)
        self.change(WithdrawalRecorded(seed))
        return True

    def stays_in_draw(self, seed: int) -> bool:
        """Whether player ``seed`` is paired in later rounds: everyone who has not left, and a `platform`
        player excluded by the organiser (nobody leaves a `platform` tournament after its start: the
        excluded player stays in the draw and loses their games by forfeit, RULES.md §2)."""
        w = self.withdrawals.get(seed)
        return w is None or (w.excluded and self.heading.ruleset is Ruleset.PLATFORM)

    def absent(self, number: int) -> frozenset[int]:
        """The seeds the Swiss leaves out of round ``number``: the withdrawn, and the requested byes;
        in a `fide-rapid` event also the absentees of the round before whom nobody excused (they count
        as withdrawn), and the late entries not in yet. (A round robin's schedule stands whatever
        happens.)"""
        gone = {seed for seed in self.withdrawals if not self.stays_in_draw(seed)}
        if self.fide is not None:
            gone |= set(self.unexcused(number - 1))
            gone |= {p.seed for p in self.players if p.from_round is not None and p.from_round > number}
        return frozenset(gone | set(self.requested_byes(number)))

    def requested_byes(self, number: int) -> list[int]:
        """Seeds with a zero-point bye requested for round ``number`` who are still in the draw."""
        return sorted(seed for (rnd, seed) in self.bye_requests if rnd == number and self.stays_in_draw(seed))

    # -- byes on request ---------------------------------------------------------------------------
    def request_bye(
        self,
        player_id: uuid.UUID,
        number: int,
        *,
        authority: Authority,
        by: uuid.UUID,
        at: dt.datetime,
        reason: str | None = None,
    ) -> ByeRequest:
        """A zero-point bye for round ``number``, asked by the player, an arbiter of the tournament or its
        organiser, before the round is paired (RULES.md §6); once per player and round."""
        seed = self.seed_of(player_id)
        decision = self._bye_decision(player_id, authority, by, at, reason, "ask for a player's bye")
        self._check_offered()
        self._check_unpaired(number)
        if seed in self.withdrawals:
            raise PlayerAlreadyWithdrawn(f"player {player_id} has left tournament {self.id}")
        if (number, seed) in self.bye_requests:
            raise ByeAlreadyRequested(f"player {player_id} has a bye for round {number} already")
        request = ByeRequest(number, seed, decision)
        self.bye_requests[(number, seed)] = request
        self.change(ByeRequestAdded(request))
        self.record(events.ByeRequested(self.id, player_id, number, decision))
        return request

    def take_back_bye(
        self, player_id: uuid.UUID, number: int, *, authority: Authority, by: uuid.UUID, at: dt.datetime
    ) -> None:
        """Take a requested bye back before its round is paired (the same people may):
        ``bye.taken_back``, so that the others (the standings' TRF of the round to come) pair them again."""
        seed = self.seed_of(player_id)
        decision = self._bye_decision(player_id, authority, by, at, None, "take a player's bye back")
        self._check_offered()
        self._check_unpaired(number)
        if (number, seed) not in self.bye_requests:
            raise ByeNotFound(f"player {player_id} has no bye requested for round {number}")
        del self.bye_requests[(number, seed)]
        self.change(ByeRequestRemoved(number, seed))
        self.record(events.ByeTakenBack(self.id, player_id, number, decision))

    def _bye_decision(
        self,
        player_id: uuid.UUID,
        authority: Authority,
        by: uuid.UUID,
        at: dt.datetime,
        reason: str | None,
        what: str,
    ) -> Decided:
        if by == player_id and authority.decides(by) is None:
            return Decided(by, Role.PLAYER, at, reason)
        return deciding(authority, by, None, at=at, reason=reason, refusal=NotYourBye, what=what)

    def _check_offered(self) -> None:
        if not self.byes_on_request or self.system is not System.SWISS:
            raise ByesNotOffered(
                "this tournament does not offer byes on request"
                if self.system is System.SWISS
                else "a round robin's schedule is fixed: it offers no byes on request"
            )

    def _check_unpaired(self, number: int) -> None:
        if number <= len(self.rounds):
            raise RoundAlreadyPaired(f"round {number} of tournament {self.id} is paired already")
        if number > self.total_rounds:
            raise RoundOutOfRange(f"tournament {self.id} has {self.total_rounds} rounds, not {number}")

    # -- corrections and colours -------------------------------------------------------------------
    def correct_result(
        self,
        game_id: uuid.UUID,
        outcome: Outcome,
        *,
        authority: Authority,
        by: uuid.UUID,
        reason: str,
        at: dt.datetime,
    ) -> Game:
        """An arbiter in scope or the organiser corrects a finished game's result. The rounds paired
        already stand; the next pairing uses the corrected score. The round's completion does not change
        (the game had a result before and has one after)."""
        game = self.game(game_id)
        decision = deciding(
            authority, by, game_id, at=at, reason=reason, refusal=NotAnArbiterHere, what="correct its result"
        )
        old = replaced_outcome(game_id, game.outcome, outcome)
        game.outcome = outcome
        self.change(OutcomeCorrected(game_id, outcome))
        self.record(
            events.ResultCorrected(
                self.id,
                game_id,
                game.round,
                self.player(game.white).player_id,
                self.player(game.black).player_id,
                old,
                outcome,
                decision,
            )
        )
        return game

    def swap_colours(self, game_id: uuid.UUID, white: uuid.UUID, black: uuid.UUID) -> bool:
        """A game not yet played changed colours (``game.colours_swapped``); False if it has them."""
        game = self.game(game_id)
        seeds = (self.seed_of(white), self.seed_of(black))
        if set(seeds) != {game.white, game.black}:
            raise EventMismatch(f"{white} and {black} do not play game {game_id}")
        if seeds == (game.white, game.black):
            return False
        if game.outcome is not None:
            raise ColoursFixed(f"game {game_id} has a result: its colours stay")
        game.white, game.black = seeds
        self.change(ColoursSet(game_id, *seeds))
        return True

    def _game(
        self, number: int, board: int, white: int, black: int, *, leg: int, opening: DrawnOpening | None
    ) -> Game:
        game_id = uuid.uuid5(GAME_NAMESPACE, f"{self.id}:{number}:{board}:{leg}")
        return Game(game_id, number, board, white, black, leg, opening=opening)

    def _paired(self, rnd: Round) -> events.RoundPaired:
        return events.RoundPaired(
            tournament_id=self.id,
            organiser_id=self.organiser_id,
            round=rnd.number,
            total_rounds=self.total_rounds,
            system=self.system,
            games=tuple(
                events.GameInRound(
                    g.game_id,
                    g.board,
                    self.player(g.white).player_id,
                    self.player(g.black).player_id,
                    leg=g.leg,
                    opening=g.opening,
                )
                for g in rnd.games
            ),
            byes=tuple(events.ByeInRound(self.player(b.seed).player_id, b.kind) for b in rnd.byes),
            time_control=self.heading.time_control,
            variant=self.variant,
        )
