"""The per-player facts the Dutch criteria use, derived once per round from the history."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from services.pairing.domain.dutch.colours import ColourPreference, ColourSide, preference
from services.pairing.domain.dutch.model import (
    Colour,
    InvalidInputError,
    PlayerHistory,
    RoundInput,
    RoundKind,
    RoundRecord,
)


class Float(Enum):
    DOWN = "down"
    UP = "up"
    NONE = "none"


@dataclass(slots=True)
class FieldPlayer:
    """A player to be paired (or an absent one, whose history still matters to opponents)."""

    number: int
    rank: int  # 0-based, ranking order (pairing numbers, or XXC rank) among the players of the event
    score: int  # in score units (see Field.unit), with this round's acceleration
    colours: tuple[Colour, ...]
    pref: ColourPreference
    opponents: frozenset[int]  # pairing numbers met over the board
    bye_eligible: bool  # C.04.1 rule 4: no PAB yet and no win's points without playing
    played_games: int
    floats: tuple[Float, Float]  # in the last round and the one before
    topscorer: bool  # more than 50% of the maximum score (used in the final round only)
    raw_score: int  # the score without acceleration (board order)

    @property
    def side(self) -> ColourSide:
        return ColourSide(self.pref, self.colours, self.score, self.rank)


@dataclass(frozen=True, slots=True)
class Field:
    """The players to pair and the facts about the round."""

    players: tuple[FieldPlayer, ...]  # the present players
    rounds_played: int
    total_rounds: int
    unit: int  # scores are integers: points × unit
    forbidden: frozenset[frozenset[int]]
    initial_colour: Colour

    @property
    def last_round(self) -> bool:
        return self.rounds_played >= self.total_rounds - 1


def _records(history: PlayerHistory, rounds: int) -> list[RoundRecord]:
    records = list(history.rounds)
    if len(records) > rounds:
        raise InvalidInputError(f"player {history.number} has more rounds than the others")
    while len(records) < rounds:
        records.append(RoundRecord(RoundKind.ZPB, Fraction(0)))
    return records


def build_field(data: RoundInput) -> Field:
    """Check the input and derive every player's pairing facts."""
    rounds = data.rounds_played
    if data.total_rounds < rounds + 1:
        raise InvalidInputError(
            f"round {rounds + 1} cannot be paired in a tournament of {data.total_rounds} rounds"
        )
    by_number: dict[int, PlayerHistory] = {}
    for p in data.players:
        if p.number in by_number:
            raise InvalidInputError(f"pairing number {p.number} is given twice")
        if p.number < 1:
            raise InvalidInputError(f"pairing number {p.number} must be positive")
        by_number[p.number] = p
    for number in data.absent:
        if number not in by_number:
            raise InvalidInputError(f"absent player {number} is not in the tournament")
    for pair in data.forbidden_pairs:
        for number in pair:
            if number not in by_number:
                raise InvalidInputError(f"forbidden pair names unknown player {number}")
    for p in data.players:
        if len(p.accelerations) > data.total_rounds:
            raise InvalidInputError(
                f"player {p.number} has more acceleration entries than the {data.total_rounds} rounds"
            )
        if any(a < 0 for a in p.accelerations):
            raise InvalidInputError(f"player {p.number} has a negative acceleration")
    if data.ranking is not None and sorted(data.ranking) != sorted(by_number):
        raise InvalidInputError("the ranking must list every player exactly once")

    records = {n: _records(p, rounds) for n, p in by_number.items()}
    for n, recs in records.items():
        for r, rec in enumerate(recs, start=1):
            if rec.opponent is None:
                continue
            if rec.opponent not in records or rec.opponent == n:
                raise InvalidInputError(f"player {n}, round {r}: unknown opponent {rec.opponent}")
            if rec.kind is RoundKind.PLAYED:
                other = records[rec.opponent][r - 1]
                if other.kind is not RoundKind.PLAYED or other.opponent != n or other.colour is rec.colour:
                    raise InvalidInputError(
                        f"round {r}: the game of player {n} contradicts the entry for player {rec.opponent}"
                    )

    pts = data.points
    values = [pts.win, pts.draw, pts.loss, pts.zero_bye, pts.forfeit_loss, pts.pab_points]
    values += [rec.points for recs in records.values() for rec in recs]
    values += [a for p in data.players for a in p.accelerations]
    unit = 1
    for v in values:
        unit = unit * v.denominator // math.gcd(unit, v.denominator)

    def units(x: Fraction) -> int:
        return int(x * unit)

    # Players absent now who never took part in a pairing are not in the event (bbpPairings'
    # "valid" players); everyone else gets a rank in ranking order (pairing numbers by default).
    order = data.ranking if data.ranking is not None else tuple(sorted(records))
    valid = [n for n in order if n not in data.absent or any(rec.participated for rec in records[n])]
    rank = {n: i for i, n in enumerate(valid)}

    def acceleration(n: int, round_index: int) -> int:
        acc = by_number[n].accelerations
        return units(acc[round_index]) if round_index < len(acc) else 0

    # score_back[n][k]: the pairing score k rounds ago, i.e. the score before round
    # ``rounds - k + 1`` plus that round's acceleration (as bbpPairings reads floats).
    raw_scores: dict[int, int] = {}
    score_back: dict[int, list[int]] = {}
    for n in valid:
        recs = records[n]
        raw = [units(sum((rec.points for rec in recs), Fraction(0)))]
        for k in (1, 2):
            if rounds >= k:
                raw.append(raw[-1] - units(recs[rounds - k].points))
        raw_scores[n] = raw[0]
        score_back[n] = [s + acceleration(n, rounds - k) for k, s in enumerate(raw)]

    max_wd = max(pts.win, pts.draw)
    threshold = Fraction(math.floor(rounds * max_wd * 10 / 2), 10)
    win_units = units(pts.win)
    loss_units = units(pts.loss)

    players: list[FieldPlayer] = []
    for n in valid:
        if n in data.absent:
            continue
        recs = records[n]
        colours = tuple(rec.colour for rec in recs if rec.kind is RoundKind.PLAYED and rec.colour)
        eligible = not any(
            rec.kind is RoundKind.PAB or (not rec.kind.played and units(rec.points) >= win_units)
            for rec in recs
        )
        fl: list[Float] = []
        for k in (1, 2):
            if rounds < k:
                fl.append(Float.NONE)
                continue
            rec = recs[rounds - k]
            if rec.kind is not RoundKind.PLAYED:
                fl.append(Float.DOWN if units(rec.points) > loss_units else Float.NONE)
                continue
            assert rec.opponent is not None
            mine, theirs = score_back[n][k], score_back[rec.opponent][k]
            fl.append(Float.DOWN if mine > theirs else Float.UP if mine < theirs else Float.NONE)
        players.append(
            FieldPlayer(
                number=n,
                rank=rank[n],
                score=score_back[n][0],
                colours=colours,
                pref=preference(colours),
                opponents=frozenset(
                    rec.opponent for rec in recs if rec.kind is RoundKind.PLAYED and rec.opponent
                ),
                bye_eligible=eligible,
                played_games=len(colours),
                floats=(fl[0], fl[1]),
                topscorer=Fraction(score_back[n][0], unit) > threshold,
                raw_score=raw_scores[n],
            )
        )
    return Field(
        players=tuple(players),
        rounds_played=rounds,
        total_rounds=data.total_rounds,
        unit=unit,
        forbidden=data.forbidden_pairs,
        initial_colour=data.initial_colour,
    )
