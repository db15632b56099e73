"""One contract for registration's repositories and unit of work, run against the SQL ones on SQLite,
the in-memory fakes the handler tests use, and the SQL ones on PostgreSQL (integration): aggregates
round-trip whole (a fide-rapid event with its players' FIDE data too), roster changes are written, ids,
running competitions and an event's FIDE ids are unique (driver errors arrive as domain errors), nothing is
seen before commit, and commit publishes what was recorded."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from services.registration.adapters import orm
from services.registration.adapters.memory import MemoryDatabase
from services.registration.bootstrap import MIGRATIONS, bootstrap
from services.registration.config import RegistrationSettings
from services.registration.domain import audit, errors, rulesets
from services.registration.domain.account import Account, AccountKind
from services.registration.domain.entries import Standing
from services.registration.domain.fide import ClockKeeping, FideFormat, LateEntryBye, PairingSystem
from services.registration.domain.knockout import FormatChange, KnockoutFormat
from services.registration.domain.passwords import InviteLink
from services.registration.domain.players import Person, PlayerChange, Profile, Sex, Title
from services.registration.domain.rating import Glicko2Rating, RatingDecision
from services.registration.domain.ratings import PlayerRating, RatedGame
from services.registration.domain.rulesets import fide_rapid
from services.registration.domain.rulesets import knockout as knockouts
from services.registration.domain.tournament import (
    Changes,
    RateOfPlay,
    RatingTerms,
    Settings,
    Status,
    Tournament,
)
from services.registration.service_layer.ports import UnitOfWork
from services.registration.tests.helpers import NOW
from shared.authority import Decided, Role
from shared.messaging.inprocess import InProcessBroker
from shared.scoring import Outcome
from shared.time_control import Stage, TieBreakSchedule
from shared.vocabulary import Ruleset, Seeding


class Backend:
    def __init__(
        self, uow: Callable[[], UnitOfWork], published: Callable[[], list[tuple[str, dict[str, Any]]]]
    ):
        self.uow = uow
        self.published = published


def _sql(url: str) -> Iterator[Backend]:
    svc = bootstrap(
        RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=url), broker=InProcessBroker(), migrate=True
    )

    def published() -> list[tuple[str, dict[str, Any]]]:
        with svc.engine.connect() as conn:
            bodies = conn.execute(sa.select(orm.outbox.c.body).order_by(orm.outbox.c.id)).scalars().all()
        return [(e["type"], e["payload"]) for e in map(json.loads, bodies)]

    yield Backend(svc.bus.uow_factory, published)
    svc.engine.dispose()


@pytest.fixture(params=["sqlite", "memory", pytest.param("postgresql", marks=pytest.mark.integration)])
def backend(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Backend]:
    if request.param == "memory":
        db = MemoryDatabase()
        yield Backend(db.uow, lambda: [(e.type, e.payload) for e in db.outbox])
    elif request.param == "sqlite":
        yield from _sql(f"sqlite:///{tmp_path / 'reg.sqlite'}")
    else:
        servers = request.getfixturevalue("servers")
        yield from _sql(servers.create_database(f"registration_{uuid.uuid4().hex[:8]}", MIGRATIONS))


# -- the story's pieces ----------------------------------------------------------------------------
def account(name: str = "Ann", ratings: dict[str, int] | None = None, at: float = 0) -> Account:
    return Account.register(
        uuid.uuid4(), name, AccountKind.REGISTERED, ratings or {}, now=NOW + dt.timedelta(seconds=at)
    )


def platform(organiser: Account, *, start_in: float = 3600, **kw: Any) -> Tournament:
    settings = Settings(
        name="Sunday blitz",
        starts_at=NOW + dt.timedelta(seconds=start_in),
        time_control=RateOfPlay(180, 2),
        **kw,
    )
    return rulesets.create(organiser, settings, now=NOW)


def knockout_draft(organiser: Account, ruleset: Ruleset = Ruleset.KNOCKOUT) -> Tournament:
    plan = TieBreakSchedule((Stage(1, RateOfPlay(300, 2)), Stage(2, RateOfPlay(60, 1))), RateOfPlay(120, 1))
    fmt = KnockoutFormat(games_per_match=4, third_place=ruleset is Ruleset.KNOCKOUT, tiebreak_plan=plan)
    settings = Settings("Cup", None, RateOfPlay(600, 5), ruleset=ruleset, knockout=fmt)
    return rulesets.create(organiser, settings, now=NOW)


def stored(backend: Backend, *accounts: Account, tournaments: tuple[Tournament, ...] = ()) -> None:
    with backend.uow() as uow:
        for a in accounts:
            uow.accounts.add(a)
        for t in tournaments:
            uow.tournaments.add(t)
        uow.commit()


def reload(backend: Backend, tournament_id: uuid.UUID) -> Tournament:
    with backend.uow() as uow:
        t = uow.tournaments.get(tournament_id)
    assert t is not None
    return t


# -- accounts --------------------------------------------------------------------------------------
def test_an_account_round_trips(backend: Backend) -> None:
    ann = account("Ann", {"chess:blitz": 1650, "draughts:rapid": 1200})
    stored(backend, ann)
    with backend.uow() as uow:
        assert uow.accounts.get(ann.id) == ann
        assert uow.accounts.get(ann.id, lock=True) == ann
        assert uow.accounts.get(uuid.uuid4()) is None


def test_an_account_id_is_taken_once(backend: Backend) -> None:
    ann = account("Ann")
    stored(backend, ann)
    with backend.uow() as uow, pytest.raises(errors.AccountExists, match=str(ann.id)):
        uow.accounts.add(Account.register(ann.id, "Impostor", AccountKind.GUEST, {}, now=NOW))
    with backend.uow() as uow:
        assert uow.accounts.get(ann.id) == ann


def test_get_many_finds_the_accounts_that_exist(backend: Backend) -> None:
    players = [account(f"P{i}", {"chess:rapid": 1500 + i}) for i in range(3)]
    stored(backend, *players)
    with backend.uow() as uow:
        found = uow.accounts.get_many([players[0].id, uuid.uuid4(), players[2].id])
        assert sorted(found, key=lambda a: a.name) == [players[0], players[2]]
        assert uow.accounts.get_many([]) == []


# -- tournaments -----------------------------------------------------------------------------------
def test_a_platform_tournament_round_trips_with_its_entries(backend: Backend) -> None:
    org = account("Org")
    players = [account(f"P{i}", {"chess:blitz": 1400 + 10 * i}) for i in range(3)]
    t = platform(
        org, seats=12, minimum=5, threshold=9, double_rounds=True, min_rating=1400, password="s3cret"
    )
    for i, p in enumerate(players):
        t.join(p, now=NOW + dt.timedelta(seconds=i), password="s3cret")
    stored(backend, org, *players, tournaments=(t,))
    loaded = reload(backend, t.id)
    assert loaded == t
    assert [e.name for e in loaded.entries] == ["P0", "P1", "P2"]  # in joining order
    assert loaded.ruleset is Ruleset.PLATFORM and loaded.status is Status.SCHEDULED
    with backend.uow() as uow:
        assert uow.tournaments.get(t.id, lock=True) == t
        assert uow.tournaments.get(uuid.uuid4()) is None


def test_rating_terms_read_what_a_finished_game_needs_without_the_roster(backend: Backend) -> None:
    org = account("Org")
    rated = platform(org, seats=12, minimum=5, threshold=9)
    friendly = platform(account("Org 2"), seats=12, minimum=5, threshold=9, rated=False)
    stored(backend, org, tournaments=(rated, friendly))
    with backend.uow() as uow:
        terms = uow.tournaments.rating_terms(rated.id)
        assert terms == RatingTerms(Ruleset.PLATFORM, True, rated.rating_key)
        assert terms.key.startswith("chess:")
        other = uow.tournaments.rating_terms(friendly.id)
        assert other is not None and other.rated is False
        assert uow.tournaments.rating_terms(uuid.uuid4()) is None


def test_a_knockout_round_trips_with_its_format(backend: Backend) -> None:
    org = account("Org")
    players = [account(f"P{i}") for i in range(4)]
    t = knockout_draft(org, Ruleset.KNOCKOUT)
    for i, p in enumerate(players):
        knockouts.add_player(t, p, now=NOW + dt.timedelta(seconds=i))
    order = tuple(p.id for p in reversed(players))
    t.change(Changes(format=FormatChange(seeding=Seeding.CUSTOM, custom_order=order)))
    stored(backend, org, *players, tournaments=(t,))
    loaded = reload(backend, t.id)
    assert loaded == t
    assert loaded.knockout is not None and loaded.knockout.custom_order == order
    assert loaded.starts_at is None and loaded.status is Status.DRAFT


def test_save_writes_what_changed_in_the_roster(backend: Backend) -> None:
    org = account("Org")
    players = [account(f"P{i}", {"chess:rapid": 1500}) for i in range(6)]
    t = knockout_draft(org, Ruleset.DOUBLE_KNOCKOUT)
    stored(backend, org, *players, tournaments=(t,))
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        for i, p in enumerate(players[:4]):
            knockouts.add_player(t, p, now=NOW + dt.timedelta(seconds=i))
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.leave(players[1].id, now=NOW)
        knockouts.add_player(t, players[4], now=NOW + dt.timedelta(seconds=10))
        knockouts.add_player(t, players[5], now=NOW + dt.timedelta(seconds=11))
        t.leave(players[5].id, now=NOW)  # entered and removed before it was ever saved
        uow.tournaments.save(t)
        uow.commit()
    assert [e.player_id for e in reload(backend, t.id).entries] == [
        players[0].id,
        players[2].id,
        players[3].id,
        players[4].id,
    ]
    rated_now = {
        p.id: Account(p.id, p.name, ratings={"chess:rapid": 1700 + i}) for i, p in enumerate(players)
    }
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        knockouts.start(t, NOW + dt.timedelta(minutes=1), rated_now, 7)
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t
    assert [e.rating for e in loaded.entries] == [1700, 1702, 1703, 1704]  # ratings as of the start
    assert loaded.status is Status.STARTED and loaded.starts_at == NOW + dt.timedelta(minutes=1)


def test_nothing_is_written_or_published_without_commit(backend: Backend) -> None:
    org, ann = account("Org"), account("Ann")
    stored(backend, org, ann)
    with backend.uow() as uow:
        t = platform(org)
        uow.tournaments.add(t)
        t.join(ann, now=NOW)
        uow.tournaments.save(t)
        uow.accounts.add(account("Bea"))
    with backend.uow() as uow:
        assert uow.tournaments.get(t.id) is None
    assert backend.published() == []


def test_commit_publishes_what_the_tournaments_recorded_in_order(backend: Backend) -> None:
    org, ann = account("Org"), account("Ann")
    stored(backend, org, ann)
    with backend.uow() as uow:
        t = platform(org)
        uow.tournaments.add(t)
        uow.commit()
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.join(ann, now=NOW)
        t.leave(ann.id, now=NOW)
        t.cancel(now=NOW)
        uow.tournaments.save(t)
        uow.commit()
    published = backend.published()
    assert [kind for kind, _ in published] == [
        "tournament.scheduled",
        "player.joined",
        "player.left",
        "tournament.cancelled",
    ]
    assert published[1][1] == {
        "tournament_id": str(t.id),
        "player_id": str(ann.id),
        "name": "Ann",
        "rating": None,
        "profile": None,
        "late": False,
        "from_round": None,
        "roster_revision": 1,
    }
    assert published[2][1]["roster_revision"] == 2
    assert published[3][1]["reason"] == "organiser" and published[3][1]["present"] == 0
    with backend.uow() as uow:  # the roster revision is kept with the tournament
        again = uow.tournaments.get(t.id)
    assert again is not None and again.roster_revision == 2


def test_a_failed_savepoint_takes_its_writes_and_events_with_it(backend: Backend) -> None:
    org, ann, bea = account("Org"), account("Ann"), account("Bea")
    t = platform(org)
    stored(backend, org, ann, bea, tournaments=(t,))
    with backend.uow() as uow:
        with uow.savepoint():
            t = uow.tournaments.get(t.id, lock=True)
            t.join(ann, now=NOW)
            uow.tournaments.save(t)
        with pytest.raises(errors.AlreadyJoined), uow.savepoint():
            t = uow.tournaments.get(t.id, lock=True)
            t.join(bea, now=NOW)
            uow.tournaments.save(t)
            t.join(bea, now=NOW)
        uow.commit()
    assert [e.name for e in reload(backend, t.id).entries] == ["Ann"]
    assert [kind for kind, _ in backend.published()] == ["tournament.scheduled", "player.joined"]


def test_an_organiser_runs_one_platform_competition_at_a_time(backend: Backend) -> None:
    org = account("Org")
    first = platform(org)
    stored(backend, org, tournaments=(first,))
    # what a concurrent creation meets: the check passed, the insert finds the other one
    with backend.uow() as uow, pytest.raises(errors.OrganiserBusy):
        uow.tournaments.add(platform(org, start_in=7200))
    stored(backend, tournaments=(knockout_draft(org), knockout_draft(org)))  # knockouts do not count
    with backend.uow() as uow:
        first = uow.tournaments.get(first.id, lock=True)
        first.cancel(now=NOW)
        uow.tournaments.save(first)
        uow.commit()
    second = platform(org, start_in=7200)
    stored(backend, tournaments=(second,))
    assert reload(backend, second.id) == second


def test_organiser_busy_counts_scheduled_and_started_platform_competitions(backend: Backend) -> None:
    org, other = account("Org"), account("Other")
    players = [account(f"P{i}") for i in range(4)]
    t = platform(org, start_in=600)
    stored(backend, org, other, *players, tournaments=(t, knockout_draft(other)))
    with backend.uow() as uow:
        assert uow.tournaments.organiser_busy(org.id)
        assert not uow.tournaments.organiser_busy(other.id)  # a knockout draft
        t = uow.tournaments.get(t.id, lock=True)
        for p in players:
            t.join(p, now=NOW)
        t.start(NOW + dt.timedelta(seconds=600))
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        assert uow.tournaments.organiser_busy(org.id)
        t = uow.tournaments.get(t.id, lock=True)
        t.complete()
        uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        assert not uow.tournaments.organiser_busy(org.id)


def test_due_lists_the_scheduled_tournaments_whose_start_has_come_earliest_first(backend: Backend) -> None:
    orgs = [account(f"Org{i}") for i in range(5)]
    later, sooner, future, cancelled = (
        platform(orgs[0], start_in=600),
        platform(orgs[1], start_in=300),
        platform(orgs[2], start_in=3600),
        platform(orgs[3], start_in=300),
    )
    cancelled.cancel(now=NOW)
    stored(backend, *orgs, tournaments=(later, sooner, future, cancelled, knockout_draft(orgs[4])))
    at = NOW + dt.timedelta(seconds=600)
    with backend.uow() as uow:
        assert uow.tournaments.due(at, limit=10) == [sooner.id, later.id]
        assert uow.tournaments.due(at, limit=1) == [sooner.id]
        assert uow.tournaments.due(NOW, limit=10) == []


# -- arbiters, withdrawals, the audit log ----------------------------------------------------------
def started_knockout(backend: Backend) -> tuple[Tournament, Account, list[Account]]:
    org = account("Org")
    players = [account(f"P{i}", {"chess:rapid": 1500 + i}) for i in range(4)]
    t = knockout_draft(org)
    for i, p in enumerate(players):
        knockouts.add_player(t, p, now=NOW + dt.timedelta(seconds=i))
    knockouts.start(t, NOW + dt.timedelta(minutes=1), {p.id: p for p in players}, 7)
    stored(backend, org, *players, tournaments=(t,))
    return t, org, players


def test_arbiters_round_trip_and_a_new_scope_replaces_the_old(backend: Backend) -> None:
    org, ann, bea = account("Org"), account("Ann"), account("Bea")
    t = platform(org, byes_on_request=True)
    game = uuid.uuid4()
    t.appoint(org.id, ann, None, now=NOW)
    stored(backend, org, ann, bea, tournaments=(t,))  # added with its arbiter
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.appoint(org.id, bea, frozenset({game}), now=NOW + dt.timedelta(seconds=1))
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t and loaded.byes_on_request is True
    assert loaded.arbiters[bea.id].games == frozenset({game}) and loaded.arbiters[ann.id].games is None
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.appoint(org.id, ann, frozenset({game, uuid.uuid4()}), now=NOW + dt.timedelta(seconds=2))
        t.revoke(org.id, bea.id, now=NOW + dt.timedelta(seconds=3))
        t.appoint(org.id, bea, None, now=NOW + dt.timedelta(seconds=4))  # revoked and appointed again
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t and set(loaded.arbiters) == {ann.id, bea.id}
    assert len(loaded.arbiters[ann.id].games or ()) == 2 and loaded.arbiters[bea.id].games is None
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.revoke(org.id, ann.id, now=NOW)
        uow.tournaments.save(t)
        uow.commit()
    assert set(reload(backend, t.id).arbiters) == {bea.id}


def test_withdrawals_round_trip(backend: Backend) -> None:
    t, org, players = started_knockout(backend)
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.withdraw(org.id, players[0].id, reason="ill", exclude=False, now=NOW + dt.timedelta(minutes=5))
        t.withdraw(org.id, players[2].id, reason="cheating", exclude=True, now=NOW + dt.timedelta(minutes=6))
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t
    by_id = {e.player_id: e for e in loaded.entries}
    assert [by_id[p.id].standing.value for p in players] == ["withdrawn", "active", "excluded", "active"]
    w = by_id[players[2].id].withdrawal
    assert w is not None and (w.excluded, w.reason, w.at) == (True, "cheating", NOW + dt.timedelta(minutes=6))
    kinds = [kind for kind, _ in backend.published()]
    assert kinds[-2:] == ["player.withdrawn", "player.withdrawn"]


def test_saving_a_tournament_appends_its_decisions_to_the_audit_log(backend: Backend) -> None:
    t, org, players = started_knockout(backend)
    ann = account("Ann")
    stored(backend, ann)
    heard = audit.tournament_reset(t.id, Decided(org.id, Role.ORGANISER, NOW + dt.timedelta(minutes=2)))
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.appoint(org.id, ann, None, now=NOW + dt.timedelta(minutes=3))
        t.withdraw(ann.id, players[1].id, reason="ill", exclude=False, now=NOW + dt.timedelta(minutes=3))
        uow.tournaments.save(t)
        uow.audit.add([heard])  # heard from pairing, earlier than both
        uow.commit()
    with backend.uow() as uow:
        log = uow.audit.of(t.id)
        assert uow.audit.of(uuid.uuid4()) == []
    assert [(e.kind, e.by, e.role, e.at) for e in log] == [
        (audit.AuditKind.TOURNAMENT_RESET, org.id, Role.ORGANISER, NOW + dt.timedelta(minutes=2)),
        (audit.AuditKind.ARBITER_APPOINTED, org.id, Role.ORGANISER, NOW + dt.timedelta(minutes=3)),
        (audit.AuditKind.PLAYER_WITHDRAWN, ann.id, Role.ARBITER, NOW + dt.timedelta(minutes=3)),
    ]  # the same instant: in the order written
    assert log[0] == heard
    assert (log[2].subject, log[2].reason, log[2].detail) == (
        audit.Subject(audit.SubjectKind.PLAYER, players[1].id),
        "ill",
        "P1 withdrawn",
    )


def test_the_audit_log_keeps_nothing_uncommitted_or_rolled_back(backend: Backend) -> None:
    tid, by = uuid.uuid4(), uuid.uuid4()
    entries = [
        audit.bye_requested(tid, by, n, "zero_point", Decided(by, Role.PLAYER, NOW + dt.timedelta(seconds=n)))
        for n in (1, 2, 3)
    ]
    with backend.uow() as uow:
        uow.audit.add(entries[:1])  # never committed
    with backend.uow() as uow:
        with uow.savepoint():
            uow.audit.add(entries[1:2])
        with pytest.raises(RuntimeError), uow.savepoint():
            uow.audit.add(entries[2:])
            raise RuntimeError("the handler failed")
        uow.commit()
    with backend.uow() as uow:
        assert uow.audit.of(tid) == entries[1:2]


# -- fide-rapid events -------------------------------------------------------------------------------
def fide_event(organiser: Account, **fmt: Any) -> Tournament:
    settings = Settings(
        "Rapid open",
        None,
        RateOfPlay(900, 10),
        ruleset=Ruleset.FIDE_RAPID,
        fide=FideFormat(**{"rounds": 5, **fmt}),
    )
    return rulesets.create(organiser, settings, now=NOW)


def test_a_fide_rapid_event_round_trips_with_its_players(backend: Backend) -> None:
    org, ann = account("Org"), account("Ann")
    t = fide_event(
        org,
        place="Bern",
        start_date=dt.date(2026, 6, 6),
        end_date=dt.date(2026, 6, 7),
        acceleration=True,
        clocks=ClockKeeping.SERVER,
        default_time_minutes=15,
        late_entry_bye=LateEntryBye.HALF,
    )
    carlsen = Person("Carlsen, Magnus", Profile(1503014, "NOR", Title.GM, Sex.M, 1990, 2830, 2820))
    fide_rapid.add_person(t, org.id, carlsen, uuid.uuid4(), now=NOW)
    fide_rapid.add_person(t, org.id, Person("Newcomer"), uuid.uuid4(), now=NOW + dt.timedelta(seconds=1))
    t.join(ann, now=NOW + dt.timedelta(seconds=2), profile=Profile(fide_id=7, rating_standard=1900))
    stored(backend, org, ann, tournaments=(t,))
    loaded = reload(backend, t.id)
    assert loaded == t
    assert [(e.name, e.standing, e.by_hand, e.rating) for e in loaded.entries] == [
        ("Carlsen, Magnus", Standing.ACTIVE, True, 2830),
        ("Newcomer", Standing.ACTIVE, True, None),
        ("Ann", Standing.UNCONFIRMED, False, 1900),
    ]
    assert loaded.entries[0].profile == carlsen.profile and loaded.entries[1].profile is None
    assert (loaded.fide, loaded.rounds_paired, loaded.starts_at) == (t.fide, 0, None)
    with backend.uow() as uow:
        assert uow.tournaments.due(NOW + dt.timedelta(days=30), limit=10) == []  # never started by time
    assert [kind for kind, _ in backend.published()] == ["player.joined", "player.joined"]  # Ann: unconfirmed


def test_save_writes_confirmations_corrections_the_start_and_late_entries(backend: Backend) -> None:
    org, ann, bob = account("Org"), account("Ann"), account("Bob")
    t = fide_event(org, rounds=None, system=PairingSystem.ROUND_ROBIN)
    people = [Person(f"P{i}", Profile(fide_id=100 + i, rating_standard=2000 + i)) for i in range(3)]
    fide_rapid.import_people(t, org.id, people, [uuid.uuid4() for _ in people], source="a CSV list", now=NOW)
    t.join(ann, now=NOW + dt.timedelta(seconds=1))
    t.join(bob, now=NOW + dt.timedelta(seconds=2))
    stored(backend, org, ann, bob, tournaments=(t,))
    p0 = t.entries[0].player_id
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        t.confirm(org.id, ann.id, now=NOW)
        fide_rapid.change_player(
            t, org.id, p0, PlayerChange(name="P zero", title=Title.FM, fide_id=None), now=NOW
        )
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t
    assert (loaded.entries[0].name, loaded.entries[0].profile) == (
        "P zero",
        Profile(title=Title.FM, rating_standard=2000),
    )
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        fide_rapid.start(t, org.id, NOW + dt.timedelta(hours=1))  # Bob, never confirmed, is left out
        fide_rapid.round_paired(t, 2)
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t
    assert [e.name for e in loaded.entries] == ["P zero", "P1", "P2", "Ann"]
    assert loaded.fide is not None and loaded.fide.rounds == 3 and loaded.rounds_paired == 2
    assert loaded.fide.start_date == loaded.fide.end_date == dt.date(2026, 6, 1)
    assert loaded.status is Status.STARTED


def test_late_entries_and_absences_round_trip(backend: Backend) -> None:
    org = account("Org")
    t = fide_event(org, rounds=3)
    ids = [uuid.uuid4() for _ in range(4)]
    fide_rapid.import_people(
        t, org.id, [Person(f"P{i}") for i in range(4)], ids, source="a TRF file", now=NOW
    )
    fide_rapid.start(t, org.id, NOW)
    stored(backend, org, tournaments=(t,))
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        fide_rapid.round_paired(t, 1)
        late = fide_rapid.add_person(
            t, org.id, Person("Late", Profile(fide_id=9)), uuid.uuid4(), now=NOW + dt.timedelta(hours=1)
        )
        fide_rapid.withdraw_absent(t, ids[1], 1, now=NOW + dt.timedelta(minutes=90))
        uow.tournaments.save(t)
        uow.commit()
    loaded = reload(backend, t.id)
    assert loaded == t
    by_id = {e.player_id: e for e in loaded.entries}
    assert (by_id[late.player_id].from_round, by_id[late.player_id].standing) == (2, Standing.ACTIVE)
    w = by_id[ids[1]].withdrawal
    assert w is not None and (w.excluded, w.reason) == (False, "unannounced absence (FIDE C.04.2)")
    with backend.uow() as uow:
        log = uow.audit.of(t.id)
    assert [(e.kind.value, e.role) for e in log] == [
        ("players_imported", Role.ORGANISER),
        ("tournament_started", Role.ORGANISER),
        ("player_added", Role.ORGANISER),
        ("player_withdrawn", Role.SERVICE),
    ]


def test_a_fide_id_is_held_by_one_player_of_an_event(backend: Backend) -> None:
    org = account("Org")
    t = fide_event(org)
    fide_rapid.add_person(t, org.id, Person("Ann", Profile(fide_id=7)), uuid.uuid4(), now=NOW)
    stored(backend, org, tournaments=(t,))
    with backend.uow() as uow:
        stale = uow.tournaments.get(t.id)  # loaded before another unit of work enters Bob
    assert stale is not None
    with backend.uow() as uow:
        t = uow.tournaments.get(t.id, lock=True)
        fide_rapid.add_person(t, org.id, Person("Bob", Profile(fide_id=8)), uuid.uuid4(), now=NOW)
        uow.tournaments.save(t)
        uow.commit()
    # what a save without the row lock would meet: the domain's check passed on the stale copy
    with backend.uow() as uow, pytest.raises(errors.DuplicateFideId):
        fide_rapid.add_person(stale, org.id, Person("Impostor", Profile(fide_id=8)), uuid.uuid4(), now=NOW)
        uow.tournaments.save(stale)
    assert [(e.name, e.fide_id) for e in reload(backend, t.id).entries] == [("Ann", 7), ("Bob", 8)]


# -- ratings and invite links (issue 13) ---------------------------------------------------------------
def test_ratings_round_trip_with_the_shown_value_on_the_account(backend: Backend) -> None:

    ann = account("Ann", {"chess:blitz": 1650})
    stored(backend, ann)
    game = RatedGame(uuid.uuid4(), uuid.uuid4(), Outcome.WHITE_WIN, NOW, Ruleset.PLATFORM, True)
    with backend.uow() as uow:
        assert uow.ratings.first_hearing(game, "chess:blitz", RatingDecision(True, "a rated game"))
        rating = PlayerRating.first(ann.id, "chess:blitz", 1650)
        rating.moved_to(
            Glicko2Rating(1661.4, 300.5, 0.0599),
            game_id=game.game_id,
            tournament_id=game.tournament_id,
            at=NOW,
        )
        uow.ratings.save(rating)
        uow.commit()
    assert ("rating.updated", "chess:blitz") in [(t, p.get("key")) for t, p in backend.published()]
    with backend.uow() as uow:
        again = uow.ratings.get(ann.id, "chess:blitz")
        assert again is not None and again.value == Glicko2Rating(1661.4, 300.5, 0.0599) and again.games == 1
        assert not uow.ratings.first_hearing(game, "chess:blitz", RatingDecision(True, "a rated game"))
        shown = uow.accounts.get(ann.id)
        assert shown is not None and shown.ratings == {"chess:blitz": 1661}
        again.moved_to(
            Glicko2Rating(1670.0, 280.0, 0.06), game_id=uuid.uuid4(), tournament_id=game.tournament_id, at=NOW
        )
        uow.ratings.save(again)
        uow.commit()
    with backend.uow() as uow:
        latest = uow.ratings.get(ann.id, "chess:blitz")
        assert latest is not None and latest.value.rating == 1670.0 and latest.games == 2


def test_invite_links_round_trip_and_stay_revoked(backend: Backend) -> None:

    organiser = account("Org")
    t = platform(organiser, password="secret")
    stored(backend, organiser, tournaments=(t,))
    link = InviteLink.issue(t.id, by=organiser.id, now=NOW, valid_for=dt.timedelta(hours=1))
    with backend.uow() as uow:
        uow.invites.add(link)
        uow.commit()
    with backend.uow() as uow:
        assert uow.invites.get(link.token) == link and uow.invites.of(t.id) == [link]
        uow.invites.save(link.revoke(NOW + dt.timedelta(minutes=5)))
        uow.commit()
    with backend.uow() as uow:
        found = uow.invites.get(link.token)
        assert found is not None and found.revoked_at == NOW + dt.timedelta(minutes=5)
        assert uow.invites.get("no such token") is None
