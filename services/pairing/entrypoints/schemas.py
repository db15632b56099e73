from __future__ import annotations

import datetime as dt
import uuid
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.elimination.match_play import GameKind
from services.pairing.domain.elimination.paired_matches import KnockoutGame, KnockoutMatch
from services.pairing.domain.rounds import fide
from services.pairing.domain.rounds.tournament import ByeRequest, Game, PairingTournament, Round
from services.pairing.service_layer.commands import Corrected
from shared.authority import Role
from shared.http.schemas import INT32_MAX, Strict, Text, Words
from shared.vocabulary import ByeKind, Seeding

# a drawn seed list is shown as "draw", the name the API has always used
SEEDING_SHOWN = {Seeding.RATING: "rating", Seeding.CUSTOM: "custom", Seeding.RANDOM: "draw"}


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class RoundPath(BaseModel):
    tournament_id: uuid.UUID
    number: int = Field(ge=0, le=INT32_MAX, description="0 and rounds not paired: 404")


class RosterRevisionQuery(BaseModel):
    roster_revision: int | None = Field(
        None,
        ge=1,
        le=INT32_MAX,
        description="registration's roster revision to pair after (its answer to a withdrawal, a late entry,"
        " the start: `roster_revision`, header `Roster-Revision`): until pairing has heard every roster change"
        " up to it, 409 `not-yet-heard` with `Retry-After`. Left out: the roster as pairing has heard it",
    )


USED_REVISION = (
    "the roster revision the answer was made with: every roster change up to it heard (0: none numbered)"
)


class GamePath(BaseModel):
    game_id: uuid.UUID


class ByePath(BaseModel):
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1, le=INT32_MAX)


Reason = Words  # says something: not blank (the schema's pattern)
ResultOutcome = Literal["1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-"]


def _a_reason(value: str | None) -> str | None:
    """A reason as kept: without its surrounding spaces."""
    return None if value is None else value.strip()


class CorrectionBody(Strict):
    outcome: ResultOutcome = Field(examples=["0-1"], description="the corrected result (not `*`)")
    reason: Reason = Field(
        max_length=500,
        description="why the result changes (required, not blank)",
        examples=["wrong score"],
    )

    _reason = field_validator("reason")(_a_reason)


class ByeBody(Strict):
    player_id: uuid.UUID
    round: int = Field(ge=1, le=INT32_MAX, description="a round not paired yet")
    reason: Reason | None = Field(None, max_length=500, description="not blank")

    _reason = field_validator("reason")(_a_reason)


class DecisionOut(BaseModel):
    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None


class CorrectionOut(BaseModel):
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    old_outcome: str
    outcome: str

    @classmethod
    def of(cls, c: Corrected) -> CorrectionOut:
        return cls(
            tournament_id=c.tournament_id,
            game_id=c.game_id,
            round=c.round,
            old_outcome=c.old_outcome.value,
            outcome=c.outcome.value,
        )


class ByeRequestOut(BaseModel):
    round: int
    seed: int
    player_id: uuid.UUID
    kind: ByeKind = ByeKind.ZERO_POINT
    decision: DecisionOut | None = Field(None, description="who asked (shown when it was just asked)")

    @classmethod
    def of(cls, t: PairingTournament, r: ByeRequest, *, decision: bool = False) -> ByeRequestOut:
        d = r.decision
        return cls(
            round=r.round,
            seed=r.seed,
            player_id=t.player(r.seed).player_id,
            decision=DecisionOut(by=d.by, role=d.role, at=d.at, reason=d.reason) if decision else None,
        )


class ByesOut(BaseModel):
    tournament_id: uuid.UUID
    requests: list[ByeRequestOut]


class ResetOut(BaseModel):
    tournament_id: uuid.UUID
    reset: bool = Field(True, description="pairing forgot the knockout: it is a draft again")


