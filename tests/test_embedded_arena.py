"""The arena end to end in the embedded mode (``arbiter demo --ruleset arena``): registration, the pairing
worker's passes over the waiting pool, clocks with boosts and no-shows, the standings' table; the run is
checked from its JSON document alone (tests/arena_checks.py)."""

from __future__ import annotations

import json

from cli.main import main
from tests.arena_checks import check_arena


def run_demo(capsys, *args: str) -> dict:
    assert main(["demo", "--ruleset", "arena", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_whole_arena_embedded(capsys):
    document = run_demo(capsys, "--players", "10", "--minutes", "12", "--seed", "7", "--json")
    games, ranking = document["games"], document["ranking"]
    assert set(document) == {"games", "ranking"}
    assert len(ranking) == 10 and ranking[0]["rank"] == 1
    assert set(ranking[0]) == {"player", "rank", "points", "wins", "games"}
    assert set(games[0]) == {"white", "black", "started_at", "ended_at", "result", "boost", "points"}
    assert {g["result"] for g in games} <= {"1-0", "½-½", "0-1"}
    assert len(games) >= 10
    assert any(g["boost"]["white"] or g["boost"]["black"] for g in games)  # boosts were taken
    # 3+2: pairing closes 4 min 20 s before the end of a 12-minute arena
    check_arena(games, ranking, closes_after=12 * 60 - (180 + 40 * 2))


def test_the_same_seed_gives_the_same_arena(capsys):
    first = run_demo(capsys, "--players", "6", "--minutes", "10", "--seed", "3", "--json", "--tc", "1+0")
    again = run_demo(capsys, "--players", "6", "--minutes", "10", "--seed", "3", "--json", "--tc", "1+0")
    assert first["ranking"] == again["ranking"]
    check_arena(first["games"], first["ranking"], closes_after=10 * 60 - 60)


def test_the_table_is_printed(capsys):
    assert main(["demo", "--ruleset", "arena", "--players", "4", "--minutes", "10", "--tc", "1+0"]) == 0
    out = capsys.readouterr().out
    assert "Final ranking" in out and "games played" in out


def test_json_is_for_the_platform_arena_and_group_playoff_only(capsys):
    assert main(["demo", "--ruleset", "knockout", "--json"]) == 2
    assert "--json is offered for --ruleset platform, --ruleset group-playoff and --ruleset arena" in (
        capsys.readouterr().err
    )
