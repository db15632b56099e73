"""Double knockout (double elimination) for 4 … 64 players, RULES.md §4.

Layout for a bracket of S = 2^k slots (S the smallest power of two ≥ N):

* **Winners' bracket** — exactly the knockout (``knockout.winners_bracket``): k rounds, classic seeding,
  the top seeds get the byes.
* **Losers' bracket** — 2(k − 1) rounds. Round 1 pairs the losers of winners round 1 in match order
  (losers of matches 1 and 2, of 3 and 4, …). Then, for j = 1 … k − 1:
  - round 2j is a *drop-in* round: the losers of winners round j + 1, put in the order given by
    ``DROP_IN_ORDER`` below, take slot 1 of matches 1, 2, …; the winners of losers round 2j − 1, in order,
    take slot 2;
  - round 2j + 1 (if j < k − 1) pairs the winners of round 2j: match m gets the winners of 2m − 1 and 2m.
  The last drop-in round (2k − 2) is the losers' final: the loser of the winners' final against the
  survivor of the losers' bracket.
* **Grand final** — winners'-bracket winner (slot 1) against losers'-bracket winner (slot 2). With the
  second final (on by default) a second match between the same two is played only if the losers'-bracket
  winner takes the first, so the champion is the only player with fewer than two lost matches.

Drop-in order. Dropped straight across, the losers of a winners round would meet the survivors from their
own part of the bracket — often someone they have just beaten. The orders below are the defaults of the
reference, brackets-manager (after the "superior double elimination losers bracket seeding" scheme); they
send each dropping player to the other half or quarter of the losers' bracket. Guarantee (checked
structurally and by simulation in the tests): a player dropping from winners rounds 1, 2 or 3 never meets
someone they have already played in their first losers'-bracket match, except in the losers' final. From
winners round 4 on (brackets of 32 and 64) and in the losers' final, the survivor in the other slot can
come from the dropping player's own part of the winners' bracket, so such a rematch can happen (for 64 a
different order in losers round 6 would avoid it; the reference's order is kept, see docs/pairing.md). The orders are list operations on the
losers of a winners round, in match order:

* ``natural`` — unchanged; ``reverse`` — reversed;
* ``half_shift`` — second half first: ``[3, 4, 1, 2]``;
* ``reverse_half_shift`` — each half reversed: ``[2, 1, 4, 3]``.

Byes. A bye in winners round 1 has no loser, so its losers'-bracket slot is empty: a losers'-bracket match
with one empty slot is a walkover, one with two empty slots is void and leaves the next slot empty too
(exactly as the reference treats them).

Final placing: champion, runner-up (loser of the deciding grand-final match), then the losers of each
losers'-bracket round, later rounds first; players who go out in the same round share a place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, TypeVar

from shared.vocabulary import BracketFormat, Section

from .bracket import (
    Bracket,
    BracketError,
    Layout,
    LoserOf,
    MatchId,
    MatchSpec,
    MatchStatus,
    Source,
    WinnerOf,
    next_power_of_two,
)
from .knockout import winners_bracket

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 64

T = TypeVar("T")


def natural(items: Sequence[T]) -> list[T]:
    return list(items)


def reverse(items: Sequence[T]) -> list[T]:
    return list(reversed(items))


def half_shift(items: Sequence[T]) -> list[T]:
    half = len(items) // 2
    return [*items[half:], *items[:half]]


def reverse_half_shift(items: Sequence[T]) -> list[T]:
    half = len(items) // 2
    return [*reversed(items[:half]), *reversed(items[half:])]


ORDERINGS: Final[Mapping[str, Callable[[Sequence[Any]], list[Any]]]] = {
    "natural": natural,
    "reverse": reverse,
    "half_shift": half_shift,
    "reverse_half_shift": reverse_half_shift,
}

DROP_IN_ORDER: Final[Mapping[int, tuple[str, ...]]] = {
    # bracket size → order of the losers of winners rounds 2, 3, …, k−1 dropping into losers rounds
    # 2, 4, …; the losers of the winners' final drop in alone. Losers round 1 takes winners round 1 in
    # natural order.
    4: (),
    8: ("reverse",),
    16: ("reverse_half_shift", "reverse"),
    32: ("reverse", "half_shift", "natural"),
    64: ("reverse", "half_shift", "reverse", "natural"),
}


@dataclass(frozen=True)
class DropIn:
    """The loser of winners' match ``source`` goes to ``slot`` (1 or 2) of losers' match ``target``."""

    source: MatchId
    target: MatchId
    slot: int


class DoubleKnockout(Bracket):
    """A double-knockout bracket and its results. Immutable; ``record`` returns the new state."""

    format = BracketFormat.DOUBLE_KNOCKOUT

    def __init__(
        self,
        players: int,
        *,
        second_final: bool = True,
        results: Mapping[MatchId, int] | None = None,
    ) -> None:
        check_players(players)
        if not isinstance(second_final, bool):
            raise BracketError(f"second_final is true or false, not {second_final!r}")
        self._second_final = second_final
        super().__init__(players, results)

    @property
    def second_final(self) -> bool:
        return self._second_final

    def drop_ins(self) -> tuple[DropIn, ...]:
        """Where every winners'-bracket loser goes in the losers' bracket, in losers'-bracket order."""
        return tuple(
            DropIn(source.match, m.id, slot)
            for m in self.matches(Section.LOSERS)
            for slot, source in enumerate(self.slot_sources(m.id), start=1)
            if isinstance(source, LoserOf)
        )

    def champion(self) -> int | None:
        first = self.match(MatchId(Section.GRAND_FINAL, 1, 1))
        if first.status is not MatchStatus.DECIDED:
            return None
        if first.winner == first.players[0] or not self._second_final:
            return first.winner
        return self.match(MatchId(Section.GRAND_FINAL, 2, 1)).winner

    def _deciding_final(self) -> MatchId:
        first = self.match(MatchId(Section.GRAND_FINAL, 1, 1))
        if self._second_final and first.winner is not None and first.winner == first.players[1]:
            return MatchId(Section.GRAND_FINAL, 2, 1)
        return first.id

    def _build_layout(self) -> Layout:
        return double_knockout_layout(self.players, self._second_final)

    def _options(self) -> dict[str, Any]:
        return {"second_final": self._second_final}

    def _placing_groups(self) -> list[list[int]]:
        final = self.match(self._deciding_final())
        assert final.winner is not None and final.loser is not None
        groups: list[list[int]] = [[final.winner], [final.loser]]
        for rnd in reversed(self.rounds(Section.LOSERS)):
            groups.append([m.loser for m in rnd if m.loser is not None])
        return groups


