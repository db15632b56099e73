"""Private tournaments (RULES.md §2): entry only with the organiser's password or an invite link.

* **Passwords** are stored as argon2id hashes (argon2-cffi, its default RFC 9106 parameters), never in
  clear. :func:`verify_password` also reads the PBKDF2 hashes written before (``pbkdf2$salt$hex``), and
  :func:`needs_rehash` says when a stored hash should be replaced by a fresh argon2id one (on the next
  successful check).
* **Invite links** are random tokens (32 bytes, URL-safe) that the organiser creates and revokes; a
  link may also expire. A revoked or expired link is refused (403), an unknown one too.

argon2 is imported when a password is hashed or checked, not with the module.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass, replace
from typing import Any, Final

from services.registration.domain.errors import InvalidSettings, NotAllowed

TOKEN_BYTES: Final = 32
MAX_PASSWORD_LENGTH: Final = 200
_LEGACY = "pbkdf2$"


class InvalidPassword(InvalidSettings):
    slug = "invalid-password"


class InviteLinkInvalid(NotAllowed):
    """No such invite link for this tournament."""

    slug = "invite-link-invalid"


class InviteLinkRevoked(NotAllowed):
    slug = "invite-link-revoked"


class InviteLinkExpired(NotAllowed):
    slug = "invite-link-expired"


def _hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()


def hash_password(password: str) -> str:
    """The argon2id hash (PHC string, salt included) to store for ``password``."""
    if not password or len(password) > MAX_PASSWORD_LENGTH:
        raise InvalidPassword(f"a tournament password has 1 to {MAX_PASSWORD_LENGTH} characters")
    return str(_hasher().hash(password))


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (argon2id, or an older PBKDF2 hash)."""
    if stored.startswith(_LEGACY):
        return _verify_pbkdf2(password, stored)
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(_hasher().verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` should be replaced by a fresh hash (an older scheme or weaker parameters)."""
    return stored.startswith(_LEGACY) or bool(_hasher().check_needs_rehash(stored))


def _verify_pbkdf2(password: str, stored: str) -> bool:
    try:
        _, salt, digest = stored.split("$", 2)
    except ValueError:
        return False
    candidate = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 100_000).hex()
    return hmac.compare_digest(candidate, digest)


@dataclass(frozen=True)
class InviteLink:
    """A revocable link that lets its holder join a private tournament."""

    tournament_id: uuid.UUID
    token: str
    created_at: dt.datetime
    created_by: uuid.UUID
    revoked_at: dt.datetime | None = None
    expires_at: dt.datetime | None = None

    @classmethod
    def issue(
        cls,
        tournament_id: uuid.UUID,
        *,
        by: uuid.UUID,
        now: dt.datetime,
        valid_for: dt.timedelta | None = None,
        token: str | None = None,
    ) -> InviteLink:
        """A new link (``token``: a given one, e.g. in tests; otherwise 32 random bytes)."""
        if valid_for is not None and valid_for <= dt.timedelta(0):
            raise InvalidSettings("an invite link is valid for a positive time")
        return cls(
            tournament_id,
            token or secrets.token_urlsafe(TOKEN_BYTES),
            now,
            by,
            expires_at=None if valid_for is None else now + valid_for,
        )

    def revoke(self, now: dt.datetime) -> InviteLink:
        """The link revoked at ``now`` (revoking it again changes nothing)."""
        return self if self.revoked_at is not None else replace(self, revoked_at=now)

    def usable_at(self, now: dt.datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or now < self.expires_at)

    def admit(self, token: str, tournament_id: uuid.UUID, *, now: dt.datetime) -> None:
        """Let the holder of ``token`` in, or refuse: an invalid, revoked or expired link (403)."""
        if tournament_id != self.tournament_id or not hmac.compare_digest(
            token.encode(), self.token.encode()
        ):
            raise InviteLinkInvalid("this invite link is not one of this tournament's")
        if self.revoked_at is not None:
            raise InviteLinkRevoked("this invite link was revoked by the organiser")
        if self.expires_at is not None and now >= self.expires_at:
            raise InviteLinkExpired("this invite link has expired")
