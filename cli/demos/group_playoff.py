"""`arbiter demo --ruleset group-playoff`: the 4T1 event (RULES.md §5) embedded, with simulated weeks of
correspondence play (two days per move; each simulated day every player to move makes a move).

The story is scripted so that every rule shows: the entries (one refused, one withdrawn and replaced
from the waiting list), the organiser's start and the groups' lot, a three-way tie in group I that needs
a play-off round robin, a game lost on time by the correspondence clock, a phase-1 deadline after which
the organiser adjudicates the one game still open, the 5th/7th-place matches played with the semi-finals,
a semi-final decided by its extra game, a shared 5th place, a level final with two extra games, and the
final placing. With ``--json`` it prints one document (issue 11): players, groups, matches, final."""

from __future__ import annotations

import datetime as dt
import json
import random
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cli.demos.common import NAMES
from cli.embedded import ApiError, Draws, EmbeddedStack, random_id
from cli.text import points
from cli.text import result as written

DAY = 24 * 3600
START = dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC)  # the simulated clock's start
DRAW = "="
RESULT = {
    "1-0": "1-0",
    "1/2-1/2": "½-½",
    "0-1": "0-1",
    "+/-": "1-0",
    "-/+": "0-1",
}  # White first, a draw ½-½ (cli.text.result); forfeits as their winner


@dataclass
class Script:
    """Who wins each game: per match (a set of two roles), the winners game by game (a role, or ``=``);
    unscripted matches go to the better seed. ``stall``: the game (roles, index) whose loser stops
    moving; ``overdue``: the game left open at the deadline and its adjudicated result's winner."""

    games: dict[tuple[str, frozenset[str]], list[str]]
    stall: tuple[frozenset[str], int]
    overdue: tuple[frozenset[str], int, str]


def _m(stage: str, a: str, b: str) -> tuple[str, frozenset[str]]:
    return stage, frozenset((a, b))


# group I is A B C D, group II E F G H, in group order (the seeded player first, then the lot's)
SCRIPT = Script(
    games={
        # group I: A, B, C draw each other and all beat D 2:0 → a play-off round robin of A, B, C
        _m("group", "A", "B"): [DRAW, DRAW],
        _m("group", "A", "C"): [DRAW, DRAW],
        _m("group", "B", "C"): [DRAW, DRAW],
        _m("group", "A", "D"): ["A", "A"],
        _m("group", "B", "D"): ["B", "B"],
        _m("group", "C", "D"): ["C", "C"],
        # the play-off: A beats B and C, B beats C → A, B, C
        _m("playoff", "A", "B"): ["A", "A"],
        _m("playoff", "A", "C"): ["A", DRAW],
        _m("playoff", "B", "C"): ["B", "B"],
        # group II by seed: E, F, G, H (H loses E's first game on time; G-H's second is adjudicated)
        # the semi-finals: A v F level, F wins the extra game with Black; E beats B
        _m("semi-final", "A", "F"): ["A", "F", "F"],
        _m("semi-final", "E", "B"): ["E", "E"],
        # 5th place shared (C v G 1:1), 7th to D (1.5:0.5)
        _m("fifth-place", "C", "G"): ["C", "G"],
        _m("seventh-place", "D", "H"): ["D", DRAW],
        # the final level 1:1, the first extra game drawn, the second (colours reversed) to E
        _m("final", "F", "E"): ["F", "E", DRAW, "E"],
        _m("third-place", "A", "B"): ["A", "A"],
    },
    stall=(frozenset(("E", "H")), 0),
    overdue=(frozenset(("G", "H")), 1, "G"),
)


