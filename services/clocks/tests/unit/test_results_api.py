"""Results under the arbiter's authority over HTTP (embedded adapters): who may report what, as a table
of every kind of caller; claims, disputes and corrections as the game view shows them; colour swaps;
the games of an unpublished round for the arbiters appointed for them. Every refusal leaves the stored
state exactly as it was."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa

from services.clocks.adapters import orm
from services.clocks.tests.conftest import NOW, Pairing, a_round, announce, published, token
from shared import events
from shared.events import Envelope, wrap
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET
from shared.vocabulary import Ruleset


def decision(by: uuid.UUID, reason: str | None = None) -> events.DecisionBy:
    return events.DecisionBy(by=by, role="organiser", at=NOW, reason=reason)


def started(p: Pairing, ruleset: Ruleset = Ruleset.PLATFORM) -> Envelope:
    settings = events.TournamentSettings(ruleset=ruleset, time_control=p.time_control)
    event = events.TournamentStarted(
        tournament_id=p.tournament_id,
        organiser_id=p.organiser_id,
        name="t",
        started_at=NOW,
        settings=settings,
        roster=[],
    )
    return wrap(event, p.tournament_id)


def appointed(p: Pairing, arbiter: uuid.UUID, games: list[uuid.UUID] | None = None) -> Envelope:
    event = events.ArbiterAppointed(
        tournament_id=p.tournament_id, arbiter_id=arbiter, games=games, decision=decision(p.organiser_id)
    )
    return wrap(event, p.tournament_id)


def revoked(p: Pairing, arbiter: uuid.UUID) -> Envelope:
    later = events.DecisionBy(by=p.organiser_id, role="organiser", at=NOW + dt.timedelta(seconds=1))
    event = events.ArbiterRevoked(tournament_id=p.tournament_id, arbiter_id=arbiter, decision=later)
    return wrap(event, p.tournament_id)


def problem(r, status: int, slug: str) -> None:
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json"
    assert r.json["type"] == f"/problems/{slug}"


def stored_state(svc) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table the clocks keep, outbox and inbox included."""
    tables = (
        orm.games,
        orm.clock_changes,
        orm.outbox,
        orm.inbox,
        orm.tournaments,
        orm.arbiters,
        orm.withdrawals,
    )
    with svc.engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(sa.select(t)).all()), key=repr) for t in tables}


@dataclass
class Scene:
    """A running platform game, another tournament, and arbiters appointed in every way."""

    ours: Pairing
    theirs: Pairing
    arbiter: uuid.UUID  # appointed for the whole tournament
    game_arbiter: uuid.UUID  # appointed for this game only
    other_games_arbiter: uuid.UUID  # appointed for another game of this tournament
    elsewhere: uuid.UUID  # appointed for the other tournament
    revoked: uuid.UUID  # appointed here, then revoked

    @property
    def game(self) -> events.PairedGame:
        return self.ours.game(1)


@pytest.fixture
def scene(svc) -> Scene:
    ours, theirs = a_round(2), a_round(1)
    s = Scene(ours, theirs, *(uuid.uuid4() for _ in range(5)))
    for envelope in (
        ours.envelope(),
        theirs.envelope(),
        started(ours),
        started(theirs),
        appointed(ours, s.arbiter),
        appointed(ours, s.game_arbiter, [s.game.game_id]),
        appointed(ours, s.other_games_arbiter, [ours.game(2).game_id]),
        appointed(theirs, s.elsewhere),
        appointed(ours, s.revoked),
        revoked(ours, s.revoked),
    ):
        announce(svc, envelope)
    return s


Headers = Callable[[Scene], dict[str, str]]


def bearer(subject: Callable[[Scene], uuid.UUID], *roles: str) -> Headers:
    return lambda s: token(subject(s), *roles)


def expired(s: Scene) -> dict[str, str]:
    jwt = issue_token(DEV_JWT_SECRET, s.game.white, {"player"}, ttl=dt.timedelta(seconds=-1))
    return {"Authorization": f"Bearer {jwt}"}


def foreign(s: Scene) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {issue_token('a different secret, 32 bytes or more', s.game.white, {'player'})}"
    }


