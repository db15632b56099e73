"""The standings handlers on the in-memory fakes (no database): each consumed event translated into
its command, applied to the tournament, saved, and the tournament's events published. The fakes
pass the same contract suite as the SQL adapters (tests/contract/), so here the handlers' own
decisions are tested: what is not ready yet, what contradicts the pairing, what changes nothing."""

from __future__ import annotations

import uuid

import pytest

from services.standings.domain.errors import EventMismatch
from services.standings.tests.helpers import (
    SIX_PLAYER_PLACING,
    SIX_PLAYER_TABLE,
    B,
    D,
    KnockoutStory,
    MemoryStandings,
    Story,
    W,
    deliver,
    double_rounds_swiss,
    on_the_fakes,
    six_player_knockout,
    six_player_round_robin,
)
from shared import events
from shared.messaging.port import NotReady


@pytest.fixture
def memory() -> MemoryStandings:
    return MemoryStandings()


def payloads(envelopes: list[events.Envelope]) -> list[tuple[str, dict]]:
    return [(e.type, e.payload) for e in envelopes if e.type.startswith("standings.")]


def test_the_fakes_publish_what_the_sql_adapters_publish(memory, svc):
    fake = six_player_round_robin(memory, send=on_the_fakes)
    real = six_player_round_robin(svc)
    assert len(memory.published) == 5 + 15 + 1  # a pairing, every result, the final table
    rows = memory.published[-1].payload["rows"]
    assert [(r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows] == [
        (rank, seed, points, tiebreaks) for rank, seed, points, tiebreaks, _shown in SIX_PLAYER_TABLE
    ]
    ids = {str(fake.player_ids[s]): str(real.player_ids[s]) for s in fake.player_ids}

    def same_ids(payload: dict) -> dict:
        rows = [{**r, "player_id": ids[r["player_id"]]} for r in payload["rows"]]
        return {**payload, "tournament_id": str(real.id), "rows": rows}

    assert [(kind, same_ids(p)) for kind, p in payloads(memory.published)] == payloads(svc.broker.published)
    assert memory.tournament(fake.id).info.completed_at is not None


def test_a_double_rounds_swiss_counts_every_leg(memory):
    story = double_rounds_swiss(memory, send=on_the_fakes)
    t = memory.tournament(story.id)
    assert (t.snapshot.after_round, t.snapshot.games_counted, t.revision) == (3, 12, 3 + 12 + 1)
    assert t.snapshot.table is not None
    assert [(r.seed, r.points) for r in t.snapshot.table.rows] == [(5, 9), (3, 9), (1, 7), (4, 6), (2, 5)]


def test_what_comes_before_its_cause_is_not_ready(memory):
    story = Story(memory, 4, send=on_the_fakes)
    with pytest.raises(NotReady, match=r"tournament\.started not seen yet"):
        story.pair(1, [(1, 4), (2, 3)])
    story.start()
    early = story.finished(1, 1, 4, W)  # round 1's pairing is still on its way
    story.paired.clear()
    with pytest.raises(NotReady, match="is not in tournament"):
        on_the_fakes(memory, early)
    with pytest.raises(NotReady, match=r"round 1 .* is not paired"):
        on_the_fakes(
            memory, events.RoundPublished(tournament_id=story.id, round=1, published_at=early.finished_at)
        )
    story.pair(1, [(1, 4), (2, 3)])
    with pytest.raises(NotReady, match="before the results of 2 games"):
        story.complete()
    story.result(1, 1, 4, W)
    story.result(1, 2, 3, D)
    story.complete()
    assert [e.type for e in memory.published] == ["standings.updated"] * 3 + ["standings.final"]


def test_a_knockout_match_or_game_not_paired_yet_is_not_ready(memory):
    story = KnockoutStory(memory, 4, third_place=False, send=on_the_fakes).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    unknown = events.GameCancelled(
        tournament_id=story.id,
        game_id=uuid.uuid4(),
        round=1,
        reason="match_decided",
        cancelled_at=story.started.started_at,
        white=uuid.uuid4(),
        black=uuid.uuid4(),
    )
    with pytest.raises(NotReady, match="is not in tournament"):
        on_the_fakes(memory, unknown)
    decided = events.MatchDecided(
        tournament_id=story.id,
        match_id="winners:2:1",
        round=2,
        section=events.Section.WINNERS,
        players=[story.player_ids[1], story.player_ids[2]],
        winner=story.player_ids[1],
        how=events.DecidedIn.REGULAR,
        decided_at=story.started.started_at,
    )
    with pytest.raises(NotReady, match="match winners:2:1 is not paired"):
        on_the_fakes(memory, decided)


def test_a_result_naming_other_players_than_its_pairing_is_refused(memory):
    story = Story(memory, 4, send=on_the_fakes).start()
    story.pair(1, [(1, 4), (2, 3)])
    wrong = story.finished(1, 1, 4, W).model_copy(update={"white": story.player_ids[2]})
    with pytest.raises(EventMismatch, match="other players than its pairing"):
        on_the_fakes(memory, wrong)
    assert memory.tournament(story.id).revision == 1  # the pairing only


def test_repeated_news_changes_nothing(memory):
    story = Story(memory, 4, send=on_the_fakes).start()
    story.pair(1, [(1, 4), (2, 3)])
    story.result(1, 1, 4, W)
    before = memory.tournament(story.id)
    story.send(memory, story.started)  # the start again
    story.send(memory, story.paired[1])  # the pairing again
    story.result(1, 1, 4, B)  # a second, different result: the first one stands
    after = memory.tournament(story.id)
    assert (after.revision, after.snapshot) == (before.revision, before.snapshot)
    assert after.revision == 2 and after.game(story.paired[1].games[0].game_id).outcome == W
    assert len(memory.published) == 2


def test_a_knockout_on_the_fakes(memory):
    story = six_player_knockout(memory, send=on_the_fakes)
    t = memory.tournament(story.id)
    assert memory.published == []  # a bracket: no table, no standings events
    assert [(p.seed, p.rank, p.places, p.matches_won) for p in t.placing or []] == SIX_PLAYER_PLACING
    assert [(m.match_id, m.winner, m.how) for m in t.round(1).matches] == [
        ("winners:1:1", None, None),  # a bye advances without a decision
        ("winners:1:2", 5, events.DecidedIn.TIEBREAK),
        ("winners:1:3", None, None),
        ("winners:1:4", 3, events.DecidedIn.REGULAR),
    ]
    assert [r.status.value for r in t.snapshot.rounds] == ["finished"] * 3


# -- the arbiter's decisions ------------------------------------------------------------------------


def test_corrections_and_withdrawals_on_the_fakes_publish_what_the_sql_adapters_publish(memory, svc):
    def story_on(target, send):
        story = Story(target, 5, system="swiss", rounds=3, send=send).start()
        story.play(1, [(1, 4, W), (2, 5, D)], bye=3)
        story.withdraw(4)
        story.play(2, [(2, 1, B), (3, 5, W)])
        story.correct(1, 2, 5, W)
        return story

    fake, real = story_on(memory, on_the_fakes), story_on(svc, deliver)
    ids = {str(fake.player_ids[s]): str(real.player_ids[s]) for s in fake.player_ids}

    def same_ids(payload: dict) -> dict:
        rows = [{**r, "player_id": ids[r["player_id"]]} for r in payload["rows"]]
        return {**payload, "tournament_id": str(real.id), "rows": rows}

    assert [(kind, same_ids(p)) for kind, p in payloads(memory.published)] == payloads(svc.broker.published)
    t = memory.tournament(fake.id)
    assert t.status(4) == "withdrawn" and t.round(1).games[1].corrected


def test_what_a_decision_follows_is_waited_for(memory):
    story = Story(memory, 4, system="swiss", rounds=2, send=on_the_fakes)
    with pytest.raises(NotReady, match=r"tournament\.started not seen yet"):
        story.withdraw(1)
    story.start()
    story.pair(1, [(1, 4), (2, 3)])
    early = story.finished(1, 1, 4, W)
    story.outcomes[early.game_id] = W
    with pytest.raises(NotReady, match="has no result yet"):
        on_the_fakes(memory, story.corrected(1, 1, 4, D))
    story.result(1, 1, 4, W)
    later = story.corrected(1, 1, 4, B, minutes=2)
    later = later.model_copy(update={"old_outcome": D})  # corrects a correction not seen yet
    with pytest.raises(NotReady, match="an earlier correction is on its way"):
        on_the_fakes(memory, later)
    unknown = story.corrected(1, 1, 4, D).model_copy(update={"game_id": uuid.uuid4()})
    with pytest.raises(NotReady, match="is not in tournament"):
        on_the_fakes(memory, unknown)
    assert memory.tournament(story.id).revision == 2  # the pairing and the result only


def test_decisions_that_contradict_what_was_recorded_are_refused(memory):
    story = KnockoutStory(memory, 4, third_place=False, send=on_the_fakes).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    outsider = events.PlayerWithdrawn(tournament_id=story.id, player_id=uuid.uuid4(), reason="who?")
    with pytest.raises(EventMismatch, match="is not in tournament"):
        on_the_fakes(memory, outsider)
    g = story.games[("winners:1:1", 1)]
    wrong = events.GameColoursSwapped(
        tournament_id=story.id,
        game_id=g.game_id,
        round=1,
        white=story.player_ids[2],
        black=g.white,
        decision=events.DecisionBy(by=uuid.uuid4(), role="arbiter", at=story.started.started_at),
    )
    with pytest.raises(EventMismatch, match="other players than its pairing"):
        on_the_fakes(memory, wrong)
    story.result(1, "winners:1:1", 1, W)
    with pytest.raises(EventMismatch, match="has its result: its colours stand"):
        story.swap(1, "winners:1:1", 1)
    assert memory.tournament(story.id).game(g.game_id).white == 1


def test_a_reset_tournament_waits_for_its_new_start(memory):
    story = KnockoutStory(memory, 4, third_place=False, send=on_the_fakes)
    with pytest.raises(NotReady, match=r"tournament\.started not seen yet"):
        story.reset()
    story.start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    undone = story.reset()
    on_the_fakes(memory, undone.model_copy(update={"id": uuid.uuid4()}))  # the same reset again: nothing
    assert memory.tournament(story.id).info.draft and memory.tournament(story.id).revision == 2
    with pytest.raises(NotReady, match="came before that start"):
        story.reset(minutes=6)  # the reset of start 1, which is not heard yet: it waits for it
    next_start = story.started.model_copy(update={"started_at": story.started.started_at.replace(hour=18)})
    kept: list[events.Envelope] = []
    story.send = lambda _memory, event: kept.append(events.wrap(event, story.id)) or kept[-1]
    story.start_again([1, 2, 3, 4], minutes=6 * 60)
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])  # the new start's games
    story.withdraw(1)
    story.send = on_the_fakes
    _, pairing, withdrawal = kept
    for envelope in (pairing, withdrawal):  # before their start: they wait for it
        with pytest.raises(NotReady, match="back in its draft"):
            on_the_fakes(memory, envelope)
    on_the_fakes(memory, kept[0])
    on_the_fakes(memory, kept[0].model_copy(update={"id": uuid.uuid4()}))  # the new start again: it stands
    t = memory.tournament(story.id)
    assert (t.info.draft, t.revision, t.info.started_at) == (False, 3, next_start.started_at)
    other = story.started.model_copy(update={"started_at": story.started.started_at.replace(hour=23)})
    with pytest.raises(NotReady, match=r"its tournament\.reset is on its way"):
        on_the_fakes(memory, other)


