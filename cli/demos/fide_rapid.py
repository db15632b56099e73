"""`arbiter demo --ruleset fide-rapid`: an over-the-board rapid Swiss run by its arbiters, embedded — the
organiser creates the event and enters the players, an arbiter starts it, pairs and publishes each round,
enters the results from the score sheets, records a late arrival forfeited at the default time, excuses an
absence, grants a zero-point bye, and penalises two illegal moves (the first gives the opponent a minute,
the second loses). Each round's pairing list and the final table with its tie-breaks are printed; with
``--trf PATH`` the final TRF-16 file (``XXR``, ``XXC``) is written there, so bbpPairings, JaVaFo or
``arbiter pair --dutch`` can re-pair any round of it.

The incidents are fixed by round and board so that every run shows them; the results are drawn from the
players' ratings with the demo's random seed."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from cli.demos.common import NAMES, EmbeddedRun, final_table
from cli.embedded import ApiError
from cli.pairing_list import pairing_lines
from cli.text import result as written
from shared.trf import parse

FEDERATIONS = ("SUI", "GER", "FRA", "ITA", "AUT", "NED", "ENG", "ESP")
TITLES = ("GM", "IM", "FM", "CM")
SURNAMES = (*NAMES, "Alekhine", "Bronstein", "Chiburdanidze", "Duda", "Elianov", "Flohr", "Geller", "Hort")

ROUNDS = 7
LATE_ARRIVAL = (2, 3)
"""Round 2, board 3: Black arrives after the default time (forfeited; nobody excuses it: withdrawn)."""
EXCUSED = (4, 5)
"""Round 4, board 5: White is absent (forfeited) and the arbiter excuses it before round 5 is published."""
BYE = (3, 8)
"""The player seeded 8 asks for a zero-point bye for round 3."""
ILLEGAL = (5, 1)
"""Round 5, board 1: White's first illegal move (Black gets a minute), then a second one: White loses."""


