"""The arbiter's decisions in tables (embedded adapters): corrected results, withdrawn and excluded
players, zero-point byes on request, the group-playoff table. Every table is worked out by hand in
the comments; after every event the table kept incrementally must equal the table computed from
scratch from the stored rows (``checked``).

Platform scoring: win 2, draw 1, loss 0; a bye (and an absence) is no opponent; WIN does not count the
pairing-allocated bye. Swiss: points, BH-C1, SB, WIN (BH shown). BH sums the opponents' final scores
(a forfeit's opponent too); SB = the beaten opponents' scores + half the drawn ones' (RULES.md §2).
"""

from __future__ import annotations

import pytest

from services.standings.tests.helpers import (
    SIX_PLAYER_TABLE,
    B,
    D,
    Story,
    W,
    checked,
    deliver,
    published,
    revision,
    six_player_round_robin,
    snapshot,
    table,
)
from shared import events
from shared.events import GameOutcome

FORFEIT_WHITE, FORFEIT_BLACK = GameOutcome.WHITE_FORFEIT_WIN, GameOutcome.BLACK_FORFEIT_WIN


def corrected_swiss(svc, send=checked) -> Story:
    """Six players, three Swiss rounds; round 2's 6-2 was entered 0-1 and is corrected to 1-0 after
    round 3 was paired and played."""
    story = Story(svc, 6, system="swiss", rounds=3, send=send).start()
    story.play(1, [(1, 4, W), (2, 5, D), (3, 6, W)])
    story.play(2, [(3, 1, D), (5, 4, W), (6, 2, B)])
    story.play(3, [(1, 2, W), (5, 3, D), (4, 6, D)])  # paired on 2's wrong 3 points
    story.correct(2, 6, 2, W)
    return story


# After the correction (6 beat 2 in round 2):
#   1: beat 4, drew 3, beat 2 = 5          2: drew 5, lost 6, lost 1 = 1
#   3: beat 6, drew 1, drew 5 = 4          4: lost 1, lost 5, drew 6 = 1
#   5: drew 2, beat 4, drew 3 = 4          6: lost 3, beat 2, drew 4 = 3
# BH (opponents' scores) and BH-C1 (the weakest cut):
#   1: 4 (1) + 3 (4) + 2 (1) = 6 → 5      2: 5 (4) + 6 (3) + 1 (5) = 12 → 9
#   3: 6 (3) + 1 (5) + 5 (4) = 12 → 9     4: 1 (5) + 5 (4) + 6 (3) = 12 → 9
#   5: 2 (1) + 4 (1) + 3 (4) = 6 → 5      6: 3 (4) + 2 (1) + 4 (1) = 6 → 5
# SB (beaten + ½ drawn): 1: 1 + ½ 4 + 1 = 4;  2: ½ 4 = 2;  3: 3 + ½ 5 + ½ 4 = 7.5;  4: ½ 3 = 1.5;
#     5: ½ 1 + 1 + ½ 4 = 3.5;  6: 1 + ½ 1 = 1.5.   WIN: 1: 2, 3: 1, 5: 1, 6: 1, 2: 0, 4: 0.
# 3 and 5 tie on 4: BH-C1 9 > 5.  2 and 4 tie on 1 and BH-C1 9: SB 2 > 1.5.
CORRECTED_SWISS = [
    (1, 1, 5, {"BH-C1": 5, "SB": 4, "WIN": 2}, {"BH": 6}),
    (2, 3, 4, {"BH-C1": 9, "SB": 7.5, "WIN": 1}, {"BH": 12}),
    (3, 5, 4, {"BH-C1": 5, "SB": 3.5, "WIN": 1}, {"BH": 6}),
    (4, 6, 3, {"BH-C1": 5, "SB": 1.5, "WIN": 1}, {"BH": 6}),
    (5, 2, 1, {"BH-C1": 9, "SB": 2, "WIN": 0}, {"BH": 12}),
    (6, 4, 1, {"BH-C1": 9, "SB": 1.5, "WIN": 0}, {"BH": 12}),
]


def test_a_corrected_result_replaces_the_old_one_in_the_table(svc):
    story = corrected_swiss(svc)
    assert table(svc, story.id) == CORRECTED_SWISS
    shot = snapshot(svc, story.id)
    assert (shot["after_round"], shot["games_counted"]) == (3, 9)  # a correction is no new result
    last = published(svc, "standings.updated")[-1].payload
    assert [(r["seed"], r["points"]) for r in last["rows"]] == [
        (1, 5),
        (3, 4),
        (5, 4),
        (6, 3),
        (2, 1),
        (4, 1),
    ]
    assert len(published(svc, "standings.updated")) == 3 + 9 + 1  # pairings, results, the correction


