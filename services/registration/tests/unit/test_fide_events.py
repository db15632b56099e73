"""A `fide-rapid` event in registration, on the in-memory fakes: created by its organiser with its fide
settings, never started by the scheduler; its officials (the organiser, an arbiter of the whole event)
enter players by hand or import them, correct and remove them before the start, confirm the accounts that
join, start it with the roster in starting-rank order, and take late entries before a round is paired;
pairing's `round.paired` tells which round that is, and `absence.unexcused` withdraws a player; excused
absences and penalties go into the audit log. Every refusal leaves the stored state exactly as it was."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from services.registration.domain import errors
from services.registration.domain.audit import AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Standing
from services.registration.domain.fide import FideFormat, LateEntryBye, PairingSystem
from services.registration.domain.player_lists import ListFormat
from services.registration.domain.players import Person, PlayerChange, Profile, Sex, Title, profile
from services.registration.domain.rulesets.fide_rapid import RULES
from services.registration.domain.tournament import Changes, RateOfPlay, Settings, Status
from services.registration.service_layer import commands
from services.registration.tests.helpers import NOW, InMemoryRegistration
from shared import events
from shared.authority import Role
from shared.commands import Actor
from shared.vocabulary import Ruleset

AT = "2026-06-01T12:00:00Z"  # NOW on the wire


@pytest.fixture
def reg() -> InMemoryRegistration:
    return InMemoryRegistration()


@dataclass
class Open:
    """A fide-rapid event open for entries: its organiser, an arbiter of the whole event, one of a single
    game, and a stranger."""

    tid: uuid.UUID
    org: uuid.UUID
    whole: uuid.UUID
    scoped: uuid.UUID
    stranger: uuid.UUID


def open_event(reg: InMemoryRegistration, **fmt: Any) -> Open:
    org, whole, scoped, stranger = (reg.account(n) for n in ("Org", "Whole", "Scoped", "Stranger"))
    tid = reg.fide(org, **fmt)
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, whole))
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, scoped, frozenset({uuid.uuid4()})))
    return Open(tid, org, whole, scoped, stranger)


@pytest.fixture
def event(reg: InMemoryRegistration) -> Open:
    return open_event(reg)


def refused(reg: InMemoryRegistration, command: object, error: type[Exception]) -> Exception:
    """The command is refused with ``error`` and nothing stored changes."""
    before = reg.state()
    with pytest.raises(error) as info:
        reg.bus.handle(command)
    assert type(info.value) is error
    assert reg.state() == before
    return info.value


def payloads(reg: InMemoryRegistration, kind: str) -> list[dict[str, Any]]:
    return [e.payload for e in reg.published(kind)]


def person(name: str, **data: Any) -> Person:
    return Person(name, profile(**data))


def field_of(reg: InMemoryRegistration, event: Open, n: int) -> list[uuid.UUID]:
    return [reg.add(event.tid, event.org, f"P{i:02}", rating_standard=2000 - i) for i in range(n)]


def start(reg: InMemoryRegistration, event: Open, by: uuid.UUID | None = None) -> events.TournamentStarted:
    reg.bus.handle(commands.StartTournament(Actor(by or event.org), event.tid))
    return events.TournamentStarted.model_validate(reg.published("tournament.started")[-1].payload)


# -- creating ----------------------------------------------------------------------------------------
def test_an_event_is_open_for_entries_and_never_started_by_the_scheduler(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    day = dt.date(2026, 6, 6)
    tid = reg.fide(
        org, place=" Bern ", start_date=day, end_date=day + dt.timedelta(days=1), acceleration=True
    )
    t = reg.tournament(tid)
    assert (t.status, t.starts_at, t.ruleset, t.byes_on_request, t.seats, t.minimum) == (
        Status.SCHEDULED,
        None,
        Ruleset.FIDE_RAPID,
        True,
        1000,
        2,
    )
    assert t.fide == FideFormat(
        rounds=5, place="Bern", start_date=day, end_date=day + dt.timedelta(days=1), acceleration=True
    )
    assert reg.published() == []  # no start time: no tournament.scheduled
    reg.fide(org)  # an organiser may run several
    reg.clock.advance(30 * 24 * 3600)
    assert reg.bus.handle(commands.StartDueTournaments()) == 0
    assert reg.tournament(tid).status is Status.SCHEDULED


def fide_settings(**kw: Any) -> Settings:
    base: dict[str, Any] = {
        "name": "Rapid open",
        "starts_at": None,
        "time_control": RateOfPlay(900, 10),
        "ruleset": Ruleset.FIDE_RAPID,
        "fide": FideFormat(rounds=5),
    }
    return Settings(**{**base, **kw})


@pytest.mark.parametrize(
    ("kw", "error", "detail"),
    [
        (
            {"time_control": RateOfPlay(600)},
            errors.TimeNotRapid,
            "FIDE rapid is more than 10 and less than 60",
        ),
        ({"time_control": RateOfPlay(3600)}, errors.TimeNotRapid, "60+0 is 60 minutes"),
        ({"time_control": RateOfPlay(0, 0, 2)}, errors.TimeNotRapid, "days per move"),
        ({"time_control": RateOfPlay(0, 0)}, errors.InvalidSettings, "needs base time or an increment"),
        ({"fide": None}, errors.InvalidSettings, "needs its fide settings"),
        ({"fide": FideFormat()}, errors.InvalidSettings, "a Swiss needs its number of rounds"),
        ({"starts_at": NOW + dt.timedelta(hours=1)}, errors.InvalidSettings, "no scheduled start"),
        ({"byes_on_request": False}, errors.InvalidSettings, "zero-point byes on request"),
        ({"variant": "international"}, errors.InvalidSettings, "FIDE rapid is chess"),
        (
            {"password": "x", "double_rounds": True},
            errors.InvalidSettings,
            "not a fide-rapid setting: password, double_rounds",
        ),
        ({"min_rating": 1500, "extra_round": True}, errors.InvalidSettings, "min_rating, extra_round"),
        ({"name": "  "}, errors.InvalidSettings, "needs a name"),
    ],
)
def test_refused_settings_create_nothing(
    reg: InMemoryRegistration, kw: dict[str, Any], error: type[Exception], detail: str
) -> None:
    org = reg.account("Org")
    e = refused(reg, commands.CreateTournament(Actor(org), fide_settings(**kw)), error)
    assert detail in str(e)


def test_fide_settings_belong_to_the_fide_rapid_ruleset(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    platform = Settings("Blitz", NOW + dt.timedelta(hours=1), RateOfPlay(180, 2), fide=FideFormat(rounds=5))
    refused(reg, commands.CreateTournament(Actor(org), platform), errors.InvalidSettings)
    ko = Settings("Cup", None, RateOfPlay(600), ruleset=Ruleset.KNOCKOUT, fide=FideFormat(rounds=5))
    refused(reg, commands.CreateTournament(Actor(org), ko), errors.InvalidSettings)


def test_the_organiser_changes_the_settings_before_the_start(reg: InMemoryRegistration, event: Open) -> None:
    rr = FideFormat(system=PairingSystem.ROUND_ROBIN, place="Thun")
    reg.bus.handle(
        commands.ChangeTournament(
            Actor(event.org), event.tid, Changes(name="Thun rapid", time_control=RateOfPlay(1500), fide=rr)
        )
    )
    t = reg.tournament(event.tid)
    assert (t.name, t.time_control, t.fide) == ("Thun rapid", RateOfPlay(1500), rr)
    refused(
        reg, commands.ChangeTournament(Actor(event.whole), event.tid, Changes(name="X")), errors.NotOrganiser
    )
    refused(
        reg,
        commands.ChangeTournament(Actor(event.org), event.tid, Changes(time_control=RateOfPlay(300))),
        errors.TimeNotRapid,
    )
    bad = Changes(fide=FideFormat(rounds=3, system=PairingSystem.ROUND_ROBIN))
    refused(reg, commands.ChangeTournament(Actor(event.org), event.tid, bad), errors.InvalidSettings)
    field_of(reg, event, 3)
    start(reg, event)
    refused(
        reg,
        commands.ChangeTournament(Actor(event.org), event.tid, Changes(name="Late")),
        errors.AlreadyStarted,
    )


def test_the_organiser_cancels_it_before_the_start(reg: InMemoryRegistration, event: Open) -> None:
    field_of(reg, event, 2)
    reg.bus.handle(commands.CancelTournament(Actor(event.org), event.tid))
    assert reg.tournament(event.tid).status is Status.CANCELLED
    assert payloads(reg, "tournament.cancelled")[0]["present"] == 2


# -- players entered by hand -------------------------------------------------------------------------
def test_officials_enter_people_by_hand(reg: InMemoryRegistration, event: Open) -> None:
    carlsen = reg.add(
        event.tid,
        event.org,
        "Carlsen, Magnus",
        fide_id=1503014,
        federation="nor",
        title=Title.GM,
        sex=Sex.M,
        birth_year=1990,
        rating_standard=2830,
        rating_rapid=2820,
    )
    reg.clock.advance(60)
    newcomer = reg.add(event.tid, event.whole, "Newcomer")
    t = reg.tournament(event.tid)
    assert [(e.player_id, e.name, e.rating, e.by_hand, e.standing) for e in t.entries] == [
        (carlsen, "Carlsen, Magnus", 2830, True, Standing.ACTIVE),
        (newcomer, "Newcomer", None, True, Standing.ACTIVE),
    ]
    assert payloads(reg, "player.joined") == [
        {
            "tournament_id": str(event.tid),
            "player_id": str(carlsen),
            "name": "Carlsen, Magnus",
            "rating": 2830,
            "profile": {
                "fide_id": 1503014,
                "federation": "NOR",
                "title": "GM",
                "sex": "m",
                "birth_year": 1990,
                "rating_standard": 2830,
                "rating_rapid": 2820,
            },
            "late": False,
            "from_round": None,
            "roster_revision": 1,
        },
        {
            "tournament_id": str(event.tid),
            "player_id": str(newcomer),
            "name": "Newcomer",
            "rating": None,
            "profile": None,
            "late": False,
            "from_round": None,
            "roster_revision": 2,
        },
    ]
    assert [(e.kind, e.by, e.role, e.subject, e.detail) for e in reg.audit(event.tid)[-2:]] == [
        (
            AuditKind.PLAYER_ADDED,
            event.org,
            Role.ORGANISER,
            Subject(SubjectKind.PLAYER, carlsen),
            "Carlsen, Magnus entered",
        ),
        (
            AuditKind.PLAYER_ADDED,
            event.whole,
            Role.ARBITER,
            Subject(SubjectKind.PLAYER, newcomer),
            "Newcomer entered",
        ),
    ]


def test_who_may_enter_players(reg: InMemoryRegistration, event: Open) -> None:
    add = commands.AddPlayer
    for who in (event.scoped, event.stranger):
        refused(reg, add(Actor(who), event.tid, person("Ann")), errors.NotAnArbiterHere)
    # the arbiter role of a token grants nothing; the service principal enters no people
    refused(
        reg,
        add(Actor(event.stranger, roles=frozenset({"arbiter", "service"})), event.tid, person("Ann")),
        errors.NotAnArbiterHere,
    )
    refused(reg, add(Actor(event.org), uuid.uuid4(), person("Ann")), errors.TournamentNotFound)
    org = reg.account("Org2")
    platform = reg.platform(org)
    refused(reg, add(Actor(org), platform, person("Ann")), errors.AccountsOnly)
    knockout = reg.knockout(org, [])
    refused(reg, add(Actor(org), knockout, person("Ann")), errors.AccountsOnly)


def test_one_player_per_fide_id(reg: InMemoryRegistration, event: Open) -> None:
    reg.add(event.tid, event.org, "Carlsen, Magnus", fide_id=1503014)
    e = refused(
        reg,
        commands.AddPlayer(Actor(event.org), event.tid, person("Impostor", fide_id=1503014)),
        errors.DuplicateFideId,
    )
    assert str(e) == "Impostor: FIDE id 1503014 is also that of Carlsen, Magnus (entered already)"
    ann = reg.account("Ann")
    refused(
        reg,
        commands.JoinTournament(Actor(ann), event.tid, ann, profile=Profile(fide_id=1503014)),
        errors.DuplicateFideId,
    )


def test_officials_correct_a_player_before_the_start(reg: InMemoryRegistration, event: Open) -> None:
    ann = reg.add(event.tid, event.org, "Meier, A.", fide_id=1, federation="SUI", rating_standard=2100)
    bob = reg.add(event.tid, event.org, "Bob", fide_id=2)
    change = PlayerChange(name="Meier, Anna", rating_standard=2150, title=Title.WFM, federation=None)
    entry = reg.bus.handle(commands.ChangePlayer(Actor(event.whole), event.tid, ann, change))
    assert (entry.name, entry.rating, entry.profile) == (
        "Meier, Anna",
        2150,
        Profile(fide_id=1, title=Title.WFM, rating_standard=2150),
    )
    assert reg.tournament(event.tid).entries[0] == entry
    assert reg.audit(event.tid)[-1].detail == "Meier, Anna changed"
    ch = commands.ChangePlayer
    refused(reg, ch(Actor(event.org), event.tid, bob, PlayerChange(fide_id=1)), errors.DuplicateFideId)
    reg.bus.handle(ch(Actor(event.org), event.tid, bob, PlayerChange(fide_id=2)))  # its own id again
    refused(reg, ch(Actor(event.scoped), event.tid, bob, PlayerChange(name="B")), errors.NotAnArbiterHere)
    refused(
        reg, ch(Actor(event.org), event.tid, uuid.uuid4(), PlayerChange(name="B")), errors.PlayerNotEntered
    )
    refused(reg, ch(Actor(event.org), event.tid, bob, PlayerChange(name=" ")), errors.InvalidPlayer)
    refused(reg, ch(Actor(event.org), event.tid, bob, PlayerChange(birth_year=1800)), errors.InvalidPlayer)
    field_of(reg, event, 4)
    start(reg, event)
    refused(reg, ch(Actor(event.org), event.tid, bob, PlayerChange(name="B")), errors.RegistrationClosed)


def test_officials_remove_a_player_before_the_start(reg: InMemoryRegistration, event: Open) -> None:
    ann, bob, cid, *others = field_of(reg, event, 7)
    reg.bus.handle(commands.RemovePlayer(Actor(event.whole), event.tid, ann))
    assert [e.player_id for e in reg.tournament(event.tid).entries] == [bob, cid, *others]
    assert payloads(reg, "player.left") == [  # after the seven entries
        {"tournament_id": str(event.tid), "player_id": str(ann), "roster_revision": 8}
    ]
    assert reg.audit(event.tid)[-1].kind is AuditKind.PLAYER_REMOVED
    rm = commands.RemovePlayer
    refused(reg, rm(Actor(event.stranger), event.tid, bob), errors.NotAnArbiterHere)
    refused(reg, rm(Actor(event.org), event.tid, ann), errors.PlayerNotEntered)
    start(reg, event)
    refused(reg, rm(Actor(event.org), event.tid, bob), errors.RegistrationClosed)


# -- imports -----------------------------------------------------------------------------------------
CSV = """name,fide_id,federation,title,rating_standard
"Carlsen, Magnus",1503014,NOR,GM,2830
"Meier, Anna",,SUI,WFM,2105
Newcomer,,,,
"""


def test_a_list_is_imported_whole_in_its_order(reg: InMemoryRegistration, event: Open) -> None:
    entered = reg.bus.handle(commands.ImportPlayers(Actor(event.whole), event.tid, CSV, ListFormat.CSV))
    assert [(e.name, e.rating, e.by_hand) for e in entered] == [
        ("Carlsen, Magnus", 2830, True),
        ("Meier, Anna", 2105, True),
        ("Newcomer", None, True),
    ]
    t = reg.tournament(event.tid)
    assert t.entries == entered
    assert [e.joined_at for e in t.entries] == [NOW + dt.timedelta(microseconds=i) for i in range(3)]
    assert [p["name"] for p in payloads(reg, "player.joined")] == [
        "Carlsen, Magnus",
        "Meier, Anna",
        "Newcomer",
    ]
    log = reg.audit(event.tid)[-1]
    assert (log.kind, log.by, log.role, log.detail) == (
        AuditKind.PLAYERS_IMPORTED,
        event.whole,
        Role.ARBITER,
        "3 players imported from a CSV list",
    )


def test_a_bad_line_imports_nothing(reg: InMemoryRegistration, event: Open) -> None:
    reg.add(event.tid, event.org, "Already here")
    bad = CSV + "Broken,12x,,,\n"
    e = refused(
        reg,
        commands.ImportPlayers(Actor(event.org), event.tid, bad, ListFormat.CSV),
        errors.InvalidPlayerLine,
    )
    assert isinstance(e, errors.InvalidPlayerLine) and e.line == 5
    assert e.detail == "line 5: fide_id: a whole number, got '12x'"
    trf = "012 Open\n001    1 m  g Carlsen, Magnus                   2830 NOR     1503014\n001    x\n"
    e = refused(
        reg,
        commands.ImportPlayers(Actor(event.org), event.tid, trf, ListFormat.TRF),
        errors.InvalidPlayerLine,
    )
    assert isinstance(e, errors.InvalidPlayerLine) and e.line == 3
    assert [e.name for e in reg.tournament(event.tid).entries] == ["Already here"]


def test_a_fide_id_twice_in_the_list_or_entered_already_imports_nothing(
    reg: InMemoryRegistration, event: Open
) -> None:
    twice = CSV + "Impostor,1503014,,,\n"
    e = refused(
        reg,
        commands.ImportPlayers(Actor(event.org), event.tid, twice, ListFormat.CSV),
        errors.DuplicateFideId,
    )
    assert str(e) == "line 5 (Impostor): FIDE id 1503014 is also that of line 2 (Carlsen, Magnus)"
    reg.add(event.tid, event.org, "Carlsen, M.", fide_id=1503014)
    e = refused(
        reg, commands.ImportPlayers(Actor(event.org), event.tid, CSV, ListFormat.CSV), errors.DuplicateFideId
    )
    assert str(e) == "line 2 (Carlsen, Magnus): FIDE id 1503014 is also that of Carlsen, M. (entered already)"


def test_who_imports_and_when(reg: InMemoryRegistration, event: Open) -> None:
    imp = commands.ImportPlayers
    # who is asked first: a stranger learns nothing of what is wrong with the list
    refused(reg, imp(Actor(event.scoped), event.tid, "garbage", ListFormat.CSV), errors.NotAnArbiterHere)
    org = reg.account("Org2")
    refused(reg, imp(Actor(org), reg.platform(org), CSV, ListFormat.CSV), errors.AccountsOnly)
    many = "name\n" + "".join(f"P{i}\n" for i in range(999))
    reg.bus.handle(imp(Actor(event.org), event.tid, many, ListFormat.CSV))
    refused(reg, imp(Actor(event.org), event.tid, "name\nA\nB\n", ListFormat.CSV), errors.TournamentFull)
    reg.bus.handle(
        commands.RemovePlayer(Actor(event.org), event.tid, reg.tournament(event.tid).entries[0].player_id)
    )
    start(reg, event)
    refused(reg, imp(Actor(event.org), event.tid, "garbage", ListFormat.CSV), errors.RegistrationClosed)


# -- accounts joining --------------------------------------------------------------------------------
def test_an_account_joins_and_counts_once_confirmed(reg: InMemoryRegistration, event: Open) -> None:
    ann, bob, cid = reg.account("Ann"), reg.account("Bob"), reg.account("Cid")
    reg.bus.handle(
        commands.JoinTournament(Actor(ann), event.tid, ann, profile=Profile(fide_id=7, rating_standard=1900))
    )
    reg.bus.handle(commands.JoinTournament(Actor(bob), event.tid, bob))
    reg.bus.handle(commands.JoinTournament(Actor(event.whole), event.tid, cid))  # an official's entry
    t = reg.tournament(event.tid)
    assert [(e.name, e.standing, e.rating, e.by_hand) for e in t.entries] == [
        ("Ann", Standing.UNCONFIRMED, 1900, False),
        ("Bob", Standing.UNCONFIRMED, None, False),
        ("Cid", Standing.ACTIVE, None, False),
    ]
    assert [p["name"] for p in payloads(reg, "player.joined")] == ["Cid"]
    reg.bus.handle(commands.ConfirmEntry(Actor(event.whole), event.tid, ann))
    assert reg.tournament(event.tid).entries[0].standing is Standing.ACTIVE
    (_, joined) = payloads(reg, "player.joined")
    assert (joined["player_id"], joined["rating"], joined["profile"]["fide_id"], joined["late"]) == (
        str(ann),
        1900,
        7,
        False,
    )
    assert reg.audit(event.tid)[-1].kind is AuditKind.ENTRY_CONFIRMED
    confirm = commands.ConfirmEntry
    refused(reg, confirm(Actor(event.org), event.tid, ann), errors.AlreadyConfirmed)
    refused(reg, confirm(Actor(event.scoped), event.tid, bob), errors.NotAnArbiterHere)
    refused(reg, confirm(Actor(bob), event.tid, bob), errors.NotAnArbiterHere)
    refused(reg, confirm(Actor(event.org), event.tid, uuid.uuid4()), errors.PlayerNotEntered)
    refused(reg, commands.JoinTournament(Actor(ann), event.tid, bob), errors.Forbidden)  # not for another
    # leaving before a confirmation announces nothing
    reg.bus.handle(commands.LeaveTournament(Actor(bob), event.tid, bob))
    assert payloads(reg, "player.left") == []


def test_a_profile_is_given_in_fide_rapid_events_only(reg: InMemoryRegistration) -> None:
    org, ann = reg.account("Org"), reg.account("Ann")
    tid = reg.platform(org)
    refused(
        reg, commands.JoinTournament(Actor(ann), tid, ann, profile=Profile(fide_id=1)), errors.InvalidPlayer
    )


# -- the start ---------------------------------------------------------------------------------------
def test_the_roster_is_in_starting_rank_order_with_every_profile(
    reg: InMemoryRegistration, event: Open
) -> None:
    def add(name: str, rating: int | None, title: Title | None = None, **more: Any) -> uuid.UUID:
        return reg.add(event.tid, event.org, name, rating_standard=rating, title=title, **more)

    ids = {
        "Zeta": add("Zeta", None),
        "Omega": add("Omega", 2400, rating_rapid=2500),
        "Kappa, WIM": add("Kappa", 2400, Title.WIM),
        "Delta, IM": add("Delta", 2400, Title.IM),
        "beta": add("beta", 2400),
        "Alpha": add("Alpha", 2400),
        "Eta, GM": add("Eta", 2300, Title.GM, fide_id=99, federation="SUI", sex=Sex.M, birth_year=1980),
        "Top": add("Top", 2500),
        "Unrated GM": add("Unrated GM", None, Title.GM),
    }
    started = start(reg, event)
    assert [(r.seed, r.name, r.rating) for r in started.roster] == [
        (1, "Top", 2500),
        (2, "Delta", 2400),  # IM
        (3, "Kappa", 2400),  # WIM
        (4, "Alpha", 2400),  # untitled, by name
        (5, "beta", 2400),
        (6, "Omega", 2400),  # the rapid rating does not count
        (7, "Eta", 2300),
        (8, "Unrated GM", None),
        (9, "Zeta", None),
    ]
    eta = started.roster[6]
    assert eta.player_id == ids["Eta, GM"]
    assert eta.profile == events.PlayerProfile(
        fide_id=99, federation="SUI", title="GM", sex="m", birth_year=1980, rating_standard=2300
    )
    assert started.roster[8].profile is None
    assert started.settings.ruleset is Ruleset.FIDE_RAPID and started.settings.byes_on_request is True
    assert started.settings.fide == events.FideSettings(
        place="",
        start_date=dt.date(2026, 6, 1),
        end_date=dt.date(2026, 6, 1),
        rounds=5,
        system="swiss",
        acceleration=False,
        clocks="board",
        default_time_minutes=10,
        late_entry_bye="zero",
    )
    t = reg.tournament(event.tid)
    assert (t.status, t.starts_at) == (Status.STARTED, NOW)


def test_unconfirmed_entries_are_left_out_at_the_start(reg: InMemoryRegistration, event: Open) -> None:
    field_of(reg, event, 6)
    waiting = reg.account("Waiting")
    reg.bus.handle(commands.JoinTournament(Actor(waiting), event.tid, waiting))
    started = start(reg, event, by=event.whole)
    assert waiting not in {r.player_id for r in started.roster} and len(started.roster) == 6
    assert waiting not in {e.player_id for e in reg.tournament(event.tid).entries}
    log = reg.audit(event.tid)[-1]
    assert (log.kind, log.by, log.role, log.detail) == (
        AuditKind.TOURNAMENT_STARTED,
        event.whole,
        Role.ARBITER,
        "started with 6 players, 5 rounds; left out, never confirmed: Waiting",
    )
    assert payloads(reg, "player.left") == []  # never announced, nothing to take back


def test_a_round_robin_takes_its_rounds_from_the_field(reg: InMemoryRegistration) -> None:
    event = open_event(reg, rounds=None, system=PairingSystem.ROUND_ROBIN)
    field_of(reg, event, 7)
    started = start(reg, event)
    assert started.settings.fide is not None
    assert (started.settings.fide.system, started.settings.fide.rounds) == ("round_robin", 7)
    assert reg.tournament(event.tid).fide.rounds == 7  # type: ignore[union-attr]


def test_refused_starts(reg: InMemoryRegistration, event: Open) -> None:
    begin = commands.StartTournament
    field_of(reg, event, 5)  # a 5-round Swiss needs 6
    e = refused(reg, begin(Actor(event.org), event.tid), errors.TooFewPlayers)
    assert "a 5-round Swiss needs at least 6 players" in str(e)
    waiting = reg.account("Waiting")
    reg.bus.handle(commands.JoinTournament(Actor(waiting), event.tid, waiting))
    refused(reg, begin(Actor(event.org), event.tid), errors.TooFewPlayers)  # unconfirmed do not count
    reg.add(event.tid, event.org, "Sixth")
    for who in (event.scoped, event.stranger):
        refused(reg, begin(Actor(who), event.tid), errors.NotAnArbiterHere)
    reg.bus.handle(begin(Actor(event.org), event.tid))
    refused(reg, begin(Actor(event.whole), event.tid), errors.AlreadyStarted)
    rr = open_event(reg, rounds=None, system=PairingSystem.ROUND_ROBIN)
    reg.bus.handle(
        commands.ImportPlayers(
            Actor(rr.org), rr.tid, "name\n" + "".join(f"P{i}\n" for i in range(31)), ListFormat.CSV
        )
    )
    refused(reg, begin(Actor(rr.org), rr.tid), errors.TooManyPlayers)
    cancelled = open_event(reg)
    field_of(reg, cancelled, 6)
    reg.bus.handle(commands.CancelTournament(Actor(cancelled.org), cancelled.tid))
    refused(reg, begin(Actor(cancelled.org), cancelled.tid), errors.TournamentClosed)


# -- late entries ------------------------------------------------------------------------------------
def paired(reg: InMemoryRegistration, tid: uuid.UUID, round_no: int) -> None:
    reg.hear(
        events.RoundPaired(
            tournament_id=tid,
            organiser_id=uuid.uuid4(),
            round=round_no,
            total_rounds=5,
            system="swiss",
            games=[],
            time_control=events.TimeControl(base_seconds=900, increment_seconds=10),
        )
    )


def test_a_late_entry_plays_from_the_round_after_the_last_one_paired(
    reg: InMemoryRegistration, event: Open
) -> None:
    field_of(reg, event, 6)
    start(reg, event)
    early = reg.add(event.tid, event.whole, "Early", fide_id=5)  # before round 1 is paired
    paired(reg, event.tid, 1)
    paired(reg, event.tid, 2)
    paired(reg, event.tid, 1)  # heard again, late: changes nothing
    assert reg.tournament(event.tid).rounds_paired == 2
    late = reg.add(event.tid, event.org, "Late, Lara", rating_standard=1800, title=Title.WFM)
    joined = payloads(reg, "player.joined")[-2:]
    assert [(j["player_id"], j["late"], j["from_round"]) for j in joined] == [
        (str(early), True, 1),
        (str(late), True, 3),
    ]
    assert joined[1]["profile"]["title"] == "WFM" and joined[1]["rating"] == 1800
    entry = reg.tournament(event.tid).entries[-1]
    assert (entry.player_id, entry.from_round, entry.standing) == (late, 3, Standing.ACTIVE)
    log = reg.audit(event.tid)[-1]
    assert (log.kind, log.subject, log.detail) == (
        AuditKind.PLAYER_ADDED,
        Subject(SubjectKind.PLAYER, late, 3),
        "Late, Lara entered late: plays from round 3",
    )
    refused(
        reg, commands.AddPlayer(Actor(event.org), event.tid, person("Dup", fide_id=5)), errors.DuplicateFideId
    )
    paired(reg, event.tid, 5)
    e = refused(reg, commands.AddPlayer(Actor(event.org), event.tid, person("Too late")), errors.NoRoundLeft)
    assert str(e) == "all 5 rounds are paired: a late entry would play none"
    reg.hear(
        events.TournamentCompleted(
            tournament_id=event.tid, organiser_id=event.org, rounds=5, completed_at=NOW
        )
    )
    refused(reg, commands.AddPlayer(Actor(event.org), event.tid, person("After")), errors.RegistrationClosed)


def test_a_round_robin_takes_no_late_entries(reg: InMemoryRegistration) -> None:
    event = open_event(reg, rounds=None, system=PairingSystem.ROUND_ROBIN)
    field_of(reg, event, 4)
    start(reg, event)
    refused(reg, commands.AddPlayer(Actor(event.org), event.tid, person("Late")), errors.NoLateEntries)
    ann = reg.account("Ann")
    refused(reg, commands.JoinTournament(Actor(ann), event.tid, ann), errors.RegistrationClosed)


def test_rounds_of_other_tournaments_change_nothing(reg: InMemoryRegistration, event: Open) -> None:
    org = reg.account("Org2")
    platform = reg.platform(org)
    before = reg.state()
    paired(reg, platform, 1)
    paired(reg, uuid.uuid4(), 1)
    stored, outbox, inbox = reg.state()
    assert (stored, outbox) == before[:2] and len(inbox) == 2  # only heard


# -- absences and penalties --------------------------------------------------------------------------
def test_an_unexcused_absence_withdraws_the_player_by_the_rules(
    reg: InMemoryRegistration, event: Open
) -> None:
    players = field_of(reg, event, 6)
    start(reg, event)
    reg.clock.advance(3600)
    absent = events.AbsenceUnexcused(tournament_id=event.tid, player_id=players[2], round=2)
    reg.hear(absent)
    entry = reg.tournament(event.tid).entries[2]
    assert entry.standing is Standing.WITHDRAWN
    decision = {
        "by": str(RULES),
        "role": "service",
        "at": "2026-06-01T13:00:00Z",
        "reason": "unannounced absence (FIDE C.04.2)",
    }
    assert payloads(reg, "player.withdrawn") == [
        {
            "tournament_id": str(event.tid),
            "player_id": str(players[2]),
            "reason": "unannounced absence (FIDE C.04.2)",
            "excluded": False,
            "decision": decision,
            "roster_revision": payloads(reg, "tournament.started")[0]["roster_revision"] + 1,
        }
    ]
    log = reg.audit(event.tid)[-1]
    assert (log.kind, log.by, log.role, log.reason, log.subject, log.detail) == (
        AuditKind.PLAYER_WITHDRAWN,
        RULES,
        Role.SERVICE,
        "unannounced absence (FIDE C.04.2)",
        Subject(SubjectKind.PLAYER, players[2]),
        "P02 withdrawn: absent from round 2 without an excuse before the next pairing",
    )
    before = reg.state()
    reg.hear(absent)  # the same event again: the inbox
    reg.hear(events.AbsenceUnexcused(tournament_id=event.tid, player_id=players[2], round=3))  # gone already
    reg.hear(events.AbsenceUnexcused(tournament_id=event.tid, player_id=uuid.uuid4(), round=3))
    reg.hear(events.AbsenceUnexcused(tournament_id=uuid.uuid4(), player_id=players[0], round=3))
    assert reg.state()[:2] == before[:2]


def test_an_absence_in_a_platform_tournament_withdraws_nobody(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    tid = reg.platform(org)
    players = [reg.account(f"P{i}") for i in range(4)]
    for p in players:
        reg.join(tid, p)
    reg.clock.advance(30 * 60)
    reg.bus.handle(commands.StartDueTournaments())
    reg.hear(events.AbsenceUnexcused(tournament_id=tid, player_id=players[0], round=1))
    assert (
        reg.tournament(tid).entries[0].standing is Standing.ACTIVE and reg.published("player.withdrawn") == []
    )


def test_excused_absences_and_penalties_go_into_the_audit_log(reg: InMemoryRegistration, event: Open) -> None:
    players = field_of(reg, event, 6)
    start(reg, event)
    game = uuid.uuid4()
    at = NOW + dt.timedelta(minutes=5)
    excused = events.DecisionBy(by=event.whole, role=Role.ARBITER, at=at, reason="train late")
    reg.hear(events.AbsenceExcused(tournament_id=event.tid, player_id=players[1], round=2, decision=excused))
    for occurrence, consequence in ((1, "extra_minute"), (2, "loss")):
        reg.hear(
            events.GamePenalised(
                tournament_id=event.tid,
                game_id=game,
                round=3,
                player_id=players[4],
                kind="illegal_move",
                occurrence=occurrence,
                consequence=consequence,
                decision=events.DecisionBy(
                    by=event.org, role=Role.ORGANISER, at=at + dt.timedelta(minutes=occurrence)
                ),
            )
        )
    log = reg.audit(event.tid)[-3:]
    assert [(e.kind, e.by, e.role, e.subject, e.detail, e.reason) for e in log] == [
        (
            AuditKind.ABSENCE_EXCUSED,
            event.whole,
            Role.ARBITER,
            Subject(SubjectKind.PLAYER, players[1], 2),
            "absence from round 2 excused: paired again",
            "train late",
        ),
        (
            AuditKind.GAME_PENALISED,
            event.org,
            Role.ORGANISER,
            Subject(SubjectKind.GAME, game, 3),
            f"illegal move by {players[4]} (1st): one extra minute for the opponent",
            None,
        ),
        (
            AuditKind.GAME_PENALISED,
            event.org,
            Role.ORGANISER,
            Subject(SubjectKind.GAME, game, 3),
            f"illegal move by {players[4]} (2nd): the game lost",
            None,
        ),
    ]
    assert reg.tournament(event.tid).entries[1].standing is Standing.ACTIVE  # an excuse changes no entry


def test_a_withdrawal_by_an_arbiter_takes_the_normal_path(reg: InMemoryRegistration, event: Open) -> None:
    players = field_of(reg, event, 6)
    refused(reg, commands.WithdrawPlayer(Actor(event.org), event.tid, players[0], "ill"), errors.NotStarted)
    start(reg, event)
    reg.bus.handle(commands.WithdrawPlayer(Actor(event.whole), event.tid, players[0], "ill"))
    assert reg.tournament(event.tid).entries[0].standing is Standing.WITHDRAWN


def test_settings_round_trip_through_the_fakes_unchanged(reg: InMemoryRegistration) -> None:
    fmt = dict(rounds=9, late_entry_bye=LateEntryBye.HALF, default_time_minutes=0)
    event = open_event(reg, **fmt)
    assert reg.tournament(event.tid).fide == dataclasses.replace(FideFormat(), **fmt)
