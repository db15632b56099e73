"""The clocks service's settings: environment variables (ARBITER_...) with local defaults."""

from __future__ import annotations

from pydantic import AliasChoices, Field

from shared.settings import CommonSettings, local_database_url


class ClocksSettings(CommonSettings):
    database_url: str = Field(
        default_factory=lambda: local_database_url("clocks"),
        validation_alias=AliasChoices("ARBITER_CLOCKS_DATABASE_URL"),
    )
    tick_seconds: float = Field(
        0.1,
        gt=0,
        validation_alias=AliasChoices("ARBITER_CLOCKS_TICK_SECONDS"),
        description="how often the ticker looks for fallen flags",
    )
    sweep_seconds: float = Field(
        1.0,
        gt=0,
        validation_alias=AliasChoices("ARBITER_CLOCKS_SWEEP_SECONDS"),
        description="how often the ticker also sweeps the database for overdue games",
    )
    tick_batch: int = Field(
        100,
        ge=1,
        validation_alias=AliasChoices("ARBITER_CLOCKS_TICK_BATCH"),
        description="most games a tick looks at (from the store, and from the sweep)",
    )
