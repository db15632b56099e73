"""Commands: what the pairing service is asked to do (imperative). The consumed events become
commands in ``adapters/wire.py``; the HTTP API builds :class:`PublishRound`."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.pairing.domain.heading import Heading, Player
from shared.commands import Actor as Actor  # re-exported: every command names its actor
from shared.scoring import Outcome
from shared.time_control import TieBreakPlan
from shared.vocabulary import BracketFormat, Seeding


@dataclass(frozen=True)
class StartRounds:
    """Start a `platform` tournament: a round robin below the threshold, a Swiss at or above it."""

    heading: Heading
    players: tuple[Player, ...]
    threshold: int
    extra_round: bool = False
    double_rounds: bool = False

    @property
    def tournament_id(self) -> uuid.UUID:
        return self.heading.id


@dataclass(frozen=True)
class StartElimination:
    """Start a knockout or a double knockout, seeded as the roster is (RULES.md §4)."""

    heading: Heading
    players: tuple[Player, ...]
    format: BracketFormat
    games_per_match: int
    seeding: Seeding
    tiebreak_plan: TieBreakPlan
    draw_seed: int | None = None
    third_place: bool = False
    second_final: bool = True

    @property
    def tournament_id(self) -> uuid.UUID:
        return self.heading.id


StartTournament = StartRounds | StartElimination


@dataclass(frozen=True)
class PairRound:
    """Pair round ``number`` if it is due and not paired yet (a pairing worker's job)."""

    tournament_id: uuid.UUID
    number: int


@dataclass(frozen=True)
class RecordResult:
    """A game of round ``round`` ended (``game.finished``)."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    outcome: Outcome
    finished_at: dt.datetime


@dataclass(frozen=True)
class PublishRound:
    """Make a paired knockout round public (RULES.md §4): its pairings are shown and its games may start."""

    actor: Actor
    tournament_id: uuid.UUID
    number: int
