"""Four players, told to all four services in one process (the embedded mode): RULES.md §2 says a round
robin of exactly four is three rounds, each with both games of every pairing, colours swapped, whatever
the organiser chose, one after the other (leg 2 starts when leg 1 ends). Six games each, never twelve;
points stay per game (win+draw = 3, two wins = 4)."""

from __future__ import annotations

import uuid

import pytest

from cli.embedded import EmbeddedStack
from tests.e2e.story import EmbeddedStory


@pytest.mark.parametrize("double_rounds", [False, True])
def test_four_players_play_three_rounds_of_two_games_a_pairing_embedded(tmp_path, double_rounds):
    stack = EmbeddedStack.create(tmp_path)
    try:
        story = EmbeddedStory(stack)
        organiser = story.register("Organiser")
        players = [story.register(f"P{i}", 2000 - 10 * i) for i in range(1, 5)]  # seeds 1..4
        seed = {p.id: i for i, p in enumerate(players, start=1)}
        by_id = {p.id: p for p in players}
        tid = story.create_tournament(organiser, start_in=600, double_rounds=double_rounds)
        for p in players:
            story.join(p, tid)
        stack.advance(900)  # the simulated clock passes the start (created from the real now)
        story.wait_status(tid, "started")

        played: dict[int, list[tuple[int, int, int]]] = {}
        for rnd in (1, 2, 3):
            played[rnd] = []
            for leg in (1, 2):  # a pairing's two games one after the other: leg 2 waits for leg 1
                games = [g for g in story.wait_games(tid, rnd, 4) if g["leg"] == leg]
                assert [g["status"] for g in games] == ["running", "running"], f"round {rnd} leg {leg}"
                if leg == 1:
                    waiting = [g for g in story.games(tid, rnd) if g["leg"] == 2]
                    assert [(g["status"], g["started_at"]) for g in waiting] == [("pending", None)] * 2
                stack.advance(60)  # each leg is played for a simulated minute
                for game in games:
                    white, black = (
                        uuid.UUID(game["white"]["player_id"]),
                        uuid.UUID(game["black"]["player_id"]),
                    )
                    w, b = seed[white], seed[black]
                    played[rnd].append((game["leg"], w, b))
                    # seed 1 wins every game; otherwise the lower seed wins the first game and the second
                    # is drawn
                    stronger_wins = "1-0" if w < b else "0-1"
                    outcome = stronger_wins if 1 in (w, b) or game["leg"] == 1 else "1/2-1/2"
                    story.concede(game, outcome, by_id)
            # each leg 2 started when its leg 1 ended, a simulated minute after the round began
            shown = {(g["board"], g["leg"]): g for g in story.games(tid, rnd)}
            for board in (1, 2):
                first, second = shown[(board, 1)], shown[(board, 2)]
                assert second["started_at"] == first["result"]["finished_at"], f"round {rnd} board {board}"
                assert first["next_leg"] == second["id"]
        final = story.wait_final(tid)

        assert story.pairing(tid)["total_rounds"] == 3
        for rnd, games in played.items():
            first = {(w, b) for leg, w, b in games if leg == 1}
            second = {(b, w) for leg, w, b in games if leg == 2}
            assert len(first) == 2 and first == second, f"round {rnd}: both games of each pairing"
        each = {s: sum(s in (w, b) for games in played.values() for _, w, b in games) for s in seed.values()}
        assert each == {1: 6, 2: 6, 3: 6, 4: 6}
        # 1: two wins against each (4+4+4); 2: win+draw against 3 and 4 (3+3); 3: loss+draw against 2 (1),
        # win+draw against 4 (3); 4: loss+draw against 2 and 3 (1+1)
        assert [(r["rank"], r["seed"], r["points"]) for r in final["rows"]] == [
            (1, 1, 12),
            (2, 2, 6),
            (3, 3, 4),
            (4, 4, 2),
        ]
        assert final["double_rounds"] is True and final["system"] == "round_robin"
        assert story.games(tid, 4) == []  # no fourth round
    finally:
        stack.close()
