"""The pairing service's view of a running tournament: who plays, the rounds paired so far and
their results. Pure: engines are called through :class:`Pairer`."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from services.pairing.domain.errors import RoundNotDue
from services.pairing.domain.rounds.platform import Plan
from shared.scoring import Outcome as GameOutcome
from shared.vocabulary import ByeKind, System

GAME_NAMESPACE = uuid.UUID("5b0c3f4e-7a44-4c55-9d0e-2f3a1e6b8c01")


class Status(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"


@dataclass(frozen=True)
class Player:
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None = None


@dataclass
class Game:
    game_id: uuid.UUID
    round: int
    board: int
    white: int  # seed
    black: int  # seed
    leg: int = 1
    outcome: GameOutcome | None = None


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


@dataclass
class PairingTournament:
    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    plan: Plan
    double_rounds: bool
    players: list[Player]
    rounds: list[Round] = field(default_factory=list)
    status: Status = Status.RUNNING

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

    def pair_round(self, number: int, pairer: Pairer) -> Round:
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
        return rnd

    def _game(self, number: int, board: int, white: int, black: int, *, leg: int) -> Game:
        game_id = uuid.uuid5(GAME_NAMESPACE, f"{self.id}:{number}:{board}:{leg}")
        return Game(game_id, number, board, white, black, leg)


class Progress(StrEnum):
    ROUND_OPEN = "round_open"
    ROUND_COMPLETED = "round_completed"
    TOURNAMENT_COMPLETED = "tournament_completed"


def progress_after_result(round_no: int, open_games: int, total_rounds: int) -> Progress:
    """A round closes when its last game ends; the tournament when its last round closes."""
    if open_games:
        return Progress.ROUND_OPEN
    return Progress.TOURNAMENT_COMPLETED if round_no >= total_rounds else Progress.ROUND_COMPLETED
