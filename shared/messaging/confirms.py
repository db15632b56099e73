"""Batched publisher confirms: one asynchronous pika connection (``SelectConnection``) with one
confirming channel, driven from the caller's thread.

:meth:`ConfirmingPublisher.publish` sends every message of a batch, then runs the connection's I/O
loop until the broker has confirmed each one (``Basic.Ack``, possibly ``multiple``), refused one
(``Basic.Nack``), the connection or the channel closed, or the deadline passed. A blocking channel
waits for each confirm before the next publish: a round trip per message; here a batch costs one.

The outbox keeps its guarantee: the caller marks rows published only when ``publish`` returned, that
is once every message of the batch was confirmed. Anything else raises :class:`PublishError` and the
rows stay, to be published again (the ones the broker did take arrive twice; the inbox absorbs them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import pika
import pika.channel
import pika.exceptions
from pika.spec import Basic, BasicProperties

from shared import metrics
from shared.messaging.port import PublishError

log = logging.getLogger(__name__)

Message = tuple[str, str, bytes, BasicProperties]
"""(exchange, routing key, body, properties)"""


class ConnectionLost(Exception):
    """The connection or its channel closed (or never opened): reconnect and publish again."""


class ConfirmingPublisher:
    def __init__(
        self,
        params: pika.ConnectionParameters,
        *,
        prepare: Callable[[pika.channel.Channel, Callable[[], None]], None],
        timeout: float = 60.0,
    ) -> None:
        """``prepare(channel, done)`` declares what publishing needs on a new channel (the exchanges)
        and calls ``done`` when it is declared; ``timeout``: the longest wait for a batch's confirms."""
        self._params = params
        self._prepare = prepare
        self.timeout = timeout
        self._conn: pika.SelectConnection | None = None
        self._channel: pika.channel.Channel | None = None
        self._ready = False
        self._closed: str | None = None  # why the connection or the channel closed
        self._opened_before = False
        self._next_tag = 0  # the delivery tag of the last message published on the channel
        self._unconfirmed: set[int] = set()
        self._nacked: list[int] = []
        self._waiting: Callable[[], bool] | None = None  # what stops the loop when it holds

    @property
    def is_open(self) -> bool:
        return self._conn is not None and self._ready and self._closed is None

    # -- the loop ---------------------------------------------------------------------------------
    def _run_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Run the I/O loop until ``done()`` holds or the connection closed (True), or ``timeout``
        passed (False)."""
        assert self._conn is not None
        if done() or self._closed is not None:
            return True
        loop = self._conn.ioloop
        expired = False

        def expire() -> None:
            nonlocal expired
            expired = True
            loop.stop()

        timer = loop.call_later(timeout, expire)
        self._waiting = done
        try:
            loop.start()
        finally:
            self._waiting = None
            loop.remove_timeout(timer)
        return not expired

    def _check(self) -> None:
        """After a callback changed the state: stop the loop if what it waits for holds."""
        if self._conn is not None and (
            self._closed is not None or (self._waiting is not None and self._waiting())
        ):
            self._conn.ioloop.stop()

    # -- connection -------------------------------------------------------------------------------
    def _open(self) -> None:
        self._closed = None
        self._ready = False
        self._next_tag = 0
        self._unconfirmed.clear()
        self._nacked.clear()
        self._conn = pika.SelectConnection(
            self._params,
            on_open_callback=self._on_connection_open,
            on_open_error_callback=self._on_open_error,
            on_close_callback=self._on_connection_closed,
        )
        if not self._run_until(lambda: self._ready, self.timeout) or not self._ready:
            reason = self._closed or "timed out opening the connection"
            self.close()
            raise ConnectionLost(reason)
        if self._opened_before:
            metrics.RECONNECTS.labels("publisher").inc()
        self._opened_before = True

    def _on_connection_open(self, conn: pika.SelectConnection) -> None:
        conn.channel(on_open_callback=self._on_channel_open)

    def _on_open_error(self, _conn: object, exc: BaseException | str) -> None:
        self._closed = f"could not connect: {exc!r}"
        self._check()

    def _on_connection_closed(self, _conn: object, exc: BaseException) -> None:
        self._closed = self._closed or f"connection closed: {exc!r}"
        self._check()

    def _on_channel_open(self, channel: pika.channel.Channel) -> None:
        self._channel = channel
        channel.add_on_close_callback(self._on_channel_closed)
        channel.confirm_delivery(
            self._on_confirm, callback=lambda _frame: self._prepare(channel, self._on_ready)
        )

    def _on_ready(self) -> None:
        self._ready = True
        self._check()

    def _on_channel_closed(self, _channel: object, exc: BaseException) -> None:
        self._closed = self._closed or f"channel closed: {exc!r}"
        if self._conn is not None and self._conn.is_open:
            self._conn.close()  # a channel closed by the broker: start again on a new connection
        self._check()

    def _on_confirm(self, frame: pika.frame.Method) -> None:
        method = frame.method
        tag = method.delivery_tag
        tags = {t for t in self._unconfirmed if t <= tag} if method.multiple else {tag}
        self._unconfirmed -= tags
        if isinstance(method, Basic.Nack):
            self._nacked.extend(tags)
        self._check()

    def keepalive(self) -> None:
        """Answer the broker's heartbeats (one turn of the loop) while the owner has nothing to publish;
        a connection that closed meanwhile, or none yet, is opened (again). Raises
        :class:`ConnectionLost` when it cannot be opened."""
        if self._conn is not None and self._closed is None:
            loop = self._conn.ioloop
            loop.call_later(0, loop.stop)
            loop.start()
        if self._conn is not None and self._closed is not None:
            log.info("publishing connection lost while idle (%s); connecting again", self._closed)
            self.close()
        if self._conn is None:
            self._open()

    def close(self) -> None:
        conn, self._conn, self._channel, self._ready = self._conn, None, None, False
        if conn is None:
            return
        if conn.is_open:
            try:
                conn.close()
                loop = conn.ioloop
                timer = loop.call_later(5, loop.stop)
                conn.add_on_close_callback(lambda *_: loop.stop())
                loop.start()
                loop.remove_timeout(timer)
            except Exception as exc:  # closing a broken connection: nothing left to save
                log.debug("closing the publishing connection: %r", exc)
        try:
            conn.ioloop.close()
        except Exception as exc:
            log.debug("closing the publishing loop: %r", exc)

    # -- publishing -------------------------------------------------------------------------------
    def publish(self, messages: Sequence[Message]) -> None:
        """Publish the batch and wait until the broker confirmed every message. Raises
        :class:`ConnectionLost` (reconnect and try again) or :class:`PublishError` (a refusal, a
        timeout): either way none of it counts as published."""
        if not messages:
            return
        if not self.is_open:
            self.close()
            self._open()
        channel = self._channel
        assert channel is not None
        self._nacked.clear()
        batch: set[int] = set()
        try:
            for exchange, key, body, props in messages:
                channel.basic_publish(exchange, key, body, props)
                self._next_tag += 1
                batch.add(self._next_tag)
                self._unconfirmed.add(self._next_tag)
        except (pika.exceptions.AMQPError, OSError) as exc:
            self.close()
            raise ConnectionLost(f"publishing failed: {exc!r}") from exc
        confirmed = self._run_until(lambda: not (batch & self._unconfirmed), self.timeout)
        if self._closed is not None:
            reason = self._closed
            self.close()
            raise ConnectionLost(reason)
        if not confirmed:
            self.close()  # late confirms must not be taken for the next batch's
            raise PublishError(
                f"no confirms within {self.timeout:.0f} s for {len(batch & self._unconfirmed)}"
            )
        refused = [t for t in self._nacked if t in batch]
        if refused:
            raise PublishError(f"broker refused {len(refused)} of {len(messages)} messages")
