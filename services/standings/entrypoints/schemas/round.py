"""A round (``GET /tournaments/{id}/rounds/{n}``, ``/t/{id}/rounds/{n}``): its games with their results,
corrections and penalties, its byes, and each player's points before it (the pairing list)."""

from __future__ import annotations

import datetime as dt
import uuid
from fractions import Fraction

from pydantic import BaseModel, Field

from services.standings.domain.crosstable import player_rounds
from services.standings.domain.rounds import Incident, RoundStatus
from services.standings.domain.snapshot import number
from services.standings.domain.tournament import Tournament
from services.standings.entrypoints.schemas.common import (
    Number,
    PlayerOut,
    ResultFields,
    TournamentFields,
    result_text,
    round_player_out,
)
from shared.authority import Role
from shared.http.schemas import INT32_MAX
from shared.scoring import Outcome
from shared.vocabulary import ByeKind


class RoundPath(BaseModel):
    tournament_id: uuid.UUID
    number: int = Field(ge=0, le=INT32_MAX, description="0 and rounds not paired: 404")


class IncidentOut(BaseModel):
    """A penalty an arbiter gave in the game (RULES.md §6)."""

    player: int  # the penalised player's seed
    name: str
    kind: str  # illegal_move, displaced_pieces
    occurrence: int  # the how-many-th of its kind
    consequence: str  # warning, extra_minute, loss
    reason: str | None
    role: Role | None
    at: dt.datetime

    @classmethod
    def of(cls, t: Tournament, i: Incident) -> IncidentOut:
        return cls(
            player=i.player,
            name=t.player(i.player).name,
            kind=i.kind,
            occurrence=i.occurrence,
            consequence=i.consequence,
            reason=i.reason,
            role=i.role,
            at=i.at,
        )


class GameOut(ResultFields):
    game_id: uuid.UUID
    board: int
    leg: int
    white: PlayerOut
    black: PlayerOut
    outcome: Outcome | None  # as on the wire: 1-0, 1/2-1/2, 0-1, +/-, -/+, -/-, *; None while open
    result: str  # for reading: 1-0, ½-½, 0-1, +/-, -/+, -/-, *; "" while open
    reason: str | None
    finished_at: dt.datetime | None
    match_id: str | None = None  # knockouts: the match, the game's name in it, not needed any more
    label: str | None = None
    cancelled: bool = False
    opening: str | None = None  # the drawn opening: its table code, or the moves played; None: free
    incidents: list[IncidentOut] = []  # noqa: RUF012 (pydantic copies it); penalties given in the game, in order


class ByeOut(BaseModel):
    player: PlayerOut
    kind: ByeKind
    points: Number | None  # over the whole round (both legs with double rounds)
    late: bool = False  # a late entry's missed round (fide-rapid)


class RoundOut(TournamentFields):
    number: int
    published: bool  # an unpublished round shows neither pairings nor results
    status: RoundStatus
    games: list[GameOut]
    byes: list[ByeOut]

    @classmethod
    def of(cls, t: Tournament, round_no: int) -> RoundOut:
        rnd = t.round(round_no)
        games: list[GameOut] = []
        byes: list[ByeOut] = []
        ruleset = t.info.preset_or_none()
        before = _points_before(t, round_no)

        def _player(seed: int) -> PlayerOut:
            return round_player_out(t, seed, before.get(seed))

        if rnd.published:
            games = [
                GameOut(
                    game_id=g.game_id,
                    board=g.board,
                    leg=g.leg,
                    white=_player(g.white),
                    black=_player(g.black),
                    outcome=g.outcome,
                    result=result_text(g),
                    reason=g.reason,
                    finished_at=g.finished_at,
                    match_id=g.match_id,
                    label=g.label,
                    cancelled=g.cancelled,
                    opening=g.opening,
                    incidents=[IncidentOut.of(t, i) for i in g.incidents],
                    **GameOut.fields(g),
                )
                for g in sorted(rnd.games, key=lambda g: (g.leg, g.board, g.number or 0))
            ]
            points = t.info.bye_points(ruleset) if ruleset else None
            byes = [
                ByeOut(
                    player=_player(b.seed),
                    kind=b.kind,
                    points=number(points[b.kind]) if points else None,
                    late=b.late,
                )
                for b in rnd.byes
            ]
        return cls(
            **cls.fields(t.info, t.snapshot),
            number=rnd.number,
            published=rnd.published,
            status=rnd.status,
            games=games,
            byes=byes,
        )


def _points_before(t: Tournament, round_no: int) -> dict[int, Fraction]:
    """Each player's points from the published rounds before ``round_no`` (the pairing list's
    scores); none for a bracket or a group table."""
    ruleset = t.info.preset_or_none()
    if ruleset is None or t.info.is_group or t.info.is_bracket:
        return {}
    cells = player_rounds(t, ruleset)
    return {
        seed: sum((c.points for c in mine if c.round < round_no and c.points is not None), Fraction(0))
        for seed, mine in cells.items()
    }
