"""`arbiter demo`: a whole tournament in one process with no servers — registration, the scheduled
start, pairings, server-side clocks with simulated players, results, and the final table.
`arbiter demo --format knockout|double-knockout`: a knockout instead — the organiser's draft, the start,
each round published, its matches played game by game (tie-breaks included), a player withdrawn as round 2
begins (the forfeit chain) and a correction of round 1 refused because the player's next match has a result
(with three rounds or more), the final placing.
`arbiter demo --format fide-rapid [--trf PATH]`: an over-the-board rapid Swiss run by its arbiters
(``cli/demo_fide.py``).

Every demo repeats itself for its ``--seed`` (:class:`EmbeddedRun`: the services' draws and the accounts'
ids come from it, the simulated clock starts at a fixed time) and writes results White first, ``1-0``,
``½-½``, ``0-1`` (:func:`cli.text.result`). The platform's ``--json`` document: ``rated``, ``rounds`` (each a
list of games ``{white, black, result, opening}``), ``final`` (``{player, rank, points, tiebreaks}``, the
tie-breaks by code in ranking order), ``byes`` (``{round, player, kind}``) and ``tiebreaks`` (the codes in
ranking order)."""

from __future__ import annotations

import datetime as dt
import heapq
import json
import random
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click
from rich.console import Console
from rich.table import Table

from cli.client import OPENING_OPTION
from cli.text import points
from cli.text import result as written
from shared.events import Envelope, Event, GameFinished, GameStarted, RoundPaired
from shared.variants import Variant

if TYPE_CHECKING:
    from cli.embedded import Draws

NAMES = [
    "Anand",
    "Botvinnik",
    "Capablanca",
    "Dzindzichashvili",
    "Euwe",
    "Fischer",
    "Gaprindashvili",
    "Hou",
    "Ivanchuk",
    "Judit Polgar",
    "Karpov",
    "Lasker",
    "Menchik",
    "Nakamura",
    "Oparin",
    "Petrosian",
    "Quinteros",
    "Rubinstein",
    "Spassky",
    "Tal",
    "Ushenina",
    "Vallejo",
    "Wei Yi",
    "Xie Jun",
    "Yusupov",
    "Zukertort",
]


@dataclass
class Plan:
    """How a simulated game goes: its plies, its ending, and whether someone just stops moving."""

    game: dict[str, Any]
    plies: int
    outcome: str
    reason: str
    first: str = "white"  # the side to move in the game's starting position (a drawn opening may leave Black)
    stall_at: int | None = None  # the side to move at this ply never moves again: its flag falls
    played: int = 0
    done: bool = False
    started: bool = False  # its clock runs (a double round's leg 2 starts when its leg 1 ends)

    def to_move(self, ply: int) -> str:
        """The side that makes ply ``ply`` (0: the first move of the game)."""
        return self.first if ply % 2 == 0 else OTHER[self.first]


OTHER = {"white": "black", "black": "white"}
DEMO_START = dt.datetime(2026, 6, 6, 9, 0, tzinfo=dt.UTC)
"""Where a demo's simulated clock starts: a fixed time, so that a seed gives the same run to the byte."""


class EmbeddedRun:
    """A demo that runs ``_run(stack)`` on an embedded stack, its simulated clock at ``clock_start``, and
    says how long it took. Everything it and the services draw comes from its ``rng`` (``--seed``): the
    services' draws (:class:`cli.embedded.Draws`: the tournament's id, which draws the first colour, a
    knockout's seeding and colours) and the accounts' ids (:meth:`new_id`). The same seed, the same run."""

    console: Console
    rng: random.Random
    clock_start: ClassVar[dt.datetime] = DEMO_START
    draws: Draws

    def run(self, workdir: Path) -> int:
        from cli.embedded import Draws, EmbeddedStack

        started = time.monotonic()
        self.draws = Draws.seeded(self.rng)
        stack = EmbeddedStack.create(workdir, start=self.clock_start, draws=self.draws)
        try:
            self._run(stack)
        finally:
            stack.close()
        self.console.print(f"\nFinished in {time.monotonic() - started:.1f} s of real time.")
        return 0

    def new_id(self) -> uuid.UUID:
        """A new account's id, drawn with the services' ids."""
        return self.draws.new_id()

    def account(self, stack: Any, name: str, staff: str) -> tuple[uuid.UUID, str]:
        """An account named ``name`` (its id drawn from the seed) and its token."""
        body = {"name": name, "id": str(self.new_id())}
        account_id = uuid.UUID(stack.api["registration"].call("POST", "/accounts", body, staff)["id"])
        return account_id, stack.token(account_id)

    def _run(self, stack: Any) -> None:
        raise NotImplementedError


