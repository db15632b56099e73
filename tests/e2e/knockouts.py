"""A six-player knockout played through a Story (real stack or embedded) and its expected end:
shared by the e2e knockout tests and the embedded ones."""

from __future__ import annotations

import uuid
from typing import Any

from shared.testing.polling import wait_for
from tests.e2e.story import Account, Story

# Six players, 2-game matches, a third-place match; seeds 1 and 2 have round-1 byes. Each match's
# games, won by the seed given (None: a draw):
#   round 1  4 v 5: 4 and 5 win a game each (1-1), tie-break stage 1 (15+10): a draw, then 5 wins → 5
#            3 v 6: 3 wins, a draw → 3 (1½-½)
#   round 2  1 v 5: 1 wins both → 1 (2-0);  2 v 3: 3 wins, a draw → 3 (1½-½)
#   round 3  final 1 v 3: a draw, 1 wins → 1 (1½-½);  third place 5 v 2: 2 wins both → 2 (2-0)
WINNERS: dict[str, list[int | None]] = {
    "winners:1:2": [4, 5, None, 5],
    "winners:1:4": [3, None],
    "winners:2:1": [1, 1],
    "winners:2:2": [3, None],
    "winners:3:1": [None, 1],
    "third_place:1:1": [2, 2],
}
# (match, seeds in slot order, winner, how, score of each slot, games)
BRACKET = [
    ("winners:1:1", [1, None], 1, None, None, 0),
    ("winners:1:2", [4, 5], 5, "tiebreak", [1.5, 2.5], 4),
    ("winners:1:3", [2, None], 2, None, None, 0),
    ("winners:1:4", [3, 6], 3, "regular", [1.5, 0.5], 2),
    ("winners:2:1", [1, 5], 1, "regular", [2, 0], 2),
    ("winners:2:2", [2, 3], 3, "regular", [0.5, 1.5], 2),
    ("winners:3:1", [1, 3], 1, "regular", [1.5, 0.5], 2),
    ("third_place:1:1", [5, 2], 2, "regular", [0, 2], 2),
]
# (place, rank, seed, matches won): players out in the same round share a place; a bye is no match won
PLACING = [("1", 1, 1, 2), ("2", 2, 3, 2), ("3", 3, 2, 1), ("4", 4, 5, 1), ("5–6", 5, 4, 0), ("5–6", 5, 6, 0)]


def six_player_knockout(story: Story, prefix: str) -> tuple[uuid.UUID, Account, dict[uuid.UUID, int]]:
    """Run the knockout above to its end, checking on the way that a paired round stays private until
    it is published; returns the tournament, its organiser and each player's seed."""
    organiser = story.register(f"Organiser {prefix}")
    # rated in the tournament's time control (10+5, rapid) so that seeds are 1..6 in this order
    players = [story.register(f"{prefix} {i}", 2400 - 10 * i) for i in range(1, 7)]
    tid = story.create_knockout(organiser, third_place=True)
    for p in reversed(players):
        story.add_player(tid, organiser, p)
    started = story.start_knockout(tid, organiser)
    assert started["status"] == "started" and started["knockout"]["seeding"] == "rating"
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    for number in (1, 2, 3):
        private = story.paired_round(tid, number, organiser.token)
        assert private["published"] is False and private["matches"]
        public = story.call("pairing", "GET", f"/tournaments/{tid}/rounds/{number}")
        assert (public["games"], public["matches"]) == ([], [])
        assert story.round_games(tid, number) == []  # the clocks show nobody the games yet
        # nor does the bracket (once standings has the round: it is told on its own queue)
        wait_for(
            lambda n=number: n in story.bracket(tid)["unpublished"], timeout=30, what="the round in standings"
        )
        story.publish(tid, number, organiser)
        story.play_matches(tid, number, organiser, seed, WINNERS)
    return tid, organiser, seed


def summary(bracket: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (
            m["match_id"],
            [p and p["seed"] for p in m["players"]],
            m["winner"],
            m["how"],
            m["score"],
            len([g for g in m["games"] if not g["cancelled"]]),
        )
        for section in bracket["sections"]
        for rnd in section["rounds"]
        for m in rnd["matches"]
    ]


def check_the_end(story: Story, tid: uuid.UUID) -> None:
    final = story.wait_status(tid, "completed", timeout=60)
    assert final["status"] == "completed"
    # registration hears tournament.completed on its own queue; standings may still be on the last
    # match, so wait for it as a reader would
    bracket = wait_for(
        lambda: (b := story.bracket(tid))["completed"] and b, timeout=30, what="the final bracket"
    )
    assert bracket["unpublished"] == []
    assert summary(bracket) == BRACKET
    assert [(p["place"], p["rank"], p["seed"], p["matches_won"]) for p in bracket["placing"]] == PLACING
    assert bracket["champion"]["seed"] == 1
    level = next(
        m
        for s in bracket["sections"]
        for r in s["rounds"]
        for m in r["matches"]
        if m["match_id"] == "winners:1:2"
    )
    won_by = {"1-0": "white", "0-1": "black", "½-½": None}
    games = [(g["label"], g[won_by[g["result"]]] if won_by[g["result"]] else None) for g in level["games"]]
    assert games == [
        ("Game 1", 4),
        ("Game 2", 5),
        ("Tie-break 1 (15+10), game 1", None),
        ("Tie-break 1 (15+10), game 2", 5),
    ]
    # colours: drawn for game 1, then alternating; each stage starts with game 1's colours
    white = [g["white"] for g in level["games"]]
    assert white[1] != white[0] and white[2] == white[0] and white[3] == white[1]
    assert [r["name"] for r in bracket["sections"][0]["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    tie_breaks = [g for g in story.round_games(tid, 1) if g["match_id"] == "winners:1:2" and g["number"] > 2]
    assert {g["clock"]["time_control"]["base_seconds"] for g in tie_breaks} == {900}  # their own clock
    for path in ("standings", "crosstable", "trf"):
        problem = story.call("standings", "GET", f"/tournaments/{tid}/{path}", expect=409)
        assert problem["type"] == "/problems/not-a-table"
