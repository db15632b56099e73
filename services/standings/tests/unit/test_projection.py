"""The standings service fed the events of whole tournaments (embedded adapters). Every table is
worked out by hand below; after every event the table kept incrementally must equal the table
computed from scratch from the stored rows.

Platform scoring (RULES.md §1, §2): win 2, draw 1, loss 0; the pairing-allocated bye (PAB) is worth
a win, is not a won game and enters no tie-break. Round robin: points, WIN, DE, SNO (SB shown);
Swiss: points, BH-C1, SB, WIN (BH shown). SB as the platform defines it: the scores of the beaten
opponents plus half the scores of the drawn ones (a forfeit's opponent is an opponent).
"""

from __future__ import annotations

import itertools
import uuid

import pytest

from services.standings.tests.helpers import (
    SIX_PLAYER_TABLE,
    B,
    D,
    Story,
    W,
    checked,
    deliver,
    double_rounds_swiss,
    embedded,
    published,
    revision,
    six_player_round_robin,
    snapshot,
    table,
)
from shared import events
from shared.events import GameOutcome
from shared.messaging.port import MAX_LATER

DOUBLE_FORFEIT = GameOutcome.DOUBLE_FORFEIT


def test_six_player_round_robin(svc):
    story = six_player_round_robin(svc)
    # Results by player (W/D/L; 4 lost round 3 by forfeit to 5):
    #   4: beat 6, 2, 3; lost to 1 and (forfeit) 5        3W 2L  = 6, WIN 3
    #   1: beat 4, 6; drew 2, 5; lost to 3                2W 2D 1L = 6, WIN 2
    #   6: beat 2, 5; drew 3; lost to 1, 4                2W 1D 2L = 5, WIN 2
    #   2: beat 3, 5; drew 1; lost to 6, 4                2W 1D 2L = 5, WIN 2
    #   3: beat 1; drew 5, 6; lost to 4, 2                1W 2D 2L = 4, WIN 1
    #   5: beat 4 (forfeit); drew 3, 1; lost to 2, 6       1W 2D 2L = 4, WIN 1
    # 4 and 1 tie on 6: WIN 3 > 2 puts 4 first although 1 beat 4 (WIN comes before DE).
    # 6 and 2 tie on 5 and WIN 2: 6 beat 2, so DE 1 and 2.
    # 3 and 5 tie on 4 and WIN 1: they drew, DE separates nothing (0): start number, 3 first.
    # SB (shown only; the forfeit's opponent is an opponent, beaten by 5):
    #   4: 6 (5) + 2 (5) + 3 (4) = 14;          1: 4 (6) + 6 (5) + ½ 2 (5) + ½ 5 (4) = 15.5
    #   6: 2 (5) + 5 (4) + ½ 3 (4) = 11;        2: 3 (4) + 5 (4) + ½ 1 (6) = 11
    #   3: 1 (6) + ½ 5 (4) + ½ 6 (5) = 10.5;    5: 4 (6) + ½ 3 (4) + ½ 1 (6) = 11
    assert table(svc, story.id) == SIX_PLAYER_TABLE
    shot = snapshot(svc, story.id)
    assert (shot["after_round"], shot["games_counted"]) == (5, 15)
    assert shot["table"]["tiebreaks"] == ["WIN", "DE", "SNO"] and shot["table"]["shown"] == ["SB"]
    assert [r["status"] for r in shot["rounds"]] == ["finished"] * 5


