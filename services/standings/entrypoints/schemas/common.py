"""What every page's model shares: the tournament's fields (what it is, how far it has come), a player,
a game's result fields and its corrections, and the paths of the API."""

from __future__ import annotations

import datetime as dt
import uuid
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from services.standings.domain.rounds import Correction, Game, RoundStatus
from services.standings.domain.snapshot import Snapshot, number
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import TournamentInfo, is_bracket
from services.standings.domain.withdrawals import PlayerStatus
from shared.authority import Role
from shared.scoring import Outcome
from shared.vocabulary import Ruleset, System

Number = int | float


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class RoundStatusOut(BaseModel):
    number: int
    status: RoundStatus
    games: int
    finished: int


class TournamentFields(BaseModel):
    """What every answer says about the tournament: what it is and how far it has come."""

    tournament_id: uuid.UUID
    name: str
    ruleset: Ruleset
    variant: str
    rated: bool = True  # False: a friendly tournament
    opening: str = "free"  # the opening option: free, random-N, table-K, table-all, thematic:CODE
    system: System | None  # None until round 1 is paired
    double_rounds: bool
    time_control: str
    started_at: dt.datetime
    completed: bool
    completed_at: dt.datetime | None
    rounds_total: int | None
    after_round: int  # the last round with every result in
    games_counted: int
    rounds: list[RoundStatusOut]

    @classmethod
    def fields(cls, info: TournamentInfo, snapshot: Snapshot) -> dict[str, Any]:
        return {
            "tournament_id": info.id,
            "name": info.name,
            "ruleset": info.ruleset,
            "variant": info.variant,
            "rated": info.rated,
            "opening": info.opening,
            "system": info.system,
            "double_rounds": info.double_rounds,
            "time_control": info.time_control.label(),
            "started_at": info.started_at,
            "completed": info.completed_at is not None,
            "completed_at": info.completed_at,
            "rounds_total": info.total_rounds,
            "after_round": snapshot.after_round,
            "games_counted": snapshot.games_counted,
            "rounds": [
                RoundStatusOut(number=r.number, status=r.status, games=r.games, finished=r.finished)
                for r in snapshot.rounds
            ],
        }

    @property
    def current(self) -> RoundStatusOut | None:
        """The round being played, else the last one paired."""
        playing = [r for r in self.rounds if r.status == "playing"]
        return playing[0] if playing else (self.rounds[-1] if self.rounds else None)

    @property
    def is_bracket(self) -> bool:
        """The knockout rulesets are shown as a bracket (the pages' navigation asks)."""
        return is_bracket(self.ruleset, self.system)


class PlayerOut(BaseModel):
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    status: PlayerStatus | None = None  # withdrawn or excluded
    title: str | None = None  # fide-rapid: from the profile, where known
    federation: str | None = None
    fide_id: int | None = None
    points: Number | None = None  # a round's players: their points before the round


class CorrectionOut(BaseModel):
    """A result corrected by an arbiter or the organiser."""

    old_outcome: Outcome
    old_result: str  # for reading: 1-0, ½-½, ...
    outcome: Outcome
    result: str
    reason: str | None
    role: Role | None  # in what capacity it was decided: organiser, arbiter
    at: dt.datetime

    @classmethod
    def of(cls, c: Correction) -> CorrectionOut:
        return cls(
            old_outcome=c.old_outcome,
            old_result=spelled(c.old_outcome),
            outcome=c.outcome,
            result=spelled(c.outcome),
            reason=c.reason,
            role=c.role,
            at=c.at,
        )


class ResultFields(BaseModel):
    """What a game's result says besides the outcome: rated or not, corrected or not."""

    rated: bool = True  # False: a knockout's tie-break or sudden-death game
    corrected: bool = False  # the result was corrected by an arbiter or the organiser
    old_outcome: Outcome | None = None  # the outcome the latest correction replaced
    corrections: list[CorrectionOut] = []  # in the order they were made

    @classmethod
    def fields(cls, g: Game) -> dict[str, Any]:
        latest = g.correction
        return {
            "rated": g.rated,
            "corrected": g.corrected,
            "old_outcome": latest.old_outcome if latest else None,
            "corrections": [CorrectionOut.of(c) for c in g.corrections],
        }


def player_out(t: Tournament, seed: int) -> PlayerOut:
    """A player of the tournament, as every page names them."""
    return round_player_out(t, seed, None)


def round_player_out(t: Tournament, seed: int, points: Fraction | None) -> PlayerOut:
    """A player as a round's pairing list names them: with their points before it (None: not shown)."""
    p = t.player(seed)
    profile = p.profile
    return PlayerOut(
        seed=p.seed,
        player_id=p.player_id,
        name=p.name,
        rating=p.rating,
        status=t.status(seed),
        title=profile.title if profile else None,
        federation=profile.federation if profile else None,
        fide_id=profile.fide_id if profile else None,
        points=number(points) if points is not None else None,
    )


def spelled(outcome: Outcome) -> str:
    """An outcome for reading: ``½-½`` for ``1/2-1/2``."""
    return outcome.value.replace("1/2", "½")


def result_text(g: Game) -> str:
    """A game's result for reading; "" while it is open."""
    return spelled(g.outcome) if g.outcome else ""
