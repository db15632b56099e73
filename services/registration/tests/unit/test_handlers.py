"""The handlers on the in-memory repositories and unit of work (no database): load, call the domain,
save; what the tournaments record is published at commit, and a refused command leaves nothing."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.registration.adapters import wire
from services.registration.domain import errors
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.tournament import Changes, RateOfPlay, Settings, Status
from services.registration.service_layer import commands
from services.registration.tests.helpers import NOW
from services.registration.tests.helpers import InMemoryRegistration as Registration
from shared import events
from shared.commands import Actor
from shared.messagebus import event_subscription
from shared.vocabulary import Ruleset, Seeding


@pytest.fixture
def reg() -> Registration:
    return Registration()


def test_a_platform_tournament_from_creation_to_its_start(reg: Registration) -> None:
    org = reg.account("Org")
    tid = reg.platform(org)
    players = [reg.account(f"P{i}", {"chess:blitz": 1400 + 10 * i}) for i in range(5)]
    for p in players:
        reg.join(tid, p)
    reg.bus.handle(commands.LeaveTournament(Actor(players[0]), tid, players[0]))
    reg.clock.advance(30 * 60)
    assert reg.bus.handle(commands.StartDueTournaments()) == 1
    assert reg.bus.handle(commands.StartDueTournaments()) == 0  # started once
    assert reg.tournament(tid).status is Status.STARTED
    assert [e.type for e in reg.published()] == ["tournament.scheduled"] + ["player.joined"] * 5 + [
        "player.left",
        "tournament.started",
    ]
    started = events.TournamentStarted.model_validate(reg.published("tournament.started")[0].payload)
    assert [(r.seed, r.player_id) for r in started.roster] == list(enumerate(reversed(players[1:]), start=1))
    assert started.started_at == NOW + dt.timedelta(minutes=30)


def test_too_few_players_cancel_it_and_free_the_organiser(reg: Registration) -> None:
    org = reg.account("Org")
    tid = reg.platform(org, minimum=5)
    for i in range(4):
        reg.join(tid, reg.account(f"P{i}"))
    reg.clock.advance(30 * 60)
    assert reg.bus.handle(commands.StartDueTournaments()) == 1
    t = reg.tournament(tid)
    assert (t.status, t.status_reason) == (Status.CANCELLED, "too few players: 4 present, at least 5 needed")
    cancelled = reg.published("tournament.cancelled")[0].payload
    assert (cancelled["reason"], cancelled["present"]) == ("too_few_players", 4)
    reg.platform(org)  # free again


def test_a_refused_command_changes_and_publishes_nothing(reg: Registration) -> None:
    org, ann = reg.account("Org"), reg.account("Ann")
    tid = reg.platform(org, seats=4)
    for i in range(4):
        reg.join(tid, reg.account(f"P{i}"))
    before = (reg.tournament(tid), len(reg.published()))
    with pytest.raises(errors.TournamentFull):
        reg.join(tid, ann)
    with pytest.raises(errors.NotOrganiser):
        reg.bus.handle(commands.CancelTournament(Actor(ann), tid))
    with pytest.raises(errors.OrganiserBusy):
        reg.platform(org)
    assert (reg.tournament(tid), len(reg.published())) == before


def test_an_account_is_registered_once(reg: Registration) -> None:
    ann = reg.account("Ann", {"chess:blitz": 1500})
    with pytest.raises(errors.AccountExists):
        reg.bus.handle(commands.RegisterAccount(ann, "Ann again"))
    with reg.db.uow() as uow:
        assert uow.accounts.get(ann).name == "Ann"


def test_a_knockout_is_seeded_by_the_ratings_at_its_start(reg: Registration) -> None:
    org = reg.account("Org")
    players = [reg.account(f"P{i}", {"chess:blitz": 1500, "chess:rapid": 1600 + 10 * i}) for i in range(4)]
    settings = Settings(
        "Cup",
        None,
        RateOfPlay(180, 2),
        ruleset=Ruleset.KNOCKOUT,
        knockout=KnockoutFormat(seeding=Seeding.RATING),
    )
    tid = reg.bus.handle(commands.CreateTournament(Actor(org), settings)).id
    for p in players:
        reg.join(tid, p, by=org)
    assert [e.rating for e in reg.tournament(tid).entries] == [1500] * 4  # blitz when added
    reg.bus.handle(commands.ChangeTournament(Actor(org), tid, Changes(time_control=RateOfPlay(600))))
    reg.bus.handle(commands.StartTournament(Actor(org), tid))
    started = events.TournamentStarted.model_validate(reg.published("tournament.started")[0].payload)
    assert [(r.player_id, r.rating) for r in started.roster] == [
        (p, 1600 + 10 * i) for i, p in reversed(list(enumerate(players)))
    ]
    assert [e.rating for e in reg.tournament(tid).entries] == [1600, 1610, 1620, 1630]  # rapid at the start
    assert reg.published("tournament.scheduled") == []  # a draft is never scheduled


def test_tournament_completed_is_heard_once(reg: Registration) -> None:
    org = reg.account("Org")
    tid = reg.platform(org)
    subscription = event_subscription(
        "registration.tournament_completed",
        ("tournament.completed",),
        reg.handlers.on_tournament_completed,
        reg.db.uow,
        translate=wire.completion,
    )
    completed = events.TournamentCompleted(tournament_id=tid, organiser_id=org, rounds=3, completed_at=NOW)
    envelope = events.wrap(completed, tid)
    for _ in range(2):  # a redelivery finds the inbox record
        subscription.handler(envelope, completed)
    assert reg.tournament(tid).status is Status.COMPLETED
    assert reg.db.inbox == {(envelope.id, "registration.tournament_completed")}
    reg.platform(org)  # the organiser is free
    unknown = events.TournamentCompleted(
        tournament_id=uuid.uuid4(), organiser_id=org, rounds=1, completed_at=NOW
    )
    subscription.handler(events.wrap(unknown, unknown.tournament_id), unknown)  # not ours: nothing to do