def test_the_correction_is_kept_with_the_game(svc):
    story = corrected_swiss(svc)
    t = svc.views.tournament(story.id)
    game = t.game(story.paired[2].games[2].game_id)
    assert (game.outcome, game.reason, game.corrected) == (W, "reported", True)
    [c] = game.corrections
    assert (c.old_outcome, c.outcome, c.reason, c.role, c.at) == (
        B,
        W,
        "wrong result entered",
        "arbiter",
        story.corrected(2, 6, 2, W).decision.at,
    )


def test_the_same_correction_again_changes_nothing(svc):
    story = corrected_swiss(svc)
    before, updates = revision(svc, story.id), len(published(svc, "standings.updated"))
    again = story.envelopes[-1]
    deliver(svc, again)  # redelivered: the inbox stops it
    deliver(
        svc, events.Envelope(type=again.type, tournament_id=story.id, payload=again.payload)
    )  # republished
    assert (revision(svc, story.id), len(published(svc, "standings.updated"))) == (before, updates)


def test_a_result_corrected_twice_keeps_both_corrections(svc):
    story = corrected_swiss(svc)
    story.correct(2, 6, 2, D, reason="the arbiter's first correction was wrong", minutes=2)
    game = svc.views.tournament(story.id).game(story.paired[2].games[2].game_id)
    assert [(c.old_outcome, c.outcome) for c in game.corrections] == [(B, W), (W, D)]
    assert game.outcome == D
    # 6 and 2 drew: 2 has 2 points, 6 has 2
    assert {row[1]: row[2] for row in table(svc, story.id)} == {1: 5, 2: 2, 3: 4, 4: 1, 5: 4, 6: 2}


def test_a_correction_after_the_end_publishes_the_final_table_again(svc):
    story = six_player_round_robin(svc)  # round 3's 4-5 was a forfeit win for 5
    assert table(svc, story.id) == SIX_PLAYER_TABLE
    story.correct(3, 4, 5, W, reason="5 never arrived: 4 won the game", role="organiser")
    # 4 now beat 3, 6, 5, 2 and lost to 1: 8 points, WIN 4; 5 drew 3 and 1 and lost the rest: 2.
    # 6 and 2 stay on 5 points and WIN 2; 6 beat 2 (DE 1, 2).
    # SB: 4: 3 (4) + 6 (5) + 5 (2) + 2 (5) = 16;  1: 6 (5) + ½ 2 (5) + 4 (8) + ½ 5 (2) = 16.5
    #     6: 2 (5) + 5 (2) + ½ 3 (4) = 9;  2: 5 (2) + ½ 1 (6) + 3 (4) = 9
    #     3: ½ 5 (2) + 1 (6) + ½ 6 (5) = 9.5;  5: ½ 3 (4) + ½ 1 (6) = 5
    expected = [
        (1, 4, 8, {"WIN": 4, "DE": 0, "SNO": 4}, {"SB": 16}),
        (2, 1, 6, {"WIN": 2, "DE": 0, "SNO": 1}, {"SB": 16.5}),
        (3, 6, 5, {"WIN": 2, "DE": 1, "SNO": 6}, {"SB": 9}),
        (4, 2, 5, {"WIN": 2, "DE": 2, "SNO": 2}, {"SB": 9}),
        (5, 3, 4, {"WIN": 1, "DE": 0, "SNO": 3}, {"SB": 9.5}),
        (6, 5, 2, {"WIN": 0, "DE": 0, "SNO": 5}, {"SB": 5}),
    ]
    assert table(svc, story.id) == expected
    finals = published(svc, "standings.final")
    assert len(finals) == 2  # at the end, and again with the correction
    assert finals[-1].payload["rows"] == published(svc, "standings.updated")[-1].payload["rows"]
    assert [(r["seed"], r["points"]) for r in finals[-1].payload["rows"]] == [
        (4, 8), (1, 6), (6, 5), (2, 5), (3, 4), (5, 2)
    ]  # fmt: skip


