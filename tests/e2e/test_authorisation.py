"""Who may do what, on the real stack (issue 9): every mutating endpoint of the four services against
each kind of caller, the status of each cell checked, and every refusal checked to leave the stored state
of all four services exactly as it was.

The table is data: ``MATRIX`` maps each endpoint to the status each principal gets. The principals are
relative to the endpoint's target — "player" is a player of the target game (for a tournament-wide
endpoint: a player entered in the tournament, acting for themselves), "stranger" a registered player who
is not in it, "arbiter_in" an arbiter appointed for the whole tournament, "arbiter_out" one appointed for
named games that are not the target (outside the scope of every tournament-wide decision). Standings has
no mutating endpoint; the test checks the OpenAPI documents so that an endpoint added later without a
row here fails it. The fixtures (one tournament per kind of target) are built once for the module; a
cell that succeeds gets a target of its own, so no success changes what another cell sees."""

from __future__ import annotations

import datetime as dt
import itertools
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from shared.http.auth import issue_token
from shared.testing.polling import wait_for
from tests.e2e.group_playoffs import Event, page_or_none, rated
from tests.e2e.stack import Stack
from tests.e2e.story import Account, Story

pytestmark = pytest.mark.e2e

PRINCIPALS = (
    "none",
    "malformed",
    "expired",
    "stranger",
    "player",
    "other_organiser",
    "arbiter_out",
    "arbiter_in",
    "organiser",
    "service",
)
UNAUTHENTICATED = {"none": 401, "malformed": 401, "expired": 401}


def row(
    stranger: int,
    player: int,
    other_organiser: int,
    arbiter_out: int,
    arbiter_in: int,
    organiser: int,
    service: int,
) -> dict[str, int]:
    return {
        **UNAUTHENTICATED,
        "stranger": stranger,
        "player": player,
        "other_organiser": other_organiser,
        "arbiter_out": arbiter_out,
        "arbiter_in": arbiter_in,
        "organiser": organiser,
        "service": service,
    }


# endpoint → status by principal:  stranger, player, other organiser, arbiter out of scope, arbiter in
# scope, organiser, service
MATRIX: dict[str, dict[str, int]] = {
    # registration
    "POST /accounts": row(403, 403, 403, 403, 403, 403, 201),
    "POST /tournaments": row(201, 201, 201, 201, 201, 201, 404),
    "PATCH /tournaments/{tournament_id}": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/entries": row(403, 403, 403, 403, 201, 201, 403),
    "DELETE /tournaments/{tournament_id}/entries/{player_id}": row(403, 403, 403, 403, 200, 200, 403),
    "POST /tournaments/{tournament_id}/arbiters": row(403, 403, 403, 403, 403, 201, 403),
    "DELETE /tournaments/{tournament_id}/arbiters/{account_id}": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/seeding/draw": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/cancel": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/start": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/withdrawals": row(403, 403, 403, 403, 201, 201, 403),
    "POST /tournaments/{tournament_id}/players": row(403, 403, 403, 403, 201, 201, 403),
    "POST /tournaments/{tournament_id}/players/import": row(403, 403, 403, 403, 201, 201, 403),
    "PATCH /tournaments/{tournament_id}/players/{player_id}": row(403, 403, 403, 403, 200, 200, 403),
    "DELETE /tournaments/{tournament_id}/players/{player_id}": row(403, 403, 403, 403, 200, 200, 403),
    "POST /tournaments/{tournament_id}/entries/{player_id}/confirm": row(403, 403, 403, 403, 200, 200, 403),
    "POST /tournaments/{tournament_id}/entries/{player_id}/pause": row(403, 200, 403, 403, 200, 200, 200),
    # pairing
    "POST /tournaments/{tournament_id}/rounds/{number}/publish": row(403, 403, 403, 403, 200, 200, 403),
    "POST /games/{game_id}/correction": row(403, 403, 403, 403, 200, 200, 403),
    "POST /tournaments/{tournament_id}/byes": row(403, 201, 403, 403, 201, 201, 403),
    "DELETE /tournaments/{tournament_id}/byes/{player_id}/{round}": row(403, 200, 403, 403, 200, 200, 403),
    "POST /tournaments/{tournament_id}/reset": row(403, 403, 403, 403, 403, 200, 403),
    # clocks
    "POST /games/{game_id}/moves": row(403, 200, 403, 403, 403, 403, 403),
    "POST /games/{game_id}/result": row(403, 200, 403, 403, 200, 200, 200),
    "POST /games/{game_id}/colours": row(403, 403, 403, 403, 200, 200, 403),
    "POST /games/{game_id}/absence": row(403, 403, 403, 403, 200, 200, 403),
    "POST /games/{game_id}/penalties": row(403, 403, 403, 403, 201, 201, 403),
    # the platform rules (issue 13): invite links are the organiser's alone; presence the game server's
    "POST /tournaments/{tournament_id}/invites": row(403, 403, 403, 403, 403, 201, 403),
    "DELETE /tournaments/{tournament_id}/invites/{token}": row(403, 403, 403, 403, 403, 200, 403),
    "POST /presence": row(403, 403, 403, 403, 403, 403, 204),
    # fide-rapid (issue 10): rounds paired and absences excused on an arbiter's command
    "POST /tournaments/{tournament_id}/rounds/{number}/pair": row(403, 403, 403, 403, 201, 201, 403),
    "POST /tournaments/{tournament_id}/absences/{player_id}/excuse": row(403, 403, 403, 403, 200, 200, 403),
    # group-playoff (issue 11): the organiser's alone (RULES.md §5); the lot before the phase it opens
    "POST /tournaments/{tournament_id}/entries/{player_id}/refuse": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/groups/{group}/lots": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/phases": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/deadlines": row(403, 403, 403, 403, 403, 200, 403),
    "POST /tournaments/{tournament_id}/games/{game_id}/lot": row(403, 403, 403, 403, 403, 200, 403),
    "POST /games/{game_id}/boost": row(403, 200, 403, 403, 403, 403, 403),
}
SERVICE_OF = {
    "POST /accounts": "registration",
    "POST /games/{game_id}/correction": "pairing",
    "POST /tournaments/{tournament_id}/rounds/{number}/publish": "pairing",
    "POST /tournaments/{tournament_id}/byes": "pairing",
    "DELETE /tournaments/{tournament_id}/byes/{player_id}/{round}": "pairing",
    "POST /tournaments/{tournament_id}/reset": "pairing",
    "POST /games/{game_id}/moves": "clocks",
    "POST /games/{game_id}/result": "clocks",
    "POST /games/{game_id}/colours": "clocks",
    "POST /games/{game_id}/absence": "clocks",
    "POST /games/{game_id}/penalties": "clocks",
    "POST /presence": "clocks",
    # fide-rapid
    "POST /tournaments/{tournament_id}/rounds/{number}/pair": "pairing",
    "POST /tournaments/{tournament_id}/absences/{player_id}/excuse": "pairing",
    # group-playoff
    "POST /tournaments/{tournament_id}/groups/{group}/lots": "pairing",
    "POST /tournaments/{tournament_id}/phases": "pairing",
    "POST /tournaments/{tournament_id}/deadlines": "pairing",
    "POST /tournaments/{tournament_id}/games/{game_id}/lot": "pairing",
    "POST /games/{game_id}/boost": "clocks",
}


