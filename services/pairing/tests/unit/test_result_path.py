"""A result is pairing's commonest message: it must stay cheap. Its statements on pairing's own tables
(the inbox and outbox aside) are the row lock, one read of its round and one update; the round's last
result adds the update that closes the round."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from services.pairing.tests.helpers import deliver, finish, published, started

OWN_TABLES = re.compile(r"\b(tournaments|players|rounds|games|byes|brackets|matches)\b")


@contextmanager
def statements(engine: sa.Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        if OWN_TABLES.search(statement):
            seen.append(" ".join(statement.split()[:3]))

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def test_a_result_is_the_lock_one_read_and_one_update(svc):
    ev = started(6)
    deliver(svc, ev, ev.tournament_id)
    first, *others, last = finish(published(svc, "round.paired")[0])
    with statements(svc.engine) as seen:
        deliver(svc, first, ev.tournament_id)
    assert seen == [
        "SELECT tournaments.system FROM",  # the row lock (FOR UPDATE on PostgreSQL)
        "SELECT tournaments.organiser_id, tournaments.total_rounds,",  # the round: its games' outcomes
        "UPDATE games SET",
    ]
    for result in others:
        deliver(svc, result, ev.tournament_id)
    with statements(svc.engine) as seen:
        deliver(svc, last, ev.tournament_id)
    assert seen[2:4] == ["UPDATE games SET", "UPDATE rounds SET"]  # then the worker pairs round 2
