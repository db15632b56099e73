"""The clocks' events on the wire, pinned: each domain event maps to exactly the JSON the service has
always published, and each consumed event to its command."""

from __future__ import annotations

import datetime as dt
import inspect
import uuid

import pytest

from services.clocks.adapters import wire
from services.clocks.domain import errors
from services.clocks.domain import events as domain
from services.clocks.domain.clock import ClockRate
from services.clocks.domain.game import Outcome
from services.clocks.domain.penalties import Consequence, PenaltyKind
from services.clocks.domain.tournament import Timekeeping, Timing
from services.clocks.service_layer import commands
from shared import events
from shared.authority import Decided, Role
from shared.vocabulary import Ruleset

T = uuid.UUID("11111111-1111-1111-1111-111111111111")
G = uuid.UUID("22222222-2222-2222-2222-222222222222")
W = uuid.UUID("33333333-3333-3333-3333-333333333333")
B = uuid.UUID("44444444-4444-4444-4444-444444444444")
ORG = uuid.UUID("55555555-5555-5555-5555-555555555555")
AT = dt.datetime(2026, 6, 1, 12, 3, 10, 123456, tzinfo=dt.UTC)


def payload_json(event: domain.DomainEvent) -> str:
    envelope = wire.wire.envelope(event)
    assert envelope.tournament_id == T
    return events.payload_of(envelope).model_dump_json()


def test_every_domain_event_has_its_wire_event():
    kinds = {
        cls for _, cls in inspect.getmembers(domain, inspect.isclass) if cls.__module__ == domain.__name__
    }
    assert (
        wire.wire.kinds()
        == kinds
        == {
            domain.GameStarted,
            domain.GameFinished,
            domain.GameCancelled,
            domain.GameColoursSwapped,
            domain.GamePenalised,
        }
    )


def test_game_started():
    event = domain.GameStarted(T, G, 3, W, B, AT, ClockRate(180, 2))
    envelope = wire.wire.envelope(event)
    assert (envelope.type, envelope.version) == ("game.started", 1)
    assert payload_json(event) == (
        '{"tournament_id":"11111111-1111-1111-1111-111111111111",'
        '"game_id":"22222222-2222-2222-2222-222222222222","round":3,'
        '"white":"33333333-3333-3333-3333-333333333333","black":"44444444-4444-4444-4444-444444444444",'
        '"started_at":"2026-06-01T12:03:10.123456Z",'
        '"time_control":{"base_seconds":180,"increment_seconds":2,"days_per_move":null}}'
    )
    correspondence = domain.GameStarted(T, G, 1, W, B, AT, ClockRate(0, 0, 3))
    assert wire.wire.envelope(correspondence).payload["time_control"] == {
        "base_seconds": 0,
        "increment_seconds": 0,
        "days_per_move": 3,
    }


def test_game_finished():
    event = domain.GameFinished(T, G, 3, W, B, Outcome.BLACK_WIN, "time", 17, AT, False)
    envelope = wire.wire.envelope(event)
    assert (envelope.type, envelope.version) == ("game.finished", 1)
    assert payload_json(event) == (
        '{"tournament_id":"11111111-1111-1111-1111-111111111111",'
        '"game_id":"22222222-2222-2222-2222-222222222222","round":3,'
        '"white":"33333333-3333-3333-3333-333333333333","black":"44444444-4444-4444-4444-444444444444",'
        '"outcome":"0-1","reason":"time","moves":17,"finished_at":"2026-06-01T12:03:10.123456Z",'
        '"both_moved":false,"rated":true,"decision":null,"boost":null}'
    )


def test_an_arena_game_finished_carries_its_boosts():
    event = domain.GameFinished(
        T, G, 0, W, B, Outcome.WHITE_WIN, "resignation", 30, AT, True, boost=(True, False)
    )
    assert payload_json(event).endswith('"decision":null,"boost":{"white":true,"black":false}}')


def test_game_cancelled_names_its_players_in_version_2():
    event = domain.GameCancelled(T, G, 2, "match_decided", AT, W, B)
    envelope = wire.wire.envelope(event)
    assert (envelope.type, envelope.version) == ("game.cancelled", 2)
    assert payload_json(event) == (
        '{"tournament_id":"11111111-1111-1111-1111-111111111111",'
        '"game_id":"22222222-2222-2222-2222-222222222222","round":2,"reason":"match_decided",'
        f'"cancelled_at":"2026-06-01T12:03:10.123456Z","white":"{W}","black":"{B}"}}'
    )


def paired(**extra) -> events.PairedGame:
    return events.PairedGame(game_id=G, board=2, white=W, black=B, **extra)


def round_paired(*games: events.PairedGame, published: bool | None = None) -> events.RoundPaired:
    return events.RoundPaired(
        tournament_id=T,
        organiser_id=ORG,
        round=4,
        total_rounds=5,
        system="knockout",
        games=list(games),
        time_control=events.TimeControl(base_seconds=600, increment_seconds=5),
        published=published,
    )