@dataclass
class Demo(EmbeddedRun):
    console: Console
    rng: random.Random
    players: int
    minutes: float
    increment: int
    double_rounds: bool
    variant: str = "chess"
    opening: str = "free"
    busy_round: int | None = 2  # a player is busy in another game when this round is paired
    ratings: dict[uuid.UUID, int] = field(default_factory=dict)
    names: dict[uuid.UUID, str] = field(default_factory=dict)
    rounds: list[RoundPaired] = field(default_factory=list)
    completed: bool = False
    report: dict[str, Any] = field(default_factory=dict)  # what --json prints
    busy: uuid.UUID | None = None
    busy_told: bool = True  # whether the game server has reported ``busy`` busy yet
    heard: list[tuple[str, str]] = field(default_factory=list)  # (game.started|game.finished, game id)

    def _run(self, stack: Any) -> None:
        staff = stack.token(uuid.uuid4(), "service")  # a token's subject: in no output
        reg = stack.api["registration"]
        _organiser_id, organiser = self.account(stack, "Organiser", staff)
        speeds = ("bullet", "blitz", "rapid", "classical")
        signed = _sign_up(reg, staff, self.rng, self.players, speeds, self.variant, ids=self.new_id)
        for pid, name, rating in signed:
            self.ratings[pid], self.names[pid] = rating, name

        starts_at = stack.clock.now() + dt.timedelta(minutes=5)
        tournament = reg.call(
            "POST",
            "/tournaments",
            {
                "name": "Arbiter demo open",
                "starts_at": starts_at.isoformat(),
                "time_control": {"base_seconds": int(self.minutes * 60), "increment_seconds": self.increment},
                "double_rounds": self.double_rounds,
                "variant": self.variant,
                "opening": self.opening,
            },
            organiser,
        )
        tid = tournament["id"]
        self.report = {"rated": tournament["rated"], "rounds": [], "final": [], "byes": []}
        for pid in self.ratings:
            reg.call("POST", f"/tournaments/{tid}/entries", {}, stack.token(pid))
        self.console.print(
            f"[bold]{tournament['name']}[/]: {self.players} players, {self.variant}, {self.minutes:g}+"
            f"{self.increment}{', double rounds' if self.double_rounds else ''}, openings: {self.opening}, "
            f"{'rated' if tournament['rated'] else 'friendly'}; starts {starts_at:%H:%M} (simulated time)"
        )
        if tournament.get("rated_reason"):
            self.console.print(f"  ({tournament['rated_reason']})")

        stack.listen(
            "demo", ("round.paired", "tournament.completed", "game.started", "game.finished"), self._on_event
        )
        stack.advance((starts_at - stack.clock.now()).total_seconds())
        system = None
        while not self.completed:
            if not self.rounds:
                raise click.ClickException("the tournament did not start (see the registration status)")
            current = self.rounds[-1]
            if system is None:
                system = current.system.replace("_", " ")
                self.console.print(
                    f"System chosen at the start: [bold]{system}[/], {current.total_rounds} rounds\n"
                )
            self._play_round(stack, current)
            if self.rounds[-1] is current and not self.completed:
                raise click.ClickException(f"round {current.round} ended but nothing followed it")

        table = stack.api["standings"].call("GET", f"/tournaments/{tid}/standings")
        self._print_table(table)
        self.report["final"] = [
            {
                "player": row["name"],
                "rank": row["rank"],
                "points": row["points"],
                "tiebreaks": {code: row["tiebreaks"][code] for code in table["tiebreaks"]},
            }
            for row in table["rows"]
        ]
        self.report["tiebreaks"] = list(table["tiebreaks"])

    def _on_event(self, envelope: Envelope, event: Event) -> None:
        if isinstance(event, RoundPaired):
            self.rounds.append(event)
        elif envelope.type == "tournament.completed":
            self.completed = True
        elif isinstance(event, GameStarted | GameFinished):
            self.heard.append((envelope.type, str(event.game_id)))

    # -- one round ------------------------------------------------------------------------------
    def _play_round(self, stack: Any, rnd: RoundPaired) -> None:
        """Play the round's games move by move as their clocks run. With double rounds a pairing's leg 2
        waits until its leg 1 ends (the clocks start it then, ``game.started``): it is played from then
        on. A stalled game ends on time; the simulated clock runs on until every game has ended."""
        clocks = stack.api["clocks"]
        games = clocks.call("GET", f"/tournaments/{rnd.tournament_id}/games?round={rnd.round}")["games"]
        self._presence(stack, rnd)
        plans = [self._plan(g) for g in games]
        index_of = {plan.game["id"]: index for index, plan in enumerate(plans)}
        queue: list[tuple[float, int]] = []
        self.heard.clear()  # the legs 1 started before this round's games were read
        now = stack.clock.now()
        for index, plan in enumerate(plans):
            plan.done = plan.game["status"] == "finished"  # a busy player's game: lost by forfeit
            plan.started = plan.game["status"] == "running"
            if plan.started:
                heapq.heappush(queue, (self._think(plan, now), index))

        def follow() -> None:
            """What the clocks did meanwhile: a leg 2 started (it is played from now on), a game ended
            (a flag fell, or it ended before it started)."""
            heard, self.heard[:] = list(self.heard), []
            for kind, game_id in heard:
                index = index_of.get(game_id)
                if index is None:
                    continue
                plan = plans[index]
                if kind == "game.finished":
                    plan.done = True
                elif not plan.started:
                    plan.started = True
                    heapq.heappush(queue, (self._think(plan, stack.clock.now()), index))
            self._tell_busy(stack, plans)

        follow()
        while not all(p.done for p in plans):
            if not queue:  # only stalled games are left: the clock runs until their flags fall
                stack.advance(30)
                follow()
                continue
            when, index = heapq.heappop(queue)
            plan = plans[index]
            delta = when - stack.clock.now().timestamp()
            if delta > 0:
                stack.advance(delta)
                follow()
            if plan.done:
                continue
            if plan.stall_at is not None and plan.played == plan.stall_at:
                continue  # this player never moves again; the ticker will see the flag fall
            mover = plan.game[plan.to_move(plan.played)]["player_id"]
            if not self._send(clocks, f"/games/{plan.game['id']}/moves", None, stack.token(uuid.UUID(mover))):
                plan.done = True  # the flag fell as the move came in: a loss on time
                follow()
                continue
            plan.played += 1
            if plan.played >= plan.plies:
                body = {"outcome": plan.outcome, "reason": plan.reason}
                for reporter in self._reporters(plan):
                    self._send(clocks, f"/games/{plan.game['id']}/result", body, stack.token(reporter))
                plan.done = True
                stack.settle()
                follow()
            else:
                heapq.heappush(queue, (self._think(plan, stack.clock.now()), index))
        self._print_round(clocks, rnd)

    def _presence(self, stack: Any, rnd: RoundPaired) -> None:
        """The game server's reports: in the round before ``busy_round``, one player starts a game
        elsewhere (busy when that round is paired: no game, a loss by forfeit) once their games of this
        round are under way (with double rounds, their leg 2 too); they are back after it."""
        if self.busy_round is None:
            return
        if rnd.round == self.busy_round - 1:
            self.busy = self.rng.choice(sorted(self.ratings))
            self.busy_told = False
        elif rnd.round == self.busy_round and self.busy is not None:
            body = {"player_id": str(self.busy), "status": "connected"}
            stack.api["clocks"].call("POST", "/presence", body, stack.token(uuid.uuid4(), "service"))

    def _tell_busy(self, stack: Any, plans: list[Plan]) -> None:
        """The busy player is reported busy once none of their games of the round waits to start."""
        if self.busy_told or self.busy is None:
            return
        mine = [
            p for p in plans if str(self.busy) in (p.game["white"]["player_id"], p.game["black"]["player_id"])
        ]
        if any(not (p.started or p.done) for p in mine):
            return
        self.busy_told = True
        body = {"player_id": str(self.busy), "status": "busy"}
        stack.api["clocks"].call("POST", "/presence", body, stack.token(uuid.uuid4(), "service"))
        self.console.print(f"[dim]{self.names[self.busy]} starts a game elsewhere: busy[/]")

    def _plan(self, game: dict[str, Any]) -> Plan:
        expected = _expected(self.ratings, game)
        roll = self.rng.random()
        draw_band = 0.22
        if roll < expected - draw_band / 2:
            outcome = "1-0"
        elif roll < expected + draw_band / 2:
            outcome = "1/2-1/2"
        else:
            outcome = "0-1"
        plies = self.rng.randint(24, 90)
        reason = (
            "agreement"
            if outcome == "1/2-1/2"
            else self.rng.choice(["resignation", "checkmate", "resignation"])
        )
        plan = Plan(game, plies, outcome, reason, first=first_to_move(game))
        if outcome != "1/2-1/2" and self.rng.random() < 0.1:
            # the loser stops moving: the winner never reports, the server's clock decides
            loser = "black" if outcome == "1-0" else "white"
            plan.stall_at = self.rng.randrange(10, plies) // 2 * 2 + (0 if plan.first == loser else 1)
        return plan

    @staticmethod
    def _reporters(plan: Plan) -> list[uuid.UUID]:
        """Who reports the result: the loser concedes it; a draw is offered by White and accepted by Black."""
        side = {"1-0": ["black"], "0-1": ["white"]}.get(plan.outcome, ["white", "black"])
        return [uuid.UUID(plan.game[s]["player_id"]) for s in side]

    def _think(self, plan: Plan, now: dt.datetime) -> float:
        budget = (self.minutes * 60) / 60 + self.increment * 0.7
        return now.timestamp() + max(0.5, self.rng.expovariate(1 / budget) * 0.9)

    @staticmethod
    def _send(clocks: Any, path: str, body: Any, token: str) -> bool:
        """POST; False when the game had already ended (409), which a real player also meets."""
        from cli.embedded import ApiError

        try:
            clocks.call("POST", path, body, token)
        except ApiError as exc:
            if exc.status != 409:
                raise
            return False
        return True

    # -- printing -------------------------------------------------------------------------------
    def _print_round(self, clocks: Any, rnd: RoundPaired) -> None:
        """The round's games; with double rounds each leg's start and end (simulated time, "—": it was
        never played), leg 2 (``1b``) starting when leg 1 ended."""
        games = clocks.call("GET", f"/tournaments/{rnd.tournament_id}/games?round={rnd.round}")["games"]
        legs = any(g["leg"] == 2 for g in games)
        table = Table(title=f"Round {rnd.round} of {rnd.total_rounds}", title_justify="left")
        columns = (
            "Bd",
            "White",
            "",
            "Result",
            "",
            "Black",
            "How",
            "Opening",
            *(("Start", "End") if legs else ()),
        )
        for col in columns:
            table.add_column(col, justify="right" if col in ("Bd", "") else "left")
        played = []
        for g in sorted(games, key=lambda g: (g["board"], g["leg"])):
            w, b = uuid.UUID(g["white"]["player_id"]), uuid.UUID(g["black"]["player_id"])
            result = g["result"] or {}
            opening = None if g.get("opening") is None else g["opening"]["label"]
            times = (_clock_time(g["started_at"]), _clock_time(result.get("finished_at"))) if legs else ()
            table.add_row(
                f"{g['board']}{'b' if g['leg'] == 2 else ''}",
                self.names[w],
                str(self.ratings[w]),
                written(result.get("outcome")),
                str(self.ratings[b]),
                self.names[b],
                result.get("reason", ""),
                opening or "",
                *times,
            )
            played.append(
                {
                    "white": self.names[w],
                    "black": self.names[b],
                    "result": written(result.get("outcome")),
                    "opening": opening,
                    "leg": g["leg"],
                    "started_at": g["started_at"],
                    "finished_at": result.get("finished_at"),
                }
            )
        self.report.setdefault("rounds", []).append(played)
        for bye in rnd.byes:
            table.add_row("", self.names[bye.player_id], str(self.ratings[bye.player_id]), "bye", "", "", "")
            self.report.setdefault("byes", []).append(
                {"round": rnd.round, "player": self.names[bye.player_id], "kind": bye.kind.value}
            )
        self.console.print(table)

    def _print_table(self, data: dict[str, Any]) -> None:
        self.console.print(final_table(data, lambda row: str(self.ratings[uuid.UUID(row["player_id"])])))


