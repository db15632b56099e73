"""Request-body conventions every service's API shares."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A request body that refuses unknown fields (a typo is a 422, not silently ignored)."""

    model_config = ConfigDict(extra="forbid")
