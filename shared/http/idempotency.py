"""``Idempotency-Key`` on POSTs that create things: a retried request gets the first response again
instead of creating a second tournament or account.

The key is scoped to the caller and the endpoint. The first request claims the key in its own
transaction; its successful response is stored and replayed (with ``Idempotent-Replayed: true``)
for the same key and body. The same key with another body is a 422; a key whose first request is
still running is a 409. A failed request releases its key, so the client can fix it and retry.

When the request failed because the database went away, the release cannot reach it either. The
claim is then released later, and never left for good:

- the process keeps the claims it could not release and releases them before its next claim, so a
  retry that reaches it once the database is back is processed;
- a claim carries its time (``created_at``): one still unanswered after ``lease`` (longer than any
  request may run: gunicorn's worker timeout is 30 s) belongs to a request that died, and the next
  request with its key takes it over, in whichever process it arrives.

A release or takeover touches a claim only while it is the one it knows (same ``created_at``), so it
never deletes a newer request's claim.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from flask import Response, g, request

from shared.events import utcnow
from shared.http.problems import RETRY_AFTER_SECONDS, Problem, infrastructure_errors

log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
REPLAYED_HEADERS = ("Location", "Roster-Revision")
"""The headers of a first answer its replays carry again (what the answer says, not how it was sent)."""
LEASE = dt.timedelta(seconds=60)
"""How long an unanswered claim stands: longer than any request runs (gunicorn kills a worker after 30 s)."""


def idempotency_table(metadata: sa.MetaData) -> sa.Table:
    return sa.Table(
        "idempotency_keys",
        metadata,
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("scope", sa.String(300), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("headers", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


class Idempotency:
    def __init__(
        self,
        engine: sa.Engine,
        table: sa.Table,
        *,
        lease: dt.timedelta = LEASE,
        now: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.engine = engine
        self.table = table
        self.lease = lease
        self.now = now
        self._unreleased: dict[tuple[str, str], dt.datetime] = {}
        self._lock = threading.Lock()

    def __call__(self, view: Callable[..., Response]) -> Callable[..., Response]:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Response:
            key = request.headers.get(HEADER)
            if not key:
                return view(*args, **kwargs)
            if len(key) > 200 or "\x00" in key:
                raise Problem(
                    422,
                    "idempotency-key-invalid",
                    "Invalid Idempotency-Key",
                    "at most 200 characters, none of them NUL",
                )
            principal = g.get("arbiter_principal")
            subject = str(getattr(principal, "subject", "anonymous"))
            scope = f"{subject} {request.method} {request.path}"
            digest = hashlib.sha256(request.get_data()).hexdigest()
            self.release_pending()
            claimed = self._claim(key, scope, digest)
            if isinstance(claimed, Response):
                return claimed
            try:
                response = view(*args, **kwargs)
            except BaseException:
                self._release(key, scope, claimed)
                raise
            if 200 <= response.status_code < 300:
                self._store(key, scope, claimed, response)
            else:
                self._release(key, scope, claimed)
            return response

        return wrapper

    def release_pending(self) -> None:
        """Release the claims of failed requests that could not be released when they failed."""
        with self._lock:
            pending = list(self._unreleased.items())
        for (key, scope), claimed in pending:
            try:
                self._delete_claim(key, scope, claimed)
            except infrastructure_errors():
                return  # still unreachable: the next request tries again
            with self._lock:
                if self._unreleased.get((key, scope)) == claimed:
                    del self._unreleased[(key, scope)]

    def _claim(self, key: str, scope: str, digest: str) -> dt.datetime | Response:
        """The claim's time, or the response to give instead (a replay), or a Problem raised."""
        t = self.table
        at = self.now()
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.insert(t).values(key=key, scope=scope, request_hash=digest, created_at=at))
            return at
        except sa.exc.IntegrityError:
            pass
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.key == key, t.c.scope == scope)).first()
        if row is None:  # released meanwhile
            return self._claim(key, scope, digest)
        if row.status is None and self._abandoned(row.created_at, at):
            return self._take_over(key, scope, digest, row.created_at, at)
        if row.request_hash != digest:
            raise Problem(
                422,
                "idempotency-key-reused",
                "Idempotency-Key reused",
                "this key was used with a different request body",
            )
        if row.status is None:
            problem = Problem(
                409,
                "idempotency-key-in-progress",
                "Request in progress",
                "the first request with this key has not finished; retry shortly",
            )
            problem.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
            raise problem
        response = Response(row.body, status=row.status, mimetype="application/json")
        for name, value in (row.headers or {}).items():
            response.headers[name] = value
        response.headers["Idempotent-Replayed"] = "true"
        return response

    def _abandoned(self, claimed: dt.datetime, now: dt.datetime) -> bool:
        if claimed.tzinfo is None:  # SQLite gives back naive datetimes (stored in UTC)
            claimed = claimed.replace(tzinfo=dt.UTC)
        return now - claimed >= self.lease

    def _take_over(
        self, key: str, scope: str, digest: str, stale: dt.datetime, at: dt.datetime
    ) -> dt.datetime | Response:
        """The claim of a request that died unanswered becomes this request's (whatever its body:
        the first one never ran to an answer)."""
        t = self.table
        with self.engine.begin() as conn:
            taken = conn.execute(
                sa.update(t)
                .where(t.c.key == key, t.c.scope == scope, t.c.status.is_(None), t.c.created_at == stale)
                .values(request_hash=digest, created_at=at)
            ).rowcount
        if taken != 1:  # another request took it over, or answered, meanwhile
            return self._claim(key, scope, digest)
        log.warning("Idempotency-Key claim of %s taken over: its request died unanswered", scope)
        return at

    def _store(self, key: str, scope: str, claimed: dt.datetime, response: Response) -> None:
        """Keep the response for replays. If the database went away since the request's own commit,
        the response still goes out (its effect happened); the claim stands until its lease runs out."""
        t = self.table
        kept = {k: v for k, v in response.headers.items() if k in REPLAYED_HEADERS}
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    sa.update(t)
                    .where(t.c.key == key, t.c.scope == scope, t.c.created_at == claimed)
                    .values(status=response.status_code, body=response.get_data(as_text=True), headers=kept)
                )
        except infrastructure_errors() as exc:
            log.warning("Idempotency-Key response of %s not kept: %r", scope, exc)

    def _release(self, key: str, scope: str, claimed: dt.datetime) -> None:
        """A failed request gives its key back; if the database cannot be reached (the likely reason
        it failed), the claim is kept to be released before this process's next claim."""
        try:
            self._delete_claim(key, scope, claimed)
        except infrastructure_errors() as exc:
            log.warning("Idempotency-Key claim of %s not released yet: %r", scope, exc)
            with self._lock:
                self._unreleased[(key, scope)] = claimed

    def _delete_claim(self, key: str, scope: str, claimed: dt.datetime) -> None:
        t = self.table
        with self.engine.begin() as conn:
            conn.execute(
                sa.delete(t).where(
                    t.c.key == key, t.c.scope == scope, t.c.status.is_(None), t.c.created_at == claimed
                )
            )