class PlayerOut(BaseModel):
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    withdrawn: bool = Field(False, description="left the tournament for good (withdrawn or excluded)")
    excluded: bool = Field(False, description="excluded by the organiser")
    withdrawn_at: dt.datetime | None = None


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
    rated: bool = Field(True, description="false: a knockout tie-break or sudden-death game")
    replaced_by: uuid.UUID | None = Field(
        None, description="a cancelled game a corrected match needed again: the game paired in its place"
    )

    @classmethod
    def of(cls, g: Game, in_match: tuple[KnockoutMatch, KnockoutGame] | None = None) -> GameOut:
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
                "rated": game.planned.kind is GameKind.REGULAR,
                "replaced_by": game.replaced_by,
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
    def of(cls, e: Elimination, m: KnockoutMatch) -> MatchOut:
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
    requested_byes: list[int] = Field(
        default_factory=list, description="the byes (among byes) players asked for: zero-point"
    )
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
            requested_byes=[b.seed for b in rnd.byes if b.kind is ByeKind.ZERO_POINT],
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
    byes_on_request: bool = Field(False, description="players may ask for a zero-point bye (a Swiss)")
    bye_requests: list[ByeRequestOut] = Field(
        default_factory=list, description="the byes asked for, by round (a round paired lists them too)"
    )

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
                PlayerOut(
                    seed=p.seed,
                    player_id=p.player_id,
                    name=p.name,
                    rating=p.rating,
                    withdrawn=p.seed in t.withdrawals,
                    excluded=p.seed in t.withdrawals and t.withdrawals[p.seed].excluded,
                    withdrawn_at=t.withdrawals[p.seed].at if p.seed in t.withdrawals else None,
                )
                for p in t.players
            ],
            rounds=[RoundOut.of(r, e, visible=visible) for r in t.rounds],
            knockout=KnockoutOut.of(e) if e else None,
            byes_on_request=t.byes_on_request,
            bye_requests=[ByeRequestOut.of(t, r) for _, r in sorted(t.bye_requests.items())],
        )


# -- fide-rapid: rounds on the arbiters' command -----------------------------------------------------------
class ListedPlayerOut(BaseModel):
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: float = Field(description="before the round")

    @classmethod
    def of(cls, p: fide.ListedPlayer) -> ListedPlayerOut:
        return cls(seed=p.seed, player_id=p.player_id, name=p.name, rating=p.rating, points=float(p.points))


class ListedBoardOut(BaseModel):
    board: int
    white: ListedPlayerOut
    black: ListedPlayerOut
    result: str | None = Field(description="the outcome once entered (1-0, 1/2-1/2, 0-1, +/-, -/+, -/-)")


class ListedByeOut(BaseModel):
    player: ListedPlayerOut
    kind: str = Field(description="pairing_allocated (a win's points) or zero_point (asked for)")


class PairingListOut(BaseModel):
    """A round's pairing list by board, with names, ratings and points before the round, and the byes."""

    tournament_id: uuid.UUID
    round: int
    published: bool = Field(description="false: paired, seen by the officials only until they publish it")
    boards: list[ListedBoardOut]
    byes: list[ListedByeOut]
    roster_revision: int | None = Field(
        None, description=f"the pairing's answer: {USED_REVISION}; null on the reads of a pairing list"
    )

    @classmethod
    def of(
        cls, tournament_id: uuid.UUID, listing: fide.PairingList, roster_revision: int | None = None
    ) -> PairingListOut:
        return cls(
            tournament_id=tournament_id,
            round=listing.round,
            published=listing.published,
            roster_revision=roster_revision,
            boards=[
                ListedBoardOut(
                    board=b.board,
                    white=ListedPlayerOut.of(b.white),
                    black=ListedPlayerOut.of(b.black),
                    result=None if b.outcome is None else b.outcome.value,
                )
                for b in listing.boards
            ],
            byes=[ListedByeOut(player=ListedPlayerOut.of(b.player), kind=b.kind.value) for b in listing.byes],
        )


class PreviewPlayerOut(BaseModel):
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None


class PreviewOut(BaseModel):
    """What the arbiters see before pairing a round of a `fide-rapid` event."""

    tournament_id: uuid.UUID
    round: int
    pairable: bool = Field(description="the round can be paired now")
    paired: bool = Field(description="the round has a pairing (published or not)")
    published: bool
    unfinished_boards: list[int] = Field(description="boards of the round before without a result")
    present: list[PreviewPlayerOut] = Field(description="the players the pairing takes")
    bye_requests: list[PreviewPlayerOut] = Field(description="asked for a zero-point bye for this round")
    withdrawn: list[PreviewPlayerOut]
    absent: list[PreviewPlayerOut] = Field(
        description="lost the round before at the default time, not excused: left out (they count as withdrawn)"
    )
    excused: list[PreviewPlayerOut] = Field(description="absent from the round before, excused: paired again")
    late: list[PreviewPlayerOut] = Field(description="late entries who start in a later round")
    roster_revision: int = Field(0, ge=0, description=USED_REVISION)

    @classmethod
    def of(cls, t: PairingTournament, number: int, roster_revision: int = 0) -> PreviewOut:
        def out(seeds: list[int] | set[int] | frozenset[int]) -> list[PreviewPlayerOut]:
            return [
                PreviewPlayerOut(seed=p.seed, player_id=p.player_id, name=p.name, rating=p.rating)
                for p in (t.player(s) for s in sorted(seeds))
            ]

        rnd = t.round(number)
        withdrawn = {s for s in t.withdrawals if not t.stays_in_draw(s)}
        requested = set(t.requested_byes(number))
        unexcused = set(t.unexcused(number - 1))
        late = {p.seed for p in t.players if p.from_round is not None and p.from_round > number}
        excused = {s for (r, s) in t.excused if r == number - 1}
        unfinished = t.unfinished_boards(number - 1)
        absent = t.absent(number)
        due = t.published_rounds() + 1
        return cls(
            tournament_id=t.id,
            round=number,
            pairable=number == due and not unfinished and number <= t.total_rounds,
            paired=rnd is not None,
            published=rnd is not None and rnd.published,
            unfinished_boards=unfinished,
            present=out({p.seed for p in t.players} - absent),
            bye_requests=out(requested),
            withdrawn=out(withdrawn),
            absent=out(unexcused - withdrawn),
            excused=out(excused),
            late=out(late),
            roster_revision=roster_revision,
        )


