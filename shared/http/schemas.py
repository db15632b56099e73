"""Request conventions every service's API shares: bodies that refuse unknown fields, and strings and
integers bounded to what the database columns hold, so bad input is a 422 at the edge and never a
500 from the database."""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, StringConstraints

# PostgreSQL's INTEGER column
INT32_MAX: Final = 2**31 - 1
# no NUL character: PostgreSQL text cannot hold one
NO_NUL: Final = r"^[^\x00]*$"

Text = Annotated[str, StringConstraints(pattern=NO_NUL)]
"""A string with no NUL character; give each field its column's ``max_length`` with ``Field``."""


class Strict(BaseModel):
    """A request body that refuses unknown fields (a typo is a 422, not silently ignored)."""

    model_config = ConfigDict(extra="forbid")