NOBODY: Headers = lambda s: {}  # noqa: E731
MALFORMED: Headers = lambda s: {"Authorization": "Bearer not.a.jwt"}  # noqa: E731
WHITE = bearer(lambda s: s.game.white)
BLACK = bearer(lambda s: s.game.black)
STRANGER = bearer(lambda s: s.ours.game(2).white)  # a player of the tournament, not of this game
OTHER_ORGANISER = bearer(lambda s: s.theirs.organiser_id)
ORGANISER = bearer(lambda s: s.ours.organiser_id)
ARBITER = bearer(lambda s: s.arbiter, "arbiter")
ARBITER_AS_PLAYER = bearer(lambda s: s.arbiter)  # the appointment counts, not the token's role
GAME_ARBITER = bearer(lambda s: s.game_arbiter, "arbiter")
OTHER_GAMES_ARBITER = bearer(lambda s: s.other_games_arbiter, "arbiter")
ELSEWHERE_ARBITER = bearer(lambda s: s.elsewhere, "arbiter")
REVOKED_ARBITER = bearer(lambda s: s.revoked, "arbiter")
UNAPPOINTED_ARBITER = bearer(lambda s: uuid.uuid4(), "arbiter")
SERVICE = bearer(lambda s: uuid.uuid4(), "service")

RESULT_TABLE = [
    ("no token", NOBODY, "0-1", 401, "unauthorized"),
    ("malformed token", MALFORMED, "0-1", 401, "unauthorized"),
    ("expired token", expired, "0-1", 401, "unauthorized"),
    ("token signed elsewhere", foreign, "0-1", 401, "unauthorized"),
    ("player not in the game", STRANGER, "1/2-1/2", 403, "not-your-game"),
    ("white resigns", WHITE, "0-1", 200, None),
    ("black resigns", BLACK, "1-0", 200, None),
    ("player offers a draw", WHITE, "1/2-1/2", 202, None),
    ("player claims a win", WHITE, "1-0", 403, "result-not-allowed"),
    ("player claims a forfeit win", BLACK, "-/+", 403, "result-not-allowed"),
    ("player concedes by forfeit", WHITE, "-/+", 403, "result-not-allowed"),
    ("player enters a double forfeit", WHITE, "-/-", 403, "result-not-allowed"),
    ("another organiser", OTHER_ORGANISER, "1-0", 403, "not-your-game"),
    ("arbiter of another tournament", ELSEWHERE_ARBITER, "1-0", 403, "not-an-arbiter-here"),
    ("arbiter of another game", OTHER_GAMES_ARBITER, "1-0", 403, "not-an-arbiter-here"),
    ("arbiter appointed nowhere", UNAPPOINTED_ARBITER, "1-0", 403, "not-an-arbiter-here"),
    ("arbiter revoked", REVOKED_ARBITER, "1-0", 403, "not-an-arbiter-here"),
    ("arbiter of the tournament", ARBITER, "+/-", 200, None),
    ("arbiter of the game", GAME_ARBITER, "1-0", 200, None),
    ("appointed, with a player's token", ARBITER_AS_PLAYER, "1/2-1/2", 200, None),
    ("organiser", ORGANISER, "-/-", 200, None),
    ("service", SERVICE, "0-1", 200, None),
]


@pytest.mark.parametrize(
    ("headers", "outcome", "status", "slug"), [c[1:] for c in RESULT_TABLE], ids=[c[0] for c in RESULT_TABLE]
)
def test_who_may_report_a_result(client, svc, scene, headers, outcome, status, slug):
    url = f"/games/{scene.game.game_id}/result"
    before = stored_state(svc)
    r = client.post(url, json={"outcome": outcome, "reason": "resignation"}, headers=headers(scene))
    if slug is not None:
        problem(r, status, slug)
        assert stored_state(svc) == before  # the game, its clock, the outbox: exactly as they were
        return
    assert r.status_code == status, r.json
    assert r.json["status"] == ("finished" if status == 200 else "running")
    events_out = published(svc, "game.finished")
    if status == 200:
        [finished] = events_out
        assert finished.payload["outcome"] == outcome and r.json["result"]["outcome"] == outcome
    else:
        assert events_out == [] and [c["outcome"] for c in r.json["claims"]] == [outcome]


def test_the_decision_comes_back_with_the_result(client, svc, scene):
    r = client.post(
        f"/games/{scene.game.game_id}/result",
        json={"outcome": "+/-", "reason": "absent"},
        headers=ARBITER(scene),
    )
    assert r.json["result"]["decision"] == {
        "by": str(scene.arbiter),
        "role": "arbiter",
        "at": "2026-06-01T12:00:00Z",
        "reason": None,
    }
    assert published(svc, "game.finished")[0].payload["decision"]["role"] == "arbiter"
    r = client.post(  # a player's own loss: no decision
        f"/games/{scene.ours.game(2).game_id}/result",
        json={"outcome": "0-1", "reason": "resignation"},
        headers={"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, scene.ours.game(2).white)}"},
    )
    assert r.status_code == 200 and r.json["result"]["decision"] is None, r.json
    with svc.engine.connect() as conn:  # routed apart: the audit log binds the entered results alone
        keys = conn.execute(
            sa.select(orm.outbox.c.type)
            .where(orm.outbox.c.type.like("game.finished%"))
            .order_by(orm.outbox.c.id)
        ).scalars()
        assert list(keys) == ["game.finished.decided", "game.finished"]


