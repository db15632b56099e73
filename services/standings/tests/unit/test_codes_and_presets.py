"""Tie-break codes, ruleset presets and the group-playoff table."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from fractions import Fraction

import pytest

from services.standings.domain.codes import TieBreak, TieBreakCodeError, parse_code, parse_codes
from services.standings.domain.context import Rules
from services.standings.domain.group_playoff import TableMatch, group_table
from services.standings.domain.history import Edition, EventHistory, Player, edition_for
from services.standings.domain.presets import PRESETS, preset
from services.standings.domain.ranking import compute_table
from services.standings.tests.histories import mini_swiss
from shared.scoring import PLATFORM, Outcome

F = Fraction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BH", TieBreak("BH")),
        ("bh-c1", TieBreak("BH", low=1)),
        ("BH/C1", TieBreak("BH", low=1)),
        ("SB-M2", TieBreak("SB", low=2, high=2)),
        ("DE/P", TieBreak("DE", forfeits_played=True)),
        ("REP", TieBreak("GE")),
        ("TPN", TieBreak("SNO")),
        ("ARO/C1", TieBreak("ARO", low=1)),
        ("PS-C2", TieBreak("PS", low=2)),
    ],
)
def test_codes(text: str, expected: TieBreak) -> None:
    assert parse_code(text) == expected


def test_codes_are_written_with_a_dash() -> None:
    assert [t.code for t in parse_codes("PTS, BH/C1, BH/M1, SB, DE/P")] == ["BH-C1", "BH-M1", "SB", "DE-P"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XYZ", "unknown tie-break code 'XYZ'"),
        ("BH-Q1", "modifier 'Q1' not allowed for BH"),
        ("WIN-C1", "modifier 'C1' not allowed for WIN"),
        ("BH--C1", "malformed tie-break code"),
        ("BH,BH", "listed twice"),
        ("BH,PTS", "PTS (points) can only come first"),
        ("BH-C0", "at least 1"),
    ],
)
def test_bad_codes_are_named(text: str, message: str) -> None:
    with pytest.raises(TieBreakCodeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_codes(text)


def test_edition_by_start_date() -> None:
    today = dt.date(2026, 11, 29)
    assert edition_for(dt.date(2026, 2, 28), today) is Edition.E2024
    assert edition_for(dt.date(2026, 3, 1), today) is Edition.E2026
    assert edition_for(None, today) is Edition.E2026
    assert edition_for(None, dt.date(2025, 1, 1)) is Edition.E2024


def test_preset_lists() -> None:
    assert [t.code for t in PRESETS["fide-rapid"].tiebreaks] == ["BH", "BH-C1", "SB", "ARO"]
    assert PRESETS["fide-rapid"].lots
    assert [t.code for t in PRESETS["platform-swiss"].tiebreaks] == ["BH-C1", "SB", "WIN"]
    assert [t.code for t in PRESETS["platform-swiss"].columns()] == ["BH-C1", "SB", "WIN", "BH"]
    assert [t.code for t in PRESETS["platform-round-robin"].tiebreaks] == ["WIN", "DE", "SNO"]
    assert [t.code for t in PRESETS["platform-round-robin"].shown] == ["SB"]
    assert [t.code for t in PRESETS["draughts"].tiebreaks] == ["BH-C1"]
    assert preset("fide-rapid").with_tiebreaks("BH/C1,SB").tiebreaks == (TieBreak("BH", 1), TieBreak("SB"))
    with pytest.raises(TieBreakCodeError, match="unknown tie-break code 'XX'"):
        preset("fide-rapid").with_tiebreaks("BH,XX")
    with pytest.raises(ValueError, match="unknown ruleset 'chess960'"):
        preset("chess960")


def test_platform_swiss_bye_is_no_opponent() -> None:
    # mini_swiss on 2-1-0, 2026 rules. Player 3: R1 lost to 6 (final score 2), R2 PAB, R3 forfeit loss
    # to 1 (final score 8), R4 beat 2 (final score 2); own score 4.
    # platform (RULES.md §2, "the sum of the final points of all opponents, without the weakest; a bye
    #   is no opponent"): the PAB round adds nothing; the forfeit's opponent is an opponent with their
    #   real score. BH = 2 + 8 + 2 = 12; BH-C1 drops the weakest (2) → 10.
    # C.07: 6 counts adjusted (4: the rounds after the withdrawal as draws); the PAB is a dummy
    #   min(4, 1 x 4 rounds) = 4, the forfeit a dummy min(4, 8) = 4 → BH 4 + 4 + 4 + 2 = 14, BH-C1 10.
    # WIN: platform counts only the R4 win (a bye is not a won game) → 1; C.07 counts the PAB → 2.
    h = mini_swiss(PLATFORM)
    ruleset = preset("platform-swiss")
    rules = ruleset.rules(dt.date(2026, 6, 1), dt.date(2026, 11, 29))
    table = compute_table(h, ruleset.columns(), rules)
    row = table.row(3)
    assert (row.tiebreaks["BH"], row.tiebreaks["BH-C1"], row.tiebreaks["WIN"]) == (12, 10, 1)
    fide = compute_table(h, ["BH", "BH-C1", "WIN"], Rules(edition=Edition.E2026)).row(3)
    assert (fide.tiebreaks["BH"], fide.tiebreaks["BH-C1"], fide.tiebreaks["WIN"]) == (14, 10, 2)


def test_platform_buchholz_counts_a_forfeits_opponent_with_their_real_score() -> None:
    # Four players, four rounds on 2-1-0. R1: 1-2 1-0, 3-4 1-0. R2: 1-3 +/- (3 busy: a forfeit),
    # 2-4 1-0. R3: 1-4 0-1, 2-3 ½-½. R4: 4-2 ½-½, 3-1 0-1.
    # Scores: 1: 2+2+0+2 = 6, 2: 0+2+1+1 = 4, 3: 2+0+1+0 = 3, 4: 0+0+2+1 = 3.
    # Player 3's opponents: 4 (3), 1 by forfeit (6), 2 (4), 1 (6).
    # platform: every opponent with their final score: BH = 3 + 6 + 4 + 6 = 19; BH-C1 drops 4's 3 → 16.
    # C.07 2026 (fide-rapid): the forfeit round is a dummy min(own 3, scheduled 6) = 3 and a VUR, which
    #   16.5 cuts in its place: BH = 3 + 3 + 4 + 6 = 16, BH-C1 = 13.
    h = EventHistory.create((Player(s) for s in range(1, 5)), point_system=PLATFORM)
    h.record_game(1, 1, 2, Outcome.WHITE_WIN)
    h.record_game(1, 3, 4, Outcome.WHITE_WIN)
    h.record_game(2, 1, 3, Outcome.WHITE_FORFEIT_WIN)
    h.record_game(2, 2, 4, Outcome.WHITE_WIN)
    h.record_game(3, 1, 4, Outcome.BLACK_WIN)
    h.record_game(3, 2, 3, Outcome.DRAW)
    h.record_game(4, 4, 2, Outcome.DRAW)
    h.record_game(4, 3, 1, Outcome.BLACK_WIN)
    platform = preset("platform-swiss")
    row = compute_table(h, platform.columns(), platform.rules(None, dt.date(2026, 11, 29))).row(3)
    assert (row.tiebreaks["BH-C1"], row.tiebreaks["BH"]) == (16, 19)
    c07 = compute_table(h, ["BH", "BH-C1"], Rules(edition=Edition.E2026)).row(3)
    assert (c07.tiebreaks["BH"], c07.tiebreaks["BH-C1"]) == (16, 13)


def test_platform_sonneborn_berger_is_beaten_opponents_plus_half_the_drawn() -> None:
    # RULES.md §2: "the points of the beaten opponents plus half the points of the drawn opponents".
    # mini_swiss on 2-1-0; final scores 1: 8, 2: 2, 3: 4, 4: 2, 5: 5, 6: 2.
    # Player 5: R1 drew 2, R2 beat 6, R3 PAB (no opponent), R4 lost to 1 → SB = ½ x 2 + 2 = 3.
    # Player 1: beat 4, 2, 3 (by forfeit: an opponent, beaten) and 5 → SB = 2 + 2 + 4 + 5 = 13.
    # Player 3: lost to 6, PAB, forfeit loss, beat 2 → SB = 2.
    # C.07 (no dummy for the bye either): the opponent's adjusted score x the points made — 2 x 1 + 6's
    #   adjusted 4 (the rounds after the withdrawal as draws) x 2 = 10.
    h = mini_swiss(PLATFORM)
    for name in ("platform-swiss", "platform-round-robin"):
        ruleset = preset(name)
        table = compute_table(h, ["SB"], ruleset.rules(None, dt.date(2026, 11, 29)))
        assert {s: table.row(s).tiebreaks["SB"] for s in (1, 3, 5)} == {1: 13, 3: 2, 5: 3}, name
    c07 = compute_table(h, ["SB"], Rules(edition=Edition.E2026, byes_as_opponents=False))
    assert c07.row(5).tiebreaks["SB"] == 10


def test_fide_rapid_keeps_c07_sonneborn_berger_and_the_dummy_opponent() -> None:
    # On 1-½-0 both definitions of SB agree for games; fide-rapid keeps C.07's unplayed rounds: player 3's
    # forfeit loss is a dummy (a VUR) and 6 counts with the adjusted score, so it differs from the
    # platform's reading of the same file.
    h = mini_swiss()
    fide = preset("fide-rapid")
    assert not fide.platform_definitions
    rules = fide.rules(dt.date(2026, 6, 1), dt.date(2026, 11, 29))
    row = compute_table(h, ["BH", "SB"], rules).row(3)
    seed = compute_table(h, ["BH", "SB"], replace(rules, platform_definitions=True, byes_as_opponents=False))
    # C.07 2026: 6 adjusted 2 (1 + two draws after the withdrawal), PAB dummy min(2, ½ x 4) = 2, forfeit
    #   dummy min(2, 4) = 2, 2 scores 1: BH = 2 + 2 + 2 + 1 = 7; SB = 2 x 0 + 2 x 1 + 2 x 0 + 1 x 1 = 3.
    # platform: 6 (1), 1 (4), 2 (1): BH = 6; SB = 1 (the beaten 2).
    assert (row.tiebreaks["BH"], row.tiebreaks["SB"]) == (7, 3)
    assert (seed.row(3).tiebreaks["BH"], seed.row(3).tiebreaks["SB"]) == (6, 1)


def test_draughts_truncated_solkoff_bye_handling_is_configurable() -> None:
    # Solkoff = BH on 2-1-0; truncated = cut 1. Player 5 (5 points: ½+1+PAB+0 doubled): opponents
    # 2 (2), 6 (adjusted 4), 1 (8) and a PAB in R3.
    # bye is no opponent: 2 + 4 + 8 = 14, cut the lowest (2) → 12
    # bye as a dummy (2026): dummy min(5, 1 x 4) = 4 → 2 + 4 + 4 + 8 = 18, cut 2 → 16
    h = mini_swiss(PLATFORM)
    ruleset = preset("draughts")
    without = compute_table(h, ruleset.tiebreaks, ruleset.rules(dt.date(2026, 6, 1), dt.date.today()))
    assert without.row(5).tiebreaks["BH-C1"] == 12
    dummy = ruleset.with_byes_as_opponents(True)
    with_bye = compute_table(h, dummy.tiebreaks, dummy.rules(dt.date(2026, 6, 1), dt.date.today()))
    assert with_bye.row(5).tiebreaks["BH-C1"] == 16


def test_platform_round_robin_order() -> None:
    # 4 players, 3 rounds: 1 and 2 both win twice (4 points); 1 beat 2 → DE puts 1 first.
    # 3 and 4: 3 drew 4, both lost twice → 1 point, 0 wins each, DE level (½ each) → start number.
    h = EventHistory.create((Player(s) for s in range(1, 5)), point_system=PLATFORM, pre_determined=True)
    h.record_game(1, 1, 2, Outcome.WHITE_WIN)
    h.record_game(1, 3, 4, Outcome.DRAW)
    h.record_game(2, 1, 3, Outcome.WHITE_WIN)
    h.record_game(2, 2, 4, Outcome.WHITE_WIN)
    h.record_game(3, 4, 1, Outcome.WHITE_WIN)
    h.record_game(3, 3, 2, Outcome.BLACK_WIN)
    ruleset = preset("platform-round-robin")
    table = compute_table(h, ruleset.columns(), ruleset.rules(None, dt.date(2026, 11, 29)))
    # points: 1: 2+2+0 = 4, 2: 0+2+2 = 4, 3: 1+0+0 = 1, 4: 1+0+2 = 3
    assert [(r.start, r.points) for r in table.rows] == [(1, 4), (2, 4), (4, 3), (3, 1)]
    assert table.row(1).tiebreaks["DE"] == 1 and table.row(2).tiebreaks["DE"] == 2
    assert "SB" in table.row(1).tiebreaks


def _match(a: int, b: int, first: Outcome, second: Outcome) -> TableMatch:
    # game 1: a has White; game 2: colours reversed
    return TableMatch(a, b, ((first, True), (second, False)))


W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN


def test_group_playoff_table() -> None:
    # Group of 4. Matches (board points a:b → match points):
    # 1-2: W, W → 2:0 → 2:0        1-3: D, D → 1:1 → 1:1       1-4: B, B → 0:2 → 0:2
    # 2-3: W, D → 1.5:0.5 → 2:0    2-4: W, W → 2:0 → 2:0       3-4: W, W → 2:0 → 2:0
    # match points: 1: 2+1+0 = 3, 2: 0+2+2 = 4, 3: 1+0+2 = 3, 4: 2+0+0 = 2
    # board points: 1: 2+1+0 = 3, 2: 0+1.5+2 = 3.5, 3: 1+0.5+2 = 3.5, 4: 2+0+0 = 2
    # 1 and 3 tie on 3 MP but 3 has more board points (3.5 vs 3): no tie left.
    matches = [
        _match(1, 2, W, B),  # game 2: 2 has White and loses → 1 scores both
        _match(1, 3, D, D),
        _match(1, 4, B, W),  # 4 wins both
        _match(2, 3, W, D),
        _match(2, 4, W, B),
        _match(3, 4, W, B),
    ]
    table = group_table([1, 2, 3, 4], matches)
    assert [(r.start, r.match_points, r.board_points, r.rank) for r in table.rows] == [
        (2, 4, F(7, 2), 1), (3, 3, F(7, 2), 2), (1, 3, 3, 3), (4, 2, 2, 4),
    ]  # fmt: skip
    assert table.playoff_groups == ()


def test_group_playoff_ties_go_to_playoff_then_lots() -> None:
    # Three players, everyone 1:1 with everyone (all games drawn): 2 MP, 2 BP each; among them the
    # same → a play-off is needed for all three.
    matches = [_match(1, 2, D, D), _match(1, 3, D, D), _match(2, 3, D, D)]
    table = group_table([1, 2, 3], matches)
    assert table.playoff_groups == ((1, 2, 3),)
    assert all(r.playoff_needed and r.rank == 1 for r in table.rows)
    # the play-off round robin: 3 beats both (2:0 each), 1-2 drawn 1:1 → 3 first, 1 and 2 level
    # → lots
    playoffs = [_match(1, 2, D, D), _match(3, 1, W, B), _match(3, 2, W, B)]
    decided = group_table([1, 2, 3], matches, playoffs=playoffs, lots_seed="announced seed")
    assert decided.rows[0].start == 3 and decided.rows[0].rank == 1
    assert decided.lots is not None and sorted(decided.lots.groups[0]) == [1, 2]
    assert [r.rank for r in decided.rows] == [1, 2, 3]
    assert decided == group_table([1, 2, 3], matches, playoffs=playoffs, lots_seed="announced seed")


def test_group_playoff_withdrawal_scores_every_match_zero_two() -> None:
    # 4 withdrew: every match of 4 counts 0:2 in match points and in board points, whatever was played
    matches = [_match(1, 4, B, W), _match(2, 4, D, D), _match(1, 2, W, B)]
    table = group_table([1, 2, 4], matches, withdrawn=[4])
    # 1: 2 (v 4) + 2 (v 2) = 4 MP, 2 + 2 = 4 BP; 2: 2 + 0 = 2 MP, 2 BP; 4: 0
    assert [(r.start, r.match_points, r.board_points) for r in table.rows] == [
        (1, 4, 4),
        (2, 2, 2),
        (4, 0, 0),
    ]


def test_a_ruleset_can_force_the_edition() -> None:
    from dataclasses import replace

    ruleset = preset("fide-rapid")
    assert ruleset.rules(dt.date(2025, 6, 1), dt.date(2026, 11, 29)).edition is Edition.E2024
    assert ruleset.rules(dt.date(2026, 6, 1), dt.date(2026, 11, 29)).edition is Edition.E2026
    forced = replace(ruleset, edition=Edition.E2024)
    assert forced.rules(dt.date(2026, 6, 1), dt.date(2026, 11, 29)).edition is Edition.E2024
