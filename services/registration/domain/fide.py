"""The settings of a `fide-rapid` event (RULES.md §1, §6; the FIDE rapid regulations): an over-the-board
Swiss (or a round robin for a small field) that its arbiters start and pair round by round.

* **Time control.** FIDE rapid (Laws of Chess, Appendix A.1): more than 10 and less than 60 minutes per
  player for the game, counting 60 moves: ``base + 60 × increment``. 15+10 is 25 minutes; 10+0 is blitz,
  60+0 and 50+10 are standard play: refused.
* **Rounds.** A Swiss has the organiser's number of rounds, 1–30. A round robin's follow from the field
  at the start (Berger tables: n − 1 rounds, n when n is odd), so it is not set; a round robin therefore
  holds at most 30 players (30 rounds).
* **Players at the start.** At least 2. A Swiss needs more players than rounds (every player a different
  opponent in every round): fewer is refused at the start, not found out when a round cannot be paired.
* Baku acceleration (C.04.7) is a Swiss setting; the clocks are kept by the boards (the default) or by the
  server; the default time is 0–60 minutes (10 by the regulations); a late entry's missed rounds are
  zero-point byes unless the organiser says half.
* For the report to FIDE (TRF headers 022, 032, 102, 112): the place, the organising federation (three
  letters), the chief arbiter and the deputies as the file writes them (``IA Hans Muster 1300001``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from services.registration.domain import errors
from shared.time_control import RateOfPlay

MAX_ROUNDS: Final = 30
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 1000
RAPID_MINUTES: Final = (10, 60)  # exclusive bounds of base + 60 × increment
MOVES_COUNTED: Final = 60
DEFAULT_TIME_MINUTES: Final = (0, 60)
MAX_PLACE: Final = 100
MAX_ARBITER: Final = 80  # a TRF 102/112 line's text
MAX_DEPUTIES: Final = 10


class PairingSystem(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class ClockKeeping(StrEnum):
    """Who keeps the time: the physical clocks at the boards, or the server (online rapid)."""

    BOARD = "board"
    SERVER = "server"


class LateEntryBye(StrEnum):
    """What a late entry scores for each round they missed (RULES.md §6: zero by default)."""

    ZERO = "zero"
    HALF = "half"


@dataclass(frozen=True)
class FideFormat:
    """The organiser's settings of a `fide-rapid` event. ``rounds`` is None for a round robin until the
    start fixes it from the field."""

    rounds: int | None = None
    system: PairingSystem = PairingSystem.SWISS
    place: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    acceleration: bool = False
    clocks: ClockKeeping = ClockKeeping.BOARD
    default_time_minutes: int = 10
    late_entry_bye: LateEntryBye = LateEntryBye.ZERO
    federation: str = ""  # the organising federation's FIDE code (TRF 032)
    chief_arbiter: str = ""  # as the TRF's 102 writes them: title, name, FIDE id
    deputy_arbiters: tuple[str, ...] = ()  # TRF 112, one each

    @property
    def swiss(self) -> bool:
        return self.system is PairingSystem.SWISS


def validate(fmt: FideFormat) -> FideFormat:
    """The format checked (InvalidSettings naming what is wrong), its place trimmed."""
    if fmt.swiss:
        if fmt.rounds is None:
            raise errors.InvalidSettings("a Swiss needs its number of rounds (fide.rounds, 1–30)")
        if not 1 <= fmt.rounds <= MAX_ROUNDS:
            raise errors.InvalidSettings(f"a Swiss has 1–{MAX_ROUNDS} rounds, got {fmt.rounds}")
    else:
        if fmt.rounds is not None:
            raise errors.InvalidSettings(
                "a round robin's rounds follow from the field at the start (n − 1, or n for an odd n):"
                " leave fide.rounds out"
            )
        if fmt.acceleration:
            raise errors.InvalidSettings("Baku acceleration is for a Swiss, not a round robin")
    low, high = DEFAULT_TIME_MINUTES
    if not low <= fmt.default_time_minutes <= high:
        raise errors.InvalidSettings(
            f"the default time is {low}–{high} minutes, got {fmt.default_time_minutes}"
        )
    place = fmt.place.strip()
    if len(place) > MAX_PLACE:
        raise errors.InvalidSettings(f"the place has at most {MAX_PLACE} characters")
    if fmt.end_date is not None:
        if fmt.start_date is None:
            raise errors.InvalidSettings("an end date needs its start date")
        if fmt.end_date < fmt.start_date:
            raise errors.InvalidSettings(
                f"the end date ({fmt.end_date}) is before the start date ({fmt.start_date})"
            )
    federation = fmt.federation.strip().upper()
    if federation and not (len(federation) == 3 and federation.isascii() and federation.isalpha()):
        raise errors.InvalidSettings(
            f"a federation is FIDE's three-letter code (e.g. SUI), got {fmt.federation!r}"
        )
    chief = " ".join(fmt.chief_arbiter.split())
    deputies = tuple(" ".join(d.split()) for d in fmt.deputy_arbiters if d.strip())
    if len(deputies) > MAX_DEPUTIES:
        raise errors.InvalidSettings(f"at most {MAX_DEPUTIES} deputy arbiters, got {len(deputies)}")
    if any(len(name) > MAX_ARBITER for name in (chief, *deputies)):
        raise errors.InvalidSettings(f"an arbiter's line has at most {MAX_ARBITER} characters")
    return dataclasses.replace(
        fmt, place=place, federation=federation, chief_arbiter=chief, deputy_arbiters=deputies
    )


def check_rapid(tc: RateOfPlay) -> None:
    """Refuse a time control that is not FIDE rapid (TimeNotRapid names the range)."""
    low, high = RAPID_MINUTES
    if tc.days_per_move is not None:
        raise errors.TimeNotRapid("a rapid game has no days per move (that is correspondence)")
    seconds = tc.base_seconds + MOVES_COUNTED * tc.increment_seconds
    if not low * 60 < seconds < high * 60:
        raise errors.TimeNotRapid(
            f"FIDE rapid is more than {low} and less than {high} minutes for {MOVES_COUNTED} moves"
            f" (base + {MOVES_COUNTED} × increment); {tc.label()} is {seconds / 60:g} minutes"
        )


def round_robin_rounds(players: int) -> int:
    """Berger tables: n − 1 rounds for an even n, n for an odd n (one player sits out each round)."""
    return players if players % 2 else players - 1


def check_field(fmt: FideFormat, players: int) -> int:
    """At the start: the number of rounds the field plays, or TooFewPlayers / TooManyPlayers."""
    if players < MIN_PLAYERS:
        raise errors.TooFewPlayers(
            f"a fide-rapid event needs at least {MIN_PLAYERS} players; {players} are confirmed"
        )
    if fmt.swiss:
        assert fmt.rounds is not None  # validate() refused a Swiss without its rounds
        if players < fmt.rounds + 1:
            raise errors.TooFewPlayers(
                f"a {fmt.rounds}-round Swiss needs at least {fmt.rounds + 1} players (a different"
                f" opponent in every round); {players} are confirmed: set fewer rounds or a round robin"
            )
        return fmt.rounds
    rounds = round_robin_rounds(players)
    if rounds > MAX_ROUNDS:
        raise errors.TooManyPlayers(
            f"a round robin of {players} players takes {rounds} rounds, more than {MAX_ROUNDS}: play a Swiss"
        )
    return rounds


def at_start(fmt: FideFormat, rounds: int, day: dt.date) -> FideFormat:
    """The format fixed at the start: its rounds, and the dates (the day it starts, when not set)."""
    start = fmt.start_date or day
    return dataclasses.replace(fmt, rounds=rounds, start_date=start, end_date=fmt.end_date or start)
