"""Tournament passwords (argon2id) and invite links (services/registration/domain/passwords.py)."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid

import pytest

from services.registration.domain import errors
from services.registration.domain.passwords import (
    InvalidPassword,
    InviteLink,
    InviteLinkExpired,
    InviteLinkInvalid,
    InviteLinkRevoked,
    hash_password,
    needs_rehash,
    verify_password,
)

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def pbkdf2_hash(password: str, salt: str = "0f1e2d3c4b5a69788796a5b4c3d2e1f0") -> str:
    """A hash as registration wrote them before argon2 (``pbkdf2$salt$hex``, 100,000 SHA-256 rounds)."""
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 100_000).hex()
    return f"pbkdf2${salt}${digest}"


TID, ORGANISER = uuid.uuid4(), uuid.uuid4()


def test_a_password_is_stored_as_an_argon2id_hash_never_in_clear():
    stored = hash_password("s3cret pass")
    assert stored.startswith("$argon2id$") and "s3cret" not in stored
    assert stored != hash_password("s3cret pass")  # salted
    assert verify_password("s3cret pass", stored)
    assert not verify_password("s3cret pas", stored)
    assert not verify_password("s3cret pass", "$argon2id$garbage")
    assert not needs_rehash(stored)


def test_the_older_pbkdf2_hashes_are_still_read_and_want_a_rehash():
    stored = pbkdf2_hash("old one")
    assert verify_password("old one", stored) and not verify_password("old two", stored)
    assert needs_rehash(stored)


@pytest.mark.parametrize("password", ["", "x" * 201])
def test_a_password_has_one_to_two_hundred_characters(password):
    with pytest.raises(InvalidPassword) as refused:
        hash_password(password)
    assert isinstance(refused.value, errors.InvalidSettings)  # a 422


def test_an_invite_link_admits_its_holder_until_revoked():
    link = InviteLink.issue(TID, by=ORGANISER, now=NOW)
    assert len(link.token) >= 43 and link.created_at == NOW and link.revoked_at is None
    assert InviteLink.issue(TID, by=ORGANISER, now=NOW).token != link.token
    link.admit(link.token, TID, now=NOW + dt.timedelta(days=30))
    revoked = link.revoke(NOW + dt.timedelta(hours=1))
    assert revoked.revoked_at == NOW + dt.timedelta(hours=1) and not revoked.usable_at(NOW)
    assert revoked.revoke(NOW + dt.timedelta(hours=2)) == revoked
    with pytest.raises(InviteLinkRevoked) as refused:
        revoked.admit(link.token, TID, now=NOW + dt.timedelta(hours=2))
    assert isinstance(refused.value, errors.NotAllowed)  # a 403


def test_an_expired_or_foreign_link_is_refused():
    link = InviteLink.issue(TID, by=ORGANISER, now=NOW, valid_for=dt.timedelta(days=1), token="tok")
    assert link.usable_at(NOW + dt.timedelta(hours=23))
    with pytest.raises(InviteLinkExpired):
        link.admit("tok", TID, now=NOW + dt.timedelta(days=1))
    with pytest.raises(InviteLinkInvalid):
        link.admit("other", TID, now=NOW)
    with pytest.raises(InviteLinkInvalid):
        link.admit("tok", uuid.uuid4(), now=NOW)
    with pytest.raises(errors.InvalidSettings):
        InviteLink.issue(TID, by=ORGANISER, now=NOW, valid_for=dt.timedelta(0))
