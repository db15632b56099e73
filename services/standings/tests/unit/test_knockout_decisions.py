"""A knockout under the arbiter's authority (embedded adapters): corrected results in the bracket, a
match decided again after a correction and its next match announced with the new player, colours
swapped before a result, unrated tie-break games, a withdrawn player marked, and a reset to the draft
followed by a new start."""

from __future__ import annotations

import itertools
import uuid

import pytest

from services.standings.tests.helpers import (
    NOW,
    B,
    D,
    KnockoutStory,
    W,
    checked,
    corrected_semi_final,
    deliver,
    embedded,
    four_player_knockout,
    problem,
    published,
    recomputed,
    revision,
    six_player_knockout,
    snapshot,
)
from shared import events


def bracket(client, story) -> dict:
    response = client.get(f"/tournaments/{story.id}/bracket")
    assert response.status_code == 200, response.json
    return response.json


def matches(body: dict) -> dict[str, dict]:
    return {m["match_id"]: m for s in body["sections"] for r in s["rounds"] for m in r["matches"]}


def test_a_corrected_game_shows_its_new_result_and_the_match_keeps_its_winner(client, svc):
    story = four_player_knockout(svc)
    story.result(1, "winners:1:1", 1, W)  # 1 (White) wins
    story.result(1, "winners:1:1", 2, W)  # 4 (White) wins: 1-1 ...
    story.correct(1, "winners:1:1", 2, D, reason="the players agreed a draw")  # ... corrected: 1½-½
    story.decide(1, "winners:1:1", 1)
    match = matches(bracket(client, story))["winners:1:1"]
    assert (match["score"], match["winner"]) == ([1.5, 0.5], 1)
    game = match["games"][1]
    assert (game["result"], game["corrected"], game["old_outcome"]) == ("½-½", True, "1-0")
    assert [(c["old_result"], c["result"], c["reason"], c["role"]) for c in game["corrections"]] == [
        ("1-0", "½-½", "the players agreed a draw", "arbiter")
    ]
    assert match["games"][0]["corrected"] is False and match["games"][0]["corrections"] == []
    assert published(svc, "standings.updated") == []  # a bracket has no table


def test_a_match_decided_again_after_a_correction_and_its_next_match_repaired(client, svc):
    story = four_player_knockout(svc)
    story.result(1, "winners:1:1", 1, W)
    story.result(1, "winners:1:1", 2, B)  # 1 wins both: 2-0
    story.decide(1, "winners:1:1", 1)
    story.result(1, "winners:1:2", 1, W)
    story.result(1, "winners:1:2", 2, B)  # 2 wins both
    story.decide(1, "winners:1:2", 2)
    story.pair(2, [("winners:2:1", 1, 2)])
    story.publish(2)
    before = revision(svc, story.id)
    story.decide(1, "winners:1:1", 4)  # a second decision without a correction: the first stands
    assert revision(svc, story.id) == before
    # both games were entered the wrong way round: 4 won them
    story.correct(1, "winners:1:1", 1, B)
    story.correct(1, "winners:1:1", 2, W)
    story.decide(1, "winners:1:1", 4)  # pairing decides again: 4 advances
    old_games = [story.games[("winners:2:1", n)].game_id for n in (1, 2)]
    story.repair(2, "winners:2:1", 4, 2)  # the final with 4, its games anew
    for game_id in old_games:  # as a producer before version 2 wrote it: no players
        deliver(
            svc,
            events.GameCancelledV1(
                tournament_id=story.id,
                game_id=game_id,
                round=2,
                reason="match_decided",
                cancelled_at=story.started.started_at,
            ),
        )
    shown = matches(bracket(client, story))
    semi = shown["winners:1:1"]
    assert (semi["score"], semi["winner"]) == ([0, 2], 4)
    final = shown["winners:2:1"]
    assert [p["seed"] for p in final["players"]] == [4, 2] and final["first_white"] == 4
    assert [(g["white"], g["black"], g["cancelled"]) for g in final["games"]] == [
        (1, 2, True),
        (4, 2, False),
        (2, 1, True),
        (2, 4, False),
    ]


