"""Accounts as registration knows them: mirrored from the identity provider, with their ratings per
variant and speed class. Only a registered account creates, joins or arbitrates a tournament (RULES.md
§2); guests and computers are refused."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from services.registration.domain import errors
from shared.aggregate import Aggregate


class AccountKind(StrEnum):
    REGISTERED = "registered"
    GUEST = "guest"
    COMPUTER = "computer"


@dataclass
class Account(Aggregate):
    """An account mirrored from the identity provider, with its ratings per variant and speed."""

    id: uuid.UUID
    name: str
    kind: AccountKind = AccountKind.REGISTERED
    ratings: dict[str, int] = field(default_factory=dict)  # "chess:blitz" -> 1500
    created_at: dt.datetime | None = None  # when registration first heard of it

    @classmethod
    def register(
        cls,
        account_id: uuid.UUID,
        name: str,
        kind: AccountKind,
        ratings: Mapping[str, int],
        *,
        now: dt.datetime,
    ) -> Account:
        return cls(account_id, name, kind, dict(ratings), created_at=now)

    def require_registered(self, action: str) -> None:
        if self.kind is not AccountKind.REGISTERED:
            raise errors.AccountKindRefused(f"{self.kind.value} accounts may not {action}")
