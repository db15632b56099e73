"""The ``group-playoff`` event's structure (4T1 rules, RULES.md §5), worked by hand: the groups and
their lot, two-game matches with the inviting player, play-offs created by the event, lots on the
organiser's request, the semi-finals' extra game, phase 3 with shared places and the final's extra
games, withdrawal 0:2, deadlines and the final placing."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.pairing.domain.errors import NotFound
from services.pairing.domain.group_playoff.competition import (
    GamesStillOpen,
    GroupPlayoff,
    GroupPlayoffError,
    Match,
    MatchKind,
    NoTieForLots,
    NotOverdue,
)
from services.pairing.domain.group_playoff.seeding import Entrant, draw_groups, group_pairings, seeded
from shared.lots import draw_lots
from shared.scoring import Outcome
from shared.seed_draw import draw_order

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN
T0 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
EVENT = uuid.UUID("00000000-0000-0000-0000-00000000004a")
# eight players p1..p8, rated 1990 down to 1920 in steps of 10: p1 is the top seed, p2 the second
ENTRANTS = [Entrant(f"p{i}", 2000 - 10 * i, i) for i in range(1, 9)]


def _event(seed: int = 7) -> GroupPlayoff:
    return GroupPlayoff.start(EVENT, ENTRANTS, draw_groups(ENTRANTS, seed, "organiser", T0))


def _match(event: GroupPlayoff, x: str, y: str, stage: MatchKind | None = None) -> Match:
    return next(m for m in event.matches if {m.a, m.b} == {x, y} and (stage is None or m.stage is stage))


def _play(event: GroupPlayoff, m: Match, *scores: str) -> None:
    """Each score is the game's result for m.a ('a' wins, 'b' wins, 'd' drawn), game by game."""
    for game, score in zip([g for g in m.games if g.open], scores, strict=False):
        winner = {"a": m.a, "b": m.b}.get(score)
        outcome = D if winner is None else (W if winner == game.white else B)
        event.record_result(game.id, outcome)


def _group_results(event: GroupPlayoff, group: str, scores: dict[tuple[int, int], str]) -> None:
    """Plays group ``group``'s matches: ``scores[(i, j)]`` is the two games from group member i's side
    (numbers in group order), e.g. 'ad' = i wins one, draws one."""
    members = event.members(group)
    for (i, j), s in scores.items():
        m = _match(event, members[i - 1], members[j - 1], MatchKind.GROUP)
        _play(event, m, *(s if m.a == members[i - 1] else s.translate(str.maketrans("ab", "ba"))))


CLEAR = {(1, 2): "aa", (1, 3): "aa", (1, 4): "aa", (2, 3): "aa", (2, 4): "aa", (3, 4): "aa"}
"""Group order 1 > 2 > 3 > 4, every match 2:0."""


def test_groups_top_two_seeded_rest_by_the_recorded_lot() -> None:
    lot = draw_groups(ENTRANTS, 7, "organiser", T0)
    drawn = draw_order([f"p{i}" for i in range(3, 9)], 7)
    assert lot.groups == (("p1", *drawn[0::2]), ("p2", *drawn[1::2]))
    assert (lot.seed, lot.drawn_by, lot.drawn_at) == (7, "organiser", T0)
    assert draw_groups(list(reversed(ENTRANTS)), 7, "organiser", T0) == lot  # reproducible
    with pytest.raises(ValueError, match="8 different players"):
        draw_groups(ENTRANTS[:7], 7, "organiser", T0)


def test_equal_ratings_are_seeded_by_the_order_of_entry() -> None:
    late_top = [Entrant("late", 1990, 9), Entrant("early", 1990, 2), Entrant("x", 1800, 1)]
    assert [e.player for e in seeded(late_top)] == ["early", "late", "x"]