@dataclass
class FideRapidDemo(EmbeddedRun):
    console: Console
    rng: random.Random
    players: int
    minutes: float
    increment: int
    trf: Path | None = None
    names: dict[str, str] = field(default_factory=dict)
    ratings: dict[str, int] = field(default_factory=dict)
    incidents: list[str] = field(default_factory=list)
    seed_ratings: dict[int, int] = field(default_factory=dict)

    # -- the event ------------------------------------------------------------------------------
    def _run(self, stack: Any) -> None:
        staff = stack.token(uuid.uuid4(), "service")  # a token's subject: in no output
        reg, pairing = stack.api["registration"], stack.api["pairing"]
        _organiser_id, organiser = self.account(stack, "Organiser", staff)
        arbiter_id, arbiter = self.account(stack, "Chief Arbiter", staff)
        tc = {"base_seconds": int(self.minutes * 60), "increment_seconds": self.increment}
        body = {
            "ruleset": "fide-rapid",
            "name": "Arbiter demo rapid open",
            "time_control": tc,
            "fide": {"rounds": ROUNDS, "system": "swiss", "place": "Bern", "clocks": "board"},
        }
        tid = reg.call("POST", "/tournaments", body, organiser)["id"]
        reg.call("POST", f"/tournaments/{tid}/arbiters", {"account_id": str(arbiter_id)}, organiser)
        for i in range(self.players):
            entry = reg.call("POST", f"/tournaments/{tid}/players", self._player(i), arbiter)
            self.names[entry["player_id"]] = entry["name"]
            self.ratings[entry["player_id"]] = entry.get("rating") or 0
        reg.call("POST", f"/tournaments/{tid}/start", None, arbiter)
        stack.settle()
        label = f"{self.minutes:g}+{self.increment}"
        self.console.print(
            f"[bold]{body['name']}[/] (Bern): {self.players} players in starting-rank order, {ROUNDS} rounds, "
            f"Swiss (Dutch), {label}, clocks on the boards\n"
        )
        roster = pairing.call("GET", f"/tournaments/{tid}")["players"]
        seeds = {p["seed"]: str(p["player_id"]) for p in roster}
        self.seed_ratings = {p["seed"]: p["rating"] for p in roster}
        for number in range(1, ROUNDS + 1):
            if number == BYE[0]:
                player = seeds[BYE[1]]
                bye = {"player_id": player, "round": number, "reason": "family matter"}
                pairing.call("POST", f"/tournaments/{tid}/byes", bye, arbiter)
                self._note(f"round {number}: {self.names[player]} asked for a zero-point bye")
            self._round(stack, tid, number, arbiter)
        table = self._standings(stack, tid)
        self._print_table(table)
        self.console.print("\nIncidents:")
        for line in self.incidents:
            self.console.print(f"  {line}", highlight=False, markup=False, soft_wrap=True)
        if self.trf is not None:
            text = self._trf16(stack, tid)
            self.trf.write_text(text, encoding="utf-8", newline="")
            doc = parse(text)
            self.console.print(
                f"\nTRF-16 written to {self.trf} (XXR {doc.total_rounds}, XXC with the first colour)",
                highlight=False,
            )

    def _player(self, i: int) -> dict[str, Any]:
        rating = self.rng.randrange(1500, 2650, 5)
        title = self.rng.choice(TITLES) if rating >= 2300 and self.rng.random() < 0.6 else None
        body: dict[str, Any] = {
            "name": f"{SURNAMES[i % len(SURNAMES)].split()[-1]}, {chr(ord('A') + (i * 7) % 26)}.",
            "fide_id": 1_000_000 + 137 * (i + 1),
            "federation": FEDERATIONS[i % len(FEDERATIONS)],
            "sex": "w" if i % 5 == 2 else "m",
            "birth_year": self.rng.randrange(1960, 2012),
            "rating_standard": rating,
            "rating_rapid": max(1000, rating + self.rng.randrange(-80, 80)),
        }
        if title:
            body["title"] = title
        return body

    # -- one round ------------------------------------------------------------------------------
    def _round(self, stack: Any, tid: str, number: int, arbiter: str) -> None:
        pairing, clocks = stack.api["pairing"], stack.api["clocks"]
        base = f"/tournaments/{tid}/rounds/{number}"
        preview = pairing.call("GET", f"{base}/preview", None, arbiter)
        if preview["absent"]:
            names = ", ".join(p["name"] for p in preview["absent"])
            self._note(f"round {number}: left out, absent from round {number - 1} without excuse: {names}")
        pairing.call("POST", f"{base}/pair", None, arbiter)
        pairing.call("POST", f"{base}/publish", None, arbiter)
        stack.settle()
        games = clocks.call("GET", f"/tournaments/{tid}/games?round={number}", None, arbiter)["games"]
        stack.advance(60 * 11)  # past the default time: the boards without a player are forfeited
        for game in sorted(games, key=lambda g: g["board"]):
            where = (number, game["board"])
            if where == LATE_ARRIVAL:
                self._absent(stack, game, "black", arbiter, "arrived after the default time")
            elif where == EXCUSED:
                self._absent(stack, game, "white", arbiter, "absent")
            elif where == ILLEGAL:
                self._illegal_moves(stack, game, arbiter)
        stack.advance(60 * 40)
        for game in sorted(games, key=lambda g: g["board"]):
            if (number, game["board"]) in (LATE_ARRIVAL, EXCUSED, ILLEGAL):
                continue
            outcome = self._outcome(game)
            reason = "agreement" if outcome == "1/2-1/2" else "resignation"
            clocks.call(
                "POST", f"/games/{game['id']}/result", {"outcome": outcome, "reason": reason}, arbiter
            )
        stack.settle()
        if number == EXCUSED[0]:
            game = next(g for g in games if g["board"] == EXCUSED[1])
            player = game["white"]["player_id"]
            body = {"round": number, "reason": "the train was late; the arbiter was told"}
            pairing.call("POST", f"/tournaments/{tid}/absences/{player}/excuse", body, arbiter)
            self._note(
                f"round {number}: {self.names[player]}'s absence excused: paired again in round {number + 1}"
            )
        # the round's pairing list as the arbiters post it at its end: every board with its result
        listing = pairing.call("GET", f"{base}/pairings")
        self.console.print("\n".join(pairing_lines(listing)), highlight=False, markup=False, soft_wrap=True)
        self.console.print()

    def _absent(self, stack: Any, game: dict[str, Any], side: str, arbiter: str, why: str) -> None:
        player = game[side]["player_id"]
        stack.api["clocks"].call("POST", f"/games/{game['id']}/absence", {"player_id": player}, arbiter)
        stack.settle()
        self._note(
            f"round {game['round']}, board {game['board']}: {self.names[player]} {why}: forfeited at the default time"
        )

    def _illegal_moves(self, stack: Any, game: dict[str, Any], arbiter: str) -> None:
        clocks = stack.api["clocks"]
        player = game["white"]["player_id"]
        path = f"/games/{game['id']}/penalties"
        first = clocks.call("POST", path, {"player_id": player, "kind": "illegal_move"}, arbiter)
        stack.advance(60 * 15)
        second = clocks.call("POST", path, {"player_id": player, "kind": "illegal_move"}, arbiter)
        stack.settle()
        consequences = [g["incidents"][-1]["consequence"].replace("_", " ") for g in (first, second)]
        self._note(
            f"round {game['round']}, board {game['board']}: {self.names[player]}'s first illegal move: "
            f"{consequences[0]} for the opponent; the second: {consequences[1]} "
            f"({written(second['result']['outcome'])})"
        )

    def _outcome(self, game: dict[str, Any]) -> str:
        white, black = (self.ratings[game[s]["player_id"]] for s in ("white", "black"))
        expected = 1 / (1 + 10 ** ((black - white) / 400))
        roll = self.rng.random()
        if roll < expected - 0.12:
            return "1-0"
        return "1/2-1/2" if roll < expected + 0.12 else "0-1"

    def _note(self, line: str) -> None:
        self.incidents.append(line)

    # -- the end --------------------------------------------------------------------------------
    def _print_table(self, data: dict[str, Any]) -> None:
        self.console.print(final_table(data, lambda row: str(self.seed_ratings.get(row["seed"], ""))))

    def _trf16(self, stack: Any, tid: str) -> str:
        """The standings service's TRF-16 for rating submission (``arbiter export --trf``): the FIDE data,
        the table's points and ranks, ``XXR`` and ``XXC``; the rounds coded as pairing paired them."""
        response = stack.api["standings"].client.get(f"/tournaments/{tid}/trf16")
        if response.status_code >= 400:
            raise ApiError(response.status_code, response.get_json(silent=True) or {})
        text: str = response.get_data(as_text=True)
        return text

    def _standings(self, stack: Any, tid: str) -> dict[str, Any]:
        """The standings service's final table (the preset's tie-breaks, in the C.07 edition the start
        date selects)."""
        table: dict[str, Any] = stack.api["standings"].call("GET", f"/tournaments/{tid}/standings")
        return table
