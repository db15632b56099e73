"""The `platform` Swiss: the FIDE Dutch engine fed from the service's own records.

* Scores come from the outcomes by the `platform` scoring (win 2, draw 1, loss 0; the pairing-allocated
  bye scores like a win). With double rounds both games of a pairing form one round: the round's points
  are the sum (win+draw = 3, two wins = 4, the bye 4) and its colour is the first game's.
* Forfeits are not played games (they carry no colour), but on the platform two players are never
  paired twice (RULES.md §2), so every earlier pairing is a forbidden pair.
* The initial colour (C.04.3's lot before round 1) is drawn from the tournament id, so it is fixed and
  reproducible without storing anything.
* Absent from a round (the engine's ``absent``): the withdrawn, and the players with a zero-point bye
  requested for it (``PairingTournament.absent``). A round a player was not in is a zero-point bye.
"""

from __future__ import annotations

from fractions import Fraction

from services.pairing.domain.dutch import model as dutch
from services.pairing.domain.dutch.engine import pair_round
from services.pairing.domain.errors import NoValidPairing
from services.pairing.domain.rounds.tournament import Board, Draw, Game, PairingTournament
from shared.scoring import PLATFORM, Outcome, PointSystem, Result, side_results
from shared.vocabulary import ByeKind

_FORFEITS = {
    Result.FORFEIT_WIN: dutch.RoundKind.FORFEIT_WIN,
    Result.FORFEIT_LOSS: dutch.RoundKind.FORFEIT_LOSS,
}
_BYES = {
    ByeKind.PAIRING_ALLOCATED: dutch.RoundKind.PAB,
    ByeKind.HALF_POINT: dutch.RoundKind.HPB,
    ByeKind.FULL_POINT: dutch.RoundKind.FPB,
    ByeKind.ZERO_POINT: dutch.RoundKind.ZPB,
}


def initial_colour(tournament: PairingTournament) -> dutch.Colour:
    return dutch.Colour.WHITE if tournament.id.int % 2 == 0 else dutch.Colour.BLACK


def round_input(t: PairingTournament, round_no: int, scoring: PointSystem = PLATFORM) -> dutch.RoundInput:
    legs = 2 if t.double_rounds else 1
    records: dict[int, list[dutch.RoundRecord]] = {p.seed: [] for p in t.players}
    forbidden: set[frozenset[int]] = set()
    for rnd in t.rounds[: round_no - 1]:
        seen: set[int] = set()
        for game in (g for g in rnd.games if g.leg == 1):
            pair = [g for g in rnd.games if g.board == game.board]
            forbidden.add(frozenset((game.white, game.black)))
            for seed, opponent in ((game.white, game.black), (game.black, game.white)):
                records[seed].append(_record(seed, opponent, pair, scoring))
                seen.add(seed)
        for bye in rnd.byes:
            kind = _BYES[bye.kind]
            points = {
                dutch.RoundKind.PAB: scoring.pairing_bye,
                dutch.RoundKind.FPB: scoring.full_point_bye,
                dutch.RoundKind.HPB: scoring.half_point_bye,
                dutch.RoundKind.ZPB: scoring.zero_point_bye,
            }[kind] * legs
            records[bye.seed].append(dutch.RoundRecord(kind, points))
            seen.add(bye.seed)
        for seed in records.keys() - seen:  # not in the round at all
            records[seed].append(dutch.RoundRecord(dutch.RoundKind.ZPB, Fraction(0)))
    win = scoring.win * legs
    return dutch.RoundInput(
        players=tuple(dutch.PlayerHistory(seed, tuple(rs)) for seed, rs in sorted(records.items())),
        total_rounds=t.total_rounds,
        initial_colour=initial_colour(t),
        absent=t.absent(round_no),
        forbidden_pairs=frozenset(forbidden),
        points=dutch.PairingPoints(win=win, draw=scoring.draw * legs, loss=scoring.loss * legs, pab=win),
    )


def _record(seed: int, opponent: int, legs: list[Game], scoring: PointSystem) -> dutch.RoundRecord:
    first = next(g for g in legs if g.leg == 1)
    points = Fraction(0)
    results: list[Result] = []
    for g in legs:
        outcome = g.outcome or Outcome.NOT_PLAYED
        white, black = side_results(outcome)
        mine = white if g.white == seed else black
        results.append(mine)
        points += scoring.points(
            mine, black=g.black == seed, double_forfeit=outcome is Outcome.DOUBLE_FORFEIT
        )
    first_result = results[0]
    if first_result.played:
        colour = dutch.Colour.WHITE if first.white == seed else dutch.Colour.BLACK
        return dutch.RoundRecord(dutch.RoundKind.PLAYED, points, opponent, colour)
    kind = _FORFEITS.get(first_result, dutch.RoundKind.FORFEIT_LOSS)
    return dutch.RoundRecord(kind, points, opponent)


class SwissPairer:
    """Pairs a `platform` Swiss round with the FIDE Dutch engine."""

    def __init__(self, scoring: PointSystem = PLATFORM) -> None:
        self.scoring = scoring

    def pair(self, tournament: PairingTournament, round_no: int) -> Draw:
        try:
            result = pair_round(round_input(tournament, round_no, self.scoring))
        except dutch.DutchError as exc:
            raise NoValidPairing(str(exc)) from exc
        return Draw(tuple(Board(w, b) for w, b in result.games), result.bye)