def test_every_group_meeting_is_a_two_game_match_one_game_each_colour_the_first_named_invites() -> None:
    event = _event()
    assert len(event.stage_matches(MatchKind.GROUP)) == 12
    for m in event.stage_matches(MatchKind.GROUP):
        first, second = m.games
        assert (first.white, first.black, second.white, second.black) == (m.a, m.b, m.b, m.a)
        assert first.inviter == second.inviter == m.a
    for group in ("I", "II"):
        meetings = {frozenset((m.a, m.b)) for m in event.stage_matches(MatchKind.GROUP) if m.group == group}
        assert len(meetings) == 6  # everyone plays everyone
    assert group_pairings(["a", "b", "c", "d"])[:2] == (("a", "d"), ("b", "c"))  # Berger, round 1
    ids = [g.id for m in event.matches for g in m.games]
    assert len(set(ids)) == 24 and ids == [g.id for m in _event().matches for g in m.games]


def test_a_player_who_cannot_create_games_is_invited_by_the_other_4t1_4_5() -> None:
    # p3 and p5 said at entry they cannot create games; p4 and p6 can. "The player named first invites,
    # unless they cannot create games; then the other player invites." Where neither can, the one named
    # first stays the inviter (the rule's default).
    cannot = {"p3", "p5"}
    entrants = [Entrant(e.player, e.rating, e.order, e.player not in cannot) for e in ENTRANTS]
    event = GroupPlayoff.start(EVENT, entrants, draw_groups(entrants, 7, "organiser", T0))
    assert [e.creates_games for e in event.entrants if e.player in cannot] == [False, False]
    for m in event.stage_matches(MatchKind.GROUP):
        expected = m.b if m.a in cannot and m.b not in cannot else m.a
        assert [g.inviter for g in m.games] == [expected, expected], m.key
    named_first = [m for m in event.stage_matches(MatchKind.GROUP) if m.a in cannot and m.b not in cannot]
    assert named_first  # the lot puts a non-creator first in some pairing
    assert all(g.inviter == m.b for m in named_first for g in m.games)
    # the colours stay as the table says: the one named first has White in game 1
    assert all(m.games[0].white == m.a for m in named_first)
    assert event.inviter("p3", "p5") == "p3" and event.inviter("p4", "p3") == "p4"
    # the ids do not depend on who invites: the same facts, the same games
    assert [g.id for m in event.matches for g in m.games] == [g.id for m in _event().matches for g in m.games]


def test_an_extra_games_inviter_is_its_white_unless_they_cannot_create_games() -> None:
    event = _event()
    one, two = _to_semis(event)
    s1 = event.stage_matches(MatchKind.SEMI_FINAL)[0]
    event.entrants = tuple(
        Entrant(e.player, e.rating, e.order, e.player != one[0]) for e in event.entrants
    )  # the group winner cannot create games
    _play(event, s1, "a", "b")
    extra = s1.games[2]
    assert (extra.white, extra.inviter) == (one[0], two[1])


