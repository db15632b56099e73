"""A tournament announced before its start (``/t/{id}`` until it starts): what it is, when it starts, who
has entered so far."""

from __future__ import annotations

import datetime as dt
import uuid

from pydantic import BaseModel

from services.standings.domain.announced import AnnouncedTournament


class EntrantOut(BaseModel):
    player_id: uuid.UUID
    name: str
    rating: int | None
    title: str | None
    federation: str | None


class AnnouncedOut(BaseModel):
    """A tournament announced before its start: what it is, when it starts, who has entered so far."""

    tournament_id: uuid.UUID
    name: str
    ruleset: str
    variant: str
    time_control: str
    rated: bool
    starts_at: dt.datetime
    seats: int
    arena: bool
    started: bool
    cancelled: str | None  # why, once cancelled
    entries: list[EntrantOut]  # by rating, unrated last

    @classmethod
    def of(cls, a: AnnouncedTournament) -> AnnouncedOut:
        return cls(
            tournament_id=a.id,
            name=a.name,
            ruleset=a.ruleset.value,
            variant=a.variant,
            time_control=a.time_control.label(),
            rated=a.rated,
            starts_at=a.starts_at,
            seats=a.seats,
            arena=a.arena,
            started=a.started,
            cancelled=a.cancelled,
            entries=[
                EntrantOut(
                    player_id=e.player_id,
                    name=e.name,
                    rating=e.rating,
                    title=e.title,
                    federation=e.federation,
                )
                for e in a.by_rating()
            ],
        )