def the_bracket_after_the_correction(client, svc, story) -> None:
    shown = matches(bracket(client, story))
    semi = shown["winners:1:1"]
    assert (semi["score"], semi["winner"], semi["games"][0]["corrected"]) == ([0.5, 1.5], 4, True)
    final = shown["winners:2:1"]
    assert [p["seed"] for p in final["players"]] == [4, 2]
    assert snapshot(svc, story.id) == recomputed(svc, story.id)


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))), ids=str)
def test_a_correction_that_changes_a_winner_is_shown_whatever_the_order_of_its_events(client, svc, order):
    """Issue 22: pairing publishes ``game.result_corrected``, ``match.decided`` and ``round.paired``
    together, and the standings hear them on three queues. A ``match.decided`` heard before the
    correction was dropped (the match had a winner and no corrected game yet): the bracket kept the old
    winner for good. The decision's revision says it is the later one, whatever came before it."""
    story, held = corrected_semi_final(svc)
    for i in order:
        deliver(svc, held[i])
    svc.broker.run_until_idle()  # whatever waited comes back behind the others
    the_bracket_after_the_correction(client, svc, story)


def test_an_earlier_decision_heard_after_a_later_one_changes_nothing(client, svc):
    story, held = corrected_semi_final(svc)
    for envelope in held:
        deliver(svc, envelope)
    before = revision(svc, story.id)
    story.decide(1, "winners:1:1", 1, revision=1)  # the first decision, delivered late (a new message)
    story.decide(1, "winners:1:1", 1)  # and as a producer before revisions wrote it: older still
    assert revision(svc, story.id) == before
    the_bracket_after_the_correction(client, svc, story)


def test_a_decision_again_with_the_same_winner_shows_where_it_was_decided(client, svc):
    """A correction may keep the winner and move the decision (from the tie-break to the regular
    games): pairing decides the match again, and the later revision replaces how it was decided."""
    story = four_player_knockout(svc)
    story.result(1, "winners:1:1", 1, W)
    story.result(1, "winners:1:1", 2, W)  # 1-1
    story.tie_break(1, "winners:1:1", 1, 4)
    story.result(1, "winners:1:1", 3, W)
    story.result(1, "winners:1:1", 4, B)  # 1 wins the tie-break
    story.decide(1, "winners:1:1", 1, "tiebreak", revision=1)
    story.correct(1, "winners:1:1", 2, B)  # 1 won game 2 too: 2-0 in the regular games
    story.decide(1, "winners:1:1", 1, "regular", revision=2)
    semi = matches(bracket(client, story))["winners:1:1"]
    assert (semi["winner"], semi["how"]) == (1, "regular")


def test_a_decision_naming_the_new_players_of_a_repaired_match_waits_for_them(client, svc):
    """The repaired final decided before the standings heard it repaired: the decision waits for the
    final's new players instead of being refused."""
    story, (corrected, decided, repaired) = corrected_semi_final(svc)
    deliver(svc, corrected)
    deliver(svc, decided)
    for n in (1, 2):  # 4 wins both games of the new final: its results wait for its new pairing
        g = story.games[("winners:2:1", n)]
        story.result(2, "winners:2:1", n, W if g.white == story.player_ids[4] else B)
    story.decide(2, "winners:2:1", 4, revision=1)  # waits too, instead of being refused
    assert svc.views.tournament(story.id).match("winners:2:1").winner is None
    deliver(svc, repaired)
    svc.broker.run_until_idle()  # what waited comes back behind it
    final = matches(bracket(client, story))["winners:2:1"]
    assert ([p["seed"] for p in final["players"]], final["winner"], final["score"]) == ([4, 2], 4, [2, 0])


def test_colours_swapped_before_the_result(client, svc):
    story = four_player_knockout(svc)
    early = story.games[("winners:1:2", 1)]
    story.swap(1, "winners:1:2", 1)  # 3 takes White in game 1 (and so in the match's first game)
    story.result(1, "winners:1:2", 1, W)  # 3 (White) wins
    match = matches(bracket(client, story))["winners:1:2"]
    assert match["first_white"] == 3
    assert (match["games"][0]["white"], match["games"][0]["black"], match["score"]) == (3, 2, [0, 1])
    round_one = client.get(f"/tournaments/{story.id}/rounds/1").json
    game = next(g for g in round_one["games"] if g["game_id"] == str(early.game_id))
    assert (game["white"]["seed"], game["black"]["seed"], game["result"]) == (3, 2, "1-0")
    before = revision(svc, story.id)
    story.send(
        svc,
        events.GameColoursSwapped(
            tournament_id=story.id,
            game_id=early.game_id,
            round=1,
            white=story.player_ids[3],
            black=story.player_ids[2],
            decision=events.DecisionBy(by=uuid.uuid4(), role="arbiter", at=story.started.started_at),
        ),
    )  # the same colours again: nothing changes
    assert revision(svc, story.id) == before


