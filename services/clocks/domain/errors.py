"""Domain errors. Each has a stable slug; entrypoints map them to HTTP status codes."""

from __future__ import annotations


class ClocksError(Exception):
    slug = "clocks-error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(ClocksError):
    slug = "not-found"


class GameNotFound(NotFound):
    slug = "game-not-found"


class NotAllowed(ClocksError):
    slug = "not-allowed"


class NotAPlayer(NotAllowed):
    """Neither White nor Black of this game (nor, for results, its organiser or staff)."""

    slug = "not-a-player"


class Conflict(ClocksError):
    slug = "conflict"


class NotYourTurn(Conflict):
    slug = "not-your-turn"


class GameOver(Conflict):
    """The game is finished: no more moves, and a second result is refused (corrections come later)."""

    slug = "game-finished"


class FlagFallen(GameOver):
    """The refusal of a move or result reported after the flag fell. The game itself returns the
    :class:`~services.clocks.domain.game.FlagFall` and is saved finished on time; only then is the
    report refused with this."""

    slug = "flag-fallen"


class GameNotStarted(Conflict):
    slug = "game-not-started"


class GameCancelled(Conflict):
    """Its knockout match was decided without it."""

    slug = "game-cancelled"


class RoundNotPublished(Conflict):
    """A game of a knockout round its organiser has not published yet."""

    slug = "round-not-published"


class GameExists(Conflict):
    """A game with this id was created already (the pairing's game id is the key)."""

    slug = "game-exists"


class AlreadyStarted(Conflict):
    slug = "already-started"


class ClockNotRunning(Conflict):
    slug = "clock-not-running"


class Invalid(ClocksError):
    slug = "invalid"


class InvalidTimeControl(Invalid):
    slug = "invalid-time-control"


class InvalidPairing(Invalid):
    slug = "invalid-pairing"


class InvalidResult(Invalid):
    slug = "invalid-result"
