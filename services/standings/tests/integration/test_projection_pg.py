"""The projection and its repository on PostgreSQL: the same hand-worked tables, the rows read back
as they were written, and two consumer processes racing on one tournament."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from services.standings.adapters import columns, orm
from services.standings.entrypoints.app import create_app
from services.standings.tests.helpers import (
    SIX_PLAYER_TABLE,
    D,
    Story,
    W,
    checked,
    deliver,
    double_rounds_swiss,
    published,
    recomputed,
    six_player_round_robin,
    snapshot,
    table,
)
from shared import events

pytestmark = pytest.mark.integration


def test_a_round_robin_on_postgresql(pg_svc):
    story = six_player_round_robin(pg_svc)  # each delivery checked against a recomputation
    assert table(pg_svc, story.id) == SIX_PLAYER_TABLE
    for envelope in story.envelopes:  # redelivered: nothing changes
        deliver(pg_svc, envelope)
    with pg_svc.engine.connect() as conn:
        assert conn.execute(
            sa.select(sa.func.count()).select_from(orm.inbox)
        ).scalar() == 1 + 5 + 15 + 1 + 1 + (
            1 + 5 + 15 + 1
        )  # + the announcements queue, which hears every start (the arena queue hears an arena's only), and
        # the group-playoff page's, which hears the starts, pairings, results and completions of every
        # tournament (and keeps a group-playoff event's)
        assert conn.execute(sa.select(sa.func.count()).select_from(orm.outbox)).scalar() == 5 + 15 + 1
        assert conn.execute(sa.select(orm.tournaments.c.revision)).scalar() == 5 + 15 + 1  # and completion


def test_the_rows_read_back_as_written(pg_svc):
    story = double_rounds_swiss(pg_svc)
    t = pg_svc.views.tournament(story.id)
    assert t is not None
    shot = columns.snapshot_json(t.snapshot)  # the stored JSON, read into the domain and written again
    info = t.info
    assert (info.system, info.total_rounds, info.double_rounds, info.legs) == ("swiss", 3, True, 2)
    assert info.started_at.tzinfo is not None and info.completed_at is not None
    assert info.time_control.label() == "3+2"
    first = t.round(1)
    assert [(g.board, g.leg, g.white, g.black, g.outcome.value) for g in first.games] == [
        (1, 1, 1, 4, "1-0"),
        (2, 1, 2, 5, "1-0"),
        (1, 2, 4, 1, "1/2-1/2"),
        (2, 2, 5, 2, "1-0"),
    ]
    assert [(b.seed, b.kind.value) for b in first.byes] == [(3, "pairing_allocated")]
    assert all(g.reason == "reported" and g.finished_at.tzinfo is not None for g in first.games)
    assert shot == snapshot(pg_svc, story.id) == recomputed(pg_svc, story.id)
    assert shot["table"]["rows"][0]["tiebreaks"] == {"BH-C1": 19, "SB": 15.5, "WIN": 2}  # ints stay ints


def test_the_api_on_postgresql(pg_svc):
    story = double_rounds_swiss(pg_svc)
    client = create_app(pg_svc).test_client()
    assert [r["seed"] for r in client.get(f"/tournaments/{story.id}/standings").json["rows"]] == [
        5,
        3,
        1,
        4,
        2,
    ]
    assert client.get(f"/tournaments/{story.id}/crosstable").status_code == 200
    assert client.get(f"/tournaments/{story.id}/rounds/2").json["status"] == "finished"
    assert client.get(f"/tournaments/{story.id}/trf").status_code == 200


def test_two_consumers_racing_on_one_tournament(make_service):
    """Results of one round reach two consumer processes at once: the row lock serialises them,
    each notices the other's change (a stale live table is rebuilt), and the same event delivered
    to both has one effect."""
    one, two = make_service(), make_service()
    story = Story(one, 10, send=checked).start()
    story.pair(1, [(1, 6), (2, 7), (3, 8), (4, 9), (5, 10)])
    results = [
        story.finished(1, w, b, W if w % 2 else D) for w, b in [(1, 6), (2, 7), (3, 8), (4, 9), (5, 10)]
    ]
    twice = events.wrap(results[0], story.id)
    batches = [(one, [twice, *results[1:3]]), (two, [twice, *results[3:]])]
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def consume(svc, batch):
        barrier.wait()
        try:
            for event in batch:
                deliver(svc, event)
        except BaseException as exc:  # reported below, in the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=consume, args=item) for item in batches]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not failures
    shot = snapshot(one, story.id)
    assert shot == recomputed(one, story.id)
    assert (shot["after_round"], shot["games_counted"]) == (1, 5)
    # 1, 3, 5 won with White (2 points); 2-7 and 4-9 were drawn (1 each)
    assert [(r["seed"], r["points"]) for r in shot["table"]["rows"]][:5] == [
        (1, 2),
        (3, 2),
        (5, 2),
        (2, 1),
        (4, 1),
    ]
    updates = published(one, "standings.updated") + published(two, "standings.updated")
    assert len(updates) == 1 + 5  # the pairing and each result once, the doubled event included
    with one.engine.connect() as conn:
        assert conn.execute(sa.select(orm.tournaments.c.revision)).scalar() == 1 + 5


def test_corrections_and_withdrawals_on_postgresql(pg_svc):
    from services.standings.tests.unit.test_decisions import CORRECTED_SWISS, corrected_swiss

    story = corrected_swiss(pg_svc)  # each delivery checked against a recomputation
    assert table(pg_svc, story.id) == CORRECTED_SWISS
    story.withdraw(4, reason="a train to catch")
    with pg_svc.engine.connect() as conn:
        stored = conn.execute(sa.select(orm.corrections)).one()
        status = conn.execute(
            sa.select(orm.players.c.status, orm.players.c.status_reason, orm.players.c.status_role).where(
                orm.players.c.seed == 4
            )
        ).one()
    assert (stored.old_outcome, stored.outcome, stored.number, stored.role) == ("0-1", "1-0", 1, "arbiter")
    assert stored.decided_at.tzinfo is not None
    assert tuple(status) == ("withdrawn", "a train to catch", "arbiter")
    client = create_app(pg_svc).test_client()
    game = client.get(f"/tournaments/{story.id}/rounds/2").json["games"][2]
    assert (game["corrected"], game["old_outcome"], game["result"]) == (True, "0-1", "1-0")


def test_a_reset_and_a_new_start_on_postgresql(make_service):
    from services.standings.tests.helpers import KnockoutStory

    one, two = make_service(), make_service()
    story = KnockoutStory(one, 4, third_place=False, send=checked).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    story.svc = two  # the other consumer process resets it and sees the new start
    story.reset()
    story.start_again([4, 3, 2, 1])
    story.svc = one  # one's live table predates the reset: the row's revision tells it
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    t = one.views.tournament(story.id)
    assert [p.player_id for p in t.players] == [story.player_ids[s] for s in (1, 2, 3, 4)]
    assert t.round(1).published is False and t.revision == 2 + 1 + 1 + 1  # revisions go on counting
    with one.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(orm.games)).scalar() == 4
        assert conn.execute(sa.select(sa.func.count()).select_from(orm.rounds)).scalar() == 1


@pytest.mark.parametrize("first", ["match.decided", "game.result_corrected"])
def test_a_match_decided_again_before_or_after_its_correction_on_postgresql(make_service, first):
    """Issue 22: two consumer processes; the correction and the match decided again (revision 2) reach
    the standings in either order, and the bracket shows the new winner, its revision stored."""
    from services.standings.tests.helpers import corrected_semi_final

    one, two = make_service(), make_service()
    story, held = corrected_semi_final(one)
    corrected, decided, repaired = held
    ordered = [decided, corrected] if first == "match.decided" else [corrected, decided]
    checked(two, ordered[0])
    checked(one, ordered[1])
    checked(two, repaired)
    for svc in (one, two):
        t = svc.views.tournament(story.id)
        semi = t.match("winners:1:1")
        assert (semi.winner, semi.revision) == (4, 2)
        assert t.match("winners:2:1").players == (4, 2)
    with one.engine.connect() as conn:
        stored = conn.execute(
            sa.select(orm.matches.c.winner, orm.matches.c.revision).where(
                orm.matches.c.match_id == "winners:1:1"
            )
        ).one()
    assert tuple(stored) == (4, 2)