def test_a_result_naming_swapped_colours_waits_for_the_swap(svc):
    story = four_player_knockout(svc)
    g = story.games[("winners:1:2", 1)]
    finished = events.GameFinished(
        tournament_id=story.id,
        game_id=g.game_id,
        round=1,
        white=g.black,  # the clocks swapped the colours, the standings have not seen it yet
        black=g.white,
        outcome=W,
        reason="resignation",
        finished_at=story.started.started_at,
    )
    svc.broker.publish([events.wrap(finished, story.id)])
    svc.broker.run_until_idle()
    assert svc.views.tournament(story.id).game(g.game_id).outcome is None  # waiting
    story.swap(1, "winners:1:2", 1)
    svc.broker.run_until_idle()  # the result comes back behind the swap
    game = svc.views.tournament(story.id).game(g.game_id)
    assert (game.white, game.black, game.outcome) == (3, 2, W)
    assert [d for s in svc.subscriptions for d in svc.broker.dead_letters(s.queue)] == []


def test_tie_break_games_are_marked_unrated(client, svc):
    story = six_player_knockout(svc, upto=2)
    level = matches(bracket(client, story))["winners:1:2"]
    assert [(g["label"], g["rated"]) for g in level["games"]] == [
        ("Game 1", True),
        ("Game 2", True),
        ("Tie-break 1 (15+10), game 1", False),
        ("Tie-break 1 (15+10), game 2", False),
    ]
    games = client.get(f"/tournaments/{story.id}/rounds/1").json["games"]
    assert [g["rated"] for g in games] == [True, True, False, False, True, True]


def test_an_unrated_game_finished_is_unrated_whatever_the_pairing_said(svc):
    story = four_player_knockout(svc)
    g = story.games[("winners:1:1", 1)]
    deliver(
        svc,
        events.GameFinished(
            tournament_id=story.id,
            game_id=g.game_id,
            round=1,
            white=g.white,
            black=g.black,
            outcome=W,
            reason="resignation",
            finished_at=story.started.started_at,
            rated=False,
        ),
    )
    assert svc.views.tournament(story.id).game(g.game_id).rated is False


def test_a_withdrawn_player_is_marked_in_the_bracket(client, svc):
    story = four_player_knockout(svc)
    story.withdraw(4, reason="ill")
    body = bracket(client, story)
    assert [(p["seed"], p["status"]) for p in body["seeding"]] == [
        (1, None),
        (2, None),
        (3, None),
        (4, "withdrawn"),
    ]
    assert [p["status"] for p in matches(body)["winners:1:1"]["players"]] == [None, "withdrawn"]


def test_a_reset_knockout_is_forgotten_until_it_starts_again(client, svc):
    story = KnockoutStory(svc, 4, third_place=False, send=checked).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    story.reset()
    problem(client.get(f"/tournaments/{story.id}/bracket"), 404, "tournament-not-found")
    assert client.get(f"/t/{story.id}").status_code == 404
    story.start_again([2, 1, 3, 4])  # the organiser changed the seeding: the old 2 is seed 1
    body = bracket(client, story)
    assert (body["sections"], body["unpublished"], body["rounds"]) == ([], [], [])
    assert [p["player_id"] for p in body["seeding"]] == [str(story.player_ids[s]) for s in (1, 2, 3, 4)]
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    story.result(1, "winners:1:1", 1, W)
    shown = matches(bracket(client, story))
    assert [p["name"] for p in shown["winners:1:1"]["players"]] == ["Player 2", "Player 4"]
    assert shown["winners:1:1"]["games"][0]["result"] == "1-0"
    assert svc.views.tournament(story.id).info.started_at == story.started.started_at


def held(story: KnockoutStory) -> list[events.Envelope]:
    """From now on the story's events are kept, not delivered (``story.send = checked`` to resume)."""
    kept: list[events.Envelope] = []
    story.send = lambda _svc, event: kept.append(events.wrap(event, story.id)) or kept[-1]
    return kept


def test_events_of_a_reset_knockout_wait_for_its_new_start(svc):
    story = KnockoutStory(svc, 4, third_place=False, send=checked).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.reset()
    kept = held(story)
    story.start_again([1, 2, 3, 4], minutes=6 * 60)
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])  # its games: new ids
    story.publish(1)
    new_start, pairing, publication = kept
    for envelope in (pairing, publication):  # the new pairing and its publication before the new start
        svc.broker.publish([envelope])
        svc.broker.run_until_idle()
    assert svc.views.tournament(story.id) is None  # still in its draft (nothing shown): they wait
    svc.broker.publish([new_start])
    svc.broker.run_until_idle()
    svc.broker.run_until_idle()  # the pairing comes back behind the start, the publication behind it
    t = svc.views.tournament(story.id)
    assert t is not None and t.info.started_at == story.started.started_at
    assert [m.match_id for m in t.round(1).matches] == ["winners:1:1", "winners:1:2"]
    assert t.round(1).published
    assert [d for s in svc.subscriptions for d in svc.broker.dead_letters(s.queue)] == []


