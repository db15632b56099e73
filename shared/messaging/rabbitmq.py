"""RabbitMQ adapter (pika, blocking): a durable topic exchange, one durable queue per consuming
handler with its own dead-letter queue, publisher confirms and manual acks.

Topology
    exchange ``arbiter.events`` (topic, durable)  --routing key = event type-->  queue ``<service>.<handler>``
    exchange ``arbiter.dead`` (direct, durable)   --routing key = queue name-->  queue ``<queue>.dead``
    queue ``<queue>.later`` (a message TTL, dead-lettered back into ``<queue>``)

A message the handler cannot take (malformed, unknown, or failing after retries) is republished
to ``arbiter.dead`` with an ``x-arbiter-reason`` header, confirmed, and only then acked: it is
never lost and never blocks the messages behind it. A message its handler is not ready for
(``NotReady``: it arrived before what it depends on) goes to ``<queue>.later`` and comes back after
the TTL, behind the others; it carries its count in ``x-arbiter-deferred``. A consumer killed mid-message leaves it
unacked, so RabbitMQ redelivers it; the inbox makes the second delivery a no-op.

While a handler waits out an outage of the database (see :mod:`shared.messaging.delivery`) the
consumer keeps servicing its connection (heartbeats), so it can wait for minutes; a consumer stopped
meanwhile gives the message back (``basic_nack`` with requeue), and one whose connection drops
meanwhile leaves it to be redelivered.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence

import pika
import pika.channel
import pika.exceptions
from pika.adapters.blocking_connection import BlockingChannel
from pika.spec import Basic, BasicProperties
from tenacity import retry, retry_if_exception_type, stop_after_delay, wait_exponential

from shared import metrics
from shared.events import DEAD_LETTER_EXCHANGE, EXCHANGE, Envelope, bindings
from shared.messaging.confirms import ConfirmingPublisher, ConnectionLost, Message
from shared.messaging.delivery import Interrupted, Patience, deliver_batch
from shared.messaging.errors import describe
from shared.messaging.port import (
    LATER_DELAY_MS,
    MAX_LATER,
    DeadLetter,
    PublishError,
    Report,
    StoredEvent,
    Subscription,
    no_report,
)

log = logging.getLogger(__name__)

_CONNECTION_ERRORS = (pika.exceptions.AMQPConnectionError, pika.exceptions.AMQPChannelError, OSError)


class RabbitMQBroker:
    SAMPLE_SECONDS = 15.0  # how often a consumer measures its queues for the metrics

    def __init__(
        self,
        url: str,
        *,
        prefetch: int = 32,
        attempts: int = 3,
        heartbeat: int = 30,
        max_later: int = MAX_LATER,
        outage_max: float = 5.0,
        reconnect_max: float = 10.0,
    ) -> None:
        """``outage_max``: the longest pause between two attempts of a message while an outage lasts;
        ``reconnect_max``: the longest pause between two attempts of a consumer to connect."""
        params = pika.URLParameters(url)
        params.heartbeat = heartbeat
        params.blocked_connection_timeout = 60
        params.connection_attempts = 1
        self._params = params
        self.prefetch = prefetch
        self.attempts = attempts
        self.max_later = max_later
        self.outage_max = outage_max
        self.reconnect_max = reconnect_max
        self._conn: pika.BlockingConnection | None = None
        self._publish_channel: BlockingChannel | None = None
        self._connected_before = False
        self._lock = threading.Lock()
        self._publisher = ConfirmingPublisher(params, prepare=_declare_exchanges_async)

    # -- connection -------------------------------------------------------------------------------
    @retry(
        retry=retry_if_exception_type(_CONNECTION_ERRORS),
        wait=wait_exponential(multiplier=0.2, max=5),
        stop=stop_after_delay(60),
        reraise=True,
    )
    def _connect(self) -> pika.BlockingConnection:
        if self._conn is None or self._conn.is_closed:
            self._conn = pika.BlockingConnection(self._params)
            self._publish_channel = None
            if self._connected_before:
                metrics.RECONNECTS.labels("publisher").inc()
            self._connected_before = True
        return self._conn

    def _channel(self) -> BlockingChannel:
        conn = self._connect()
        if self._publish_channel is None or self._publish_channel.is_closed:
            channel = conn.channel()
            channel.confirm_delivery()
            _declare_exchanges(channel)
            self._publish_channel = channel
        return self._publish_channel

    def keepalive(self) -> None:
        """Answer the broker's heartbeats on the publishing connection, and open it when there is none
        (a relay with nothing to publish calls this while it waits: RabbitMQ closes a silent connection
        after two to three heartbeat intervals, and a relay that has no connection cannot tell whether
        the broker is there). :class:`PublishError` when the broker cannot be reached. The operator
        connection, if there is one, is serviced too; one that is gone is dropped quietly."""
        with self._lock:
            try:
                self._publisher.keepalive()
            except ConnectionLost as exc:
                raise PublishError(f"the broker cannot be reached: {exc}") from exc
            if self._conn is None or not self._conn.is_open:
                return
            try:
                self._conn.process_data_events(time_limit=0)
            except _CONNECTION_ERRORS as exc:
                log.info("operator connection lost while idle (%s); reconnecting on demand", describe(exc))
                self._drop_connection()

    def close(self) -> None:
        with self._lock:
            self._publisher.close()
            self._drop_connection()

    def _drop_connection(self) -> None:
        if self._conn is not None and self._conn.is_open:
            try:
                self._conn.close()
            except _CONNECTION_ERRORS:
                pass
        self._conn = None
        self._publish_channel = None

    # -- topology ---------------------------------------------------------------------------------
    def declare(self, subscriptions: Sequence[Subscription]) -> None:
        with self._lock:
            _declare_queues(self._channel(), subscriptions)

    # -- publishing -------------------------------------------------------------------------------
    def publish(self, envelopes: Sequence[Envelope]) -> None:
        self.publish_stored([StoredEvent.of(e) for e in envelopes])

    def publish_stored(self, events: Sequence[StoredEvent]) -> None:
        """The whole batch is published, then its confirms awaited at once (:mod:`.confirms`)."""
        self._publish_batch(
            [
                (
                    EXCHANGE,
                    event.type,
                    event.body,
                    BasicProperties(
                        content_type="application/json",
                        delivery_mode=pika.DeliveryMode.Persistent,
                        message_id=str(event.event_id),
                        type=event.type,
                    ),
                )
                for event in events
            ]
        )

    def publish_raw(self, routing_key: str, body: bytes) -> None:
        self._publish_batch(
            [(EXCHANGE, routing_key, body, BasicProperties(delivery_mode=pika.DeliveryMode.Persistent))]
        )

    def _publish_batch(self, messages: Sequence[Message]) -> None:
        with self._lock:
            for attempt in (1, 2):
                try:
                    self._publisher.publish(messages)
                    return
                except ConnectionLost as exc:  # a stale one (heartbeats missed while idle): reconnect
                    if attempt == 2:
                        raise PublishError(f"could not publish {len(messages)} messages: {exc}") from exc

    # -- consuming --------------------------------------------------------------------------------
    def consume(
        self, subscriptions: Sequence[Subscription], stop: threading.Event, report: Report = no_report
    ) -> None:
        """Consume until ``stop`` is set, reconnecting when the connection drops (after 0.5 s, 1 s, …
        at most ``reconnect_max``, each pause shortened by a random part of up to a half so that many
        consumers do not all knock at once on a broker that restarts). ``report`` hears about the
        broker connection ("broker") and outages met by the handlers ("handlers")."""
        failures = 0

        def connected() -> None:
            nonlocal failures
            if failures:
                metrics.RECONNECTS.labels("consumer").inc()
                log.warning("consumer connected again after %d failed attempts", failures)
            failures = 0

        while not stop.is_set():
            try:
                report("broker", "connecting")
                self._consume_once(subscriptions, stop, report, connected)
            except _CONNECTION_ERRORS as exc:
                if stop.is_set():
                    break
                failures += 1
                pause = min(self.reconnect_max, 0.5 * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)
                report("broker", f"reconnecting: {describe(exc)}")
                log.log(
                    logging.WARNING if failures == 1 or failures % 10 == 0 else logging.INFO,
                    "consumer lost its connection or could not connect (%s); attempt %d in %.1f s",
                    describe(exc),
                    failures,
                    pause,
                )
                self.close()
                stop.wait(pause)

    def _consume_once(
        self,
        subscriptions: Sequence[Subscription],
        stop: threading.Event,
        report: Report,
        connected: Callable[[], None],
    ) -> None:
        """Messages that arrive together are handled together: whatever one read of the socket
        dispatched for a queue becomes one batch (one transaction, when the subscription handles
        batches); an idle consumer still handles each message the moment it arrives. Every
        ``SAMPLE_SECONDS`` it measures its queues and their dead-letter queues for the metrics."""
        conn = pika.BlockingConnection(self._params)
        try:
            channel = conn.channel()
            _declare_exchanges(channel)  # on the consuming connection: no idle second one to keep alive
            _declare_queues(channel, subscriptions)
            channel.confirm_delivery()
            channel.basic_qos(prefetch_count=self.prefetch)
            buffers: dict[str, list[tuple[Basic.Deliver, BasicProperties, bytes]]] = {}
            for sub in subscriptions:
                buffer = buffers.setdefault(sub.queue, [])
                channel.basic_consume(
                    sub.queue, lambda _ch, m, p, b, buffer=buffer: buffer.append((m, p, b)), auto_ack=False
                )
            connected()
            report("broker", None)
            patience = Patience(
                sleep=_servicing(conn, stop),
                outage_max=self.outage_max,
                report=lambda exc: report("handlers", None if exc is None else f"waiting: {describe(exc)}"),
            )
            sampled_at = -self.SAMPLE_SECONDS
            acks = _Acks(channel)
            while not stop.is_set():
                if time.monotonic() - sampled_at >= self.SAMPLE_SECONDS:
                    sampled_at = time.monotonic()
                    _sample_depths(channel, subscriptions)
                conn.process_data_events(time_limit=0.2)
                for sub in subscriptions:
                    taken = buffers[sub.queue][:]
                    if taken:
                        buffers[sub.queue].clear()
                        acks.settled(self._handle(channel, sub, taken, patience))
                acks.send()
        finally:
            if conn.is_open:
                try:
                    conn.close()
                except _CONNECTION_ERRORS:
                    pass

    def _handle(
        self,
        ch: BlockingChannel,
        sub: Subscription,
        taken: list[tuple[Basic.Deliver, BasicProperties, bytes]],
        patience: Patience,
    ) -> tuple[list[int], list[int]]:
        """The delivery tags to ack (the forwards among them confirmed already), and those nacked here
        (given back)."""
        headers = [dict(props.headers or {}) for _m, props, _b in taken]
        deferred = [int(h.get("x-arbiter-deferred", 0)) for h in headers]
        verdicts = deliver_batch(
            [(body, d) for (_m, _p, body), d in zip(taken, deferred, strict=True)],
            sub,
            attempts=self.attempts,
            patience=patience,
            max_later=self.max_later,
        )
        forwards: list[Message] = []
        done: list[int] = []
        nacked: list[int] = []
        for (method, props, body), head, count, verdict in zip(
            taken, headers, deferred, verdicts, strict=True
        ):
            if verdict.requeue:  # given up unhandled (stopping): back to the queue as it was
                ch.basic_nack(method.delivery_tag, requeue=True)
                nacked.append(method.delivery_tag)
                continue
            if verdict.later:
                head["x-arbiter-deferred"] = count + 1
                forwards.append(_forwarded("", f"{sub.queue}.later", body, props, head))
            elif verdict.dead_reason is not None:
                head["x-arbiter-reason"] = verdict.dead_reason[:1000]
                head["x-arbiter-queue"] = sub.queue
                head["x-arbiter-routing-key"] = method.routing_key
                forwards.append(_forwarded(DEAD_LETTER_EXCHANGE, sub.queue, body, props, head))
            done.append(method.delivery_tag)
        if forwards:  # all at once, their confirms awaited together, before any of them is acked
            try:
                self._publish_batch(forwards)
            except PublishError as exc:  # unacked, they come back once the consumer has reconnected
                raise pika.exceptions.AMQPConnectionError(str(exc)) from exc
        return done, nacked

    # -- operators --------------------------------------------------------------------------------
    def dead_letters(self, queue: str) -> list[DeadLetter]:
        with self._lock:
            for attempt in (1, 2):
                try:
                    return self._take_dead_letters(queue)
                except _CONNECTION_ERRORS:
                    self._drop_connection()  # a stale one (heartbeats missed while idle): reconnect
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    def _take_dead_letters(self, queue: str) -> list[DeadLetter]:
        channel = self._channel()
        out: list[DeadLetter] = []
        while True:
            method, props, body = channel.basic_get(f"{queue}.dead", auto_ack=True)
            if method is None:
                return out
            headers = (props.headers or {}) if props else {}
            reason = headers.get("x-arbiter-reason")
            if reason is None and headers.get("x-death"):
                reason = f"rejected: {headers['x-death'][0].get('reason', '?')}"
            out.append(DeadLetter(queue, str(reason or "unknown"), body))


def _servicing(conn: pika.BlockingConnection, stop: threading.Event) -> Callable[[float], None]:
    """A consumer's way to wait (between attempts, through an outage): it keeps answering the
    broker's heartbeats; deliveries that arrive meanwhile wait in their buffers, unacked. Raises
    :class:`Interrupted` when the consumer is stopping or its connection is gone."""

    def sleep(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            if stop.is_set():
                raise Interrupted("the consumer is stopping")
            try:
                conn.process_data_events(time_limit=min(remaining, 0.5))
            except _CONNECTION_ERRORS as exc:
                raise Interrupted(f"lost the broker connection: {describe(exc)}") from exc

    return sleep


def _sample_depths(channel: BlockingChannel, subscriptions: Sequence[Subscription]) -> None:
    """The messages ready in each queue and in its dead-letter queue, for the metrics."""
    for sub in subscriptions:
        ready = channel.queue_declare(sub.queue, passive=True).method.message_count
        dead = channel.queue_declare(f"{sub.queue}.dead", passive=True).method.message_count
        metrics.QUEUE_DEPTH.labels(sub.queue).set(ready)
        metrics.DEAD_LETTERS.labels(sub.queue).set(dead)


def _declare_exchanges(channel: BlockingChannel) -> None:
    channel.exchange_declare(EXCHANGE, exchange_type="topic", durable=True)
    channel.exchange_declare(DEAD_LETTER_EXCHANGE, exchange_type="direct", durable=True)


def _declare_exchanges_async(channel: pika.channel.Channel, done: Callable[[], None]) -> None:
    """The same on an asynchronous channel (the publisher's): ``done`` once both are declared."""
    channel.exchange_declare(
        EXCHANGE,
        exchange_type="topic",
        durable=True,
        callback=lambda _frame: channel.exchange_declare(
            DEAD_LETTER_EXCHANGE, exchange_type="direct", durable=True, callback=lambda _f: done()
        ),
    )


def _declare_queues(channel: BlockingChannel, subscriptions: Sequence[Subscription]) -> None:
    """Each subscription's durable queue with its dead-letter queue and its ``.later`` queue."""
    for sub in subscriptions:
        dead = f"{sub.queue}.dead"
        channel.queue_declare(dead, durable=True)
        channel.queue_bind(dead, DEAD_LETTER_EXCHANGE, routing_key=sub.queue)
        channel.queue_declare(
            sub.queue,
            durable=True,
            arguments={
                "x-dead-letter-exchange": DEAD_LETTER_EXCHANGE,
                "x-dead-letter-routing-key": sub.queue,
            },
        )
        for key in bindings(sub.routing_keys):
            channel.queue_bind(sub.queue, EXCHANGE, routing_key=key)
        for key in sub.retired_keys:  # RabbitMQ unbinds what is not bound without an error
            channel.queue_unbind(sub.queue, EXCHANGE, routing_key=key)
        channel.queue_declare(
            f"{sub.queue}.later",
            durable=True,
            arguments={
                "x-message-ttl": LATER_DELAY_MS,
                "x-dead-letter-exchange": "",
                "x-dead-letter-routing-key": sub.queue,
            },
        )


def _forwarded(
    exchange: str, key: str, body: bytes, props: BasicProperties, headers: dict[str, object]
) -> Message:
    """A consumed message to republish (to the later queue or the dead letters), confirmed, before its ack."""
    return (
        exchange,
        key,
        body,
        BasicProperties(
            content_type=props.content_type,
            delivery_mode=pika.DeliveryMode.Persistent,
            message_id=props.message_id,
            headers=headers,
        ),
    )


class _Acks:
    """The acks of one consuming channel, sent once per round of deliveries: a single ``multiple``
    ack when every delivery up to the highest tag is settled (acked here, or nacked), else one by
    one. The tags are the channel's, shared by all its queues, so a multiple ack is sent only over a
    range with no delivery still waiting in a buffer."""

    def __init__(self, channel: BlockingChannel) -> None:
        self.channel = channel
        self.below = 0  # every tag up to this one is settled
        self.above: set[int] = set()  # settled tags past a gap (a delivery still in a buffer)
        self.pending: list[int] = []

    def settled(self, handled: tuple[list[int], list[int]]) -> None:
        """``handled``: the tags to ack, and the tags nacked already."""
        self.pending.extend(handled[0])
        self.above.update(handled[1])

    def send(self) -> None:
        if not self.pending:
            return
        tags, self.pending = sorted(self.pending), []
        self.above.update(tags)
        below = self.below
        while below + 1 in self.above:
            below += 1
            self.above.discard(below)
        if below >= tags[-1] and len(tags) > 1:
            self.channel.basic_ack(tags[-1], multiple=True)  # acks nothing nacked: those are settled
        else:
            for tag in tags:
                self.channel.basic_ack(tag)
        self.below = below