@pytest.mark.parametrize(
    ("ruleset", "started_first", "key"),
    [
        (Ruleset.PLATFORM, True, "game.finished.platform"),
        (Ruleset.GROUP_PLAYOFF, True, "game.finished.group-playoff"),
        (Ruleset.PLATFORM, False, "game.finished"),  # created before clocks knew the ruleset: bare
    ],
)
def test_a_result_is_routed_by_its_tournaments_ruleset(client, svc, ruleset, started_first, key):
    """``game.finished.<ruleset>`` when clocks knew the ruleset as it created the game (the group-playoff
    page's queue takes its own and the bare ones alone), ``.decided`` after it when someone entered it;
    the ruleset stays the game's (a start arriving later does not change what its result is routed by)."""
    pairing = a_round(2)
    for envelope in (started(pairing, ruleset), pairing.envelope())[:: 1 if started_first else -1]:
        announce(svc, envelope)
    own_loss = pairing.game(1)
    r = client.post(
        f"/games/{own_loss.game_id}/result",
        json={"outcome": "0-1", "reason": "resignation"},
        headers={"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, own_loss.white)}"},
    )
    assert r.status_code == 200, r.json
    r = client.post(
        f"/games/{pairing.game(2).game_id}/result",
        json={"outcome": "1-0", "reason": "absent"},
        headers=token(pairing.organiser_id),
    )
    assert r.status_code == 200, r.json
    with svc.engine.connect() as conn:
        keys = conn.execute(
            sa.select(orm.outbox.c.type)
            .where(orm.outbox.c.type.like("game.finished%"))
            .order_by(orm.outbox.c.id)
        ).scalars()
        assert list(keys) == [key, f"{key}.decided"]


def test_a_draw_offered_and_accepted_over_http(client, svc, scene, clock):
    g, url = scene.game, f"/games/{scene.game.game_id}/result"
    body = {"outcome": "1/2-1/2", "reason": "agreement"}
    clock.advance(7)
    r = client.post(url, json=body, headers=WHITE(scene))
    assert r.status_code == 202 and r.json["status"] == "running" and r.json["result"] is None
    assert r.json["claims"] == [
        {
            "player_id": str(g.white),
            "side": "white",
            "outcome": "1/2-1/2",
            "reason": "agreement",
            "at": "2026-06-01T12:00:07Z",
        }
    ]
    assert client.get(f"/games/{g.game_id}").json["claims"] == r.json["claims"]  # public, like the game
    r = client.post(url, json=body, headers=WHITE(scene))  # again: still waiting
    assert r.status_code == 202
    r = client.post(url, json=body, headers=BLACK(scene))
    assert r.status_code == 200 and r.json["status"] == "finished" and r.json["claims"] == []
    assert (
        r.json["result"]["decision"]["by"] == str(g.black)
        and r.json["result"]["decision"]["role"] == "player"
    )
    problem(client.post(url, json=body, headers=BLACK(scene)), 409, "game-finished")


def test_a_disputed_result_over_http(client, svc):
    p = a_round(1)
    arbiter = uuid.uuid4()
    for envelope in (p.envelope(), started(p, Ruleset.GROUP_PLAYOFF), appointed(p, arbiter)):
        announce(svc, envelope)
    g, url = p.game(1), f"/games/{p.game(1).game_id}/result"
    assert (
        client.post(url, json={"outcome": "1-0", "reason": "checkmate"}, headers=token(g.white)).status_code
        == 202
    )
    r = client.post(url, json={"outcome": "0-1", "reason": "checkmate"}, headers=token(g.black))
    assert r.status_code == 202 and r.json["status"] == "disputed"
    assert [(c["side"], c["outcome"]) for c in r.json["claims"]] == [("white", "1-0"), ("black", "0-1")]
    assert r.json["clock"]["state"] == "stopped" and r.json["clock"]["deadline"] is None
    problem(client.post(f"/games/{g.game_id}/moves", headers=token(g.white)), 409, "result-disputed")
    r = client.post(url, json={"outcome": "1-0", "reason": "checkmate"}, headers=token(arbiter, "arbiter"))
    assert r.status_code == 200 and r.json["result"]["decision"]["role"] == "arbiter"


