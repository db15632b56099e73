"""Errors of the standings service, each with a stable slug (the problem type of its HTTP answer)."""

from __future__ import annotations


class StandingsError(Exception):
    slug = "standings-error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(StandingsError):
    slug = "not-found"


class TournamentNotFound(NotFound):
    slug = "tournament-not-found"


class RoundNotFound(NotFound):
    slug = "round-not-found"


class PlayerNotFound(NotFound):
    slug = "player-not-found"


class GameNotFound(NotFound):
    slug = "game-not-found"


class MatchNotFound(NotFound):
    slug = "match-not-found"


class Conflict(StandingsError):
    slug = "conflict"


class NotATable(Conflict):
    """The tournament's system has no table, crosstable or TRF (knockouts are shown as brackets)."""

    slug = "not-a-table"


class NotABracket(Conflict):
    """The tournament has a table; only the knockout rulesets have a bracket."""

    slug = "not-a-bracket"


class UnsupportedRuleset(Conflict):
    """A table system under a ruleset whose table rules are not implemented here."""

    slug = "unsupported-ruleset"


class EventMismatch(StandingsError):
    """An event contradicts what was recorded (a result naming other players than the pairing)."""

    slug = "event-mismatch"


class TournamentExists(Conflict):
    """The tournament is recorded already (its start was recorded twice at the same time)."""

    slug = "tournament-exists"


class Outstanding(StandingsError):
    """What the event follows is not recorded yet: it is on its way (the consumer tries again later)."""

    slug = "outstanding"


class ResultsOutstanding(Outstanding):
    """A completion arrived before the last results (or a knockout's last cancellations), or a
    correction before the result it corrects: they are on their way."""

    slug = "results-outstanding"


class ChangeOutstanding(Outstanding):
    """The event follows a change not recorded yet: an earlier correction, a colour swap, a reset."""

    slug = "change-outstanding"


class PlayerOutstanding(Outstanding):
    """A `fide-rapid` round names a player the standings do not know yet: the late entry's
    ``player.joined`` is on its way."""

    slug = "player-outstanding"
