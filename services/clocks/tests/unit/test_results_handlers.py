"""Results under the arbiter's authority through the bus and the consumers, on the in-memory fakes and
on SQLite: what the clocks learn of a tournament (its start, appointments, withdrawals) whenever it
arrives, who may report what, forfeits of withdrawn players (the knockout forfeit chain), corrections,
colour swaps and a reset to the draft."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.service_layer.commands import Actor, CheckFlags, MakeMove, ReportResult, SwapColours
from services.clocks.tests.conftest import NOW, a_round, announce, published
from shared import events
from shared.authority import Decided, Role
from shared.events import Envelope, wrap
from shared.group_playoff import planned_games
from shared.vocabulary import Ruleset


@pytest.fixture(params=["memory", "sqlite"])
def svc(request):
    return request.getfixturevalue(f"{'memory' if request.param == 'memory' else 'sql'}_svc")


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def decision(by: uuid.UUID, role: Role = Role.ORGANISER, seconds: float = 0, reason: str | None = None):
    return events.DecisionBy(by=by, role=role, at=at(seconds), reason=reason)


def started(tid: uuid.UUID, organiser: uuid.UUID, ruleset: Ruleset = Ruleset.PLATFORM) -> Envelope:
    settings = events.TournamentSettings(
        ruleset=ruleset, time_control=events.TimeControl(base_seconds=180, increment_seconds=2)
    )
    event = events.TournamentStarted(
        tournament_id=tid, organiser_id=organiser, name="t", started_at=NOW, settings=settings, roster=[]
    )
    return wrap(event, tid)


def appointed(
    tid: uuid.UUID, organiser: uuid.UUID, arbiter: uuid.UUID, games=None, seconds: float = 0
) -> Envelope:
    event = events.ArbiterAppointed(
        tournament_id=tid, arbiter_id=arbiter, games=games, decision=decision(organiser, seconds=seconds)
    )
    return wrap(event, tid)


def revoked(tid: uuid.UUID, organiser: uuid.UUID, arbiter: uuid.UUID, seconds: float = 0) -> Envelope:
    event = events.ArbiterRevoked(
        tournament_id=tid, arbiter_id=arbiter, decision=decision(organiser, seconds=seconds)
    )
    return wrap(event, tid)


def withdrawn(
    tid: uuid.UUID, organiser: uuid.UUID, player: uuid.UUID, *, excluded: bool = False, reason: str = "ill"
) -> Envelope:
    event = events.PlayerWithdrawn(
        tournament_id=tid,
        player_id=player,
        reason=reason,
        excluded=excluded,
        decision=decision(organiser, Role.ORGANISER, 1, reason),
    )
    return wrap(event, tid)


def game_of(svc, game_id: uuid.UUID):
    with svc.uow() as uow:
        return uow.games.get(game_id)


def finished(svc) -> dict[str, events.GameFinished]:
    return {
        e.payload["game_id"]: events.GameFinished.model_validate(e.payload)
        for e in published(svc, "game.finished")
    }


def report(
    svc, game: events.PairedGame | uuid.UUID, outcome: Outcome, actor: Actor, reason: str = "resignation"
):
    game_id = game if isinstance(game, uuid.UUID) else game.game_id
    return svc.bus.handle(ReportResult(game_id, outcome, reason, actor))


# -- who may report ------------------------------------------------------------------------------------
def test_appointments_arriving_before_anything_else_are_kept(svc):
    pairing = a_round(2)
    tid, organiser, arbiter = pairing.tournament_id, pairing.organiser_id, uuid.uuid4()
    announce(svc, appointed(tid, organiser, arbiter, seconds=1))  # no tournament.started, no game yet
    announce(svc, pairing)
    announce(svc, started(tid, organiser))
    assert svc.broker.dead_letters("clocks.arbiters") == []
    report(
        svc,
        pairing.game(1),
        Outcome.WHITE_FORFEIT_WIN,
        Actor(arbiter, roles=frozenset({"arbiter"})),
        "absent",
    )
    event = finished(svc)[str(pairing.game(1).game_id)]
    assert event.outcome is Outcome.WHITE_FORFEIT_WIN
    assert (event.decision.by, event.decision.role, event.decision.at, event.decision.reason) == (
        arbiter,
        Role.ARBITER,
        NOW,
        None,
    )


def test_an_arbiter_named_for_one_game_decides_that_game_only(svc):
    pairing = a_round(2)
    tid, organiser, arbiter = pairing.tournament_id, pairing.organiser_id, uuid.uuid4()
    announce(svc, pairing)
    announce(svc, appointed(tid, organiser, arbiter, games=[pairing.game(2).game_id]))
    who = Actor(arbiter, roles=frozenset({"arbiter"}))
    with pytest.raises(errors.NotAnArbiterHere):
        report(svc, pairing.game(1), Outcome.DRAW, who, "arbiter")
    report(svc, pairing.game(2), Outcome.DRAW, who, "arbiter")
    assert list(finished(svc)) == [str(pairing.game(2).game_id)]


def test_a_revoked_arbiter_decides_nothing_and_a_late_appointment_does_not_bring_them_back(svc):
    pairing = a_round(1)
    tid, organiser, arbiter = pairing.tournament_id, pairing.organiser_id, uuid.uuid4()
    announce(svc, pairing)
    announce(svc, revoked(tid, organiser, arbiter, seconds=5))
    announce(svc, appointed(tid, organiser, arbiter, seconds=4))  # decided before the revocation
    with pytest.raises(errors.NotAnArbiterHere):
        report(svc, pairing.game(1), Outcome.DRAW, Actor(arbiter, roles=frozenset({"arbiter"})), "arbiter")
    announce(svc, appointed(tid, organiser, arbiter, seconds=6))
    report(svc, pairing.game(1), Outcome.DRAW, Actor(arbiter, roles=frozenset({"arbiter"})), "arbiter")
    assert finished(svc)[str(pairing.game(1).game_id)].decision.role is Role.ARBITER


def test_another_tournaments_arbiter_or_organiser_decides_nothing_here(svc):
    ours, theirs = a_round(1), a_round(1)
    arbiter = uuid.uuid4()
    announce(svc, ours)
    announce(svc, appointed(theirs.tournament_id, theirs.organiser_id, arbiter))
    with pytest.raises(errors.NotAnArbiterHere):
        report(svc, ours.game(1), Outcome.DRAW, Actor(arbiter, roles=frozenset({"arbiter"})), "arbiter")
    with pytest.raises(errors.NotYourGame):
        report(svc, ours.game(1), Outcome.DRAW, Actor(theirs.organiser_id), "arbiter")
    assert published(svc, "game.finished") == []


def test_the_organiser_and_the_game_server_enter_results(svc):
    pairing = a_round(2)
    announce(svc, pairing)
    report(svc, pairing.game(1), Outcome.DOUBLE_FORFEIT, Actor(pairing.organiser_id), "absent")
    report(
        svc,
        pairing.game(2),
        Outcome.BLACK_WIN,
        Actor(uuid.uuid4(), roles=frozenset({"service"})),
        "checkmate",
    )
    done = finished(svc)
    assert [done[str(g.game_id)].decision.role for g in pairing.games] == [Role.ORGANISER, Role.SERVICE]


def test_a_draw_agreed_by_both_players(svc, clock):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(5)
    pending = report(svc, g, Outcome.DRAW, Actor(g.white), "agreement")
    assert pending.game.status is GameStatus.RUNNING and pending.flag_fall is None
    assert published(svc, "game.finished") == []
    assert game_of(svc, g.game_id).claims  # stored
    clock.advance(5)
    done = report(svc, g, Outcome.DRAW, Actor(g.black), "agreement")
    assert done.game.finished
    event = finished(svc)[str(g.game_id)]
    assert (event.outcome, event.reason, event.finished_at) == (Outcome.DRAW, "agreement", at(10))
    assert (event.decision.by, event.decision.role) == (g.black, Role.PLAYER)


def test_a_move_declines_a_draw_claim(svc):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    svc.bus.handle(MakeMove(g.game_id, g.white))
    report(svc, g, Outcome.DRAW, Actor(g.white), "agreement")
    svc.bus.handle(MakeMove(g.game_id, g.black))
    assert game_of(svc, g.game_id).claims == {}


def test_a_players_win_is_refused_unless_the_players_run_their_games(svc):
    platform, playoff = a_round(1), a_round(1)
    announce(svc, platform)
    announce(svc, started(platform.tournament_id, platform.organiser_id, Ruleset.PLATFORM))
    announce(svc, playoff)
    announce(svc, started(playoff.tournament_id, playoff.organiser_id, Ruleset.GROUP_PLAYOFF))
    g = platform.game(1)
    with pytest.raises(errors.ResultNotAllowed):
        report(svc, g, Outcome.WHITE_WIN, Actor(g.white), "checkmate")
    p = playoff.game(1)
    report(svc, p, Outcome.WHITE_WIN, Actor(p.white), "checkmate")
    assert published(svc, "game.finished") == []
    report(svc, p, Outcome.WHITE_WIN, Actor(p.black), "checkmate")
    event = finished(svc)[str(p.game_id)]
    assert (event.outcome, event.decision.by) == (Outcome.WHITE_WIN, p.black)


def test_a_dispute_stops_the_clocks_and_waits_for_the_arbiter(svc, clock, deadlines):
    pairing = a_round(1, base=60, increment=0)
    tid, organiser, arbiter = pairing.tournament_id, pairing.organiser_id, uuid.uuid4()
    announce(svc, pairing)
    announce(svc, started(tid, organiser, Ruleset.GROUP_PLAYOFF))
    announce(svc, appointed(tid, organiser, arbiter))
    p = pairing.game(1)
    report(svc, p, Outcome.WHITE_WIN, Actor(p.white), "checkmate")
    report(svc, p, Outcome.BLACK_WIN, Actor(p.black), "checkmate")
    assert game_of(svc, p.game_id).status is GameStatus.DISPUTED
    assert deadlines.deadline_of(p.game_id) is None
    clock.advance(3600)  # long past White's deadline: no flag falls while disputed
    assert svc.bus.handle(CheckFlags()) == 0
    with pytest.raises(errors.ResultDisputed):
        svc.bus.handle(MakeMove(p.game_id, p.white))
    report(svc, p, Outcome.BLACK_WIN, Actor(arbiter, roles=frozenset({"arbiter"})), "checkmate")
    event = finished(svc)[str(p.game_id)]
    assert (event.outcome, event.decision.role, event.finished_at) == (
        Outcome.BLACK_WIN,
        Role.ARBITER,
        at(3600),
    )


# -- withdrawals ---------------------------------------------------------------------------------------
def test_a_withdrawal_forfeits_the_players_open_games(svc, clock):
    pairing = a_round(3)
    tid, organiser = pairing.tournament_id, pairing.organiser_id
    announce(svc, pairing)
    one, two, three = pairing.games
    quitter = one.white
    # the same player on board 3 as Black, in a second game of this round (as a double round would)
    second = events.PairedGame(game_id=uuid.uuid4(), board=3, leg=2, white=two.black, black=quitter)
    announce(
        svc,
        wrap(
            events.RoundPaired(
                tournament_id=tid,
                organiser_id=organiser,
                round=2,
                total_rounds=5,
                system="swiss",
                games=[second],
                time_control=pairing.time_control,
            ),
            tid,
        ),
    )
    report(svc, three, Outcome.WHITE_WIN, Actor(three.black))
    clock.advance(5)
    envelope = withdrawn(tid, organiser, quitter)
    announce(svc, envelope)
    announce(svc, envelope)  # redelivered: nothing twice
    done = finished(svc)
    assert (done[str(one.game_id)].outcome, done[str(second.game_id)].outcome) == (
        Outcome.BLACK_FORFEIT_WIN,
        Outcome.WHITE_FORFEIT_WIN,
    )
    forfeit = done[str(one.game_id)]
    assert (forfeit.reason, forfeit.finished_at, forfeit.both_moved) == ("withdrawal", at(5), False)
    assert (forfeit.decision.by, forfeit.decision.role, forfeit.decision.reason) == (
        organiser,
        Role.ORGANISER,
        "ill",
    )
    assert str(two.game_id) not in done and len(published(svc, "game.finished")) == 3


def test_an_excluded_players_later_games_are_forfeited_as_they_are_paired(svc):
    pairing = a_round(2)
    tid, organiser = pairing.tournament_id, pairing.organiser_id
    excluded = pairing.game(1).black
    announce(svc, withdrawn(tid, organiser, excluded, excluded=True, reason="misconduct"))  # before any game
    announce(svc, pairing)
    event = finished(svc)[str(pairing.game(1).game_id)]
    assert (event.outcome, event.reason, event.decision.reason) == (
        Outcome.WHITE_FORFEIT_WIN,
        "exclusion",
        "misconduct",
    )
    started_games = [e.payload["game_id"] for e in published(svc, "game.started")]
    assert started_games == [str(pairing.game(2).game_id)]  # the forfeited game never started


def test_both_players_withdrawn_is_a_double_forfeit(svc):
    pairing = a_round(1)
    tid, organiser = pairing.tournament_id, pairing.organiser_id
    g = pairing.game(1)
    announce(svc, withdrawn(tid, organiser, g.white))
    announce(svc, withdrawn(tid, organiser, g.black))
    announce(svc, pairing)
    assert finished(svc)[str(g.game_id)].outcome is Outcome.DOUBLE_FORFEIT


def test_a_withdrawal_in_another_tournament_changes_nothing_here(svc):
    pairing, other = a_round(1), a_round(1)
    announce(svc, pairing)
    announce(svc, withdrawn(other.tournament_id, other.organiser_id, pairing.game(1).white))
    assert published(svc, "game.finished") == []


# -- knockouts: the forfeit chain -------------------------------------------------------------------
TC = events.TimeControl(base_seconds=600, increment_seconds=5)


class Match:
    """One knockout match of two games between A and B, as pairing announces it."""

    def __init__(self) -> None:
        self.tid, self.organiser = uuid.uuid4(), uuid.uuid4()
        self.a, self.b = uuid.uuid4(), uuid.uuid4()
        self.games = [self.game(1, self.a, self.b), self.game(2, self.b, self.a)]

    def game(self, number: int, white: uuid.UUID, black: uuid.UUID, rated: bool = True) -> events.PairedGame:
        return events.PairedGame(
            game_id=uuid.uuid4(),
            board=1,
            white=white,
            black=black,
            match_id="winners:1:1",
            number=number,
            label=f"Game {number}",
            rated=rated,
        )

    def paired(self, published: bool | None = True) -> Envelope:
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

    def published(self) -> Envelope:
        return wrap(events.RoundPublished(tournament_id=self.tid, round=1, published_at=NOW), self.tid)


def test_a_withdrawal_after_a_drawn_first_game_forfeits_the_second(svc):
    m = Match()
    announce(svc, m.paired())
    first, second = m.games
    report(svc, first, Outcome.DRAW, Actor(m.a), "agreement")
    report(svc, first, Outcome.DRAW, Actor(m.b), "agreement")
    assert game_of(svc, second.game_id).status is GameStatus.RUNNING
    announce(svc, withdrawn(m.tid, m.organiser, m.a))
    done = finished(svc)
    assert [(done[str(g.game_id)].outcome, done[str(g.game_id)].reason) for g in m.games] == [
        (Outcome.DRAW, "agreement"),
        (Outcome.WHITE_FORFEIT_WIN, "withdrawal"),  # B (White in game 2) wins: 1½–½, pairing decides
    ]
    assert [e.payload["game_id"] for e in published(svc, "game.started")] == [str(g.game_id) for g in m.games]


def test_the_forfeit_chain_runs_through_the_games_still_waiting(svc):
    m = Match()
    announce(svc, m.paired())
    announce(svc, withdrawn(m.tid, m.organiser, m.b))  # during game 1: both games go
    done = finished(svc)
    assert [done[str(g.game_id)].outcome for g in m.games] == [
        Outcome.WHITE_FORFEIT_WIN,
        Outcome.BLACK_FORFEIT_WIN,
    ]
    assert [e.payload["game_id"] for e in published(svc, "game.started")] == [str(m.games[0].game_id)]
    # a game of the match paired later (as a tie-break game is when a match is level) is forfeited too
    tie_break = m.game(3, m.a, m.b, rated=False)
    m.games.append(tie_break)
    announce(svc, m.paired())
    event = finished(svc)[str(tie_break.game_id)]
    assert (event.outcome, event.rated, event.reason) == (Outcome.WHITE_FORFEIT_WIN, False, "withdrawal")
    assert len(published(svc, "game.started")) == 1  # forfeited when its turn came, never started


def test_a_tie_break_game_waits_its_turn_before_it_is_forfeited(svc):
    m = Match()
    announce(svc, m.paired())
    first, second = m.games
    report(svc, first, Outcome.WHITE_WIN, Actor(m.b))  # A wins game 1
    report(svc, second, Outcome.WHITE_WIN, Actor(m.a))  # B wins game 2: 1-1
    one, two = m.game(3, m.a, m.b, rated=False), m.game(4, m.b, m.a, rated=False)
    m.games += [one, two]
    announce(svc, m.paired())  # tie-break stage 1
    assert game_of(svc, one.game_id).status is GameStatus.RUNNING
    report(svc, one, Outcome.DRAW, Actor(m.a), "agreement")
    announce(svc, withdrawn(m.tid, m.organiser, m.a))  # the first tie-break game's draw offer still open
    done = finished(svc)
    assert (done[str(one.game_id)].outcome, done[str(two.game_id)].outcome) == (
        Outcome.BLACK_FORFEIT_WIN,
        Outcome.WHITE_FORFEIT_WIN,
    )
    assert done[str(two.game_id)].rated is False


def test_an_unpublished_rounds_games_are_forfeited_when_it_is_published(svc):
    m = Match()
    announce(svc, m.paired(published=False))
    announce(svc, withdrawn(m.tid, m.organiser, m.a))
    assert published(svc, "game.finished") == []  # nothing of an unpublished round comes out
    assert game_of(svc, m.games[0].game_id).status is GameStatus.PENDING
    announce(svc, m.published())
    done = finished(svc)
    assert [done[str(g.game_id)].outcome for g in m.games] == [
        Outcome.BLACK_FORFEIT_WIN,
        Outcome.WHITE_FORFEIT_WIN,
    ]
    assert published(svc, "game.started") == []


# -- corrections, swaps, reset, rated -------------------------------------------------------------------
def corrected(pairing, game: events.PairedGame, old: Outcome, new: Outcome, by: uuid.UUID) -> Envelope:
    event = events.GameResultCorrected(
        tournament_id=pairing.tournament_id,
        game_id=game.game_id,
        round=1,
        white=game.white,
        black=game.black,
        old_outcome=old,
        outcome=new,
        decision=decision(by, Role.ARBITER, 60, "scoresheet"),
    )
    return wrap(event, pairing.tournament_id)


def test_a_correction_from_pairing_changes_the_stored_result(svc):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    report(svc, g, Outcome.BLACK_WIN, Actor(g.white))
    arbiter = uuid.uuid4()
    envelope = corrected(pairing, g, Outcome.BLACK_WIN, Outcome.DRAW, arbiter)
    announce(svc, envelope)
    announce(svc, envelope)
    game = game_of(svc, g.game_id)
    assert (game.outcome, game.reason, game.corrected) == (Outcome.DRAW, "resignation", True)
    assert game.corrections[0].old_outcome is Outcome.BLACK_WIN
    assert game.corrections[0].decision == Decided(arbiter, Role.ARBITER, at(60), "scoresheet")
    assert len(game.corrections) == 1 and len(published(svc, "game.finished")) == 1  # pairing published it


def test_a_correction_of_a_game_unknown_or_open_here_is_dead_lettered(svc):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    ghost = events.PairedGame(game_id=uuid.uuid4(), board=1, white=g.white, black=g.black)
    announce(svc, corrected(pairing, ghost, Outcome.WHITE_WIN, Outcome.DRAW, uuid.uuid4()))
    announce(svc, corrected(pairing, g, Outcome.WHITE_WIN, Outcome.DRAW, uuid.uuid4()))
    reasons = [d.reason for d in svc.broker.dead_letters("clocks.result_corrected")]
    assert len(reasons) == 2 and "no game" in reasons[0] and "only a finished game" in reasons[1]
    assert game_of(svc, g.game_id).status is GameStatus.RUNNING


def test_a_colour_swap_is_published_with_its_decision(svc, clock):
    m = Match()
    arbiter = uuid.uuid4()
    announce(svc, m.paired(published=False))
    announce(svc, appointed(m.tid, m.organiser, arbiter, games=[m.games[1].game_id]))
    svc.bus.handle(SwapColours(m.games[0].game_id, Actor(m.organiser)))
    svc.bus.handle(SwapColours(m.games[1].game_id, Actor(arbiter, roles=frozenset({"arbiter"}))))
    swaps = [
        events.GameColoursSwapped.model_validate(e.payload) for e in published(svc, "game.colours_swapped")
    ]
    assert [(s.white, s.black, s.decision.role) for s in swaps] == [
        (m.b, m.a, Role.ORGANISER),
        (m.a, m.b, Role.ARBITER),
    ]
    with pytest.raises(errors.NotAnArbiterHere):
        svc.bus.handle(SwapColours(m.games[0].game_id, Actor(arbiter, roles=frozenset({"arbiter"}))))
    announce(svc, m.published())
    started = events.GameStarted.model_validate(published(svc, "game.started")[0].payload)
    assert (started.white, started.black) == (m.b, m.a)
    clock.advance(5)
    svc.bus.handle(MakeMove(m.games[0].game_id, m.b))  # the new White moves first
    with pytest.raises(errors.GameUnderWay):
        svc.bus.handle(SwapColours(m.games[0].game_id, Actor(m.organiser)))


def reset(tid: uuid.UUID, organiser: uuid.UUID, seconds: float = 0, games=(), start: int = 0) -> Envelope:
    event = events.TournamentReset(
        tournament_id=tid, decision=decision(organiser, seconds=seconds), games=list(games), restarts=start
    )
    return wrap(event, tid)


def published_round(m: Match, start: int, seconds: float = 0) -> Envelope:
    event = events.RoundPublished(tournament_id=m.tid, round=1, published_at=at(seconds), restarts=start)
    return wrap(event, m.tid)


def started_again(m: Match) -> Match:
    """The same knockout's round 1 after a new start: new game ids (they derive from the start)."""
    again = Match()
    again.tid, again.organiser, again.a, again.b = m.tid, m.organiser, m.a, m.b
    again.games = [again.game(1, m.a, m.b), again.game(2, m.b, m.a)]
    return again