def service_of(endpoint: str) -> str:
    return SERVICE_OF.get(endpoint, "registration")


@dataclass
class Request:
    path: str
    body: Any = None
    content_type: str | None = None  # None: JSON
    created: Callable[[], bool] | None = None  # for a cell with no world: whether it created something


@dataclass
class World:
    """One tournament the cells act on, and how to read everything the four services store of it."""

    id: uuid.UUID
    players: list[Account]
    rounds: int = 0  # rounds whose games the clocks hold
    games: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    organiser: Account | None = None  # None: the matrix's organiser
    reads: list[tuple[str, str]] = field(default_factory=list)  # more of what the services store of it
    absent: list[Account] = field(default_factory=list)  # fide-rapid: who lost round 1 at the default time


class Matrix:
    def __init__(self, story: Story) -> None:
        self.story = story
        s = story
        self.organiser = s.register("Organiser matrix", 1900)
        self.other_organiser = s.register("Other organiser matrix", 1900)
        s.create_knockout(self.other_organiser, name="the other organiser's draft")
        self.stranger = s.register("Stranger matrix", 1900)
        self.arbiter_in = self._arbiter("Arbiter in scope")
        self.arbiter_out = self._arbiter("Arbiter out of scope")
        self.service = issue_token(s.secret, uuid.uuid4(), {"service"})
        self.counter = itertools.count(1)
        self.last: dict[uuid.UUID, Any] = {}  # each world's latest snapshot, while nothing changed it
        self.link: str | None = None  # the swiss's invite link the refused revocations aim at
        self.tokens = {
            "malformed": "not.a-valid.token",
            "expired": issue_token(s.secret, self.organiser.id, {"player"}, ttl=dt.timedelta(seconds=-30)),
            "stranger": self.stranger.token,
            "other_organiser": self.other_organiser.token,
            "arbiter_out": self.arbiter_out.token,
            "arbiter_in": self.arbiter_in.token,
            "organiser": self.organiser.token,
            "service": self.service,
        }
        # the two worlds that start at a time: entered first, they wait for their start while the
        # others are built
        swiss = self.platform_swiss()
        arena = self.arena()
        self.draft = self.knockout_draft(4, seeding="random")
        self.started = self.started_knockout(16, publish=True)  # the clocks' games
        self.unpublished = self.started_knockout(4, publish=False)  # publish, reset
        self.withdrawing = self.started_knockout(4, publish=False)
        self.fide = self.fide_event()
        self.fide_started = self.fide_after_round_one()
        self.gp_entries = self.group_playoff_entries()
        self.gp = self.group_playoff_tied()
        self.swiss = self.platform_swiss_started(swiss)
        self.arena = self.running_arena(arena)

    # -- building the worlds ---------------------------------------------------------------------------
    def _arbiter(self, name: str) -> Account:
        account = self.story.register(f"{name} matrix", 1900)
        return Account(
            account.id, account.name, issue_token(self.story.secret, account.id, {"player", "arbiter"})
        )

    def player(self, prefix: str = "M") -> Account:
        return self.story.register(f"{prefix} {next(self.counter)}", 1500 + next(self.counter) % 500)

    def appoint(self, tid: uuid.UUID, organiser: Account | None = None) -> None:
        s = self.story
        organiser = organiser or self.organiser
        for body in (
            {"account_id": str(self.arbiter_in.id)},
            {"account_id": str(self.arbiter_out.id), "games": [str(uuid.uuid4())]},
        ):
            s.call("registration", "POST", f"/tournaments/{tid}/arbiters", body, organiser.token, expect=201)

    def knockout_draft(self, n: int, **knockout: Any) -> World:
        s = self.story
        # an hour on the clock: no flag falls while the cells run
        tid = s.create_knockout(
            self.organiser, games_per_match=1, base_seconds=3600, name="matrix draft", **knockout
        )
        self.appoint(tid)
        players = [self.player("Draft") for _ in range(n)]
        for p in players:
            s.add_player(tid, self.organiser, p)
        return World(tid, players)

    def started_knockout(self, n: int, *, publish: bool) -> World:
        s = self.story
        world = self.knockout_draft(n)
        s.start_knockout(world.id, self.organiser)
        s.paired_round(world.id, 1, self.organiser.token)
        world.rounds = 1
        if publish:
            s.publish(world.id, 1, self.organiser)
            world.games[1] = wait_for(
                lambda: (
                    len(g := s.round_games(world.id, 1)) == n // 2
                    and all(x["status"] == "running" for x in g)
                    and g
                ),
                timeout=30,
                what="the games running",
            )
        return world

    def platform_swiss(self) -> World:
        """A private platform Swiss of eight, entered, about to start (:meth:`platform_swiss_started`)."""
        s = self.story
        players = [self.player("Swiss") for _ in range(8)]
        tid = s.create_tournament(  # private: its invite links are the invite cells' targets
            self.organiser,
            start_in=6,
            threshold=7,
            byes_on_request=True,
            name="matrix swiss",
            password=SWISS_PASSWORD,
        )
        self.appoint(tid)
        for p in players:
            body = {"password": SWISS_PASSWORD}
            s.call("registration", "POST", f"/tournaments/{tid}/entries", body, p.token, expect=201)
        return World(tid, players, rounds=1, reads=[("registration", f"/tournaments/{tid}/invites")])

    def platform_swiss_started(self, world: World) -> World:
        """The Swiss started, round 1 on the clocks with two results in."""
        s, tid, players = self.story, world.id, world.players
        s.wait_status(tid, "started")
        world.games[1] = s.wait_games(tid, 1, 4)
        by_id = {p.id: p for p in players}
        for game in world.games[1][:2]:  # two results in, so there are games to correct; round 2 unpaired
            s.concede(game, "1-0", by_id)
        world.games[1] = wait_for(
            lambda: sum((g := s.games(tid, 1)) and [x["status"] == "finished" for x in g]) == 2 and g,
            timeout=30,
            what="two results",
        )
        return world

    def created(self, name: str, ruleset: str, **settings: Any) -> uuid.UUID:
        """A tournament of ``ruleset`` the organiser created, with the arbiters appointed."""
        body = {"name": name, "ruleset": ruleset, **settings}
        answer = self.story.call(
            "registration", "POST", "/tournaments", body, self.organiser.token, expect=201
        )
        tid = uuid.UUID(answer["id"])
        self.appoint(tid)
        return tid

    def fide_created(self, name: str) -> uuid.UUID:
        tc = {"base_seconds": 900, "increment_seconds": 10}
        return self.created(name, "fide-rapid", time_control=tc, fide={"rounds": 3})

    def fide_event(self) -> World:
        s = self.story
        tid = self.fide_created("matrix fide-rapid")
        players = [self.player("Fide") for _ in range(3)]
        for p in players:  # accounts that joined: unconfirmed until an official confirms them
            s.join(p, tid)
        return World(tid, players)

    def confirmed(self, tid: uuid.UUID, players: list[Account]) -> None:
        for p in players:
            self.story.join(p, tid)
            path = f"/tournaments/{tid}/entries/{p.id}/confirm"
            self.story.call("registration", "POST", path, None, self.organiser.token)

    def fide_after_round_one(self) -> World:
        """A started fide-rapid event of four accounts whose round 1 ended in two absences at the default
        time (one on each board): round 2 may be paired, and either absence excused."""
        s, token = self.story, self.organiser.token
        tid = self.fide_created("matrix fide-rapid started")
        players = [self.player("Rapid") for _ in range(4)]
        self.confirmed(tid, players)
        s.call("registration", "POST", f"/tournaments/{tid}/start", None, token)
        rounds = f"/tournaments/{tid}/rounds"
        wait_for(
            lambda: s._request("pairing", "GET", f"{rounds}/1/preview", None, {})[0] == 200,
            timeout=30,
            what="pairing to start the event",
        )
        s.call("pairing", "POST", f"{rounds}/1/pair", None, token, expect=201)
        s.call("pairing", "POST", f"{rounds}/1/publish", None, token)
        games = sorted(s.wait_games(tid, 1, 2), key=lambda g: g["board"])
        by_id = {str(p.id): p for p in players}
        absent = [by_id[games[0]["black"]["player_id"]], by_id[games[1]["white"]["player_id"]]]
        for game, player in zip(games, absent, strict=True):
            s.call("clocks", "POST", f"/games/{game['id']}/absence", {"player_id": str(player.id)}, token)
        wait_for(
            lambda: s.call("pairing", "GET", f"{rounds}/2/preview")["pairable"],
            timeout=30,
            what="round 1 complete",
        )
        reads = [("pairing", f"{rounds}/2/preview"), ("pairing", f"{rounds}/2/pairings")]
        return World(tid, players, rounds=1, reads=reads, absent=absent)

    def group_playoff_created(self, name: str) -> uuid.UUID:
        closes = dt.datetime.now(dt.UTC) + dt.timedelta(days=7)
        tc = {"base_seconds": 0, "increment_seconds": 0, "days_per_move": 2}
        return self.created(
            name, "group-playoff", time_control=tc, group_playoff={"closes_at": closes.isoformat()}
        )

    def group_playoff_entries(self) -> World:
        """A group-playoff event before its start, three entries in (refusals)."""
        tid = self.group_playoff_created("matrix group-playoff entries")
        players = [rated(self.story, f"Entry {next(self.counter)}", 1800) for _ in range(3)]
        for p in players:
            self.story.join(p, tid)
        return World(tid, players)

    def group_playoff_tied(self) -> World:
        """A started group-playoff event whose group games and play-off are played: group II in order,
        group I with its first two tied after a 1:1 play-off, so the organiser's lot decides them (4T1
        (f)) before phase 2 may be announced."""
        s = self.story
        tid = self.group_playoff_created("matrix group-playoff")
        players = [rated(s, f"Group {next(self.counter)}", 1990 - 20 * i) for i in range(8)]
        self.confirmed(tid, players)
        s.call("registration", "POST", f"/tournaments/{tid}/start", None, self.organiser.token)
        page = wait_for(lambda: page_or_none(s, str(tid)), timeout=30, what="the groups")
        level = ["A", "B"]  # each wins a game of the match: 1:1
        event = Event(s, self.organiser, players, {("group", frozenset("AB")): level})
        event.script[("playoff", frozenset("AB"))] = level
        event.tid = str(tid)
        event.role.update(zip(page["lots"][0]["order"], "ABCDEFGH", strict=True))
        event.play(lambda p: not event.open_games(p) and any(m["phase"] == "playoff" for m in p["matches"]))
        return World(tid, players, reads=[("pairing", f"/tournaments/{tid}/group-playoff")])

    def arena(self) -> World:
        """An arena of four players, entered, about to start (:meth:`running_arena`). Its own organiser:
        the matrix's runs the Swiss, and an organiser runs one `platform` or arena competition at a
        time."""
        s = self.story
        organiser = s.register("Arena organiser matrix", 1900)
        players = [self.player("Arena") for _ in range(4)]
        tid = s.create_tournament(
            organiser,
            ruleset="arena",
            duration_minutes=120,
            base_seconds=3600,
            start_in=4,
            name="matrix arena",
        )
        self.appoint(tid, organiser)
        for p in players:
            s.join(p, tid)
        return World(tid, players, organiser=organiser)

    def running_arena(self, world: World) -> World:
        """The arena started, its four players in two games (an hour on the clock, two hours to run: no
        game ends and nobody is paired again while the cells run)."""
        s, tid, players, organiser = self.story, world.id, world.players, world.organiser
        s.wait_status(tid, "started")
        games = wait_for(
            lambda: (
                len(g := s.call("clocks", "GET", f"/tournaments/{tid}/games")["games"]) == 2
                and all(x["status"] == "running" for x in g)
                and g
            ),
            timeout=30,
            what="the arena's two games running",
        )
        reads = [("clocks", f"/tournaments/{tid}/games"), ("standings", f"/tournaments/{tid}/arena")]
        return World(tid, players, games={0: games}, organiser=organiser, reads=reads)

    # -- reading a world -------------------------------------------------------------------------------
    def snapshot(self, world: World) -> Any:
        """Everything the four services show of the world, to the organiser (unpublished rounds too)."""
        s, tid, token = self.story, world.id, (world.organiser or self.organiser).token
        reads = (
            [
                ("registration", f"/tournaments/{tid}"),
                ("registration", f"/tournaments/{tid}/arbiters"),
                ("registration", f"/tournaments/{tid}/audit"),
                ("registration", f"/tournaments/{tid}/players"),
                ("pairing", f"/tournaments/{tid}"),
                ("standings", f"/tournaments/{tid}/bracket"),
                ("standings", f"/tournaments/{tid}/standings"),
            ]
            + [("clocks", f"/tournaments/{tid}/games?round={n}") for n in range(1, world.rounds + 2)]
            + world.reads
        )
        seen = []
        for service, path in reads:
            status, _text, answer = s._request(
                service, "GET", path, None, {"Authorization": f"Bearer {token}"}
            )
            seen.append((service, path, status, stable(answer)))
        return seen

    def settled(self, world: World) -> Any:
        """The world once what a success set off has reached every service: two readings alike."""
        previous = [self.snapshot(world)]

        def same() -> Any:
            now = self.snapshot(world)
            if now == previous[0]:
                self.last[world.id] = now
                return now
            previous[0] = now
            return None

        return wait_for(same, timeout=30, interval=0.3, what="the world to settle")

    # -- the targets of each endpoint ------------------------------------------------------------------
    def game(self, world: World, index: int) -> dict[str, Any]:
        return world.games[1][index]

    def in_game(self, game: dict[str, Any], world: World, side: str = "white") -> Account:
        pid = uuid.UUID(game[side]["player_id"])
        return next(p for p in world.players if p.id == pid)


