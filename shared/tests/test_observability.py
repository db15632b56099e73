"""Correlation ids, the consumers' metrics and the JSON log lines, in process: a request's id reaches
the events it writes and comes back in its response; a consumer handles each message in that message's
context and its events carry the id on; envelopes without the new fields read and write as before."""

from __future__ import annotations

import io
import json
import logging
import threading
import uuid

import pytest
import sqlalchemy as sa
from flask import Response
from prometheus_client import REGISTRY
from pydantic import BaseModel
from sqlalchemy.orm import sessionmaker

from shared import correlation, logs
from shared.database import make_engine
from shared.events import Envelope, MalformedMessage, RoundCompleted, decode, encode, wrap
from shared.http.app import create_openapi_app, json_response
from shared.http.limits import HttpLimits
from shared.messagebus import event_subscription
from shared.messaging.delivery import Patience, deliver_batch
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import NotReady, Subscription
from shared.messaging.tables import messaging_tables
from shared.runtime import every
from shared.testing.wire import TEST_WIRE, SampleRoundClosed
from shared.tests.helpers import T, finished
from shared.unit_of_work import SqlUnitOfWork

# -- the envelope ------------------------------------------------------------------------------------


def test_an_envelope_of_the_previous_release_reads_and_writes_as_before():
    old = (
        '{"id":"3f1c6f0e-8a3b-4c55-9c1e-1e2d3c4b5a69","type":"round.completed","version":1,'
        '"occurred_at":"2026-11-30T12:00:00Z","tournament_id":null,'
        '"payload":{"tournament_id":"00000000-0000-0000-0000-000000000001","round":1}}'
    )
    envelope, event = decode(old)
    assert envelope.correlation_id is None and envelope.causation_id is None
    assert json.loads(encode(envelope)) == json.loads(old)  # no new keys, not even null ones
    assert isinstance(event, RoundCompleted)


def test_a_new_event_starts_a_chain_outside_any_context_and_follows_one_inside():
    root = wrap(RoundCompleted(tournament_id=T, round=1), T)
    assert root.correlation_id == str(root.id) and root.causation_id is None
    with correlation.bound(correlation.for_message(root)):
        caused = wrap(RoundCompleted(tournament_id=T, round=2), T)
    assert caused.correlation_id == root.correlation_id and caused.causation_id == root.id
    again = decode(encode(caused))[0]
    assert (again.correlation_id, again.causation_id) == (caused.correlation_id, caused.causation_id)


@pytest.mark.parametrize("bad", ["", "has space", "x" * 129, "semi;colon", "-leading", "new\nline"])
def test_an_envelope_with_an_unsafe_correlation_id_is_malformed(bad):
    body = encode(wrap(RoundCompleted(tournament_id=T, round=1), T)).replace(
        b'"correlation_id":"', b'"correlation_id":"' + json.dumps(bad)[1:-1].encode() + b'", "x":"'
    )
    with pytest.raises(MalformedMessage):
        decode(body)


# -- HTTP: X-Request-ID ------------------------------------------------------------------------------


class GamePath(BaseModel):
    game_id: uuid.UUID


@pytest.fixture
def app():
    app = create_openapi_app(
        "services.testing.entrypoints.app",
        title="test",
        version="1",
        readiness={},
        limits=HttpLimits(max_body_bytes=100, body_timeout_seconds=1),
    )

    @app.post("/games/<uuid:game_id>/result")
    def report(path: GamePath) -> Response:
        context = correlation.current()
        assert context is not None
        envelope = wrap(RoundCompleted(tournament_id=T, round=1), T)
        return json_response({"context": context.log_fields(), "correlation_id": envelope.correlation_id})

    return app


@pytest.mark.parametrize("sent", ["e2e-trace-1", "4bf92f3577b34da6a3ce929d0e0e4736", "Root=1-abc/def+g=="])
def test_a_valid_request_id_is_the_requests_correlation_id(app, sent):
    game = uuid.uuid4()
    response = app.test_client().post(f"/games/{game}/result", headers={"X-Request-ID": sent})
    assert response.headers["X-Request-ID"] == sent
    body = response.get_json()
    assert body["correlation_id"] == sent
    assert body["context"] == {"correlation_id": sent, "game_id": str(game)}


@pytest.mark.parametrize("sent", [None, "", "bad id", "x" * 129, "<script>", "a\u00e9"])
def test_a_missing_or_unsafe_request_id_is_replaced_by_a_new_one(app, sent):
    headers = {} if sent is None else {"X-Request-ID": sent}
    first = app.test_client().post(f"/games/{uuid.uuid4()}/result", headers=headers)
    second = app.test_client().post(f"/games/{uuid.uuid4()}/result", headers=headers)
    ids = [r.headers["X-Request-ID"] for r in (first, second)]
    assert all(correlation.accepted(i) == i for i in ids) and ids[0] != ids[1] and sent not in ids
    assert first.get_json()["correlation_id"] == ids[0]


