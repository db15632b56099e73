"""Pairing's settings: environment variables (ARBITER_...) with local defaults."""

from __future__ import annotations

from pydantic import AliasChoices, Field

from shared.settings import CommonSettings, local_database_url


class PairingSettings(CommonSettings):
    database_url: str = Field(
        default_factory=lambda: local_database_url("pairing"),
        validation_alias=AliasChoices("ARBITER_PAIRING_DATABASE_URL"),
    )
    worker_prefetch: int = Field(1, ge=1, description="rounds a pairing worker takes at once")
