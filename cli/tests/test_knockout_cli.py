"""A knockout from the command line (issue 22): `arbiter create --ruleset knockout|double-knockout` with its
plan, `players enter`, `seeding draw|order`, `start`, `publish`, `swap-colours`, `reset`, `games`, `report`
and `show` — against the four services' own apps served over HTTP on free ports (the embedded adapters:
SQLite, the in-process broker, which the test lets deliver with ``settle()`` between two commands)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.embedded import EmbeddedStack
from cli.main import build_cli
from cli.tests.served import serving

SERVICES = ("registration", "pairing", "clocks", "standings")


@dataclass
class Site:
    stack: EmbeddedStack
    urls: dict[str, str]

    def arbiter(self, who: uuid.UUID, *args: str) -> Result:
        """``arbiter ARGS`` as ``who``, then the services' work that is due (the broker delivers)."""
        urls = [arg for s in SERVICES for arg in (f"--{s}-url", self.urls[s])]
        result = CliRunner().invoke(
            build_cli(), [*args, *urls, "--token", self.stack.token(who)], env={"COLUMNS": "200"}
        )
        self.stack.settle()
        return result

    def ok(self, who: uuid.UUID, *args: str) -> str:
        result = self.arbiter(who, *args)
        assert result.exit_code == 0, result.output
        return result.output

    def account(self, name: str, rating: int | None = None) -> uuid.UUID:
        body: dict[str, Any] = {"name": name, "ratings": {"chess:rapid": rating} if rating else {}}
        staff = self.stack.token(uuid.uuid4(), "service")
        return uuid.UUID(self.stack.api["registration"].call("POST", "/accounts", body, staff)["id"])

    def get(self, service: str, path: str, who: uuid.UUID | None = None) -> Any:
        return self.stack.api[service].call("GET", path, None, self.stack.token(who) if who else None)


@pytest.fixture
def site(tmp_path) -> Iterator[Site]:
    stack = EmbeddedStack.create(tmp_path)
    try:
        with ExitStack() as servers:
            urls = {
                s: servers.enter_context(serving(stack.api[s].client.application, threaded=False))
                for s in SERVICES
            }
            yield Site(stack, urls)
    finally:
        stack.close()


def created_id(output: str) -> str:
    found = re.match(r"created (\S+): ", output)
    assert found, output
    return found[1]


def test_a_knockout_from_its_draft_to_its_placing(site: Site):
    olga = site.account("Olga Organiser")
    players = [site.account(name, 2000 - 50 * i) for i, name in enumerate(("Ann", "Bob", "Cid", "Dora"))]
    out = site.ok(
        olga, "create", "--ruleset", "knockout", "--name", "Club cup", "--tc", "10+5", "--games-per-match", "1",
        "--tiebreak", "1x5+3", "--sudden-death", "3+2", "--third-place", "--seeding", "random",
    )  # fmt: skip
    tid = created_id(out)
    assert out.splitlines()[1:] == [
        "  1 game a match; tie-breaks 1x5+3, then sudden death 3+2",
        "  seeding by random; a third-place match",
        "  next: `arbiter players enter`, then `arbiter start`",
    ]
    ko = site.get("registration", f"/tournaments/{tid}")["knockout"]
    assert (ko["games_per_match"], ko["seeding"], ko["third_place"]) == (1, "random", True)
    assert ko["tiebreak_plan"] == {
        "stages": [{"games": 1, "time_control": {"base_seconds": 300, "increment_seconds": 3}}],
        "sudden_death": {"base_seconds": 180, "increment_seconds": 2},
    }

    out = site.ok(olga, "players", "enter", tid, *map(str, players))
    assert "entered Ann (2000) in Club cup" in out and out.rstrip().endswith("4 players entered")
    drawn = site.ok(olga, "seeding", "draw", tid)
    ko = site.get("registration", f"/tournaments/{tid}")["knockout"]
    assert f"(draw seed {ko['draw_seed']}):" in drawn
    names = {str(p): n for p, n in zip(players, ("Ann", "Bob", "Cid", "Dora"), strict=True)}
    assert re.findall(r"^\s+\d\. (\w+)$", drawn, flags=re.M) == [names[p] for p in ko["draw_order"]]

    late = site.arbiter(olga, "publish", tid, "1")  # nobody started it: nothing is paired
    assert late.exit_code == 2
    assert f"Error: round 1 of {tid} is not paired yet (--wait DURATION waits for it)" in late.output

    site.ok(olga, "start", tid)
    first = site.get("pairing", f"/tournaments/{tid}", olga)["rounds"][0]["games"]
    out = site.ok(olga, "reset", tid, "--wait", "0s")  # registration hears it once the broker delivers
    assert out == f"{tid} is reset (registration still shows it started)\n"
    assert site.get("registration", f"/tournaments/{tid}")["status"] == "draft"
    assert "starts when its organiser starts it" in site.ok(olga, "show", tid)
    site.stack.advance(60)  # a minute later (a knockout's game ids include its start time)
    site.ok(olga, "start", tid)  # round 1 paired afresh: new games
    again = site.get("pairing", f"/tournaments/{tid}", olga)["rounds"][0]["games"]
    assert {g["game_id"] for g in again}.isdisjoint(g["game_id"] for g in first)

    unpublished = site.ok(olga, "show", tid)
    assert "paired, not published: round 1" in unpublished
    assert site.ok(olga, "publish", tid, "1") == f"round 1 of {tid} published: 2 matches\n"
    games = site.ok(olga, "games", tid, "--round", "1", "-q").split()
    assert len(games) == 2
    before = site.get("clocks", f"/games/{games[0]}")
    swapped = site.ok(olga, "swap-colours", games[0])
    after = site.get("clocks", f"/games/{games[0]}")
    assert (after["white"]["player_id"], after["black"]["player_id"]) == (
        before["black"]["player_id"],
        before["white"]["player_id"],
    )
    white, black = names[after["white"]["player_id"]], names[after["black"]["player_id"]]
    assert swapped == f"game {games[0]}: colours swapped\n  White {white}, Black {black}\n"
    for game in games:
        site.ok(olga, "report", game, "1-0")  # White wins

    assert site.ok(olga, "publish", tid, "2", "--wait", "5s") == f"round 2 of {tid} published: 2 matches\n"
    for game in site.ok(olga, "games", tid, "--round", "2", "-q").split():
        site.ok(olga, "report", game, "0-1")  # Black wins
    shown = site.ok(olga, "show", tid)
    assert "Club cup (knockout, chess, 10+5): completed" in shown
    bracket = site.get("standings", f"/tournaments/{tid}/bracket")
    final = next(
        m for s in bracket["sections"] for r in s["rounds"] for m in r["matches"] if r["name"] == "Final"
    )
    (game,) = final["games"]
    assert final["winner"] == game["black"]  # 0-1: Black won, White's result first
    row = re.search(
        r"^Final\s+winners:2:1\s+(.+?) v (.+?)\s+(\S+)\s+(\d–\d) 0-1 (.+?)\s*$", shown, flags=re.M
    )
    assert row, shown  # the game White–Black by seed, White's result first; Black through
    assert row[4] == f"{game['white']}–{game['black']}" and row[5].endswith(f"({game['black']})")
    placing = re.findall(r"^(\d)\s+(\d) \w+", shown[shown.index("final placing") :], flags=re.M)
    assert [place for place, _ in placing] == ["1", "2", "3", "4"]
    assert {p["place"] for p in bracket["placing"]} == {"1", "2", "3", "4"}
    kinds = {e["kind"] for e in site.get("registration", f"/tournaments/{tid}/audit", olga)["entries"]}
    assert {"seeding_drawn", "colours_swapped", "tournament_reset"} <= kinds


