"""A player's page (``GET /tournaments/{id}/players/{seed}``, ``/t/{id}/players/{seed}``): who they are,
their place and tie-breaks, and every game of theirs in the published rounds."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

from services.standings.domain.crosstable import symbol
from services.standings.domain.rounds import BYE_RESULTS
from services.standings.domain.snapshot import number
from services.standings.domain.tournament import Tournament
from services.standings.entrypoints.schemas.common import (
    Number,
    PlayerOut,
    ResultFields,
    TournamentFields,
    player_out,
)
from shared.http.schemas import INT32_MAX
from shared.scoring import FIDE, side_results
from shared.vocabulary import ByeKind


class PlayerPath(BaseModel):
    tournament_id: uuid.UUID
    seed: int = Field(ge=1, le=INT32_MAX, description="the player's start number; not on the roster: 404")


class PlayerGameOut(ResultFields):
    """One of the player's games (each leg with double rounds), or a bye, or a round without a pairing."""

    round: int
    leg: int
    board: int | None  # None: a bye or no pairing
    game_id: uuid.UUID | None
    label: str | None = None  # a knockout's game: Game 1, Tie-break 1 (15+10), game 2 …
    colour: Literal["w", "b", ""]  # "" for a bye or no pairing
    opponent: PlayerOut | None
    result: str  # from the player's side: 1 ½ 0 + - *, "bye"; "" while open or without a pairing
    points: Number | None  # what it scored under the ruleset (None while open; a bracket: game points)
    bye: ByeKind | None = None
    cancelled: bool = False  # a knockout game its match no longer needed


class PlayerPageOut(TournamentFields):
    """A player's page: who they are, their place and tie-breaks in the table, every game of theirs in
    the published rounds with opponent, colour and result."""

    player: PlayerOut
    status_reason: str | None = None
    rank: int | None  # None: a bracket, or no table yet
    place: int | None
    points: Number | None
    tiebreaks: dict[str, Number | None]  # the ranking tie-breaks, by code, in ranking order
    shown: dict[str, Number | None]  # shown for information only
    games: list[PlayerGameOut]

    @classmethod
    def of(cls, t: Tournament, seed: int) -> PlayerPageOut:
        if not t.info.is_bracket:
            t.info.check_table()
        me = t.player(seed)
        table = t.snapshot.table
        row = next((r for r in table.rows if r.seed == seed), None) if table else None
        return cls(
            **cls.fields(t.info, t.snapshot),
            player=player_out(t, seed),
            status_reason=row.status_reason if row else None,
            rank=row.rank if row else None,
            place=row.place if row else None,
            points=row.points if row else None,
            tiebreaks={c: row.tiebreaks[c] for c in table.tiebreaks} if row and table else {},
            shown={c: row.shown[c] for c in table.shown} if row and table else {},
            games=_games_of(t, me.seed),
        )


def _games_of(t: Tournament, seed: int) -> list[PlayerGameOut]:
    preset = t.info.preset_or_none()
    scoring = preset.point_system if preset else FIDE
    out: list[PlayerGameOut] = []
    for rnd in t.published_rounds():
        mine = sorted(
            (g for g in rnd.games if seed in (g.white, g.black)), key=lambda g: (g.leg, g.number or 0)
        )
        for g in mine:
            white = g.white == seed
            sides, points = (
                (side_results(g.outcome), scoring.game_points(g.outcome)) if g.outcome else (None, None)
            )
            out.append(
                PlayerGameOut(
                    round=rnd.number,
                    leg=g.leg,
                    board=g.board,
                    game_id=g.game_id,
                    label=g.label,
                    colour="w" if white else "b",
                    opponent=player_out(t, g.black if white else g.white),
                    result=symbol(sides[0 if white else 1]) if sides else "",
                    points=number(points[0 if white else 1]) if points else None,
                    cancelled=g.cancelled,
                    **PlayerGameOut.fields(g),
                )
            )
        bye = next((b for b in rnd.byes if b.seed == seed), None)
        if bye is not None:
            for leg in range(1, t.info.legs + 1):
                scored = scoring.points(BYE_RESULTS[bye.kind]) if preset else None
                out.append(
                    PlayerGameOut(
                        round=rnd.number, leg=leg, board=None, game_id=None, colour="", opponent=None,
                        result="bye", points=number(scored), bye=bye.kind,
                    )
                )  # fmt: skip
        elif not mine and not t.info.is_bracket:  # not paired (withdrawn, a late entry's round before)
            for leg in range(1, t.info.legs + 1):
                out.append(
                    PlayerGameOut(
                        round=rnd.number, leg=leg, board=None, game_id=None, colour="", opponent=None,
                        result="", points=None,
                    )
                )  # fmt: skip
    return out