def final_table(data: dict[str, Any], rating: Callable[[dict[str, Any]], str]) -> Table:
    """The final standings (standings' JSON rows): rank, seed, name, ``rating(row)``, points, tie-breaks."""
    rows = data["rows"]
    codes = list(rows[0]["tiebreaks"]) if rows else []
    shown = list(rows[0].get("shown", {})) if rows else []
    table = Table(title="Final standings", title_justify="left")
    for col in ("Rk", "Sd", "Name", "Rtg", "Pts", *codes, *shown):
        table.add_column(col, justify="left" if col == "Name" else "right")
    for row in rows:
        table.add_row(
            str(row["rank"]),
            str(row["seed"]),
            row["name"],
            rating(row),
            _num(row["points"]),
            *(_num(row["tiebreaks"][c]) for c in codes),
            *(_num(row["shown"][c]) for c in shown),
        )
    return table


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
        for pid, name, rating in _sign_up(reg, staff, self.rng, self.players, speeds, ids=self.new_id):
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
        from cli.embedded import ApiError

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
        expected = _expected(self.ratings, game)
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
                        f"{_num(m['score'][0])}–{_num(m['score'][1])}",
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


def _sign_up(
    reg: Any,
    staff: str,
    rng: random.Random,
    count: int,
    speeds: tuple[str, ...],
    variant: str = "chess",
    *,
    ids: Callable[[], uuid.UUID],
) -> list[tuple[uuid.UUID, str, int]]:
    """Register ``count`` players with random ratings in ``variant`` at the given speeds: (id, name,
    rating) each, their ids from ``ids`` (drawn from the seed: the same run for a seed)."""
    players = []
    for i in range(count):
        rating = rng.randrange(1300, 2400, 5)
        name = NAMES[i] if i < len(NAMES) else f"Player {i + 1}"
        body: dict[str, Any] = {"name": name, "ratings": {f"{variant}:{speed}": rating for speed in speeds}}
        body["id"] = str(ids())
        players.append((uuid.UUID(reg.call("POST", "/accounts", body, staff)["id"]), name, rating))
    return players


