"""`arbiter demo --ruleset arena`: a whole arena embedded on simulated time (RULES.md §3, docs/arena.md).

The four services run in one process (:mod:`cli.embedded`), the pairing worker's passes among them.
Simulated players join before the start or late, pause and come back, leave, and take the boost before
their first move; a few never arrive at the board and lose on time. Every game's result is reported to
clocks as in production; the standings compute the points. At the end the final ranking is printed,
or with ``--json`` one JSON document: ``{"games": [...], "ranking": [...]}``.
"""

from __future__ import annotations

import datetime as dt
import functools
import heapq
import itertools
import json
import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from cli.arena import ranking_table
from cli.demos.common import sign_up
from cli.embedded import ApiError, EmbeddedStack, random_id
from cli.text import result as written
from shared.events import ArenaPaired, Envelope, Event, GameFinished

TICK_SECONDS = 5.0  # the simulation's step: a pass runs at each (a worker's tick is about a second)
BOOST_CHANCE = 0.2
NO_SHOW_CHANCE = 0.04
LATE_SHARE = 0.2  # players who join after the start
PAUSE_SHARE = 0.15  # players who pause once, and come back
LEAVE_SHARE = 0.1  # players who leave for good
NEVER = dt.datetime.min.replace(tzinfo=dt.UTC)


@dataclass(order=True)
class Action:
    at: float  # seconds from the arena's start
    order: int
    kind: str = field(compare=False)
    subject: Any = field(compare=False)