def test_a_reset_removes_round_one_so_it_can_be_paired_again(svc, deadlines):
    m = Match()
    announce(svc, m.paired())
    running = m.games[0].game_id
    assert deadlines.deadline_of(running) is not None
    announce(svc, reset(m.tid, m.organiser))
    with svc.uow() as uow:
        assert uow.games.of_tournament(m.tid) == []
    assert deadlines.deadline_of(running) is None
    # the round never happened (standings forgets it itself), but the game that started marked its players
    # as in a game (pairing keeps the mark, so that no arena pairs them): its cancellation takes it away
    [cancelled] = [events.GameCancelled.model_validate(e.payload) for e in published(svc, "game.cancelled")]
    assert (cancelled.game_id, cancelled.reason, {cancelled.white, cancelled.black}) == (
        running,
        "tournament_reset",
        {m.a, m.b},
    )
    again = started_again(m)
    announce(svc, again.paired())
    with svc.uow() as uow:
        assert {g.id for g in uow.games.of_tournament(m.tid)} == {g.game_id for g in again.games}
    assert game_of(svc, again.games[0].game_id).status is GameStatus.RUNNING


def test_a_game_removed_by_a_reset_is_lost_by_nobody(svc, clock):
    """A running game whose flag had fallen unnoticed when the reset came is cancelled like the others:
    nobody loses a game that never happened (no game.finished)."""
    m = Match()
    announce(svc, m.paired())
    clock.advance(3600)  # far past White's ten minutes; the ticker has not run
    announce(svc, reset(m.tid, m.organiser))
    assert published(svc, "game.finished") == []
    [cancelled] = published(svc, "game.cancelled")
    assert cancelled.payload["reason"] == "tournament_reset"