def test_five_player_round_robin_with_byes_and_a_double_forfeit(svc):
    story = Story(svc, 5, send=checked).start()
    story.play(1, [(2, 5, D), (3, 4, W)], bye=1)
    story.play(2, [(5, 3, W), (1, 2, W)], bye=4)
    story.play(3, [(3, 1, D), (4, 5, W)], bye=2)
    story.play(4, [(1, 4, B), (2, 3, DOUBLE_FORFEIT)], bye=5)
    story.play(5, [(4, 2, B), (5, 1, B)], bye=3)
    story.complete()
    # Everyone sits out once: PAB 2 points, not a win, no tie-break contribution.
    # 2-3 was a double forfeit: nothing for either side.
    #   1: beat 2, 5; drew 3; lost to 4        2 + 2 + 1 + 0 + PAB 2 = 7, WIN 2
    #   4: beat 1, 5; lost to 3, 2             2 + 2 + PAB 2         = 6, WIN 2
    #   5: beat 3; drew 2; lost to 1, 4        2 + 1 + PAB 2         = 5, WIN 1
    #   2: beat 4; drew 5; lost to 1; -/- 3    2 + 1 + 0 + PAB 2     = 5, WIN 1
    #   3: beat 4; drew 1; lost to 5; -/- 2    2 + 1 + 0 + PAB 2     = 5, WIN 1
    # 5, 2, 3 tie on 5 points and WIN 1. DE among them (round robin: forfeits count as games):
    #   5: drew 2 (1) + beat 3 (2) = 3;  2: drew 5 (1) + 0 against 3 = 1;  3: 0 + lost to 5 = 0
    #   → 5, 2, 3 at DE 1, 2, 3.
    # SB: 1: 2 (5) + ½ 3 (5) + 5 (5) = 12.5;  4: 1 (7) + 5 (5) = 12
    #     5: ½ 2 (5) + 3 (5) = 7.5;  2: 4 (6) + ½ 5 (5) = 8.5;  3: ½ 1 (7) + 4 (6) = 9.5
    assert table(svc, story.id) == [
        (1, 1, 7, {"WIN": 2, "DE": 0, "SNO": 1}, {"SB": 12.5}),
        (2, 4, 6, {"WIN": 2, "DE": 0, "SNO": 4}, {"SB": 12}),
        (3, 5, 5, {"WIN": 1, "DE": 1, "SNO": 5}, {"SB": 7.5}),
        (4, 2, 5, {"WIN": 1, "DE": 2, "SNO": 2}, {"SB": 8.5}),
        (5, 3, 5, {"WIN": 1, "DE": 3, "SNO": 3}, {"SB": 9.5}),
    ]


def test_double_rounds_swiss(svc):
    story = double_rounds_swiss(svc)
    # Each leg is a round of its own (round r → 2r-1, 2r): six rounds for the tie-breaks.
    # Points per game; a bye scores in both legs (4).
    #   1: R1 W D (3), R2 W D (3), R3 D L (1)  = 7      2: R1 W L (2), R2 D W (3), R3 L L (0) = 5
    #   3: R1 bye (4), R2 L D (1), R3 W W (4)  = 9      4: R1 L D (1), R2 D L (1), R3 bye (4) = 6
    #   5: R1 L W (2), R2 bye (4), R3 D W (3)  = 9
    # BH: each leg counts its opponent once; a bye is no opponent.
    #   1: 4, 4, 3, 3, 5, 5 → 6+6+9+9+9+9 = 48; cut the weakest (6) → 42
    #   2: 5, 5, 4, 4, 3, 3 → 9+9+6+6+9+9 = 48 → 42
    #   3: 1, 1, 2, 2 → 7+7+5+5 = 24 → 19;  4: 1, 1, 2, 2 → 24 → 19;  5: 2, 2, 1, 1 → 5+5+7+7 = 24 → 19
    # SB (beaten opponents' scores + half the drawn ones', per leg):
    #     1: 4 (6) + ½ 4 (6) + 3 (9) + ½ 3 (9) + ½ 5 (9) = 6+3+9+4.5+4.5 = 27
    #     2: 5 (9) + ½ 4 (6) + 4 (6) = 9+3+6 = 18
    #     3: ½ 1 (7) + 2 (5) + 2 (5) = 13.5;  4: ½ 1 (7) + ½ 2 (5) = 6;  5: 2 (5) + ½ 1 (7) + 1 (7) = 15.5
    # WIN (a bye is not a won game): 1: 2, 2: 2, 3: 2, 4: 0, 5: 2.
    # 5 and 3 tie on 9 points and BH-C1 19: SB 15.5 > 13.5 puts 5 first.
    assert table(svc, story.id) == [
        (1, 5, 9, {"BH-C1": 19, "SB": 15.5, "WIN": 2}, {"BH": 24}),
        (2, 3, 9, {"BH-C1": 19, "SB": 13.5, "WIN": 2}, {"BH": 24}),
        (3, 1, 7, {"BH-C1": 42, "SB": 27, "WIN": 2}, {"BH": 48}),
        (4, 4, 6, {"BH-C1": 19, "SB": 6, "WIN": 0}, {"BH": 24}),
        (5, 2, 5, {"BH-C1": 42, "SB": 18, "WIN": 2}, {"BH": 48}),
    ]
    shot = snapshot(svc, story.id)
    assert (shot["after_round"], shot["games_counted"]) == (3, 12)


