"""The `platform` ruleset's choice of system and number of rounds (RULES.md §2).

At the start time the present players are counted: below the threshold a round robin (Berger
tables), at or above it a Swiss of ``ceil(log2 n) + 1`` rounds, plus one with the extra-round switch
when the field carries it (n > rounds + 1, so a round without rematches stays possible).

Exactly four players always play with double rounds, whatever the organiser chose: three rounds, each
with both games of every pairing, colours swapped, so six games each (never twelve: the switch adds
nothing on top). One game a pairing would let a first-round loss decide the tournament.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from services.pairing.domain.errors import UnsupportedField
from services.pairing.domain.rounds import berger
from shared.vocabulary import System

ROUND_ROBIN_MAX = 19


@dataclass(frozen=True)
class Plan:
    system: System
    rounds: int
    double_cycle: bool  # the Berger table played twice in a row (no `platform` plan does this any more)


def swiss_rounds(players: int, *, extra_round: bool = False) -> int:
    """One more round than a knockout of the same field needs; the extra round when n > rounds + 1.

    The source also says 200 players give at most 10 rounds (11 with the extra round) where the
    formula gives 9 (10); we follow the formula (docs/rules-decisions.md).
    """
    rounds = math.ceil(math.log2(players)) + 1
    if extra_round and players > rounds + 1:
        rounds += 1
    return rounds


def plan(players: int, *, threshold: int, extra_round: bool = False) -> Plan:
    if players < 2:
        raise UnsupportedField(f"a tournament needs at least two players, not {players}")
    if players < threshold:
        if players > ROUND_ROBIN_MAX:
            raise UnsupportedField(f"a round robin holds at most {ROUND_ROBIN_MAX} players")
        return Plan(System.ROUND_ROBIN, berger.rounds_count(players), False)
    return Plan(System.SWISS, swiss_rounds(players, extra_round=extra_round), False)


ALWAYS_DOUBLE_ROUNDS = 4
"""The field size that plays double rounds whatever the organiser chose."""


def double_rounds(chosen: Plan, players: int, *, organiser_chose: bool) -> bool:
    """Whether every pairing plays two games in its round, colours swapped: the organiser's switch,
    or always for a round robin of exactly four players."""
    return organiser_chose or (chosen.system is System.ROUND_ROBIN and players == ALWAYS_DOUBLE_ROUNDS)
