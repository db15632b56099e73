"""Which failures are the infrastructure's and which are the message's: the one classification every
consumer, relay and periodic loop uses.

An **infrastructure error** says a server this process needs (PostgreSQL, RabbitMQ, Redis) cannot be
reached, is shutting down or starting up, or dropped the connection. Nothing is wrong with the message:
it is kept and tried again, with backoff, for as long as the outage lasts, and never dead-lettered for it.
Every other exception is the message's own (or its handler's) and gets the usual few retries before it
is dead-lettered.
"""

from __future__ import annotations

import errno

import pika.exceptions
import psycopg
import redis.exceptions
import sqlalchemy as sa

# PostgreSQL error classes that mean "the server, not the statement": connection exceptions, the server
# shutting down / starting up / crashed, out of connections, memory or disk, and its own I/O errors.
_SERVER_SQLSTATES = ("08", "53", "58", "57P01", "57P02", "57P03")

_NETWORK_ERRNOS = frozenset(
    {
        errno.ECONNREFUSED,
        errno.ECONNRESET,
        errno.ECONNABORTED,
        errno.EHOSTUNREACH,
        errno.ENETUNREACH,
        errno.ENETDOWN,
        errno.ETIMEDOUT,
        errno.EPIPE,
    }
)


def is_infrastructure_error(exc: BaseException) -> bool:
    """True when ``exc``, or an exception it was raised from or while handling, says a server is
    unreachable. A deadlock, a statement timeout, a constraint violation or a bug is not."""
    seen: set[int] = set()
    pending = [exc]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if _is_outage(current):
            return True
        pending.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return False


def _is_outage(exc: BaseException) -> bool:
    if isinstance(exc, sa.exc.DBAPIError):
        if exc.connection_invalidated or isinstance(exc, sa.exc.InterfaceError):
            return True
        return exc.orig is not None and _is_outage(exc.orig)
    if isinstance(exc, sa.exc.DisconnectionError | sa.exc.TimeoutError):  # TimeoutError: pool exhausted
        return True
    if isinstance(exc, psycopg.InterfaceError):  # "the connection is closed"
        return True
    if isinstance(exc, psycopg.OperationalError):
        state = exc.sqlstate
        return state is None or state.startswith(_SERVER_SQLSTATES)  # None: no answer from a server
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return True
    if isinstance(exc, pika.exceptions.AMQPConnectionError | pika.exceptions.ConnectionWrongStateError):
        return True
    if isinstance(exc, ConnectionError | TimeoutError):  # refused, reset, aborted, broken pipe, timed out
        return True
    return isinstance(exc, OSError) and exc.errno in _NETWORK_ERRNOS


def describe(exc: BaseException) -> str:
    """One line for the logs: the exception's type and first line, not a traceback per retry."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
