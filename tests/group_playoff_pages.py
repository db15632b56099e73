"""A group-playoff event on the embedded stack for the page tests: entered (one player, ``NO_INVITES``,
saying they cannot create games), started and left in phase 1 with a deadline passed, one overdue game
decided by the organiser's lot and one player excluded."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
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


def overdue_event(stack: EmbeddedStack) -> Overdue:
    reg, pairing = stack.api["registration"], stack.api["pairing"]
    staff = stack.token(uuid.uuid4(), "service")
    organiser_id = uuid.UUID(reg.call("POST", "/accounts", {"name": "Organiser"}, staff)["id"])
    org = stack.token(organiser_id)
    closes = stack.clock.now() + dt.timedelta(days=3)
    event = reg.call(
        "POST",
        "/tournaments",
        {
            "name": "4T1 <b>overdue</b> cup",
            "ruleset": "group-playoff",
            "time_control": {"base_seconds": 0, "increment_seconds": 0, "days_per_move": 2},
            "group_playoff": {"closes_at": closes.isoformat()},
        },
        org,
    )
    tid = event["id"]
    players = {}
    for i, name in enumerate(NAMES):
        body = {"name": name, "ratings": {"chess:correspondence": 1990 - 10 * i}}
        pid = reg.call("POST", "/accounts", body, staff)["id"]
        entry = {"creates_games": name != NO_INVITES}
        reg.call("POST", f"/tournaments/{tid}/entries", entry, stack.token(uuid.UUID(pid)))
        reg.call("POST", f"/tournaments/{tid}/entries/{pid}/confirm", None, org)
        players[name] = pid
    stack.advance((closes - stack.clock.now()).total_seconds() + 60)
    reg.call("POST", f"/tournaments/{tid}/start", None, org)
    stack.settle()
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
