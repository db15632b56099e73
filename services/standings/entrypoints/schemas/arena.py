"""An arena's page (``GET /arenas/{id}``, ``/t/{id}/arena``; RULES.md §3, docs/arena.md): the ranking with
streaks and boosts, the games in progress, the finished games and what each scored."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Literal

from pydantic import BaseModel, Field

from services.standings.domain.arena_standings import ArenaStandings
from shared.arena_scoring import FinishedArenaGame


class ArenaPageQuery(BaseModel):
    """An arena page's parameters: whose games to show, and the part that changes only (the page's
    script fetches ``?fragment=1``)."""

    player: uuid.UUID | None = Field(None, description="the player whose games the page shows")
    fragment: Literal["1"] | None = Field(None, description="1: the ranking and games only")


class ArenaSidesOut(BaseModel):
    white: bool
    black: bool


class ArenaPointsOut(BaseModel):
    white: int
    black: int


class ArenaGameOut(BaseModel):
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    result: str = Field(description="1-0 | 1/2-1/2 | 0-1 (forfeits: +/-, -/+, -/-)")
    ended_at: dt.datetime
    boost: ArenaSidesOut
    points: ArenaPointsOut = Field(description="what the game scored each player (streak and boost counted)")
    streak: ArenaSidesOut = Field(description="a win worth 3 (6 boosted) because of the run before it")


class ArenaRunningOut(BaseModel):
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    started_at: dt.datetime


class ArenaRowOut(BaseModel):
    rank: int
    player: uuid.UUID
    name: str
    rating: int | None
    points: int
    wins: int
    games: int
    streak: int = Field(description="wins in a row now")
    on_fire: bool = Field(description="the next win is worth 3 (two wins in a row or more)")
    boosts: int = Field(description="games in which the player took the boost")


class ArenaOut(BaseModel):
    tournament_id: uuid.UUID
    name: str
    started_at: dt.datetime
    ends_at: dt.datetime
    final: bool = Field(description="the arena is complete: the ranking is frozen")
    ranking: list[ArenaRowOut]
    in_progress: list[ArenaRunningOut]
    games: list[ArenaGameOut] = Field(description="finished games, in the order they ended")

    @classmethod
    def of(cls, a: ArenaStandings) -> ArenaOut:
        marks = a.points_of()
        games = sorted(a.finished.values(), key=lambda g: (g.ended_at, g.id.int))

        def entry(g: FinishedArenaGame, player: uuid.UUID) -> tuple[int, bool]:
            found = marks.get((g.id, player))
            return (0, False) if found is None else (found.points, found.streak)

        out = []
        for g in games:
            (wp, ws), (bp, bs) = entry(g, g.white), entry(g, g.black)
            out.append(
                ArenaGameOut(
                    game_id=g.id,
                    white=g.white,
                    black=g.black,
                    result=g.outcome.value,
                    ended_at=g.ended_at,
                    boost=ArenaSidesOut(white=g.white_boost, black=g.black_boost),
                    points=ArenaPointsOut(white=wp, black=bp),
                    streak=ArenaSidesOut(white=ws, black=bs),
                )
            )
        return cls(
            tournament_id=a.id,
            name=a.name,
            started_at=a.started_at,
            ends_at=a.ends_at,
            final=a.frozen,
            ranking=[
                ArenaRowOut(
                    rank=r.rank,
                    player=r.player,
                    name=a.players[r.player].name,
                    rating=a.players[r.player].rating,
                    points=r.points,
                    wins=r.wins,
                    games=r.games,
                    streak=r.streak,
                    on_fire=r.on_fire,
                    boosts=r.boosts,
                )
                for r in a.ranking()
            ],
            in_progress=[
                ArenaRunningOut(game_id=g.id, white=g.white, black=g.black, started_at=g.started_at)
                for g in sorted(a.running.values(), key=lambda g: (g.started_at, g.id.int))
            ],
            games=out,
        )
