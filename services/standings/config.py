"""Standings' settings: environment variables (ARBITER_...) with local defaults."""

from __future__ import annotations

from pydantic import AliasChoices, Field

from shared.settings import CommonSettings, local_database_url


class StandingsSettings(CommonSettings):
    database_url: str = Field(
        default_factory=lambda: local_database_url("standings"),
        validation_alias=AliasChoices("ARBITER_STANDINGS_DATABASE_URL"),
    )
    table_cache_size: int = Field(
        64, ge=1, description="tournaments whose live table a consumer keeps in memory (LRU)"
    )
    page_refresh_seconds: int = Field(
        15,
        ge=1,
        le=3600,
        description="ARBITER_PAGE_REFRESH_SECONDS: how often a running tournament's public pages fetch themselves again",
    )
