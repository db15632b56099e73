"""`arbiter demo` (``--ruleset platform``, the default): a whole tournament in one process with no servers —
registration, the scheduled start, pairings, server-side clocks with simulated players (a drawn opening,
a player busy elsewhere in round 2, a flag that falls), results, and the final table.

The ``--json`` document: ``rated``, ``rounds`` (each a list of games ``{white, black, result, opening}``),
``final`` (``{player, rank, points, tiebreaks}``, the tie-breaks by code in ranking order), ``byes``
(``{round, player, kind}``) and ``tiebreaks`` (the codes in ranking order)."""

from __future__ import annotations

import datetime as dt
import heapq
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cli.demos.common import EmbeddedRun, expected_score, final_table, sign_up
from cli.embedded import ApiError
from cli.text import result as written
from shared.events import Envelope, Event, GameFinished, GameStarted, RoundPaired
from shared.games.boards import Position, variant_of, white_to_move


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


@dataclass
class PlatformDemo(EmbeddedRun):
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
        signed = sign_up(reg, staff, self.rng, self.players, speeds, self.variant, ids=self.new_id)
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
        expected = expected_score(self.ratings, game)
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


def first_to_move(game: dict[str, Any]) -> str:
    """The side to move first in ``game`` (the clocks' JSON): the running clock's side to move, else the
    board's in the starting position. A drawn opening of an odd number of plies leaves Black to move (as
    does English draughts' own start)."""
    to_move = game["clock"].get("to_move")
    if to_move in OTHER and not game["moves"]:
        return str(to_move)
    fen = game["opening"]["fen"] if game.get("opening") else game["position"]
    return "white" if white_to_move(Position(variant_of(game["variant"]), fen)) else "black"


def _clock_time(instant: str | None) -> str:
    """An instant of the game's life as the demo's simulated clock shows it (HH:MM:SS); "—": none."""
    return "—" if instant is None else f"{dt.datetime.fromisoformat(instant):%H:%M:%S}"