SWISS_PASSWORD = "matrix swiss"


def stable(view: Any) -> Any:
    """A view without what changes by itself as time passes: a running clock's times as of now."""
    if isinstance(view, dict):
        return {k: stable(v) for k, v in view.items() if k not in ("as_of", "white_ms", "black_ms")}
    if isinstance(view, list):
        return [stable(v) for v in view]
    return view


Target = Callable[[Matrix, str, bool], tuple[World | None, Request, Account | None]]
"""(matrix, principal, whether the cell succeeds) → the world it acts on, the request, and who "player"
is for it."""


def on(
    world: World,
    path: str = "",
    body: Any = None,
    content_type: str | None = None,
    player: Account | None = None,
) -> tuple[World, Request, Account]:
    """A request about the tournament of ``world``; "player" is its first player unless named."""
    return world, Request(f"/tournaments/{world.id}{path}", body, content_type), player or world.players[0]


def accounts(m: Matrix, who: str, ok: bool):
    account_id = uuid.uuid4()

    def created() -> bool:
        return (
            m.story.call("registration", "GET", f"/accounts/{account_id}", expect=(200, 404)).get("id")
            is not None
        )

    body = {"id": str(account_id), "name": f"Mirrored by {who}"}
    return None, Request("/accounts", body, created=created), m.stranger


