"""Double rounds through the bus and the consumers, on the in-memory fakes and on SQLite (RULES.md §2,
issue 22 item 1): a pairing's two legs are played one after the other. Leg 2 is created with the round
but waits, pending and with no clock running, until leg 1 ends; it then starts with a clock of its own,
and absence, busy and the 30 seconds to come back apply to it from its own start. The tournament's close
reaches a leg 2 still waiting."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.domain.presence import Presence
from services.clocks.entrypoints.app import create_app
from services.clocks.service_layer.commands import Actor, CheckFlags, MakeMove, ReportPresence, ReportResult
from services.clocks.tests.conftest import NOW, announce, double_round, legs, published, token
from services.clocks.tests.unit.test_duration import started as started_with_duration
from shared import events
from shared.events import wrap


@pytest.fixture(params=["memory", "sqlite"])
def svc(request):
    """Each test on the in-memory fakes and on SQLite: the fakes must behave as the real thing."""
    return request.getfixturevalue(f"{'memory' if request.param == 'memory' else 'sql'}_svc")


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def game_of(svc, game_id: uuid.UUID):
    with svc.uow() as uow:
        return uow.games.get(game_id)


def started_ids(svc) -> list[str]:
    return [e.payload["game_id"] for e in published(svc, "game.started")]


def results(svc) -> dict[str, dict]:
    return {e.payload["game_id"]: e.payload for e in published(svc, "game.finished")}


def move(svc, game_id: uuid.UUID, player: uuid.UUID):
    return svc.bus.handle(MakeMove(game_id, player))


def resign(svc, game: events.PairedGame, loser: uuid.UUID):
    outcome = Outcome.BLACK_WIN if loser == game.white else Outcome.WHITE_WIN
    return svc.bus.handle(ReportResult(game.game_id, outcome, "resignation", Actor(loser)))


def test_leg_2_waits_for_leg_1_and_starts_with_a_whole_clock_when_it_ends(svc, clock, deadlines):
    pairing = double_round(1, base=60, increment=30)
    announce(svc, pairing)
    one, two = legs(pairing)
    # only the legs 1 start with the round; the legs 2 exist, pending, with no clock and no deadline
    assert started_ids(svc) == [str(g.game_id) for g in pairing.games if g.leg == 1]
    waiting = game_of(svc, two.game_id)
    assert (waiting.status, waiting.started_at, waiting.deadline) == (GameStatus.PENDING, None, None)
    assert deadlines.deadline_of(two.game_id) is None
    assert game_of(svc, one.game_id).next_leg == two.game_id
    # leg 1 is played for far longer than a leg's base time
    move(svc, one.game_id, one.white)
    move(svc, one.game_id, one.black)
    for _ in range(4):
        clock.advance(40)
        move(svc, one.game_id, one.white)
        clock.advance(40)
        move(svc, one.game_id, one.black)
    assert clock.now() == at(320)
    svc.bus.handle(CheckFlags(sweep=True))
    assert not {str(g.game_id) for g in pairing.games if g.leg == 2} & set(results(svc))  # no leg 2 lost
    resign(svc, one, one.black)
    # leg 2 starts now, colours swapped, with the base time whole: its flag falls 60 s from now
    assert started_ids(svc)[-1] == str(two.game_id)
    start = events.GameStarted.model_validate(published(svc, "game.started")[-1].payload)
    assert (start.white, start.black, start.started_at) == (one.black, one.white, at(320))
    second = game_of(svc, two.game_id)
    assert (second.status, second.started_at, second.deadline) == (GameStatus.RUNNING, at(320), at(380))
    assert deadlines.deadline_of(two.game_id) == at(380)
    # leg 1's end is announced before leg 2's start (the players' in-game marker follows them)
    kinds = [(e.type, e.payload["game_id"]) for e in svc.broker.published if e.type.startswith("game.")]
    assert kinds.index(("game.finished", str(one.game_id))) < kinds.index(("game.started", str(two.game_id)))


def test_a_leg_1_ended_by_the_ticker_starts_leg_2_when_the_ticker_ends_it(svc, clock):
    pairing = double_round(1, base=60)
    announce(svc, pairing)
    one, two = legs(pairing)
    move(svc, one.game_id, one.white)
    clock.advance(75)  # Black's flag fell at 60 s; the ticker finds it at 75 s
    assert svc.bus.handle(CheckFlags(sweep=True)) == 1
    assert (results(svc)[str(one.game_id)]["reason"], results(svc)[str(one.game_id)]["finished_at"]) == (
        "time",
        at(60).isoformat().replace("+00:00", "Z"),
    )
    # leg 2's clock starts when the server knew leg 1 was over, not back at its deadline
    second = game_of(svc, two.game_id)
    assert (second.status, second.started_at, second.deadline) == (GameStatus.RUNNING, at(75), at(135))


def test_a_forfeited_leg_1_hands_over_at_once(svc):
    """A player busy elsewhere at the round's start loses leg 1 by forfeit; leg 2's turn comes at once,
    and they are busy then too."""
    pairing = double_round(1)
    one, two = legs(pairing)
    svc.bus.handle(ReportPresence(one.black, Presence.BUSY))
    announce(svc, pairing)
    done = results(svc)
    assert (done[str(one.game_id)]["outcome"], done[str(one.game_id)]["reason"]) == ("+/-", "busy")
    assert (done[str(two.game_id)]["outcome"], done[str(two.game_id)]["reason"]) == ("-/+", "busy")
    assert started_ids(svc) == []


def test_busy_is_asked_again_when_leg_2_starts(svc, clock):
    pairing = double_round(1)
    announce(svc, pairing)
    one, two = legs(pairing)
    move(svc, one.game_id, one.white)
    move(svc, one.game_id, one.black)
    # during leg 1 the game server sees leg 1's Black start a game elsewhere
    svc.bus.handle(ReportPresence(one.black, Presence.BUSY))
    clock.advance(10)
    resign(svc, one, one.white)
    done = results(svc)
    assert (done[str(one.game_id)]["outcome"], done[str(one.game_id)]["reason"]) == ("0-1", "resignation")
    # leg 2 (one.black now White) is not played: the busy player loses it by forfeit
    assert (done[str(two.game_id)]["outcome"], done[str(two.game_id)]["reason"]) == ("-/+", "busy")
    assert str(two.game_id) not in started_ids(svc)


def test_a_player_busy_at_the_rounds_start_but_back_for_leg_2_plays_it(svc):
    """Busy applies per leg: leg 1 was lost by forfeit at the round's start; leg 2, whose turn comes
    later, is played when the player is free again by then. Here leg 1 is the other board's: only the
    busy player's own pairing hands over at once, so the other pairing's leg 2 waits as usual."""
    pairing = double_round(2)
    one, two = legs(pairing)
    three, four = legs(pairing, 2)
    svc.bus.handle(ReportPresence(three.white, Presence.BUSY))
    announce(svc, pairing)
    assert game_of(svc, three.game_id).reason == "busy"
    assert game_of(svc, four.game_id).reason == "busy"  # its turn came at once, still busy
    assert game_of(svc, two.game_id).status is GameStatus.PENDING
    svc.bus.handle(ReportPresence(one.white, Presence.BUSY))  # busy during leg 1 ...
    svc.bus.handle(ReportPresence(one.white, Presence.CONNECTED))  # ... and back before it ends
    resign(svc, one, one.white)
    assert game_of(svc, two.game_id).status is GameStatus.RUNNING


def test_a_game_running_elsewhere_makes_a_player_busy_for_leg_2(svc):
    pairing = double_round(1)
    announce(svc, pairing)
    one, two = legs(pairing)
    # leg 1's White is in an arena game too when leg 1 ends (an arena's games are created at once)
    arena = events.ArenaPaired(
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        games=[events.ArenaGame(game_id=uuid.uuid4(), white=uuid.uuid4(), black=one.white)],
        time_control=pairing.time_control,
        paired_at=NOW,
    )
    announce(svc, wrap(arena, arena.tournament_id))
    assert game_of(svc, arena.games[0].game_id).status is GameStatus.RUNNING
    resign(svc, one, one.black)
    done = results(svc)
    assert (done[str(two.game_id)]["outcome"], done[str(two.game_id)]["reason"]) == ("+/-", "busy")


def test_the_thirty_seconds_to_come_back_count_per_leg(svc, clock):
    pairing = double_round(1, base=600)
    announce(svc, pairing)
    one, two = legs(pairing)
    move(svc, one.game_id, one.white)
    move(svc, one.game_id, one.black)
    svc.bus.handle(ReportPresence(one.white, Presence.DISCONNECTED))  # after their first move in leg 1
    clock.advance(31)
    svc.bus.handle(CheckFlags(sweep=True))
    first = results(svc)[str(one.game_id)]
    assert (first["outcome"], first["reason"]) == ("0-1", "disconnected")
    # leg 2 starts; the player, still away, has not moved in it: their clock decides, not the 30 seconds
    second = game_of(svc, two.game_id)
    assert (second.status, second.away, second.started_at) == (GameStatus.RUNNING, None, at(31))
    clock.advance(31)
    svc.bus.handle(CheckFlags(sweep=True))
    assert str(two.game_id) not in results(svc)
    # back, they play leg 2 (Black now); a disconnection after their first move there has its own 30 s
    svc.bus.handle(ReportPresence(one.white, Presence.CONNECTED))
    move(svc, two.game_id, two.white)
    move(svc, two.game_id, two.black)
    svc.bus.handle(ReportPresence(two.black, Presence.DISCONNECTED))
    assert game_of(svc, two.game_id).back_by == clock.now() + dt.timedelta(seconds=30)
    clock.advance(29)
    svc.bus.handle(CheckFlags(sweep=True))
    assert str(two.game_id) not in results(svc)
    clock.advance(2)
    svc.bus.handle(CheckFlags(sweep=True))
    last = results(svc)[str(two.game_id)]
    assert (last["outcome"], last["reason"]) == ("1-0", "disconnected")


def test_a_leg_2_whose_turn_comes_after_the_close_is_drawn_at_the_close(svc, clock):
    """RULES.md §2 "Duration": 30 minutes, and ten more for the games still running. Leg 1 runs into
    the close: the ticker draws it then, and leg 2, still waiting, is drawn at the close too (never
    started, unrated: nobody moved)."""
    pairing = double_round(1, base=3600)
    announce(svc, started_with_duration(pairing, 30))
    announce(svc, pairing)
    one, two = legs(pairing)
    assert game_of(svc, two.game_id).closes_at == at(40 * 60)
    clock.advance(40 * 60 + 1)
    svc.bus.handle(CheckFlags(sweep=True))
    done = results(svc)
    close = at(40 * 60).isoformat().replace("+00:00", "Z")
    for g in (one, two):
        assert (done[str(g.game_id)]["outcome"], done[str(g.game_id)]["reason"]) == (
            "1/2-1/2",
            "tournament_closed",
        )
        assert done[str(g.game_id)]["finished_at"] == close
    assert done[str(two.game_id)]["both_moved"] is False
    assert started_ids(svc) == [str(one.game_id)]


def test_a_leg_2_starting_within_the_ten_minutes_is_played_until_the_close(svc, clock):
    pairing = double_round(1, base=3600)
    announce(svc, started_with_duration(pairing, 30))
    announce(svc, pairing)
    one, two = legs(pairing)
    move(svc, one.game_id, one.white)
    clock.advance(35 * 60)  # after the announced end, before the close
    resign(svc, one, one.white)
    second = game_of(svc, two.game_id)
    assert (second.status, second.started_at, second.deadline) == (
        GameStatus.RUNNING,
        at(35 * 60),
        at(40 * 60),
    )
    clock.advance(5 * 60)
    svc.bus.handle(CheckFlags(sweep=True))
    assert (results(svc)[str(two.game_id)]["reason"]) == "tournament_closed"


def test_a_withdrawal_during_leg_1_forfeits_both_legs_and_starts_none(svc):
    pairing = double_round(1)
    announce(svc, pairing)
    one, two = legs(pairing)
    event = events.PlayerWithdrawn(tournament_id=pairing.tournament_id, player_id=one.black, reason="ill")
    announce(svc, wrap(event, pairing.tournament_id))
    done = results(svc)
    assert done[str(one.game_id)]["outcome"] == "+/-" and done[str(two.game_id)]["outcome"] == "-/+"
    assert started_ids(svc) == [str(one.game_id)]


def test_leg_2_is_not_played_before_its_turn(sql_svc):
    """Over HTTP: leg 1 names its leg 2, which shows pending; a move there is refused until it starts."""
    client = create_app(sql_svc).test_client()
    pairing = double_round(1, opening=True)
    announce(sql_svc, pairing)
    one, two = legs(pairing)
    shown = client.get(f"/games/{one.game_id}").json
    assert shown["next_leg"] == str(two.game_id) and shown["status"] == "running"
    waiting = client.get(f"/games/{two.game_id}").json
    assert (waiting["status"], waiting["started_at"], waiting["next_leg"]) == ("pending", None, None)
    assert waiting["opening"] == shown["opening"]  # the same opening, colours swapped
    assert (waiting["white"]["player_id"], waiting["black"]["player_id"]) == (str(one.black), str(one.white))
    refused = client.post(f"/games/{two.game_id}/moves", json={}, headers=token(two.white))
    assert (refused.status_code, refused.json["type"]) == (409, "/problems/game-not-started")


def test_a_redelivered_round_starts_no_leg_2(svc):
    pairing = double_round(2)
    envelope = announce(svc, pairing)
    announce(svc, envelope)
    announce(svc, pairing)
    assert len(started_ids(svc)) == 2
    assert [game_of(svc, g.game_id).status for g in pairing.games if g.leg == 2] == [GameStatus.PENDING] * 2