def test_round_paired_creates_the_games_at_their_own_time_control_or_the_rounds():
    tie_break = paired(
        leg=1,
        match_id="winners:4:1",
        number=3,
        label="Tie-break 1 (15+10), game 1",
        time_control=events.TimeControl(base_seconds=900, increment_seconds=10),
    )
    regular = events.PairedGame(game_id=W, board=1, white=G, black=B, leg=2)
    command = wire.create_games(round_paired(tie_break, regular, published=False))
    assert command == commands.CreateGames(
        tournament_id=T,
        organiser_id=ORG,
        round=4,
        games=(
            commands.PairedGame(
                G, 2, 1, W, B, ClockRate(900, 10), "winners:4:1", 3, "Tie-break 1 (15+10), game 1"
            ),
            commands.PairedGame(W, 1, 2, G, B, ClockRate(600, 5)),
        ),
        released=False,
    )


@pytest.mark.parametrize(("published", "released"), [(None, True), (True, True), (False, False)])
def test_only_an_unpublished_knockout_round_waits(published, released):
    assert wire.create_games(round_paired(paired(), published=published)).released is released


def test_a_time_control_the_clocks_cannot_run_is_refused():
    event = round_paired(paired(time_control=events.TimeControl(base_seconds=0, increment_seconds=0)))
    with pytest.raises(errors.InvalidTimeControl, match="needs base time or an increment"):
        wire.create_games(event)


def test_the_other_consumed_events():
    assert wire.release_round(events.RoundPublished(tournament_id=T, round=2, published_at=AT)) == (
        commands.ReleaseRound(T, 2, AT)
    )
    published = events.RoundPublished(tournament_id=T, round=2, published_at=AT, restarts=1)
    assert wire.release_round(published) == commands.ReleaseRound(T, 2, AT, 1)
    decided = events.MatchDecided(
        tournament_id=T,
        match_id="winners:1:1",
        round=1,
        section="winners",
        players=[W, B],
        winner=W,
        how="regular",
        games_cancelled=[G, ORG],
        decided_at=AT,
    )
    assert wire.cancel_games(decided) == commands.CancelGames((G, ORG))
    completed = events.TournamentCompleted(tournament_id=T, organiser_id=ORG, rounds=3, completed_at=AT)
    assert wire.close_tournament(completed) == commands.CloseTournament(T)
    with pytest.raises(TypeError, match=r"expected tournament\.completed, got round\.published"):
        wire.close_tournament(events.RoundPublished(tournament_id=T, round=2, published_at=AT))


DECIDED = Decided(ORG, Role.ARBITER, AT, None)


def test_game_finished_with_its_decision_unrated():
    event = domain.GameFinished(T, G, 3, W, B, Outcome.DRAW, "agreement", 40, AT, True, False, DECIDED)
    assert payload_json(event) == (
        '{"tournament_id":"11111111-1111-1111-1111-111111111111",'
        '"game_id":"22222222-2222-2222-2222-222222222222","round":3,'
        '"white":"33333333-3333-3333-3333-333333333333","black":"44444444-4444-4444-4444-444444444444",'
        '"outcome":"1/2-1/2","reason":"agreement","moves":40,"finished_at":"2026-06-01T12:03:10.123456Z",'
        '"both_moved":true,"rated":false,"decision":{"by":"55555555-5555-5555-5555-555555555555",'
        '"role":"arbiter","at":"2026-06-01T12:03:10.123456Z","reason":null},"boost":null}'
    )


def test_game_colours_swapped():
    event = domain.GameColoursSwapped(T, G, 1, B, W, Decided(ORG, Role.ORGANISER, AT, None))
    envelope = wire.wire.envelope(event)
    assert (envelope.type, envelope.version) == ("game.colours_swapped", 1)
    assert payload_json(event) == (
        '{"tournament_id":"11111111-1111-1111-1111-111111111111",'
        '"game_id":"22222222-2222-2222-2222-222222222222","round":1,'
        '"white":"44444444-4444-4444-4444-444444444444","black":"33333333-3333-3333-3333-333333333333",'
        '"decision":{"by":"55555555-5555-5555-5555-555555555555","role":"organiser",'
        '"at":"2026-06-01T12:03:10.123456Z","reason":null}}'
    )


def test_an_unrated_paired_game_stays_unrated():
    command = wire.create_games(
        round_paired(paired(rated=False), events.PairedGame(game_id=W, board=1, white=G, black=B))
    )
    assert [g.rated for g in command.games] == [False, True]


def wire_decision(reason: str | None = None) -> events.DecisionBy:
    return events.DecisionBy(by=ORG, role=Role.ORGANISER, at=AT, reason=reason)