def tournaments(m: Matrix, who: str, ok: bool):
    name = f"matrix draft by {who} {uuid.uuid4().hex[:8]}"
    tc = {"base_seconds": 600, "increment_seconds": 5}
    body = {"name": name, "ruleset": "knockout", "time_control": tc, "knockout": {}}

    def created() -> bool:
        drafts = m.story.call("registration", "GET", "/tournaments?status=draft&limit=500")["tournaments"]
        return any(t["name"] == name for t in drafts)

    return None, Request("/tournaments", body, created=created), m.draft.players[0]


def change(m: Matrix, who: str, ok: bool):
    return on(m.draft, "", {"name": "matrix draft, renamed"})


def join(m: Matrix, who: str, ok: bool):
    return on(m.draft, "/entries", {"player_id": str(m.player("Added").id)})


def leave(m: Matrix, who: str, ok: bool):
    world = m.draft
    if ok:  # a player of its own to remove
        p = m.player("Removed")
        m.story.add_player(world.id, m.organiser, p)
        m.settled(world)
        return on(world, f"/entries/{p.id}")
    return on(world, f"/entries/{world.players[1].id}")


def appoint(m: Matrix, who: str, ok: bool):
    return on(m.draft, "/arbiters", {"account_id": str(m.player("Appointed").id)})


