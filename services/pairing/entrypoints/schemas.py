from __future__ import annotations

import uuid

from pydantic import BaseModel

from services.pairing.domain.tournament import PairingTournament, Round


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class RoundPath(BaseModel):
    tournament_id: uuid.UUID
    number: int


class PlayerOut(BaseModel):
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None


class GameOut(BaseModel):
    game_id: uuid.UUID
    board: int
    leg: int
    white: int
    black: int
    outcome: str | None


class RoundOut(BaseModel):
    number: int
    completed: bool
    games: list[GameOut]
    byes: list[int]

    @classmethod
    def of(cls, rnd: Round) -> RoundOut:
        return cls(
            number=rnd.number,
            completed=rnd.completed,
            games=[
                GameOut(
                    game_id=g.game_id,
                    board=g.board,
                    leg=g.leg,
                    white=g.white,
                    black=g.black,
                    outcome=g.outcome.value if g.outcome else None,
                )
                for g in rnd.games
            ],
            byes=[b.seed for b in rnd.byes],
        )


class TournamentOut(BaseModel):
    id: uuid.UUID
    name: str
    system: str
    total_rounds: int
    double_cycle: bool
    double_rounds: bool
    status: str
    players: list[PlayerOut]
    rounds: list[RoundOut]

    @classmethod
    def of(cls, t: PairingTournament) -> TournamentOut:
        return cls(
            id=t.id,
            name=t.name,
            system=t.system.value,
            total_rounds=t.total_rounds,
            double_cycle=t.plan.double_cycle,
            double_rounds=t.double_rounds,
            status=t.status.value,
            players=[
                PlayerOut(seed=p.seed, player_id=p.player_id, name=p.name, rating=p.rating) for p in t.players
            ],
            rounds=[RoundOut.of(r) for r in t.rounds],
        )
