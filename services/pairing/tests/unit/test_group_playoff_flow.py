"""The pairing service running a group-playoff event (RULES.md §5) from tournament.started to
tournament.completed: the group games paired at the start, the play-offs and extra games made by the
event, the organiser's phases, lots and deadlines over HTTP, the withdrawal scored 0:2, the placing."""

from __future__ import annotations

import datetime as dt
import uuid

from services.pairing.entrypoints.app import create_app
from services.pairing.tests.helpers import (
    NOW,
    ORGANISER,
    deliver,
    group_playoff_started,
    published,
    withdrawn,
)
from shared import events
from shared.events import GameOutcome
from shared.http.auth import issue_token
from shared.lots import draw_lots
from shared.settings import DEV_JWT_SECRET

W, D, B = GameOutcome.WHITE_WIN, GameOutcome.DRAW, GameOutcome.BLACK_WIN


def headers(subject: uuid.UUID = ORGANISER) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, subject, {'player'})}"}


class Event:
    def __init__(self, svc, started: events.TournamentStarted) -> None:
        self.svc, self.started, self.tid = svc, started, started.tournament_id
        deliver(svc, started, self.tid)
        self.done: set[uuid.UUID] = set()

    def games(self) -> list[events.PairedGame]:
        return [
            g
            for e in published(self.svc, "round.paired")
            for g in events.RoundPaired.model_validate(e.payload).games
        ]

    def open(self) -> list[events.PairedGame]:
        return [g for g in self.games() if g.game_id not in self.done]

    def result(self, game: events.PairedGame, outcome: GameOutcome, reason: str = "reported") -> None:
        self.done.add(game.game_id)
        finished = events.GameFinished(
            tournament_id=self.tid, game_id=game.game_id, round=1, white=game.white, black=game.black,
            outcome=outcome, reason=reason, finished_at=NOW,
        )  # fmt: skip
        deliver(self.svc, finished, self.tid)

    def play_all(self, by_seed=min) -> None:
        """Every open game won by the better (``min``) seed."""
        seed = {r.player_id: r.seed for r in self.started.roster}
        while games := self.open():
            for g in games:
                self.result(g, W if by_seed(seed[g.white], seed[g.black]) == seed[g.white] else B)

    def announced(self) -> list[events.GroupPlayoffAnnounced]:
        return [
            events.GroupPlayoffAnnounced.model_validate(e.payload)
            for e in published(self.svc, "group_playoff.announced")
        ]


def test_the_start_draws_the_groups_and_pairs_every_group_game(service):
    run = Event(service, group_playoff_started())
    (paired,) = [events.RoundPaired.model_validate(e.payload) for e in published(service, "round.paired")]
    assert paired.system == "group_playoff" and len(paired.games) == 24
    assert paired.time_control.days_per_move == 2
    assert all(g.match_id is None and g.label and "invites" in g.label for g in paired.games)
    groups = [a for a in run.announced() if a.kind == "groups"]
    assert [(a.group, a.seed) for a in groups] == [("I", "11"), ("II", "11")]
    top, second = run.started.roster[0].player_id, run.started.roster[1].player_id
    assert groups[0].players[0] == top and groups[1].players[0] == second


def test_the_other_player_invites_when_the_first_named_cannot_create_games(svc):
    """4T1 §4(5): ``tournament.started``'s roster says who cannot create games (``creates_games: false``);
    the games of their matches name the other player as the inviter, the page says so too."""
    started = group_playoff_started()
    cannot = {started.roster[2].player_id, started.roster[5].player_id}
    roster = [r.model_copy(update={"creates_games": r.player_id not in cannot}) for r in started.roster]
    run = Event(svc, started.model_copy(update={"roster": roster}))
    games = run.games()
    names = {r.player_id: r.name for r in roster}
    moved = 0
    for g in games:
        gp = g.group_playoff
        assert gp is not None
        first, other = gp.players
        expected = other if first in cannot and other not in cannot else first
        assert gp.inviter == expected
        assert g.label is not None and g.label.endswith(f"({names[expected]} invites)")
        moved += gp.inviter != first
    assert moved >= 2  # at least one match (two games) where the first named does not invite
    page = create_app(svc).test_client().get(f"/tournaments/{run.tid}/group-playoff").json
    assert {p["player_id"] for p in page["players"] if not p["creates_games"]} == {str(p) for p in cannot}
    for m in page["matches"]:
        assert m["inviter"] == m["games"][0]["inviter"]
        if m["players"][0] in {str(p) for p in cannot} and m["players"][1] not in {str(p) for p in cannot}:
            assert m["inviter"] == m["players"][1]


