"""Small hand-built events for the unit tests (each worked by hand in the tests that use it)."""

from __future__ import annotations

from services.standings.domain.history import EventHistory, Player
from shared.scoring import FIDE, Outcome, PointSystem, Result

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN


def mini_swiss(point_system: PointSystem = FIDE) -> EventHistory:
    """Six players, four rounds, with a PAB, an HPB, a forfeit, a withdrawal and a last-round ZPB.

    R1: 1-4 1-0, 2-5 ½-½, 3-6 0-1
    R2: 4 HPB, 3 PAB, 2-1 0-1, 5-6 1-0
    R3: 6 withdrawn (no entry), 1-3 +/- (3 forfeits), 2-4 ½-½, 5 PAB
    R4: 6 withdrawn, 5-1 0-1, 3-2 1-0, 4 ZPB
    Scores (1-½-0): 1: 4, 2: 1, 3: 2, 4: 1, 5: 2.5, 6: 1.
    """
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600, 6: 1500}
    h = EventHistory.create((Player(s, f"P{s}", r) for s, r in ratings.items()), point_system=point_system)
    h.record_game(1, 1, 4, W)
    h.record_game(1, 2, 5, D)
    h.record_game(1, 3, 6, B)
    h.record_bye(2, 4, Result.HALF_POINT_BYE)
    h.record_bye(2, 3, Result.PAIRING_BYE)
    h.record_game(2, 2, 1, B)
    h.record_game(2, 5, 6, W)
    h.record_game(3, 1, 3, Outcome.WHITE_FORFEIT_WIN)
    h.record_game(3, 2, 4, D)
    h.record_bye(3, 5, Result.PAIRING_BYE)
    h.record_game(4, 5, 1, B)
    h.record_game(4, 3, 2, W)
    h.record_bye(4, 4, Result.ZERO_POINT_BYE)
    h.withdraw(6, after_round=2)
    return h


def de_swiss() -> EventHistory:
    """Six players, three rounds; 1, 2 and 3 tie on 2 points, 1 beat both, 2 and 3 never met.

    R1: 1-2 1-0, 3-4 1-0, 5-6 1-0
    R2: 1-3 1-0, 2-6 1-0, 4-5 0-1
    R3: 1-5 0-1, 2-4 1-0, 3-6 1-0
    Scores: 1: 2, 2: 2, 3: 2, 4: 0, 5: 3, 6: 0.
    """
    h = EventHistory.create(Player(s, f"P{s}", 2000 - s) for s in range(1, 7))
    for r, games in enumerate(
        [
            [(1, 2, W), (3, 4, W), (5, 6, W)],
            [(1, 3, W), (2, 6, W), (4, 5, B)],
            [(1, 5, B), (2, 4, W), (3, 6, W)],
        ],
        start=1,
    ):
        for white, black, outcome in games:
            h.record_game(r, white, black, outcome)
    return h