def finished(story: KnockoutStory, g: events.PairedGame, outcome) -> events.GameFinished:
    return events.GameFinished(
        tournament_id=story.id,
        game_id=g.game_id,
        round=1,
        white=g.white,
        black=g.black,
        outcome=outcome,
        reason="resignation",
        finished_at=NOW,
    )


def test_news_of_what_a_reset_removed_is_settled(svc, caplog):
    """Issue 22: a colour swap followed at once by a reset (two quick clicks) was dead-lettered: the
    swap waited for a new start that never names its game. News of the undone start — a game's swap,
    result or penalty, its round paired or published, a withdrawal from it — heard after the reset is
    acknowledged and logged, in the draft and after the new start, and changes nothing of the new one."""
    story = KnockoutStory(svc, 5, third_place=False, send=checked).start()
    story.pair(1, [("winners:1:2", 4, 5)], byes=[("winners:1:1", 1), ("winners:1:3", 2), ("winners:1:4", 3)])
    story.publish(1)
    kept = held(story)
    story.swap(1, "winners:1:2", 1)
    story.withdraw(3)
    story.send = checked
    story.reset()
    old_round, old_game = story.rounds[1], story.games[("winners:1:2", 2)]
    late = [
        *kept,  # the swap and the withdrawal, decided before the reset
        events.wrap(old_round, story.id),  # its round paired (heard late)
        events.wrap(
            events.RoundPublished(tournament_id=story.id, round=1, published_at=NOW, restarts=0), story.id
        ),
        events.wrap(finished(story, old_game, W), story.id),  # a result in flight at the reset
    ]
    with caplog.at_level("INFO", logger="services.standings.service_layer.handlers"):
        for envelope in late:  # in the draft
            deliver(svc, envelope)
        story.start_again([1, 2, 4, 5])  # 3 is not seeded again: withdrawn before the reset
        story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
        for envelope in late:  # and after the new start: the same news, as new messages
            deliver(svc, envelope.model_copy(update={"id": uuid.uuid4()}))
    settled = [r.getMessage() for r in caplog.records]
    assert len(settled) == 2 * len(late) and all(m.endswith("settled") for m in settled)
    t = svc.views.tournament(story.id)
    assert not t.round(1).published and t.withdrawals == {}  # the new round 1 waits for its own
    assert all(g.outcome is None and g.white != g.black for g in t.round(1).games)
    assert {g.game_id for g in t.round(1).games} == {g.game_id for g in story.rounds[1].games}
    assert snapshot(svc, story.id) == recomputed(svc, story.id)


def test_a_new_start_before_its_reset_waits_for_the_reset(svc):
    story = KnockoutStory(svc, 4, third_place=False, send=checked).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    new_start = story.started.model_copy(update={"started_at": story.started.started_at.replace(hour=18)})
    svc.broker.publish([events.wrap(new_start, story.id)])
    svc.broker.run_until_idle()  # not ready: the tournament is not reset yet
    assert svc.views.tournament(story.id).info.started_at == story.started.started_at
    story.reset()
    svc.broker.run_until_idle()
    t = svc.views.tournament(story.id)
    assert t is not None and t.info.started_at == new_start.started_at and t.rounds == {}


def test_a_reset_and_a_new_start_on_two_consumers(database_url):
    """The live tables of two consumer processes: a tournament one of them holds in memory from
    before the reset is never taken for the one started again (revisions go on counting)."""
    one, two = embedded(database_url), embedded(database_url, migrate=False)
    turns = itertools.cycle([one, two, two])
    story = KnockoutStory(one, 4, third_place=False, send=lambda _svc, e: checked(next(turns), e)).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    story.reset()
    story.start_again([1, 2, 4, 3])
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    story.result(1, "winners:1:2", 1, D)
    for svc in (one, two):
        t = svc.views.tournament(story.id)
        assert [(m.match_id, m.players) for m in t.round(1).matches] == [
            ("winners:1:1", (1, 4)),
            ("winners:1:2", (2, 3)),
        ]
        assert t.player(3).player_id == story.player_ids[3]
    for svc in (one, two):
        svc.engine.dispose()