def test_a_player_reports_no_game_before_it_starts(client, svc):
    m = KnockoutRound()
    announce(svc, m.paired(published=True))
    waiting = m.games[1]  # game 2 waits for game 1
    before = stored_state(svc)
    problem(
        client.post(
            f"/games/{waiting.game_id}/result",
            json={"outcome": "1-0", "reason": "resignation"},
            headers=token(waiting.black),
        ),
        409,
        "game-not-started",
    )
    assert stored_state(svc) == before


def test_a_corrected_result_is_marked_with_its_decision(client, svc, scene):
    g = scene.game
    client.post(
        f"/games/{g.game_id}/result", json={"outcome": "0-1", "reason": "resignation"}, headers=WHITE(scene)
    )
    event = events.GameResultCorrected(
        tournament_id=scene.ours.tournament_id,
        game_id=g.game_id,
        round=1,
        white=g.white,
        black=g.black,
        old_outcome="0-1",
        outcome="1-0",
        decision=events.DecisionBy(by=scene.arbiter, role="arbiter", at=NOW, reason="reported the wrong way"),
    )
    announce(svc, wrap(event, scene.ours.tournament_id))
    result = client.get(f"/games/{g.game_id}").json["result"]
    assert (result["outcome"], result["reason"], result["corrected"], result["decision"]) == (
        "1-0",
        "resignation",
        True,
        None,
    )
    assert result["corrections"] == [
        {
            "old_outcome": "0-1",
            "outcome": "1-0",
            "decision": {
                "by": str(scene.arbiter),
                "role": "arbiter",
                "at": "2026-06-01T12:00:00Z",
                "reason": "reported the wrong way",
            },
        }
    ]


# -- colour swaps ------------------------------------------------------------------------------------
TC = events.TimeControl(base_seconds=600, increment_seconds=5)


class KnockoutRound:
    """A two-game knockout match, as pairing announces it."""

    def __init__(self) -> None:
        self.tid, self.organiser = uuid.uuid4(), uuid.uuid4()
        a, b = uuid.uuid4(), uuid.uuid4()
        self.games = [
            events.PairedGame(
                game_id=uuid.uuid4(),
                board=1,
                white=w,
                black=bl,
                match_id="winners:1:1",
                number=n,
                label=f"Game {n}",
            )
            for n, (w, bl) in enumerate(((a, b), (b, a)), start=1)
        ]

    def pairing(self) -> Pairing:
        return Pairing(self.tid, self.organiser, 1, self.games, TC)

    def paired(self, published: bool) -> Envelope:
        event = events.RoundPaired(
            tournament_id=self.tid,
            organiser_id=self.organiser,
            round=1,
            total_rounds=1,
            system="knockout",
            games=self.games,
            time_control=TC,
            published=published,
        )
        return wrap(event, self.tid)


COLOURS_TABLE = [
    ("no token", NOBODY, 401, "unauthorized"),
    ("malformed token", MALFORMED, 401, "unauthorized"),
    ("expired token", expired, 401, "unauthorized"),
    ("a player of the game", WHITE, 403, "own-game"),
    ("another player", STRANGER, 403, "not-organiser"),
    ("another organiser", OTHER_ORGANISER, 403, "not-organiser"),
    ("arbiter of another tournament", ELSEWHERE_ARBITER, 403, "not-an-arbiter-here"),
    ("arbiter of another game", OTHER_GAMES_ARBITER, 403, "not-an-arbiter-here"),
    ("service", SERVICE, 403, "not-organiser"),
    ("arbiter of the tournament", ARBITER, 200, None),
    ("arbiter of the game", GAME_ARBITER, 200, None),
    ("organiser", ORGANISER, 200, None),
]


@pytest.mark.parametrize(
    ("headers", "status", "slug"), [c[1:] for c in COLOURS_TABLE], ids=[c[0] for c in COLOURS_TABLE]
)
def test_who_may_swap_colours(client, svc, scene, clock, headers, status, slug):
    g = scene.game
    clock.advance(30)
    before = stored_state(svc)
    r = client.post(f"/games/{g.game_id}/colours", headers=headers(scene))
    if slug is not None:
        problem(r, status, slug)
        assert stored_state(svc) == before
        return
    assert r.status_code == 200, r.json
    assert (r.json["white"]["player_id"], r.json["black"]["player_id"]) == (str(g.black), str(g.white))
    assert r.json["clock"]["white_ms"] == 180_000  # the new White's turn starts now, with all their time
    [swapped] = published(svc, "game.colours_swapped")
    assert (swapped.payload["white"], swapped.payload["black"]) == (str(g.black), str(g.white))


