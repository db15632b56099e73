"""The platform rules of issue 13 on the real stack: a rated round robin of six with two random opening
moves drawn per game, a player busy elsewhere in round 2, both players of a pairing absent in round 3,
the final table and the Glicko-2 ratings after it checked exactly. (A tournament reaching its duration
is checked in the clocks' and pairing's tests: ten minutes and more are too long to wait for here.)"""

from __future__ import annotations

import time
import uuid

import pytest

from services.registration.domain.rating import Glicko2Rating, rate_game
from shared.scoring import Outcome
from tests.e2e.story import Story
from tests.e2e.tournaments import started

pytestmark = pytest.mark.e2e


def presence(story: Story, player, status: str) -> None:
    body = {"player_id": str(player.id), "status": status}
    story.call("clocks", "POST", "/presence", body, story.staff, expect=204)


def test_busy_and_absent_players_openings_and_ratings(story: Story):
    tid, players = started(story, "Rules", 6, opening="random-2", threshold=7)
    by_id = {p.id: p for p in players}
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    ratings = {p.id: Glicko2Rating(float(2400 - 10 * i)) for i, p in enumerate(players, start=1)}
    seen_openings: set[tuple[str, ...]] = set()
    results: dict[int, list[tuple[int, int, str]]] = {}
    for rnd in range(1, 6):
        games = story.wait_games(tid, rnd, 3)
        if rnd == 1:
            presence(story, players[4], "busy")  # seed 5 starts a game elsewhere: busy when round 2 is paired
        elif rnd == 2:
            presence(story, players[4], "disconnected")
            presence(story, players[3], "busy")  # round 3 pairs seeds 4 and 5: both absent
        elif rnd == 3:
            presence(story, players[3], "connected")
            presence(story, players[4], "connected")
        for game in games:
            white, black = (by_id[uuid.UUID(game[s]["player_id"])] for s in ("white", "black"))
            opening = tuple(game["opening"]["moves"])
            assert len(opening) == 2 and opening not in seen_openings  # drawn per game, never twice
            seen_openings.add(opening)
            if game["status"] == "finished":  # an absence: no game was played
                results.setdefault(rnd, []).append(
                    (seed[white.id], seed[black.id], game["result"]["outcome"])
                )
                continue
            outcome = "1-0" if seed[white.id] < seed[black.id] else "0-1"
            story.move(game, white)
            story.move(game, black)
            story.concede(game, outcome, by_id)
            results.setdefault(rnd, []).append((seed[white.id], seed[black.id], outcome))
            ratings[white.id], ratings[black.id] = rate_game(
                ratings[white.id], ratings[black.id], Outcome(outcome)
            )
    assert sorted(results[2]) == [(1, 2, "1-0"), (5, 3, "-/+"), (6, 4, "0-1")]  # seed 5 busy: a forfeit
    assert sorted(results[3]) == [(2, 6, "1-0"), (3, 1, "0-1"), (4, 5, "-/-")]  # both absent: 0-0

    final = story.wait_final(tid)
    # Worked by hand (win 2, forfeit win 2, double forfeit 0): 1: five wins, 10; 2: loses to 1 only, 8;
    # 3: beats 4 and 6, and 5 by forfeit, 6; 4: beats 6, 2; 5: beats 6, 2 (4 ahead by start number: level
    # on wins, their game a double forfeit); 6: 0.
    assert [(r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 10),
        (2, 8),
        (3, 6),
        (4, 2),
        (5, 2),
        (6, 0),
    ]
    time.sleep(1)  # the last ratings travel on their own queue
    for p in players:
        shown = story.call("registration", "GET", f"/accounts/{p.id}", None, p.token)["ratings"][
            "chess:blitz"
        ]
        assert shown == ratings[p.id].shown, p.name
