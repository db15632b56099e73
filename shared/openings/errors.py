"""What the opening rules refuse, as domain errors. Each has a stable ``slug``: a service that meets one
answers 422 with a problem of that type (the organiser chose something the rules do not allow)."""

from __future__ import annotations


class OpeningError(ValueError):
    slug = "opening-error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class UnknownOpeningOption(OpeningError):
    """Not one of the nine options (the message lists them)."""

    slug = "unknown-opening-option"


class OpeningNotForVariant(OpeningError):
    """A table draw or a thematic opening for a variant without a federation table."""

    slug = "opening-not-for-variant"


class OpeningTableMissing(OpeningError):
    """The variant has a federation table, but none was provided (the Italian one comes from a file)."""

    slug = "opening-table-missing"


class BalanceClassesMissing(OpeningError):
    """A balance-capped draw (``table-1|2|3``) from a table whose openings carry no balance class."""

    slug = "balance-classes-missing"


class NoOpeningWithinCap(OpeningError):
    """The table has no opening up to the chosen balance class."""

    slug = "no-opening-within-cap"


class ThematicOpeningNotFound(OpeningError):
    """``thematic:CODE`` names an opening the table does not have."""

    slug = "thematic-opening-not-found"


class OpeningTableInvalid(OpeningError):
    """A table file that cannot be read: the message names the file and the line or entry."""

    slug = "opening-table-invalid"
