"""How a knockout match is played and decided (RULES.md §4, "Results", "Tie-breaks and sudden death").

A match is between the players in its two bracket slots, 0 and 1. It has

* **regular games**: 1, 2, 4 or 6, colours alternating; the colours of the first game are drawn when the
  round is paired (``first_white`` is the slot with White in game 1);
* then, while it is level, the **tie-break stages** of the plan in order (up to five, each of 1 or 2 games
  with its own time control): a stage's first game has the colours of the first regular game, its second
  game the reverse; every stage is scored on its own, and a level stage opens the next;
* then one **sudden-death game** with the colours of the first regular game: a win takes the match, a
  draw sends Black through.

A part of the match (the regular games, a stage) ends as soon as one player cannot be caught: their lead
is larger than the games left in it; those games are no longer needed. Game points are 1 / ½ / 0; a
forfeit win counts as a win, a double forfeit scores nothing for either side. **Decision:** a
sudden-death game that nobody wins — a draw, or a double forfeit — sends Black through.

Everything here is derived from the games paired so far and their outcomes, whatever order the results
came in: :func:`progress` says whether the match is decided (and how), which games are no longer needed,
and which games to pair next. The service stores the games; nothing else is kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Final

from shared.scoring import FIDE, Outcome
from shared.time_control import DEFAULT_PLAN, RateOfPlay, Stage, TieBreakSchedule
from shared.vocabulary import DecidedIn

REGULAR_GAMES: Final = (1, 2, 4, 6)
MAX_STAGES: Final = 5


class MatchPlayError(ValueError):
    """A match format that cannot be played, or games that do not belong to it."""


@dataclass(frozen=True)
class MatchFormat:
    """Regular games per match, their time control, and the tie-break plan."""

    games: int
    time_control: RateOfPlay
    plan: TieBreakSchedule = DEFAULT_PLAN

    def __post_init__(self) -> None:
        if self.games not in REGULAR_GAMES:
            raise MatchPlayError(f"a match has 1, 2, 4 or 6 regular games, not {self.games}")
        if len(self.plan.stages) > MAX_STAGES:
            raise MatchPlayError(f"a tie-break plan has at most {MAX_STAGES} stages")
        if any(stage.games not in (1, 2) for stage in self.plan.stages):
            raise MatchPlayError("each tie-break stage has 1 or 2 games")

    @property
    def sudden_death_stage(self) -> int:
        return len(self.plan.stages) + 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchFormat:
        plan = data["plan"]
        return cls(
            data["games"],
            RateOfPlay(**data["time_control"]),
            TieBreakSchedule(
                tuple(Stage(s["games"], RateOfPlay(**s["time_control"])) for s in plan["stages"]),
                RateOfPlay(**plan["sudden_death"]),
            ),
        )


GameKind = DecidedIn
"""The part of its match a game is played in: the regular games, a tie-break stage, or the sudden-death
game, the three parts a match can be decided in (``Progress.how``)."""


@dataclass(frozen=True)
class PlannedGame:
    """One game of a match. ``stage`` 0 is the regular games, 1 … the tie-break stages, and the
    plan's stage count + 1 the sudden-death game. ``white`` is the slot (0 or 1) with White."""

    number: int
    kind: GameKind
    stage: int
    white: int
    time_control: RateOfPlay
    label: str


@dataclass(frozen=True)
class Progress:
    """Where a match stands. ``winner`` is a slot (0 or 1), None while undecided; ``not_needed``
    the numbers of unplayed games the match no longer needs; ``to_pair`` the games to add now."""

    winner: int | None = None
    how: DecidedIn | None = None
    not_needed: tuple[int, ...] = ()
    to_pair: tuple[PlannedGame, ...] = ()

    @property
    def decided(self) -> bool:
        return self.winner is not None