def test_a_reset_is_handled_before_the_round_paired_after_it(svc):
    """Both come from pairing, in that order, on one queue: the reset goes first."""
    [queue] = [s for s in svc.subscriptions if "tournament.reset" in s.routing_keys]
    assert (queue.queue, set(queue.routing_keys)) == (
        "clocks.round_paired",
        {"round.paired", "tournament.reset", "arena.paired"},
    )
    m = Match()
    announce(svc, m.paired())
    again = started_again(m)
    svc.broker.publish([reset(m.tid, m.organiser), again.paired()])
    svc.broker.run_until_idle()
    with svc.uow() as uow:
        assert [g.status for g in uow.games.of_tournament(m.tid)] == [GameStatus.RUNNING, GameStatus.PENDING]
    assert len(published(svc, "game.started")) == 2  # a game 1 started before the reset, one after it


def test_a_round_published_before_its_reset_is_settled_and_releases_nothing_after_it(svc, caplog):
    """Issue 22: the organiser publishes round 1 and resets at once; the clocks hear the publication
    after the reset. It waited for games that never came back and was dead-lettered — or, once the
    knockout started again, released the new round 1 its organiser had not published. Starts are told
    by their number, not by the time: here everything happens at one instant (a fake clock)."""
    m = Match()
    announce(svc, m.paired(published=False))
    announce(svc, reset(m.tid, m.organiser, start=0))
    with caplog.at_level("INFO", logger="services.clocks.service_layer.handlers"):
        announce(svc, published_round(m, start=0))
    assert "round.published (round 1, start 0)" in caplog.text and "settled" in caplog.text
    again = started_again(m)
    announce(svc, again.paired(published=False))
    svc.broker.run_until_idle()  # anything parked comes back now
    assert [game_of(svc, g.game_id).released for g in again.games] == [False, False]
    assert published(svc, "game.started") == []
    assert svc.broker.dead_letters("clocks.round_published") == []
    announce(svc, published_round(again, start=1))  # the new start's own publication releases its round
    assert [game_of(svc, g.game_id).released for g in again.games] == [True, True]