def test_the_table_during_a_round_counts_each_result_and_nothing_else(svc):
    story = Story(svc, 5, send=checked).start()
    story.pair(1, [(2, 5), (3, 4)], bye=1)
    shot = snapshot(svc, story.id)
    # paired, nothing played: nothing scores, the bye neither (it counts with the round's last result)
    assert (shot["after_round"], shot["games_counted"]) == (0, 0)
    assert {r["points"] for r in shot["table"]["rows"]} == {0}
    assert shot["rounds"] == [{"number": 1, "status": "playing", "games": 2, "finished": 0}]
    story.result(1, 3, 4, W)
    shot = snapshot(svc, story.id)
    assert (shot["after_round"], shot["games_counted"]) == (0, 1)
    # 3's won game counts as it comes; 1's bye not yet
    assert [(r["seed"], r["points"]) for r in shot["table"]["rows"]][:2] == [(3, 2), (1, 0)]
    story.result(1, 2, 5, D)
    shot = snapshot(svc, story.id)
    assert shot["after_round"] == 1
    # the round is finished: 3 and 1 have 2 points each; 3's is a won game (WIN 1), 1's a bye (WIN 0)
    assert [(r["seed"], r["points"]) for r in shot["table"]["rows"]][:2] == [(3, 2), (1, 2)]
    updates = [e.payload for e in published(svc, "standings.updated")]
    assert [(u["after_round"], u["games_counted"]) for u in updates] == [(0, 0), (0, 1), (1, 2)]


def test_standings_events(svc):
    story = six_player_round_robin(svc)
    updates = published(svc, "standings.updated")
    assert len(updates) == 5 + 15  # one per pairing and one per result
    final = published(svc, "standings.final")
    assert len(final) == 1 and final[0].tournament_id == story.id
    rows = final[0].payload["rows"]
    assert [(r["rank"], r["seed"], r["points"]) for r in rows] == [
        (1, 4, 6.0),
        (2, 1, 6.0),
        (3, 6, 5.0),
        (4, 2, 5.0),
        (5, 3, 4.0),
        (6, 5, 4.0),
    ]
    assert rows[0]["tiebreaks"] == {"WIN": 3.0, "DE": 0.0, "SNO": 4.0}
    assert rows[0]["player_id"] == str(story.player_ids[4]) and rows[0]["name"] == "Player 4"
    assert updates[-1].payload["rows"] == rows
    assert updates[-1].payload["after_round"] == 5 and updates[-1].payload["games_counted"] == 15


def test_redelivered_and_republished_events_change_nothing(svc):
    story = double_rounds_swiss(svc)
    before = snapshot(svc, story.id)
    counts = {kind: len(published(svc, kind)) for kind in ("standings.updated", "standings.final")}
    before_revision = revision(svc, story.id)
    for envelope in story.envelopes:  # the same envelopes again: the inbox stops them
        deliver(svc, envelope)
    for envelope in story.envelopes:  # the same events under new ids: the first one stands
        deliver(svc, events.Envelope(type=envelope.type, tournament_id=story.id, payload=envelope.payload))
    changed = story.finished(1, 1, 4, B)  # a second, different result for a finished game
    deliver(svc, changed)
    assert snapshot(svc, story.id) == before
    assert {kind: len(published(svc, kind)) for kind in counts} == counts
    assert revision(svc, story.id) == before_revision


def test_a_restarted_consumer_rebuilds_the_table_from_the_rows(database_url):
    first = embedded(database_url)
    story = Story(first, 5, send=checked).start()
    story.play(1, [(2, 5, D), (3, 4, W)], bye=1)
    story.play(2, [(5, 3, W), (1, 2, W)], bye=4)
    first.engine.dispose()
    second = embedded(database_url, migrate=False)  # a new process: nothing in memory
    story.svc = second
    story.play(3, [(3, 1, D), (4, 5, W)], bye=2)
    story.play(4, [(1, 4, B), (2, 3, DOUBLE_FORFEIT)], bye=5)
    story.play(5, [(4, 2, B), (5, 1, B)], bye=3)
    assert second.tables.stats.misses == 1  # rebuilt once (pairing round 3), then kept current:
    assert second.tables.stats.hits == 8  # the other eight events of rounds 3 to 5
    assert [row[1] for row in table(second, story.id)] == [1, 4, 5, 2, 3]
    second.engine.dispose()


