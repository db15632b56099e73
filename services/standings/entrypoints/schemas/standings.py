"""The table (``GET /tournaments/{id}/standings``, the page ``/t/{id}``): every row with its rank, points
and tie-breaks, in the C.07 edition they follow."""

from __future__ import annotations

import uuid

from pydantic import BaseModel

from services.standings.domain.history import Edition
from services.standings.domain.snapshot import Snapshot, SnapshotRow
from services.standings.domain.tournament_info import TournamentInfo
from services.standings.domain.withdrawals import PlayerStatus
from services.standings.entrypoints.schemas.common import (
    Number,
    TournamentFields,
)


class StandingRowOut(BaseModel):
    rank: int  # shared by players equal on points and every tie-break
    place: int  # the row's position
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: Number
    tiebreaks: dict[str, Number | None]  # the ranking tie-breaks, by code (BH-C1, ...)
    shown: dict[str, Number | None]  # shown for information only (SB in a round robin, BH in a Swiss)
    status: PlayerStatus | None = None  # withdrawn or excluded; None: playing
    status_reason: str | None = None
    title: str | None = None  # fide-rapid: the player's profile, where known
    federation: str | None = None
    fide_id: int | None = None

    @classmethod
    def of(cls, row: SnapshotRow) -> StandingRowOut:
        return cls(
            rank=row.rank,
            place=row.place,
            seed=row.seed,
            player_id=row.player_id,
            name=row.name,
            rating=row.rating,
            points=row.points,
            tiebreaks=row.tiebreaks,
            shown=row.shown,
            status=row.status,
            status_reason=row.status_reason,
            title=row.title,
            federation=row.federation,
            fide_id=row.fide_id,
        )


class StandingsOut(TournamentFields):
    edition: Edition | None  # FIDE C.07 edition the tie-breaks follow (None: group-playoff, or no table yet)
    tiebreaks: list[str]
    shown: list[str]
    rows: list[StandingRowOut]

    @classmethod
    def of(cls, info: TournamentInfo, snapshot: Snapshot) -> StandingsOut:
        info.check_table()
        table = snapshot.table
        if table is None:
            return cls(**cls.fields(info, snapshot), edition=None, tiebreaks=[], shown=[], rows=[])
        return cls(
            **cls.fields(info, snapshot),
            edition=table.edition,
            tiebreaks=list(table.tiebreaks),
            shown=list(table.shown),
            rows=[StandingRowOut.of(row) for row in table.rows],
        )
