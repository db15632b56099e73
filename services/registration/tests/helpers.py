"""What registration's tests share: the test clock's start, tokens, and the story steps over HTTP."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
STAFF = uuid.uuid4()


def token(subject: uuid.UUID, *roles: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, subject, set(roles) or {'player'})}"}


def register(client, name="Ann", kind="registered", rating=None) -> uuid.UUID:
    body = {"name": name, "kind": kind, "ratings": {"chess:blitz": rating} if rating else {}}
    r = client.post("/accounts", json=body, headers=token(STAFF, "service"))
    assert r.status_code == 201, r.json
    return uuid.UUID(r.json["id"])


def create(client, organiser, **kw):
    body = {
        "name": "Sunday blitz",
        "starts_at": (NOW + dt.timedelta(minutes=30)).isoformat(),
        "time_control": {"base_seconds": 180, "increment_seconds": 2},
    }
    body.update(kw)
    return client.post("/tournaments", json=body, headers=token(organiser))


def published(svc, kind) -> list[Any]:
    return [e for e in svc.broker.published if e.type == kind]


def problem(r, status, slug) -> dict[str, Any]:
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json"
    assert r.json["type"] == f"/problems/{slug}"
    assert "Traceback" not in r.get_data(as_text=True)
    return r.json
