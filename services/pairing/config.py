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
    arena_pass_seconds: float = Field(
        1.0,
        gt=0,
        le=60,
        validation_alias=AliasChoices("ARBITER_ARENA_PASS_SECONDS"),
        description="how often a pairing worker runs a pass over the open arenas",
    )
    arena_lease_seconds: float = Field(
        5.0,
        gt=0,
        le=600,
        validation_alias=AliasChoices("ARBITER_ARENA_LEASE_SECONDS"),
        description="how long an arena's lease outlives a worker that died holding it",
    )