def test_every_response_has_its_request_id_even_a_refused_one(app):
    too_large = app.test_client().post(
        f"/games/{uuid.uuid4()}/result", data=b"x" * 1000, headers={"X-Request-ID": "big-1"}
    )
    assert too_large.status_code == 413 and too_large.headers["X-Request-ID"] == "big-1"
    missing = app.test_client().get("/nothing", headers={"X-Request-ID": "nf-1"})
    assert missing.status_code == 404 and missing.headers["X-Request-ID"] == "nf-1"
    assert correlation.current() is None  # nothing leaks out of the request


def test_the_metrics_page_is_served_outside_the_openapi_document_and_the_counts(app):
    client = app.test_client()
    client.post(f"/games/{uuid.uuid4()}/result")
    client.get("/healthz")
    for _ in range(3):
        page = client.get("/metrics").get_data(as_text=True)
    assert "/metrics" not in client.get("/openapi.json").get_json()["paths"]
    assert (
        'arbiter_http_request_duration_seconds_count{method="POST",route="/games/<uuid:game_id>/result",'
        'service="testing",status="200"} 1.0'
    ) in page
    assert "/metrics" not in page.replace("# HELP", "") and "/healthz" not in page


# -- consumers: the context of each message, and what they count -----------------------------------


@pytest.fixture
def db(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    outbox, inbox = messaging_tables(sa.MetaData())
    outbox.metadata.create_all(engine)
    yield engine, outbox, inbox
    engine.dispose()


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.parametrize("together", [1, 3])
def test_a_handler_writes_its_events_in_the_context_of_the_message(db, together):
    """One message alone, or several handled together in one transaction (each in its savepoint)."""
    engine, outbox, inbox = db
    queue = f"ctx.rounds{together}"
    broker = InProcessBroker()

    def effect(event, uow) -> None:
        uow.record(SampleRoundClosed(T, event.round + 100))

    def uow_factory() -> SqlUnitOfWork:
        return SqlUnitOfWork(sessionmaker(engine), outbox, inbox, channel="test", wire=TEST_WIRE)

    broker.subscribe([event_subscription(queue, ("game.finished",), effect, uow_factory)])
    sent = []
    for n in range(together):
        with correlation.bound(correlation.Context(f"request-{n}")):
            sent.append(wrap(finished(n), T))
    broker.publish(sent)
    broker.run_until_idle()
    with engine.connect() as conn:
        rows = conn.execute(sa.select(outbox.c.correlation_id, outbox.c.causation_id, outbox.c.body)).all()
    assert sorted((r.correlation_id, r.causation_id) for r in rows) == sorted(
        (e.correlation_id, e.id) for e in sent
    )
    for row in rows:
        body = Envelope.model_validate_json(row.body)
        assert (body.correlation_id, body.causation_id) == (row.correlation_id, row.causation_id)
    relay = OutboxRelay(engine, outbox, broker, channel="test", service="ctx")
    before = sample("arbiter_relay_published_total", service="ctx")
    assert relay.drain() == together
    assert sample("arbiter_relay_published_total", service="ctx") == before + together
    assert relay.sample() == (0, 0.0)


def test_consumers_count_each_outcome(db):
    broker = InProcessBroker(max_later=2)
    queue = "metrics.outcomes"
    seen: set[uuid.UUID] = set()

    def handler(envelope, event):
        if event.round == 3:
            raise NotReady("never")
        if event.round == 4:
            raise ValueError("a bug")
        if envelope.id in seen:
            return "duplicate"
        seen.add(envelope.id)
        return None

    broker.subscribe([Subscription(queue, ("game.finished",), handler)])
    before = {
        o: sample("arbiter_messages_total", queue=queue, outcome=o)
        for o in ("done", "duplicate", "not_ready", "dead_lettered")
    }
    handled = sample("arbiter_message_handling_seconds_count", queue=queue)
    twice = wrap(finished(1), T)
    broker.publish([twice, twice, wrap(finished(2), T), wrap(finished(3), T), wrap(finished(4), T)])
    broker.publish_raw("game.finished", b"not json")
    broker.run_until_idle()
    broker.run_until_idle()
    after = {o: sample("arbiter_messages_total", queue=queue, outcome=o) - before[o] for o in before}
    # round 3: parked once, then dead-lettered (max_later=2); round 4 and the poison: dead-lettered
    assert after == {"done": 2, "duplicate": 1, "not_ready": 1, "dead_lettered": 3}
    assert sample("arbiter_message_handling_seconds_count", queue=queue) - handled == 3
    assert sample("arbiter_message_lag_seconds_count", queue=queue) > 0


# -- logs ----------------------------------------------------------------------------------------------


def test_a_message_alone_logs_its_line_and_a_batch_one_line_with_its_correlation_ids(caplog):
    """Alone: the message's own line at INFO, in its context. A batch: one INFO line with the counts and
    every message's correlation id, each message's own line at DEBUG; a dead-lettered one at WARNING."""
    queue = "logs.batch"
    poison = wrap(finished(9), T)

    def batch(items):
        return [ValueError("a bug") if envelope.id == poison.id else None for envelope, _ in items]

    def handler(envelope, _event):
        if envelope.id == poison.id:
            raise ValueError("a bug")

    sub = Subscription(queue, ("game.finished",), handler, batch)
    sent = []
    for n in range(3):
        with correlation.bound(correlation.Context(f"request-{n}")):
            sent.append(wrap(finished(n), T))
    caplog.set_level(logging.DEBUG, logger="shared.messaging.delivery")
    deliver_batch([(encode(sent[0]), 0)], sub)
    mine = [r for r in caplog.records if r.name == "shared.messaging.delivery"]
    assert [(r.levelname, r.getMessage()) for r in mine] == [
        ("INFO", f"game.finished {sent[0].id} on {queue}: done in {mine[0].args[-1]:.1f} ms")
    ]
    caplog.clear()
    verdicts = deliver_batch(
        [(encode(e), 0) for e in [*sent, poison]], sub, patience=Patience(sleep=lambda _s: None)
    )
    assert [v.outcome for v in verdicts] == ["done", "done", "done", "dead_lettered"]
    mine = [r for r in caplog.records if r.name == "shared.messaging.delivery"]
    summary = [r for r in mine if r.levelname == "INFO"]
    assert len(summary) == 1 and summary[0].getMessage().startswith(
        f"4 messages on {queue}: 1 dead_lettered, 3 done"
    )
    assert summary[0].correlation_ids == sorted(
        [*(f"request-{n}" for n in range(3)), poison.correlation_id or str(poison.id)]
    )
    assert sorted(r.getMessage().split(" on ")[0] for r in mine if r.levelname == "DEBUG") == sorted(
        f"game.finished {e.id}" for e in sent
    )
    warned = [r.getMessage() for r in mine if r.levelname == "WARNING"]
    assert len(warned) == 1 and warned[0].startswith(f"game.finished {poison.id} on {queue}: dead_lettered")
    assert any(r.levelname == "ERROR" and "failed 3 times" in r.getMessage() for r in mine)


def test_a_log_line_is_one_json_object_with_the_process_and_its_context():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    handler.addFilter(logs.ContextFilter())
    log = logging.getLogger("test.observability")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    logs.identify("standings", "consumer")
    try:
        envelope = wrap(finished(), T)
        with correlation.bound(
            correlation.for_message(envelope, decode(encode(envelope))[1], "standings.game_finished")
        ):
            log.info("handled %s", "it")
            try:
                raise ValueError("boom")
            except ValueError:
                log.exception("failed")
        log.info("outside")
    finally:
        log.removeHandler(handler)
        logs.identify("", "")
    first, second, third = (json.loads(line) for line in stream.getvalue().splitlines())
    assert list(first)[:6] == ["time", "level", "service", "process", "logger", "message"]
    assert (
        first["message"] == "handled it"
        and first["service"] == "standings"
        and first["process"] == "consumer"
    )
    assert first["correlation_id"] == envelope.correlation_id
    assert first["causation_id"] == str(envelope.id)
    assert first["tournament_id"] == str(T) and first["queue"] == "standings.game_finished"
    assert first["game_id"] == str(envelope.payload["game_id"])
    assert "ValueError: boom" in second["exception"]
    assert "correlation_id" not in third


def test_each_tick_of_a_periodic_loop_has_its_own_correlation_id_and_is_counted():
    ids: list[str] = []
    stop = threading.Event()
    before = sample("arbiter_loop_ticks_total", loop="test-loop", outcome="ok")

    def tick() -> None:
        context = correlation.current()
        assert context is not None
        ids.append(context.correlation_id)
        if len(ids) == 3:
            stop.set()

    every(0.0, tick, stop, name="test-loop")
    assert len(set(ids)) == 3
    assert sample("arbiter_loop_ticks_total", loop="test-loop", outcome="ok") == before + 3
    assert correlation.current() is None
