from __future__ import annotations

import uuid

from pydantic import BaseModel, Field

from services.pairing.domain.elimination.elimination import Elimination, MatchGame, PairedMatch
from services.pairing.domain.rounds.tournament import Game, PairingTournament, Round
from shared.http.schemas import INT32_MAX
from shared.vocabulary import Seeding

# a drawn seed list is shown as "draw", the name the API has always used
SEEDING_SHOWN = {Seeding.RATING: "rating", Seeding.CUSTOM: "custom", Seeding.RANDOM: "draw"}


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class RoundPath(BaseModel):
    tournament_id: uuid.UUID
    number: int = Field(ge=0, le=INT32_MAX, description="0 and rounds not paired: 404")


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
    # knockouts: the match, the game's number and name in it, whether the match no longer needs it
    match_id: str | None = None
    number: int | None = None
    label: str | None = None
    cancelled: bool = False

    @classmethod
    def of(cls, g: Game, in_match: tuple[PairedMatch, MatchGame] | None = None) -> GameOut:
        out = cls(
            game_id=g.game_id,
            board=g.board,
            leg=g.leg,
            white=g.white,
            black=g.black,
            outcome=g.outcome.value if g.outcome else None,
        )
        if in_match is None:
            return out
        match, game = in_match
        return out.model_copy(
            update={
                "match_id": str(match.id),
                "number": game.planned.number,
                "label": game.planned.label,
                "cancelled": game.cancelled,
            }
        )


class MatchOut(BaseModel):
    match_id: str = Field(description="section:round:number")
    section: str
    board: int
    players: list[int] = Field(description="seeds in slot order")
    first_white: int = Field(description="the seed with White in game 1 (drawn)")
    winner: int | None
    how: str | None = Field(description="regular | tiebreak | sudden_death")

    @classmethod
    def of(cls, e: Elimination, m: PairedMatch) -> MatchOut:
        return cls(
            match_id=str(m.id),
            section=m.id.section.value,
            board=m.board,
            players=list(m.players),
            first_white=m.seed(m.first_white),
            winner=e.bracket.match(m.id).winner,
            how=m.how.value if m.how else None,
        )


class RoundOut(BaseModel):
    number: int
    completed: bool
    published: bool = Field(description="an unpublished round's pairings are shown to its organiser only")
    games: list[GameOut]
    byes: list[int]
    matches: list[MatchOut] = Field(default_factory=list, description="knockouts: the round's matches")

    @classmethod
    def of(cls, rnd: Round, e: Elimination | None = None, *, visible: bool = True) -> RoundOut:
        """A round; ``e``: the knockout it belongs to. Unless ``visible``, an unpublished round is shown
        without its pairings (to anyone but its organiser)."""
        if not (visible or rnd.published):
            return cls(number=rnd.number, completed=rnd.completed, published=False, games=[], byes=[])
        paired = e.round_matches(rnd.number) if e else []
        in_match = {g.game_id: (m, g) for m in paired for g in m.games}
        return cls(
            number=rnd.number,
            completed=rnd.completed,
            published=rnd.published,
            games=[GameOut.of(g, in_match.get(g.game_id)) for g in rnd.games],
            byes=[b.seed for b in rnd.byes],
            matches=[MatchOut.of(e, m) for m in paired] if e else [],
        )


class KnockoutOut(BaseModel):
    format: str = Field(description="knockout | double_knockout")
    games_per_match: int
    seeding: str = Field(description="rating | custom | draw")
    draw_seed: int | None
    options: dict[str, bool] = Field(description="third_place (knockout) or second_final (double knockout)")
    finished: bool

    @classmethod
    def of(cls, e: Elimination) -> KnockoutOut:
        state = e.bracket.to_dict()  # format, players, the options, results
        return cls(
            format=e.format,
            games_per_match=e.match_format.games,
            seeding=SEEDING_SHOWN[e.seeds.kind],
            draw_seed=e.seeds.draw_seed,
            options={k: v for k, v in state.items() if k not in ("format", "players", "results")},
            finished=e.bracket.is_finished(),
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
    knockout: KnockoutOut | None = None

    @classmethod
    def of(cls, t: PairingTournament, e: Elimination | None = None, *, visible: bool = True) -> TournamentOut:
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
            rounds=[RoundOut.of(r, e, visible=visible) for r in t.rounds],
            knockout=KnockoutOut.of(e) if e else None,
        )
