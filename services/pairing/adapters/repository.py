"""Loads whole tournaments for pairing; records results with narrow statements, because a result
arrives far more often than a round is paired."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import brackets, byes, games, matches, players, rounds, tournaments
from services.pairing.domain.elimination.bracket import MatchId
from services.pairing.domain.elimination.elimination import (
    Elimination,
    MatchGame,
    PairedMatch,
    bracket_from_dict,
)
from services.pairing.domain.elimination.match_play import GameKind, MatchFormat, PlannedGame
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.tournament import Bye, Game, PairingTournament, Player, Round, Status
from shared.events import ByeKind, GameOutcome, TimeControl
from shared.time_control import TimeControl as GameTimeControl
from shared.vocabulary import Decision, Seeding, System

# The statements of a result, built once: a message only binds its values.
_LOCK = (
    sa.select(tournaments.c.system, tournaments.c.total_rounds, tournaments.c.organiser_id)
    .where(tournaments.c.id == sa.bindparam("tid"))
    .with_for_update()
)
_RECORD_OUTCOME = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"), games.c.outcome.is_(None))
    .values(outcome=sa.bindparam("outcome"), finished_at=sa.bindparam("at"))
    .returning(games.c.game_id)
)
_ROUND_STATE = sa.select(
    rounds.c.completed_at,
    sa.select(sa.func.count())
    .where(
        games.c.tournament_id == sa.bindparam("tid"),
        games.c.round == sa.bindparam("number"),
        games.c.outcome.is_(None),
    )
    .scalar_subquery(),
).where(rounds.c.tournament_id == sa.bindparam("tid"), rounds.c.number == sa.bindparam("number"))


class Locked(NamedTuple):
    """What the row lock of a tournament reads with it."""

    system: System
    total_rounds: int
    organiser_id: uuid.UUID


class TournamentRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def exists(self, tournament_id: uuid.UUID) -> bool:
        return bool(
            self.session.execute(sa.select(tournaments.c.id).where(tournaments.c.id == tournament_id)).first()
        )

    def lock(self, tournament_id: uuid.UUID) -> Locked | None:
        """Take the tournament's row lock (serialises results and pairing of one tournament); None if
        there is no such tournament. Says what a result needs to know, in the same round trip."""
        row = self.session.execute(_LOCK, {"tid": tournament_id}).first()
        return None if row is None else Locked(System(row.system), int(row.total_rounds), row.organiser_id)

    def lock_shared(self, tournament_id: uuid.UUID) -> bool:
        """A shared lock of the tournament's row, for reads that load it in several statements: every
        change holds the row lock, so what follows sees one state, not half of a pairing."""
        query = (
            sa.select(tournaments.c.id).where(tournaments.c.id == tournament_id).with_for_update(read=True)
        )
        return self.session.execute(query).first() is not None

    def organiser(self, tournament_id: uuid.UUID) -> uuid.UUID:
        query = sa.select(tournaments.c.organiser_id).where(tournaments.c.id == tournament_id)
        organiser: uuid.UUID = self.session.execute(query).scalar_one()
        return organiser

    def time_control(self, tournament_id: uuid.UUID) -> TimeControl:
        value = self.session.execute(
            sa.select(tournaments.c.time_control).where(tournaments.c.id == tournament_id)
        ).scalar_one()
        return TimeControl.model_validate(value)

    def add(
        self, t: PairingTournament, *, ruleset: str, time_control: TimeControl, started_at: dt.datetime
    ) -> None:
        self.session.execute(
            sa.insert(tournaments).values(
                id=t.id,
                organiser_id=t.organiser_id,
                name=t.name,
                ruleset=ruleset,
                system=t.plan.system.value,
                total_rounds=t.plan.rounds,
                double_cycle=t.plan.double_cycle,
                double_rounds=t.double_rounds,
                time_control=time_control.model_dump(mode="json"),
                status=t.status.value,
                started_at=started_at,
            )
        )
        self.session.execute(
            sa.insert(players),
            [
                {
                    "tournament_id": t.id,
                    "seed": p.seed,
                    "player_id": p.player_id,
                    "name": p.name,
                    "rating": p.rating,
                }
                for p in t.players
            ],
        )

    def get(self, tournament_id: uuid.UUID) -> PairingTournament | None:
        row = self.session.execute(sa.select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if row is None:
            return None
        roster = [
            Player(p.seed, p.player_id, p.name, p.rating)
            for p in self.session.execute(
                sa.select(players).where(players.c.tournament_id == tournament_id).order_by(players.c.seed)
            )
        ]
        round_rows = self.session.execute(
            sa.select(rounds).where(rounds.c.tournament_id == tournament_id).order_by(rounds.c.number)
        ).all()
        game_rows = self.session.execute(
            sa.select(games)
            .where(games.c.tournament_id == tournament_id)
            .order_by(games.c.round, games.c.board, games.c.leg)
        ).all()
        bye_rows = self.session.execute(sa.select(byes).where(byes.c.tournament_id == tournament_id)).all()
        by_round: dict[int, Round] = {
            r.number: Round(r.number, [], [], r.completed_at is not None, r.published_at is not None)
            for r in round_rows
        }
        for g in game_rows:
            by_round[g.round].games.append(
                Game(
                    g.game_id,
                    g.round,
                    g.board,
                    g.white_seed,
                    g.black_seed,
                    g.leg,
                    GameOutcome(g.outcome) if g.outcome else None,
                )
            )
        for b in bye_rows:
            by_round[b.round].byes.append(Bye(b.round, b.seed, ByeKind(b.kind)))
        return PairingTournament(
            id=row.id,
            organiser_id=row.organiser_id,
            name=row.name,
            plan=Plan(System(row.system), row.total_rounds, row.double_cycle),
            double_rounds=row.double_rounds,
            players=roster,
            rounds=[by_round[n] for n in sorted(by_round)],
            status=Status(row.status),
        )

    def add_round(self, tournament_id: uuid.UUID, rnd: Round, paired_at: dt.datetime) -> None:
        """Raises IntegrityError if another worker paired this round first."""
        self.session.execute(
            sa.insert(rounds).values(
                tournament_id=tournament_id, number=rnd.number, paired_at=paired_at, published_at=paired_at
            )
        )
        if rnd.games:
            self.session.execute(
                sa.insert(games),
                [
                    {
                        "game_id": g.game_id,
                        "tournament_id": tournament_id,
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
                    {"tournament_id": tournament_id, "round": b.round, "seed": b.seed, "kind": b.kind.value}
                    for b in rnd.byes
                ],
            )

    def game(self, game_id: uuid.UUID) -> Any:
        return self.session.execute(sa.select(games).where(games.c.game_id == game_id)).first()

    def record_outcome(self, game_id: uuid.UUID, outcome: GameOutcome, at: dt.datetime) -> bool:
        """Store a result once; False if the game already had one."""
        result = self.session.execute(_RECORD_OUTCOME, {"gid": game_id, "outcome": outcome.value, "at": at})
        return result.first() is not None

    def round_state(self, tournament_id: uuid.UUID, number: int) -> tuple[bool, int]:
        """Whether round ``number`` was closed, and how many of its games have no result yet. Asked
        after a result was recorded, so the round exists (its games reference it)."""
        row = self.session.execute(_ROUND_STATE, {"tid": tournament_id, "number": number}).one()
        return row[0] is not None, int(row[1])

    def complete_round(self, tournament_id: uuid.UUID, number: int, at: dt.datetime) -> None:
        self.session.execute(
            sa.update(rounds)
            .where(rounds.c.tournament_id == tournament_id, rounds.c.number == number)
            .values(completed_at=at)
        )

    def set_status(self, tournament_id: uuid.UUID, status: Status) -> None:
        self.session.execute(
            sa.update(tournaments).where(tournaments.c.id == tournament_id).values(status=status.value)
        )

    # -- knockout brackets ---------------------------------------------------------------------------

    def add_elimination(
        self,
        e: Elimination,
        *,
        organiser_id: uuid.UUID,
        name: str,
        ruleset: str,
        time_control: TimeControl,
        started_at: dt.datetime,
        roster: list[Player],
    ) -> None:
        t = PairingTournament(
            id=e.id,
            organiser_id=organiser_id,
            name=name,
            plan=Plan(System(e.format), e.rounds_total(), False),
            double_rounds=False,
            players=roster,
        )
        self.add(t, ruleset=ruleset, time_control=time_control, started_at=started_at)
        self.session.execute(
            sa.insert(brackets).values(
                tournament_id=e.id,
                state=e.bracket.to_dict(),
                seeding=seed_list_json(e.seeding),
                match_format=e.match_format.to_dict(),
            )
        )

    def elimination(self, tournament_id: uuid.UUID) -> Elimination | None:
        row = self.session.execute(
            sa.select(brackets).where(brackets.c.tournament_id == tournament_id)
        ).first()
        if row is None:
            return None
        found: dict[MatchId, PairedMatch] = {}
        for m in self.session.execute(sa.select(matches).where(matches.c.tournament_id == tournament_id)):
            mid = MatchId.parse(m.match_id)
            found[mid] = PairedMatch(
                mid,
                m.round,
                m.board,
                (m.seed_a, m.seed_b),
                m.first_white,
                how=Decision(m.how) if m.how else None,
            )
        game_rows = self.session.execute(
            sa.select(games)
            .where(games.c.tournament_id == tournament_id, games.c.match_id.is_not(None))
            .order_by(games.c.number)
        )
        for g in game_rows:
            match = found[MatchId.parse(g.match_id)]
            planned = PlannedGame(
                g.number,
                GameKind(g.kind),
                g.stage,
                0 if g.white_seed == match.players[0] else 1,
                GameTimeControl(**g.time_control),
                g.label,
            )
            match.games.append(
                MatchGame(
                    g.game_id,
                    planned,
                    GameOutcome(g.outcome) if g.outcome else None,
                    g.cancelled_at is not None,
                )
            )
        return Elimination(
            tournament_id,
            MatchFormat.from_dict(row.match_format),
            bracket_from_dict(row.state),
            seed_list(row.seeding),
            found,
        )

    def published(self, tournament_id: uuid.UUID) -> dict[int, bool]:
        """Each paired round: is it public?"""
        rows = self.session.execute(
            sa.select(rounds.c.number, rounds.c.published_at).where(rounds.c.tournament_id == tournament_id)
        )
        return {r.number: r.published_at is not None for r in rows}

    def add_bracket_round(
        self, tournament_id: uuid.UUID, number: int, paired: list[PairedMatch], paired_at: dt.datetime
    ) -> None:
        """A knockout round: unpublished until its organiser publishes it. Raises IntegrityError if
        another worker paired it first."""
        self.session.execute(
            sa.insert(rounds).values(tournament_id=tournament_id, number=number, paired_at=paired_at)
        )
        self.session.execute(
            sa.insert(matches),
            [
                {
                    "tournament_id": tournament_id,
                    "match_id": str(m.id),
                    "round": m.round,
                    "board": m.board,
                    "seed_a": m.players[0],
                    "seed_b": m.players[1],
                    "first_white": m.first_white,
                }
                for m in paired
            ],
        )
        for m in paired:
            self.add_match_games(tournament_id, m, m.games)

    def add_match_games(self, tournament_id: uuid.UUID, match: PairedMatch, new: Iterable[MatchGame]) -> None:
        rows = [
            {
                "game_id": g.game_id,
                "tournament_id": tournament_id,
                "round": match.round,
                "board": match.board,
                "leg": 1,
                "white_seed": match.white(g),
                "black_seed": match.black(g),
                "match_id": str(match.id),
                "number": g.planned.number,
                "kind": g.planned.kind.value,
                "stage": g.planned.stage,
                "label": g.planned.label,
                "time_control": asdict(g.planned.time_control),
            }
            for g in new
        ]
        if rows:
            self.session.execute(sa.insert(games), rows)

    def decide_match(
        self, e: Elimination, match: PairedMatch, cancelled: Iterable[MatchGame], at: dt.datetime
    ) -> None:
        """A match has its winner: how, when, the games it no longer needs, the bracket's new state."""
        how = match.how.value if match.how else None
        self.session.execute(
            sa.update(matches)
            .where(matches.c.tournament_id == e.id, matches.c.match_id == str(match.id))
            .values(how=how, decided_at=at)
        )
        ids = [g.game_id for g in cancelled]
        if ids:
            self.session.execute(sa.update(games).where(games.c.game_id.in_(ids)).values(cancelled_at=at))
        self.save_bracket(e)

    def save_bracket(self, e: Elimination) -> None:
        self.session.execute(
            sa.update(brackets).where(brackets.c.tournament_id == e.id).values(state=e.bracket.to_dict())
        )
        self.session.execute(
            sa.update(tournaments).where(tournaments.c.id == e.id).values(total_rounds=e.rounds_total())
        )

    def publish_round(self, tournament_id: uuid.UUID, number: int, at: dt.datetime) -> bool | None:
        """Publish a round: True if it was unpublished, False if it was public already, None if the round
        is not paired."""
        row = self.session.execute(
            sa.select(rounds.c.published_at).where(
                rounds.c.tournament_id == tournament_id, rounds.c.number == number
            )
        ).first()
        if row is None:
            return None
        if row.published_at is not None:
            return False
        self.session.execute(
            sa.update(rounds)
            .where(rounds.c.tournament_id == tournament_id, rounds.c.number == number)
            .values(published_at=at)
        )
        return True


# A seed list as stored: a drawn one's kind is written "draw", the name it had before the shared vocabulary.
_STORED_SEEDING = {Seeding.RATING: "rating", Seeding.CUSTOM: "custom", Seeding.RANDOM: "draw"}
_SEEDING_STORED = {stored: kind for kind, stored in _STORED_SEEDING.items()}


def seed_list_json(seeds: SeedList) -> dict[str, Any]:
    return {"kind": _STORED_SEEDING[seeds.kind], "order": list(seeds.order), "draw_seed": seeds.draw_seed}


def seed_list(data: dict[str, Any]) -> SeedList:
    return SeedList(
        _SEEDING_STORED[data["kind"]], tuple(str(p) for p in data["order"]), data.get("draw_seed")
    )
