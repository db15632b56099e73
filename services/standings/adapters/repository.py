"""Loads and stores the projected tournaments. Changes are narrow statements (a round, a result,
the snapshot), because results arrive far more often than a tournament is loaded whole."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters.orm import byes, games, players, rounds, tournaments
from services.standings.domain.tournament import (
    Bye,
    Competitor,
    Game,
    PairedRound,
    TimeControl,
    Tournament,
    TournamentInfo,
)
from shared.events import ByeKind
from shared.scoring import Outcome


def _aware(value: dt.datetime | None) -> dt.datetime | None:
    """SQLite returns naive datetimes; everything here is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=dt.UTC)


def _info(row: Any) -> TournamentInfo:
    started_at = _aware(row.started_at)
    assert started_at is not None
    return TournamentInfo(
        id=row.id,
        name=row.name,
        ruleset=row.ruleset,
        variant=row.variant,
        started_at=started_at,
        time_control=TimeControl(**row.time_control),
        double_rounds=row.double_rounds,
        system=row.system,
        total_rounds=row.total_rounds,
        completed_at=_aware(row.completed_at),
    )


class TournamentRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    # -- reading -----------------------------------------------------------------------------------

    def lock(self, tournament_id: uuid.UUID) -> int | None:
        """Take the tournament's row lock (serialises the changes of one tournament); its revision,
        or None for an unknown tournament."""
        query = sa.select(tournaments.c.revision).where(tournaments.c.id == tournament_id).with_for_update()
        return self.session.execute(query).scalar_one_or_none()

    def summary(self, tournament_id: uuid.UUID) -> tuple[TournamentInfo, dict[str, Any]] | None:
        """What a tournament is and its snapshot: all the standings page reads."""
        row = self.session.execute(sa.select(tournaments).where(tournaments.c.id == tournament_id)).first()
        return None if row is None else (_info(row), row.snapshot)

    def get(
        self, tournament_id: uuid.UUID, *, consistent: bool = False
    ) -> tuple[Tournament, dict[str, Any]] | None:
        """The whole tournament and its snapshot. ``consistent`` reads under a shared row lock, so
        the rows and the snapshot belong to the same revision (a writer holds the row lock for
        every change)."""
        query = sa.select(tournaments).where(tournaments.c.id == tournament_id)
        if consistent:
            query = query.with_for_update(read=True)
        row = self.session.execute(query).first()
        if row is None:
            return None
        roster = [
            Competitor(p.seed, p.player_id, p.name, p.rating)
            for p in self.session.execute(
                sa.select(players).where(players.c.tournament_id == tournament_id).order_by(players.c.seed)
            )
        ]
        by_round = {
            r.number: PairedRound(r.number, [], [], r.published)
            for r in self.session.execute(
                sa.select(rounds).where(rounds.c.tournament_id == tournament_id).order_by(rounds.c.number)
            )
        }
        for g in self.session.execute(
            sa.select(games)
            .where(games.c.tournament_id == tournament_id)
            .order_by(games.c.round, games.c.leg, games.c.board)
        ):
            by_round[g.round].games.append(
                Game(
                    g.game_id,
                    g.round,
                    g.board,
                    g.white_seed,
                    g.black_seed,
                    g.leg,
                    Outcome(g.outcome) if g.outcome else None,
                    g.reason,
                    _aware(g.finished_at),
                )
            )
        for b in self.session.execute(
            sa.select(byes).where(byes.c.tournament_id == tournament_id).order_by(byes.c.round, byes.c.seed)
        ):
            by_round[b.round].byes.append(Bye(b.round, b.seed, ByeKind(b.kind)))
        return Tournament(_info(row), roster, by_round), row.snapshot

    # -- writing -----------------------------------------------------------------------------------

    def add(self, t: Tournament, snapshot: dict[str, Any]) -> None:
        info = t.info
        tc = info.time_control
        self.session.execute(
            sa.insert(tournaments).values(
                id=info.id,
                name=info.name,
                ruleset=info.ruleset,
                variant=info.variant,
                double_rounds=info.double_rounds,
                time_control={
                    "base_seconds": tc.base_seconds,
                    "increment_seconds": tc.increment_seconds,
                    "days_per_move": tc.days_per_move,
                },
                started_at=info.started_at,
                revision=0,
                snapshot=snapshot,
            )
        )
        self.session.execute(
            sa.insert(players),
            [
                {
                    "tournament_id": info.id,
                    "seed": p.seed,
                    "player_id": p.player_id,
                    "name": p.name,
                    "rating": p.rating,
                }
                for p in t.players
            ],
        )

    def add_round(self, t: Tournament, rnd: PairedRound, paired_at: dt.datetime) -> None:
        self.session.execute(
            sa.update(tournaments)
            .where(tournaments.c.id == t.id)
            .values(system=t.info.system, total_rounds=t.info.total_rounds)
        )
        self.session.execute(
            sa.insert(rounds).values(
                tournament_id=t.id, number=rnd.number, published=rnd.published, paired_at=paired_at
            )
        )
        if rnd.games:
            self.session.execute(
                sa.insert(games),
                [
                    {
                        "game_id": g.game_id,
                        "tournament_id": t.id,
                        "round": g.round,
                        "board": g.board,
                        "leg": g.leg,
                        "white_seed": g.white,
                        "black_seed": g.black,
                    }
                    for g in rnd.games
                ],
            )
        if rnd.byes:
            self.session.execute(
                sa.insert(byes),
                [
                    {"tournament_id": t.id, "round": b.round, "seed": b.seed, "kind": b.kind.value}
                    for b in rnd.byes
                ],
            )

    def record_result(self, game: Game) -> None:
        assert game.outcome is not None
        self.session.execute(
            sa.update(games)
            .where(games.c.game_id == game.game_id)
            .values(outcome=game.outcome.value, reason=(game.reason or "")[:40], finished_at=game.finished_at)
        )

    def complete(self, tournament_id: uuid.UUID, at: dt.datetime, revision: int) -> None:
        self.session.execute(
            sa.update(tournaments)
            .where(tournaments.c.id == tournament_id)
            .values(completed_at=at, revision=revision)
        )

    def save_snapshot(self, tournament_id: uuid.UUID, revision: int, snapshot: dict[str, Any]) -> None:
        self.session.execute(
            sa.update(tournaments)
            .where(tournaments.c.id == tournament_id)
            .values(revision=revision, snapshot=snapshot)
        )