def test_a_round_published_by_a_start_whose_reset_is_not_heard_yet_waits(svc):
    """The new start's publication overtakes the reset (another queue): it waits for the reset, so that
    it does not release the undone start's games, which the reset then deletes."""
    m = Match()
    announce(svc, m.paired(published=False))
    again = started_again(m)
    announce(svc, published_round(again, start=1))  # waits: the reset of start 0 is on its way
    assert game_of(svc, m.games[0].game_id).released is False
    announce(svc, reset(m.tid, m.organiser, start=0))
    announce(svc, again.paired(published=False))
    svc.broker.run_until_idle()  # the publication comes back behind them
    assert [game_of(svc, g.game_id).released for g in again.games] == [True, True]
    assert svc.broker.dead_letters("clocks.round_published") == []


def test_a_round_paired_before_its_reset_and_heard_after_it_is_settled(svc, caplog):
    """Should the reset overtake the pairing it undoes (another queue, or a sharded one), the round's
    games are not created again: they run no clocks and end nobody's game."""
    m = Match()
    announce(svc, reset(m.tid, m.organiser, games=[g.game_id for g in m.games]))
    with caplog.at_level("INFO", logger="services.clocks.service_layer.handlers"):
        announce(svc, m.paired())
    assert "round.paired (round 1)" in caplog.text
    with svc.uow() as uow:
        assert uow.games.of_tournament(m.tid) == []
    assert published(svc, "game.started") == []
    announce(svc, Match().paired())  # another tournament's round is created as ever
    assert len(published(svc, "game.started")) == 1