def test_a_three_way_tie_gets_a_playoff_round_robin_made_by_the_event_then_lots_on_request() -> None:
    event = _event()
    one = event.members("I")
    # group I: 1, 2, 3 draw each other 1:1 and each beat 4 2:0 → 5 MP, 4 BP each, level among them
    _group_results(
        event, "I", {(1, 2): "dd", (1, 3): "dd", (2, 3): "dd", (1, 4): "aa", (2, 4): "aa", (3, 4): "aa"}
    )
    assert event.stage_matches(MatchKind.PLAYOFF) == []  # group II still playing
    _group_results(event, "II", CLEAR)
    playoffs = event.stage_matches(MatchKind.PLAYOFF)
    assert {frozenset((m.a, m.b)) for m in playoffs} == {
        frozenset(p) for p in ((one[0], one[1]), (one[0], one[2]), (one[1], one[2]))
    }
    assert all(m.group == "I" and len(m.games) == 2 for m in playoffs)
    with pytest.raises(NoTieForLots):  # the play-off is still open
        event.draw_lots("I", "seed", "organiser", T0)
    # the play-off: a cycle of 2:0 wins → still level on (a)-(d) → the organiser's lot
    for x, y in ((one[0], one[1]), (one[1], one[2]), (one[2], one[0])):
        m = _match(event, x, y, MatchKind.PLAYOFF)
        _play(event, m, *("aa" if m.a == x else "bb"))
    assert event.group_places("I") is None
    with pytest.raises(GroupPlayoffError, match="still tied"):
        event.announce_phase(2)
    with pytest.raises(NoTieForLots):
        event.draw_lots("II", "seed", "organiser", T0)  # group II has no tie
    lot = event.draw_lots("I", "organiser's seed", "organiser", T0)
    start = event.start_numbers
    expected = draw_lots([sorted(start[p] for p in one[:3])], "organiser's seed").groups[0]
    assert [start[p] for p in lot.order] == list(expected)
    assert event.group_places("I") == (*lot.order, one[3])
    with pytest.raises(NoTieForLots):
        event.draw_lots("I", "again", "organiser", T0)  # drawn once


def test_phase_two_waits_for_every_game_and_names_the_open_ones() -> None:
    event = _event()
    _group_results(event, "I", CLEAR)
    _group_results(event, "II", {k: v for k, v in CLEAR.items() if k != (3, 4)})
    open_ids = [g.id for g in _match(event, event.members("II")[2], event.members("II")[3]).games]
    with pytest.raises(GamesStillOpen) as refused:
        event.announce_phase(2)
    assert refused.value.games == tuple(open_ids) and all(i in refused.value.detail for i in open_ids)
    with pytest.raises(GroupPlayoffError):
        event.announce_phase(3)  # phases in order