def test_competing_consumers_notice_each_others_changes(database_url):
    one, two = embedded(database_url), embedded(database_url, migrate=False)
    turns = itertools.cycle([one, two])
    story = six_player_round_robin(one, send=lambda _svc, event: checked(next(turns), event))
    assert one.tables.stats.misses > 0 and two.tables.stats.misses > 0
    assert [row[1] for row in table(one, story.id)] == [4, 1, 6, 2, 3, 5]
    for svc in (one, two):
        svc.engine.dispose()


def test_completion_is_a_change_other_consumers_notice(database_url):
    one, two = embedded(database_url), embedded(database_url, migrate=False)
    story = Story(one, 4, rounds=1, send=checked).start()
    story.pair(1, [(1, 4), (2, 3)])
    story.result(1, 1, 4, W)
    story.svc = two  # the last result goes to the other process, which then holds the table
    story.result(1, 2, 3, D)
    story.svc = one
    completed = story.complete()
    republished = events.Envelope(type=completed.type, tournament_id=story.id, payload=completed.payload)
    deliver(two, republished)  # two's table predates the completion: it must not complete again
    assert len(published(one, "standings.final")) + len(published(two, "standings.final")) == 1
    for svc in (one, two):
        svc.engine.dispose()


def test_a_failed_change_leaves_no_trace_in_the_cache(svc):
    story = Story(svc, 5, send=checked).start()
    story.pair(1, [(2, 5), (3, 4)], bye=1)
    wrong = story.finished(1, 3, 4, W).model_copy(update={"white": story.player_ids[5]})
    svc.broker.publish([events.wrap(wrong, story.id)])
    svc.broker.run_until_idle()
    dead = svc.broker.dead_letters("standings.game_finished")
    assert len(dead) == 1 and "EventMismatch" in dead[0].reason
    assert story.id not in svc.tables  # taken out for the change, never put back
    story.result(1, 3, 4, W)
    story.result(1, 2, 5, D)
    assert [(row[1], row[2]) for row in table(svc, story.id)][:2] == [(3, 2), (1, 2)]  # a win, a bye


def test_the_cache_is_bounded(database_url):
    svc = embedded(database_url)
    svc.tables.capacity = 1
    a, b = Story(svc, 5, send=checked).start(), Story(svc, 5, send=checked).start()
    for story in (a, b):
        story.pair(1, [(2, 5), (3, 4)], bye=1)
    assert len(svc.tables) == 1 and b.id in svc.tables
    a.result(1, 3, 4, W)  # a was evicted: rebuilt from the rows
    b.result(1, 3, 4, B)
    assert len(svc.tables) == 1 and b.id in svc.tables
    b.result(1, 2, 5, D)  # the round's last result: 1's bye counts from now on
    assert [(row[1], row[2]) for row in table(svc, b.id)][:2] == [(4, 2), (1, 2)]  # a win, a bye
    svc.engine.dispose()


def test_events_of_an_unknown_tournament_are_dead_lettered_in_the_end(svc):
    story = Story(svc, 4)  # never started
    event = events.RoundPaired(
        tournament_id=story.id,
        organiser_id=story.organiser,
        round=1,
        total_rounds=3,
        system="round_robin",
        games=[],
        time_control=events.TimeControl(base_seconds=60),
    )
    svc.broker.publish([events.wrap(event, story.id)])
    for _ in range(MAX_LATER):  # each run is a new chance, as time passing is for RabbitMQ
        svc.broker.run_until_idle()
    dead = svc.broker.dead_letters("standings.round_paired")
    assert len(dead) == 1 and "not ready after 120 deliveries: no tournament" in dead[0].reason


def test_a_knockout_is_recorded_without_a_table(svc):
    story = Story(svc, 4, system="knockout", rounds=2, ruleset="knockout", send=checked).start()
    story.play(1, [(1, 4, W), (2, 3, B)])
    story.complete()
    shot = snapshot(svc, story.id)
    assert shot["table"] is None
    # knockout rounds are published by the organisers (RULES.md §4): nothing counts before that
    assert shot["rounds"] == [{"number": 1, "status": "unpublished", "games": 2, "finished": 2}]
    assert published(svc, "standings.updated") == [] and published(svc, "standings.final") == []


@pytest.mark.parametrize("kind", ["tournament.started", "round.paired"])
def test_a_tournament_is_recorded_once(svc, kind):
    story = Story(svc, 4, send=checked).start()
    story.pair(1, [(1, 4), (2, 3)])
    again = next(e for e in story.envelopes if e.type == kind)
    deliver(svc, events.Envelope(type=kind, tournament_id=story.id, payload=again.payload, id=uuid.uuid4()))
    assert len(published(svc, "standings.updated")) == 1