def revoke(m: Matrix, who: str, ok: bool):
    world = m.draft
    appointed = m.player("To revoke")
    body = {"account_id": str(appointed.id)}
    m.story.call(
        "registration", "POST", f"/tournaments/{world.id}/arbiters", body, m.organiser.token, expect=201
    )
    m.settled(world)
    return on(world, f"/arbiters/{appointed.id}")


def draw(m: Matrix, who: str, ok: bool):
    return on(m.draft, "/seeding/draw")


def fresh_draft(path: str) -> Target:
    def target(m: Matrix, who: str, ok: bool):
        world = m.knockout_draft(4) if ok else m.draft
        return on(world, path)

    return target


def withdraw(m: Matrix, who: str, ok: bool):
    world = m.withdrawing
    victim = world.players[{"arbiter_in": 1, "organiser": 2}.get(who, 0)]
    body = {"player_id": str(victim.id), "reason": f"withdrawn by {who}"}
    return on(world, "/withdrawals", body)


def add_person(m: Matrix, who: str, ok: bool):
    return on(m.fide, "/players", {"name": f"Person added by {who}"})


def import_list(m: Matrix, who: str, ok: bool):
    return on(m.fide, "/players/import", f"name,rating_standard\nImported by {who},1800\n", "text/csv")


def _person(m: Matrix, ok: bool) -> uuid.UUID:
    world = m.fide
    if ok:
        body = {"name": f"Person {next(m.counter)}"}
        pid = m.story.call(
            "registration", "POST", f"/tournaments/{world.id}/players", body, m.organiser.token, expect=201
        )
        m.settled(world)
        return uuid.UUID(pid["player_id"])
    return world.players[0].id


