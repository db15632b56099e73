"""Bearer JWT (HS256) authentication: who is asking, not what they may do.

Claims: ``sub`` (the account id, a UUID), ``roles`` (any of ``player``, ``arbiter``, ``service``),
``exp``. Every mutating request needs a valid token (401 ``unauthorized`` otherwise: none, malformed,
badly signed or expired), checked before its body. What the caller may then do is each service's
decision, per tournament (:mod:`shared.authority`): an account is the organiser of the tournaments it
created; an arbiter decides only where the organiser appointed them (the ``arbiter`` role grants nothing
by itself); ``service`` is the game server (it mirrors accounts and reports results of online games);
a player acts on their own entries, games and byes. Refusals are 403 problems with stable types.
"""

from __future__ import annotations

import datetime as dt
import functools
import time
import uuid
from dataclasses import dataclass

import jwt
from flask import Blueprint, g, request

from shared.commands import Actor
from shared.http.problems import forbidden, unauthorized

ROLES = frozenset({"player", "arbiter", "service"})
ALGORITHM = "HS256"


@dataclass(frozen=True)
class Principal:
    subject: uuid.UUID
    roles: frozenset[str]

    def require(self, *roles: str) -> None:
        if not self.roles & set(roles):
            raise forbidden(f"this needs one of the roles: {', '.join(sorted(roles))}")

    def actor(self) -> Actor:
        """Who asks, as the services' commands name them."""
        return Actor(self.subject, self.roles)


def issue_token(
    secret: str,
    subject: uuid.UUID,
    roles: set[str] | frozenset[str] = frozenset({"player"}),
    *,
    ttl: dt.timedelta = dt.timedelta(hours=12),
) -> str:
    unknown = set(roles) - ROLES
    if unknown:
        raise ValueError(f"unknown roles: {sorted(unknown)}")
    now = dt.datetime.now(dt.UTC)
    claims = {"sub": str(subject), "roles": sorted(roles), "iat": now, "exp": now + ttl}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def decode_token(token: str, secret: str) -> Principal:
    """The token's principal. A token verified before is not verified again (a client sends the same
    one with every request; an HMAC check and the claims' parsing cost more than the rest of a small
    request's Python): the verified ones are kept, per secret, with their expiry, which is checked at
    every use. A token that fails is never kept."""
    found, expires = _verified(token, secret)
    if expires <= time.time():
        raise unauthorized("the token has expired")
    return found


@functools.lru_cache(maxsize=4096)
def _verified(token: str, secret: str) -> tuple[Principal, float]:
    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], options={"require": ["sub", "exp"]})
    except jwt.ExpiredSignatureError:
        raise unauthorized("the token has expired") from None
    except jwt.PyJWTError as exc:
        raise unauthorized(f"malformed or invalid token: {exc}") from None
    try:
        subject = uuid.UUID(str(claims["sub"]))
    except ValueError:
        raise unauthorized("the token's subject is not an account id") from None
    roles = claims.get("roles", [])
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise unauthorized("the token's roles claim must be a list of strings")
    return Principal(subject, frozenset(roles) & ROLES), float(claims["exp"])


def current_principal(secret: str) -> Principal:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("send 'Authorization: Bearer <token>'")
    return decode_token(token.strip(), secret)


WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def authenticate_writes(blueprint: Blueprint, secret: str) -> None:
    """Check the bearer token of every mutating request before its body is validated, so a
    malformed token is a 401 whatever the body; the views read it with :func:`principal`."""

    @blueprint.before_request
    def _authenticate() -> None:
        if request.method in WRITE_METHODS:
            g.arbiter_principal = current_principal(secret)


def optional_principal(secret: str) -> Principal | None:
    """For reads that show more to some callers (an organiser sees their unpublished rounds): None
    without an ``Authorization`` header; a header that is there must hold a valid token (401)."""
    if not request.headers.get("Authorization"):
        return None
    return current_principal(secret)


def principal() -> Principal:
    found = g.get("arbiter_principal")
    if not isinstance(found, Principal):
        raise unauthorized("send 'Authorization: Bearer <token>'")
    return found