def test_colours_stay_once_the_game_is_under_way_or_over(client, svc, scene, clock):
    g, other = scene.game, scene.ours.game(2)
    url = f"/games/{g.game_id}/colours"
    problem(client.post(f"/games/{uuid.uuid4()}/colours", headers=ORGANISER(scene)), 404, "game-not-found")
    assert client.post(f"/games/{g.game_id}/moves", headers=WHITE(scene)).status_code == 200
    before = stored_state(svc)
    problem(client.post(url, headers=ORGANISER(scene)), 409, "game-under-way")
    assert stored_state(svc) == before
    client.post(
        f"/games/{other.game_id}/result",
        json={"outcome": "0-1", "reason": "resignation"},
        headers=token(other.white),
    )
    problem(client.post(f"/games/{other.game_id}/colours", headers=ORGANISER(scene)), 409, "game-finished")
    assert published(svc, "game.colours_swapped") == []


def test_a_swap_after_whites_flag_fell_ends_the_game_on_time(client, svc, scene, clock):
    clock.advance(181)
    r = client.post(f"/games/{scene.game.game_id}/colours", headers=ORGANISER(scene))
    problem(r, 409, "flag-fallen")
    assert client.get(f"/games/{scene.game.game_id}").json["result"]["reason"] == "time"


def test_a_cancelled_or_disputed_games_colours_stay(client, svc):
    m = KnockoutRound()
    announce(svc, m.paired(published=True))
    decided = events.MatchDecided(
        tournament_id=m.tid,
        match_id="winners:1:1",
        round=1,
        section="winners",
        players=[m.games[0].white, m.games[0].black],
        winner=m.games[0].white,
        how="regular",
        games_cancelled=[g.game_id for g in m.games],
        decided_at=NOW,
    )
    announce(svc, wrap(decided, m.tid))
    problem(
        client.post(f"/games/{m.games[1].game_id}/colours", headers=token(m.organiser)), 409, "game-cancelled"
    )
    p = a_round(1)
    announce(svc, p.envelope())
    announce(svc, started(p, Ruleset.GROUP_PLAYOFF))
    g = p.game(1)
    for who, outcome in ((g.white, "1-0"), (g.black, "0-1")):
        client.post(
            f"/games/{g.game_id}/result", json={"outcome": outcome, "reason": "checkmate"}, headers=token(who)
        )
    problem(client.post(f"/games/{g.game_id}/colours", headers=token(p.organiser_id)), 409, "result-disputed")


# -- an unpublished round's games --------------------------------------------------------------------
def test_an_unpublished_rounds_games_are_shown_to_the_arbiters_appointed_for_them(client, svc):
    m = KnockoutRound()
    p = m.pairing()
    whole, one, other = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    for envelope in (
        m.paired(published=False),
        appointed(p, whole),
        appointed(p, one, [m.games[0].game_id]),
        appointed(a_round(1), other),
    ):
        announce(svc, envelope)
    url = f"/tournaments/{m.tid}/games"

    def listed(headers: dict[str, str]) -> list[str]:
        return [g["id"] for g in client.get(url, headers=headers).json["games"]]

    ids = [str(g.game_id) for g in m.games]
    assert listed(token(m.organiser)) == ids
    assert listed(token(whole, "arbiter")) == ids
    assert listed(token(one)) == ids[:1]
    assert listed(token(uuid.uuid4(), "service")) == ids
    assert listed(token(other, "arbiter")) == [] and listed({}) == []
    assert client.get(f"/games/{ids[1]}", headers=token(whole, "arbiter")).status_code == 200
    problem(client.get(f"/games/{ids[1]}", headers=token(one, "arbiter")), 404, "game-not-found")
    problem(client.get(f"/games/{ids[0]}", headers=token(other, "arbiter")), 404, "game-not-found")


def test_the_openapi_document_lists_the_colours_endpoint(client):
    doc = client.get("/openapi.json").json
    assert "/games/{game_id}/colours" in doc["paths"]
    assert {"200", "202"} <= set(doc["paths"]["/games/{game_id}/result"]["post"]["responses"])
    assert {"ClaimOut", "DecisionOut", "CorrectionOut"} <= set(doc["components"]["schemas"])
