"""Request and response bodies; the OpenAPI document is generated from these."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from pydantic import BaseModel, Field, model_validator

from services.clocks.domain.clock import Side
from services.clocks.domain.decision import Decision, Role
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


class DecisionOut(BaseModel):
    """Who decided, in what capacity, when and why."""

    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None

    @classmethod
    def of(cls, d: Decision) -> DecisionOut:
        return cls(by=d.by, role=d.role, at=d.at, reason=d.reason)


class CorrectionOut(BaseModel):
    old_outcome: Outcome
    outcome: Outcome
    decision: DecisionOut


class ResultOut(BaseModel):
    outcome: Outcome = Field(description="the result as it stands (corrected, if it was)")
    reason: str
    finished_at: dt.datetime
    decision: DecisionOut | None = Field(
        None,
        description="who entered it (organiser, arbiter, service, or the player who confirmed the "
        "opponent's claim; a withdrawal's decision); null when the game ended by itself (a player's own "
        "loss, a flag fall, the tournament's close)",
    )
    corrected: bool = Field(False, description="true: the result was corrected after the game ended")
    corrections: list[CorrectionOut] = Field(default_factory=list, description="oldest first")


class ClaimOut(BaseModel):
    """A player's report awaiting the opponent's confirmation (or, disputed, the arbiter)."""

    player_id: uuid.UUID
    side: Side
    outcome: Outcome
    reason: str
    at: dt.datetime


class GameOut(BaseModel):
    id: uuid.UUID
    tournament_id: uuid.UUID
    round: int
    board: int
    leg: int
    status: str = Field(
        description="pending | running | disputed (the players reported different results: both clocks "
        "are stopped until the arbiter enters it) | finished | cancelled"
    )
    white: PlayerOut
    black: PlayerOut
    clock: ClockOut
    moves: int
    both_moved: bool = Field(description="false: one side never moved, so the game changes no rating")
    result: ResultOut | None
    claims: list[ClaimOut] = Field(
        default_factory=list,
        description="players' reports awaiting the opponent's confirmation: one pending, or two that "
        "differ (disputed)",
    )
    rated: bool = Field(True, description="false: a knockout tie-break or sudden-death game")
    started_at: dt.datetime | None
    match_id: str | None = Field(None, description="knockouts: the match this game belongs to")
    number: int | None = Field(None, description="knockouts: the game's number in its match")
    label: str | None = Field(None, description="knockouts: e.g. 'Game 2', 'Sudden death (3+2)'")
    published: bool = Field(True, description="false while its knockout round is unpublished")

    @classmethod
    def of(cls, game: Game, now: dt.datetime) -> GameOut:
        result = None
        if game.outcome is not None and game.reason is not None and game.finished_at is not None:
            result = ResultOut(
                outcome=game.outcome,
                reason=game.reason,
                finished_at=game.finished_at,
                decision=None if game.decision is None else DecisionOut.of(game.decision),
                corrected=game.corrected,
                corrections=[
                    CorrectionOut(
                        old_outcome=c.old_outcome, outcome=c.outcome, decision=DecisionOut.of(c.decision)
                    )
                    for c in game.corrections
                ],
            )
        claims = [
            ClaimOut(
                player_id=game.white if side is Side.WHITE else game.black,
                side=side,
                outcome=c.outcome,
                reason=c.reason,
                at=c.at,
            )
            for side, c in sorted(game.claims.items(), key=lambda item: item[1].at)
        ]
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
            claims=claims,
            rated=game.rated,
            started_at=game.started_at,
            match_id=game.match_id,
            number=game.number,
            label=game.label,
            published=game.released,
        )


class GameList(BaseModel):
    games: list[GameOut]