def test_a_withdrawn_player_keeps_the_games_played_and_is_marked(svc):
    story = Story(svc, 5, system="swiss", rounds=3, send=checked).start()
    story.play(1, [(1, 4, W), (2, 5, D)], bye=3)
    story.withdraw(4)
    story.play(2, [(2, 1, B), (3, 5, W)])  # 4 is not paired any more
    story.play(3, [(5, 1, D), (2, 3, W)])
    #   1: beat 4, beat 2, drew 5 = 5        2: drew 5, lost 1, beat 3 = 3
    #   3: bye (2), beat 5, lost 2 = 4       4: lost 1, absent, absent = 0
    #   5: drew 2, lost 3, drew 1 = 2
    # The platform counts opponents with their final points (RULES.md §2), not C.07's adjusted score
    # (16.3 would give 4 a draw for each absence after the withdrawal): 4 counts 0. Byes and
    # absences are no opponent.
    # BH: 1: 4 (0) + 2 (3) + 5 (2) = 5 → cut 4's 0 → 5;  2: 5 (2) + 1 (5) + 3 (4) = 11 → 9
    #     3: 5 (2) + 2 (3) = 5 → 3;  4: 1 (5) = 5 → 0;  5: 2 (3) + 3 (4) + 1 (5) = 12 → 9
    # SB: 1: 4 (0) + 2 (3) + ½ 5 (2) = 4;  2: ½ 5 (2) + 3 (4) = 5;  3: 5 (2) = 2;  4: 0;
    #     5: ½ 2 (3) + ½ 1 (5) = 4
    # WIN: 1: 2, 2: 1, 3: 1 (the bye is not a won game), 4: 0, 5: 0.
    assert table(svc, story.id) == [
        (1, 1, 5, {"BH-C1": 5, "SB": 4, "WIN": 2}, {"BH": 5}),
        (2, 3, 4, {"BH-C1": 3, "SB": 2, "WIN": 1}, {"BH": 5}),
        (3, 2, 3, {"BH-C1": 9, "SB": 5, "WIN": 1}, {"BH": 11}),
        (4, 5, 2, {"BH-C1": 9, "SB": 4, "WIN": 0}, {"BH": 12}),
        (5, 4, 0, {"BH-C1": 0, "SB": 0, "WIN": 0}, {"BH": 5}),
    ]
    rows = {r["seed"]: r for r in snapshot(svc, story.id)["table"]["rows"]}
    assert (rows[4]["status"], rows[4]["status_reason"]) == ("withdrawn", "left for home")
    assert all("status" not in rows[s] for s in (1, 2, 3, 5))


def test_a_withdrawal_is_published_and_recorded_once(svc):
    story = Story(svc, 4, system="swiss", rounds=3, send=checked).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    updates = len(published(svc, "standings.updated"))
    envelope = story.withdraw(2, excluded=True, reason="abusive behaviour")
    assert len(published(svc, "standings.updated")) == updates + 1  # the table with its mark
    before = revision(svc, story.id)
    deliver(svc, events.Envelope(type=envelope.type, tournament_id=story.id, payload=envelope.payload))
    story.withdraw(2, reason="a second time")  # the first withdrawal stands
    assert revision(svc, story.id) == before
    row = next(r for r in snapshot(svc, story.id)["table"]["rows"] if r["seed"] == 2)
    assert (row["status"], row["status_reason"]) == ("excluded", "abusive behaviour")


def test_an_excluded_platform_player_stays_in_the_draw_and_forfeits(svc):
    story = Story(svc, 4, system="swiss", rounds=2, send=checked).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    story.withdraw(4, excluded=True, reason="cheating")
    story.play(2, [(4, 1, FORFEIT_BLACK), (3, 2, D)])  # clocks forfeits 4's game
    points = {row[1]: row[2] for row in table(svc, story.id)}
    assert points == {1: 4, 2: 2, 3: 1, 4: 1}


def test_a_zero_point_bye_on_request_scores_as_the_ruleset_says(svc):
    story = Story(svc, 4, system="swiss", rounds=3, send=checked).start()
    story.play(1, [(1, 3, D), (2, 4, W)])
    story.play(2, [(4, 1, B)], bye=3, zero_point=[2])  # 2 asked for a zero-point bye in round 2
    story.play(3, [(1, 2, D), (4, 3, B)])
    #   1: drew 3, beat 4, drew 2 = 4        2: beat 4, zero-point bye (0), drew 1 = 3
    #   3: drew 1, bye (2), beat 4 = 5       4: lost 2, lost 1, lost 3 = 0
    # The zero-point bye is no opponent on the platform (it adds nothing to BH or SB); 2's last
    # round was played, so 2's score is not adjusted.
    # BH: 3: 1 (4) + 4 (0) = 4 → 4;  1: 3 (5) + 4 (0) + 2 (3) = 8 → 8;  2: 4 (0) + 1 (4) = 4 → 4
    #     4: 2 (3) + 1 (4) + 3 (5) = 12 → 9
    # SB: 3: ½ 1 (4) + 4 (0) = 2;  1: ½ 3 (5) + 4 (0) + ½ 2 (3) = 4;  2: 4 (0) + ½ 1 (4) = 2;  4: 0
    assert table(svc, story.id) == [
        (1, 3, 5, {"BH-C1": 4, "SB": 2, "WIN": 1}, {"BH": 4}),
        (2, 1, 4, {"BH-C1": 8, "SB": 4, "WIN": 1}, {"BH": 8}),
        (3, 2, 3, {"BH-C1": 4, "SB": 2, "WIN": 1}, {"BH": 4}),
        (4, 4, 0, {"BH-C1": 9, "SB": 0, "WIN": 0}, {"BH": 12}),
    ]


