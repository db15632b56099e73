"""The crosstable (``GET /tournaments/{id}/crosstable``, ``/t/{id}/crosstable``): each player's row of
rounds (opponent, colour, result), and in a round robin the results against each place."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel

from services.standings.domain.crosstable import Cell, player_rounds, results_against
from services.standings.domain.snapshot import number
from services.standings.domain.tournament import Tournament
from services.standings.domain.withdrawals import PlayerStatus
from services.standings.entrypoints.schemas.common import (
    Number,
    TournamentFields,
)
from shared.vocabulary import ByeKind, System


class CellOut(BaseModel):
    round: int
    leg: int
    opponent: int | None  # the opponent's seed; None for a bye
    opponent_place: int | None  # the opponent's row in this crosstable
    colour: Literal["w", "b", ""]  # "" for a bye
    result: str  # 1 ½ 0 + - * bye, or "" while the game is open
    points: Number | None
    bye: ByeKind | None
    corrected: bool = False  # the result was corrected by an arbiter or the organiser


class CrossRowOut(BaseModel):
    rank: int
    place: int
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: Number
    rounds: list[CellOut]  # one per round (per leg with double rounds)
    against: list[list[str]] | None  # round robin: results against the player in each place
    status: PlayerStatus | None = None  # withdrawn or excluded
    status_reason: str | None = None
    title: str | None = None
    federation: str | None = None


class CrosstableOut(TournamentFields):
    columns: list[str]  # round labels: "3", or "3.1" and "3.2" with double rounds
    rows: list[CrossRowOut]

    @classmethod
    def of(cls, t: Tournament) -> CrosstableOut:
        t.info.check_table()
        ruleset = t.info.preset_or_none()
        cells = player_rounds(t, ruleset) if ruleset else {}
        table_rows = t.snapshot.table.rows if t.snapshot.table else ()
        place_of = {row.seed: row.place for row in table_rows}
        robin = t.info.system == System.ROUND_ROBIN
        rows = []
        for row in table_rows:
            mine = cells[row.seed]
            against = None
            if robin:
                by_opponent = results_against(mine)
                against = [by_opponent.get(other.seed, []) for other in table_rows]
            rows.append(
                CrossRowOut(
                    rank=row.rank,
                    place=row.place,
                    seed=row.seed,
                    player_id=row.player_id,
                    name=row.name,
                    rating=row.rating,
                    points=row.points,
                    rounds=[_cell(c, place_of) for c in mine],
                    against=against,
                    status=row.status,
                    status_reason=row.status_reason,
                    title=row.title,
                    federation=row.federation,
                )
            )
        labels = [
            str(r.number) if t.info.legs == 1 else f"{r.number}.{leg}"
            for r in t.published_rounds()
            for leg in range(1, t.info.legs + 1)
        ]
        return cls(**cls.fields(t.info, t.snapshot), columns=labels, rows=rows)


def _cell(cell: Cell, place_of: dict[int, int]) -> CellOut:
    return CellOut(
        round=cell.round,
        leg=cell.leg,
        opponent=cell.opponent,
        opponent_place=place_of.get(cell.opponent) if cell.opponent is not None else None,
        colour=cell.colour,
        result=cell.result,
        points=number(cell.points),
        bye=cell.bye,
        corrected=cell.corrected,
    )
