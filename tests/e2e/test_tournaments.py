"""Whole tournaments over HTTP against the real stack (gunicorn, consumers, relays, two pairing
workers, the clock ticker), checked against final tables worked out by hand."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.story import Story
from tests.e2e.tournaments import field, play_rounds, started

pytestmark = pytest.mark.e2e


def table(final: dict) -> list[tuple]:
    return [(r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in final["rows"]]


def test_six_player_round_robin(story: Story):
    tid, players = started(story, "Six", 6)

    def outcome(
        w: int, b: int
    ) -> str:  # a draw when the seeds sum to a multiple of 3, else the lower seed wins
        if (w + b) % 3 == 0:
            return "1/2-1/2"
        return "1-0" if w < b else "0-1"

    play_rounds(story, tid, players, rounds=5, games_per_round=3, outcome=outcome)
    final = story.wait_final(tid)
    # Worked by hand (win 2, draw 1, loss 0):
    #  1: =2 +3 +4 =5 +6 → 8 pts, 3 wins     2: =1 +3 =4 +5 +6 → 8, 3 wins
    #  3: -1 -2 +4 +5 =6 → 5, 2 wins          4: -1 =2 -3 =5 +6 → 4, 1 win
    #  5: =1 -2 -3 =4 +6 → 4, 1 win           6: -1 -2 =3 -4 -5 → 1, 0 wins
    # 1 and 2 (and 4 and 5) are level on points and wins, drew their game (DE equal): start number decides.
    # SB (shown; RULES.md §2: the beaten opponents' scores plus half the drawn opponents'):
    #  1: ½·8 + 5 + 4 + ½·4 + 1 = 16;  2: ½·8 + 5 + ½·4 + 4 + 1 = 16;  3: 4 + 4 + ½·1 = 8½
    #  4: ½·8 + ½·4 + 1 = 7;  5: ½·8 + ½·4 + 1 = 7;  6: ½·5 = 2½
    assert [(r["rank"], r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 1, 8),
        (2, 2, 8),
        (3, 3, 5),
        (4, 4, 4),
        (5, 5, 4),
        (6, 6, 1),
    ]
    assert [r["tiebreaks"]["WIN"] for r in final["rows"]] == [3, 3, 2, 1, 1, 0]
    assert [r["shown"]["SB"] for r in final["rows"]] == [16, 16, 8.5, 7, 7, 2.5]
    assert story.tournament(tid)["status"] == "completed"


def test_five_player_round_robin_with_byes(story: Story):
    tid, players = started(story, "Five", 5)

    def outcome(w: int, b: int) -> str:  # the lower seed wins, except 2 v 3, a draw
        if {w, b} == {2, 3}:
            return "1/2-1/2"
        return "1-0" if w < b else "0-1"

    play_rounds(story, tid, players, rounds=5, games_per_round=2, outcome=outcome)
    final = story.wait_final(tid)
    # Each player sits out once; the bye is worth a win (2) but is not a won game.
    #  1: 4 wins + bye → 10, WIN 4     2: -1 =3 +4 +5 + bye → 7, WIN 2     3: -1 =2 +4 +5 + bye → 7, WIN 2
    #  4: +5 + bye → 4, WIN 1          5: bye → 2, WIN 0
    # 2 and 3 drew (DE equal): start number puts 2 first.
    assert [(r["rank"], r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 1, 10),
        (2, 2, 7),
        (3, 3, 7),
        (4, 4, 4),
        (5, 5, 2),
    ]
    assert [r["tiebreaks"]["WIN"] for r in final["rows"]] == [4, 2, 2, 1, 0]


def test_too_few_players_cancel_the_tournament(story: Story):
    organiser = story.register("Organiser few")
    tid = story.create_tournament(organiser, start_in=2, minimum=4)
    for p in field(story, 3, "Few "):
        story.join(p, tid)
    cancelled = story.wait_status(tid, "cancelled")
    assert cancelled["status_reason"] == "too few players: 3 present, at least 4 needed"
    assert (
        story.call("pairing", "GET", f"/tournaments/{tid}", expect=404)["type"]
        == "/problems/tournament-not-found"
    )
    # the organiser may open another one at once
    story.create_tournament(organiser, start_in=60)


def test_flags_fall_with_nobody_reporting(story: Story):
    """Four players (three rounds, each with both games of every pairing, colours swapped, one after
    the other) on a 4-second clock. In every game White makes one move once it has started and then
    nobody moves or reports: Black's flag falls, the server ends the game, and the pairing's leg 2
    starts then."""
    organiser = story.register("Organiser flags")
    players = field(story, 4, "Flag ")
    by_id = {p.id: p for p in players}
    tid = story.create_tournament(organiser, start_in=2, base_seconds=4)
    for p in players:
        story.join(p, tid)
    story.wait_status(tid, "started")
    for rnd in range(1, 4):
        for leg in (1, 2):
            for game in (g for g in story.wait_games(tid, rnd, 4) if g["leg"] == leg):
                running = story.wait_started(game)
                assert running["status"] == "running", running
                story.move(running, by_id[uuid.UUID(running["white"]["player_id"])])
    final = story.wait_final(tid, timeout=90)
    games = [g for rnd in range(1, 4) for g in story.games(tid, rnd)]
    assert len(games) == 12  # six games each
    assert {(g["result"]["outcome"], g["result"]["reason"]) for g in games} == {("1-0", "time")}
    # everyone had White three times: three wins each, 6 points, all level; the start number orders them
    assert [(r["rank"], r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 1, 6),
        (2, 2, 6),
        (3, 3, 6),
        (4, 4, 6),
    ]
