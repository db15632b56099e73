"""Request conventions every service's API shares: bodies that refuse unknown fields and are read by
JSON's types, and strings and integers bounded to what the database columns hold, so bad input is a
422 at the edge and never a 500 from the database.

Every constraint a request model enforces is one its OpenAPI schema states (lengths, ranges, patterns,
enums): the documents say what the servers accept (``tests/e2e/test_fuzz.py`` holds them to it)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Any, Final, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

# PostgreSQL's INTEGER column
INT32_MAX: Final = 2**31 - 1
# no NUL character: PostgreSQL text cannot hold one
NO_NUL: Final = r"^[^\x00]*$"
# What Python's str.strip() takes off (str.isspace) and U+FEFF (JavaScript's \s), spelled out so that
# every regular-expression engine (pydantic's, the clients', the fuzzer's) reads the same class.
BLANK: Final = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# no NUL, and one character at least that is not blank
NOT_BLANK: Final = rf"^[^\x00]*[^\x00{BLANK}][^\x00]*$"

Text = Annotated[str, StringConstraints(pattern=NO_NUL)]
"""A string with no NUL character; give each field its column's ``max_length`` with ``Field``."""

_SAYS_SOMETHING = re.compile(NOT_BLANK)


def says_something(value: str) -> bool:
    """Whether ``value`` matches :data:`NOT_BLANK` (as a JSON schema's ``pattern`` reads it)."""
    return _SAYS_SOMETHING.match(value) is not None


def words(value: str, blank: Callable[[], Exception] | None = None) -> str:
    """``value`` if it says something; else a validation error, or ``blank()`` (a service's own error,
    its own problem) for a value that is only blanks."""
    if "\x00" in value:
        raise ValueError("must not hold a NUL character")
    if not says_something(value):
        raise blank() if blank is not None else ValueError("must say something: it is blank")
    return value


def _says_something(value: str) -> str:
    return words(value)


NOT_BLANK_SCHEMA: Final = Field(json_schema_extra={"pattern": NOT_BLANK})
"""The schema of a string that must say something; give it with a check of :func:`words` that raises a
service's own error (a named problem) for a blank one where the service had one."""

Words = Annotated[str, AfterValidator(_says_something), NOT_BLANK_SCHEMA]
"""A string that says something: no NUL, and not only spaces (a name, a reason). Its schema states the
pattern; the server checks the same pattern, with a message a person reads."""


def _integral(value: Any) -> Any:
    """A JSON document with its integral numbers (``2.0``) as integers, as JSON Schema reads them."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value


class Strict(BaseModel):
    """A request body: unknown fields refused (a typo is a 422, not silently ignored), and each value
    read by its JSON type, as the OpenAPI schema says. ``true`` is no integer and ``"1800"`` no number:
    pydantic's lax mode would take both. A number without a fraction (``2.0``) is an integer, as in
    JSON Schema."""

    model_config = ConfigDict(extra="forbid")

    @classmethod
    def model_validate(
        cls,
        obj: Any,
        *,
        strict: bool | None = None,
        extra: Any = None,
        from_attributes: bool | None = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """The parsed JSON body (flask-openapi3 hands it here), validated as JSON strictly."""
        try:
            document = json.dumps(_integral(obj), allow_nan=False)
        except TypeError:  # not a JSON document but Python objects: pydantic's own rules
            return super().model_validate(
                obj, strict=strict, from_attributes=from_attributes, context=context
            )
        except ValueError:  # NaN or Infinity: Python's parser reads them, JSON has no such number
            error = {"type": "json_invalid", "loc": (), "input": obj, "ctx": {"error": "NaN or Infinity"}}
            raise ValidationError.from_exception_data(cls.__name__, [error]) from None  # type: ignore[list-item]
        return cls.model_validate_json(document, strict=True, context=context)


class OptionalBody(Strict):
    """A request body that may be left out (no body reads as ``{}``): its document says the body is not
    required. A body that is sent is read as any other (``null`` or no JSON is refused)."""

    model_config = ConfigDict(extra="forbid", openapi_extra={"required": False})  # type: ignore[typeddict-unknown-key]

    @model_validator(mode="before")
    @classmethod
    def _no_body_is_empty(cls, data: Any) -> Any:
        return {} if data is None else data