def regular_games(fmt: MatchFormat, first_white: int) -> tuple[PlannedGame, ...]:
    """The games paired with the match: colours alternate from the drawn first game."""
    _check_slot(first_white)
    return tuple(
        PlannedGame(
            n,
            GameKind.REGULAR,
            0,
            first_white if n % 2 else 1 - first_white,
            fmt.time_control,
            f"Game {n}" if fmt.games > 1 else "Game",
        )
        for n in range(1, fmt.games + 1)
    )


def stage_games(fmt: MatchFormat, first_white: int, stage: int, first_number: int) -> tuple[PlannedGame, ...]:
    """The games of tie-break stage ``stage`` (1-based), or the sudden-death game after the last."""
    _check_slot(first_white)
    if stage == fmt.sudden_death_stage:
        tc = fmt.plan.sudden_death
        return (
            PlannedGame(
                first_number, GameKind.SUDDEN_DEATH, stage, first_white, tc, f"Sudden death ({tc.label()})"
            ),
        )
    if not 1 <= stage <= len(fmt.plan.stages):
        raise MatchPlayError(f"this plan has tie-break stages 1 to {len(fmt.plan.stages)}, not {stage}")
    spec = fmt.plan.stages[stage - 1]
    label = f"Tie-break {stage} ({spec.time_control.label()})"
    if spec.games == 1:
        return (PlannedGame(first_number, GameKind.TIEBREAK, stage, first_white, spec.time_control, label),)
    return tuple(
        PlannedGame(
            first_number + i,
            GameKind.TIEBREAK,
            stage,
            first_white if i == 0 else 1 - first_white,
            spec.time_control,
            f"{label}, game {i + 1}",
        )
        for i in range(2)
    )


def points(outcome: Outcome, white: int) -> tuple[Fraction, Fraction]:
    """Game points of slots 0 and 1: 1 / ½ / 0, a forfeit win as a win, a double forfeit nothing."""
    white_points, black_points = FIDE.game_points(outcome)
    return (white_points, black_points) if white == 0 else (black_points, white_points)


def progress(
    fmt: MatchFormat, first_white: int, games: Sequence[tuple[PlannedGame, Outcome | None]]
) -> Progress:
    """Decide the match from its games so far (each with its outcome, None while unplayed)."""
    _check_slot(first_white)
    by_stage: dict[int, list[tuple[PlannedGame, Outcome | None]]] = {}
    for game, outcome in games:
        by_stage.setdefault(game.stage, []).append((game, outcome))
    if not by_stage.get(0):
        raise MatchPlayError("a match starts with its regular games")
    next_number = max(g.number for g, _ in games) + 1
    for stage in range(0, fmt.sudden_death_stage + 1):
        played = by_stage.get(stage)
        if not played:
            return Progress(to_pair=stage_games(fmt, first_white, stage, next_number))
        if stage == fmt.sudden_death_stage:
            return _sudden_death(played[0])
        score = [Fraction(0), Fraction(0)]
        left = 0
        for game, outcome in played:
            if outcome is None:
                left += 1
                continue
            a, b = points(outcome, game.white)
            score[0] += a
            score[1] += b
        lead = abs(score[0] - score[1])
        if lead > left:
            winner = 0 if score[0] > score[1] else 1
            how = DecidedIn.REGULAR if stage == 0 else DecidedIn.TIEBREAK
            return Progress(winner, how, tuple(g.number for g, o in played if o is None))
        if left:
            return Progress()
    raise AssertionError("unreachable: the sudden-death stage always returns")


def _sudden_death(entry: tuple[PlannedGame, Outcome | None]) -> Progress:
    game, outcome = entry
    if outcome is None:
        return Progress()
    white_points, _ = FIDE.game_points(outcome)
    return Progress(game.white if white_points == 1 else 1 - game.white, DecidedIn.SUDDEN_DEATH)


def _check_slot(slot: int) -> None:
    if slot not in (0, 1):
        raise MatchPlayError(f"a slot is 0 or 1, not {slot}")
