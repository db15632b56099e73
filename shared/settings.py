"""Settings loading, one place per service: environment variables with local defaults.

Each service's ``config.py`` subclasses :class:`CommonSettings` and adds its own fields; the
service's database URL is ``ARBITER_<SERVICE>_DATABASE_URL``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.openings import OpeningTable, load_table

LOCAL_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432"
LOCAL_AMQP = "amqp://guest:guest@127.0.0.1:5672/%2F"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"
DEV_JWT_SECRET = "arbiter-dev-secret-change-me-0123456789"


class CommonSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ARBITER_", extra="ignore", frozen=True)

    amqp_url: str = Field(LOCAL_AMQP, description="RabbitMQ URL (vhost in the path)")
    redis_url: str = Field(LOCAL_REDIS, description="Redis URL (db in the path)")
    redis_prefix: str = Field("arbiter:", description="prefix of every Redis key")
    jwt_secret: SecretStr = Field(SecretStr(DEV_JWT_SECRET), description="HS256 secret for bearer tokens")
    log_level: str = "INFO"
    log_format: Literal["json", "text"] = Field(
        "json", description="json: one JSON object per line (shared/logs.py); text: for a terminal"
    )
    database_pool_size: int = Field(
        10, ge=1, description="connections each process keeps open to its database (per gunicorn worker)"
    )
    database_max_overflow: int = Field(
        20, ge=0, description="connections a process may open beyond the pool at busy times"
    )
    max_body_bytes: int = Field(1024 * 1024, ge=1, description="the largest request body (else 413)")
    body_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="how long a request body may take to arrive (else 408, and the connection closes)",
    )
    head_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="how long a request head (request line and headers) may take to arrive once it has "
        "begun; a connection's first head, from the connection (else 408, and the connection closes)",
    )
    health_port: int | None = Field(
        None,
        description="port of /healthz and /readyz of a consumer, relay or worker (one process per port); "
        "unset: none",
    )
    italian_openings: str | None = Field(
        None,
        description="path of the Italian federation's opening table (JSON or CSV, docs/openings.md); "
        "unset: Italian table draws and thematic openings are refused",
    )

    def italian_table(self) -> OpeningTable | None:
        """The Italian opening table, loaded (and every move replayed) once per process."""
        return None if self.italian_openings is None else load_table(self.italian_openings, "italian")


def local_database_url(service: str) -> str:
    return f"{LOCAL_POSTGRES}/arbiter_{service}"
