"""Knockout (single elimination) for 4 … 128 players, RULES.md §4.

* The bracket has S slots, S the smallest power of two ≥ N, and log2 S rounds. Round 1 places the seeds in
  the classic order (``seeding.classic_order``): seed 1 meets the lowest seed, 1 and 2 can meet only in the
  final; the slots of seeds N+1 … S are empty, so seeds 1 … S−N advance without a game.
* Match m of round r+1 is the winner of match 2m−1 against the winner of match 2m of round r.
* Optional third-place match (section ``third_place``, round 1): loser of semi-final 1 against loser of
  semi-final 2. It becomes ready together with the final and is played in the final's round.
* Final placing: the champion, the finalist, then the semi-final losers (the third-place match splits them
  into 3 and 4; without it both are third), then the losers of each earlier round, later rounds first.
  Players who go out in the same round share a place.

This is the layout and the numbering of the reference (brackets-manager, ``inner_outer`` seeding,
consolation final between the semi-final losers); the tests check every reference file.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from shared.vocabulary import BracketFormat, Section

from .bracket import (
    TERMINAL,
    Bracket,
    BracketError,
    Empty,
    Layout,
    LoserOf,
    MatchId,
    MatchSpec,
    Seed,
    Source,
    WinnerOf,
    next_power_of_two,
)
from .seeding import classic_order

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 128


class Knockout(Bracket):
    """A knockout bracket and its results. Immutable; ``record`` returns the new state."""

    format = BracketFormat.KNOCKOUT

    def __init__(
        self,
        players: int,
        *,
        third_place: bool = False,
        results: Mapping[MatchId, int] | None = None,
    ) -> None:
        check_players(players)
        if not isinstance(third_place, bool):
            raise BracketError(f"third_place is true or false, not {third_place!r}")
        self._third_place = third_place
        super().__init__(players, results)

    @property
    def third_place(self) -> bool:
        return self._third_place

    @property
    def round_count(self) -> int:
        return self.size.bit_length() - 1

    def round_decided(self, rnd: int) -> bool:
        """Every match of winners round ``rnd`` is decided (the next round can be paired)."""
        if not 1 <= rnd <= self.round_count:
            raise BracketError(f"this knockout has rounds 1 to {self.round_count}, not {rnd}")
        return all(m.status in TERMINAL for m in self.rounds(Section.WINNERS)[rnd - 1])

    def champion(self) -> int | None:
        final = self.match(MatchId(Section.WINNERS, self.round_count, 1))
        return final.winner

    def _build_layout(self) -> Layout:
        return knockout_layout(self.players, self._third_place)

    def _options(self) -> dict[str, Any]:
        return {"third_place": self._third_place}

    def _placing_groups(self) -> list[list[int]]:
        rounds = self.rounds(Section.WINNERS)
        final = rounds[-1][0]
        assert final.winner is not None and final.loser is not None
        groups: list[list[int]] = [[final.winner], [final.loser]]
        for rnd in reversed(rounds[:-1]):
            groups.append([m.loser for m in rnd if m.loser is not None])
        if self._third_place:
            bronze = self.match(MatchId(Section.THIRD_PLACE, 1, 1))
            assert bronze.winner is not None and bronze.loser is not None
            groups[2:3] = [[bronze.winner], [bronze.loser]]
        return groups


def check_players(players: int) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BracketError(f"a knockout takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


@cache
def knockout_layout(players: int, third_place: bool) -> Layout:
    """The knockout's matches: winners rounds 1 … log2 S, then the third-place match if asked for."""
    return Layout((*winners_bracket(players), *(_third_place(players) if third_place else ())))


def winners_bracket(players: int) -> tuple[MatchSpec, ...]:
    """The single-elimination bracket shared by the knockout and the double knockout's winners' bracket."""
    size = next_power_of_two(players)
    slots: list[Source] = [Seed(s) if s <= players else Empty() for s in classic_order(size)]
    specs: list[MatchSpec] = []
    rnd = 1
    while len(slots) > 1:
        ids = [MatchId(Section.WINNERS, rnd, m) for m in range(1, len(slots) // 2 + 1)]
        specs.extend(MatchSpec(mid, (slots[2 * i], slots[2 * i + 1])) for i, mid in enumerate(ids))
        slots = [WinnerOf(mid) for mid in ids]
        rnd += 1
    return tuple(specs)


def _third_place(players: int) -> tuple[MatchSpec, ...]:
    semi_final = next_power_of_two(players).bit_length() - 2
    semis = (MatchId(Section.WINNERS, semi_final, 1), MatchId(Section.WINNERS, semi_final, 2))
    return (MatchSpec(MatchId(Section.THIRD_PLACE, 1, 1), (LoserOf(semis[0]), LoserOf(semis[1]))),)
