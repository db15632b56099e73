"""The embedded mode runs a knockout too: the e2e story of tests/e2e/test_knockout.py, told to all four
services in one process (in-process broker, SQLite, a simulated clock)."""

from __future__ import annotations

from cli.embedded import EmbeddedStack
from tests.e2e.knockouts import check_the_end, six_player_knockout
from tests.e2e.story import EmbeddedStory


def test_a_six_player_knockout_embedded(tmp_path):
    stack = EmbeddedStack.create(tmp_path)
    try:
        story = EmbeddedStory(stack)
        tid, _organiser, _seed = six_player_knockout(story, "Embedded")
        check_the_end(story, tid)
        queues = [
            s.queue
            for svc in (stack.registration, stack.pairing, stack.clocks, stack.standings)
            for s in svc.subscriptions
        ]
        assert [d for q in queues for d in stack.broker.dead_letters(q)] == []
    finally:
        stack.close()


def test_four_game_matches_decided_early_and_in_sudden_death_embedded(tmp_path):
    """Four players, four-game matches, no third-place match. 1 v 4: 1 wins three games, the fourth is
    not needed. 2 v 3: 2-2, both tie-break stages level (draws), 3 wins the sudden-death game. The final
    1 v 3: 1 wins three games, the fourth is cancelled though it had started (the decision comes after
    the clocks moved on), just as the tournament completes."""
    winners: dict[str, list[int | None]] = {
        "winners:1:1": [1, 1, 1, 1],
        "winners:1:2": [2, 3, 2, 3, None, None, None, None, 3],
        "winners:2:1": [1, 1, 1, 1],
    }
    stack = EmbeddedStack.create(tmp_path)
    try:
        story = EmbeddedStory(stack)
        organiser = story.register("Organiser")
        players = [story.register(f"P{i}", 2400 - 10 * i) for i in range(1, 5)]
        tid = story.create_knockout(organiser, games_per_match=4)
        for p in players:
            story.add_player(tid, organiser, p)
        story.start_knockout(tid, organiser)
        seed = {p.id: i for i, p in enumerate(players, start=1)}
        for number in (1, 2):
            story.paired_round(tid, number, organiser.token)
            story.publish(tid, number, organiser)
            story.play_matches(tid, number, organiser, seed, winners)
        bracket = story.bracket(tid)
        shown = {m["match_id"]: m for s in bracket["sections"] for r in s["rounds"] for m in r["matches"]}
        assert [(m, shown[m]["winner"], shown[m]["how"], shown[m]["score"]) for m in winners] == [
            ("winners:1:1", 1, "regular", [3, 0]),
            ("winners:1:2", 3, "sudden_death", [4, 5]),
            ("winners:2:1", 1, "regular", [3, 0]),
        ]
        assert [g["cancelled"] for g in shown["winners:1:1"]["games"]] == [False, False, False, True]
        assert [g["label"] for g in shown["winners:1:2"]["games"]][4:] == [
            "Tie-break 1 (15+10), game 1",
            "Tie-break 1 (15+10), game 2",
            "Tie-break 2 (5+3), game 1",
            "Tie-break 2 (5+3), game 2",
            "Sudden death (3+2)",
        ]
        final_games = story.round_games(tid, 2)
        assert [g["status"] for g in final_games] == ["finished", "finished", "finished", "cancelled"]
        assert final_games[3]["started_at"] is not None  # it had started
        assert [(p["place"], p["seed"], p["matches_won"]) for p in bracket["placing"]] == [
            ("1", 1, 2),
            ("2", 3, 1),
            ("3–4", 2, 0),
            ("3–4", 4, 0),
        ]
        queues = [
            s.queue
            for svc in (stack.registration, stack.pairing, stack.clocks, stack.standings)
            for s in svc.subscriptions
        ]
        assert [d for q in queues for d in stack.broker.dead_letters(q)] == []
    finally:
        stack.close()


def test_a_colour_swap_and_a_reset_two_clicks_apart_embedded(tmp_path, caplog):
    """Issue 22: the organiser swaps the colours of a game of round 1 and resets the knockout at once.
    Every service hears the swap after the reset: it is settled (acknowledged and logged) where it was
    dead-lettered. The games that had started are cancelled by the reset, so nobody stays marked as in
    a game; the knockout starts again with new games, shown in the bracket."""
    stack = EmbeddedStack.create(tmp_path)
    try:
        story = EmbeddedStory(stack)
        organiser = story.register("Organiser")
        players = [story.register(f"P{i}", 2400 - 10 * i) for i in range(1, 5)]
        tid = story.create_knockout(organiser, games_per_match=2)
        for p in players:
            story.add_player(tid, organiser, p)
        story.start_knockout(tid, organiser)
        story.paired_round(tid, 1, organiser.token)
        story.publish(tid, 1, organiser)
        before = story.round_games(tid, 1, organiser.token)
        assert sorted(g["status"] for g in before) == ["pending", "pending", "running", "running"]
        assert all(stack.pairing.arena_pool.playing(p.id) for p in players)  # each in a match's game 1
        waiting = next(g for g in before if g["status"] == "pending")
        with caplog.at_level("INFO"):
            stack.api["clocks"].call("POST", f"/games/{waiting['id']}/colours", None, organiser.token)
            stack.api["pairing"].call("POST", f"/tournaments/{tid}/reset", None, organiser.token)  # at once
            stack.settle()
        queues = [
            s.queue
            for svc in (stack.registration, stack.pairing, stack.clocks, stack.standings)
            for s in svc.subscriptions
        ]
        assert [d for q in queues for d in stack.broker.dead_letters(q)] == []
        settled = [r for r in caplog.records if r.getMessage().endswith("settled")]
        assert {r.name for r in settled} == {
            "services.pairing.service_layer.settled",
            "services.standings.service_layer.handlers",
        }
        told = sorted((r.name.split(".")[1], r.getMessage().split(" for game ")[0]) for r in settled)
        assert told == [  # the swap, and the cancellations of the started games the reset removed
            ("pairing", "game.colours_swapped"),
            ("standings", "game.cancelled"),
            ("standings", "game.cancelled"),
            ("standings", "game.colours_swapped"),
        ]
        assert not any(stack.pairing.arena_pool.playing(p.id) for p in players)
        assert story.tournament(tid)["status"] == "draft"
        story.start_knockout(tid, organiser)
        story.paired_round(tid, 1, organiser.token)
        story.publish(tid, 1, organiser)
        after = story.round_games(tid, 1, organiser.token)
        assert {g["id"] for g in after}.isdisjoint({g["id"] for g in before}) and len(after) == 4
        shown = story.bracket(tid)
        ids = {
            g["game_id"]
            for s in shown["sections"]
            for r in s["rounds"]
            for m in r["matches"]
            for g in m["games"]
        }
        assert ids == {g["id"] for g in after}
        assert [d for q in queues for d in stack.broker.dead_letters(q)] == []
    finally:
        stack.close()
