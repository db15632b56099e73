"""Group-playoff events on the embedded stack for the page tests: one entered (one player, ``NO_INVITES``,
saying they cannot create games), started and left in phase 1 with a deadline passed, one overdue game
decided by the organiser's lot and one player excluded; one whose group I ends with three players level on
(a)-(d), so that a play-off decides them."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import Any

from cli.embedded import EmbeddedStack

NAMES = ["Anand", "Botvinnik", "Capablanca", "Euwe", "Fischer", "Gaprindashvili", "Hou", "Ivanchuk"]
NO_INVITES = "Hou"  # entered with creates_games: false (4T1 §4(5): the other player invites)


@dataclass
class Overdue:
    stack: EmbeddedStack
    tournament_id: str
    organiser: str  # their token
    players: dict[str, str]  # name → id
    lot_game: str
    excluded: str

    @property
    def excluded_name(self) -> str:
        return next(name for name, pid in self.players.items() if pid == self.excluded)

    def page(self) -> dict[str, Any]:
        return self.stack.api["standings"].call("GET", f"/tournaments/{self.tournament_id}/group-playoff")

    def pairing_page(self) -> dict[str, Any]:
        return self.stack.api["pairing"].call("GET", f"/tournaments/{self.tournament_id}/group-playoff")


def started_event(stack: EmbeddedStack, name: str) -> tuple[str, str, dict[str, str]]:
    """An event entered by the eight of :data:`NAMES` and started: (its id, the organiser's token, the
    players by name)."""
    reg = stack.api["registration"]
    staff = stack.token(uuid.uuid4(), "service")
    organiser_id = uuid.UUID(reg.call("POST", "/accounts", {"name": "Organiser"}, staff)["id"])
    org = stack.token(organiser_id)
    closes = stack.clock.now() + dt.timedelta(days=3)
    event = reg.call(
        "POST",
        "/tournaments",
        {
            "name": name,
            "ruleset": "group-playoff",
            "time_control": {"base_seconds": 0, "increment_seconds": 0, "days_per_move": 2},
            "group_playoff": {"closes_at": closes.isoformat()},
        },
        org,
    )
    tid = event["id"]
    players = {}
    for i, player in enumerate(NAMES):
        body = {"name": player, "ratings": {"chess:correspondence": 1990 - 10 * i}}
        pid = reg.call("POST", "/accounts", body, staff)["id"]
        entry = {"creates_games": player != NO_INVITES}
        reg.call("POST", f"/tournaments/{tid}/entries", entry, stack.token(uuid.UUID(pid)))
        reg.call("POST", f"/tournaments/{tid}/entries/{pid}/confirm", None, org)
        players[player] = pid
    stack.advance((closes - stack.clock.now()).total_seconds() + 60)
    reg.call("POST", f"/tournaments/{tid}/start", None, org)
    stack.settle()
    return tid, org, players


def overdue_event(stack: EmbeddedStack) -> Overdue:
    reg, pairing = stack.api["registration"], stack.api["pairing"]
    tid, org, players = started_event(stack, "4T1 <b>overdue</b> cup")
    at = stack.clock.now() + dt.timedelta(hours=12)
    pairing.call("POST", f"/tournaments/{tid}/deadlines", {"phase": 1, "at": at.isoformat()}, org)
    stack.advance(24 * 3600)  # the deadline passed; nobody lost on time yet (two days a move)
    page = pairing.call("GET", f"/tournaments/{tid}/group-playoff")
    first = page["matches"][0]["games"][0]["game_id"]
    pairing.call("POST", f"/tournaments/{tid}/games/{first}/lot", {"seed": "die 1"}, org)
    stack.settle()
    excluded = [p["player_id"] for p in page["players"] if p["group"] == "II"][-1]  # not in the lot's match
    body = {"player_id": excluded, "reason": "abusive messages", "exclude": True}
    reg.call("POST", f"/tournaments/{tid}/withdrawals", body, org)
    stack.settle()
    return Overdue(stack, tid, org, players, first, excluded)


@dataclass
class Tied:
    stack: EmbeddedStack
    tournament_id: str
    organiser: str
    tied: tuple[str, str, str] = ("", "", "")  # group I's three players level on (a)-(d)
    order: dict[str, int] = field(default_factory=dict)  # each player's place in its group by start number

    def page(self) -> dict[str, Any]:
        return self.stack.api["standings"].call("GET", f"/tournaments/{self.tournament_id}/group-playoff")

    def pairing_page(self) -> dict[str, Any]:
        return self.stack.api["pairing"].call("GET", f"/tournaments/{self.tournament_id}/group-playoff")

    def play(self, stage: str, close: dict[frozenset[str], str]) -> None:
        """Every open game of ``stage``'s matches, entered by the organiser. The winner of a match that
        ``close`` names wins its first game and draws the second (1½-½); any other match goes 2-0 to
        the player with the lower start number."""
        clocks = self.stack.api["clocks"]
        for match in self.pairing_page()["matches"]:
            if match["phase"] != stage:
                continue
            pair = frozenset(match["players"])
            winner = close.get(pair) or min(pair, key=self.order.__getitem__)
            for index, game in enumerate(match["games"]):
                if game["result"] is not None:
                    continue
                outcome = "1-0" if game["white"] == winner else "0-1"
                if pair in close and index == 1:
                    outcome = "1/2-1/2"
                body = {"outcome": outcome, "reason": "agreement" if outcome == "1/2-1/2" else "resignation"}
                clocks.call("POST", f"/games/{game['game_id']}/result", body, self.organiser)
        self.stack.settle()


def tied_group_event(stack: EmbeddedStack) -> Tied:
    """Group I: its first three players by start number (P, Q, R) beat the fourth 2-0 and each other in
    a cycle, each by 1½-½ (P beats Q, Q beats R, R beats P): level on match points, board points and
    both among them, so the event makes a play-off of the three. Group II: the lower start number wins
    every match 2-0."""
    tid, org, _players = started_event(stack, "4T1 tied cup")
    event = Tied(stack, tid, org)
    page = event.pairing_page()
    for group in ("I", "II"):  # all level at 0 before any result: the rows in start order
        event.order.update((row["player_id"], i) for i, row in enumerate(page["groups"][group]))
    p, q, r, _s = (row["player_id"] for row in page["groups"]["I"])
    event.tied = (p, q, r)
    event.play("group", {frozenset((p, q)): p, frozenset((q, r)): q, frozenset((r, p)): r})
    return event
