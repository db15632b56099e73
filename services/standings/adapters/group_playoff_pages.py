"""Group-playoff pages on SQL (:class:`~services.standings.service_layer.ports.GroupPlayoffPages`): each
event's page as one document, locked by a ``SELECT … FOR UPDATE`` of its row. Its in-memory fake is in
``memory.py``, held to the same contract (``tests/contract/test_group_playoff_pages.py``)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters.orm import group_playoff_pages
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from shared.repository import Repository

_STATE = sa.select(group_playoff_pages.c.state).where(
    group_playoff_pages.c.tournament_id == sa.bindparam("tid")
)


def load(
    connection: Session | sa.Connection, tournament_id: uuid.UUID, *, lock: bool = False
) -> GroupPlayoffPage | None:
    state = connection.execute(_STATE.with_for_update() if lock else _STATE, {"tid": tournament_id}).scalar()
    return None if state is None else GroupPlayoffPage.from_dict(tournament_id, state)


class SqlGroupPlayoffPages(Repository[uuid.UUID, GroupPlayoffPage]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> GroupPlayoffPage | None:
        return load(self.session, tournament_id, lock=lock)

    def _insert(self, page: GroupPlayoffPage) -> None:
        self.session.execute(
            sa.insert(group_playoff_pages).values(tournament_id=page.id, state=page.to_dict())
        )

    def _update(self, page: GroupPlayoffPage) -> None:
        update = sa.update(group_playoff_pages).where(group_playoff_pages.c.tournament_id == page.id)
        self.session.execute(update.values(state=page.to_dict()))
