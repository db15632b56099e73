"""A round robin or a Swiss as the pairing service runs it (the `platform` ruleset, RULES.md §2): who
plays, the rounds paired so far and their results. Pure: engines are called through :class:`Pairer`.

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
from services.pairing.domain.changes import Changing, RoundAdded
from services.pairing.domain.errors import NotOrganiser, PublishedWhenPaired, RoundNotDue
from services.pairing.domain.heading import Heading, Player, Status
from services.pairing.domain.rounds.platform import Plan, plan
from shared.aggregate import Aggregate
from shared.scoring import Outcome
from shared.vocabulary import ByeKind, System

GAME_NAMESPACE = uuid.UUID("5b0c3f4e-7a44-4c55-9d0e-2f3a1e6b8c01")


@dataclass
class Game:
    game_id: uuid.UUID
    round: int
    board: int
    white: int  # seed
    black: int  # seed
    leg: int = 1
    outcome: Outcome | None = None


@dataclass(frozen=True)
class Bye:
    round: int
    seed: int
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


@dataclass
class Round:
    number: int
    games: list[Game]
    byes: list[Bye]
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

    @classmethod
    def start(
        cls,
        heading: Heading,
        players: tuple[Player, ...],
        *,
        threshold: int,
        extra_round: bool = False,
        double_rounds: bool = False,
    ) -> PairingTournament:
        """The system and the number of rounds are chosen from the players present; round 1 is due."""
        chosen = plan(len(players), threshold=threshold, extra_round=extra_round)
        t = cls(heading, chosen, double_rounds, tuple(sorted(players, key=lambda p: p.seed)))
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

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 0 < number <= len(self.rounds) else None

    def next_round_number(self) -> int | None:
        """The round to pair now, or None (the current round is still being played, or all are done)."""
        if self.status is Status.COMPLETED or len(self.rounds) >= self.total_rounds:
            return None
        if self.rounds and not self.rounds[-1].completed:
            return None
        return len(self.rounds) + 1

    def pair_round(self, number: int, pairer: Pairer, *, now: dt.datetime) -> Round:
        if number != self.next_round_number():
            raise RoundNotDue(f"round {number} cannot be paired now (next: {self.next_round_number()})")
        draw = pairer.pair(self, number)
        games: list[Game] = []
        for board_no, board in enumerate(draw.boards, start=1):
            games.append(self._game(number, board_no, board.white, board.black, leg=1))
            if self.double_rounds:
                games.append(self._game(number, board_no, board.black, board.white, leg=2))
        byes = [Bye(number, draw.bye)] if draw.bye is not None else []
        rnd = Round(number, games, byes)
        self.rounds.append(rnd)
        self.change(RoundAdded(number, now))
        self.record(self._paired(rnd))
        return rnd

    def publish_round(self, number: int, *, by: uuid.UUID, staff: bool = False) -> None:
        """Only knockout rounds wait for their organiser: a round here is public as soon as it is paired."""
        if by != self.organiser_id and not staff:
            raise NotOrganiser("only the organiser of this tournament may publish its rounds")
        raise PublishedWhenPaired(f"a {self.system.value} round is public as soon as it is paired")

    def _game(self, number: int, board: int, white: int, black: int, *, leg: int) -> Game:
        game_id = uuid.uuid5(GAME_NAMESPACE, f"{self.id}:{number}:{board}:{leg}")
        return Game(game_id, number, board, white, black, leg)

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
                )
                for g in rnd.games
            ),
            byes=tuple(events.ByeInRound(self.player(b.seed).player_id, b.kind) for b in rnd.byes),
            time_control=self.heading.time_control,
        )
