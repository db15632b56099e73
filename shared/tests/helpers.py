"""What the shared tests have in common: a tournament id, a finished game, a closed port, the error an
outage raises."""

from __future__ import annotations

import datetime as dt
import socket
import uuid

import sqlalchemy as sa

from shared.events import GameFinished, GameOutcome

T = uuid.uuid4()


def finished(n: int = 1) -> GameFinished:
    return GameFinished(
        tournament_id=T,
        game_id=uuid.uuid4(),
        round=n,
        white=uuid.uuid4(),
        black=uuid.uuid4(),
        outcome=GameOutcome.DRAW,
        reason="agreement",
        moves=40,
        finished_at=dt.datetime.now(dt.UTC),
    )


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def outage() -> Exception:
    """What SQLAlchemy raises while PostgreSQL is down: the real exception, from a port nobody listens on."""
    port = closed_port()
    engine = sa.create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/none", poolclass=sa.NullPool)
    try:
        engine.connect()
    except sa.exc.OperationalError as exc:
        return exc
    raise AssertionError(f"something answers on port {port}")
