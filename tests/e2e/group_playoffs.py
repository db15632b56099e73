"""A `group-playoff` event (the 4T1 rules, RULES.md §5) played through a Story over HTTP: its players
rated in the entry window, and its open games finished as a script says. Shared by the e2e event test and
the authorisation matrix."""

from __future__ import annotations

import uuid
from typing import Any

from shared.http.auth import issue_token
from shared.testing.polling import wait_for
from tests.e2e.story import Account, Story

DRAW = "="
Script = dict[tuple[str, frozenset[str]], list[str]]
"""(phase, the two players' letters) → each game's winner by letter, or DRAW; an unscripted match goes
to the earlier letter."""


class Event:
    def __init__(
        self, story: Story, organiser: Account, players: list[Account], script: Script | None = None
    ) -> None:
        self.story, self.organiser = story, organiser
        self.by_id = {str(p.id): p for p in players}
        self.script = script or {}
        self.role: dict[str, str] = {}
        self.tid = ""

    def page(self) -> dict[str, Any]:
        return self.story.call("pairing", "GET", f"/tournaments/{self.tid}/group-playoff")

    def open_games(self, page: dict[str, Any]) -> list[tuple[dict[str, Any], int, dict[str, Any]]]:
        return [
            (m, i, g)
            for m in page["matches"]
            for i, g in enumerate(m["games"])
            if g["result"] is None and g["how"] is None
        ]

    def play(self, done: Any) -> dict[str, Any]:
        """Play every open game (two moves, then the result as the script says) until ``done(page)``."""
        reported: set[str] = set()

        def ready() -> dict[str, Any] | None:
            page = self.page()
            fresh = [g for _, _, g in self.open_games(page) if g["game_id"] not in reported]
            return page if done(page) or fresh else None

        while not done(page := wait_for(ready, timeout=30, what="the next games")):
            for match, index, game in self.open_games(page):
                if game["game_id"] not in reported:
                    self._finish(match, index, game)
                    reported.add(game["game_id"])
        return page

    def _finish(self, match: dict[str, Any], index: int, game: dict[str, Any]) -> None:
        roles = frozenset(self.role[p] for p in match["players"])
        script = self.script.get((match["phase"], roles))
        winner = script[index] if script is not None and index < len(script) else min(roles)
        outcome = "1/2-1/2" if winner == DRAW else ("1-0" if self.role[game["white"]] == winner else "0-1")
        white, black = self.by_id[game["white"]], self.by_id[game["black"]]
        clock_game = {
            "id": game["game_id"],
            "white": {"player_id": game["white"]},
            "black": {"player_id": game["black"]},
        }
        wait_for(  # pairing paired it; the clocks create it on round.paired
            lambda: self.story._request("clocks", "GET", f"/games/{game['game_id']}", None, {})[0] == 200,
            timeout=30,
            what=f"game {game['game_id']} on the clocks",
        )
        self.story.move(clock_game, white)  # a move each: the correspondence clocks run
        self.story.move(clock_game, black)
        self.story.concede(clock_game, outcome, {uuid.UUID(k): v for k, v in self.by_id.items()})


def rated(story: Story, name: str, rating: int) -> Account:
    """A player with a correspondence rating (the entry window is 1700–2000)."""
    body = {"name": name, "kind": "registered", "ratings": {"chess:correspondence": rating}}
    created = story.call("registration", "POST", "/accounts", body, story.staff, expect=201)
    account_id = uuid.UUID(created["id"])
    return Account(account_id, name, issue_token(story.secret, account_id, {"player"}))


def page_or_none(story: Story, tid: str) -> dict[str, Any] | None:
    status, _text, answer = story._request("pairing", "GET", f"/tournaments/{tid}/group-playoff", None, {})
    return answer if status == 200 else None
