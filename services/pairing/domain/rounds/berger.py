"""Round robin by the Berger tables of FIDE C.05 Annex 1.

The FIDE tables are reproduced exactly — pairings, colours and board order — by the rotation below
(checked against every table in ``tests/fixtures/berger``):

For an even number of players n, with k = n/2 and m = n − 1, round r (1 … n−1) is:

* a = ((r − 1)·k mod m) + 1;
* board 1: a against n, a has White in odd rounds, n has White in even rounds;
* board b (2 … k): White ((a − 1 + b − 1) mod m) + 1 against Black ((a − 1 − (b − 1)) mod m) + 1.

Player n stays put, players 1 … n−1 sit on a circle that advances k places a round.

* Odd number of players: the table of the next even number is used and the player drawn against the
  missing number sits out ("the highest number counts as a bye"). The bye is written ``(p, 0)`` and
  keeps its board (board 1, where the highest number always sits).
* Double round robin: as the annex recommends, the last two rounds of the first cycle change places;
  the second cycle repeats the (unchanged) table with colours reversed. Nobody gets the same colour
  three times running, neither inside a cycle nor across the boundary.
"""

from __future__ import annotations

from typing import Final, NamedTuple

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 20
BYE: Final = 0
"""The opponent number of a player who sits the round out."""


class RoundRobinError(ValueError):
    """A round robin that cannot be built (a player count out of range)."""


class BergerPairing(NamedTuple):
    """One board: start numbers of White and Black. ``black == BYE`` means White sits out."""

    white: int
    black: int

    @property
    def is_bye(self) -> bool:
        return self.black == BYE or self.white == BYE

    def reversed(self) -> BergerPairing:
        """The same board with colours swapped (a bye stays written ``(p, 0)``)."""
        if self.is_bye:
            return self
        return BergerPairing(self.black, self.white)


Round = tuple[BergerPairing, ...]


def berger_table(players: int) -> tuple[Round, ...]:
    """The FIDE Berger table for an even number of players (4 … 20), rounds in order, boards in order."""
    if players % 2 or not MIN_PLAYERS + 1 <= players <= MAX_PLAYERS:
        raise RoundRobinError(f"a Berger table needs an even number of players from 4 to {MAX_PLAYERS}")
    half, circle = players // 2, players - 1
    rounds: list[Round] = []
    for number in range(1, players):
        a = (number - 1) * half % circle + 1
        first = BergerPairing(a, players) if number % 2 else BergerPairing(players, a)
        others = (
            BergerPairing((a - 1 + step) % circle + 1, (a - 1 - step) % circle + 1) for step in range(1, half)
        )
        rounds.append((first, *others))
    return tuple(rounds)


def round_robin(players: int, *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a (double) round robin for 3 … 20 players, boards in table order.

    An odd field uses the next even table; whoever meets the missing number gets ``BergerPairing(p, BYE)``.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RoundRobinError(f"a round robin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    table_size = players + players % 2
    table = tuple(
        tuple(_bye_for_phantom(pairing, phantom=table_size if players % 2 else None) for pairing in rnd)
        for rnd in berger_table(table_size)
    )
    if not double:
        return table
    first_cycle = (*table[:-2], table[-1], table[-2])
    second_cycle = tuple(tuple(pairing.reversed() for pairing in rnd) for rnd in table)
    return first_cycle + second_cycle


def rounds_count(players: int, *, double: bool = False) -> int:
    """How many rounds the round robin has (an odd field has as many rounds as the next even one)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RoundRobinError(f"a round robin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return (players + players % 2 - 1) * (2 if double else 1)


def _bye_for_phantom(pairing: BergerPairing, phantom: int | None) -> BergerPairing:
    if phantom is None:
        return pairing
    if pairing.black == phantom:
        return BergerPairing(pairing.white, BYE)
    if pairing.white == phantom:
        return BergerPairing(pairing.black, BYE)
    return pairing