def check_players(players: int) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BracketError(f"a double knockout takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


@cache
def double_knockout_layout(players: int, second_final: bool) -> Layout:
    winners = winners_bracket(players)
    size = next_power_of_two(players)
    k = size.bit_length() - 1

    def winners_round(rnd: int) -> list[MatchId]:
        return [s.id for s in winners if s.id.round == rnd]

    losers: list[MatchSpec] = []
    dropping = [LoserOf(mid) for mid in winners_round(1)]
    previous = _losers_round(1, [(dropping[i], dropping[i + 1]) for i in range(0, len(dropping), 2)])
    losers.extend(previous)
    orders = DROP_IN_ORDER[size]
    for j in range(1, k):
        if j > 1:
            survivors = [WinnerOf(s.id) for s in previous]
            previous = _losers_round(
                2 * j - 1, [(survivors[i], survivors[i + 1]) for i in range(0, len(survivors), 2)]
            )
            losers.extend(previous)
        order = ORDERINGS[orders[j - 1]] if j - 1 < len(orders) else natural
        dropping = order([LoserOf(mid) for mid in winners_round(j + 1)])
        previous = _losers_round(2 * j, list(zip(dropping, (WinnerOf(s.id) for s in previous), strict=True)))
        losers.extend(previous)

    winners_final, losers_final = WinnerOf(winners[-1].id), WinnerOf(losers[-1].id)
    first = MatchSpec(MatchId(Section.GRAND_FINAL, 1, 1), (winners_final, losers_final))
    finals = [first]
    if second_final:
        finals.append(MatchSpec(MatchId(Section.GRAND_FINAL, 2, 1), first.slots, reset_of=first.id))
    return Layout((*winners, *losers, *finals))


def _losers_round(rnd: int, pairs: list[tuple[Source, Source]]) -> list[MatchSpec]:
    return [MatchSpec(MatchId(Section.LOSERS, rnd, m), pair) for m, pair in enumerate(pairs, start=1)]
