"""What a paired round is to the standings: its games (by seed) with their results, its byes, its
knockout matches, and whether it is public yet. Pure code.

**Legs.** With double rounds (RULES.md §2) each pairing is played twice inside the round, colours
swapped, and points count per game. The tie-break history knows rounds, not legs, so round *r*'s
leg 1 is history round 2r−1 and its leg 2 history round 2r; a bye scores in both (a pairing-allocated
bye is then worth two wins: 4 points on the platform).

**Open games.** A paired game without a result is recorded as ``NOT_PLAYED`` (no points for
either side, not a voluntarily unplayed round: see docs/standings.md, Decision 5), so a table in
the middle of a round counts every result so far and nothing else.

**Corrections.** An arbiter or the organiser may correct a finished game's result
(``game.result_corrected``): the game keeps every correction (old and new outcome, reason, who and
when), its ``outcome`` is the latest, and the pages mark it as corrected.

**Rated.** A knockout's tie-break and sudden-death games are not rated (RULES.md §4): the game says
so, the pages mark it, nothing is scored differently.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from services.standings.domain.bracket import BracketMatch
from shared.authority import Role
from shared.scoring import Outcome, Result
from shared.vocabulary import ByeKind

__all__ = [
    "BYE_RESULTS",
    "Competitor",
    "Correction",
    "Game",
    "Incident",
    "PairedRound",
    "Profile",
    "Recorder",
    "RoundBye",
    "RoundProgress",
    "RoundStatus",
    "history_round",
    "record_byes",
    "record_round",
]

BYE_RESULTS: dict[ByeKind, Result] = {
    ByeKind.PAIRING_ALLOCATED: Result.PAIRING_BYE,
    ByeKind.FULL_POINT: Result.FULL_POINT_BYE,
    ByeKind.HALF_POINT: Result.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: Result.ZERO_POINT_BYE,
}


@dataclass(frozen=True, slots=True)
class Profile:
    """What a `fide-rapid` roster says of a person (registration's ``PlayerProfile``): shown on the
    pages, written to the TRF and the CSV. Every field may be unknown."""

    fide_id: int | None = None
    federation: str | None = None  # FIDE code, e.g. SUI
    title: str | None = None  # GM, IM, WGM, FM, WIM, CM, WFM, WCM
    sex: str | None = None  # m, w
    birth_year: int | None = None
    rating_standard: int | None = None
    rating_rapid: int | None = None


@dataclass(frozen=True, slots=True)
class Competitor:
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None = None
    profile: Profile | None = None
    from_round: int | None = None  # a late entry (fide-rapid): the first round they could be paired in


@dataclass(frozen=True, slots=True)
class Incident:
    """A penalty an arbiter gave in a game (``game.penalised``, RULES.md §6): an illegal move or
    displaced pieces, the how-many-th, and what followed (a warning, an extra minute for the
    opponent, the loss of the game), with who decided, when and why."""

    player: int  # the penalised player's seed
    kind: str  # illegal_move, displaced_pieces
    occurrence: int
    consequence: str  # warning, extra_minute, loss
    reason: str | None
    role: Role | None
    by: uuid.UUID | None
    at: dt.datetime


@dataclass(frozen=True, slots=True)
class Correction:
    """A finished game's result corrected by an arbiter or the organiser."""

    old_outcome: Outcome
    outcome: Outcome
    reason: str | None
    role: Role | None  # in what capacity it was decided
    by: uuid.UUID | None  # the account that decided
    at: dt.datetime


@dataclass(slots=True)
class Game:
    game_id: uuid.UUID
    round: int
    board: int
    white: int  # seed
    black: int  # seed
    leg: int = 1
    outcome: Outcome | None = None
    reason: str | None = None
    finished_at: dt.datetime | None = None
    match_id: str | None = None  # knockouts: the match, the game's number and name in it
    number: int | None = None
    label: str | None = None
    cancelled_at: dt.datetime | None = None  # its match was decided without it
    rated: bool = True  # False: a knockout's tie-break or sudden-death game
    corrections: list[Correction] = field(default_factory=list)  # in the order they were made
    opening: str | None = None  # the drawn opening's label (table code or moves); None: free
    incidents: list[Incident] = field(default_factory=list)  # penalties, in the order they were given

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def corrected(self) -> bool:
        return bool(self.corrections)

    @property
    def correction(self) -> Correction | None:
        """The latest correction, if any (``outcome`` is its new outcome)."""
        return self.corrections[-1] if self.corrections else None


@dataclass(frozen=True, slots=True)
class RoundBye:
    round: int
    seed: int
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED
    late: bool = False  # a late entry's missed round (fide-rapid), scored as the settings say


class RoundStatus(StrEnum):
    UNPUBLISHED = "unpublished"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class RoundProgress:
    number: int
    status: RoundStatus
    games: int  # to be played (a knockout's games no longer needed left out)
    finished: int


@dataclass(slots=True)
class PairedRound:
    number: int
    games: list[Game]
    byes: list[RoundBye] = field(default_factory=list)
    published: bool = True
    matches: list[BracketMatch] = field(default_factory=list)  # knockouts
    paired_at: dt.datetime | None = None

    @property
    def live_games(self) -> list[Game]:
        """The games to be played: not the ones a decided knockout match no longer needed."""
        return [g for g in self.games if not g.cancelled]

    @property
    def status(self) -> RoundStatus:
        return self.progress().status

    def progress(self) -> RoundProgress:
        """How far the round has come. A knockout round is finished when every match is decided (a
        level match goes on with its tie-break games); any other when every game has its result."""
        live = self.live_games
        finished = sum(1 for g in live if g.outcome is not None)
        if not self.published:
            status = RoundStatus.UNPUBLISHED
        elif all(m.decided for m in self.matches) if self.matches else finished == len(live):
            status = RoundStatus.FINISHED
        else:
            status = RoundStatus.PLAYING
        return RoundProgress(self.number, status, len(live), finished)


def history_round(round_no: int, leg: int, legs: int) -> int:
    """The tie-break history's round of a game: each leg is a round of its own."""
    return (round_no - 1) * legs + leg


class Recorder(Protocol):
    """Where a round's games and byes go: an :class:`~services.standings.domain.history.EventHistory`,
    or the incremental :class:`~services.standings.domain.ranking.Standings` that keeps one."""

    def record_game(self, round_no: int, white: int, black: int, outcome: Outcome) -> Any: ...
    def record_bye(self, round_no: int, start: int, result: Result) -> Any: ...


def record_round(rnd: PairedRound, recorder: Recorder, legs: int) -> None:
    """Record a round in the tie-break history: each leg as a round, an open game as NOT_PLAYED; its
    byes once the round is finished (:func:`record_byes`)."""
    for game in rnd.games:
        recorder.record_game(
            history_round(rnd.number, game.leg, legs),
            game.white,
            game.black,
            game.outcome or Outcome.NOT_PLAYED,
        )
    if rnd.progress().status is RoundStatus.FINISHED:
        record_byes(rnd, recorder, legs)


def record_byes(rnd: PairedRound, recorder: Recorder, legs: int) -> None:
    """A round's byes, in every leg. They count when their round is finished, not when it is paired:
    the table after round N counts the games of round N+1 as their results come, and its byes with
    the round's last result (the round's page shows them from the pairing on)."""
    for bye in rnd.byes:
        for leg in range(1, legs + 1):
            recorder.record_bye(history_round(rnd.number, leg, legs), bye.seed, BYE_RESULTS[bye.kind])
