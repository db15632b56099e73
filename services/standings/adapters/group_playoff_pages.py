"""Group-playoff pages on SQL and in memory (:class:`~services.standings.service_layer.ports.
GroupPlayoffPages`): each event's page as one document, locked by a ``SELECT … FOR UPDATE`` of its row."""

from __future__ import annotations

import copy
import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters.orm import group_playoff_pages
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from shared.aggregate import Seen

_STATE = sa.select(group_playoff_pages.c.state).where(
    group_playoff_pages.c.tournament_id == sa.bindparam("tid")
)


def load(
    connection: Session | sa.Connection, tournament_id: uuid.UUID, *, lock: bool = False
) -> GroupPlayoffPage | None:
    state = connection.execute(_STATE.with_for_update() if lock else _STATE, {"tid": tournament_id}).scalar()
    return None if state is None else GroupPlayoffPage.from_dict(tournament_id, state)


class SqlGroupPlayoffPages:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: Seen[GroupPlayoffPage] = Seen()

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> GroupPlayoffPage | None:
        found = load(self.session, tournament_id, lock=lock)
        return None if found is None else self.seen.add(found)

    def add(self, page: GroupPlayoffPage) -> None:
        self.session.execute(
            sa.insert(group_playoff_pages).values(tournament_id=page.id, state=page.to_dict())
        )
        self.seen.add(page)

    def save(self, page: GroupPlayoffPage) -> None:
        update = sa.update(group_playoff_pages).where(group_playoff_pages.c.tournament_id == page.id)
        self.session.execute(update.values(state=page.to_dict()))
        self.seen.add(page)


class MemoryGroupPlayoffPages:
    """The same in memory; a shared dict of committed pages."""

    def __init__(self, store: dict[uuid.UUID, GroupPlayoffPage]) -> None:
        self.store = store
        self.seen: Seen[GroupPlayoffPage] = Seen()

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> GroupPlayoffPage | None:
        found = self.store.get(tournament_id)
        return None if found is None else self.seen.add(copy.deepcopy(found))

    def add(self, page: GroupPlayoffPage) -> None:
        if page.id in self.store:
            raise KeyError(f"group-playoff page {page.id} exists")
        self.save(page)

    def save(self, page: GroupPlayoffPage) -> None:
        self.store[page.id] = copy.deepcopy(page)
        self.seen.add(page)
