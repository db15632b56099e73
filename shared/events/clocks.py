"""The events clocks publishes: a game started, finished, corrected, penalised, its colours swapped, or
cancelled."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.events.envelope import Event, register
from shared.events.values import DecisionBy, GameOutcome, TimeControl


class Sides(BaseModel):
    """A yes or no for each side of a game (an arena game's boost)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    white: bool = False
    black: bool = False


@register
class GameStarted(Event):
    TYPE: ClassVar[str] = "game.started"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    started_at: dt.datetime
    time_control: TimeControl


@register
class GameFinished(Event):
    TYPE: ClassVar[str] = "game.finished"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    outcome: GameOutcome
    reason: str = Field(description="e.g. resignation, agreement, checkmate, time, forfeit, reported")
    moves: int = 0
    finished_at: dt.datetime
    both_moved: bool | None = Field(
        None,
        description="false when one side never moved: such a game changes no rating (RULES §2); "
        "None when the publisher does not say",
    )
    rated: bool = Field(True, description="false: the game moves no rating (tie-break, sudden death)")
    decision: DecisionBy | None = Field(
        None, description="who entered the result, when it was not played out on the server"
    )
    boost: Sides | None = Field(None, description="arena games: who took the boost")


@register
class GameResultCorrected(Event):
    """An arbiter or the organiser corrected a finished game's result. Pairings already published stand;
    the next pairing and the standings use the corrected outcome."""

    TYPE: ClassVar[str] = "game.result_corrected"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    old_outcome: GameOutcome
    outcome: GameOutcome
    decision: DecisionBy


@register
class GamePenalised(Event):
    """An arbiter penalised a player in a game (RULES.md §6): an illegal move or displaced pieces, with what
    followed (a warning, one extra minute for the opponent, or the loss of the game)."""

    TYPE: ClassVar[str] = "game.penalised"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    player_id: uuid.UUID
    kind: Literal["illegal_move", "displaced_pieces"]
    occurrence: int = Field(
        ge=1, description="the how-many-th of its kind (displaced pieces: in the tournament)"
    )
    consequence: Literal["warning", "extra_minute", "loss"]
    decision: DecisionBy


@register
class GameColoursSwapped(Event):
    """Before its result, a knockout game's colours were swapped by the organiser or an arbiter."""

    TYPE: ClassVar[str] = "game.colours_swapped"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    decision: DecisionBy


@register
class GameCancelledV1(Event):
    """``game.cancelled`` as first published, without the players: still read (a message written before
    version 2 may wait in a queue or a dead-letter queue), no longer written."""

    TYPE: ClassVar[str] = "game.cancelled"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    reason: str = Field(description="e.g. match_decided")
    cancelled_at: dt.datetime


@register
class GameCancelled(GameCancelledV1):
    """A game nobody will play: its knockout match was decided before it. Version 2 names the players,
    so that whoever marked them as in this game (``game.started``) can clear the mark."""

    VERSION: ClassVar[int] = 2
    white: uuid.UUID
    black: uuid.UUID
