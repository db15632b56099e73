"""Request and response bodies; the OpenAPI document is generated from these."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from pydantic import BaseModel, Field, model_validator

from services.clocks.domain.clock import Side
from services.clocks.domain.game import Game, Outcome
from shared.http.schemas import INT32_MAX, Strict, Text


class GamePath(BaseModel):
    game_id: uuid.UUID


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class GamesQuery(BaseModel):
    round: int | None = Field(None, ge=1, le=INT32_MAX, description="only this round's games")


class MoveBody(Strict):
    """Optional: a player reporting their own move sends no body."""

    player_id: uuid.UUID | None = Field(
        None, description="service tokens only: the player who moved (players move for themselves)"
    )

    @model_validator(mode="before")
    @classmethod
    def _no_body_is_empty(cls, data: Any) -> Any:
        return {} if data is None else data


class ResultBody(Strict):
    outcome: Outcome = Field(examples=["1-0"])
    reason: Text = Field(
        min_length=1,
        max_length=40,
        description="a short lowercase code: resignation, agreement, checkmate, stalemate, forfeit, ...",
        examples=["resignation"],
    )


class TimeControlOut(BaseModel):
    base_seconds: int
    increment_seconds: int
    days_per_move: int | None


class ClockOut(BaseModel):
    """The clock as of ``as_of`` (the server's time when it answered)."""

    time_control: TimeControlOut
    state: str = Field(description="pending | running | stopped")
    to_move: Side | None
    white_ms: int = Field(description="White's remaining time in milliseconds")
    black_ms: int
    deadline: dt.datetime | None = Field(description="when the side to move loses on time, if running")
    flagged: Side | None = Field(description="whose flag fell, if the game ended on time")
    as_of: dt.datetime

    @classmethod
    def of(cls, game: Game, now: dt.datetime) -> ClockOut:
        c = game.clock
        return cls(
            time_control=TimeControlOut(
                base_seconds=c.control.base_seconds,
                increment_seconds=c.control.increment_seconds,
                days_per_move=c.control.days_per_move,
            ),
            state=c.state.value,
            to_move=c.to_move if c.running else None,
            white_ms=c.remaining_ms(Side.WHITE, now),
            black_ms=c.remaining_ms(Side.BLACK, now),
            deadline=game.deadline,
            flagged=c.flagged,
            as_of=now,
        )


class PlayerOut(BaseModel):
    player_id: uuid.UUID
    moved: bool = Field(description="whether this side ever moved")


class ResultOut(BaseModel):
    outcome: Outcome
    reason: str
    finished_at: dt.datetime


class GameOut(BaseModel):
    id: uuid.UUID
    tournament_id: uuid.UUID
    round: int
    board: int
    leg: int
    status: str = Field(description="pending | running | finished | cancelled")
    white: PlayerOut
    black: PlayerOut
    clock: ClockOut
    moves: int
    both_moved: bool = Field(description="false: one side never moved, so the game changes no rating")
    result: ResultOut | None
    started_at: dt.datetime | None
    match_id: str | None = Field(None, description="knockouts: the match this game belongs to")
    number: int | None = Field(None, description="knockouts: the game's number in its match")
    label: str | None = Field(None, description="knockouts: e.g. 'Game 2', 'Sudden death (3+2)'")
    published: bool = Field(True, description="false while its knockout round is unpublished")

    @classmethod
    def of(cls, game: Game, now: dt.datetime) -> GameOut:
        result = None
        if game.outcome is not None and game.reason is not None and game.finished_at is not None:
            result = ResultOut(outcome=game.outcome, reason=game.reason, finished_at=game.finished_at)
        return cls(
            id=game.id,
            tournament_id=game.tournament_id,
            round=game.round,
            board=game.board,
            leg=game.leg,
            status=game.status.value,
            white=PlayerOut(player_id=game.white, moved=game.white_moved),
            black=PlayerOut(player_id=game.black, moved=game.black_moved),
            clock=ClockOut.of(game, now),
            moves=game.moves,
            both_moved=game.both_moved,
            result=result,
            started_at=game.started_at,
            match_id=game.match_id,
            number=game.number,
            label=game.label,
            published=game.released,
        )


class GameList(BaseModel):
    games: list[GameOut]
