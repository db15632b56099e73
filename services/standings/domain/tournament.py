"""The standings service's view of a tournament, projected from events: what it is (name, ruleset,
system), who plays (seeds), and every round's games and byes with their results. Pure code.

**Legs.** With double rounds (RULES.md §2) each pairing is played twice inside the round, colours
swapped, and points count per game. The tie-break history knows rounds, not legs, so round *r*'s
leg 1 is history round 2r−1 and its leg 2 history round 2r; a bye scores in both (a pairing-allocated
bye is then worth two wins: 4 points on the platform).

**Publication.** A paired round is public only once published (RULES.md §4: knockout rounds are
seen by the organisers until they publish them). ``platform`` rounds are published when paired; an
unpublished round shows no games and counts nothing in the table.

**Tables.** The system chosen at the start (``round.paired``'s ``system``) decides the table:
``platform`` round robin and Swiss have one, by their presets (points, then WIN, DE, SNO with SB
shown; points, then BH-C1, SB, WIN with BH shown). The knockout rulesets are shown as a bracket
(``bracket.py``: matches, their games, who advances, the final placing) and have no table,
crosstable or TRF.

**Open games.** A paired game without a result is recorded as ``NOT_PLAYED`` (no points for
either side, not a voluntarily unplayed round: see docs/standings.md, Decision 5), so a table in
the middle of a round counts every result so far and nothing else.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final, Protocol

from services.standings.domain.bracket import BracketMatch, KnockoutFormat, Placing
from services.standings.domain.context import Rules, Value
from services.standings.domain.errors import (
    EventMismatch,
    GameNotFound,
    MatchNotFound,
    NotABracket,
    NotATable,
    RoundNotFound,
    UnsupportedRuleset,
)
from services.standings.domain.history import EventHistory, Player
from services.standings.domain.presets import Ruleset, preset
from services.standings.domain.ranking import Standings, Table
from shared.events import ByeKind
from shared.scoring import Outcome, Result
from shared.time_control import TimeControl

__all__ = [
    "BYE_RESULTS",
    "SYSTEM_NAMES",
    "TABLE_SYSTEMS",
    "Bye",
    "Competitor",
    "Game",
    "PairedRound",
    "RoundStatus",
    "TimeControl",
    "Tournament",
    "TournamentInfo",
    "is_bracket",
    "number",
    "published_on_pairing",
    "record_round",
    "snapshot_of",
]

TABLE_SYSTEMS = frozenset({"round_robin", "swiss"})
SYSTEM_NAMES: Final[Mapping[str, str]] = {
    "round_robin": "Round robin",
    "swiss": "Swiss",
    "knockout": "Knockout",
    "double_knockout": "Double knockout",
}
BRACKET_SYSTEMS = frozenset({"knockout", "double_knockout"})
BRACKET_RULESETS = frozenset({"knockout", "double-knockout"})  # RULES.md §4
_PRESETS = {("platform", "round_robin"): "platform-round-robin", ("platform", "swiss"): "platform-swiss"}

BYE_RESULTS: dict[ByeKind, Result] = {
    ByeKind.PAIRING_ALLOCATED: Result.PAIRING_BYE,
    ByeKind.FULL_POINT: Result.FULL_POINT_BYE,
    ByeKind.HALF_POINT: Result.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: Result.ZERO_POINT_BYE,
}


def published_on_pairing(ruleset: str) -> bool:
    """Whether a round of this ruleset is public as soon as it is paired (``platform``: yes;
    knockouts: only once the organisers publish it)."""
    return ruleset not in BRACKET_RULESETS


def is_bracket(ruleset: str, system: str | None) -> bool:
    """A knockout ruleset (known from the start), or a bracket system (named by the first pairing)."""
    return ruleset in BRACKET_RULESETS or system in BRACKET_SYSTEMS


def number(value: Value) -> int | float | None:
    """A tie-break value or points for JSON: integers stay integers."""
    if value is None or isinstance(value, int):
        return value
    return value.numerator if value.denominator == 1 else float(value)


@dataclass(frozen=True, slots=True)
class Competitor:
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None = None


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
    cancelled: bool = False  # its match was decided without it


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    seed: int
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


class RoundStatus(StrEnum):
    UNPUBLISHED = "unpublished"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(slots=True)
class PairedRound:
    number: int
    games: list[Game]
    byes: list[Bye] = field(default_factory=list)
    published: bool = True
    matches: list[BracketMatch] = field(default_factory=list)  # knockouts

    @property
    def live_games(self) -> list[Game]:
        """The games to be played: not the ones a decided knockout match no longer needed."""
        return [g for g in self.games if not g.cancelled]

    @property
    def finished_games(self) -> int:
        return sum(1 for g in self.live_games if g.outcome is not None)

    @property
    def status(self) -> RoundStatus:
        """A knockout round is finished when every match is decided (a level match goes on with its
        tie-break games); any other when every game has its result."""
        if not self.published:
            return RoundStatus.UNPUBLISHED
        if self.matches:
            finished = all(m.decided for m in self.matches)
        else:
            finished = self.finished_games == len(self.live_games)
        return RoundStatus.FINISHED if finished else RoundStatus.PLAYING


@dataclass(slots=True)
class TournamentInfo:
    """What a tournament is; ``system`` and ``total_rounds`` come with its first pairing."""

    id: uuid.UUID
    name: str
    ruleset: str
    started_at: dt.datetime
    time_control: TimeControl
    variant: str = "chess"
    double_rounds: bool = False
    system: str | None = None
    total_rounds: int | None = None
    completed_at: dt.datetime | None = None
    knockout: KnockoutFormat | None = None  # the knockout rulesets' format settings

    @property
    def legs(self) -> int:
        return 2 if self.double_rounds else 1

    @property
    def is_bracket(self) -> bool:
        return is_bracket(self.ruleset, self.system)

    @property
    def has_table(self) -> bool:
        """False for a bracket; otherwise True, before the first pairing names the system too."""
        return not self.is_bracket and (self.system is None or self.system in TABLE_SYSTEMS)

    def check_bracket(self) -> None:
        if not self.is_bracket:
            raise NotABracket(f"a {self.system or self.ruleset} tournament has a table, not a bracket")

    def ruleset_or_none(self) -> Ruleset | None:
        """The preset that ranks this tournament's table; None for a bracket, a ruleset without
        table rules here, or before the first pairing names the system."""
        name = _PRESETS.get((self.ruleset, self.system or ""))
        return preset(name) if name else None

    def check_table(self) -> None:
        """Raise NotATable for a bracket, UnsupportedRuleset for a table this service cannot rank."""
        if not self.has_table:
            raise NotATable(
                f"a {self.system} tournament is shown as a bracket: it has no table, crosstable or TRF"
            )
        if self.system is not None and self.ruleset_or_none() is None:
            raise UnsupportedRuleset(f"no table rules for the {self.ruleset!r} ruleset ({self.system})")

    def bye_points(self, ruleset: Ruleset) -> dict[ByeKind, Fraction]:
        """What each kind of bye scores over a whole round (both legs with double rounds)."""
        ps = ruleset.point_system
        return {kind: ps.points(result) * self.legs for kind, result in BYE_RESULTS.items()}

    def rules(self, ruleset: Ruleset) -> Rules:
        """C.07's edition by the start date (docs/standings.md), with the ruleset's bye handling."""
        start = self.started_at.date()
        return ruleset.rules(start, start)

    def history_round(self, round_no: int, leg: int) -> int:
        return (round_no - 1) * self.legs + leg


@dataclass(slots=True)
class Tournament:
    info: TournamentInfo
    players: list[Competitor]  # by seed
    rounds: dict[int, PairedRound] = field(default_factory=dict)
    placing: list[Placing] | None = None  # a knockout's, once it is completed
    _games: dict[uuid.UUID, Game] = field(default_factory=dict, init=False, repr=False)
    _seeds: dict[uuid.UUID, int] = field(default_factory=dict, init=False, repr=False)
    _by_seed: dict[int, Competitor] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._seeds = {p.player_id: p.seed for p in self.players}
        self._by_seed = {p.seed: p for p in self.players}
        self._games = {g.game_id: g for r in self.rounds.values() for g in r.games}

    @property
    def id(self) -> uuid.UUID:
        return self.info.id

    # -- reading -------------------------------------------------------------------------------

    def seed_of(self, player_id: uuid.UUID) -> int:
        try:
            return self._seeds[player_id]
        except KeyError:
            raise EventMismatch(f"player {player_id} is not in tournament {self.id}") from None

    def player(self, seed: int) -> Competitor:
        return self._by_seed[seed]

    def round(self, number: int) -> PairedRound:
        found = self.rounds.get(number)
        if found is None:
            raise RoundNotFound(f"round {number} of tournament {self.id} is not paired")
        return found

    def published_rounds(self) -> Iterator[PairedRound]:
        return (self.rounds[n] for n in sorted(self.rounds) if self.rounds[n].published)

    def after_round(self) -> int:
        """The last round whose every game has a result (0 before that)."""
        done = 0
        for rnd in self.published_rounds():
            if rnd.status is not RoundStatus.FINISHED:
                break
            done = rnd.number
        return done

    def games_counted(self) -> int:
        return sum(r.finished_games for r in self.published_rounds())

    def history(self, ruleset: Ruleset) -> EventHistory:
        """The tie-break history of the published rounds (legs as rounds, open games NOT_PLAYED)."""
        history = EventHistory.create(
            (Player(p.seed, p.name, p.rating) for p in self.players),
            point_system=ruleset.point_system,
            pre_determined=ruleset.pre_determined,
        )
        for rnd in self.published_rounds():
            record_round(self.info, rnd, history)
        return history

    def standings(self) -> Standings | None:
        """A table computed from scratch, or None while there is none to compute (bracket, an
        unsupported ruleset, or nothing paired yet)."""
        ruleset = self.info.ruleset_or_none()
        if ruleset is None:
            return None
        return Standings(
            self.history(ruleset), ruleset.tiebreaks, self.info.rules(ruleset), shown=ruleset.shown
        )

    # -- changing ------------------------------------------------------------------------------

    def add_round(self, rnd: PairedRound, *, system: str, total_rounds: int) -> None:
        """Record a paired round; the first one names the system."""
        if rnd.number in self.rounds:
            raise EventMismatch(f"round {rnd.number} of tournament {self.id} is paired already")
        if self.info.system is None:
            self.info.system = system
        self.info.total_rounds = total_rounds
        self.rounds[rnd.number] = rnd
        for game in rnd.games:
            self._games[game.game_id] = game

    def game(self, game_id: uuid.UUID) -> Game:
        found = self._games.get(game_id)
        if found is None:
            raise GameNotFound(f"game {game_id} is not in tournament {self.id}")
        return found

    def record_result(
        self, game_id: uuid.UUID, outcome: Outcome, reason: str, finished_at: dt.datetime
    ) -> Game | None:
        """Record a game's result; None when it had one already (the first result stands)."""
        game = self.game(game_id)
        if game.outcome is not None:
            return None
        game.outcome, game.reason, game.finished_at = outcome, reason, finished_at
        return game

    # -- knockouts -------------------------------------------------------------------------------

    def extend_round(
        self, number: int, games: list[Game], matches: list[BracketMatch]
    ) -> tuple[list[Game], list[BracketMatch]]:
        """A knockout round announced again (a level match's tie-break games): add the games and
        matches not known yet, and return them."""
        rnd = self.round(number)
        known_matches = {m.match_id for m in rnd.matches}
        new_games = [g for g in games if g.game_id not in self._games]
        new_matches = [m for m in matches if m.match_id not in known_matches]
        rnd.games.extend(new_games)
        rnd.matches.extend(new_matches)
        for game in new_games:
            self._games[game.game_id] = game
        return new_games, new_matches

    def publish(self, number: int) -> bool:
        """Make a round public; False if it was already."""
        rnd = self.round(number)
        if rnd.published:
            return False
        rnd.published = True
        return True

    def match(self, match_id: str) -> BracketMatch:
        for rnd in self.rounds.values():
            for m in rnd.matches:
                if m.match_id == match_id:
                    return m
        raise MatchNotFound(f"match {match_id} is not paired in tournament {self.id}")

    def decide(self, match_id: str, winner: uuid.UUID, how: str, at: dt.datetime) -> BracketMatch | None:
        """A match's winner; None if it had one already."""
        match = self.match(match_id)
        seed = self.seed_of(winner)
        if seed not in match.players:
            raise EventMismatch(f"{winner} does not play in match {match_id}")
        if match.winner is not None:
            return None
        match.winner, match.how, match.decided_at = seed, how, at
        return match

    def cancel(self, game_id: uuid.UUID) -> Game | None:
        """A game its match no longer needed; None if it was cancelled already."""
        game = self.game(game_id)
        if game.cancelled:
            return None
        game.cancelled = True
        return game


