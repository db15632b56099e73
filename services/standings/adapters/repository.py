"""Loads and stores the projected tournaments. Changes are narrow statements (a round, a result,
the snapshot), because results arrive far more often than a tournament is loaded whole."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters.orm import byes, games, matches, players, rounds, tournaments
from services.standings.domain.bracket import BracketMatch, KnockoutFormat, Placing
from services.standings.domain.tournament import (
    Bye,
    Competitor,
    Game,
    PairedRound,
    TimeControl,
    Tournament,
    TournamentInfo,
)
from shared.database import aware_or_none
from shared.events import ByeKind
from shared.scoring import Outcome


def _info(row: Any) -> TournamentInfo:
    started_at = aware_or_none(row.started_at)
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
        completed_at=aware_or_none(row.completed_at),
        knockout=KnockoutFormat.from_dict(row.knockout) if row.knockout is not None else None,
    )


def _placing(value: list[dict[str, Any]] | None) -> list[Placing] | None:
    if value is None:
        return None
    return [Placing(p["seed"], p["rank"], (p["places"][0], p["places"][1]), p["matches_won"]) for p in value]


def _game_row(tournament_id: uuid.UUID, g: Game) -> dict[str, Any]:
    return {
        "game_id": g.game_id,
        "tournament_id": tournament_id,
        "round": g.round,
        "board": g.board,
        "leg": g.leg,
        "white_seed": g.white,
        "black_seed": g.black,
        "match_id": g.match_id,
        "number": g.number,
        "label": g.label,
    }


def _match_row(tournament_id: uuid.UUID, m: BracketMatch) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "match_id": m.match_id,
        "round": m.round,
        "section": m.section,
        "section_round": m.section_round,
        "number": m.number,
        "board": m.board,
        "seed_a": m.players[0],
        "seed_b": m.players[1],
        "first_white": m.first_white,
    }


# The statements of a result, built once: a message only binds its values.
_LOCK = sa.select(tournaments.c.revision).where(tournaments.c.id == sa.bindparam("tid")).with_for_update()
_RECORD_RESULT = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"))
    .values(outcome=sa.bindparam("outcome"), reason=sa.bindparam("reason"), finished_at=sa.bindparam("at"))
)
_SAVE_SNAPSHOT = (
    sa.update(tournaments)
    .where(tournaments.c.id == sa.bindparam("tid"))
    .values(revision=sa.bindparam("revision"), snapshot=sa.bindparam("snapshot"))
)


class TournamentRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    # -- reading -----------------------------------------------------------------------------------

    def lock(self, tournament_id: uuid.UUID) -> int | None:
        """Take the tournament's row lock (serialises the changes of one tournament); its revision,
        or None for an unknown tournament."""
        revision: int | None = self.session.execute(_LOCK, {"tid": tournament_id}).scalar_one_or_none()
        return revision

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
                    aware_or_none(g.finished_at),
                    g.match_id,
                    g.number,
                    g.label,
                    g.cancelled_at is not None,
                )
            )
        for b in self.session.execute(
            sa.select(byes).where(byes.c.tournament_id == tournament_id).order_by(byes.c.round, byes.c.seed)
        ):
            by_round[b.round].byes.append(Bye(b.round, b.seed, ByeKind(b.kind)))
        for m in self.session.execute(
            sa.select(matches)
            .where(matches.c.tournament_id == tournament_id)
            .order_by(matches.c.round, matches.c.board)
        ):
            by_round[m.round].matches.append(
                BracketMatch(
                    m.match_id,
                    m.round,
                    m.section,
                    m.section_round,
                    m.number,
                    m.board,
                    (m.seed_a, m.seed_b),
                    m.first_white,
                    m.winner,
                    m.how,
                    aware_or_none(m.decided_at),
                )
            )
        return Tournament(_info(row), roster, by_round, _placing(row.placing)), row.snapshot

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
                knockout=info.knockout.to_dict() if info.knockout else None,
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
        self.add_games(t.id, rnd.games, rnd.matches)
        if rnd.byes:
            self.session.execute(
                sa.insert(byes),
                [
                    {"tournament_id": t.id, "round": b.round, "seed": b.seed, "kind": b.kind.value}
                    for b in rnd.byes
                ],
            )

    def add_games(self, tournament_id: uuid.UUID, new: list[Game], new_matches: list[BracketMatch]) -> None:
        if new:
            self.session.execute(sa.insert(games), [_game_row(tournament_id, g) for g in new])
        if new_matches:
            self.session.execute(sa.insert(matches), [_match_row(tournament_id, m) for m in new_matches])

    def publish_round(self, tournament_id: uuid.UUID, number: int) -> None:
        self.session.execute(
            sa.update(rounds)
            .where(rounds.c.tournament_id == tournament_id, rounds.c.number == number)
            .values(published=True)
        )

    def decide_match(self, tournament_id: uuid.UUID, m: BracketMatch) -> None:
        self.session.execute(
            sa.update(matches)
            .where(matches.c.tournament_id == tournament_id, matches.c.match_id == m.match_id)
            .values(winner=m.winner, how=m.how, decided_at=m.decided_at)
        )

    def cancel_game(self, game_id: uuid.UUID, at: dt.datetime) -> None:
        self.session.execute(sa.update(games).where(games.c.game_id == game_id).values(cancelled_at=at))

    def record_result(self, game: Game) -> None:
        assert game.outcome is not None
        self.session.execute(
            _RECORD_RESULT,
            {
                "gid": game.game_id,
                "outcome": game.outcome.value,
                "reason": (game.reason or "")[:40],
                "at": game.finished_at,
            },
        )

    def complete(
        self, tournament_id: uuid.UUID, at: dt.datetime, revision: int, placing: list[Placing] | None = None
    ) -> None:
        values: dict[str, Any] = {"completed_at": at, "revision": revision}
        if placing is not None:
            values["placing"] = [
                {"seed": p.seed, "rank": p.rank, "places": list(p.places), "matches_won": p.matches_won}
                for p in placing
            ]
        self.session.execute(sa.update(tournaments).where(tournaments.c.id == tournament_id).values(**values))

    def save_snapshot(self, tournament_id: uuid.UUID, revision: int, snapshot: dict[str, Any]) -> None:
        self.session.execute(
            _SAVE_SNAPSHOT, {"tid": tournament_id, "revision": revision, "snapshot": snapshot}
        )
