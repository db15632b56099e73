"""Request and response bodies; the OpenAPI document is generated from these."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, Field

from services.clocks.domain.clock import Side
from services.clocks.domain.endings import REASON
from services.clocks.domain.game import Game, Outcome
from services.clocks.domain.penalties import Consequence, Incident, PenaltyKind
from services.clocks.domain.presence import Presence
from shared.authority import Decided, Role
from shared.http.schemas import INT32_MAX, OptionalBody, Strict, Text
from shared.openings import DrawnOpening


class GamePath(BaseModel):
    game_id: uuid.UUID


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class GamesQuery(BaseModel):
    round: int | None = Field(None, ge=1, le=INT32_MAX, description="only this round's games")


class OpeningOut(BaseModel):
    code: str | None = Field(description="the table code; null for random moves")
    moves: list[str] = Field(description="in the variant's notation")
    fen: str = Field(description="the position the game started from")
    label: str = Field(description="what pages show: the code, or the moves")

    @classmethod
    def of(cls, o: DrawnOpening) -> OpeningOut:
        return cls(code=o.code, moves=list(o.moves), fen=o.fen, label=o.label)


class PresenceBody(Strict):
    player_id: uuid.UUID
    status: Presence = Field(description="connected | disconnected | busy (playing elsewhere)")


class MoveBody(OptionalBody):
    """Optional: a player reporting their own move sends no body."""

    player_id: uuid.UUID | None = Field(
        None, description="service tokens only: the player who moved (players move for themselves)"
    )
    move: Text | None = Field(
        None,
        min_length=1,
        max_length=40,
        description="the move in the variant's notation (SAN for chess, PDN squares for draughts): checked "
        "by the variant's move generator and played on the game's board (422 illegal-move)",
    )


# how a game ends: every outcome but "*" (not played)
ENDINGS: Final = tuple(o.value for o in Outcome if o is not Outcome.NOT_PLAYED)


def _an_ending(outcome: Outcome) -> Outcome:
    if outcome is Outcome.NOT_PLAYED:
        raise ValueError(f"a game ends {', '.join(ENDINGS)}; '*' (not played) is not how a game ends")
    return outcome


def _endings_schema(schema: dict[str, Any]) -> None:
    """The outcomes a game ends with, as the document states them (not the shared ``Outcome``)."""
    schema.clear()
    schema.update({"type": "string", "enum": list(ENDINGS), "description": "how the game ended"})


class ResultBody(Strict):
    outcome: Annotated[Outcome, AfterValidator(_an_ending)] = Field(
        examples=["1-0"], json_schema_extra=_endings_schema
    )
    reason: str = Field(
        max_length=40,
        pattern=REASON.pattern,
        description="a short lowercase code: resignation, agreement, checkmate, stalemate, forfeit, ...",
        examples=["resignation"],
    )


class AbsenceBody(Strict):
    player_id: uuid.UUID = Field(description="the player not at the board by the default time")
    opponent_absent: bool = Field(
        False, description="the opponent is not at the board either: both lose (-/-)"
    )


class PenaltyBody(Strict):
    player_id: uuid.UUID = Field(description="the offending player")
    kind: PenaltyKind = Field(examples=["illegal_move"])
    white_ms: int | None = Field(
        None,
        ge=0,
        le=INT32_MAX,
        description="over the board: White's remaining time on the board's clock, in milliseconds "
        "(required, with black_ms, for displaced pieces); never with server clocks",
    )
    black_ms: int | None = Field(None, ge=0, le=INT32_MAX, description="as white_ms, for Black")
    reason: Text | None = Field(
        None, min_length=1, max_length=500, description="what happened (kept with the decision)"
    )


class TimeControlOut(BaseModel):
    base_seconds: int
    increment_seconds: int
    days_per_move: int | None


class ClockOut(BaseModel):
    """The clock as of ``as_of`` (the server's time when it answered)."""

    time_control: TimeControlOut
    state: str = Field(
        description="pending | running | stopped | board (over the board: the boards keep the time)"
    )
    to_move: Side | None
    white_ms: int | None = Field(
        description="White's remaining time in milliseconds (null over the board: the board's clock says)"
    )
    black_ms: int | None
    deadline: dt.datetime | None = Field(
        description="when the game ends on the server if nothing happens first: the side to move's flag "
        "falls, or (default time) a player's first move is missing; null unless running"
    )
    flagged: Side | None = Field(description="whose flag fell, if the game ended on time")
    boosted: list[Side] = Field(
        default_factory=list, description="an arena game: the sides that took the boost (no increment)"
    )
    as_of: dt.datetime

    @classmethod
    def of(cls, game: Game, now: dt.datetime) -> ClockOut:
        c = game.clock
        server = game.server_clock
        return cls(
            time_control=TimeControlOut(
                base_seconds=c.control.base_seconds,
                increment_seconds=c.control.increment_seconds,
                days_per_move=c.control.days_per_move,
            ),
            state=c.state.value if server else "board",
            to_move=c.to_move if c.running else None,
            white_ms=c.remaining_ms(Side.WHITE, now) if server else None,
            black_ms=c.remaining_ms(Side.BLACK, now) if server else None,
            deadline=game.deadline,
            flagged=c.flagged,
            boosted=sorted(c.boosted),
            as_of=now,
        )


class PlayerOut(BaseModel):
    player_id: uuid.UUID
    moved: bool = Field(description="whether this side ever moved")


class DecisionOut(BaseModel):
    """Who decided, in what capacity, when and why."""

    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None

    @classmethod
    def of(cls, d: Decided) -> DecisionOut:
        return cls(by=d.by, role=d.role, at=d.at, reason=d.reason)


class CorrectionOut(BaseModel):
    old_outcome: Outcome
    outcome: Outcome
    decision: DecisionOut


class ResultOut(BaseModel):
    outcome: Outcome = Field(description="the result as it stands (corrected, if it was)")
    reason: str
    finished_at: dt.datetime
    decision: DecisionOut | None = Field(
        None,
        description="who entered it (organiser, arbiter, service, or the player who confirmed the "
        "opponent's claim; a withdrawal's decision); null when the game ended by itself (a player's own "
        "loss, a flag fall, the tournament's close)",
    )
    corrected: bool = Field(False, description="true: the result was corrected after the game ended")
    corrections: list[CorrectionOut] = Field(default_factory=list, description="oldest first")


class IncidentOut(BaseModel):
    """A penalty (RULES.md §6)."""

    at: dt.datetime
    kind: PenaltyKind
    player_id: uuid.UUID
    side: Side | None = Field(description="the player's colour in the game")
    occurrence: int = Field(
        description="the how-many-th of its kind: illegal moves in this game (displaced pieces treated as "
        "one included), displaced pieces in the tournament"
    )
    consequence: Consequence = Field(description="warning | extra_minute (for the opponent) | loss")
    decision: DecisionOut
    white_ms: int | None = Field(
        description="White's remaining time then: the server's clock's, or as the arbiter stated it"
    )
    black_ms: int | None

    @classmethod
    def of(cls, game: Game, i: Incident) -> IncidentOut:
        return cls(
            at=i.at,
            kind=i.kind,
            player_id=i.player_id,
            side=game.side_of(i.player_id),
            occurrence=i.occurrence,
            consequence=i.consequence,
            decision=DecisionOut.of(i.decision),
            white_ms=i.white_ms,
            black_ms=i.black_ms,
        )


class ClaimOut(BaseModel):
    """A player's report awaiting the opponent's confirmation (or, disputed, the arbiter)."""

    player_id: uuid.UUID
    side: Side
    outcome: Outcome
    reason: str
    at: dt.datetime


class GameOut(BaseModel):
    id: uuid.UUID
    tournament_id: uuid.UUID
    round: int
    board: int
    leg: int
    status: str = Field(
        description="pending (not started yet: a knockout game waiting for its match's previous game, a "
        "double round's leg 2 waiting for leg 1) | running | disputed (the players reported different "
        "results: both clocks are stopped until the arbiter enters it) | finished | cancelled"
    )
    white: PlayerOut
    black: PlayerOut
    clock: ClockOut
    clocks: Literal["server", "board"] = Field(
        "server", description="who keeps the time: the server's clock, or the board's (over the board)"
    )
    default_time_seconds: int | None = Field(
        None,
        description="server clocks: a player with no first move this long after the start loses by forfeit",
    )
    moves: int
    variant: str = Field("chess", description="chess, international, english, italian or russian")
    opening: OpeningOut | None = Field(
        None, description="the drawn opening the game started from; null: free"
    )
    position: str = Field(
        description="the position now (FEN), as far as the moves reported with their text say"
    )
    line: list[str] = Field(
        default_factory=list, description="the moves reported with their text, after the opening"
    )
    both_moved: bool | None = Field(
        description="false: one side never moved, so the game changes no rating; null over the board (the "
        "server does not see the moves)"
    )
    result: ResultOut | None
    claims: list[ClaimOut] = Field(
        default_factory=list,
        description="players' reports awaiting the opponent's confirmation: one pending, or two that "
        "differ (disputed)",
    )
    rated: bool = Field(True, description="false: a knockout tie-break or sudden-death game")
    incidents: list[IncidentOut] = Field(default_factory=list, description="penalties, oldest first")
    started_at: dt.datetime | None
    match_id: str | None = Field(None, description="knockouts: the match this game belongs to")
    number: int | None = Field(None, description="knockouts: the game's number in its match")
    label: str | None = Field(None, description="knockouts: e.g. 'Game 2', 'Sudden death (3+2)'")
    published: bool = Field(True, description="false while its knockout round is unpublished")
    next_leg: uuid.UUID | None = Field(
        None,
        description="a double round's leg 1: the pairing's leg 2, which stays pending until this game ends "
        "and starts then",
    )

    @classmethod
    def of(cls, game: Game, now: dt.datetime) -> GameOut:
        result = None
        if game.outcome is not None and game.reason is not None and game.finished_at is not None:
            result = ResultOut(
                outcome=game.outcome,
                reason=game.reason,
                finished_at=game.finished_at,
                decision=None if game.decision is None else DecisionOut.of(game.decision),
                corrected=game.corrected,
                corrections=[
                    CorrectionOut(
                        old_outcome=c.old_outcome, outcome=c.outcome, decision=DecisionOut.of(c.decision)
                    )
                    for c in game.corrections
                ],
            )
        claims = [
            ClaimOut(
                player_id=game.white if side is Side.WHITE else game.black,
                side=side,
                outcome=c.outcome,
                reason=c.reason,
                at=c.at,
            )
            for side, c in sorted(game.claims.items(), key=lambda item: item[1].at)
        ]
        return cls(
            id=game.id,
            tournament_id=game.tournament_id,
            round=game.round,
            board=game.board,
            leg=game.leg,
            status=game.status.value,
            white=PlayerOut(player_id=game.white, moved=game.white_moved),
            black=PlayerOut(player_id=game.black, moved=game.black_moved),
            clock=ClockOut.of(game, now),
            clocks="server" if game.server_clock else "board",
            default_time_seconds=(
                None if game.default_time is None else int(game.default_time.total_seconds())
            ),
            moves=game.moves,
            variant=game.variant.value,
            opening=None if game.opening is None else OpeningOut.of(game.opening),
            position=game.board_position.fen,
            line=list(game.line),
            both_moved=game.both_moved,
            result=result,
            claims=claims,
            rated=game.rated,
            incidents=[IncidentOut.of(game, i) for i in game.incidents],
            started_at=game.started_at,
            match_id=game.match_id,
            number=game.number,
            label=game.label,
            published=game.released,
            next_leg=game.next_leg,
        )


class GameList(BaseModel):
    games: list[GameOut]
