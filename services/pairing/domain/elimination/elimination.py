"""A knockout or double-knockout event as the pairing service runs it (RULES.md §4): the bracket engine
(``knockout.py``, ``double_knockout.py``) for who meets whom, and for each match its games
(``match_play.py``). Pure: the service stores the matches, their games and the engine's state, and
turns what this returns into events.

Rounds. The service pairs rounds 1, 2, …; round k + 1 once every match of round k is decided.

* **Knockout:** round k is winners round k; the third-place match is paired with the final. Matches whose
  two players both came through byes can be ready before their round (docs/pairing.md): they wait for it.
* **Double knockout:** round k + 1 holds every match of both brackets whose two players are known — the
  engine's ``ready_matches()``, as the bracket docs recommend.

Byes (a top seed's empty slot in winners round 1) are no games: they are reported with round 1. A match is
decided by :func:`match_play.progress`; its winner is then recorded in the engine, which places them in
their next match. Game ids are derived from the tournament, the match and the game's number, so a
re-paired round names the same games.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from services.pairing.domain.elimination.bracket import (
    Bracket,
    BracketError,
    Match,
    MatchId,
    MatchStatus,
    Placing,
    better_seed,
)
from services.pairing.domain.elimination.double_knockout import DoubleKnockout
from services.pairing.domain.elimination.knockout import Knockout
from services.pairing.domain.elimination.match_play import (
    MatchFormat,
    PlannedGame,
    progress,
    regular_games,
)
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.errors import RoundNotDue
from shared.scoring import Outcome
from shared.vocabulary import BracketFormat, Decision, Section

GAME_NAMESPACE: Final = uuid.UUID("8f5d2c1e-3b6a-4e7f-9a0b-1c2d3e4f5a6b")
FORMATS: Final[Mapping[BracketFormat, type[Knockout] | type[DoubleKnockout]]] = {
    Knockout.format: Knockout,
    DoubleKnockout.format: DoubleKnockout,
}


def new_bracket(
    fmt: BracketFormat, players: int, *, third_place: bool = False, second_final: bool = True
) -> Bracket:
    """An empty bracket of the format (``knockout`` or ``double_knockout``)."""
    if fmt == Knockout.format:
        return Knockout(players, third_place=third_place)
    if fmt == DoubleKnockout.format:
        return DoubleKnockout(players, second_final=second_final)
    raise BracketError(f"not a bracket format: {fmt!r} (knockout or double_knockout)")


def bracket_from_dict(data: Mapping[str, Any]) -> Bracket:
    try:
        cls = FORMATS[BracketFormat(str(data.get("format")))]
    except ValueError:
        raise BracketError(f"not a bracket state: format {data.get('format')!r}") from None
    return cls.from_dict(data)


@dataclass
class MatchGame:
    game_id: uuid.UUID
    planned: PlannedGame
    outcome: Outcome | None = None
    cancelled: bool = False


@dataclass
class PairedMatch:
    """A match as paired: its service round and board, the seeds in its two slots, which slot had
    White in game 1 (drawn), its games, and how it was decided (once it is)."""

    id: MatchId
    round: int
    board: int
    players: tuple[int, int]
    first_white: int
    games: list[MatchGame] = field(default_factory=list)
    how: Decision | None = None

    def seed(self, slot: int) -> int:
        return self.players[slot]

    def white(self, game: MatchGame) -> int:
        return self.players[game.planned.white]

    def black(self, game: MatchGame) -> int:
        return self.players[1 - game.planned.white]

    @property
    def decided(self) -> bool:
        return self.how is not None


@dataclass(frozen=True)
class Recorded:
    """What a game's result changed: games added to the match (the next tie-break stage), or the match
    decided (its winner's seed, and the games it no longer needs)."""

    match: PairedMatch
    added: tuple[MatchGame, ...] = ()
    winner: int | None = None
    cancelled: tuple[MatchGame, ...] = ()


@dataclass
class Elimination:
    id: uuid.UUID
    match_format: MatchFormat
    bracket: Bracket
    seeding: SeedList
    matches: dict[MatchId, PairedMatch] = field(default_factory=dict)

    @property
    def format(self) -> BracketFormat:
        return self.bracket.format

    # -- rounds ------------------------------------------------------------------------------------
    @property
    def paired_rounds(self) -> int:
        return max((m.round for m in self.matches.values()), default=0)

    def round_matches(self, number: int) -> list[PairedMatch]:
        return sorted((m for m in self.matches.values() if m.round == number), key=lambda m: m.board)

    def round_decided(self, number: int) -> bool:
        matches = self.round_matches(number)
        return bool(matches) and all(m.decided for m in matches)

    def next_round_number(self) -> int | None:
        """The round to pair now, or None (a round is still being played, or the bracket is finished)."""
        current = self.paired_rounds
        if self.bracket.is_finished() or (current and not self.round_decided(current)):
            return None
        return current + 1

    def rounds_total(self) -> int:
        """Rounds of the whole event: a knockout's winners rounds; a double knockout's waves of ready
        matches (they do not depend on who wins), one more once the second final is needed."""
        if isinstance(self.bracket, Knockout):
            return self.bracket.round_count
        assert isinstance(self.bracket, DoubleKnockout)
        total = _double_knockout_waves(self.bracket.players, self.bracket.second_final)
        if self.bracket.second_final:
            reset = self.bracket.match(MatchId(Section.GRAND_FINAL, 2, 1))
            if reset.status in (MatchStatus.READY, MatchStatus.DECIDED):
                total += 1
        return total

    def to_pair(self, number: int) -> tuple[Match, ...]:
        """The engine's matches that make round ``number``."""
        ready = self.bracket.ready_matches()
        if isinstance(self.bracket, Knockout):
            final = self.bracket.round_count
            return tuple(
                m
                for m in ready
                if (m.id.section is Section.WINNERS and m.id.round == number)
                or (m.id.section is Section.THIRD_PLACE and number == final)
            )
        return ready

    def pair_round(self, number: int, draw_white: Callable[[], int]) -> list[PairedMatch]:
        """Pair round ``number``: every match of it, with its regular games; ``draw_white`` draws the
        slot (0 or 1) with White in each match's first game."""
        due = self.next_round_number()
        if number != due:
            raise RoundNotDue(f"round {number} cannot be paired now (next: {due})")
        engine_matches = self.to_pair(number)
        if not engine_matches:
            raise RoundNotDue(f"no match of round {number} has both players yet")
        paired: list[PairedMatch] = []
        for board, m in enumerate(engine_matches, start=1):
            a, b = m.players
            assert a is not None and b is not None  # ready
            first_white = draw_white()
            match = PairedMatch(m.id, number, board, (a, b), first_white)
            match.games = [self._game(m.id, g) for g in regular_games(self.match_format, first_white)]
            self.matches[m.id] = match
            paired.append(match)
        return paired

    def byes(self, number: int) -> list[int]:
        """Seeds that advance without a game: the top seeds' empty slots, reported with round 1."""
        if number != 1:
            return []
        first = self.bracket.rounds(Section.WINNERS)[0]
        return [m.winner for m in first if m.status is MatchStatus.WALKOVER and m.winner is not None]

    def walkovers(self, number: int) -> list[Match]:
        """Round 1's bye matches (one slot empty), in bracket order."""
        if number != 1:
            return []
        return [m for m in self.bracket.rounds(Section.WINNERS)[0] if m.status is MatchStatus.WALKOVER]

    # -- results -----------------------------------------------------------------------------------
    def game(self, game_id: uuid.UUID) -> tuple[PairedMatch, MatchGame] | None:
        for match in self.matches.values():
            for g in match.games:
                if g.game_id == game_id:
                    return match, g
        return None

    def record(self, game_id: uuid.UUID, outcome: Outcome) -> Recorded | None:
        """Record a game's result. None when the game had a result already (the first one stands).
        A result for a game of a decided match (a cancelled game that was played anyway) is kept and
        changes nothing."""
        found = self.game(game_id)
        if found is None:
            raise BracketError(f"game {game_id} is not in this bracket")
        match, game = found
        if game.outcome is not None:
            return None
        game.outcome = outcome
        if match.decided:
            return Recorded(match)
        state = progress(self.match_format, match.first_white, [(g.planned, g.outcome) for g in match.games])
        if state.winner is not None:
            assert state.how is not None
            winner = match.seed(state.winner)
            self.bracket = self.bracket.record(match.id, winner)
            match.how = state.how
            cancelled = tuple(g for g in match.games if g.planned.number in state.not_needed)
            for g in cancelled:
                g.cancelled = True
            return Recorded(match, winner=winner, cancelled=cancelled)
        added = tuple(self._game(match.id, planned) for planned in state.to_pair)
        match.games.extend(added)
        return Recorded(match, added=added)

    def placings(self) -> tuple[Placing, ...]:
        return self.bracket.placings()

    def player_of(self, seed: int) -> str:
        return self.seeding.player(seed)

    def _game(self, match_id: MatchId, planned: PlannedGame) -> MatchGame:
        game_id = uuid.uuid5(GAME_NAMESPACE, f"{self.id}:{match_id}:{planned.number}")
        return MatchGame(game_id, planned)


def round_of_games(matches: Iterable[PairedMatch]) -> list[tuple[PairedMatch, MatchGame]]:
    """Every game of these matches, by board then game number."""
    return [
        (m, g)
        for m in sorted(matches, key=lambda m: m.board)
        for g in sorted(m.games, key=lambda g: g.planned.number)
    ]


@cache
def _double_knockout_waves(players: int, second_final: bool) -> int:
    """Rounds of a double knockout without the second final: its waves of ready matches."""
    bracket: Bracket = DoubleKnockout(players, second_final=second_final)
    waves = 0
    while ready := bracket.ready_matches():
        # the winners'-bracket player (slot 1) takes the grand final, so the second final is not needed
        bracket = bracket.record_many({m.id: _no_reset(m) for m in ready})
        waves += 1
    return waves


def _no_reset(match: Match) -> int:
    """A winner that keeps the second final unneeded: the winners'-bracket player (slot 1) takes the
    grand final; elsewhere anyone (the better seed)."""
    first = match.players[0]
    if match.id.section is Section.GRAND_FINAL and first is not None:
        return first
    return better_seed(match)


__all__ = [
    "FORMATS",
    "Elimination",
    "MatchGame",
    "PairedMatch",
    "Recorded",
    "bracket_from_dict",
    "new_bracket",
    "round_of_games",
]
