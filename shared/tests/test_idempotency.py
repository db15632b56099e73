"""``Idempotency-Key`` when the database goes away during a request (shared/http/idempotency.py): the
claim of a failed request must not outlive the failure, so a retry is processed once the database is
back; a request that died unanswered loses its claim after the lease, in any process."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask, Response

from shared.http.idempotency import HEADER, Idempotency, idempotency_table
from shared.http.problems import install_error_handlers

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


class Database:
    """The test's database behind a switch: while it is down, connecting fails as it does when the
    server is gone (the driver's OperationalError, which SQLAlchemy wraps)."""

    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(url, poolclass=sa.NullPool)
        self.up = True
        self.metadata = sa.MetaData()
        self.keys = idempotency_table(self.metadata)
        self.things = sa.Table("things", self.metadata, sa.Column("id", sa.Integer, primary_key=True))
        self.metadata.create_all(self.engine)
        dbapi = self.engine.dialect.dbapi

        @sa.event.listens_for(self.engine, "do_connect")
        def _refuse(*_: object) -> None:
            if not self.up:
                raise dbapi.OperationalError("connection refused: the database is down")

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(self.things)).scalar_one())


class Clock:
    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> dt.datetime:
        return self.at


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.up = True
    database.engine.dispose()


def service(db: Database, clock: Clock) -> Flask:
    """One process of a service: its own Idempotency over the shared database, and a creating POST
    that the test can make lose its database before or after its commit."""
    app = Flask(__name__)
    install_error_handlers(app)
    idempotent = Idempotency(db.engine, db.keys, now=clock)
    app.config["fail"] = None

    @app.post("/things")
    @idempotent
    def create() -> Response:
        if app.config["fail"] == "before-commit":
            db.up = False
        with db.engine.begin() as conn:
            new = conn.execute(sa.insert(db.things)).inserted_primary_key
        if app.config["fail"] == "after-commit":
            db.up = False
        return Response(json.dumps({"id": new[0]}), status=201, mimetype="application/json")

    return app


def post(app: Flask, key: str = "k1"):
    return app.test_client().post("/things", data=b"{}", headers={HEADER: key})


def test_a_request_that_lost_its_database_releases_its_key_once_the_database_is_back(db):
    app = service(db, Clock())
    app.config["fail"] = "before-commit"
    first = post(app)
    assert first.status_code == 503  # the database's failure, not the release's
    db.up, app.config["fail"] = True, None
    again = post(app)
    assert again.status_code == 201, again.get_json()
    assert db.count() == 1
    replayed = post(app)
    assert replayed.headers["Idempotent-Replayed"] == "true" and replayed.get_json() == again.get_json()


def test_a_claim_left_by_a_dead_request_is_taken_over_after_its_lease_in_another_process(db):
    clock = Clock()
    failing, other = service(db, clock), service(db, clock)
    failing.config["fail"] = "before-commit"
    assert post(failing).status_code == 503
    db.up = True
    # another process cannot tell a dead request from a running one until the lease runs out
    busy = post(other)
    assert busy.status_code == 409 and busy.get_json()["type"].endswith("idempotency-key-in-progress")
    assert busy.headers["Retry-After"]
    clock.at += dt.timedelta(seconds=59)
    assert post(other).status_code == 409
    clock.at += dt.timedelta(seconds=1)
    assert post(other).status_code == 201 and db.count() == 1
    # the dead request's process, back in touch with its database, does not release the new claim
    assert post(failing).headers["Idempotent-Replayed"] == "true"


def test_a_response_whose_store_failed_still_goes_out(db):
    """The effect was committed: a 503 would invite a retry that creates it twice."""
    app = service(db, Clock())
    app.config["fail"] = "after-commit"
    created = post(app)
    db.up = True
    assert created.status_code == 201 and db.count() == 1


def test_a_request_running_within_its_lease_keeps_its_key(db):
    clock = Clock()
    app = service(db, clock)
    with db.engine.begin() as conn:  # a request of another process, claimed a moment ago
        conn.execute(
            sa.insert(db.keys).values(
                key="k1",
                scope="anonymous POST /things",
                request_hash=hashlib.sha256(b"{}").hexdigest(),
                created_at=T0,
            )
        )
    clock.at += dt.timedelta(seconds=30)
    assert post(app).status_code == 409
    assert db.count() == 0
