"""Domain errors of the pairing service, each with a stable slug."""

from __future__ import annotations


class PairingError(Exception):
    slug = "pairing-error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class TournamentNotFound(PairingError):
    slug = "tournament-not-found"


class RoundNotFound(PairingError):
    slug = "round-not-found"


class RoundNotDue(PairingError):
    slug = "round-not-due"


class NoValidPairing(PairingError):
    """No pairing satisfies the absolute criteria."""

    slug = "no-valid-pairing"


class UnsupportedField(PairingError):
    slug = "unsupported-field"


class NotAllowed(PairingError):
    slug = "not-allowed"


class NotOrganiser(NotAllowed):
    slug = "not-organiser"


class PublishedWhenPaired(PairingError):
    """Only knockout rounds wait for their organiser to publish them; other rounds are public when paired."""

    slug = "published-when-paired"


class RoundTaken(PairingError):
    """Another worker paired this round first: the rounds' primary key refused a second pairing. The
    message is retried, and the retry finds the round paired."""

    slug = "round-taken"
