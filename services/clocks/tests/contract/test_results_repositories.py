"""The repositories' contract for what results under the arbiter's authority store: a game's claims,
its result's decision, its corrections, whether it is rated; a player's open games; a tournament's
games removed; and what is known of a tournament (organiser, ruleset, arbiters, withdrawals). The SQL
repositories (SQLite, PostgreSQL) and the in-memory fakes pass the same tests."""

from __future__ import annotations

import uuid

from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.domain.tournament import Tournament, Withdrawal
from services.clocks.tests.contract.conftest import Backend, at, new_game, stored
from shared.authority import Decided, Role
from shared.vocabulary import Ruleset


def loaded(backend: Backend, game_id: uuid.UUID):
    with backend.uow() as uow:
        return uow.games.get(game_id)


def test_claims_and_disputes_round_trip(backend: Backend):
    game = new_game(rated=False)
    stored(backend, game)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.claim(mine.white, Outcome.WHITE_WIN, "checkmate", at(5), players_run_games=lambda: True)
        uow.games.save(mine)
        uow.commit()
    pending = loaded(backend, game.id)
    assert (
        pending == mine and pending.rated is False and pending.claims[next(iter(pending.claims))].at == at(5)
    )
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.claim(mine.black, Outcome.DRAW, "stalemate", at(6), players_run_games=lambda: True)
        uow.games.save(mine)
        uow.commit()
    disputed = loaded(backend, game.id)
    assert disputed == mine and disputed.status is GameStatus.DISPUTED and len(disputed.claims) == 2
    assert disputed.deadline is None


def test_a_results_decision_and_its_corrections_round_trip(backend: Backend):
    game = new_game()
    stored(backend, game)
    entered = Decided(uuid.uuid4(), Role.ARBITER, at(7))
    corrected = Decided(uuid.uuid4(), Role.ORGANISER, at(70), "the scoresheet says a draw")
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.report_result(Outcome.WHITE_WIN, "arbiter", at(7), decision=entered)
        uow.games.save(mine)
        uow.commit()
    assert loaded(backend, game.id).decision == entered
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.correct(Outcome.DRAW, corrected)
        mine.correct(Outcome.BLACK_WIN, corrected)
        uow.games.save(mine)
        uow.commit()
    found = loaded(backend, game.id)
    assert found == mine and found.outcome is Outcome.BLACK_WIN
    assert [(c.old_outcome, c.outcome) for c in found.corrections] == [
        (Outcome.WHITE_WIN, Outcome.DRAW),
        (Outcome.DRAW, Outcome.BLACK_WIN),
    ]


def test_swapped_colours_are_saved(backend: Backend):
    game = new_game(start=False)
    stored(backend, game)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.swap_colours(at(1), Decided(uuid.uuid4(), Role.ORGANISER, at(1)))
        uow.games.save(mine)
        uow.commit()
    found = loaded(backend, game.id)
    assert (found.white, found.black) == (game.black, game.white)
    assert [kind for kind, _ in backend.published()] == ["game.colours_swapped"]


def test_a_players_open_games(backend: Backend):
    tid, player = uuid.uuid4(), uuid.uuid4()
    running = new_game(tournament_id=tid, round=1, white=player)
    waiting = new_game(tournament_id=tid, round=2, black=player, start=False)
    unreleased = new_game(tournament_id=tid, round=3, white=player, start=False, released=False)
    done = new_game(tournament_id=tid, round=1, board=2, black=player)
    done.report_result(Outcome.DRAW, "agreement", at(1))
    cancelled = new_game(tournament_id=tid, round=2, board=2, white=player)
    cancelled.cancel(at(1))
    disputed = new_game(tournament_id=tid, round=2, board=3, black=player)
    disputed.claim(disputed.white, Outcome.WHITE_WIN, "checkmate", at(1), players_run_games=lambda: True)
    disputed.claim(player, Outcome.BLACK_WIN, "checkmate", at(2), players_run_games=lambda: True)
    others = [new_game(tournament_id=tid), new_game(white=player)]
    stored(backend, running, waiting, unreleased, done, cancelled, disputed, *others)
    with backend.uow() as uow:
        found = uow.games.open_games_of(tid, player)
        assert [g.id for g in found] == [running.id, waiting.id, disputed.id]
        assert uow.games.open_games_of(tid, uuid.uuid4()) == []