def change_person(m: Matrix, who: str, ok: bool):
    return on(m.fide, f"/players/{_person(m, ok)}", {"name": f"Renamed by {who}"})


def remove_person(m: Matrix, who: str, ok: bool):
    return on(m.fide, f"/players/{_person(m, ok)}")


def confirm(m: Matrix, who: str, ok: bool):
    world = m.fide
    entry = world.players[{"arbiter_in": 1, "organiser": 2}.get(who, 0)]
    return on(world, f"/entries/{entry.id}/confirm")


def refuse(m: Matrix, who: str, ok: bool):
    world = m.gp_entries
    entry = world.players[1 if ok else 0]
    return on(world, f"/entries/{entry.id}/refuse", {"reason": f"refused by {who}"})


def pause(m: Matrix, who: str, ok: bool):
    """An arena's player pauses: themselves, or one for each official and the service (one each)."""
    world = m.arena
    player = world.players[0]
    target = {"arbiter_in": world.players[1], "organiser": world.players[2], "service": world.players[3]}
    return on(world, f"/entries/{target.get(who, player).id}/pause", player=player)


def boost(m: Matrix, who: str, ok: bool):
    """The boost in an arena's game: White's, before their first move."""
    world = m.arena
    game = world.games[0][0]
    return world, Request(f"/games/{game['id']}/boost", {}), m.in_game(game, world)


def publish(m: Matrix, who: str, ok: bool):
    world = m.unpublished
    return on(world, "/rounds/1/publish")


def correction(m: Matrix, who: str, ok: bool):
    world = m.swiss
    finished = [g for g in world.games[1] if g["status"] == "finished"]
    game = finished[1 if who == "arbiter_in" else 0]
    outcome = {"organiser": "1/2-1/2", "arbiter_in": "0-1"}.get(who, "0-1")
    body = {"outcome": outcome, "reason": f"corrected by {who}"}
    return world, Request(f"/games/{game['id']}/correction", body), m.in_game(game, world)


def bye(m: Matrix, who: str, ok: bool):
    world = m.swiss
    player = world.players[0]
    target = {"player": player, "arbiter_in": world.players[1], "organiser": world.players[2]}.get(
        who, player
    )
    return on(world, "/byes", {"player_id": str(target.id), "round": 2}, player=player)


def take_back(m: Matrix, who: str, ok: bool):
    world = m.swiss
    player = world.players[3]
    target = {"player": player, "arbiter_in": world.players[4], "organiser": world.players[5]}.get(
        who, player
    )
    return on(world, f"/byes/{target.id}/3", player=player)


def reset(m: Matrix, who: str, ok: bool):
    world = m.unpublished
    return on(world, "/reset")


def pair(m: Matrix, who: str, ok: bool):
    return on(m.fide_started, "/rounds/2/pair")  # pairing it again replaces it


def excuse(m: Matrix, who: str, ok: bool):
    world = m.fide_started
    absent = world.absent[1 if who == "organiser" else 0]
    return on(
        world, f"/absences/{absent.id}/excuse", {"round": 1, "reason": f"excused by {who}"}, player=absent
    )


def lots(m: Matrix, who: str, ok: bool):
    return on(m.gp, "/groups/I/lots", {"seed": f"drawn by {who}"})


def _group_lot_drawn(m: Matrix, world: World, page: dict[str, Any]) -> None:
    if not any(lot["group"] == "I" for lot in page["lots"]):
        body = {"seed": "drawn before phase 2"}
        m.story.call("pairing", "POST", f"/tournaments/{world.id}/groups/I/lots", body, m.organiser.token)
        m.settled(world)


def phase(m: Matrix, who: str, ok: bool):
    """Phase 2 opens once group I's lot is drawn (the lots' row runs first; alone, this draws it)."""
    world = m.gp
    page = m.story.call("pairing", "GET", f"/tournaments/{world.id}/group-playoff")
    if ok:
        _group_lot_drawn(m, world, page)
    return on(world, "/phases", {"phase": 2})


