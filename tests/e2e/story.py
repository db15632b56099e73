"""e2e helpers that read like the tournament story: register, create, join, report, standings; for a
knockout: create it, add players, start it, publish its rounds, play its matches, read its bracket.
:class:`EmbeddedStory` tells the same stories to the embedded mode (``cli/embedded.py``)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from shared.http.auth import issue_token
from shared.testing.polling import wait_for
from tests.e2e.stack import JWT_SECRET, Stack

if TYPE_CHECKING:
    from cli.embedded import EmbeddedStack


@dataclass(frozen=True)
class Account:
    id: uuid.UUID
    name: str
    token: str


def seated(listing: dict[str, Any]) -> set[str]:
    """The players on a pairing listing's boards (a bye's player is not seated)."""
    return {b[side]["player_id"] for b in listing["boards"] for side in ("white", "black")}


class Story:
    def __init__(self, stack: Stack) -> None:
        self.urls = stack.urls
        self.http = httpx.Client(timeout=30)
        stack.clients.append(self.http)  # closed before the stack stops (its kept-alive connections)
        self.secret = JWT_SECRET
        self.staff = issue_token(self.secret, uuid.uuid4(), {"service"})

    # -- plumbing --------------------------------------------------------------------------------
    def call(
        self,
        service: str,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        expect: int | tuple[int, ...] = (200, 201),
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        status, text, answer = self._request(service, method, path, body, headers)
        expected = (expect,) if isinstance(expect, int) else expect
        assert status in expected, f"{method} {path}: {status} {text}"
        return answer

    def _request(
        self, service: str, method: str, path: str, body: Any, headers: dict[str, str]
    ) -> tuple[int, str, Any]:
        """Send a request; its status, its text and its JSON (None if it has none)."""
        response = self.http.request(method, self.urls[service] + path, json=body, headers=headers)
        return response.status_code, response.text, response.json() if response.content else None

    # -- the story -------------------------------------------------------------------------------
    def register(self, name: str, rating: int | None = None, kind: str = "registered") -> Account:
        body = {
            "name": name,
            "kind": kind,
            "ratings": {"chess:blitz": rating, "chess:bullet": rating, "chess:rapid": rating}
            if rating
            else {},
        }
        created = self.call("registration", "POST", "/accounts", body, self.staff, expect=201)
        account_id = uuid.UUID(created["id"])
        return Account(account_id, name, issue_token(self.secret, account_id, {"player"}))

    def create_tournament(
        self,
        organiser: Account,
        *,
        start_in: float = 2.0,
        base_seconds: int = 300,
        increment_seconds: int = 0,
        **settings: Any,
    ) -> uuid.UUID:
        body = {
            "name": settings.pop("name", "e2e"),
            "starts_at": (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=start_in)).isoformat(),
            "time_control": {"base_seconds": base_seconds, "increment_seconds": increment_seconds},
            **settings,
        }
        created = self.call("registration", "POST", "/tournaments", body, organiser.token, expect=201)
        return uuid.UUID(created["id"])

    def create_fide_rapid(self, organiser: Account, arbiter: Account, name: str, rounds: int = 3) -> str:
        """A fide-rapid event (15+10) with ``arbiter`` appointed; its id."""
        body = {
            "ruleset": "fide-rapid",
            "name": name,
            "time_control": {"base_seconds": 900, "increment_seconds": 10},
            "fide": {"rounds": rounds},
        }
        tid: str = self.call("registration", "POST", "/tournaments", body, organiser.token, expect=201)["id"]
        appoint = {"account_id": str(arbiter.id)}
        self.call(
            "registration", "POST", f"/tournaments/{tid}/arbiters", appoint, organiser.token, expect=201
        )
        return tid

    def join(self, player: Account, tournament: uuid.UUID) -> None:
        self.call("registration", "POST", f"/tournaments/{tournament}/entries", {}, player.token, expect=201)

    def tournament(self, tournament: uuid.UUID) -> dict[str, Any]:
        return self.call("registration", "GET", f"/tournaments/{tournament}")

    def wait_status(self, tournament: uuid.UUID, status: str, timeout: float = 30) -> dict[str, Any]:
        return wait_for(
            lambda: (t := self.tournament(tournament))["status"] == status and t,
            timeout=timeout,
            what=f"tournament {status}",
        )

    def games(self, tournament: uuid.UUID, round_no: int) -> list[dict[str, Any]]:
        return self.call("clocks", "GET", f"/tournaments/{tournament}/games?round={round_no}")["games"]

    def wait_games(
        self, tournament: uuid.UUID, round_no: int, count: int, timeout: float = 30, interval: float = 0.02
    ) -> list[dict[str, Any]]:
        return wait_for(
            lambda: len(g := self.games(tournament, round_no)) == count and g,
            timeout=timeout,
            interval=interval,
            what=f"{count} games in round {round_no}",
        )

    def game(self, game_id: str) -> dict[str, Any]:
        return self.call("clocks", "GET", f"/games/{game_id}")

    def wait_started(self, game: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """The game once its turn has come (a double round's leg 2 starts when its leg 1 ends): running,
        or already over (a forfeit)."""
        return wait_for(
            lambda: (g := self.game(game["id"]))["status"] != "pending" and g,
            timeout=timeout,
            what=f"round {game['round']} board {game['board']} leg {game['leg']} under way",
        )

    def pairing(self, tournament: uuid.UUID) -> dict[str, Any]:
        return self.call("pairing", "GET", f"/tournaments/{tournament}")

    def move(self, game: dict[str, Any], player: Account) -> dict[str, Any]:
        return self.call("clocks", "POST", f"/games/{game['id']}/moves", None, player.token)

    def report_result(
        self, game: dict[str, Any], outcome: str, by: Account, reason: str = "resignation"
    ) -> None:
        """``by`` reports the result: final (200), or a player's claim awaiting the opponent (202)."""
        self.call(
            "clocks",
            "POST",
            f"/games/{game['id']}/result",
            {"outcome": outcome, "reason": reason},
            by.token,
            expect=(200, 202),
        )

    def concede(self, game: dict[str, Any], outcome: str, players: Mapping[uuid.UUID, Account]) -> None:
        """The players report the result as they may: the loser resigns; a draw is offered by White
        and accepted by Black."""
        white, black = (players[uuid.UUID(game[side]["player_id"])] for side in ("white", "black"))
        if outcome == "1-0":
            self.report_result(game, outcome, black)
        elif outcome == "0-1":
            self.report_result(game, outcome, white)
        else:
            self.report_result(game, outcome, white, "agreement")
            self.report_result(game, outcome, black, "agreement")

    def call_text(self, service: str, path: str) -> str:
        """A GET whose answer is a file (a TRF, a CSV): its text."""
        response = self.http.get(self.urls[service] + path)
        assert response.status_code == 200, f"GET {path}: {response.status_code} {response.text}"
        return response.text

    def standings(self, tournament: uuid.UUID) -> dict[str, Any]:
        return self.call("standings", "GET", f"/tournaments/{tournament}/standings")

    def wait_final(self, tournament: uuid.UUID, timeout: float = 60) -> dict[str, Any]:
        self.wait_status(tournament, "completed", timeout=timeout)
        return wait_for(
            lambda: (s := self.standings(tournament)).get("completed") and s,
            timeout=timeout,
            what="final standings",
        )

    # -- knockouts ---------------------------------------------------------------------------------
    def create_knockout(
        self,
        organiser: Account,
        *,
        ruleset: str = "knockout",
        base_seconds: int = 600,
        increment_seconds: int = 5,
        name: str = "e2e knockout",
        **knockout: Any,
    ) -> uuid.UUID:
        body = {
            "name": name,
            "ruleset": ruleset,
            "time_control": {"base_seconds": base_seconds, "increment_seconds": increment_seconds},
            "knockout": knockout,
        }
        created = self.call("registration", "POST", "/tournaments", body, organiser.token, expect=201)
        assert created["status"] == "draft"
        return uuid.UUID(created["id"])

    def add_player(self, tournament: uuid.UUID, organiser: Account, player: Account) -> None:
        body = {"player_id": str(player.id)}
        self.call(
            "registration", "POST", f"/tournaments/{tournament}/entries", body, organiser.token, expect=201
        )

    def start_knockout(self, tournament: uuid.UUID, organiser: Account) -> dict[str, Any]:
        return self.call("registration", "POST", f"/tournaments/{tournament}/start", None, organiser.token)

    def paired_round(
        self, tournament: uuid.UUID, round_no: int, token: str | None = None, timeout: float = 30
    ) -> dict[str, Any]:
        """Pairing's view of a round once it is paired (with the organiser's token: also unpublished)."""

        def paired() -> dict[str, Any] | None:
            found = self.call("pairing", "GET", f"/tournaments/{tournament}", token=token, expect=(200, 404))
            rounds = found.get("rounds", [])  # 404 until pairing has seen tournament.started
            return rounds[round_no - 1] if len(rounds) >= round_no else None

        return wait_for(paired, timeout=timeout, what=f"round {round_no} paired")

    def publish(self, tournament: uuid.UUID, round_no: int, organiser: Account) -> dict[str, Any]:
        return self.call(
            "pairing", "POST", f"/tournaments/{tournament}/rounds/{round_no}/publish", None, organiser.token
        )

    def round_games(
        self, tournament: uuid.UUID, round_no: int, token: str | None = None
    ) -> list[dict[str, Any]]:
        return self.call("clocks", "GET", f"/tournaments/{tournament}/games?round={round_no}", token=token)[
            "games"
        ]

    def play_matches(
        self,
        tournament: uuid.UUID,
        round_no: int,
        organiser: Account,
        seed: Mapping[uuid.UUID, int],
        winners: Mapping[str, Sequence[int | None]],
        timeout: float = 60,
    ) -> None:
        """Play a published round: each match's games as they start, game n of match m won by the seed
        ``winners[m][n - 1]`` (None: a draw), the results entered by the organiser; until pairing has
        every match of the round decided."""

        def next_games() -> list[dict[str, Any]] | bool:
            running = [
                g for g in self.round_games(tournament, round_no, organiser.token) if g["status"] == "running"
            ]
            if running:
                return running
            done = self.call("pairing", "GET", f"/tournaments/{tournament}/rounds/{round_no}")["completed"]
            return bool(done)

        while (games := wait_for(next_games, timeout=timeout, what=f"games of round {round_no}")) is not True:
            assert isinstance(games, list)
            for game in games:
                white = seed[uuid.UUID(game["white"]["player_id"])]
                black = seed[uuid.UUID(game["black"]["player_id"])]
                winner = winners[game["match_id"]][game["number"] - 1]
                outcome = "1/2-1/2" if winner is None else ("1-0" if winner == white else "0-1")
                assert winner in (None, white, black), f"{game['match_id']}: {winner} does not play"
                self.report_result(
                    game, outcome, organiser, reason="agreement" if winner is None else "resignation"
                )

    def bracket(self, tournament: uuid.UUID) -> dict[str, Any]:
        return self.call("standings", "GET", f"/tournaments/{tournament}/bracket")


class EmbeddedStory(Story):
    """The same story told to the embedded mode: every call first lets the in-process services do
    all the work that is due (the broker delivers, the scheduler and the ticker run), so a wait is
    answered by its first look."""

    def __init__(self, stack: EmbeddedStack) -> None:
        from shared.settings import DEV_JWT_SECRET

        self.stack = stack
        self.secret = DEV_JWT_SECRET
        self.staff = issue_token(self.secret, uuid.uuid4(), {"service"})

    def _request(
        self, service: str, method: str, path: str, body: Any, headers: dict[str, str]
    ) -> tuple[int, str, Any]:
        self.stack.settle()
        response = self.stack.api[service].client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_data(as_text=True), response.get_json(silent=True)


class Spy:
    """A queue of our own on the run's vhost, bound to some routing keys: what crossed the bus."""

    def __init__(self, amqp_url: str, *routing_keys: str) -> None:
        import pika

        from shared.events import EXCHANGE, bindings

        self._conn = pika.BlockingConnection(pika.URLParameters(amqp_url))
        self.channel = self._conn.channel()
        self.channel.exchange_declare(EXCHANGE, exchange_type="topic", durable=True)
        self.queue = self.channel.queue_declare("", exclusive=True).method.queue
        for key in bindings(routing_keys):  # as a consumer's queue: a type with its qualified keys
            self.channel.queue_bind(self.queue, EXCHANGE, routing_key=key)

    def drain(self) -> list[bytes]:
        bodies = []
        while True:
            method, _props, body = self.channel.basic_get(self.queue, auto_ack=True)
            if method is None:
                return bodies
            bodies.append(body)

    def publish(self, routing_key: str, body: bytes) -> None:
        import pika

        from shared.events import EXCHANGE

        self.channel.basic_publish(EXCHANGE, routing_key, body, pika.BasicProperties(delivery_mode=2))

    def dead_letters(self, queue: str) -> list[tuple[bytes, str]]:
        out = []
        while True:
            method, props, body = self.channel.basic_get(f"{queue}.dead", auto_ack=True)
            if method is None:
                return out
            out.append((body, str((props.headers or {}).get("x-arbiter-reason", ""))))

    def close(self) -> None:
        if self._conn.is_open:
            self._conn.close()