def test_a_tournaments_games_removed_with_their_history(backend: Backend):
    tid = uuid.uuid4()
    one, two, other = new_game(tournament_id=tid, board=2), new_game(tournament_id=tid, board=1), new_game()
    stored(backend, one, two, other)
    with backend.uow() as uow:
        games = uow.games.of_tournament(tid)
        assert [g.id for g in games] == [two.id, one.id]
        for g in games:
            uow.games.remove(g)
        assert uow.games.removed == {one.id, two.id}
        uow.commit()
    with backend.uow() as uow:
        assert uow.games.existing([one.id, two.id, other.id]) == {other.id}
        assert uow.games.of_tournament(tid) == []
        uow.games.add(new_game(tournament_id=tid))  # its ids are free again
    assert (
        backend.deadlines.deadline_of(one.id) is None and backend.deadlines.deadline_of(other.id) is not None
    )


def test_a_removal_not_committed_leaves_the_games(backend: Backend):
    game = new_game()
    stored(backend, game)
    with backend.uow() as uow:
        uow.games.remove(uow.games.get(game.id, lock=True))
    assert loaded(backend, game.id) == game


def test_nothing_is_known_of_a_tournament_until_news_of_it(backend: Backend):
    with backend.uow() as uow:
        assert uow.tournaments.get(uuid.uuid4()) is None


def test_a_tournament_is_known_from_its_first_news_and_round_trips(backend: Backend):
    tid, organiser, arbiter, scoped, player = (uuid.uuid4() for _ in range(5))
    games = frozenset({uuid.uuid4(), uuid.uuid4()})
    decision = Decided(organiser, Role.ORGANISER, at(3), "left")
    with backend.uow() as uow:
        t = uow.tournaments.lock(tid)
        assert t == Tournament(tid)
        t.appoint(arbiter, None, at(1))
        t.appoint(scoped, games, at(2))
        t.withdraw(Withdrawal(player, True, "left", decision))
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        t = uow.tournaments.lock(tid)
        t.start(organiser, Ruleset.GROUP_PLAYOFF)
        t.revoke(arbiter, at(4))
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        found = uow.tournaments.get(tid)
    assert found == t and found.changes == []
    assert (found.organiser_id, found.ruleset, found.players_run_games) == (
        organiser,
        Ruleset.GROUP_PLAYOFF,
        True,
    )
    assert found.arbiters[scoped].games == games and found.arbiters[arbiter].revoked
    assert found.withdrawn[player] == Withdrawal(player, True, "left", decision)
    authority = found.authority(organiser)
    assert not authority.is_arbiter(arbiter) and authority.is_arbiter(scoped, next(iter(games)))


def test_a_tournament_not_committed_is_not_known(backend: Backend):
    tid = uuid.uuid4()
    with backend.uow() as uow:
        uow.tournaments.lock(tid)
    with backend.uow() as uow:
        assert uow.tournaments.get(tid) is None


def test_a_withdrawal_without_a_decision_round_trips(backend: Backend):
    tid, player = uuid.uuid4(), uuid.uuid4()
    with backend.uow() as uow:
        t = uow.tournaments.lock(tid)
        t.withdraw(Withdrawal(player, False, "", None))
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        assert uow.tournaments.get(tid).withdrawn[player] == Withdrawal(player, False, "", None)


def test_a_tournaments_resets_round_trip(backend: Backend):
    """What a knockout's resets removed (issue 22): when, and the games, kept with the tournament."""
    tid = uuid.uuid4()
    first, second = frozenset({uuid.uuid4(), uuid.uuid4()}), frozenset({uuid.uuid4()})
    with backend.uow() as uow:
        t = uow.tournaments.lock(tid)
        assert t.reset(at(1), first, 0) and not t.reset(at(1), first, 0)  # heard again: nothing new
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        t = uow.tournaments.lock(tid)
        t.reset(at(9), second, 1)
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        found = uow.tournaments.get(tid)
    assert found == t and found.resets.last_at == at(9)
    assert all(found.resets.removed(g) for g in first | second) and not found.resets.removed(uuid.uuid4())
    assert found.resets.undone(1) and not found.resets.undone(2) and found.resets.before(at(8))