def test_what_is_known_of_a_tournament_survives_its_reset(svc):
    m = Match()
    announce(svc, withdrawn(m.tid, m.organiser, m.a))
    announce(svc, reset(m.tid, m.organiser))
    announce(svc, m.paired())
    assert finished(svc)[str(m.games[0].game_id)].reason == "withdrawal"


def game_lot(pairing, game: events.PairedGame, outcome: Outcome, seconds: float = 0) -> Envelope:
    event = events.GroupPlayoffAnnounced(
        tournament_id=pairing.tournament_id,
        kind="game-lot",
        at=at(seconds),
        phase=1,
        players=[game.white, game.black],
        seed="die",
        drawn_by=str(pairing.organiser_id),
        game_id=game.game_id,
        result=outcome,
    )
    return wrap(event, pairing.tournament_id)


def test_an_overdue_game_ends_with_the_organisers_lot_once(svc, clock):
    pairing = a_round(2)
    announce(svc, pairing)
    one, two = pairing.games
    clock.advance(7)
    envelope = game_lot(pairing, one, Outcome.WHITE_WIN, seconds=7)
    announce(svc, envelope)
    announce(svc, envelope)  # redelivered: nothing twice
    other = events.GroupPlayoffAnnounced(
        tournament_id=pairing.tournament_id, kind="deadline", at=at(0), phase=1
    )
    announce(svc, wrap(other, pairing.tournament_id))  # the page's: nothing here
    report(svc, two, Outcome.BLACK_WIN, Actor(two.white))
    announce(svc, game_lot(pairing, two, Outcome.WHITE_WIN))  # ended before its lot came: it stands
    done = finished(svc)
    lot = done[str(one.game_id)]
    assert (lot.outcome, lot.reason, lot.finished_at) == (Outcome.WHITE_WIN, "lot", at(7))
    assert lot.decision == decision(pairing.organiser_id, Role.ORGANISER, 7, "drawn by lot, seed die")
    assert done[str(two.game_id)].outcome is Outcome.BLACK_WIN and len(done) == 2