def game_lot(m: Matrix, who: str, ok: bool):
    """An overdue game decided by lot: refused before the game is looked at; the organiser's, on a
    semi-final game once phase 2 is open (the phases' row runs first; alone, this opens it) and its
    deadline has passed."""
    world, s, token = m.gp, m.story, m.organiser.token
    url = f"/tournaments/{world.id}"
    page = s.call("pairing", "GET", f"{url}/group-playoff")
    game = page["matches"][0]["games"][0]["game_id"]
    if ok:
        if page["phase"] < 2:
            _group_lot_drawn(m, world, page)
            s.call("pairing", "POST", f"{url}/phases", {"phase": 2}, token)
        passed = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
        s.call("pairing", "POST", f"{url}/deadlines", {"phase": 2, "at": passed.isoformat()}, token)
        m.settled(world)
        game = s.call("pairing", "GET", f"{url}/group-playoff")["overdue"][0]
    return on(world, f"/games/{game}/lot", {"seed": f"drawn by {who}"})


def deadline(m: Matrix, who: str, ok: bool):
    at = dt.datetime.now(dt.UTC) + dt.timedelta(days=30)
    return on(m.gp, "/deadlines", {"phase": 2, "at": at.isoformat()})


# the started knockout's eight games: which endpoint acts on which (results: one game per success)
GAMES = {"moves": 0, "penalties": 0, "result": 1, "colours": 5, "absence": 6}
RESULT_GAMES = {"player": 1, "arbiter_in": 2, "organiser": 3, "service": 4}
ABSENCE_GAMES = {"arbiter_in": 6, "organiser": 7}


def on_game(action: str, body: Callable[[dict[str, Any], Account, str], Any] | None = None) -> Target:
    def target(m: Matrix, who: str, ok: bool):
        world = m.started
        index = GAMES[action]
        if action == "result" and ok:
            index = RESULT_GAMES[who]
        if action == "absence" and ok:
            index = ABSENCE_GAMES[who]
        game = m.game(world, index)
        # "player": White where White acts (moves: White is to move), Black where they resign
        side = "black" if action == "result" else "white"
        player = m.in_game(game, world, side)
        return world, Request(f"/games/{game['id']}/{action}", body and body(game, player, who)), player

    return target


def result_body(game: dict[str, Any], player: Account, who: str) -> Any:
    return {"outcome": "1-0", "reason": "resignation"}  # Black resigns: the player's own loss


def absence_body(game: dict[str, Any], player: Account, who: str) -> Any:
    return {"player_id": game["black"]["player_id"]}


def penalty_body(game: dict[str, Any], player: Account, who: str) -> Any:
    return {"player_id": game["black"]["player_id"], "kind": "illegal_move"}


def invite(m: Matrix, who: str, ok: bool):
    return on(m.swiss, "/invites", {})


def _new_link(m: Matrix) -> str:
    world = m.swiss
    path = f"/tournaments/{world.id}/invites"
    link = m.story.call("registration", "POST", path, {}, m.organiser.token, expect=201)
    m.settled(world)
    return str(link["token"])


def revoke_invite(m: Matrix, who: str, ok: bool):
    if ok:  # a link of its own to revoke
        return on(m.swiss, f"/invites/{_new_link(m)}")
    if m.link is None:
        m.link = _new_link(m)
    return on(m.swiss, f"/invites/{m.link}")


def presence(m: Matrix, who: str, ok: bool):
    """No read shows a presence report: a refusal is checked on the started knockout, whose games a
    report would change (a player reported disconnected after their first move loses within 30 s). The
    game server's own report is ``connected``, which changes nothing there."""
    world = m.started
    game = m.game(world, GAMES["moves"])
    player = m.in_game(game, world)
    body = {"player_id": str(player.id), "status": "connected" if ok else "disconnected"}
    return world, Request("/presence", body), player


TARGETS: dict[str, Target] = {
    "POST /accounts": accounts,
    "POST /tournaments": tournaments,
    "PATCH /tournaments/{tournament_id}": change,
    "POST /tournaments/{tournament_id}/entries": join,
    "DELETE /tournaments/{tournament_id}/entries/{player_id}": leave,
    "POST /tournaments/{tournament_id}/arbiters": appoint,
    "DELETE /tournaments/{tournament_id}/arbiters/{account_id}": revoke,
    "POST /tournaments/{tournament_id}/seeding/draw": draw,
    "POST /tournaments/{tournament_id}/cancel": fresh_draft("/cancel"),
    "POST /tournaments/{tournament_id}/start": fresh_draft("/start"),
    "POST /tournaments/{tournament_id}/withdrawals": withdraw,
    "POST /tournaments/{tournament_id}/players": add_person,
    "POST /tournaments/{tournament_id}/players/import": import_list,
    "PATCH /tournaments/{tournament_id}/players/{player_id}": change_person,
    "DELETE /tournaments/{tournament_id}/players/{player_id}": remove_person,
    "POST /tournaments/{tournament_id}/entries/{player_id}/confirm": confirm,
    "POST /tournaments/{tournament_id}/entries/{player_id}/pause": pause,
    "POST /tournaments/{tournament_id}/rounds/{number}/publish": publish,
    "POST /games/{game_id}/correction": correction,
    "POST /tournaments/{tournament_id}/byes": bye,
    "DELETE /tournaments/{tournament_id}/byes/{player_id}/{round}": take_back,
    "POST /tournaments/{tournament_id}/reset": reset,
    "POST /games/{game_id}/moves": on_game("moves"),
    "POST /games/{game_id}/result": on_game("result", result_body),
    "POST /games/{game_id}/colours": on_game("colours"),
    "POST /games/{game_id}/absence": on_game("absence", absence_body),
    "POST /games/{game_id}/penalties": on_game("penalties", penalty_body),
    "POST /tournaments/{tournament_id}/invites": invite,
    "DELETE /tournaments/{tournament_id}/invites/{token}": revoke_invite,
    "POST /presence": presence,
    # fide-rapid
    "POST /tournaments/{tournament_id}/rounds/{number}/pair": pair,
    "POST /tournaments/{tournament_id}/absences/{player_id}/excuse": excuse,
    # group-playoff
    "POST /tournaments/{tournament_id}/entries/{player_id}/refuse": refuse,
    "POST /tournaments/{tournament_id}/groups/{group}/lots": lots,
    "POST /tournaments/{tournament_id}/phases": phase,
    "POST /tournaments/{tournament_id}/deadlines": deadline,
    "POST /tournaments/{tournament_id}/games/{game_id}/lot": game_lot,
    "POST /games/{game_id}/boost": boost,
}


