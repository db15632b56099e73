"""The contract of pairing's repositories and unit of work: the SQL ones (on SQLite, and on PostgreSQL
with the integration mark) and the in-memory fakes the handler tests use must behave the same.

What a repository must get right: ``get`` gives back what ``add`` and ``save`` stored (an aggregate equal
in everything the domain reads), nothing is visible before commit or after a rollback (also of a
savepoint), a round paired twice is refused, and the events the aggregates recorded reach the outbox at
commit, in order."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from services.pairing.adapters.memory import MemoryPairingStore, MemoryPairingUnitOfWork
from services.pairing.adapters.orm import outbox
from services.pairing.bootstrap import MIGRATIONS, Pairing, bootstrap
from services.pairing.config import PairingSettings
from services.pairing.domain.arbiters import Arbiters
from services.pairing.domain.arena.arena import Arena
from services.pairing.domain.arena.record import ACTIVE, LEFT, PAUSED, Entry, PlayedGame
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.errors import ResetNotAllowed, RoundTaken
from services.pairing.domain.heading import Heading, Player, Status
from services.pairing.domain.rounds.fide import DEFAULT_TIME
from services.pairing.domain.rounds.pairers import fide_pairers, pairers
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.tournament import FideRules, PairingTournament
from services.pairing.service_layer.arena_ports import NewGame
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.authority import Appointment, Authority
from shared.events import Envelope
from shared.messaging.inprocess import InProcessBroker
from shared.scoring import Outcome
from shared.seed_draw import draw_order
from shared.time_control import DEFAULT_PLAN, TimeControl
from shared.timesource import FakeClock
from shared.vocabulary import BracketFormat, ByeKind, Ruleset, Seeding, System

NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=2)


class Backend:
    def __init__(self, kind: str, url: str | None = None) -> None:
        self.kind = kind
        self.store = MemoryPairingStore()
        self.svc: Pairing | None = None
        if url is not None:
            settings = PairingSettings(ARBITER_PAIRING_DATABASE_URL=url)
            self.svc = bootstrap(settings, broker=InProcessBroker(), clock=FakeClock(NOW), migrate=True)

    def uow(self) -> PairingUnitOfWork:
        return MemoryPairingUnitOfWork(self.store) if self.svc is None else self.svc.uow()

    def published(self, tournament_id: uuid.UUID) -> list[tuple[str, dict[str, Any]]]:
        if self.svc is None:
            envelopes = self.store.published
        else:
            with self.svc.engine.connect() as conn:
                bodies = conn.execute(sa.select(outbox.c.body).order_by(outbox.c.id)).scalars()
                envelopes = [Envelope.model_validate_json(b) for b in bodies]
        return [(e.type, e.payload) for e in envelopes if e.tournament_id == tournament_id]

    def close(self) -> None:
        if self.svc is not None:
            self.svc.engine.dispose()


@pytest.fixture(
    scope="module", params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.integration)]
)
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backend]:
    if request.param == "memory":
        b = Backend("memory")
    elif request.param == "sqlite":
        b = Backend("sqlite", f"sqlite:///{tmp_path_factory.mktemp('contract') / 'pairing.sqlite'}")
    else:
        servers = request.getfixturevalue("servers")
        b = Backend(
            "postgresql", servers.create_database(f"pairing_contract_{uuid.uuid4().hex[:6]}", MIGRATIONS)
        )
    yield b
    b.close()


def heading(ruleset: Ruleset = Ruleset.PLATFORM) -> Heading:
    return Heading(uuid.uuid4(), uuid.uuid4(), "Contract", ruleset, TimeControl(180, 2), NOW)


def roster(n: int) -> tuple[Player, ...]:
    return tuple(Player(s, uuid.uuid4(), f"P{s}", None if s == n else 2000 - s) for s in range(1, n + 1))


def rounds_of(t: PairingTournament) -> list[Any]:
    return [
        (r.number, r.completed, r.published, [vars(g) for g in r.games], [(b.seed, b.kind) for b in r.byes])
        for r in t.rounds
    ]


def same_tournament(a: PairingTournament, b: PairingTournament) -> None:
    assert (a.heading, a.plan, a.double_rounds, a.players, a.status) == (
        b.heading,
        b.plan,
        b.double_rounds,
        b.players,
        b.status,
    )
    assert rounds_of(a) == rounds_of(b)
    assert (a.byes_on_request, a.withdrawals, a.bye_requests, a.fide, a.excused) == (
        b.byes_on_request,
        b.withdrawals,
        b.bye_requests,
        b.fide,
        b.excused,
    )


def same_elimination(a: Elimination, b: Elimination) -> None:
    assert (
        a.heading,
        a.players,
        a.match_format,
        a.seeds,
        a.published,
        a.completed,
        a.status,
        a.withdrawals,
        a.restarts,
    ) == (
        b.heading,
        b.players,
        b.match_format,
        b.seeds,
        b.published,
        b.completed,
        b.status,
        b.withdrawals,
        b.restarts,
    )
    assert a.bracket.to_dict() == b.bracket.to_dict()
    assert {
        k: (m.round, m.board, m.players, m.first_white, m.how, m.decisions, m.games)
        for k, m in a.matches.items()
    } == {
        k: (m.round, m.board, m.players, m.first_white, m.how, m.decisions, m.games)
        for k, m in b.matches.items()
    }


def started_tournament(backend: Backend, n: int = 5, **options: Any) -> PairingTournament:
    t = PairingTournament.start(heading(), roster(n), threshold=7, **options)
    with backend.uow() as uow:
        uow.tournaments.add(t)
        uow.commit()
    return t


def pair(backend: Backend, tid: uuid.UUID, number: int) -> PairingTournament:
    with backend.uow() as uow:
        t = uow.tournaments.get(tid, lock=True)
        assert t is not None
        t.pair_round(number, pairers()[t.system], now=NOW)
        uow.tournaments.save(t)
        uow.commit()
    return t


# -- a tournament of rounds ----------------------------------------------------------------------------
def test_nothing_unknown_is_found(backend: Backend) -> None:
    nobody = uuid.uuid4()
    with backend.uow() as uow:
        assert uow.lock(nobody) is None
        assert uow.tournaments.get(nobody) is None and uow.tournaments.get(nobody, lock=True) is None
        assert uow.results.get((nobody, 1)) is None
        assert uow.eliminations.get(nobody, lock=True) is None


def test_a_tournament_comes_back_as_it_was_added(backend: Backend) -> None:
    t = started_tournament(backend, 5, double_rounds=True)
    with backend.uow() as uow:
        assert uow.lock(t.id) is System.ROUND_ROBIN
        found = uow.tournaments.get(t.id)
    assert found is not None
    same_tournament(found, t)
    assert backend.published(t.id) == [("pairing.round_due", {"tournament_id": str(t.id), "round": 1})]


def test_a_paired_round_comes_back_with_its_games_and_byes(backend: Backend) -> None:
    t = started_tournament(backend, 5, double_rounds=True)
    paired = pair(backend, t.id, 1)
    with backend.uow() as uow:
        found = uow.tournaments.get(t.id)
    assert found is not None and len(found.rounds[0].games) == 4 and len(found.rounds[0].byes) == 1
    same_tournament(found, paired)
    assert [kind for kind, _ in backend.published(t.id)] == ["pairing.round_due", "round.paired"]


def test_a_round_is_paired_once(backend: Backend) -> None:
    """The last guard against two workers pairing a round (they serialise on the row lock first): a
    tournament loaded before the other pairing committed cannot save the round again."""
    t = started_tournament(backend, 6)
    with backend.uow() as uow:
        stale = uow.tournaments.get(t.id)
    assert stale is not None
    pair(backend, t.id, 1)
    stale.pair_round(1, pairers()[stale.system], now=NOW)
    with backend.uow() as uow, pytest.raises(RoundTaken):
        uow.tournaments.save(stale)
    assert [kind for kind, _ in backend.published(t.id)] == ["pairing.round_due", "round.paired"]


def test_results_fill_a_round_and_close_it(backend: Backend) -> None:
    t = started_tournament(backend, 5)  # a round robin of 5 rounds: two games and a bye each
    rnd = pair(backend, t.id, 1).rounds[0]
    first, second = rnd.games
    with backend.uow() as uow:
        results = uow.results.get((t.id, 1), lock=True)
        assert results is not None
        assert (results.organiser_id, results.total_rounds, results.completed) == (t.organiser_id, 5, False)
        assert results.outcomes == {first.game_id: None, second.game_id: None}
        results.record_result(first.game_id, Outcome.DRAW, finished_at=NOW, now=LATER)
        uow.results.save(results)
        uow.commit()
    with backend.uow() as uow:
        results = uow.results.get((t.id, 1))
        assert results is not None and results.outcomes[first.game_id] is Outcome.DRAW
        results.record_result(second.game_id, Outcome.WHITE_FORFEIT_WIN, finished_at=NOW, now=LATER)
        uow.results.save(results)
        uow.commit()
    with backend.uow() as uow:
        results = uow.results.get((t.id, 1))
        found = uow.tournaments.get(t.id)
    assert results is not None and results.completed
    assert found is not None and found.rounds[0].completed and found.next_round_number() == 2
    assert [g.outcome for g in found.rounds[0].games] == [Outcome.DRAW, Outcome.WHITE_FORFEIT_WIN]
    assert backend.published(t.id)[-2:] == [
        ("round.completed", {"tournament_id": str(t.id), "round": 1}),
        ("pairing.round_due", {"tournament_id": str(t.id), "round": 2}),
    ]


def test_the_last_result_of_the_last_round_completes_the_tournament(backend: Backend) -> None:
    t = started_tournament(backend, 3)  # 3 rounds, one game and a bye each
    for number in (1, 2, 3):
        [game] = pair(backend, t.id, number).rounds[number - 1].games
        with backend.uow() as uow:
            results = uow.results.get((t.id, number), lock=True)
            assert results is not None
            results.record_result(game.game_id, Outcome.BLACK_WIN, finished_at=NOW, now=LATER)
            uow.results.save(results)
            uow.commit()
    with backend.uow() as uow:
        found = uow.tournaments.get(t.id)
    assert found is not None and found.status is Status.COMPLETED and found.next_round_number() is None
    assert backend.published(t.id)[-1][0] == "tournament.completed"


def test_nothing_is_kept_without_commit(backend: Backend) -> None:
    t = PairingTournament.start(heading(), roster(4), threshold=7)
    with backend.uow() as uow:
        uow.tournaments.add(t)
    with backend.uow() as uow:
        assert uow.tournaments.get(t.id) is None and uow.lock(t.id) is None
    assert backend.published(t.id) == []


def test_a_failed_savepoint_takes_its_changes_and_events_with_it(backend: Backend) -> None:
    t = started_tournament(backend, 5)
    [game, _] = pair(backend, t.id, 1).rounds[0].games
    with backend.uow() as uow:
        with pytest.raises(RuntimeError), uow.savepoint():
            results = uow.results.get((t.id, 1), lock=True)
            assert results is not None
            results.record_result(game.game_id, Outcome.DRAW, finished_at=NOW, now=LATER)
            uow.results.save(results)
            raise RuntimeError("the handler failed")
        with uow.savepoint():
            assert uow.lock(t.id) is System.ROUND_ROBIN  # the lock is taken again
            again = uow.results.get((t.id, 1), lock=True)
            assert again is not None and again.outcomes[game.game_id] is None
        uow.commit()
    with backend.uow() as uow:
        results = uow.results.get((t.id, 1))
    assert results is not None and results.outcomes[game.game_id] is None


# -- an elimination ------------------------------------------------------------------------------------
def started_elimination(backend: Backend, n: int = 6, **options: Any) -> Elimination:
    players = roster(n)
    draw_seed = 31337
    drawn = draw_order([str(p.player_id) for p in players], draw_seed)
    by_draw = tuple(Player(seed, uuid.UUID(pid), f"P{seed}") for seed, pid in enumerate(drawn, start=1))
    e = Elimination.start(
        heading(Ruleset.KNOCKOUT),
        by_draw,
        format=BracketFormat.KNOCKOUT,
        games_per_match=2,
        seeding=Seeding.RANDOM,
        draw_seed=draw_seed,
        third_place=True,
        tiebreak_plan=DEFAULT_PLAN,
        **options,
    )
    with backend.uow() as uow:
        uow.eliminations.add(e)
        uow.commit()
    return e


def test_an_elimination_comes_back_as_it_was_added(backend: Backend) -> None:
    e = started_elimination(backend)
    with backend.uow() as uow:
        assert uow.lock(e.id) is System.KNOCKOUT
        found = uow.eliminations.get(e.id, lock=True)
    assert found is not None
    same_elimination(found, e)


def test_an_elimination_keeps_its_rounds_matches_games_and_decisions(backend: Backend) -> None:
    e = started_elimination(backend, 4)
    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        loaded.pair_round(1, lambda: 1, now=NOW)
        uow.eliminations.save(loaded)
        uow.commit()
    level, decided = loaded.round_matches(1)
    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        loaded.publish_round(
            1, authority=Authority.of(e.heading.organiser_id), by=e.heading.organiser_id, now=NOW
        )
        for game in list(loaded.matches[level.id].games):  # each wins with White: 1-1, a tie-break stage
            loaded.record_result(game.game_id, Outcome.WHITE_WIN, finished_at=NOW, now=LATER)
        match = loaded.matches[decided.id]
        first = match.games[0]
        loaded.record_result(first.game_id, Outcome.WHITE_WIN, finished_at=NOW, now=LATER)
        second = match.games[1]
        loaded.record_result(second.game_id, Outcome.BLACK_WIN, finished_at=NOW, now=LATER)  # 2-0
        uow.eliminations.save(loaded)
        uow.commit()
    with backend.uow() as uow:
        found = uow.eliminations.get(e.id)
    assert found is not None
    same_elimination(found, loaded)
    assert len(found.matches[level.id].games) == 4 and found.matches[decided.id].decided
    assert found.published == {1} and found.completed == set()
    kinds = [kind for kind, _ in backend.published(e.id)]
    assert kinds == ["pairing.round_due", "round.paired", "round.published", "round.paired", "match.decided"]


def test_an_elimination_round_is_paired_once(backend: Backend) -> None:
    e = started_elimination(backend, 4)
    with backend.uow() as uow:
        stale = uow.eliminations.get(e.id)
        fresh = uow.eliminations.get(e.id, lock=True)
        assert stale is not None and fresh is not None
        fresh.pair_round(1, lambda: 0, now=NOW)
        uow.eliminations.save(fresh)
        uow.commit()
    stale.pair_round(1, lambda: 1, now=NOW)
    with backend.uow() as uow, pytest.raises(RoundTaken):
        uow.eliminations.save(stale)


# -- decisions: corrections, withdrawals, byes on request, colours, arbiters, a reset ----------------------------
ORGANISER_OF = Authority.of  # the organiser alone decides in these tests


def test_decisions_on_a_swiss_come_back_as_they_were_made(backend: Backend) -> None:
    t = PairingTournament.start(heading(Ruleset.FIDE_RAPID), roster(8), threshold=7, byes_on_request=True)
    with backend.uow() as uow:
        uow.tournaments.add(t)
        uow.commit()
    paired = pair(backend, t.id, 1)
    first, second = paired.rounds[0].games[:2]
    with backend.uow() as uow:
        results = uow.results.get((t.id, 1), lock=True)
        assert results is not None
        results.record_result(first.game_id, Outcome.WHITE_WIN, finished_at=NOW, now=LATER)
        uow.results.save(results)
        uow.commit()
    with backend.uow() as uow:
        loaded = uow.tournaments.get(t.id, lock=True)
        assert loaded is not None
        who = ORGANISER_OF(loaded.organiser_id)
        loaded.correct_result(
            first.game_id, Outcome.DRAW, authority=who, by=loaded.organiser_id, reason="r", at=LATER
        )
        loaded.swap_colours(
            second.game_id, loaded.player(second.black).player_id, loaded.player(second.white).player_id
        )
        loaded.withdraw(loaded.player(8).player_id, excluded=False, reason="ill", at=LATER)
        loaded.request_bye(
            loaded.player(3).player_id, 2, authority=who, by=loaded.player(3).player_id, at=LATER
        )
        loaded.request_bye(
            loaded.player(4).player_id, 3, authority=who, by=loaded.organiser_id, at=LATER, reason="x"
        )
        loaded.request_bye(loaded.player(5).player_id, 2, authority=who, by=loaded.organiser_id, at=LATER)
        loaded.take_back_bye(loaded.player(5).player_id, 2, authority=who, by=loaded.organiser_id, at=LATER)
        uow.tournaments.save(loaded)
        uow.commit()
    with backend.uow() as uow:
        found = uow.tournaments.get(t.id)
        results = uow.results.get((t.id, 1))
    assert found is not None and results is not None
    same_tournament(found, loaded)
    assert (
        found.game(first.game_id).outcome is Outcome.DRAW and results.outcomes[first.game_id] is Outcome.DRAW
    )
    assert (found.game(second.game_id).white, found.game(second.game_id).black) == (
        second.black,
        second.white,
    )
    assert set(found.bye_requests) == {(2, 3), (3, 4)} and found.withdrawals[8].reason == "ill"
    kinds = [kind for kind, _ in backend.published(t.id)]
    # the one taken back was announced, and so was its taking back
    assert kinds[-5:] == [
        "game.result_corrected",
        "bye.requested",
        "bye.requested",
        "bye.requested",
        "bye.taken_back",
    ]


def test_a_fide_event_keeps_its_rules_pairings_absences_and_late_entries(backend: Backend) -> None:
    """Paired on command (again, before publishing), published, a loss at the default time excused (the
    next round's unpublished pairing dropped), a late entry: all of it comes back as it was."""
    t = PairingTournament.start(
        heading(Ruleset.FIDE_RAPID),
        roster(8),
        threshold=0,
        byes_on_request=True,
        fide=FideRules(acceleration=True, late_entry_bye=ByeKind.HALF_POINT),
        fide_plan=Plan(System.SWISS, 5, False),
    )
    with backend.uow() as uow:
        uow.tournaments.add(t)
        uow.commit()
    who = ORGANISER_OF(t.organiser_id)

    def decide(action: Any) -> PairingTournament:
        with backend.uow() as uow:
            loaded = uow.tournaments.get(t.id, lock=True)
            assert loaded is not None
            action(loaded)
            uow.tournaments.save(loaded)
            uow.commit()
        return loaded

    def pair_now(number: int) -> Any:
        return lambda x: x.pair_on_command(
            number, fide_pairers()[x.system], authority=who, by=x.organiser_id, now=NOW
        )

    decide(pair_now(1))
    decide(pair_now(1))  # again: replaced
    decide(lambda x: x.publish_round(1, authority=who, by=x.organiser_id, at=LATER))
    with backend.uow() as uow:
        loaded = uow.tournaments.get(t.id)
        assert loaded is not None and loaded.rounds[0].published and len(loaded.rounds) == 1
    games = loaded.rounds[0].games
    for g in games:
        with backend.uow() as uow:
            results = uow.results.get((t.id, 1), lock=True)
            assert results is not None and results.on_command
            outcome, why = (Outcome.WHITE_FORFEIT_WIN, DEFAULT_TIME) if g.board == 1 else (Outcome.DRAW, "r")
            results.record_result(g.game_id, outcome, finished_at=NOW, now=LATER, reason=why)
            uow.results.save(results)
            uow.commit()
    absent = games[0].black
    decide(pair_now(2))
    late = uuid.uuid4()
    decide(lambda x: x.add_late(late, "Late", 2100, 2))
    excused = decide(
        lambda x: x.excuse_absence(
            x.player(absent).player_id, 1, authority=who, by=x.organiser_id, at=LATER, reason="train"
        )
    )
    with backend.uow() as uow:
        found = uow.tournaments.get(t.id)
    assert found is not None
    same_tournament(found, excused)
    assert found.round(2) is None and found.rounds[0].games[0].reason == DEFAULT_TIME
    assert found.player(9).from_round == 3 and found.excused[(1, absent)].reason == "train"
    kinds = [kind for kind, _ in backend.published(t.id)]
    assert "pairing.round_due" not in kinds
    assert kinds == ["round.paired", "round.completed", "absence.excused"]


def test_a_game_names_its_tournament(backend: Backend) -> None:
    t = started_tournament(backend, 5)
    game = pair(backend, t.id, 1).rounds[0].games[0]
    e = started_elimination(backend, 4)
    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        knockout_game = loaded.pair_round(1, lambda: 0, now=NOW)[0].games[0]
        uow.eliminations.save(loaded)
        uow.commit()
    with backend.uow() as uow:
        assert uow.tournament_of_game(game.game_id) == t.id
        assert uow.tournament_of_game(knockout_game.game_id) == e.id
        assert uow.tournament_of_game(uuid.uuid4()) is None


def test_decisions_on_a_knockout_come_back_as_they_were_made(backend: Backend) -> None:
    players = roster(4)
    e = Elimination.start(
        heading(Ruleset.KNOCKOUT),
        players,
        format=BracketFormat.KNOCKOUT,
        games_per_match=4,
        seeding=Seeding.CUSTOM,
        tiebreak_plan=DEFAULT_PLAN,
    )
    with backend.uow() as uow:
        uow.eliminations.add(e)
        uow.commit()
    who = ORGANISER_OF(e.heading.organiser_id)
    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        one_four, two_three = loaded.pair_round(1, lambda: 0, now=NOW)
        g1, g2, g3, _ = one_four.games
        for g in (g1, g2, g3):
            won = Outcome.WHITE_WIN if one_four.white(g) == 1 else Outcome.BLACK_WIN
            loaded.record_result(g.game_id, won, finished_at=NOW, now=LATER)  # 3-0: game 4 cancelled
        uow.eliminations.save(loaded)
        uow.commit()
    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        one_four = loaded.matches[one_four.id]
        g1 = one_four.games[0]
        lost = Outcome.BLACK_WIN if one_four.white(g1) == 1 else Outcome.WHITE_WIN
        loaded.correct_result(
            g1.game_id, lost, authority=who, by=e.heading.organiser_id, reason="r", at=LATER
        )
        two_three = loaded.matches[two_three.id]
        t1 = two_three.games[0]
        loaded.swap_colours(t1.game_id, loaded.player_of(3), loaded.player_of(2))
        loaded.withdraw(loaded.player_of(3), excluded=True, reason="conduct", at=LATER)
        uow.eliminations.save(loaded)
        uow.commit()
    with backend.uow() as uow:
        found = uow.eliminations.get(e.id)
    assert found is not None
    same_elimination(found, loaded)
    reopened = found.matches[one_four.id]
    assert not reopened.decided and "winners:1:1" not in {str(k) for k in found.bracket.results}
    assert reopened.decisions == 1  # decided once; the next decision is its second
    assert reopened.games[3].replaced_by == reopened.games[4].game_id
    assert found.matches[two_three.id].first_white == 1
    kinds = [kind for kind, _ in backend.published(e.id)]
    assert kinds[-2:] == ["game.result_corrected", "round.paired"]

    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        with pytest.raises(ResetNotAllowed):
            loaded.reset(authority=who, by=e.heading.organiser_id, at=LATER)


def test_a_reset_knockout_is_gone(backend: Backend) -> None:
    e = started_elimination(backend, 4)
    with backend.uow() as uow:
        assert not uow.resets.of(e.id)
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        paired = loaded.pair_round(1, lambda: 0, now=NOW)
        uow.eliminations.save(loaded)
        uow.commit()
    removed = {g.game_id for m in paired for g in m.games}
    with backend.uow() as uow:
        loaded = uow.eliminations.get(e.id, lock=True)
        assert loaded is not None
        loaded.reset(authority=ORGANISER_OF(e.heading.organiser_id), by=e.heading.organiser_id, at=LATER)
        uow.eliminations.save(loaded)
        uow.commit()
    with backend.uow() as uow:
        assert uow.lock(e.id) is None and uow.eliminations.get(e.id) is None
        resets = uow.resets.of(e.id)  # but what the reset removed is kept
    assert resets.last_at == LATER and all(resets.removed(g) for g in removed) and len(removed) == 4
    assert not resets.removed(uuid.uuid4())
    assert backend.published(e.id)[-1][0] == "tournament.reset"
    with backend.uow() as uow:  # the same id starts again
        uow.eliminations.add(e)
        uow.commit()
    with backend.uow() as uow:
        again = uow.eliminations.get(e.id)
    assert again is not None and again.paired_rounds == 0


def test_arbiters_come_back_with_their_scope_and_the_latest_decision(backend: Backend) -> None:
    tid, first, second, game = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    arbiters = Arbiters(tid)
    arbiters.appoint(first, None, at=NOW)
    arbiters.appoint(second, [game], at=NOW)
    with backend.uow() as uow:
        assert uow.arbiters.get(tid) is None
        uow.arbiters.add(arbiters)
        uow.commit()
    with backend.uow() as uow:
        found = uow.arbiters.get(tid, lock=True)
        assert found is not None and found.entries == arbiters.entries
        assert set(found.appointments()) == {Appointment(first), Appointment(second, frozenset({game}))}
        found.revoke(first, at=LATER)
        found.appoint(second, None, at=LATER)
        uow.arbiters.save(found)
        uow.commit()
    with backend.uow() as uow:
        again = uow.arbiters.get(tid)
    assert again is not None and again.entries == found.entries
    assert again.appointments() == (Appointment(second),)
    assert not again.appoint(first, None, at=NOW)  # older than the revocation: changes nothing


# -- arenas: the record a lost pool is rebuilt from -----------------------------------------------------
def new_arena(backend: Backend) -> uuid.UUID:
    arena = Arena(uuid.uuid4(), uuid.uuid4(), "Arena", NOW, LATER, TimeControl(60, 0))
    with backend.uow() as uow:
        uow.arenas.add(arena)
        uow.commit()
    return arena.id


def test_an_arena_keeps_who_is_in_it_since_when_and_who_paused_or_left(backend: Backend) -> None:
    aid = new_arena(backend)
    a, b, c = sorted((uuid.uuid4() for _ in range(3)), key=str)
    minute = dt.timedelta(minutes=1)
    with backend.uow() as uow:
        uow.arenas.enter(aid, a, rating=1500, at=NOW)
        uow.arenas.enter(aid, b, rating=1600, at=NOW)
        uow.arenas.away(aid, b, PAUSED, at=NOW + minute)
        uow.arenas.away(aid, c, LEFT, at=NOW + minute)  # sent away without having joined here
        uow.commit()
    with backend.uow() as uow:
        assert uow.arenas.record(aid).entries == [
            Entry(a, ACTIVE, NOW, 1500),
            Entry(b, PAUSED, NOW, 1600),
            Entry(c, LEFT, NOW + minute, None),
        ]
        uow.arenas.enter(aid, a, rating=1550, at=NOW + 2 * minute)  # joining while in: the time is kept
        uow.arenas.enter(aid, b, rating=1600, at=NOW + 3 * minute)  # back from the pause: in from now
        uow.commit()
    with backend.uow() as uow:
        entries = uow.arenas.record(aid).entries
    assert entries[:2] == [Entry(a, ACTIVE, NOW, 1550), Entry(b, ACTIVE, NOW + 3 * minute, 1600)]


def test_an_arena_record_holds_its_games_and_the_games_its_players_are_in_elsewhere(backend: Backend) -> None:
    aid, other = new_arena(backend), new_arena(backend)
    a, b, c, d, x = (uuid.uuid4() for _ in range(5))
    minute = dt.timedelta(minutes=1)
    first, second = NewGame(uuid.uuid4(), a, b), NewGame(uuid.uuid4(), b, a)
    there, swiss = NewGame(uuid.uuid4(), c, x), uuid.uuid4()
    with backend.uow() as uow:
        for p in (a, b, c, d):
            uow.arenas.enter(aid, p, rating=1500, at=NOW)
        uow.arenas.enter(other, c, rating=1500, at=NOW)
        uow.arenas.add_games(aid, [first], NOW + minute)
        uow.arenas.add_games(other, [there], NOW + minute)
        uow.arenas.finish_game(first.id, Outcome.WHITE_WIN, (True, False), NOW + 2 * minute)
        uow.arenas.add_games(aid, [second], NOW + 3 * minute)
        uow.arenas.start_playing(d, swiss)
        uow.arenas.start_playing(d, swiss)  # heard twice: once
        uow.arenas.start_playing(x, swiss)  # not in this arena
        uow.commit()
    with backend.uow() as uow:
        record = uow.arenas.record(aid)
        assert record.games == [
            PlayedGame(first.id, a, b, NOW + minute, Outcome.WHITE_WIN, NOW + 2 * minute, True, False),
            PlayedGame(second.id, b, a, NOW + 3 * minute),
        ]
        assert sorted(record.elsewhere, key=str) == sorted([(d, swiss, None), (c, there.id, other)], key=str)
        uow.arenas.stop_playing(d, swiss)
        uow.arenas.stop_playing(d, uuid.uuid4())  # another game's end changes nothing
        uow.arenas.finish_game(there.id, Outcome.DRAW, (False, False), NOW + 4 * minute)
        uow.commit()
    with backend.uow() as uow:
        assert uow.arenas.record(aid).elsewhere == []