def group_story(svc, send=checked) -> Story:
    """A group of four (group-playoff): every meeting a two-game match, played as a double round
    robin round (leg 2 with colours reversed)."""
    return Story(
        svc, 4, system="round_robin", rounds=3, double_rounds=True, ruleset="group-playoff", send=send
    )


def test_the_group_playoff_table_scores_a_withdrawn_players_matches_0_2(svc):
    story = group_story(svc).start()
    story.play(1, [(1, 4, W, D), (2, 3, D, D)])  # 1 beats 4 1½-½ (2:0); 2-3 1-1 (1:1)
    story.play(2, [(4, 3, B, W), (1, 2, W, B)])  # 3 beats 4 2-0; 1 beats 2 2-0
    # match points, board points: 1: 4, 3½;  3: 3, 3;  2: 1, 1;  4: 0, ½
    assert [(r[1], r[2], r[3]["BP"]) for r in table(svc, story.id)] == [
        (1, 4, 3.5),
        (3, 3, 3),
        (2, 1, 1),
        (4, 0, 0.5),
    ]
    story.withdraw(3)
    # every match of 3 counts 0:2 (board points 0:2 as well): 2 gets 2 and 2 from 2-3, 4 gets 2 and 2
    #   1: 4, 3½;  4: 0 + 2 = 2, ½ + 2 = 2½;  2: 2 + 0 = 2, 2 + 0 = 2;  3: 0, 0
    assert [(r[1], r[2], r[3]["BP"]) for r in table(svc, story.id)] == [
        (1, 4, 3.5),
        (4, 2, 2.5),
        (2, 2, 2),
        (3, 0, 0),
    ]
    story.play(3, [(2, 4, W, W), (3, 1, FORFEIT_BLACK, FORFEIT_WHITE)])  # clocks forfeits 3's games
    #   1: 2 + 2 + 2 = 6, 1½ + 2 + 2 = 5½;  4: 0 + 2 + 1 = 3, ½ + 2 + 1 = 3½;  2: 2 + 0 + 1 = 3, 3
    rows = table(svc, story.id)
    assert rows == [
        (1, 1, 6, {"BP": 5.5, "MP-T": None, "BP-T": None}, {}),
        (2, 4, 3, {"BP": 3.5, "MP-T": None, "BP-T": None}, {}),
        (3, 2, 3, {"BP": 3, "MP-T": None, "BP-T": None}, {}),
        (4, 3, 0, {"BP": 0, "MP-T": None, "BP-T": None}, {}),
    ]
    shot = snapshot(svc, story.id)
    assert shot["table"]["edition"] is None and shot["table"]["tiebreaks"] == ["BP", "MP-T", "BP-T"]


def test_a_group_table_among_the_tied(svc):
    story = group_story(svc).start()
    story.play(1, [(1, 4, W, W), (2, 3, W, W)])  # 1-4 1-1 (each wins with White); 2-3 1-1
    # everyone on 1 match point and 1 board point: among the tied (all four) the same; shared rank
    assert {r[0] for r in table(svc, story.id)} == {1}
    assert {r[3]["MP-T"] for r in table(svc, story.id)} == {1}


@pytest.mark.parametrize("order", ["correction first", "result first"])
def test_a_correction_waits_for_the_result_it_corrects(svc, order):
    story = Story(svc, 4, system="swiss", rounds=2, send=checked).start()
    story.pair(1, [(1, 3), (2, 4)])
    finished = story.finished(1, 1, 3, B)
    story.outcomes[finished.game_id] = B
    correction = story.corrected(1, 1, 3, W)
    first, second = (correction, finished) if order == "correction first" else (finished, correction)
    svc.broker.publish([events.wrap(first, story.id)])
    svc.broker.run_until_idle()
    svc.broker.publish([events.wrap(second, story.id)])
    svc.broker.run_until_idle()  # the waiting correction comes back behind the result
    svc.broker.run_until_idle()
    game = svc.views.tournament(story.id).game(finished.game_id)
    assert (game.outcome, [c.old_outcome for c in game.corrections]) == (W, [B])
    assert [d for s in svc.subscriptions for d in svc.broker.dead_letters(s.queue)] == []