@dataclass
class ArenaDemo:
    console: Console
    rng: random.Random
    players: int
    minutes: int
    base_seconds: int
    increment_seconds: int
    as_json: bool
    names: dict[uuid.UUID, str] = field(default_factory=dict)
    ratings: dict[uuid.UUID, int] = field(default_factory=dict)
    paired_at: dict[uuid.UUID, dt.datetime] = field(default_factory=dict)
    new_games: list[ArenaPaired] = field(default_factory=list)
    finished: set[uuid.UUID] = field(default_factory=set)
    completed: bool = False
    actions: list[Action] = field(default_factory=list)
    counter: itertools.count[int] = field(default_factory=itertools.count)
    tid: str = ""  # the arena, its organiser's token, its start and end: set when it is created
    organiser: str = ""
    start: dt.datetime = NEVER
    end: dt.datetime = NEVER

    def run(self, workdir: Path) -> int:
        stack = EmbeddedStack.create(workdir)
        try:
            return self._run(stack)
        finally:
            stack.close()

    # -- the arena --------------------------------------------------------------------------------
    def _run(self, stack: Any) -> int:
        staff = stack.token(uuid.uuid4(), "service")
        reg = stack.api["registration"]
        organiser_id = uuid.UUID(reg.call("POST", "/accounts", {"name": "Organiser"}, staff)["id"])
        self.organiser = stack.token(organiser_id)
        speeds = ("bullet", "blitz", "rapid")
        ids = functools.partial(random_id, self.rng)  # drawn between the ratings, as they always were
        for pid, name, rating in sign_up(reg, staff, self.rng, self.players, speeds, ids=ids):
            self.names[pid], self.ratings[pid] = name, rating
        starts_at = stack.clock.now() + dt.timedelta(minutes=5)
        arena = reg.call(
            "POST",
            "/tournaments",
            {
                "name": "Arbiter demo arena",
                "ruleset": "arena",
                "starts_at": starts_at.isoformat(),
                "duration_minutes": self.minutes,
                "time_control": {
                    "base_seconds": self.base_seconds,
                    "increment_seconds": self.increment_seconds,
                },
            },
            self.organiser,
        )
        self.tid = arena["id"]
        self.start = starts_at
        self.end = dt.datetime.fromisoformat(arena["ends_at"])
        self._plan_comings_and_goings(stack)
        if not self.as_json:
            self.console.print(
                f"[bold]{arena['name']}[/]: {self.players} players, {self.minutes} minutes, "
                f"{self.base_seconds // 60}+{self.increment_seconds}; starts {starts_at:%H:%M} (simulated time)"
            )
        stack.listen("arena-demo", ("arena.paired", "game.finished", "tournament.completed"), self._on_event)
        stack.advance((starts_at - stack.clock.now()).total_seconds())
        limit = (self.end - self.start).total_seconds() + 4 * (
            self.base_seconds + 40 * self.increment_seconds
        )
        while not self.completed:
            now = self._elapsed(stack)
            if now > limit + 600:
                raise click.ClickException("the arena did not complete (see the pairing worker)")
            self._act(stack, now + TICK_SECONDS)
            self._take_new_games(stack)
            stack.advance(TICK_SECONDS)
        standings = stack.api["standings"].call("GET", f"/tournaments/{self.tid}/arena")
        document = self._document(standings)
        if self.as_json:
            click.echo(json.dumps(document, indent=2))
        else:
            self._print(document, standings)
        return 0

    def _elapsed(self, stack: Any) -> float:
        return float((stack.clock.now() - self.start).total_seconds())

    def _plan_comings_and_goings(self, stack: Any) -> None:
        """Most join before the start; some late; some pause and come back; some leave."""
        reg = stack.api["registration"]
        duration = (self.end - self.start).total_seconds()
        players = list(self.names)
        self.rng.shuffle(players)
        late = set(players[: max(1, int(len(players) * LATE_SHARE))])
        for pid in players:
            if pid in late:
                self._schedule(self.rng.uniform(30, duration / 2), "join", pid)
            else:
                reg.call("POST", f"/tournaments/{self.tid}/entries", {}, stack.token(pid))
        others = [p for p in players if p not in late]
        pausing = others[: int(len(players) * PAUSE_SHARE)]
        leaving = others[len(pausing) : len(pausing) + int(len(players) * LEAVE_SHARE)]
        for pid in pausing:
            at = self.rng.uniform(duration / 5, duration / 2)
            self._schedule(at, "pause", pid)
            self._schedule(at + self.rng.uniform(60, duration / 4), "join", pid)
        for pid in leaving:
            self._schedule(self.rng.uniform(duration / 3, duration * 0.8), "leave", pid)

    def _schedule(self, at: float, kind: str, subject: Any) -> None:
        heapq.heappush(self.actions, Action(at, next(self.counter), kind, subject))

    def _act(self, stack: Any, until: float) -> None:
        """Everything planned before ``until`` seconds from the start, at its time."""
        reg, clocks = stack.api["registration"], stack.api["clocks"]
        while self.actions and self.actions[0].at <= until:
            action = heapq.heappop(self.actions)
            wait = action.at - self._elapsed(stack)
            if wait > 0:
                stack.advance(wait)
            try:
                if action.kind == "join":
                    reg.call("POST", f"/tournaments/{self.tid}/entries", {}, stack.token(action.subject))
                elif action.kind == "pause":
                    reg.call(
                        "POST",
                        f"/tournaments/{self.tid}/entries/{action.subject}/pause",
                        None,
                        stack.token(action.subject),
                    )
                elif action.kind == "leave":
                    reg.call(
                        "DELETE",
                        f"/tournaments/{self.tid}/entries/{action.subject}",
                        None,
                        stack.token(action.subject),
                    )
                elif action.kind == "result" and action.subject[0] not in self.finished:
                    game_id, outcome, reason = action.subject
                    clocks.call(
                        "POST",
                        f"/games/{game_id}/result",
                        {"outcome": outcome, "reason": reason},
                        self.organiser,
                    )
            except ApiError as exc:
                if exc.status != 409:  # a pause after the end, a result after the flag fell: as it goes
                    raise

    def _on_event(self, envelope: Envelope, event: Event) -> None:
        if isinstance(event, ArenaPaired):
            self.new_games.append(event)
        elif isinstance(event, GameFinished):
            self.finished.add(event.game_id)
        elif envelope.type == "tournament.completed":
            self.completed = True

    def _take_new_games(self, stack: Any) -> None:
        """Each new game: boosts before the first move, then its result at its planned end (or no
        result: a player who never came to the board loses on time)."""
        clocks = stack.api["clocks"]
        games, self.new_games = self.new_games, []
        for paired in games:
            for g in paired.games:
                self.paired_at[g.game_id] = paired.paired_at
                boosted = {}
                for side, pid in (("white", g.white), ("black", g.black)):
                    boosted[side] = self.rng.random() < BOOST_CHANCE
                    if boosted[side]:
                        try:
                            clocks.call("POST", f"/games/{g.game_id}/boost", {}, stack.token(pid))
                        except ApiError as exc:  # 0+x: no boost offered
                            if exc.status != 409:
                                raise
                            boosted[side] = False
                if self.rng.random() < NO_SHOW_CHANCE:
                    continue  # White never arrives: the flag falls
                white_time = self.base_seconds / (2 if boosted["white"] else 1) or self.increment_seconds
                length = self.rng.uniform(0.2, 0.9) * min(
                    white_time, self.base_seconds + 40 * self.increment_seconds
                )
                expected = 1 / (1 + 10 ** ((self.ratings[g.black] - self.ratings[g.white]) / 400))
                roll = self.rng.random()
                outcome = "1-0" if roll < expected - 0.1 else "1/2-1/2" if roll < expected + 0.1 else "0-1"
                reason = "agreement" if outcome == "1/2-1/2" else "resignation"
                at = (paired.paired_at - self.start).total_seconds() + max(1.0, length)
                self._schedule(at, "result", (g.game_id, outcome, reason))

    # -- the output -------------------------------------------------------------------------------
    def _document(self, standings: dict[str, Any]) -> dict[str, Any]:
        def seconds(at: dt.datetime) -> float:
            return round((at - self.start).total_seconds(), 3)

        names = {str(pid): name for pid, name in self.names.items()}
        games = []
        for g in standings["games"]:
            paired = self.paired_at.get(uuid.UUID(g["game_id"]))
            games.append(
                {
                    "white": names[g["white"]],
                    "black": names[g["black"]],
                    "started_at": None if paired is None else seconds(paired),
                    "ended_at": seconds(dt.datetime.fromisoformat(g["ended_at"])),
                    "result": written(g["result"]),
                    "boost": g["boost"],
                    "points": g["points"],
                }
            )
        ranking = [
            {
                "player": r["name"],
                "rank": r["rank"],
                "points": r["points"],
                "wins": r["wins"],
                "games": r["games"],
            }
            for r in standings["ranking"]
        ]
        return {"games": games, "ranking": ranking}

    def _print(self, document: dict[str, Any], standings: dict[str, Any]) -> None:
        boosted = sum(g["boost"]["white"] + g["boost"]["black"] for g in document["games"])
        self.console.print(f"{len(document['games'])} games played, {boosted} boosts taken.\n")
        table = ranking_table("Final ranking", standings["ranking"])
        self.console.print(table)


def arena_demo(
    console: Console, seed: int, players: int, minutes: int, tc: dict[str, int], as_json: bool
) -> ArenaDemo:
    return ArenaDemo(
        console, random.Random(seed), players, minutes, tc["base_seconds"], tc["increment_seconds"], as_json
    )


__all__ = ["ArenaDemo", "arena_demo"]
