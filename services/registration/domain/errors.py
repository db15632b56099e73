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


class NotPrivate(Conflict):
    """Invite links of a tournament that has none: it is not private (no password)."""

    slug = "not-private"


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


class NotAnArbiterHere(NotAllowed):
    """Neither the organiser nor an arbiter whose appointment covers this decision (RULES.md §5)."""

    slug = "not-an-arbiter-here"


class PlayerNotEntered(NotFound):
    slug = "player-not-entered"


class ArbiterNotAppointed(NotFound):
    slug = "arbiter-not-appointed"


class NotStarted(Conflict):
    """A withdrawal before the start: leaving then is removing the entry."""

    slug = "not-started"


class TournamentClosed(Conflict):
    """Cancelled or completed: nothing more is decided in it."""

    slug = "tournament-closed"


class AlreadyWithdrawn(Conflict):
    slug = "already-withdrawn"


class NoLeavingAfterStart(Conflict):
    """`platform`: after the start nobody leaves; only the organiser can exclude (RULES.md §2)."""

    slug = "no-leaving-after-start"


class SeedingNotRandom(Conflict):
    slug = "seeding-not-random"


class SeedingAlreadyDrawn(Conflict):
    """A lot is drawn once: the recorded draw seeds every player added later too."""

    slug = "seeding-already-drawn"


class Unprocessable(RegistrationError):
    """A request the rules cannot take as it is (422), other than a tournament's settings."""

    slug = "unprocessable"


class ReasonRequired(Unprocessable):
    slug = "reason-required"


class InvalidAppointment(Unprocessable):
    slug = "invalid-appointment"


class ReasonTooLong(Unprocessable):
    slug = "reason-too-long"


# -- fide-rapid events: settings, players, the start, late entries -----------------------------------
class TimeNotRapid(InvalidSettings):
    """Outside FIDE rapid: more than 10 and less than 60 minutes for 60 moves (base + 60 × increment)."""

    slug = "time-control-not-rapid"


class InvalidPlayer(Unprocessable):
    """A player's name or FIDE data the rules cannot take (a federation that is no code, ...)."""

    slug = "invalid-player"


class InvalidPlayerLine(Unprocessable):
    """A line of an imported player list that cannot be read: nothing of the list is imported."""

    slug = "invalid-player-line"

    def __init__(self, detail: str, *, line: int | None) -> None:
        super().__init__(detail)
        self.line = line


class DuplicateFideId(Conflict):
    """Two players of one event with the same FIDE id: entered already, or twice in one list."""

    slug = "duplicate-fide-id"


class AccountsOnly(Conflict):
    """Players without accounts are entered by hand in `fide-rapid` events only."""

    slug = "accounts-only"


class AlreadyConfirmed(Conflict):
    slug = "already-confirmed"


class AlreadyStarted(Conflict):
    slug = "already-started"


class TooManyPlayers(Conflict):
    slug = "too-many-players"


class NoLateEntries(Conflict):
    """A round robin's table is fixed at the start: nobody enters it late."""

    slug = "no-late-entries"


class NoRoundLeft(Conflict):
    """Every round is paired already: a late entry would play none."""

    slug = "no-round-left"


class RatingOutsideWindow(Unprocessable):
    """A group-playoff entry whose rating is not strictly inside the event's window (RULES.md §5)."""

    slug = "rating-outside-window"


class EntryAllLowerCase(Unprocessable):
    """A group-playoff entry whose letters are all lower case is not accepted (4T1 §3(3))."""

    slug = "entry-all-lower-case"
