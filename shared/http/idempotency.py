"""``Idempotency-Key`` on POSTs that create things: a retried request gets the first response again
instead of creating a second tournament or account.

The key is scoped to the caller and the endpoint. The first request claims the key in its own
transaction; its successful response is stored and replayed (with ``Idempotent-Replayed: true``)
for the same key and body. The same key with another body is a 422; a key whose first request is
still running is a 409. A failed request releases its key, so the client can fix it and retry.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from flask import Response, g, request

from shared.events import utcnow
from shared.http.problems import Problem

HEADER = "Idempotency-Key"


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
    def __init__(self, engine: sa.Engine, table: sa.Table) -> None:
        self.engine = engine
        self.table = table

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
            replay = self._claim(key, scope, digest)
            if replay is not None:
                return replay
            try:
                response = view(*args, **kwargs)
            except BaseException:
                self._release(key, scope)
                raise
            if 200 <= response.status_code < 300:
                self._store(key, scope, response)
            else:
                self._release(key, scope)
            return response

        return wrapper

    def _claim(self, key: str, scope: str, digest: str) -> Response | None:
        t = self.table
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    sa.insert(t).values(key=key, scope=scope, request_hash=digest, created_at=utcnow())
                )
            return None
        except sa.exc.IntegrityError:
            pass
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.key == key, t.c.scope == scope)).first()
        if row is None:  # released meanwhile
            return self._claim(key, scope, digest)
        if row.request_hash != digest:
            raise Problem(
                422,
                "idempotency-key-reused",
                "Idempotency-Key reused",
                "this key was used with a different request body",
            )
        if row.status is None:
            raise Problem(
                409,
                "idempotency-key-in-progress",
                "Request in progress",
                "the first request with this key has not finished; retry shortly",
            )
        response = Response(row.body, status=row.status, mimetype="application/json")
        for name, value in (row.headers or {}).items():
            response.headers[name] = value
        response.headers["Idempotent-Replayed"] = "true"
        return response

    def _store(self, key: str, scope: str, response: Response) -> None:
        t = self.table
        kept = {k: v for k, v in response.headers.items() if k in ("Location",)}
        with self.engine.begin() as conn:
            conn.execute(
                sa.update(t)
                .where(t.c.key == key, t.c.scope == scope)
                .values(status=response.status_code, body=response.get_data(as_text=True), headers=kept)
            )

    def _release(self, key: str, scope: str) -> None:
        t = self.table
        with self.engine.begin() as conn:
            conn.execute(sa.delete(t).where(t.c.key == key, t.c.scope == scope, t.c.status.is_(None)))
