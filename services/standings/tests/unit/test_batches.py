"""A consumed batch of results (group commit) publishes one ``standings.updated`` per tournament: the
last table, the same one the results taken one by one end with."""

from __future__ import annotations

import uuid

from services.standings.tests.helpers import (
    NOW,
    B,
    D,
    Story,
    W,
    embedded,
    published,
    recomputed,
    snapshot,
)
from shared import events


def _batch(svc, envelopes: list[events.Envelope]) -> list:  # type: ignore[no-untyped-def]
    subscription = next(s for s in svc.subscriptions if s.queue == "standings.game_finished")
    assert subscription.batch_handler is not None
    return subscription.batch_handler([(e, events.decode(events.encode(e))[1]) for e in envelopes])


def test_a_batch_of_results_publishes_one_table_per_tournament(tmp_path):
    batched = embedded(f"sqlite:///{tmp_path / 'batched.sqlite'}")
    alone = embedded(f"sqlite:///{tmp_path / 'alone.sqlite'}")
    stories = {}
    for name, svc in (("batched", batched), ("alone", alone)):
        one, two = Story(svc, 4).start(), Story(svc, 6).start()
        one.pair(1, [(1, 4), (2, 3)])
        two.pair(1, [(1, 6), (2, 5), (3, 4)])
        stories[name] = (one, two)
    one, two = stories["batched"]
    results = [
        events.wrap(e, e.tournament_id)
        for e in (
            one.finished(1, 1, 4, W),
            two.finished(1, 1, 6, W),
            one.finished(1, 2, 3, D),
            two.finished(1, 2, 5, B),
            two.finished(1, 3, 4, D),
        )
    ]
    before = len(published(batched, "standings.updated"))
    assert _batch(batched, results) == [None] * 5
    batched.broker.run_until_idle()  # type: ignore[attr-defined]
    updates = published(batched, "standings.updated")[before:]
    assert [(u.tournament_id, u.payload["games_counted"]) for u in updates] == [(one.id, 2), (two.id, 3)]

    a_one, a_two = stories["alone"]
    before = len(published(alone, "standings.updated"))
    for story, (white, black, outcome) in [
        (a_one, (1, 4, W)),
        (a_two, (1, 6, W)),
        (a_one, (2, 3, D)),
        (a_two, (2, 5, B)),
        (a_two, (3, 4, D)),
    ]:
        story.result(1, white, black, outcome)
    assert len(published(alone, "standings.updated")) - before == 5  # one per result, one by one
    for batched_story, alone_story in zip((one, two), (a_one, a_two), strict=True):
        last = [u for u in published(alone, "standings.updated") if u.tournament_id == alone_story.id][-1]
        mine = [u for u in updates if u.tournament_id == batched_story.id][-1]
        assert mine.payload["rows"] == _renamed(last.payload["rows"], alone_story, batched_story)
        assert snapshot(batched, batched_story.id) == recomputed(batched, batched_story.id)
    for svc in (batched, alone):
        svc.engine.dispose()


def _renamed(rows: list[dict], source: Story, target: Story) -> list[dict]:  # type: ignore[type-arg]
    """The same table with each player's id as the other story has it (same seeds)."""
    ids = {str(source.player_ids[seed]): str(target.player_ids[seed]) for seed in source.player_ids}
    return [{**row, "player_id": ids[row["player_id"]]} for row in rows]


def test_a_batch_computes_one_snapshot_and_writes_one_row_per_tournament(tmp_path, monkeypatch):
    """Three results of one tournament in a batch: the table is computed once, the tournament's row
    written once (its revision counts the three changes), and the event twice in the batch (the
    relay published it twice) is a duplicate."""
    from services.standings.domain.tournament import Tournament

    svc = embedded(f"sqlite:///{tmp_path / 'once.sqlite'}")
    story = Story(svc, 6).start()
    story.pair(1, [(1, 6), (2, 5), (3, 4)])
    results = [
        events.wrap(e, e.tournament_id)
        for e in (story.finished(1, 1, 6, W), story.finished(1, 2, 5, D), story.finished(1, 3, 4, B))
    ]
    computed = []
    original = Tournament._snapshot
    monkeypatch.setattr(
        Tournament, "_snapshot", lambda self, ranked: computed.append(1) or original(self, ranked)
    )
    statements: list[str] = []
    sa_event = __import__("sqlalchemy").event
    listener = lambda *args: statements.append(args[2])  # noqa: E731  # (conn, cursor, statement, …)
    sa_event.listen(svc.engine, "before_cursor_execute", listener)
    try:
        assert _batch(svc, [*results, results[0]]) == [None, None, None, "duplicate"]
    finally:
        sa_event.remove(svc.engine, "before_cursor_execute", listener)
    assert len(computed) == 1
    assert len([s for s in statements if s.lstrip().upper().startswith("UPDATE TOURNAMENTS")]) == 1
    svc.broker.run_until_idle()  # type: ignore[attr-defined]
    assert published(svc, "standings.updated")[-1].payload["games_counted"] == 3
    assert snapshot(svc, story.id) == recomputed(svc, story.id)
    svc.engine.dispose()


def test_a_batch_with_a_message_not_ready_keeps_the_others(tmp_path):
    """A result of a game not paired yet fails the batch at once; the batch is done again with a
    savepoint per message: the others stand, their table is the one computed from the rows."""
    from shared.messaging.port import NotReady

    svc = embedded(f"sqlite:///{tmp_path / 'savepoints.sqlite'}")
    story = Story(svc, 4).start()
    story.pair(1, [(1, 4), (2, 3)])
    early = Story(svc, 4).start()  # round 1 not paired here yet
    good = [events.wrap(e, e.tournament_id) for e in (story.finished(1, 1, 4, W), story.finished(1, 2, 3, D))]
    unpaired = events.GameFinished(
        tournament_id=early.id,
        game_id=uuid.uuid4(),
        round=1,
        white=early.player_ids[1],
        black=early.player_ids[4],
        outcome=W,
        reason="reported",
        moves=40,
        finished_at=NOW,
    )
    premature = events.wrap(unpaired, early.id)
    outcomes = _batch(svc, [good[0], premature, good[1]])
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], NotReady)
    svc.broker.run_until_idle()  # type: ignore[attr-defined]
    assert published(svc, "standings.updated")[-1].payload["games_counted"] == 2
    assert snapshot(svc, story.id) == recomputed(svc, story.id)
    svc.engine.dispose()