def test_a_whole_event_over_http_with_a_refused_phase_and_the_placing(svc):
    run = Event(svc, group_playoff_started())
    client = create_app(svc).test_client()
    url = f"/tournaments/{run.tid}"
    refused = client.post(f"{url}/phases", json={"phase": 2}, headers=headers())
    assert refused.status_code == 409 and refused.json["type"].endswith("games-still-open")
    assert len(refused.json["games"]) == 24
    assert client.post(f"{url}/phases", json={"phase": 2}, headers=headers(uuid.uuid4())).status_code == 403
    assert client.post(f"{url}/groups/I/lots", json={"seed": "x"}, headers=headers()).status_code == 409
    deadline = client.post(
        f"{url}/deadlines",
        json={"phase": 1, "at": (NOW + dt.timedelta(days=1)).isoformat()},
        headers=headers(),
    )
    assert deadline.status_code == 200 and deadline.json["deadlines"] == {"1": "2026-06-02T12:00:00Z"}
    run.play_all()
    page = client.get(f"{url}/group-playoff").json
    assert [r["decided_by"] for r in page["groups"]["I"]] == ["a", "a", "a", "a"]
    assert (
        client.post(f"{url}/phases", json={"phase": 2, "with_placement": True}, headers=headers()).status_code
        == 200
    )
    run.play_all()
    assert client.post(f"{url}/phases", json={"phase": 3}, headers=headers()).status_code == 200
    run.play_all()
    page = client.get(f"{url}/group-playoff").json
    assert page["completed"] and [p["place"] for p in page["placing"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    (completed,) = published(svc, "tournament.completed")
    placing = events.TournamentCompleted.model_validate(completed.payload).placing
    assert placing is not None and [p.seed for p in placing][:2] == [1, 2]
    assert [a.kind for a in run.announced()] == ["groups", "groups", "deadline", "phase", "phase"]


def test_a_three_way_tie_gets_a_playoff_round_robin_and_a_withdrawal_after_the_groups_is_taken(service):
    run = Event(service, group_playoff_started())
    seed = {r.player_id: r.seed for r in run.started.roster}
    groups = [a for a in run.announced() if a.kind == "groups"]
    first = set(groups[0].players[:3])
    # in group I the first three draw each other and beat the fourth; everything else by seed
    for g in run.open():
        both = {g.white, g.black}
        if both <= first:
            run.result(g, D)
        elif both & first:
            run.result(g, W if g.white in first else B)
        else:
            run.result(g, W if seed[g.white] < seed[g.black] else B)
    playoffs = [a for a in run.announced() if a.kind == "playoff"]
    assert len(playoffs) == 3 and {p for a in playoffs for p in a.players} == first
    assert len(run.open()) == 6  # three play-off matches, two games each
    leaver = groups[1].players[3]
    deliver(service, withdrawn(run.started, leaver), run.tid)  # the group phase is over for group II
    run.play_all()
    assert not [a for a in run.announced() if a.kind == "lot"]


def test_games_carry_their_match_and_a_phase_announces_the_matches_it_opens(svc):
    run = Event(svc, group_playoff_started())
    client = create_app(svc).test_client()
    url = f"/tournaments/{run.tid}"
    first = run.games()[0]
    place = first.group_playoff
    assert place is not None and (place.phase, place.stage, place.group, place.extra) == (1, "group", "I", 0)
    assert place.inviter == place.players[0] and {first.white, first.black} == set(place.players)
    assert place.match == f"group:{place.players[0]}:{place.players[1]}"
    leaver = run.started.roster[-1].player_id
    deliver(svc, withdrawn(run.started, leaver), run.tid)
    (withdrawal,) = [a for a in run.announced() if a.kind == "withdrawal"]
    assert withdrawal.players == [leaver] and withdrawal.phase == 1
    assert len(withdrawal.matches) == 3 and all(m.forfeited_by == leaver for m in withdrawal.matches)
    run.play_all()
    client.post(f"{url}/phases", json={"phase": 2, "with_placement": True}, headers=headers())
    (phase,) = [a for a in run.announced() if a.kind == "phase"]
    assert [m.stage for m in phase.matches] == ["semi-final", "semi-final", "fifth-place", "seventh-place"]
    (seventh,) = [m for m in phase.matches if m.stage == "seventh-place"]
    assert seventh.forfeited_by == leaver  # a withdrawn player plays no later phase: created scored 0:2
    assert not [g for g in run.games() if leaver in (g.white, g.black) and g.group_playoff.phase == 3]


def test_an_overdue_game_decided_by_the_organisers_recorded_lot(svc):
    run = Event(svc, group_playoff_started())
    client = create_app(svc).test_client()
    url = f"/tournaments/{run.tid}"
    game = run.games()[0]
    lot_url = f"{url}/games/{game.game_id}/lot"
    early = client.post(lot_url, json={"seed": "die"}, headers=headers())
    assert early.status_code == 409 and early.json["type"].endswith("game-not-overdue")
    client.post(f"{url}/deadlines", json={"phase": 1, "at": NOW.isoformat()}, headers=headers())
    assert client.post(lot_url, json={"seed": "die"}, headers=headers(uuid.uuid4())).status_code == 403
    drawn = client.post(lot_url, json={"seed": "die"}, headers=headers())
    assert drawn.status_code == 200, drawn.json
    (lot,) = [x for x in drawn.json["lots"] if x["kind"] == "game"]
    assert (lot["game_id"], lot["seed"], lot["drawn_by"]) == (str(game.game_id), "die", str(ORGANISER))
    (announced,) = [a for a in run.announced() if a.kind == "game-lot"]
    seeds = {r.player_id: r.seed for r in run.started.roster}
    first = draw_lots([[seeds[game.white], seeds[game.black]]], "die").groups[0][0]
    winner = game.white if seeds[game.white] == first else game.black
    assert announced.game_id == game.game_id and announced.players[0] == winner
    assert announced.result == (W if winner == game.white else B)
    again = client.post(lot_url, json={"seed": "again"}, headers=headers())
    assert again.status_code == 409 and again.json["type"].endswith("game-lot-drawn")
    run.result(game, announced.result, "lot")  # the clocks enter the lot's result
    page = client.get(f"{url}/group-playoff").json
    (shown,) = [g for m in page["matches"] for g in m["games"] if g["game_id"] == str(game.game_id)]
    assert shown["how"] == "lot" and shown["result"] == announced.result.value
    done = client.post(lot_url, json={"seed": "late"}, headers=headers())
    assert done.status_code == 409 and done.json["type"].endswith("game-finished")
    unseeded = client.post(f"{url}/games/{run.games()[1].game_id}/lot", json={}, headers=headers())
    assert unseeded.status_code == 200
    assert [x["seed"] for x in unseeded.json["lots"] if x["kind"] == "game"][1].isdigit()  # drawn, recorded


def test_a_game_of_a_phase_not_started_is_409_not_404(svc):
    run = Event(svc, group_playoff_started())
    client = create_app(svc).test_client()
    url = f"/tournaments/{run.tid}"
    client.post(f"{url}/deadlines", json={"phase": 2, "at": NOW.isoformat()}, headers=headers())
    page = client.get(f"{url}/group-playoff").json
    planned = page["planned"]
    assert [(p["stage"], p["slot"], len(p["game_ids"])) for p in planned] == [
        ("semi-final", 1, 3), ("semi-final", 2, 3), ("final", None, 4), ("third-place", None, 2),
        ("fifth-place", None, 2), ("seventh-place", None, 2),
    ]  # fmt: skip
    assert all(p["players"] is None for p in planned)  # nothing decided yet
    semi = planned[0]["game_ids"][0]
    refused = client.post(f"{url}/games/{semi}/lot", json={"seed": "x"}, headers=headers())
    assert refused.status_code == 409 and refused.json["type"].endswith("phase-not-started")
    unknown = client.post(f"{url}/games/{uuid.uuid4()}/lot", json={"seed": "x"}, headers=headers())
    assert unknown.status_code == 404
    run.play_all()
    page = client.get(f"{url}/group-playoff").json
    assert page["planned"][0]["players"] is not None  # the groups are decided: the semi-finals known
    client.post(f"{url}/phases", json={"phase": 2}, headers=headers())
    page = client.get(f"{url}/group-playoff").json
    semis = [m for m in page["matches"] if m["phase"] == "semi-final"]
    assert semis[0]["games"][0]["game_id"] == semi  # the id known ahead is the game's
    assert [p["stage"] for p in page["planned"]] == ["final", "third-place", "fifth-place", "seventh-place"]