class Recorder(Protocol):
    """Where a round's games and byes go: an :class:`EventHistory`, or the incremental
    :class:`Standings` that keeps one."""

    def record_game(self, round_no: int, white: int, black: int, outcome: Outcome) -> Any: ...
    def record_bye(self, round_no: int, start: int, result: Result) -> Any: ...


def record_round(info: TournamentInfo, rnd: PairedRound, recorder: Recorder) -> None:
    """Record a round in the tie-break history: each leg as a round, an open game as NOT_PLAYED,
    a bye in every leg."""
    for game in rnd.games:
        recorder.record_game(
            info.history_round(rnd.number, game.leg),
            game.white,
            game.black,
            game.outcome or Outcome.NOT_PLAYED,
        )
    for bye in rnd.byes:
        for leg in range(1, info.legs + 1):
            recorder.record_bye(info.history_round(rnd.number, leg), bye.seed, BYE_RESULTS[bye.kind])


def snapshot_of(tournament: Tournament, table: Table | None) -> dict[str, Any]:
    """What the web shows, as JSON: progress, each round's status, and the table (None when the
    tournament has none). Written by the consumer after every change; read as it is by the web.

    ``{"after_round", "games_counted", "rounds": [{"number", "status", "games", "finished"}],
    "table": {"edition", "tiebreaks": [codes], "shown": [codes], "rows": [{"rank", "place",
    "seed", "player_id", "name", "rating", "points", "tiebreaks": {code: value}, "shown": {...}}]}}``
    """
    rounds = [
        {
            "number": r.number,
            "status": r.status.value,
            "games": len(r.live_games),
            "finished": r.finished_games,
        }
        for r in (tournament.rounds[n] for n in sorted(tournament.rounds))
    ]
    out: dict[str, Any] = {
        "after_round": tournament.after_round(),
        "games_counted": tournament.games_counted(),
        "rounds": rounds,
        "table": None,
    }
    if table is None:
        return out
    rows = []
    for row in table.rows:
        p = tournament.player(row.start)
        rows.append(
            {
                "rank": row.rank,
                "place": row.place,
                "seed": p.seed,
                "player_id": str(p.player_id),
                "name": p.name,
                "rating": p.rating,
                "points": number(row.points),
                "tiebreaks": {code: number(v) for code, v in row.tiebreaks.items()},
                "shown": {code: number(v) for code, v in row.shown.items()},
            }
        )
    out["table"] = {
        "edition": table.edition.value,
        "tiebreaks": [tb.code for tb in table.tiebreaks],
        "shown": [tb.code for tb in table.shown],
        "rows": rows,
    }
    return out
