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
    """A move by someone who is neither White nor Black of this game."""

    slug = "not-a-player"


class NotYourGame(NotAllowed):
    """A result from someone who neither plays this game nor decides it (its organiser, an arbiter
    appointed for it, the game server)."""

    slug = "not-your-game"


class ResultNotAllowed(NotAllowed):
    """A player reporting what only the opponent, an arbiter or the organiser may: a win for themselves
    (except where the players run their own games), or a forfeit."""

    slug = "result-not-allowed"


class NotAnArbiterHere(NotAllowed):
    """An arbiter acting where the organiser did not appoint them (another tournament, another game)."""

    slug = "not-an-arbiter-here"


class NotOrganiser(NotAllowed):
    """A decision about the game that only its organiser or an arbiter appointed for it may take."""

    slug = "not-organiser"


class OwnGame(NotAllowed):
    """The organiser or an arbiter deciding about a game they play themselves."""

    slug = "own-game"


class Conflict(ClocksError):
    slug = "conflict"


class PhaseNotStarted(Conflict):
    """A game of a group-playoff phase the organiser has not opened yet (4T1 §4(2)): its id is known
    ahead (``shared.group_playoff.planned_games``), the game is not created until the phase opens."""

    slug = "phase-not-started"


class BoardClock(Conflict):
    """A move reported for a game whose time the boards keep (over the board): the server runs no
    clock for it."""

    slug = "board-clock"


class PlayerMoved(Conflict):
    """An absence recorded for a player who has made a move on the server's clock: they were there."""

    slug = "player-moved"


class NotYourTurn(Conflict):
    slug = "not-your-turn"


class GameOver(Conflict):
    """The game is finished: no more moves, and a second result is refused (a correction is pairing's
    ``POST /games/{id}/correction``)."""

    slug = "game-finished"


class FlagFallen(GameOver):
    """The refusal of a move or result reported after the flag fell. The game itself returns the
    :class:`~services.clocks.domain.game.FlagFall` and is saved finished on time; only then is the
    report refused with this."""

    slug = "flag-fallen"


class DefaultTimePassed(GameOver):
    """The refusal of a report made after the default time passed with a player's first move not made
    (server clocks): the game was saved lost by that player, by forfeit, at the default time."""

    slug = "default-time-passed"


class GameNotStarted(Conflict):
    slug = "game-not-started"


class GameNotFinished(Conflict):
    """Only a finished game's result can be corrected."""

    slug = "game-not-finished"


class ResultDisputed(Conflict):
    """The players reported different results: the game waits for the arbiter."""

    slug = "result-disputed"


class GameUnderWay(Conflict):
    """Its colours cannot be swapped once a move was made."""

    slug = "game-under-way"


class GameAlreadyCancelled(Conflict):
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


class PlayerNotInGame(Invalid):
    """A penalty or an absence naming someone who does not play the game."""

    slug = "player-not-in-game"


class TimesRequired(Invalid):
    """Displaced pieces over the board without the remaining times the arbiter reads from the clock:
    whether the warning is skipped depends on them."""

    slug = "times-required"


class TimesFromTheClock(Invalid):
    """Remaining times stated for a game whose clock the server keeps: its clock says them."""

    slug = "times-from-the-clock"
