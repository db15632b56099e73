"""One paired round of a round robin or a Swiss as its results come in: the aggregate a result changes.

A result changes the round it belongs to and nothing else, unless it is the round's last: then the round
closes and the next one is due, or, after the last round, the tournament is over. So a result loads this
round (which of its games have a result) and what decides that (how many rounds the tournament has,
who organises it), not the history that pairing needs (:class:`~.tournament.PairingTournament`). Both
aggregates change only under the tournament's row lock.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

from services.pairing.domain import events
from services.pairing.domain.changes import Changing, Finished, OutcomeSet, RoundClosed
from services.pairing.domain.errors import RoundNotFound
from shared.aggregate import Aggregate
from shared.scoring import Outcome


@dataclass(eq=False)
class RoundResults(Aggregate, Changing):
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    number: int
    total_rounds: int
    outcomes: dict[uuid.UUID, Outcome | None] = field(default_factory=dict)
    """Every game of the round: its outcome, None while it is being played."""
    completed: bool = False
    ends_at: dt.datetime | None = None
    """A `platform` tournament's announced end (its start plus its duration): no round is paired after it
    (RULES.md §2 "Duration"); the round being played then completes the tournament."""
    on_command: bool = False
    """A `fide-rapid` event: its arbiters pair the next round when they are ready (no round falls due)."""

    def record_result(
        self,
        game_id: uuid.UUID,
        outcome: Outcome,
        *,
        finished_at: dt.datetime,
        now: dt.datetime,
        reason: str | None = None,
    ) -> bool:
        """Record a game's result; False if it had one already (the first one stands). The round's last
        result closes it: the next round is due (unless the arbiters pair on command), or the tournament
        is over."""
        if game_id not in self.outcomes:
            raise RoundNotFound(f"game {game_id} is not in tournament {self.tournament_id}")
        if self.outcomes[game_id] is not None:
            return False
        self.outcomes[game_id] = outcome
        self.change(OutcomeSet(game_id, outcome, finished_at, reason))
        if self.completed or any(o is None for o in self.outcomes.values()):
            return True
        self.completed = True
        self.change(RoundClosed(self.number, now))
        self.record(events.RoundCompleted(self.tournament_id, self.number))
        if self.number < self.total_rounds and (self.ends_at is None or now < self.ends_at):
            if not self.on_command:
                self.record(events.RoundBecameDue(self.tournament_id, self.number + 1))
        else:  # the last round, or the duration is over: no further round is paired
            self.change(Finished())
            self.record(events.TournamentCompleted(self.tournament_id, self.organiser_id, self.number, now))
        return True
