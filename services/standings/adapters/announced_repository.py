"""Tournaments announced before their start, on SQL
(:class:`~services.standings.service_layer.ports.AnnouncedRepository`): one row each, the entries as
JSON (a few hundred at most, written together under the row's lock). Its in-memory fake is in
``memory.py``, held to the same contract (``tests/contract/test_announced.py``)."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters import columns
from services.standings.adapters.orm import announced
from services.standings.domain.announced import AnnouncedTournament, Entrant
from shared.database import aware
from shared.repository import Repository
from shared.vocabulary import Ruleset

_ROW = sa.select(announced).where(announced.c.id == sa.bindparam("tid"))


def _entry_json(e: Entrant) -> dict[str, Any]:
    return {
        "player_id": str(e.player_id),
        "name": e.name,
        "rating": e.rating,
        "title": e.title,
        "federation": e.federation,
    }


def _entry_of(j: dict[str, Any]) -> Entrant:
    return Entrant(uuid.UUID(j["player_id"]), j["name"], j.get("rating"), j.get("title"), j.get("federation"))


def of_row(row: Any) -> AnnouncedTournament:
    entries = [_entry_of(j) for j in row.entries]
    return AnnouncedTournament(
        id=row.id,
        name=row.name,
        starts_at=aware(row.starts_at),
        ruleset=Ruleset(row.ruleset),
        variant=row.variant,
        time_control=columns.time_control_of(row.time_control),
        rated=row.rated,
        seats=row.seats,
        arena=row.arena,
        entries={e.player_id: e for e in entries},
        started=row.started,
        cancelled=row.cancelled,
    )


def load(
    connection: Session | sa.Connection, tournament_id: uuid.UUID, *, lock: bool = False
) -> AnnouncedTournament | None:
    row = connection.execute(_ROW.with_for_update() if lock else _ROW, {"tid": tournament_id}).first()
    return None if row is None else of_row(row)


def _values(a: AnnouncedTournament) -> dict[str, Any]:
    return {
        "name": a.name,
        "starts_at": a.starts_at,
        "ruleset": a.ruleset.value,
        "variant": a.variant,
        "time_control": columns.time_control_json(a.time_control),
        "rated": a.rated,
        "seats": a.seats,
        "arena": a.arena,
        "entries": [_entry_json(e) for e in a.entries.values()],
        "started": a.started,
        "cancelled": a.cancelled,
    }


class SqlAnnouncedTournaments(Repository[uuid.UUID, AnnouncedTournament]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> AnnouncedTournament | None:
        return load(self.session, tournament_id, lock=lock)

    def _insert(self, a: AnnouncedTournament) -> None:
        a.take_changes()
        self.session.execute(sa.insert(announced).values(id=a.id, **_values(a)))

    def _update(self, a: AnnouncedTournament) -> None:
        if a.take_changes():
            self.session.execute(sa.update(announced).where(announced.c.id == a.id).values(_values(a)))