def test_a_double_knockout_with_its_own_plan_and_seeding(site: Site):
    olga = site.account("Olga Organiser")
    players = [site.account(f"P{i}", 1800) for i in range(1, 6)]
    out = site.ok(
        olga, "create", "--ruleset", "double-knockout", "--name", "Double", "--games-per-match", "4",
        "--tiebreak", "none", "--sudden-death", "5+0", "--no-second-final", "--seeding", "custom", "--unrated",
    )  # fmt: skip
    tid = created_id(out)
    assert (
        "4 games a match; tie-breaks none, then sudden death 5+0\n  seeding by custom; no second final" in out
    )
    t = site.get("registration", f"/tournaments/{tid}")
    assert (t["rated"], t["knockout"]["second_final"], t["knockout"]["tiebreak_plan"]["stages"]) == (
        False,
        False,
        [],
    )
    site.ok(olga, "players", "enter", tid, *map(str, players))
    order = list(reversed(players))
    out = site.ok(olga, "seeding", "order", tid, *map(str, order))
    assert re.findall(r"^\s+\d\. (P\d)$", out, flags=re.M) == ["P5", "P4", "P3", "P2", "P1"]
    site.ok(olga, "start", tid)
    seeds = {p["player_id"]: p["seed"] for p in site.get("pairing", f"/tournaments/{tid}", olga)["players"]}
    assert [seeds[str(p)] for p in order] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--third-place"], "--third-place goes with --ruleset knockout or double-knockout"),
        (
            ["--ruleset", "arena", "--minutes", "30", "--seeding", "random"],
            "--seeding goes with --ruleset knockout",
        ),
        (["--ruleset", "knockout", "--starts-in", "1h"], "--starts-in does not go with --ruleset knockout"),
        (["--ruleset", "knockout", "--rounds", "5"], "--rounds does not go with --ruleset knockout"),
        (["--ruleset", "double-knockout", "--third-place"], "--third-place goes with --ruleset knockout (a"),
        (
            ["--ruleset", "knockout", "--no-second-final"],
            "--no-second-final goes with --ruleset double-knockout",
        ),
        (["--ruleset", "knockout", "--tiebreak", "3x5+3"], "'3x5+3': a stage is GAMESxTC, 1 or 2 games"),
        (["--ruleset", "knockout", "--tiebreak", "2x5"], "'2x5': the time control is minutes+increment"),
        (["--ruleset", "knockout", "--sudden-death", "fast"], "Invalid value for '--sudden-death'"),
        (["--ruleset", "knockout", "--games-per-match", "3"], "'3' is not one of '1', '2', '4', '6'"),
    ],
)
def test_knockout_options_are_refused_where_they_do_not_belong(args, message):
    result = CliRunner().invoke(build_cli(), ["create", "--name", "Cup", *args, "--token", "t"])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_refusal_is_the_services_problem(site: Site):
    olga, bob = site.account("Olga"), site.account("Bob")
    tid = created_id(site.ok(olga, "create", "--ruleset", "knockout", "--name", "Cup"))
    refused = site.arbiter(bob, "seeding", "draw", tid)
    assert refused.exit_code == 1 and refused.output.startswith("Error: 403 ")
    refused = site.arbiter(olga, "seeding", "draw", tid)  # seeded by rating: nothing to draw
    assert refused.exit_code == 1 and "Error: 409 " in refused.output and "random" in refused.output
    missing = site.arbiter(olga, "swap-colours", str(uuid.uuid4()))
    assert missing.exit_code == 1 and missing.output.startswith("Error: 404 ")
    unknown = site.arbiter(olga, "publish", str(uuid.uuid4()), "1", "--wait", "1s")
    assert unknown.exit_code == 1 and "Error: 404 " in unknown.output and "not paired" not in unknown.output