def test_only_what_a_reset_removed_is_settled(memory):
    """A game no reset removed, of a tournament known or not, a round published by the start after the
    reset (or a later one) and a withdrawal decided after it are not ready, as before: their causes may
    be on their way."""
    story = KnockoutStory(memory, 4, third_place=False, send=on_the_fakes).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.reset()
    g = story.games[("winners:1:1", 1)]
    stranger = g.model_copy(update={"game_id": uuid.uuid4()})
    swap = events.GameColoursSwapped(
        tournament_id=story.id,
        game_id=stranger.game_id,
        round=1,
        white=g.black,
        black=g.white,
        decision=events.DecisionBy(by=story.organiser, role="organiser", at=story.started.started_at),
    )
    later = story.started.started_at.replace(hour=20)
    published = events.RoundPublished(tournament_id=story.id, round=1, published_at=later, restarts=1)
    left = events.PlayerWithdrawn(
        tournament_id=story.id,
        player_id=story.player_ids[2],
        reason="ill",
        excluded=False,
        decision=events.DecisionBy(by=story.organiser, role="organiser", at=later),
    )
    ahead = published.model_copy(update={"restarts": 2})  # a start after a reset not heard yet
    for event in (swap, published, ahead, left, swap.model_copy(update={"tournament_id": uuid.uuid4()})):
        with pytest.raises(NotReady):
            on_the_fakes(memory, event)