def first_to_move(game: dict[str, Any]) -> str:
    """The side to move first in ``game`` (the clocks' JSON): the running clock's side to move, else the
    board's in the starting position. A drawn opening of an odd number of plies leaves Black to move (as
    does English draughts' own start)."""
    to_move = game["clock"].get("to_move")
    if to_move in OTHER and not game["moves"]:
        return str(to_move)
    from shared.games.boards import Position, variant_of, white_to_move

    fen = game["opening"]["fen"] if game.get("opening") else game["position"]
    return "white" if white_to_move(Position(variant_of(game["variant"]), fen)) else "black"


def _expected(ratings: dict[uuid.UUID, int], game: dict[str, Any]) -> float:
    """White's expected score by the Elo formula."""
    white, black = uuid.UUID(game["white"]["player_id"]), uuid.UUID(game["black"]["player_id"])
    return 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))


def _clock_time(instant: str | None) -> str:
    """An instant of the game's life as the demo's simulated clock shows it (HH:MM:SS); "—": none."""
    return "—" if instant is None else f"{dt.datetime.fromisoformat(instant):%H:%M:%S}"


def _num(value: Any) -> str:
    if value is None:
        return ""
    return points(value) if isinstance(value, float | int) else str(value)


def register(group: click.Group) -> None:
    @group.command()
    @click.option(
        "--players",
        type=click.IntRange(2, 500),
        default=None,
        help="default 10 (4–26); fide-rapid: 30 (4–60); an arena: 20 (2–500)",
    )
    @click.option("--seed", type=int, default=2026, show_default=True, help="the simulation's random seed")
    @click.option("--tc", "time_control", default=None, help="minutes+increment (3+2; fide-rapid: 15+10)")
    @click.option("--double-rounds", is_flag=True, help="every pairing plays twice, colours swapped")
    @click.option(
        "--format",
        "ruleset",
        type=click.Choice(
            ["platform", "knockout", "double-knockout", "fide-rapid", "group-playoff", "arena"]
        ),
        default="platform",
        show_default=True,
        help="a platform tournament (round robin or Swiss), a knockout, an over-the-board rapid Swiss, "
        "the 4T1 group-playoff event, or an arena",
    )
    @click.option(
        "--variant",
        type=click.Choice([v.value for v in Variant]),
        default="chess",
        show_default=True,
        help="platform: chess, or a draughts variant (international 10x10, english, italian, russian)",
    )
    @OPENING_OPTION
    @click.option("--no-busy", is_flag=True, help="platform: nobody is busy elsewhere when round 2 is paired")
    @click.option(
        "--trf",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        default=None,
        help="fide-rapid: write the final TRF-16 file there",
    )
    @click.option(
        "--minutes", type=click.IntRange(10, 480), default=30, show_default=True, help="an arena's duration"
    )
    @click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="platform: one JSON document (rated, rounds, final with each player's tie-breaks, byes, "
        "tiebreaks); group-playoff: the event as one JSON document; arena: one JSON document (games, ranking)",
    )
    def demo(
        players: int | None,
        seed: int,
        time_control: str | None,
        double_rounds: bool,
        ruleset: str,
        variant: str,
        opening: str,
        no_busy: bool,
        trf: Path | None,
        minutes: int,
        as_json: bool,
    ) -> None:
        """Run a whole tournament embedded: one process, simulated players, no servers. A platform
        tournament plays its variant with drawn openings, and a player is busy elsewhere in round 2."""
        from cli.client import parse_time_control
        from cli.demo_fide import FideRapidDemo

        if trf is not None and ruleset != "fide-rapid":
            raise click.UsageError("--trf goes with --format fide-rapid")
        _check_opening(variant, opening, ruleset)
        if variant != Variant.CHESS.value and ruleset != "platform":
            raise click.UsageError("--variant goes with --format platform")
        if ruleset == "group-playoff":
            from cli.demo_group_playoff import run

            run(seed, as_json)
            return
        if ruleset == "arena":
            from cli.arena_demo import arena_demo

            tc = parse_time_control(time_control or "3+2")
            runner_ = arena_demo(Console(), seed, 20 if players is None else players, minutes, tc, as_json)
            with tempfile.TemporaryDirectory(prefix="arbiter-demo-") as tmp:
                runner_.run(Path(tmp))
            return
        if as_json and ruleset != "platform":
            raise click.BadParameter(
                "--json is offered for --format platform, --format group-playoff and --format arena",
                param_hint="--json",
            )
        fide = ruleset == "fide-rapid"
        low, high = (4, 60) if fide else (4, 26)
        if players is None:
            players = 30 if fide else 10
        elif not low <= players <= high:
            raise click.BadParameter(
                f"{players} is not in the range {low}<=x<={high}", param_hint="'--players'"
            )
        tc = parse_time_control(time_control or ("15+10" if fide else "3+2"))
        console = Console(quiet=as_json)
        common = (console, random.Random(seed), players, tc["base_seconds"] / 60, tc["increment_seconds"])
        runner: Demo | KnockoutDemo | FideRapidDemo
        if fide:
            runner = FideRapidDemo(*common, trf=trf)
        elif ruleset == "platform":
            runner = Demo(*common, double_rounds, variant, opening, None if no_busy else 2)
        else:
            runner = KnockoutDemo(*common, ruleset)
        with tempfile.TemporaryDirectory(prefix="arbiter-demo-") as tmp:
            runner.run(Path(tmp))
        if isinstance(runner, Demo) and as_json:
            click.echo(json.dumps(runner.report, ensure_ascii=False))


def _check_opening(variant: str, opening: str, ruleset: str) -> None:
    """The opening option as registration would check it, refused with the rules' message before
    anything runs (the Italian table comes from ``ARBITER_ITALIAN_OPENINGS``)."""
    from shared.openings import OpeningError, OpeningOption, check_option
    from shared.settings import CommonSettings

    try:
        option = OpeningOption.parse(opening)
        if ruleset != "platform" and option.kind.value != "free":
            raise click.BadParameter(
                "openings are drawn in platform tournaments only", param_hint="--opening"
            )
        check_option(option, Variant(variant), italian=CommonSettings().italian_table())
    except OpeningError as exc:
        raise click.BadParameter(exc.detail, param_hint="--opening") from None
