"""Domain errors. Each has a stable slug; entrypoints map them to HTTP status codes."""

from __future__ import annotations


class RegistrationError(Exception):
    slug = "registration-error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(RegistrationError):
    slug = "not-found"


class TournamentNotFound(NotFound):
    slug = "tournament-not-found"


class AccountNotFound(NotFound):
    slug = "account-not-found"


class NotAllowed(RegistrationError):
    """The account may not do this (guest, computer, below the rating floor, wrong password)."""

    slug = "not-allowed"


class AccountKindRefused(NotAllowed):
    slug = "account-kind-refused"


class RatingTooLow(NotAllowed):
    slug = "rating-too-low"


class WrongPassword(NotAllowed):
    slug = "wrong-password"


class Conflict(RegistrationError):
    slug = "conflict"


class RegistrationClosed(Conflict):
    slug = "registration-closed"


class TournamentFull(Conflict):
    slug = "tournament-full"


class AlreadyJoined(Conflict):
    slug = "already-joined"


class NotJoined(Conflict):
    slug = "not-joined"


class OrganiserBusy(Conflict):
    slug = "organiser-busy"


class CannotCancel(Conflict):
    slug = "cannot-cancel"


class AccountExists(Conflict):
    slug = "account-exists"


class InvalidSettings(RegistrationError):
    slug = "invalid-settings"


class StartOutOfRange(InvalidSettings):
    slug = "start-out-of-range"


class NotOrganiser(NotAllowed):
    slug = "not-organiser"


class Forbidden(NotAllowed):
    slug = "forbidden"


class RosterKeptByOrganiser(NotAllowed):
    """A knockout's roster is kept by its organiser: players do not enter themselves."""

    slug = "roster-kept-by-organiser"


class NotADraft(Conflict):
    """Only a knockout draft can change its settings and roster, or be started by its organiser."""

    slug = "not-a-draft"


class TooFewPlayers(Conflict):
    slug = "too-few-players"


class SeedingIncomplete(Conflict):
    slug = "seeding-incomplete"