@pytest.fixture(scope="module")
def matrix(stack: Stack) -> Iterator[Matrix]:
    story = Story(stack)
    built = Matrix(story)
    # byes to take back: asked for round 3 by the organiser, before any cell runs
    world = built.swiss
    for p in world.players[3:6]:
        body = {"player_id": str(p.id), "round": 3}
        story.call(
            "pairing", "POST", f"/tournaments/{world.id}/byes", body, built.organiser.token, expect=201
        )
    worlds = (
        built.draft,
        built.started,
        built.unpublished,
        built.withdrawing,
        built.swiss,
        built.fide,
        built.fide_started,
        built.gp_entries,
        built.gp,
        built.arena,
    )
    for w in worlds:
        built.settled(w)
    yield built


def test_the_matrix_covers_every_mutating_endpoint(stack: Stack, story: Story):
    documented = set()
    for service in ("registration", "pairing", "clocks", "standings"):
        spec = story.call(service, "GET", "/openapi.json")
        for path, operations in spec["paths"].items():
            for method in operations:
                if method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
                    documented.add((service, f"{method.upper()} {path}"))
    assert documented == {(service_of(e), e) for e in MATRIX}
    assert set(TARGETS) == set(MATRIX)
    assert all(set(statuses) == set(PRINCIPALS) for statuses in MATRIX.values())


CELLS = [
    (endpoint, who)
    for endpoint, statuses in MATRIX.items()
    for who in sorted(statuses, key=lambda w: statuses[w] < 400)
]


@pytest.mark.parametrize(("endpoint", "who"), CELLS, ids=[f"{e} as {w}" for e, w in CELLS])
def test_cell(matrix: Matrix, endpoint: str, who: str):
    """One cell: the status; a refusal leaves every service's state of the world as it was. Within an
    endpoint the refusals run first (the parametrisation's order), so they all see the same target."""
    expected = MATRIX[endpoint][who]
    ok = expected < 400
    world, request, player = TARGETS[endpoint](matrix, who, ok)
    token = matrix.tokens.get(who) if who != "player" else (player.token if player else None)
    if who == "organiser" and world is not None and world.organiser is not None:
        token = world.organiser.token  # the world's own organiser
    before = None
    if world is not None and not ok:
        before = matrix.last.get(world.id) or matrix.snapshot(world)
    method = endpoint.split(" ", 1)[0]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = matrix.story.urls[service_of(endpoint)] + request.path
    if request.content_type:
        headers["Content-Type"] = request.content_type
        response = matrix.story.http.request(method, url, content=request.body.encode(), headers=headers)
    else:
        response = matrix.story.http.request(method, url, json=request.body, headers=headers)
    assert response.status_code == expected, f"{endpoint} as {who}: {response.status_code} {response.text}"
    if ok:
        if world is not None:
            matrix.settled(world)
        return
    problem = response.json()
    assert problem["type"] in REFUSALS[expected], problem
    if world is not None:
        after = matrix.snapshot(world)
        assert after == before, f"{endpoint} as {who} changed the stored state"
        matrix.last[world.id] = after
    else:
        assert request.created is not None and not request.created(), f"{endpoint} as {who} created it"


REFUSALS = {
    401: {"/problems/unauthorized"},
    403: {
        "/problems/forbidden",
        "/problems/not-organiser",
        "/problems/not-an-arbiter-here",
        "/problems/not-your-game",
        "/problems/not-a-player",
        "/problems/own-game",
        "/problems/not-your-bye",
        "/problems/roster-kept-by-organiser",
        "/problems/result-not-allowed",
        "/problems/not-allowed",
    },
    404: {"/problems/account-not-found"},
}
