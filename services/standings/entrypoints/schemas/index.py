"""The index (``/t/``, docs/standings.md "Public pages"): the running, upcoming and finished tournaments,
searched by name."""

from __future__ import annotations

import datetime as dt
import uuid

from pydantic import BaseModel, Field, field_validator

from services.standings.domain.listing import Index, Listed, Progress
from shared.http.schemas import Text


class IndexQuery(BaseModel):
    """The index page's parameters (``/t/``); what else the address carries is ignored, as by the search
    form's other fields."""

    q: Text | None = Field(None, max_length=100, description="a part of the name, any case")
    status: Progress | None = Field(None, description="only this list: running, upcoming or finished")

    @field_validator("q", "status", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        """``?q=&status=`` (the search form sent as it is): no search, every list."""
        return None if isinstance(value, str) and not value.strip() else value


class ListedOut(BaseModel):
    tournament_id: uuid.UUID
    name: str
    status: Progress
    ruleset: str  # an arena: arena
    variant: str
    time_control: str | None  # 3+2; None: an arena that started (its clock is pairing's)
    starts_at: dt.datetime = Field(description="when it started, or (upcoming) is to start")
    completed_at: dt.datetime | None
    players: int = Field(description="entered so far (upcoming), else on the roster")
    rounds_paired: int
    rounds_total: int | None

    @classmethod
    def of(cls, t: Listed) -> ListedOut:
        return cls(
            tournament_id=t.id,
            name=t.name,
            status=t.phase,
            ruleset=t.ruleset,
            variant=t.variant,
            time_control=t.time_control.label() if t.time_control else None,
            starts_at=t.starts_at,
            completed_at=t.completed_at,
            players=t.players,
            rounds_paired=t.rounds_paired,
            rounds_total=t.rounds_total,
        )


class IndexOut(BaseModel):
    """Every tournament whose name contains ``q``: the running ones (latest start first), the upcoming
    ones (soonest first), the finished ones (latest end first); each list at most ``limit`` long."""

    q: str | None
    limit: int
    running: list[ListedOut]
    upcoming: list[ListedOut]
    finished: list[ListedOut]

    @classmethod
    def of(cls, index: Index, query: IndexQuery) -> IndexOut:
        def listed(phase: Progress, items: tuple[Listed, ...]) -> list[ListedOut]:
            return [ListedOut.of(t) for t in items] if query.status in (None, phase) else []

        return cls(
            q=query.q,
            limit=index.limit,
            running=listed(Progress.RUNNING, index.running),
            upcoming=listed(Progress.UPCOMING, index.upcoming),
            finished=listed(Progress.FINISHED, index.finished),
        )