def _to_semis(event: GroupPlayoff, **kw: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    _group_results(event, "I", CLEAR)
    _group_results(event, "II", CLEAR)
    event.announce_phase(2, **kw)
    return event.members("I"), event.members("II")


def test_semi_finals_pair_winners_with_the_other_groups_runner_up_and_the_extra_game() -> None:
    event = _event()
    one, two = _to_semis(event)
    s1, s2 = event.stage_matches(MatchKind.SEMI_FINAL)
    assert (s1.a, s1.b, s2.a, s2.b) == (one[0], two[1], two[0], one[1])
    _play(event, s1, "a", "b")  # 1:1 → one extra game, White to the group winner (named first)
    extra = s1.games[2]
    assert (extra.extra, extra.white, extra.black) == (1, one[0], two[1])
    _play(event, s1, "d")  # drawn: the group winner advances
    assert event.decided(s1).winner == one[0]
    _play(event, s2, "d", "d")
    _play(event, s2, "b")  # the runner-up wins the extra game
    assert event.decided(s2).winner == one[1]


def _final_at(event: GroupPlayoff) -> Match:
    one, two = _to_semis(event)
    s1, s2 = event.stage_matches(MatchKind.SEMI_FINAL)
    _play(event, s1, "a", "d")  # 1.5 board points for one[0]
    _play(event, s2, "a", "a")  # 2 for two[0]
    event.announce_phase(3)
    return _match(event, one[0], two[0], MatchKind.FINAL)


def test_a_level_final_gets_extra_games_then_shares_first_place() -> None:
    event = _event()
    final = _final_at(event)
    one, two = event.members("I"), event.members("II")
    # board points over phases 1-2: group 6 each; semi 1.5 (one[0]) against 2 (two[0])
    assert event.phase_board_points(one[0]) == 7.5 and event.phase_board_points(two[0]) == 8
    _play(event, final, "a", "b")
    first = final.games[2]
    assert (first.white, first.extra) == (two[0], 1)  # more board points over phases 1-2
    _play(event, final, "d")
    second = final.games[3]
    assert (second.white, second.black, second.extra) == (one[0], two[0], 2)  # colours reversed
    _play(event, final, "d")
    assert event.decided(final).shared
    for stage in (MatchKind.THIRD, MatchKind.FIFTH, MatchKind.SEVENTH):
        _play(event, event.stage_matches(stage)[0], "a", "a" if stage is not MatchKind.FIFTH else "b")
    assert event.complete
    third = event.stage_matches(MatchKind.THIRD)[0]
    assert event.placing() == [
        (one[0], 1), (two[0], 1),
        (third.a, 3), (third.b, 4),
        (one[2], 5), (two[2], 5),  # 1:1 in the match for fifth: shared
        (one[3], 7), (two[3], 8),
    ]  # fmt: skip


def test_the_final_extra_game_white_by_group_place_then_by_lot_when_board_points_are_equal() -> None:
    event = _event()
    one, two = _to_semis(event)
    s1, s2 = event.stage_matches(MatchKind.SEMI_FINAL)
    _play(event, s1, "a", "a")
    _play(event, s2, "a", "a")
    event.announce_phase(3)
    final = _match(event, one[0], two[0], MatchKind.FINAL)
    _play(event, final, "d", "d")  # 8 board points each, both group winners → the recorded lot
    assert event.colour_lot is not None and event.colour_lot.order[0] == final.games[2].white
    assert event.colour_lot.seed == f"{event.group_lot.seed}:final-colours"

    other = _event()
    one, two = _to_semis(other)
    s1, s2 = other.stage_matches(MatchKind.SEMI_FINAL)
    _play(other, s1, "a", "b")
    _play(other, s1, "b")  # 1I loses the extra game to 2II
    _play(other, s2, "b", "a")
    _play(other, s2, "b")  # 2I beats 1II in the extra game
    other.announce_phase(3)
    final = _match(other, two[1], one[1], MatchKind.FINAL)
    # board points 4 (group: 2:0 v 3rd and 4th) + 1 + 1 (semi + extra) = 6 each; 2I and 2II both second
    assert other.phase_board_points(two[1]) == other.phase_board_points(one[1]) == 6
    _play(other, final, "d", "d")
    assert other.colour_lot is not None


def test_the_fifth_and_seventh_place_matches_may_run_with_the_semi_finals() -> None:
    event = _event()
    one, two = _to_semis(event, with_placement=True)
    fifth = _match(event, one[2], two[2], MatchKind.FIFTH)
    _play(event, fifth, "a", "a")  # accepted while the semi-finals are open
    _match(event, one[3], two[3], MatchKind.SEVENTH)
    for s in event.stage_matches(MatchKind.SEMI_FINAL):
        _play(event, s, "a", "a")
    event.announce_phase(3)
    assert len(event.stage_matches(MatchKind.FIFTH)) == 1  # not paired twice


def test_a_withdrawal_in_phase_one_scores_every_match_of_the_phase_0_2() -> None:
    event = _event()
    one = event.members("I")
    played = _match(event, one[0], one[3], MatchKind.GROUP)
    _play(event, played, "b", "b")  # one[3] won 2:0 before withdrawing
    half = _match(event, one[1], one[3], MatchKind.GROUP)
    _play(event, half, "b")  # one game finished, one running
    dropped = event.withdraw(one[3])
    assert {g.id for g in dropped} == {half.games[1].id} | {g.id for g in _match(event, one[2], one[3]).games}
    table = event.table("I")
    start = event.start_numbers
    row = table.row(start[one[3]])
    assert (row.match_points, row.board_points) == (0, 0)
    assert (table.row(start[one[0]]).match_points, table.row(start[one[0]]).board_points) == (2, 2)
    with pytest.raises(GroupPlayoffError):
        event.withdraw(one[3])
    with pytest.raises(NotFound):
        event.withdraw("nobody")
    _group_results(event, "I", {(1, 2): "aa", (1, 3): "aa", (2, 3): "aa"})
    _group_results(event, "II", CLEAR)
    event.announce_phase(2)
    for semi in event.stage_matches(MatchKind.SEMI_FINAL):
        _play(event, semi, "a", "a")
    event.announce_phase(3)
    seventh = event.stage_matches(MatchKind.SEVENTH)[0]
    # withdrawn, they play no later phase: the seventh-place match is scored 0:2 without games
    assert seventh.forfeited_by == one[3] and all(not g.open for g in seventh.games)


def test_a_withdrawal_in_the_semi_final_scores_it_0_2() -> None:
    event = _event()
    one, two = _to_semis(event)
    s1 = event.stage_matches(MatchKind.SEMI_FINAL)[0]
    _play(event, s1, "a")
    event.withdraw(one[0])
    assert event.decided(s1).winner == two[1]
    assert s1.board_points() == (0, 2)


def test_a_deadline_makes_open_games_overdue_for_the_organisers_result() -> None:
    event = _event()
    event.set_deadline(1, T0 + dt.timedelta(weeks=6))
    game = event.stage_matches(MatchKind.GROUP)[0].games[0]
    with pytest.raises(NotOverdue):
        event.adjudicate(game.id, T0 + dt.timedelta(weeks=5), outcome=W)
    later = T0 + dt.timedelta(weeks=6)
    assert len(event.overdue(later)) == 24
    event.adjudicate(game.id, later, outcome=D)
    assert (game.outcome, game.how) == (D, "adjudicated")
    other = event.stage_matches(MatchKind.GROUP)[0].games[1]
    event.adjudicate(other.id, later, lot_seed="lot 1")
    start = event.start_numbers
    first = draw_lots([[start[other.white], start[other.black]]], "lot 1").groups[0][0]
    assert other.how == "lot" and other.outcome == (W if first == start[other.white] else B)
    with pytest.raises(GroupPlayoffError, match="either"):
        event.adjudicate(event.overdue(later)[0].id, later)
    with pytest.raises(GroupPlayoffError):
        event.set_deadline(4, later)


def test_a_finished_game_keeps_its_result() -> None:
    event = _event()
    game = event.matches[0].games[0]
    event.record_result(game.id, W)
    with pytest.raises(GroupPlayoffError, match="has its result"):
        event.record_result(game.id, B)
    with pytest.raises(NotFound):
        event.record_result("no-such-game", W)


def test_a_tie_a_withdrawal_makes_after_the_groups_gets_its_own_playoff() -> None:
    event = _event()
    one = event.members("I")
    # group I: 1 beats 2 and 4, loses to 3; 2 and 3 draw 1:1; both beat 4. MP: 3 = 2 + 1 + 2 = 5,
    # 1 = 2 + 0 + 2 = 4, 2 = 0 + 1 + 2 = 3, 4 = 0 → 3, 1, 2, 4: no tie, no play-off
    _group_results(
        event, "I", {(1, 2): "aa", (1, 3): "bb", (1, 4): "aa", (2, 3): "dd", (2, 4): "aa", (3, 4): "aa"}
    )
    _group_results(event, "II", CLEAR)
    assert event.stage_matches(MatchKind.PLAYOFF) == [] and event.group_places("I") == (
        one[2],
        one[0],
        one[1],
        one[3],
    )
    # 1 withdraws before phase 2: every group match of theirs is 0:2, so 2 and 3 both have 2 + 1 + 2 = 5 MP and
    # 5 BP, 1:1 between them → a play-off of their own
    event.withdraw(one[0])
    (playoff,) = event.stage_matches(MatchKind.PLAYOFF)
    assert {playoff.a, playoff.b} == {one[1], one[2]} and event.group_places("I") is None
    _play(event, playoff, "a", "a")
    assert event.group_places("I") == (playoff.a, playoff.b, one[3], one[0])
    assert len(event.stage_matches(MatchKind.PLAYOFF)) == 1  # not paired again
