"""`arbiter demo --ruleset knockout|double-knockout`: a knockout as its organiser runs it — the draft, the
start, each round published, its matches played game by game (tie-breaks included), a player withdrawn as
round 2 begins (the forfeit chain) and a correction of round 1 refused because the player's next match has
a result (with three rounds or more), the final placing."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from cli.demos.common import EmbeddedRun, expected_score, figure, sign_up
from cli.embedded import ApiError
from cli.text import result as written


@dataclass
class KnockoutDemo(EmbeddedRun):
    """A knockout run as its organiser runs it, the players' results drawn from their ratings (the games
    are not played move by move: the organiser enters each result as it comes)."""

    console: Console
    rng: random.Random
    players: int
    minutes: float
    increment: int
    ruleset: str
    names: dict[uuid.UUID, str] = field(default_factory=dict)
    ratings: dict[uuid.UUID, int] = field(default_factory=dict)

    def _run(self, stack: Any) -> None:
        staff = stack.token(uuid.uuid4(), "service")  # a token's subject: in no output
        reg, pairing, clocks = stack.api["registration"], stack.api["pairing"], stack.api["clocks"]
        _organiser_id, organiser = self.account(stack, "Organiser", staff)
        knockout = {"third_place": True} if self.ruleset == "knockout" else {}
        body = {
            "name": f"Arbiter demo {self.ruleset}",
            "ruleset": self.ruleset,
            "time_control": {"base_seconds": int(self.minutes * 60), "increment_seconds": self.increment},
            "knockout": knockout,
        }
        tid = reg.call("POST", "/tournaments", body, organiser)["id"]
        speeds = ("blitz", "rapid", "bullet")
        for pid, name, rating in sign_up(reg, staff, self.rng, self.players, speeds, ids=self.new_id):
            self.names[pid], self.ratings[pid] = name, rating
            reg.call("POST", f"/tournaments/{tid}/entries", {"player_id": str(pid)}, organiser)
        reg.call("POST", f"/tournaments/{tid}/start", None, organiser)
        stack.settle()
        t = pairing.call("GET", f"/tournaments/{tid}", None, organiser)
        self.console.print(
            f"[bold]{body['name']}[/]: {self.players} players seeded by rating, "
            f"{self.minutes:g}+{self.increment}, {t['knockout']['games_per_match']} games a match, "
            f"{t['total_rounds']} rounds\n"
        )
        number = 1
        while number <= len(t["rounds"]):
            pairing.call("POST", f"/tournaments/{tid}/rounds/{number}/publish", None, organiser)
            stack.settle()
            if number == 2 and t["total_rounds"] >= 3:  # before the final: someone falls ill
                self._withdraw(stack, tid, organiser, number)
            while running := [
                g
                for g in clocks.call("GET", f"/tournaments/{tid}/games?round={number}", None, organiser)[
                    "games"
                ]
                if g["status"] == "running"
            ]:
                for game in running:
                    outcome = self._outcome(game)
                    reason = "agreement" if outcome == "1/2-1/2" else "resignation"
                    clocks.call(
                        "POST",
                        f"/games/{game['id']}/result",
                        {"outcome": outcome, "reason": reason},
                        organiser,
                    )
                stack.settle()
            self._print_round(stack, tid, number)
            if number == 2:
                self._refused_correction(stack, tid, organiser)
            t = pairing.call("GET", f"/tournaments/{tid}", None, organiser)
            number += 1
        self._print_placing(stack.api["standings"].call("GET", f"/tournaments/{tid}/bracket"))

    def _withdraw(self, stack: Any, tid: str, organiser: str, number: int) -> None:
        """The organiser withdraws the lowest seed still playing, as their match of round ``number``
        begins: the forfeit chain (RULES.md §4) gives every remaining game of it to the opponent."""
        matches = self._matches(stack, tid, number, organiser)
        match = max(matches, key=lambda m: max(p["seed"] for p in m["players"]))
        player = max(match["players"], key=lambda p: p["seed"])
        opponent = next(p for p in match["players"] if p is not player)
        reason = "fell ill"
        body = {"player_id": player["player_id"], "reason": reason}
        stack.api["registration"].call("POST", f"/tournaments/{tid}/withdrawals", body, organiser)
        stack.settle()
        games = [
            g
            for g in stack.api["clocks"].call(
                "GET", f"/tournaments/{tid}/games?round={number}", None, organiser
            )["games"]
            if g["match_id"] == match["match_id"]
        ]
        forfeits = ", ".join(
            f"game {g['number']} {g['result']['outcome']}"
            for g in games
            if g["result"] and g["result"]["reason"] == "withdrawal"
        )
        self.console.print(
            f"Withdrawal: {player['name']} ({player['seed']}) is withdrawn by the organiser, reason "
            f'"{reason}". Forfeit chain: {match["match_id"]} goes to {opponent["name"]} '
            f"({opponent['seed']}) by forfeit: {forfeits} (White's result first).\n"
        )

    def _refused_correction(self, stack: Any, tid: str, organiser: str) -> None:
        """The organiser tries to turn round 1's deciding game around for a player whose round-2 match
        already has a result: refused (409), naming the match, as RULES.md §4 says."""
        later = self._matches(stack, tid, 2, organiser)
        played = {p["seed"]: m for m in later if m["winner"] is not None for p in m["players"]}
        for match in self._matches(stack, tid, 1, organiser):
            winner = next(p for p in match["players"] if p["seed"] == match["winner"])
            games = [g for g in match["games"] if not g["cancelled"] and g["outcome"] in ("1-0", "0-1")]
            if winner["seed"] not in played or winner["status"] is not None or not games:
                continue
            game = games[-1]
            flipped = "0-1" if game["outcome"] == "1-0" else "1-0"
            body = {"outcome": flipped, "reason": "the result was entered the wrong way round"}
            white, black = (
                next(p for p in match["players"] if p["seed"] == game[s]) for s in ("white", "black")
            )
            self.console.print(
                f"Correction asked: {game['label']} of {match['match_id']} ({white['name']} v {black['name']}) "
                f"{game['outcome']} → {flipped}, which would no longer put {winner['name']} through; "
                f"{winner['name']}'s next match, {played[winner['seed']]['match_id']}, already has a result."
            )
            try:
                stack.api["pairing"].call("POST", f"/games/{game['game_id']}/correction", body, organiser)
            except ApiError as refused:
                problem = refused.problem
                self.console.print(
                    f"Correction refused ({refused.status} {problem['type'].rsplit('/', 1)[-1]}, "
                    f"match {problem['match_id']}): {problem['detail']}.\n"
                )
                return
            raise RuntimeError("the correction was accepted: the demo expected it refused")

    def _matches(self, stack: Any, tid: str, number: int, token: str) -> list[dict[str, Any]]:
        """The two-player matches of round ``number`` as the bracket shows them, each player with their
        ``player_id`` and each game with its ``id``."""
        bracket = stack.api["standings"].call("GET", f"/tournaments/{tid}/bracket")
        matches = [
            m
            for section in bracket["sections"]
            for rnd in section["rounds"]
            for m in rnd["matches"]
            if m["round"] == number and not m["bye"]
        ]
        return matches

    def _outcome(self, game: dict[str, Any]) -> str:
        expected = expected_score(self.ratings, game)
        roll = self.rng.random()
        if roll < expected - 0.15:
            return "1-0"
        return "1/2-1/2" if roll < expected + 0.15 else "0-1"

    def _print_round(self, stack: Any, tid: str, number: int) -> None:
        bracket = stack.api["standings"].call("GET", f"/tournaments/{tid}/bracket")
        table = Table(title=f"Round {number}", title_justify="left")
        for col in ("Match", "", "Score", "", "Games (White–Black by seed)", "Through"):
            table.add_column(col)
        for section in bracket["sections"]:
            for rnd in section["rounds"]:
                for m in rnd["matches"]:
                    if m["round"] != number or m["bye"]:
                        continue
                    a, b = m["players"]
                    games = ", ".join(
                        f"{g['white']}–{g['black']} {written(g['outcome'])}"
                        for g in m["games"]
                        if not g["cancelled"]
                    )
                    winner = a if m["winner"] == a["seed"] else b
                    how = {"tiebreak": " (tie-break)", "sudden_death": " (sudden death)"}.get(m["how"], "")
                    table.add_row(
                        rnd["name"],
                        f"{a['name']} ({a['seed']})",
                        f"{figure(m['score'][0])}–{figure(m['score'][1])}",
                        f"{b['name']} ({b['seed']})",
                        games,
                        f"{winner['name']}{how}",
                    )
        self.console.print(table)

    def _print_placing(self, bracket: dict[str, Any]) -> None:
        table = Table(title="Final placing", title_justify="left")
        for col in ("Place", "Seed", "Name", "Rtg", "Matches won"):
            table.add_column(col, justify="left" if col == "Name" else "right")
        for p in bracket["placing"]:
            table.add_row(p["place"], str(p["seed"]), p["name"], str(p["rating"]), str(p["matches_won"]))
        self.console.print(table)