def test_what_the_clocks_learn_of_a_tournament():
    settings = events.TournamentSettings(
        ruleset="group-playoff", time_control=events.TimeControl(base_seconds=0, days_per_move=2)
    )
    started = events.TournamentStarted(
        tournament_id=T, organiser_id=ORG, name="4T1", started_at=AT, settings=settings, roster=[]
    )
    assert wire.record_tournament(started) == commands.RecordTournament(T, ORG, Ruleset.GROUP_PLAYOFF)
    appointed = events.ArbiterAppointed(tournament_id=T, arbiter_id=W, games=[G, B], decision=wire_decision())
    assert wire.from_arbiters(appointed) == commands.AppointArbiter(T, W, frozenset({G, B}), AT)
    whole = events.ArbiterAppointed(tournament_id=T, arbiter_id=W, decision=wire_decision())
    assert wire.from_arbiters(whole) == commands.AppointArbiter(T, W, None, AT)
    revoked = events.ArbiterRevoked(tournament_id=T, arbiter_id=W, decision=wire_decision())
    assert wire.from_arbiters(revoked) == commands.RevokeArbiter(T, W, AT)
    withdrawn = events.PlayerWithdrawn(
        tournament_id=T, player_id=W, reason="ill", excluded=True, decision=wire_decision("ill")
    )
    assert wire.forfeit_withdrawn(withdrawn) == commands.ForfeitWithdrawn(
        T, W, True, "ill", Decided(ORG, Role.ORGANISER, AT, "ill")
    )
    old = events.PlayerWithdrawn(tournament_id=T, player_id=W)  # an older producer: no decision
    assert wire.forfeit_withdrawn(old) == commands.ForfeitWithdrawn(T, W, False, "", None)


def test_what_pairing_decides_for_the_clocks():
    corrected = events.GameResultCorrected(
        tournament_id=T,
        game_id=G,
        round=2,
        white=W,
        black=B,
        old_outcome="1-0",
        outcome="1/2-1/2",
        decision=wire_decision("scoresheet"),
    )
    assert wire.correct_result(corrected) == commands.CorrectResult(
        G, Outcome.WHITE_WIN, Outcome.DRAW, Decided(ORG, Role.ORGANISER, AT, "scoresheet")
    )
    reset = events.TournamentReset(tournament_id=T, decision=wire_decision(), games=[G], restarts=2)
    assert wire.from_pairing(reset) == commands.ResetTournament(T, AT, (G,), 2)
    assert isinstance(wire.from_pairing(round_paired(paired())), commands.CreateGames)
    with pytest.raises(TypeError, match=r"this queue does not take round\.published"):
        wire.from_pairing(events.RoundPublished(tournament_id=T, round=2, published_at=AT))


def test_game_penalised():
    event = domain.GamePenalised(
        T, G, 4, W, PenaltyKind.DISPLACED_PIECES, 2, Consequence.EXTRA_MINUTE, Decided(ORG, Role.ARBITER, AT)
    )
    envelope = wire.wire.envelope(event)
    assert (envelope.type, envelope.version) == ("game.penalised", 1)
    assert payload_json(event) == (
        '{"tournament_id":"11111111-1111-1111-1111-111111111111",'
        '"game_id":"22222222-2222-2222-2222-222222222222","round":4,'
        '"player_id":"33333333-3333-3333-3333-333333333333","kind":"displaced_pieces","occurrence":2,'
        '"consequence":"extra_minute","decision":{"by":"55555555-5555-5555-5555-555555555555",'
        '"role":"arbiter","at":"2026-06-01T12:03:10.123456Z","reason":null}}'
    )


def test_a_game_over_the_board_does_not_say_whether_both_moved():
    event = domain.GameFinished(T, G, 3, W, B, Outcome.WHITE_WIN, "reported", 0, AT, None, True, DECIDED)
    assert '"both_moved":null' in payload_json(event)


def started_with(**settings) -> events.TournamentStarted:
    return events.TournamentStarted(
        tournament_id=T,
        organiser_id=ORG,
        name="Open",
        started_at=AT,
        settings=events.TournamentSettings(
            time_control=events.TimeControl(base_seconds=900, increment_seconds=10), **settings
        ),
        roster=[],
    )


@pytest.mark.parametrize(
    ("settings", "timing"),
    [
        ({}, Timing(Timekeeping.SERVER, None)),
        ({"ruleset": "knockout"}, Timing(Timekeeping.SERVER, None)),
        ({"ruleset": "fide-rapid"}, Timing(Timekeeping.BOARD, 10)),  # no fide block: its defaults
        ({"ruleset": "fide-rapid", "fide": {"rounds": 7}}, Timing(Timekeeping.BOARD, 10)),
        (
            {"ruleset": "fide-rapid", "fide": {"rounds": 7, "clocks": "server", "default_time_minutes": 15}},
            Timing(Timekeeping.SERVER, 15),
        ),
        (
            {"ruleset": "fide-rapid", "fide": {"rounds": 7, "clocks": "board", "default_time_minutes": 0}},
            Timing(Timekeeping.BOARD, 0),
        ),
    ],
)
def test_who_keeps_the_time_comes_with_tournament_started(settings, timing):
    command = wire.record_tournament(started_with(**settings))
    assert command.timing == timing
    assert command.ruleset == Ruleset(settings.get("ruleset", "platform"))
