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


class NotFound(PairingError):
    """Something named in a request or an event that pairing does not hold."""

    slug = "not-found"


class GameNotFound(NotFound):
    slug = "game-not-found"


class PlayerNotFound(NotFound):
    slug = "player-not-found"


class ByeNotFound(NotFound):
    slug = "bye-not-found"


class NotAnArbiterHere(NotAllowed):
    """Neither the tournament's organiser nor an arbiter appointed for this game (or the whole
    tournament)."""

    slug = "not-an-arbiter-here"


class NotYourBye(NotAllowed):
    """A bye is asked for by the player, an arbiter of the tournament or its organiser."""

    slug = "not-your-bye"


class GameNotFinished(PairingError):
    """A correction needs a result to correct."""

    slug = "game-not-finished"


class NothingToCorrect(PairingError):
    """The correction names the outcome the game has already."""

    slug = "nothing-to-correct"


class CorrectionChangesAdvancement(PairingError):
    """A knockout correction that would change who advances from a match (or leave it undecided) once
    a match it feeds is paired, or after the tournament finished (RULES.md §4)."""

    slug = "correction-changes-advancement"

    def __init__(self, detail: str, *, match_id: str, next_match_id: str | None = None) -> None:
        super().__init__(detail)
        self.match_id = match_id
        self.next_match_id = next_match_id


class ByesNotOffered(PairingError):
    """Byes on request exist only where the tournament's settings offer them, in a Swiss."""

    slug = "byes-not-offered"


class RoundAlreadyPaired(PairingError):
    slug = "round-already-paired"


class RoundOutOfRange(PairingError):
    """A round the tournament will never have."""

    slug = "round-out-of-range"


class ByeAlreadyRequested(PairingError):
    slug = "bye-already-requested"


class PlayerAlreadyWithdrawn(PairingError):
    """The player has left the tournament for good."""

    slug = "player-withdrawn"


class ResetNotAllowed(PairingError):
    """Only a knockout is reset to its draft, and only while round 1 is its only round and no game has
    a result (RULES.md §4)."""

    slug = "reset-not-allowed"


class ColoursFixed(PairingError):
    """A game's colours change only before it has a result."""

    slug = "colours-fixed"


class InvalidOutcome(PairingError):
    """A correction names no result (``*``: not played)."""

    slug = "invalid-outcome"


class EventMismatch(PairingError):
    """An event that contradicts what pairing holds (e.g. colours for players who do not play the game)."""

    slug = "event-mismatch"


class PairedWhenDue(PairingError):
    """Only a `fide-rapid` event's rounds are paired on an arbiter's command; the service pairs the others
    when they are due."""

    slug = "paired-when-due"


class RoundUnfinished(PairingError):
    """The round before has boards without a result: the next round cannot be paired yet."""

    slug = "round-unfinished"

    def __init__(self, detail: str, *, round: int, boards: list[int]) -> None:
        super().__init__(detail)
        self.round = round
        self.boards = boards


class RoundNotPaired(NotFound):
    """Publishing a round nobody paired."""

    slug = "round-not-paired"


class AbsenceNotFound(NotFound):
    """The player did not lose that round at the default time."""

    slug = "absence-not-found"


class AbsenceAlreadyExcused(PairingError):
    slug = "absence-already-excused"


class ExcuseTooLate(PairingError):
    """An absence is excused before the next round's pairing is published (RULES.md §6)."""

    slug = "excuse-too-late"


class NotYetHeard(PairingError):
    """A command names a roster revision (registration's answer to a change of the roster) that pairing
    has not heard yet: asked again once it has, it goes through (docs/events.md, "Causal commands")."""

    slug = "not-yet-heard"

    def __init__(self, detail: str, *, asked: int, heard: int) -> None:
        super().__init__(detail)
        self.asked = asked
        self.heard = heard