def test_a_game_of_a_group_playoff_phase_not_started_is_409_not_404(svc):
    tid, organiser = uuid.uuid4(), uuid.uuid4()
    announce(svc, started(tid, organiser, Ruleset.GROUP_PLAYOFF))
    (semi_1, semi_2, final, *_) = planned_games(tid)
    with pytest.raises(errors.PhaseNotStarted, match="semi-final 1 match of phase 2"):
        report(svc, uuid.UUID(semi_1[2][0]), Outcome.WHITE_WIN, Actor(organiser))
    with pytest.raises(errors.GameNotFound):
        report(svc, uuid.uuid4(), Outcome.WHITE_WIN, Actor(organiser))
    # phase 2 open: its games are here; an id of it not created (an extra game) is no game yet
    white, black = uuid.uuid4(), uuid.uuid4()
    game = events.PairedGame(game_id=uuid.UUID(semi_2[2][0]), board=1, white=white, black=black)
    paired = events.RoundPaired(
        tournament_id=tid, organiser_id=organiser, round=2, total_rounds=2, system="group_playoff",
        games=[game], time_control=events.TimeControl(base_seconds=0, days_per_move=2),
    )  # fmt: skip
    announce(svc, wrap(paired, tid))
    with pytest.raises(errors.GameNotFound):
        report(svc, uuid.UUID(semi_1[2][2]), Outcome.WHITE_WIN, Actor(organiser))
    with pytest.raises(errors.PhaseNotStarted, match="final match of phase 3"):
        report(svc, uuid.UUID(final[2][0]), Outcome.WHITE_WIN, Actor(organiser))