class ExcuseBody(Strict):
    round: int = Field(ge=1, le=INT32_MAX, description="the round the player was absent from")
    reason: Reason | None = Field(None, max_length=500, description="not blank")

    _reason = field_validator("reason")(_a_reason)


class ExcuseOut(BaseModel):
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
    pairing_dropped: bool = Field(
        description="true: the next round's unpublished pairing was thrown away; pair it again"
    )


class ExcusePath(BaseModel):
    tournament_id: uuid.UUID
    player_id: uuid.UUID


# -- group-playoff events (RULES.md §5) ------------------------------------------------------------------
class GroupPath(BaseModel):
    tournament_id: uuid.UUID
    group: Literal["I", "II"]


class TournamentGamePath(BaseModel):
    tournament_id: uuid.UUID
    game_id: uuid.UUID


class PhaseBody(Strict):
    phase: int = Field(ge=2, le=3, description="2: the semi-finals, 3: the final and the placement matches")
    with_placement: bool = Field(False, description="phase 2: the 5th and 7th-place matches start as well")


class LotBody(Strict):
    seed: Text = Field(min_length=1, max_length=200, description="the lot's seed, recorded and announced")


class DeadlineBody(Strict):
    phase: int = Field(ge=1, le=3)
    at: dt.datetime


class GroupRowOut(BaseModel):
    player_id: str
    name: str
    rank: int
    match_points: str
    board_points: str
    tied_match_points: str | None
    tied_board_points: str | None
    playoff_needed: bool
    decided_by: Literal["a", "b", "c", "d", "e", "f", "tied"]


class GameLotBody(Strict):
    seed: Text | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="the lot's seed, recorded and announced; none: the service draws one and records it",
    )


class LotOut(BaseModel):
    kind: Literal["groups", "tie", "final-colours", "game"]
    group: str | None
    game_id: str | None = Field(None, description="kind game: the overdue game the lot decided")
    seed: str
    drawn_by: str
    drawn_at: dt.datetime | None
    order: list[str]


class GroupGameOut(BaseModel):
    game_id: str
    white: str
    black: str
    inviter: str
    extra: int
    result: str | None
    how: str | None
    label: str


class GroupMatchOut(BaseModel):
    phase: Literal["group", "playoff", "semi-final", "final", "third-place", "fifth-place", "seventh-place"]
    group: str | None
    players: list[str]
    inviter: str = Field(
        description="who creates the games: the one named first unless they cannot (4T1 §4(5))"
    )
    board_points: list[str]
    forfeited_by: str | None
    winner: str | None
    shared: bool
    games: list[GroupGameOut]


class PlannedMatchOut(BaseModel):
    """A match of a phase not opened yet: its games' ids are known ahead (a result or lot for one of
    them is refused, 409 ``phase-not-started``); its players once the earlier results say."""

    phase: int
    stage: Literal["semi-final", "final", "third-place", "fifth-place", "seventh-place"]
    slot: int | None = Field(description="the semi-final's number (1: 1st of I v 2nd of II)")
    players: list[str] | None = Field(description="the one named first first; null while not known")
    game_ids: list[str] = Field(description="its two games, then the extra games it may need")


class GroupPlayerOut(BaseModel):
    player_id: str
    name: str
    rating: int | None
    seed: int
    group: str
    withdrawn: bool
    creates_games: bool = Field(
        description="false: said at entry they cannot create games; the other player invites (4T1 §4(5))"
    )


class PlaceOut(BaseModel):
    player_id: str
    name: str
    place: int


class GroupPlayoffOut(BaseModel):
    """A group-playoff event's page: the group tables with the criterion (a)-(f) that decided each
    place, the lots, every match with its games, the deadlines, the overdue games, the final placing."""

    tournament_id: str
    name: str
    phase: int
    placement_early: bool
    players: list[GroupPlayerOut]
    groups: dict[str, list[GroupRowOut]]
    lots: list[LotOut]
    matches: list[GroupMatchOut]
    deadlines: dict[str, dt.datetime]
    overdue: list[str]
    planned: list[PlannedMatchOut] = Field(default_factory=list)
    placing: list[PlaceOut]
    completed: bool
