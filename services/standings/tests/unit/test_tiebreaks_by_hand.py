"""Every tie-break on small hand-built events (services/standings/tests/histories.py), with the
arithmetic worked by hand in the comments.

mini_swiss (1-½-0), n = 4 rounds:
  scores S: 1: 4, 2: 1, 3: 2, 4: 1, 5: 2.5, 6: 1
  adjusted scores (16.3): VURs after the last non-VUR round count as draws
    1: 4 · 2: 1 · 3: 2 (forfeit loss in R3 keeps its 0: it has an opponent, and R4 was played)
    4: 0 + ½ (HPB) + ½ + ½ (R4 ZPB, trailing → draw) = 1.5
    5: 2.5 (PABs are not VURs) · 6: 1 + 0 + ½ + ½ (withdrawn after R2) = 2
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from services.standings.domain.context import Rules, TieBreakContext
from services.standings.domain.direct_encounter import direct_encounter
from services.standings.domain.history import Edition, EventHistory, HistoryError, Player
from services.standings.domain.lots import draw_lots
from services.standings.domain.ranking import Standings, compute_table
from services.standings.tests.histories import de_swiss, mini_swiss
from shared.scoring import PLATFORM, Outcome, Result

E24, E26 = Rules(edition=Edition.E2024), Rules(edition=Edition.E2026)
F = Fraction


def column(history: EventHistory, code: str, rules: Rules = E24) -> dict[int, object]:
    table = compute_table(history, [code], rules)
    return {row.start: row.tiebreaks[table.tiebreaks[0].code] for row in table.rows}


def test_points_and_adjusted_scores() -> None:
    h = mini_swiss()
    ctx = TieBreakContext(h, E24)
    assert {s: ctx.points(ctx.basis(s).score) for s in h.players} == {
        1: 4,
        2: 1,
        3: 2,
        4: 1,
        5: F(5, 2),
        6: 1,
    }
    assert {s: ctx.points(ctx.basis(s).adjusted) for s in h.players} == {
        1: 4, 2: 1, 3: 2, 4: F(3, 2), 5: F(5, 2), 6: 2,
    }  # fmt: skip


def test_buchholz_both_editions() -> None:
    # 1: R1 4 (1.5) + R2 2 (1) + R3 forfeit win: dummy + R4 5 (2.5)
    #    2024 dummy = own 4 → 9;  2026 dummy = min(4, adjusted of 3 = 2) = 2 → 7
    # 2: 2.5 + 4 + 1.5 + 2 = 10
    # 3: R1 6 (2) + R2 PAB dummy (2024: 2; 2026: min(2, ½x4) = 2) + R3 forfeit loss dummy
    #    (2024: 2; 2026: min(2, adjusted of 1 = 4) = 2) + R4 2 (1) = 7
    # 4: R1 1 (4) + HPB dummy 1 + R3 2 (1) + ZPB dummy 1 = 7
    # 5: 1 + 2 + PAB dummy (2024: 2.5; 2026: min(2.5, 2) = 2) + 4 = 9.5 / 9
    # 6: 2 + 2.5 + absent dummy 1 + absent dummy 1 = 6.5
    h = mini_swiss()
    assert column(h, "BH") == {1: 9, 2: 10, 3: 7, 4: 7, 5: F(19, 2), 6: F(13, 2)}
    assert column(h, "BH", E26) == {1: 7, 2: 10, 3: 7, 4: 7, 5: 9, 6: F(13, 2)}


def test_buchholz_cuts_prefer_a_voluntarily_unplayed_round() -> None:
    # 1 (2024): 1.5, 1, 4, 2.5, no VUR → cut the lowest (1) → 8; C2 cuts 1 and 1.5 → 6.5;
    #   M1 cuts 1 and 4 → 4.0
    # 3: 2 (R1), 2 (PAB, not VUR), 2 (forfeit loss, VUR), 1 (R4). The least significant value is 1,
    #    the lowest VUR value 2: 16.5 cuts the larger → the VUR → 7 - 2 = 5
    # 4: 4, 1 (HPB, VUR), 1, 1 (ZPB, VUR): least is R2's 1 = the VUR's 1 → cut the VUR → 6
    # 6: 2, 2.5, 1 (VUR), 1 (VUR) → 5.5; C2 cuts both VURs → 4.5
    h = mini_swiss()
    c1 = column(h, "BH-C1")
    assert (c1[1], c1[3], c1[4], c1[6]) == (8, 5, 6, F(11, 2))
    c2 = column(h, "BH/C2")
    assert (c2[1], c2[6]) == (F(13, 2), F(9, 2))
    assert column(h, "BH-M1")[1] == 4
    # 2026: 1 has 1.5, 1, 2 (capped dummy), 2.5 → cut 1 → 6
    assert column(h, "BH-C1", E26)[1] == 6


def test_sonneborn_berger() -> None:
    # value = opponent's (or dummy's) score x points made in that round
    # 1: 1.5x1 + 1x1 + 4x1 (dummy) + 2.5x1 = 9 (2026: dummy 2 → 7)
    # 2: 2.5x½ + 4x0 + 1.5x½ + 2x0 = 2
    # 3: 2x0 + 2x1 (PAB dummy) + 2x0 + 1x1 = 3
    # 4: 4x0 + 1x½ + 1x½ + 1x0 = 1
    # 5: 1x½ + 2x1 + 2.5x1 (PAB dummy; 2026: 2) + 4x0 = 5 (2026: 4.5)
    # 6: 2x1 + 2.5x0 + 0 + 0 = 2
    h = mini_swiss()
    assert column(h, "SB") == {1: 9, 2: 2, 3: 3, 4: 1, 5: 5, 6: 2}
    assert column(h, "SB", E26) == {1: 7, 2: 2, 3: 3, 4: 1, 5: F(9, 2), 6: 2}
    # SB-C1 of 3: contributions (score, value): (2, 0), (2, 2), (2, 0 VUR), (1, 1). Least significant
    # = lowest score 1 → value 1; lowest VUR value 0; the larger (1) is cut → 2
    assert column(h, "SB-C1")[3] == 2


def test_fore_buchholz() -> None:
    # Last round paired: 1, 2, 3, 5 → their last game counts as a draw:
    #   fore scores 1: 4 - 1 + ½ = 3.5, 5: 2.5 + ½ = 3, 3: 2 - 1 + ½ = 1.5, 2: 1 + ½ = 1.5
    #   4 (ZPB in R4) and 6 (withdrawn) keep their adjusted scores 1.5 and 2, own scores 1 and 1
    # FB 1 = 4 (1.5) + 2 (1.5) + R3 forfeit-win dummy (own fore score 3.5) + 5 (3) = 9.5
    #   2026: dummy = min(3.5, fore score of 3 = 1.5) → 7.5
    # FB 4 = 1 (3.5) + HPB dummy 1 + 2 (1.5) + ZPB dummy 1 = 7
    h = mini_swiss()
    fb = column(h, "FB")
    assert (fb[1], fb[4]) == (F(19, 2), 7)
    assert column(h, "FB", E26)[1] == F(15, 2)


def test_average_of_opponents_buchholz() -> None:
    # 1 played 4, 2 and 5 over the board (R3 was a forfeit): (7 + 10 + 9.5) / 3 = 8.8333 → 8.83
    # 2026: (7 + 10 + 9) / 3 = 8.6667 → 8.67
    h = mini_swiss()
    assert column(h, "AOB")[1] == F(883, 100)
    assert column(h, "AOB", E26)[1] == F(867, 100)


def test_progressive_score() -> None:
    # 1: running 1, 2, 3, 4 → 10; C1 leaves out round 1 → 9
    # 4: running 0, ½, 1, 1 → 2.5; C1 → 2.5
    h = mini_swiss()
    assert (column(h, "PS")[1], column(h, "PS")[4]) == (10, F(5, 2))
    assert (column(h, "PS-C1")[1], column(h, "PS-C1")[4]) == (9, F(5, 2))


def test_rating_based() -> None:
    # ARO 1: opponents over the board 4 (1700), 2 (1900), 5 (1600) = 5200/3 = 1733.3 → 1733;
    #   C1 drops 1600 → 3600/2 = 1800
    # TPR 1: 3/3 = 100 % → dp +800 → 2533
    # PTP 1: all won → lowest R with every expected score 1.00: R - 1900 >= 736 → 2636
    # TPR 2: opponents 5 (½), 1 (0), 4 (½), 3 (0): ARO 7100/4 = 1775, 25 % → -193 → 1582
    # PTP 2: 1 point: R = 1555 gives 44 + 6 + 31 + 20 = 101 hundredths >= 100, R = 1554 gives 99
    # TPR 4: 1 (0), 2 (½): ARO 1950, 25 % → 1757; TPR 5: 2 (½), 6 (1), 1 (0): 1800, 50 % → 1800
    # APRO 1 = (1757 + 1582 + 1800) / 3 = 1713
    # ARO 6: 3 (1800), 5 (1600) → 1700; C1 → 1800
    h = mini_swiss()
    aro, aro_c1 = column(h, "ARO"), column(h, "ARO-C1")
    assert (aro[1], aro_c1[1], aro[6], aro_c1[6]) == (1733, 1800, 1700, 1800)
    tpr = column(h, "TPR")
    assert (tpr[1], tpr[2], tpr[4], tpr[5]) == (2533, 1582, 1757, 1800)
    ptp = column(h, "PTP")
    assert (ptp[1], ptp[2]) == (2636, 1555)
    assert column(h, "APRO")[1] == 1713


def test_rating_based_with_unrated_players() -> None:
    # without a rating for unrated players and one participant unrated, ARO is undefined for all;
    # with 1500 given, 1's ARO counts 4 as 1500: (1500 + 1900 + 1600) / 3 = 1666.7 → 1667
    h = mini_swiss()
    h.players[4] = Player(4, "P4", None)
    assert set(column(h, "ARO").values()) == {None}
    assert column(h, "ARO", Rules(edition=Edition.E2024, unrated_rating=1500))[1] == 1667


def test_counts() -> None:
    # WIN (rounds scored as a win): 1: 4 (incl. the forfeit win), 3: 2 (PAB + R4), 5: 2, 6: 1
    # WON (over the board): 1: 3, 3: 1, 5: 1, 6: 1
    # BPG: 1 had Black in R2 and R4 → 2; 2 only in R4 → 1; 6 in R1 and R2 → 2
    # BWG: 1: 2; 6: 1 (won R1 with Black)
    # GE: 1: 4 (3 games + forfeit win); 3: 3 (R1, PAB, R4; not the forfeit loss); 4: 2; 6: 2
    h = mini_swiss()
    win, won, bpg, bwg, ge = (column(h, c) for c in ("WIN", "WON", "BPG", "BWG", "GE"))
    assert (win[1], win[3], win[5], win[6]) == (4, 2, 2, 1)
    assert (won[1], won[3], won[5], won[6]) == (3, 1, 1, 1)
    assert (bpg[1], bpg[2], bpg[6]) == (2, 1, 2)
    assert (bwg[1], bwg[6]) == (2, 1)
    assert (ge[1], ge[3], ge[4], ge[6]) == (4, 3, 2, 2)
    assert column(h, "REP") == ge


def test_direct_encounter_swiss_rule() -> None:
    # 1, 2, 3 tie on 2. Among them: 1 beat 2 and 3 (2 points, met both); 2 and 3 scored 0 and never
    # met, so each could reach at most 0 + 1 = 1 < 2 → 1 goes ahead. Then 2 and 3 alone: no game →
    # 0 each, maximum 1 each → not separated: they share position 2.
    # 4 and 6 tie on 0 and never met → 0 (not separated); 5 is alone → 0.
    h = de_swiss()
    assert column(h, "DE") == {1: 1, 2: 2, 3: 2, 4: 0, 5: 0, 6: 0}
    table = compute_table(h, ["DE"], E24)
    assert [(r.start, r.rank) for r in table.rows] == [(5, 1), (1, 2), (2, 3), (3, 3), (4, 5), (6, 5)]


def test_direct_encounter_all_met_and_recursive() -> None:
    # A small round robin (pre-determined): 1 beats 2, 2 beats 3, 3 beats 1, all beat 4... then
    # 1, 2, 3 tie; among them 1 point each → not separated.
    h = EventHistory.create((Player(s) for s in range(1, 5)), pre_determined=True)
    for r, games in enumerate(
        [[(1, 2, Outcome.WHITE_WIN), (3, 4, Outcome.WHITE_WIN)],
         [(2, 3, Outcome.WHITE_WIN), (4, 1, Outcome.BLACK_WIN)],
         [(3, 1, Outcome.WHITE_WIN), (2, 4, Outcome.WHITE_WIN)]],
        start=1,
    ):  # fmt: skip
        for white, black, outcome in games:
            h.record_game(r, white, black, outcome)
    ctx = TieBreakContext(h, E24)
    assert direct_encounter(ctx, [1, 2, 3]) == {1: 0, 2: 0, 3: 0}
    # recursion: among 1, 2, 4 (if they were tied): 1 has 1 + 1 = 2, 2 has 0 + 1 = 1, 4 has 0
    assert direct_encounter(ctx, [1, 2, 4]) == {1: 1, 2: 2, 4: 3}


def test_direct_encounter_averages_repeated_games_and_counts_forfeits_only_with_p() -> None:
    # 1 and 2 met twice: 1 won, then drew → average ¾ for 1, ¼ for 2 → 1 ahead.
    # 3 and 4 met once, 3 won by forfeit: not counted (not played) → 0/0, maxima 1/1 → tied;
    # with DE-P the forfeit counts → 3 ahead.
    h = EventHistory.create(Player(s) for s in range(1, 5))
    h.record_game(1, 1, 2, Outcome.WHITE_WIN)
    h.record_game(2, 2, 1, Outcome.DRAW)
    h.record_game(1, 3, 4, Outcome.WHITE_FORFEIT_WIN)
    ctx = TieBreakContext(h, E24)
    assert direct_encounter(ctx, [1, 2]) == {1: 1, 2: 2}
    assert direct_encounter(ctx, [3, 4]) == {3: 0, 4: 0}
    assert direct_encounter(ctx, [3, 4], forfeits_count=True) == {3: 1, 4: 2}


def test_koya_round_robin() -> None:
    # 4-player round robin above: 1, 2, 3 on 2 points, 4 on 0. Limit = 50 % of 3 rounds x 1 = 1.5.
    # KS 1 = points against 2 and 3 (both >= 1.5) = 1 + 0 = 1; KS 4 = 0
    h = EventHistory.create((Player(s) for s in range(1, 5)), pre_determined=True)
    for r, games in enumerate(
        [[(1, 2, Outcome.WHITE_WIN), (3, 4, Outcome.WHITE_WIN)],
         [(2, 3, Outcome.WHITE_WIN), (4, 1, Outcome.BLACK_WIN)],
         [(3, 1, Outcome.WHITE_WIN), (2, 4, Outcome.WHITE_WIN)]],
        start=1,
    ):  # fmt: skip
        for white, black, outcome in games:
            h.record_game(r, white, black, outcome)
    assert column(h, "KS") == {1: 1, 2: 1, 3: 1, 4: 0}


def test_round_robin_forfeits_count_as_games_and_byes_have_no_dummy() -> None:
    # Pre-determined pairings, 3 players (a bye each round), 3 rounds:
    # R1 1-2 +/- (forfeit), 3 bye; R2 3-1 0-1, 2 bye; R3 2-3 ½, 1 bye (PAB)
    # scores 1: 1 + 1 + 1 (PAB) = 3, 2: 0 + 1 + ½ = 1.5, 3: 1 + 0 + ½ = 1.5
    # BH 1 = 2 (forfeit counted as a game: 1.5) + 3 (1.5) = 3; the bye round adds nothing
    h = EventHistory.create((Player(s) for s in range(1, 4)), pre_determined=True)
    h.record_game(1, 1, 2, Outcome.WHITE_FORFEIT_WIN)
    h.record_bye(1, 3, Result.PAIRING_BYE)
    h.record_game(2, 3, 1, Outcome.BLACK_WIN)
    h.record_bye(2, 2, Result.PAIRING_BYE)
    h.record_game(3, 2, 3, Outcome.DRAW)
    h.record_bye(3, 1, Result.PAIRING_BYE)
    assert column(h, "BH")[1] == 3
    # SB 1 = 1.5 x 1 + 1.5 x 1 = 3; SB 2 = 3 x 0 + 1.5 x ½ = 0.75
    assert column(h, "SB")[1] == 3
    assert column(h, "SB")[2] == F(3, 4)


def test_platform_scoring_doubles_points() -> None:
    # 2-1-0: every score doubles, so BH doubles and SB quadruples
    h = mini_swiss(PLATFORM)
    assert column(h, "BH")[1] == 18
    assert column(h, "SB")[1] == 36


def test_start_number_and_ranking_with_lots() -> None:
    # 2, 4 and 6 tie on 1 point. By SNO: 2 before 4 before 6.
    h = mini_swiss()
    table = compute_table(h, ["SNO"], E24)
    assert [r.start for r in table.rows] == [1, 5, 3, 2, 4, 6]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4, 5, 6]
    # with nothing but lots: the rank stays shared, the place follows a reproducible draw
    tied = compute_table(h, [], E24, lots_seed="round 4 draw")
    again = compute_table(h, [], E24, lots_seed="round 4 draw")
    assert [r.rank for r in tied.rows] == [1, 2, 3, 4, 4, 4]
    assert [r.start for r in tied.rows] == [r.start for r in again.rows]
    assert tied.lots is not None and tied.lots.seed == "round 4 draw"
    assert sorted(tied.lots.groups[0]) == [2, 4, 6]
    assert list(tied.lots.groups[0]) == [r.start for r in tied.rows[3:]]
    assert tied.lots == draw_lots([[6, 4, 2]], "round 4 draw")


def test_withdrawal_and_corrections() -> None:
    h = mini_swiss()
    assert h.players[6].withdrawn_after == 2
    assert h.entry(6, 3).result is Result.ZERO_POINT_BYE
    # correcting R4 5-1 to a draw re-scores both sides
    h.record_game(4, 5, 1, Outcome.DRAW)
    assert (h.score(1), h.score(5)) == (F(7, 2), 3)
    # re-pairing 5 against 4 in R4 drops the old 5-1 pairing on both sides
    touched = h.record_game(4, 4, 5, Outcome.WHITE_WIN)
    assert touched == (1, 4, 5)
    assert h.entry(1, 4).result is Result.ZERO_POINT_BYE
    with pytest.raises(HistoryError, match="unknown player 9"):
        h.record_game(1, 1, 9, Outcome.DRAW)
    with pytest.raises(HistoryError, match="needs an opponent"):
        h.record_bye(1, 1, Result.WIN)


def test_medians_of_sb_and_aro() -> None:
    # SB-M1 of 1 (2024): contributions (opponent score, value) (1.5, 1.5), (1, 1), (4, 4), (2.5, 2.5):
    #   cut the lowest score (1) and the highest (4) → 1.5 + 2.5 = 4
    # ARO-M1 of 2: opponents 1600, 2000, 1700, 1800 → drop 1600 and 2000 → (1700 + 1800) / 2 = 1750
    h = mini_swiss()
    assert column(h, "SB-M1")[1] == 4
    assert column(h, "ARO-M1")[2] == 1750


def test_direct_encounter_leaves_out_a_game_without_a_result() -> None:
    # Three players, pre-determined, 2-1-0. R1 1-2 1-0, R2 2-3 1-0, R3 3-1 1-0: each won once
    # (2 points, WIN 1). R4 starts the second cycle: 1-3 is open (NOT_PLAYED, no points).
    # The open game is no encounter: 3 scored 2 against 1 (one game, not the average of 2 and
    # an open 0), so all three scored 2 among them and DE separates nothing (0 each).
    # Counting the open game as 0-0 would average 3's result against 1 to 1 and put 1, 2, 3 in
    # DE positions 1, 2, 3.
    h = EventHistory.create((Player(s) for s in range(1, 4)), point_system=PLATFORM, pre_determined=True)
    h.record_game(1, 1, 2, Outcome.WHITE_WIN)
    h.record_game(2, 2, 3, Outcome.WHITE_WIN)
    h.record_game(3, 3, 1, Outcome.WHITE_WIN)
    h.record_game(4, 1, 3, Outcome.NOT_PLAYED)
    ctx = TieBreakContext(h, E26)
    assert [ctx.points(ctx.basis(s).score) for s in (1, 2, 3)] == [2, 2, 2]
    assert direct_encounter(ctx, [1, 2, 3]) == {1: 0, 2: 0, 3: 0}
    h.record_game(4, 1, 3, Outcome.WHITE_WIN)  # the game ends: 1 now leads 4-2-2 on points
    assert direct_encounter(TieBreakContext(h, E26), [2, 3]) == {2: 1, 3: 2}  # 2 beat 3


def test_shown_columns_are_kept_but_never_rank() -> None:
    # 1-½-0, four players. R1 1-2 1-0, 3-4 1-0; R2 1-3 0-1, 2-4 1-0.
    # Scores: 1: 1, 2: 1, 3: 2, 4: 0. 1 and 2 are level on points and on WIN (1 each).
    # BH: 1 met 2 (1) and 3 (2) = 3; 2 met 1 (1) and 4 (0) = 1.
    # Ranked by WIN with BH shown: 1 and 2 share rank 2 (BH does not separate them), 4 is 4th.
    # Ranked by WIN then BH: 1 is 2nd, 2 is 3rd.
    h = EventHistory.create(Player(s) for s in range(1, 5))
    standings = Standings(h, "WIN", E26, shown="BH,WIN")  # WIN ranks already: shown once
    standings.record_game(1, 1, 2, Outcome.WHITE_WIN)
    standings.record_game(1, 3, 4, Outcome.WHITE_WIN)
    standings.record_game(2, 1, 3, Outcome.BLACK_WIN)
    table = standings.record_game(2, 2, 4, Outcome.WHITE_WIN)
    assert [t.code for t in table.tiebreaks] == ["WIN"] and [t.code for t in table.shown] == ["BH"]
    assert [(r.start, r.rank, r.tiebreaks, r.shown) for r in table.rows] == [
        (3, 1, {"WIN": 2}, {"BH": 1}),
        (1, 2, {"WIN": 1}, {"BH": 3}),
        (2, 2, {"WIN": 1}, {"BH": 1}),
        (4, 4, {"WIN": 0}, {"BH": 3}),
    ]
    assert table == compute_table(copy.deepcopy(h), "WIN", E26, shown="BH")
    assert [r.rank for r in compute_table(h, "WIN,BH", E26).rows] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="DE"):
        Standings(h, "WIN", E26, shown="DE")