@dataclass
class GroupPlayoffDemo:
    console: Console
    rng: random.Random
    as_json: bool
    names: dict[str, str] = field(default_factory=dict)  # player id → name
    ratings: dict[str, int] = field(default_factory=dict)
    role: dict[str, str] = field(default_factory=dict)  # player id → A..H
    moves: dict[str, int] = field(default_factory=dict)  # game id → plies made
    plies: dict[str, int] = field(default_factory=dict)  # game id → plies it lasts
    announced: list[Any] = field(default_factory=list)
    pages: dict[str, Any] = field(default_factory=dict)  # the event's pages at the end (pairing, standings)
    tournament_id: str = ""

    def _id(self) -> str:
        """An account id drawn from the simulation's generator: the same run for a seed (the groups'
        lot orders the players by their ids)."""
        return str(random_id(self.rng))

    def stack(self, workdir: Path) -> EmbeddedStack:
        """The services the event runs on: the simulated clock at the event's start, and every draw of
        theirs (the tournament's id, the groups' lot seed) from the seed (:class:`cli.embedded.Draws`)."""
        return EmbeddedStack.create(workdir, start=START, draws=Draws.seeded(self.rng))

    def run(self, workdir: Path) -> dict[str, Any]:
        stack = self.stack(workdir)
        try:
            return self.play(stack)
        finally:
            stack.close()

    def say(self, text: str) -> None:
        if not self.as_json:
            self.console.print(text)

    # -- the event ------------------------------------------------------------------------------
    def play(self, stack: Any) -> dict[str, Any]:
        """The whole event on ``stack`` (left open: its pages can still be read); the ``--json`` document."""
        reg, pairing = stack.api["registration"], stack.api["pairing"]
        staff = stack.token(uuid.uuid4(), "service")
        organiser = uuid.UUID(
            reg.call("POST", "/accounts", {"id": self._id(), "name": "Organiser"}, staff)["id"]
        )
        org = stack.token(organiser)
        closes = stack.clock.now() + dt.timedelta(days=7)
        event = reg.call(
            "POST",
            "/tournaments",
            {
                "name": "4T1 correspondence cup",
                "ruleset": "group-playoff",
                "time_control": {"base_seconds": 0, "increment_seconds": 0, "days_per_move": 2},
                "group_playoff": {"closes_at": closes.isoformat(), "expected_start": str(closes.date())},
            },
            org,
        )
        tid = self.tournament_id = event["id"]
        self.say(
            f"[bold]{event['name']}[/]: group-playoff (4T1), 2 days per move; entries close {closes:%d %b %Y}"
        )
        accounts = []
        for i in range(11):
            rating = self.rng.randrange(1705, 1996, 5)
            body = {"id": self._id(), "name": NAMES[i], "ratings": {"chess:correspondence": rating}}
            pid = reg.call("POST", "/accounts", body, staff)["id"]
            self.names[pid], self.ratings[pid] = NAMES[i], rating
            accounts.append(pid)
        outsider = {"id": self._id(), "name": "Outsider", "ratings": {"chess:correspondence": 2150}}
        low = reg.call("POST", "/accounts", outsider, staff)
        try:
            reg.call("POST", f"/tournaments/{tid}/entries", {}, stack.token(uuid.UUID(low["id"])))
        except ApiError as exc:
            self.say(f"Outsider (2150) refused: {exc.problem.get('detail')}")
        lower = reg.call(
            "POST", "/accounts", {"name": NAMES[0].lower(), "ratings": outsider["ratings"]}, staff
        )
        try:  # an id of the server's: the simulation's draws stay as they were
            reg.call("POST", f"/tournaments/{tid}/entries", {}, stack.token(uuid.UUID(lower["id"])))
        except ApiError as exc:
            self.say(f"{lower['name']} refused: {exc.problem.get('detail')}")
        cannot = (0, 10)  # said at entry they cannot create games: ranked after all others (4T1 §3(5))
        for i, pid in enumerate(accounts):
            entry = {"creates_games": i not in cannot}
            reg.call("POST", f"/tournaments/{tid}/entries", entry, stack.token(uuid.UUID(pid)))
        for pid in [*accounts[:9], accounts[10]]:
            reg.call("POST", f"/tournaments/{tid}/entries/{pid}/confirm", None, org)
        refused = accounts[9]
        reg.call(
            "POST", f"/tournaments/{tid}/entries/{refused}/refuse", {"reason": "entered for a club team"}, org
        )
        self.say(f"{self.names[refused]}'s entry refused by the organiser")
        gone = accounts[3]
        reg.call("DELETE", f"/tournaments/{tid}/entries/{gone}", None, stack.token(uuid.UUID(gone)))
        field_ = reg.call("GET", f"/tournaments/{tid}")["group_playoff"]
        self.say(
            f"{self.names[gone]} withdrew before the start; playing: "
            + ", ".join(self.names[p] for p in field_["playing"])
            + f"; waiting list: {', '.join(self.names[p] for p in field_['waiting']) or 'none'}"
        )
        stack.listen("group-playoff", ("group_playoff.announced",), lambda env, ev: self.announced.append(ev))
        stack.advance((closes - stack.clock.now()).total_seconds() + 3600)
        reg.call("POST", f"/tournaments/{tid}/start", None, org)
        stack.settle()
        page = pairing.call("GET", f"/tournaments/{tid}/group-playoff")
        for group in ("I", "II"):
            members = [p["player_id"] for p in page["players"] if p["group"] == group]
            order = [m for m in self._group_order(page, group) if m in members]
            for role, pid in zip("ABCD" if group == "I" else "EFGH", order, strict=True):
                self.role[pid] = role
        lot = page["lots"][0]
        self.say(
            f"Started {stack.clock.now():%d %b}; the groups' lot (seed {lot['seed']}, drawn by the organiser):"
        )
        for group in ("I", "II"):
            self.say(f"  group {group}: " + ", ".join(self._label(p) for p in self._group_order(page, group)))
        for p in page["players"]:
            if not p["creates_games"]:
                invited = next(m for m in page["matches"] if m["players"][0] == p["player_id"])
                self.say(
                    f"{p['name']} cannot create games: the other player invites (4T1 §4(5)), e.g. "
                    + invited["games"][0]["label"]
                )

        # phase 1: the groups, a deadline, the play-off
        deadline = stack.clock.now() + dt.timedelta(days=30)
        pairing.call("POST", f"/tournaments/{tid}/deadlines", {"phase": 1, "at": deadline.isoformat()}, org)
        self.say(f"Phase 1 deadline set for {deadline:%d %b}")
        try:
            pairing.call("POST", f"/tournaments/{tid}/phases", {"phase": 2}, org)
        except ApiError as exc:
            self.say(
                f"Phase 2 announced too early: {exc.status}, {len(exc.problem.get('games', []))} games still open"
            )
        self._play(stack, tid, org, until=lambda p: not self._open(p, phases={"group", "playoff"}))
        page = pairing.call("GET", f"/tournaments/{tid}/group-playoff")
        for game in stack.api["clocks"].call("GET", f"/tournaments/{tid}/games")["games"]:
            if (game["result"] or {}).get("reason") == "time":
                label = next(
                    g["label"] for m in page["matches"] for g in m["games"] if g["game_id"] == game["id"]
                )
                self.say(
                    f"Lost on time (two days for a move, found by the clocks): {label}, "
                    f"{written(game['result']['outcome'])}"
                )
        self._print_groups(page)
        self.say(
            "\n[bold]Phase 2[/]: the semi-finals, with the matches for 5th and 7th place at the same time"
        )
        pairing.call("POST", f"/tournaments/{tid}/phases", {"phase": 2, "with_placement": True}, org)
        self._play(stack, tid, org, until=lambda p: not self._open(p, phases={"semi-final"}))
        pairing.call("POST", f"/tournaments/{tid}/phases", {"phase": 3}, org)
        self.say("\n[bold]Phase 3[/]: the final and the match for third place")
        self._play(stack, tid, org, until=lambda p: p["completed"])
        page = pairing.call("GET", f"/tournaments/{tid}/group-playoff")
        self._print_matches(page)
        self._print_placing(page)
        standings = stack.api["standings"]
        self.pages = {
            "pairing": page,
            "standings": standings.call("GET", f"/tournaments/{tid}/group-playoff"),
            "html": standings.client.get(f"/t/{tid}").get_data(as_text=True),
        }
        self.say(f"The tournament page: /t/{tid} (standings), as JSON GET /tournaments/{tid}/group-playoff")
        return self._document(page)

    def _group_order(self, page: dict[str, Any], group: str) -> list[str]:
        lot: list[str] = page["lots"][0]["order"]  # group I's four, then group II's, in group order
        return lot[:4] if group == "I" else lot[4:]

    def _label(self, pid: str) -> str:
        return f"{self.names[pid]} ({self.ratings[pid]})"

    # -- correspondence play ----------------------------------------------------------------------
    @staticmethod
    def _open(page: dict[str, Any], *, phases: set[str]) -> list[dict[str, Any]]:
        return [
            g
            for m in page["matches"]
            if m["phase"] in phases
            for g in m["games"]
            if g["result"] is None and g["how"] is None
        ]

    def _play(self, stack: Any, tid: str, org: str, until: Callable[[dict[str, Any]], bool]) -> None:
        """Simulated days: every open game's player to move moves once a day; a game reaching its length
        is reported by its loser (a draw by both); the clocks and the deadline do the rest."""

        pairing, clocks = stack.api["pairing"], stack.api["clocks"]
        adjudicated = False
        for _ in range(400):
            stack.settle()  # what the organiser's last decision published reaches every service first
            page = pairing.call("GET", f"/tournaments/{tid}/group-playoff")
            if until(page):
                return
            for match in page["matches"]:
                for index, game in enumerate(match["games"]):
                    if game["result"] is not None or game["how"] is not None:
                        continue
                    roles = frozenset(self.role[p] for p in match["players"])
                    if game["game_id"] in page["overdue"] and not adjudicated:
                        winner = self._winner(match, index, roles, overdue=True)
                        body = {
                            "outcome": self._outcome(game, winner),
                            "reason": "adjudication",
                        }
                        clocks.call("POST", f"/games/{game['game_id']}/result", body, org)
                        adjudicated = True
                        self.say(
                            f"Deadline passed: {game['label']} adjudicated by the organiser from the position: "
                            f"{written(body['outcome'])}"
                        )
                        continue
                    self._day(stack, match, index, game, roles)
            stack.advance(DAY)
        raise click.ClickException("the simulation did not finish (400 simulated days)")

    def _day(
        self,
        stack: Any,
        match: dict[str, Any],
        index: int,
        game: dict[str, Any],
        roles: frozenset[str],
    ) -> None:
        clocks = stack.api["clocks"]
        gid = game["game_id"]
        overdue = roles == SCRIPT.overdue[0] and index == SCRIPT.overdue[1] and match["phase"] == "group"
        plies = self.plies.setdefault(gid, 10_000 if overdue else self.rng.randrange(6, 30))
        made = self.moves.get(gid, 0)
        winner = self._winner(match, index, roles)
        outcome = self._outcome(game, winner)
        stall = match["phase"] == "group" and roles == SCRIPT.stall[0] and index == SCRIPT.stall[1]
        mover = game["white"] if made % 2 == 0 else game["black"]
        if stall and made >= 5 and mover != self._player(winner, match):
            return  # the loser stops moving: after two days the clock decides
        if made < plies:
            try:
                clocks.call("POST", f"/games/{gid}/moves", None, stack.token(uuid.UUID(mover)))
            except ApiError as exc:
                if exc.status != 409:
                    raise
            self.moves[gid] = made + 1
            return
        body = {"outcome": outcome, "reason": "agreement" if outcome == "1/2-1/2" else "resignation"}
        loser = {"1-0": [game["black"]], "0-1": [game["white"]]}.get(outcome, [game["white"], game["black"]])
        for pid in loser:
            clocks.call("POST", f"/games/{gid}/result", body, stack.token(uuid.UUID(pid)))

    def _winner(
        self, match: dict[str, Any], index: int, roles: frozenset[str], *, overdue: bool = False
    ) -> str:
        if overdue:
            return SCRIPT.overdue[2]
        script = SCRIPT.games.get((match["phase"], roles))
        if script is not None and index < len(script):
            return script[index]
        return min(roles)  # unscripted: the better placed in group order wins (A before B, ...)

    def _player(self, role: str, match: dict[str, Any]) -> str | None:
        return next((p for p in match["players"] if self.role[p] == role), None)

    def _outcome(self, game: dict[str, Any], winner: str) -> str:
        if winner == DRAW:
            return "1/2-1/2"
        return "1-0" if self.role[game["white"]] == winner else "0-1"

    # -- printing -------------------------------------------------------------------------------
    def _print_groups(self, page: dict[str, Any]) -> None:
        if self.as_json:
            return
        for group in ("I", "II"):
            table = Table(title=f"Group {group}", title_justify="left")
            for col in ("Rank", "Player", "MP", "BP", "MP tied", "BP tied", "Decided by"):
                table.add_column(col)
            for r in page["groups"][group]:
                table.add_row(str(r["rank"]), r["name"], _points(r["match_points"]), _points(r["board_points"]),
                              _points(r["tied_match_points"]), _points(r["tied_board_points"]), f"({r['decided_by']})")  # fmt: skip
            self.console.print(table)
        for m in page["matches"]:
            if m["phase"] == "playoff":
                self.say(f"Play-off (group {m['group']}): {self._score(m)}")

    def _score(self, m: dict[str, Any]) -> str:
        """``A 1½–½ B  [A–B 1-0, B–A ½-½]``: the board points, then each game White–Black, White's result first."""
        a, b = m["players"]
        score = "–".join(_points(p) for p in m["board_points"])
        return f"{self.names[a]} {score} {self.names[b]}  [{self._games(m)}]"

    def _games(self, m: dict[str, Any]) -> str:
        """A match's games, each ``White–Black result`` (White's result first), the extra games marked."""
        return ", ".join(
            f"{self.names[g['white']]}–{self.names[g['black']]} {written(g['result'])}"
            + (" (extra)" if g.get("extra") else "")
            for g in m["games"]
        )

    def _print_matches(self, page: dict[str, Any]) -> None:
        if self.as_json:
            return
        table = Table(title="Semi-finals and phase 3", title_justify="left")
        for col in ("Match", "Players", "Score", "Games (White–Black)", "Outcome"):
            table.add_column(col)
        for m in page["matches"]:
            if m["phase"] in ("group", "playoff"):
                continue
            a, b = m["players"]
            outcome = "shared" if m["shared"] else (self.names[m["winner"]] if m["winner"] else "")
            score = "–".join(_points(p) for p in m["board_points"])
            table.add_row(m["phase"], f"{self.names[a]} v {self.names[b]}", score, self._games(m), outcome)
        self.console.print(table)

    def _print_placing(self, page: dict[str, Any]) -> None:
        if self.as_json:
            return
        table = Table(title="Final placing", title_justify="left")
        table.add_column("Place", justify="right")
        table.add_column("Player")
        for row in page["placing"]:
            table.add_row(str(row["place"]), row["name"])
        self.console.print(table)

    def _document(self, page: dict[str, Any]) -> dict[str, Any]:
        """The ``--json`` document of issue 11."""
        name = self.names.__getitem__
        return {
            "players": [{"player": p["name"], "rating": p["rating"]} for p in page["players"]],
            "groups": {g: [name(p) for p in self._group_order(page, g)] for g in ("I", "II")},
            "matches": [
                {
                    "phase": m["phase"],
                    "players": [name(p) for p in m["players"]],
                    "games": [
                        {"white": name(g["white"]), "black": name(g["black"]), "result": RESULT[g["result"]]}
                        for g in m["games"]
                        if g["result"] in RESULT
                    ],
                }
                for m in page["matches"]
            ],
            "final": [{"player": r["name"], "place": r["place"]} for r in page["placing"]],
        }


def _points(value: str | None) -> str:
    """Match or board points as pairing's page gives them (``"3/2"``), written ``1½``; empty for none."""
    return "" if value is None or value == "" else points(Fraction(value))


def run(seed: int, as_json: bool) -> None:
    """The command's body (``arbiter demo --ruleset group-playoff [--json]``)."""
    demo = GroupPlayoffDemo(Console(), random.Random(seed), as_json)
    with tempfile.TemporaryDirectory(prefix="arbiter-demo-") as tmp:
        document = demo.run(Path(tmp))
    if as_json:
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
