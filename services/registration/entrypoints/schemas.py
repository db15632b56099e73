"""Request and response bodies; the OpenAPI document is generated from these."""

from __future__ import annotations

import datetime as dt
import uuid

from pydantic import BaseModel, ConfigDict, Field

from services.registration.domain.model import AccountKind, Tournament


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TimeControlBody(Strict):
    base_seconds: int = Field(ge=0, le=6 * 3600, examples=[180])
    increment_seconds: int = Field(0, ge=0, le=600, examples=[2])
    days_per_move: int | None = Field(None, ge=1, le=60)


class AccountBody(Strict):
    id: uuid.UUID | None = None
    name: str = Field(min_length=1, max_length=100)
    kind: AccountKind = AccountKind.REGISTERED
    ratings: dict[str, int] = Field(default_factory=dict, examples=[{"chess:blitz": 1650}])


class AccountOut(BaseModel):
    id: uuid.UUID
    name: str
    kind: AccountKind
    ratings: dict[str, int]


class CreateTournamentBody(Strict):
    name: str = Field(min_length=1, max_length=200)
    starts_at: dt.datetime = Field(description="5 minutes to 14 days ahead, with a time zone")
    time_control: TimeControlBody
    seats: int = Field(200, ge=1, le=10_000, description="4–200")
    minimum: int = Field(4, ge=1, le=10_000, description="4 or more, at most the seats")
    threshold: int = Field(7, ge=1, le=1000, description="7–20: fewer players → round robin, else Swiss")
    ruleset: str = "platform"
    variant: str = "chess"
    double_rounds: bool = False
    extra_round: bool = False
    rated: bool = True
    min_rating: int | None = Field(None, description="1000–2000 in steps of 100; rated only")
    password: str | None = Field(None, min_length=1, max_length=100, description="makes it private")


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class EntryPath(BaseModel):
    tournament_id: uuid.UUID
    player_id: uuid.UUID


class AccountPath(BaseModel):
    account_id: uuid.UUID


class JoinBody(Strict):
    player_id: uuid.UUID | None = Field(None, description="staff only: join someone else")
    password: str | None = None


class EntryOut(BaseModel):
    player_id: uuid.UUID
    name: str
    rating: int | None


class TournamentOut(BaseModel):
    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    status: str
    status_reason: str | None
    starts_at: dt.datetime
    time_control: TimeControlBody
    seats: int
    minimum: int
    threshold: int
    ruleset: str
    variant: str
    double_rounds: bool
    extra_round: bool
    rated: bool
    min_rating: int | None
    private: bool
    entries: list[EntryOut]

    @classmethod
    def of(cls, t: Tournament) -> TournamentOut:
        tc = t.time_control
        return cls(
            id=t.id,
            organiser_id=t.organiser_id,
            name=t.name,
            status=t.status.value,
            status_reason=t.status_reason,
            starts_at=t.starts_at,
            time_control=TimeControlBody(
                base_seconds=tc.base_seconds,
                increment_seconds=tc.increment_seconds,
                days_per_move=tc.days_per_move,
            ),
            seats=t.seats,
            minimum=t.minimum,
            threshold=t.threshold,
            ruleset=t.ruleset,
            variant=t.variant,
            double_rounds=t.double_rounds,
            extra_round=t.extra_round,
            rated=t.rated,
            min_rating=t.min_rating,
            private=t.private,
            entries=[EntryOut(player_id=e.player_id, name=e.name, rating=e.rating) for e in t.entries],
        )


class TournamentList(BaseModel):
    tournaments: list[TournamentOut]


class ListQuery(BaseModel):
    status: str | None = None
    limit: int = Field(100, ge=1, le=500)
