"""Registration's settings: environment variables (ARBITER_...) with local defaults."""

from __future__ import annotations

from pydantic import AliasChoices, Field

from shared.settings import CommonSettings, local_database_url


class RegistrationSettings(CommonSettings):
    database_url: str = Field(
        default_factory=lambda: local_database_url("registration"),
        validation_alias=AliasChoices("ARBITER_REGISTRATION_DATABASE_URL"),
    )
    min_lead_seconds: float = Field(300, ge=0, description="shortest time between creating and starting")
    scheduler_poll_seconds: float = Field(0.5, gt=0)
    arena_min_minutes: int = Field(
        10, ge=1, le=480, description="the shortest arena (RULES.md §3: 10 minutes; shorter for tests only)"
    )
