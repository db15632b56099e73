"""Tie-break codes, ruleset presets and the group-playoff table."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from services.standings.domain.codes import TieBreak, TieBreakCodeError, parse_code, parse_codes
from services.standings.domain.context import Rules
from services.standings.domain.group_playoff import Match, group_table
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
    # mini_swiss on 2-1-0, 2026 rules. Player 3: R1 vs 6 (adjusted 4), R2 PAB, R3 forfeit loss vs 1,
    # R4 vs 2 (2); own score 4.
    # platform: the PAB round adds nothing. The forfeit keeps C.07's dummy: min(4, adjusted of 1 = 8)
    #   = 4, a VUR. BH = 4 + 4 + 2 = 10. BH-C1: least is 2 (R4), the VUR is 4: 16.5 cuts the VUR → 6.
    # C.07: the PAB is a dummy min(4, 1 x 4 rounds) = 4 → BH 14, BH-C1 14 - 4 = 10.
    # WIN: platform counts only the R4 win (a bye is not a won game) → 1; C.07 counts the PAB → 2.
    h = mini_swiss(PLATFORM)
    ruleset = preset("platform-swiss")
    rules = ruleset.rules(dt.date(2026, 6, 1), dt.date(2026, 11, 29))
    table = compute_table(h, ruleset.columns(), rules)
    row = table.row(3)
    assert (row.tiebreaks["BH"], row.tiebreaks["BH-C1"], row.tiebreaks["WIN"]) == (10, 6, 1)
    fide = compute_table(h, ["BH", "BH-C1", "WIN"], Rules(edition=Edition.E2026)).row(3)
    assert (fide.tiebreaks["BH"], fide.tiebreaks["BH-C1"], fide.tiebreaks["WIN"]) == (14, 10, 2)


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


def _match(a: int, b: int, first: Outcome, second: Outcome) -> Match:
    # game 1: a has White; game 2: colours reversed
    return Match(a, b, ((first, True), (second, False)))


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
