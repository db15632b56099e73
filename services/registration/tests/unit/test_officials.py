"""Who decides in a tournament, on the in-memory fakes: the organiser appoints and revokes arbiters; the
organiser or an arbiter of the whole tournament withdraws players, the organiser alone excludes them;
the organiser draws a knockout draft's random seeding; a reset from pairing makes a knockout a draft
again; every decision, registration's own and the other services', is in the tournament's audit log.
Every refusal leaves the stored state (tables, outbox, inbox) exactly as it was."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from services.registration.domain import errors
from services.registration.domain.account import AccountKind
from services.registration.domain.audit import AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Standing
from services.registration.domain.knockout import FormatChange, KnockoutFormat
from services.registration.domain.tournament import Changes, RateOfPlay, Settings, Status
from services.registration.service_layer import commands
from services.registration.tests.helpers import NOW, InMemoryRegistration
from shared import events
from shared.authority import Role
from shared.commands import Actor
from shared.scoring import Outcome
from shared.seed_draw import draw_order
from shared.vocabulary import Ruleset, Seeding

AT = "2026-06-01T12:00:00Z"  # NOW on the wire


@pytest.fixture
def reg() -> InMemoryRegistration:
    return InMemoryRegistration()


@dataclass
class Cup:
    """A started knockout: its organiser, four players, an arbiter of the whole tournament and one of a
    single game, and a stranger (a registered account with no part in it)."""

    tid: uuid.UUID
    org: uuid.UUID
    players: list[uuid.UUID]
    whole: uuid.UUID
    scoped: uuid.UUID
    game: uuid.UUID
    stranger: uuid.UUID


def cup_of(reg: InMemoryRegistration, *, start: bool = True) -> Cup:
    org = reg.account("Org")
    players = [reg.account(f"P{i}", {"chess:rapid": 1600 + i}) for i in range(4)]
    tid = reg.knockout(org, players)
    whole, scoped, stranger = reg.account("Whole"), reg.account("Scoped"), reg.account("Stranger")
    game = uuid.uuid4()
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, whole))
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, scoped, frozenset({game})))
    if start:
        reg.bus.handle(commands.StartTournament(Actor(org), tid))
    return Cup(tid, org, players, whole, scoped, game, stranger)


@pytest.fixture
def cup(reg: InMemoryRegistration) -> Cup:
    return cup_of(reg)


def started_platform(reg: InMemoryRegistration) -> tuple[uuid.UUID, uuid.UUID, list[uuid.UUID]]:
    org = reg.account("Org")
    tid = reg.platform(org)
    players = [reg.account(f"P{i}") for i in range(4)]
    for p in players:
        reg.join(tid, p)
    reg.clock.advance(30 * 60)
    assert reg.bus.handle(commands.StartDueTournaments()) == 1
    return tid, org, players


def refused(reg: InMemoryRegistration, command: object, error: type[Exception]) -> Exception:
    """The command is refused with ``error`` and nothing stored changes."""
    before = reg.state()
    with pytest.raises(error) as info:
        reg.bus.handle(command)
    assert type(info.value) is error
    assert reg.state() == before
    return info.value


def payload(reg: InMemoryRegistration, kind: str) -> list[dict[str, Any]]:
    return [e.payload for e in reg.published(kind)]


def decision(by: uuid.UUID, role: str, reason: str | None = None) -> dict[str, Any]:
    return {"by": str(by), "role": role, "at": AT, "reason": reason}


# -- appointments ----------------------------------------------------------------------------------
def test_the_organiser_appoints_replaces_the_scope_and_revokes(reg: InMemoryRegistration) -> None:
    cup = cup_of(reg, start=False)
    games = sorted([uuid.uuid4(), uuid.uuid4()], key=str)
    reg.bus.handle(commands.AppointArbiter(Actor(cup.org), cup.tid, cup.whole, frozenset(games)))
    t = reg.tournament(cup.tid)
    assert t.arbiters[cup.whole].games == frozenset(games)
    assert t.authority.decides(cup.whole) is None and t.authority.decides(cup.whole, games[0]) is Role.ARBITER
    reg.bus.handle(commands.RevokeArbiter(Actor(cup.org), cup.tid, cup.scoped))
    assert set(reg.tournament(cup.tid).arbiters) == {cup.whole}
    assert payload(reg, "arbiter.appointed") == [
        {
            "tournament_id": str(cup.tid),
            "arbiter_id": str(cup.whole),
            "games": None,
            "decision": decision(cup.org, "organiser"),
        },
        {
            "tournament_id": str(cup.tid),
            "arbiter_id": str(cup.scoped),
            "games": [str(cup.game)],
            "decision": decision(cup.org, "organiser"),
        },
        {
            "tournament_id": str(cup.tid),
            "arbiter_id": str(cup.whole),
            "games": [str(g) for g in games],
            "decision": decision(cup.org, "organiser"),
        },
    ]
    assert payload(reg, "arbiter.revoked") == [
        {
            "tournament_id": str(cup.tid),
            "arbiter_id": str(cup.scoped),
            "decision": decision(cup.org, "organiser"),
        }
    ]
    log = reg.audit(cup.tid)
    assert [(e.kind, e.subject, e.by, e.role) for e in log] == [
        (AuditKind.ARBITER_APPOINTED, Subject(SubjectKind.ARBITER, cup.whole), cup.org, Role.ORGANISER),
        (AuditKind.ARBITER_APPOINTED, Subject(SubjectKind.ARBITER, cup.scoped), cup.org, Role.ORGANISER),
        (AuditKind.ARBITER_APPOINTED, Subject(SubjectKind.ARBITER, cup.whole), cup.org, Role.ORGANISER),
        (AuditKind.ARBITER_REVOKED, Subject(SubjectKind.ARBITER, cup.scoped), cup.org, Role.ORGANISER),
    ]
    assert [e.detail for e in log] == [
        "Whole appointed for the whole tournament",
        f"Scoped appointed for 1 game: {cup.game}",
        f"Whole appointed again for 2 games: {games[0]}, {games[1]}",
        "Scoped's appointment revoked",
    ]


def test_appointments_are_made_in_every_state_but_cancelled_and_completed(reg: InMemoryRegistration) -> None:
    org, ann = reg.account("Org"), reg.account("Ann")
    tid = reg.platform(org)  # scheduled
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, ann))
    cup = cup_of(reg)  # a draft and a started knockout (the fixture appointed in the draft)
    reg.bus.handle(commands.AppointArbiter(Actor(cup.org), cup.tid, ann))
    assert ann in reg.tournament(tid).arbiters and ann in reg.tournament(cup.tid).arbiters
    reg.bus.handle(commands.CancelTournament(Actor(org), tid))
    refused(reg, commands.AppointArbiter(Actor(org), tid, cup.stranger), errors.TournamentClosed)
    refused(reg, commands.RevokeArbiter(Actor(org), tid, ann), errors.TournamentClosed)
    reg.hear(
        events.TournamentCompleted(tournament_id=cup.tid, organiser_id=cup.org, rounds=2, completed_at=NOW)
    )
    refused(reg, commands.AppointArbiter(Actor(cup.org), cup.tid, cup.stranger), errors.TournamentClosed)
    refused(reg, commands.RevokeArbiter(Actor(cup.org), cup.tid, cup.whole), errors.TournamentClosed)


def test_refused_appointments_change_nothing(reg: InMemoryRegistration, cup: Cup) -> None:
    guest = reg.account("Guest", kind=AccountKind.GUEST)
    org, tid = Actor(cup.org), cup.tid
    refused(reg, commands.AppointArbiter(Actor(cup.stranger), tid, cup.stranger), errors.NotOrganiser)
    refused(reg, commands.AppointArbiter(Actor(cup.whole), tid, cup.stranger), errors.NotOrganiser)
    # the arbiter role of a token grants nothing by itself
    arbiter_token = Actor(cup.stranger, roles=frozenset({"arbiter"}))
    refused(reg, commands.AppointArbiter(arbiter_token, tid, cup.stranger), errors.NotOrganiser)
    # a stranger learns nothing about accounts: 403 before 404
    refused(reg, commands.AppointArbiter(Actor(cup.stranger), tid, uuid.uuid4()), errors.NotOrganiser)
    refused(reg, commands.AppointArbiter(org, tid, uuid.uuid4()), errors.AccountNotFound)
    refused(reg, commands.AppointArbiter(org, uuid.uuid4(), cup.stranger), errors.TournamentNotFound)
    refused(reg, commands.AppointArbiter(org, tid, guest), errors.AccountKindRefused)
    refused(reg, commands.AppointArbiter(org, tid, cup.org), errors.InvalidAppointment)
    refused(reg, commands.AppointArbiter(org, tid, cup.stranger, frozenset()), errors.InvalidAppointment)
    refused(reg, commands.RevokeArbiter(org, tid, cup.stranger), errors.ArbiterNotAppointed)
    refused(reg, commands.RevokeArbiter(Actor(cup.whole), tid, cup.scoped), errors.NotOrganiser)


# -- withdrawals and exclusions --------------------------------------------------------------------
def test_an_arbiter_of_the_whole_tournament_withdraws_a_player(reg: InMemoryRegistration, cup: Cup) -> None:
    reg.clock.advance(60)
    p = cup.players[1]
    reg.bus.handle(commands.WithdrawPlayer(Actor(cup.whole), cup.tid, p, "  ill  "))
    entry = next(e for e in reg.tournament(cup.tid).entries if e.player_id == p)
    assert entry.standing is Standing.WITHDRAWN
    assert (entry.withdrawal.reason, entry.withdrawal.at) == ("ill", NOW + dt.timedelta(seconds=60))
    at = "2026-06-01T12:01:00Z"
    (start,) = payload(reg, "tournament.started")
    assert payload(reg, "player.withdrawn") == [
        {
            "tournament_id": str(cup.tid),
            "player_id": str(p),
            "reason": "ill",
            "excluded": False,
            "decision": {"by": str(cup.whole), "role": "arbiter", "at": at, "reason": "ill"},
            "roster_revision": start["roster_revision"] + 1,  # the roster change after the start
        }
    ]
    assert reg.tournament(cup.tid).roster_revision == start["roster_revision"] + 1
    last = reg.audit(cup.tid)[-1]
    assert (last.kind, last.subject, last.by, last.role, last.reason, last.detail) == (
        AuditKind.PLAYER_WITHDRAWN,
        Subject(SubjectKind.PLAYER, p),
        cup.whole,
        Role.ARBITER,
        "ill",
        "P1 withdrawn",
    )
    refused(reg, commands.WithdrawPlayer(Actor(cup.org), cup.tid, p, "again"), errors.AlreadyWithdrawn)
    refused(
        reg, commands.WithdrawPlayer(Actor(cup.org), cup.tid, p, "now out", True), errors.AlreadyWithdrawn
    )


def test_the_organiser_excludes_a_player(reg: InMemoryRegistration, cup: Cup) -> None:
    p = cup.players[0]
    reg.bus.handle(commands.WithdrawPlayer(Actor(cup.org), cup.tid, p, "unsporting conduct", exclude=True))
    assert next(e for e in reg.tournament(cup.tid).entries if e.player_id == p).standing is Standing.EXCLUDED
    (sent,) = payload(reg, "player.withdrawn")
    assert (sent["excluded"], sent["decision"]["role"], sent["decision"]["by"]) == (
        True,
        "organiser",
        str(cup.org),
    )
    assert reg.audit(cup.tid)[-1].kind is AuditKind.PLAYER_EXCLUDED
    refused(reg, commands.WithdrawPlayer(Actor(cup.whole), cup.tid, p, "twice"), errors.AlreadyWithdrawn)


def test_refused_withdrawals_change_nothing(reg: InMemoryRegistration, cup: Cup) -> None:
    p, tid = cup.players[2], cup.tid

    def withdraw(
        actor: Actor, *, player: uuid.UUID = p, reason: str = "ill", exclude: bool = False
    ) -> object:
        return commands.WithdrawPlayer(actor, tid, player, reason, exclude)

    refused(reg, withdraw(Actor(cup.scoped)), errors.NotAnArbiterHere)  # a single game's arbiter
    refused(reg, withdraw(Actor(cup.stranger)), errors.NotAnArbiterHere)
    refused(reg, withdraw(Actor(cup.stranger, roles=frozenset({"arbiter"}))), errors.NotAnArbiterHere)
    refused(reg, withdraw(Actor(cup.stranger, roles=frozenset({"service"}))), errors.NotAnArbiterHere)
    refused(reg, withdraw(Actor(p)), errors.NotAnArbiterHere)  # the player themselves
    refused(reg, withdraw(Actor(cup.whole), exclude=True), errors.NotOrganiser)
    refused(reg, withdraw(Actor(cup.stranger), exclude=True), errors.NotOrganiser)
    refused(reg, withdraw(Actor(cup.org), reason=""), errors.ReasonRequired)
    refused(reg, withdraw(Actor(cup.org), reason=" \t\n"), errors.ReasonRequired)
    refused(reg, withdraw(Actor(cup.org), reason="x" * 501), errors.ReasonTooLong)
    refused(reg, withdraw(Actor(cup.org), player=cup.stranger), errors.PlayerNotEntered)
    refused(reg, commands.WithdrawPlayer(Actor(cup.org), uuid.uuid4(), p, "ill"), errors.TournamentNotFound)
    reg.bus.handle(commands.RevokeArbiter(Actor(cup.org), tid, cup.whole))
    refused(reg, withdraw(Actor(cup.whole)), errors.NotAnArbiterHere)  # no longer an arbiter


def test_withdrawing_needs_a_started_tournament(reg: InMemoryRegistration) -> None:
    draft = cup_of(reg, start=False)
    refused(
        reg, commands.WithdrawPlayer(Actor(draft.org), draft.tid, draft.players[0], "ill"), errors.NotStarted
    )
    org, ann = reg.account("Org2"), reg.account("Ann")
    scheduled = reg.platform(org)
    reg.join(scheduled, ann)
    refused(reg, commands.WithdrawPlayer(Actor(org), scheduled, ann, "ill", True), errors.NotStarted)
    reg.bus.handle(commands.CancelTournament(Actor(org), scheduled))
    refused(reg, commands.WithdrawPlayer(Actor(org), scheduled, ann, "ill", True), errors.TournamentClosed)
    done = cup_of(reg)
    reg.hear(
        events.TournamentCompleted(tournament_id=done.tid, organiser_id=done.org, rounds=2, completed_at=NOW)
    )
    refused(
        reg,
        commands.WithdrawPlayer(Actor(done.org), done.tid, done.players[0], "ill"),
        errors.TournamentClosed,
    )


def test_a_platform_player_cannot_leave_after_the_start_only_be_excluded(reg: InMemoryRegistration) -> None:
    tid, org, players = started_platform(reg)
    whole = reg.account("Arbiter")
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, whole))
    refused(
        reg, commands.WithdrawPlayer(Actor(org), tid, players[0], "has to go"), errors.NoLeavingAfterStart
    )
    refused(
        reg, commands.WithdrawPlayer(Actor(whole), tid, players[0], "has to go"), errors.NoLeavingAfterStart
    )
    refused(reg, commands.WithdrawPlayer(Actor(whole), tid, players[0], "abuse", True), errors.NotOrganiser)
    refused(reg, commands.LeaveTournament(Actor(players[0]), tid, players[0]), errors.RegistrationClosed)
    reg.bus.handle(commands.WithdrawPlayer(Actor(org), tid, players[0], "abuse", exclude=True))
    (sent,) = payload(reg, "player.withdrawn")
    assert (sent["player_id"], sent["excluded"], sent["reason"]) == (str(players[0]), True, "abuse")
    assert [e.standing for e in reg.tournament(tid).entries] == [Standing.EXCLUDED] + [Standing.ACTIVE] * 3


# -- who keeps the roster, who runs the tournament -------------------------------------------------
def test_the_arbiter_role_of_a_token_grants_nothing_by_itself(reg: InMemoryRegistration) -> None:
    org, ann, bea = reg.account("Org"), reg.account("Ann"), reg.account("Bea")
    global_arbiter = Actor(reg.account("Arb"), roles=frozenset({"arbiter"}))
    service = Actor(uuid.uuid4(), roles=frozenset({"service"}))
    tid = reg.platform(org)
    refused(reg, commands.JoinTournament(global_arbiter, tid, ann), errors.Forbidden)
    refused(
        reg, commands.JoinTournament(Actor(org), tid, ann), errors.Forbidden
    )  # no self-registration for others
    reg.bus.handle(commands.JoinTournament(service, tid, ann))  # the game server enters a player
    reg.join(tid, bea)
    refused(reg, commands.LeaveTournament(global_arbiter, tid, ann), errors.NotAllowed)
    refused(reg, commands.LeaveTournament(Actor(bea), tid, ann), errors.NotAllowed)
    refused(reg, commands.CancelTournament(global_arbiter, tid), errors.NotOrganiser)
    reg.bus.handle(commands.LeaveTournament(service, tid, ann))
    reg.bus.handle(commands.AppointArbiter(Actor(org), tid, global_arbiter.id))
    reg.bus.handle(commands.LeaveTournament(global_arbiter, tid, bea))  # appointed for the whole tournament
    assert reg.tournament(tid).entries == []
    refused(reg, commands.CancelTournament(global_arbiter, tid), errors.NotOrganiser)  # the organiser's alone


def test_only_the_organiser_changes_starts_and_cancels_a_draft(reg: InMemoryRegistration) -> None:
    cup = cup_of(reg, start=False)
    for actor in (Actor(cup.whole), Actor(cup.stranger, roles=frozenset({"arbiter", "service"}))):
        refused(reg, commands.ChangeTournament(actor, cup.tid, Changes(name="Mine")), errors.NotOrganiser)
        refused(reg, commands.StartTournament(actor, cup.tid), errors.NotOrganiser)
        refused(reg, commands.CancelTournament(actor, cup.tid), errors.NotOrganiser)
        refused(reg, commands.DrawSeeding(actor, cup.tid), errors.NotOrganiser)
    newcomer = reg.account("P9")
    refused(reg, commands.JoinTournament(Actor(cup.scoped), cup.tid, newcomer), errors.RosterKeptByOrganiser)
    refused(reg, commands.LeaveTournament(Actor(cup.scoped), cup.tid, cup.players[0]), errors.NotOrganiser)
    reg.bus.handle(commands.JoinTournament(Actor(cup.whole), cup.tid, newcomer))
    reg.bus.handle(commands.LeaveTournament(Actor(cup.whole), cup.tid, cup.players[0]))
    assert [e.player_id for e in reg.tournament(cup.tid).entries] == [*cup.players[1:], newcomer]


# -- the random seeding drawn on request -----------------------------------------------------------
def test_a_random_seeding_drawn_on_request_is_kept_at_the_start(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    players = [reg.account(f"P{i}") for i in range(5)]
    tid = reg.knockout(org, players[:4], seeding=Seeding.RANDOM)
    reg.DRAW_SEED = 4242
    reg.bus.handle(commands.DrawSeeding(Actor(org), tid))
    t = reg.tournament(tid)
    assert t.knockout.draw_seed == 4242
    assert t.drawn_order() == [uuid.UUID(p) for p in draw_order((str(p) for p in players[:4]), 4242)]
    refused(reg, commands.DrawSeeding(Actor(org), tid), errors.SeedingAlreadyDrawn)
    reg.join(tid, players[4], by=org)  # a player added later takes their place from the same draw
    assert reg.tournament(tid).drawn_order() == [
        uuid.UUID(p) for p in draw_order((str(p) for p in players), 4242)
    ]
    assert reg.published("tournament.started") == []  # a draft publishes nothing of its draw
    reg.DRAW_SEED = 7  # what a draw at the start would take
    reg.bus.handle(commands.StartTournament(Actor(org), tid))
    started = events.TournamentStarted.model_validate(reg.published("tournament.started")[0].payload)
    assert started.settings.knockout.draw_seed == 4242
    assert [str(r.player_id) for r in started.roster] == list(draw_order((str(p) for p in players), 4242))
    log = reg.audit(tid)
    assert [(e.kind, e.subject, e.role, e.detail) for e in log] == [
        (
            AuditKind.SEEDING_DRAWN,
            Subject(SubjectKind.TOURNAMENT, tid),
            Role.ORGANISER,
            "random seeding drawn on request: draw seed 4242",
        )
    ]
    refused(reg, commands.DrawSeeding(Actor(org), tid), errors.NotADraft)


def test_a_seeding_not_drawn_before_is_drawn_at_the_start_and_logged(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    tid = reg.knockout(org, [reg.account(f"P{i}") for i in range(4)], seeding=Seeding.RANDOM)
    reg.bus.handle(commands.StartTournament(Actor(org), tid))
    assert reg.tournament(tid).knockout.draw_seed == reg.DRAW_SEED
    (entry,) = reg.audit(tid)
    assert (entry.kind, entry.by, entry.detail) == (
        AuditKind.SEEDING_DRAWN,
        org,
        f"random seeding drawn at the start: draw seed {reg.DRAW_SEED}",
    )


def test_only_a_random_seeding_is_drawn_and_a_draw_goes_with_it(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    tid = reg.knockout(org, [reg.account(f"P{i}") for i in range(4)])  # by rating
    refused(reg, commands.DrawSeeding(Actor(org), tid), errors.SeedingNotRandom)
    reg.bus.handle(commands.ChangeTournament(Actor(org), tid, Changes(format=_seeding(Seeding.RANDOM))))
    reg.bus.handle(commands.DrawSeeding(Actor(org), tid))
    reg.bus.handle(commands.ChangeTournament(Actor(org), tid, Changes(time_control=RateOfPlay(900))))
    assert reg.tournament(tid).knockout.draw_seed == reg.DRAW_SEED  # other changes keep the draw
    reg.bus.handle(commands.ChangeTournament(Actor(org), tid, Changes(format=_seeding(Seeding.RATING))))
    t = reg.tournament(tid)
    assert (t.knockout.draw_seed, t.drawn_order()) == (None, None)
    refused(reg, commands.DrawSeeding(Actor(org), uuid.uuid4()), errors.TournamentNotFound)
    platform = reg.platform(reg.account("Org2"))
    refused(
        reg, commands.DrawSeeding(Actor(reg.tournament(platform).organiser_id), platform), errors.NotADraft
    )


def _seeding(seeding: Seeding) -> FormatChange:
    return FormatChange(seeding=seeding)


# -- a reset from pairing --------------------------------------------------------------------------
def test_a_reset_makes_a_started_knockout_a_draft_again(reg: InMemoryRegistration, cup: Cup) -> None:
    reset = events.TournamentReset(
        tournament_id=cup.tid,
        decision=events.DecisionBy(by=cup.org, role=Role.ORGANISER, at=NOW + dt.timedelta(minutes=3)),
    )
    envelope = reg.hear(reset)
    reg.subscriptions()["registration.tournament_reset"].handler(envelope, reset)  # a redelivery
    t = reg.tournament(cup.tid)
    assert (t.status, t.starts_at) == (Status.DRAFT, None)
    assert [e.player_id for e in t.entries] == cup.players and set(t.arbiters) == {cup.whole, cup.scoped}
    resets = [e for e in reg.audit(cup.tid) if e.kind is AuditKind.TOURNAMENT_RESET]
    assert [(e.by, e.role, e.subject, e.detail) for e in resets] == [
        (
            cup.org,
            Role.ORGANISER,
            Subject(SubjectKind.TOURNAMENT, cup.tid),
            "reset to its draft: round 1 undone",
        )
    ]
    # the settings are editable again, and it starts again
    reg.bus.handle(commands.ChangeTournament(Actor(cup.org), cup.tid, Changes(name="Cup, again")))
    reg.bus.handle(commands.StartTournament(Actor(cup.org), cup.tid))
    assert [e.payload["name"] for e in reg.published("tournament.started")] == ["Cup", "Cup, again"]


def test_a_reset_of_anything_else_changes_nothing_and_never_waits(reg: InMemoryRegistration) -> None:
    draft = cup_of(reg, start=False)
    platform, _, _ = started_platform(reg)
    unknown = uuid.uuid4()
    for tid in (draft.tid, platform, unknown):
        before = reg.tournament(tid)
        reg.hear(
            events.TournamentReset(
                tournament_id=tid, decision=events.DecisionBy(by=draft.org, role=Role.ORGANISER, at=NOW)
            )
        )
        assert reg.tournament(tid) == before
        assert [e.kind for e in reg.audit(tid)][-1] is AuditKind.TOURNAMENT_RESET


# -- the decisions of the other services ---------------------------------------------------------
def test_the_other_services_decisions_reach_the_audit_log_in_time_order(
    reg: InMemoryRegistration, cup: Cup
) -> None:
    g1, g2, w, b = uuid.uuid4(), uuid.uuid4(), cup.players[0], cup.players[3]

    def by(who: uuid.UUID, role: Role, minutes: int, reason: str | None = None) -> events.DecisionBy:
        return events.DecisionBy(by=who, role=role, at=NOW + dt.timedelta(minutes=minutes), reason=reason)

    common = {"tournament_id": cup.tid, "round": 1, "white": w, "black": b}
    played = events.GameFinished(
        **common, game_id=g2, outcome=Outcome.BLACK_WIN, reason="checkmate", moves=40, finished_at=NOW
    )
    heard = [
        events.GameResultCorrected(
            **common,
            game_id=g1,
            old_outcome=Outcome.WHITE_WIN,
            outcome=Outcome.DRAW,
            decision=by(cup.org, Role.ORGANISER, 30, "misreported"),
        ),
        events.GameFinished(
            **common,
            game_id=g1,
            outcome=Outcome.WHITE_WIN,
            reason="resignation",
            moves=12,
            finished_at=NOW,
            decision=by(cup.whole, Role.ARBITER, 20),
        ),
        played,  # played out on the server: no decision, nothing to log
        events.GameColoursSwapped(
            **{**common, "white": b, "black": w}, game_id=g2, decision=by(cup.scoped, Role.ARBITER, 5)
        ),
        events.ByeRequested(tournament_id=cup.tid, player_id=w, round=2, decision=by(w, Role.PLAYER, 40)),
        events.ByeTakenBack(
            tournament_id=cup.tid, player_id=w, round=2, decision=by(cup.whole, Role.ARBITER, 41)
        ),
    ]
    for event in heard:
        envelope = reg.hear(event)
    reg.subscriptions()["registration.audit"].handler(envelope, heard[-1])  # a redelivery adds nothing
    logged = [e for e in reg.audit(cup.tid) if e.at > NOW]
    assert [(e.kind, e.by, e.role, e.subject, e.detail, e.reason) for e in logged] == [
        (
            AuditKind.COLOURS_SWAPPED,
            cup.scoped,
            Role.ARBITER,
            Subject(SubjectKind.GAME, g2, 1),
            f"colours swapped: white {b}, black {w}",
            None,
        ),
        (
            AuditKind.RESULT_ENTERED,
            cup.whole,
            Role.ARBITER,
            Subject(SubjectKind.GAME, g1, 1),
            "result 1-0 (resignation)",
            None,
        ),
        (
            AuditKind.RESULT_CORRECTED,
            cup.org,
            Role.ORGANISER,
            Subject(SubjectKind.GAME, g1, 1),
            "result corrected from 1-0 to 1/2-1/2",
            "misreported",
        ),
        (
            AuditKind.BYE_REQUESTED,
            w,
            Role.PLAYER,
            Subject(SubjectKind.PLAYER, w, 2),
            "zero-point bye in round 2",
            None,
        ),
        (
            AuditKind.BYE_TAKEN_BACK,
            cup.whole,
            Role.ARBITER,
            Subject(SubjectKind.PLAYER, w, 2),
            "bye in round 2 taken back",
            None,
        ),
    ]
    # a decision about a tournament registration does not know is kept all the same, and waits for nothing
    stray = events.ByeRequested(
        tournament_id=uuid.uuid4(), player_id=w, round=1, decision=by(w, Role.PLAYER, 1)
    )
    reg.hear(stray)
    assert [e.kind for e in reg.audit(stray.tournament_id)] == [AuditKind.BYE_REQUESTED]


# -- byes on request -------------------------------------------------------------------------------
def test_byes_on_request_is_a_platform_option_off_by_default(reg: InMemoryRegistration) -> None:
    plain = reg.platform(reg.account("Org1"))
    asked = reg.platform(reg.account("Org2"), byes_on_request=True)
    assert (reg.tournament(plain).byes_on_request, reg.tournament(asked).byes_on_request) == (False, True)
    scheduled = {
        e.payload["tournament_id"]: e.payload["settings"] for e in reg.published("tournament.scheduled")
    }
    assert (scheduled[str(plain)]["byes_on_request"], scheduled[str(asked)]["byes_on_request"]) == (
        False,
        True,
    )
    for p in (reg.account(f"P{i}") for i in range(4)):
        reg.join(asked, p)
    reg.clock.advance(30 * 60)
    reg.bus.handle(commands.StartDueTournaments())
    (started,) = [
        e.payload for e in reg.published("tournament.started") if e.payload["tournament_id"] == str(asked)
    ]
    assert started["settings"]["byes_on_request"] is True


def test_a_knockout_takes_no_requested_byes(reg: InMemoryRegistration) -> None:
    org = reg.account("Org")
    settings = Settings(
        "Cup",
        None,
        RateOfPlay(600),
        ruleset=Ruleset.KNOCKOUT,
        knockout=KnockoutFormat(),
        byes_on_request=True,
    )
    err = refused(reg, commands.CreateTournament(Actor(org), settings), errors.InvalidSettings)
    assert "no requested byes" in str(err)
    tid = reg.knockout(org, [])
    assert reg.tournament(tid).byes_on_request is False


@pytest.mark.parametrize(
    "make",
    [
        lambda cup: commands.AppointArbiter(Actor(cup.whole), cup.tid, cup.stranger),
        lambda cup: commands.WithdrawPlayer(Actor(cup.scoped), cup.tid, cup.players[0], "ill"),
        lambda cup: commands.RevokeArbiter(Actor(cup.scoped), cup.tid, cup.whole),
        lambda cup: commands.DrawSeeding(Actor(cup.whole), cup.tid),
    ],
)
def test_an_arbiter_cannot_do_the_organisers_part(
    reg: InMemoryRegistration, cup: Cup, make: Callable[[Cup], object]
) -> None:
    before = reg.state()
    with pytest.raises(errors.NotAllowed):
        reg.bus.handle(make(cup))
    assert reg.state() == before


def test_results_played_out_on_the_server_cost_the_audit_nothing(reg: InMemoryRegistration, cup: Cup) -> None:
    """Most ``game.finished`` carry no decision: acknowledged without a transaction (no inbox row), in a
    batch too, where the decisions around them are recorded once each."""

    def finished(decided: bool) -> events.GameFinished:
        return events.GameFinished(
            tournament_id=cup.tid,
            game_id=uuid.uuid4(),
            round=1,
            white=cup.players[0],
            black=cup.players[3],
            outcome=Outcome.DRAW,
            reason="agreement",
            moves=30,
            finished_at=NOW,
            decision=events.DecisionBy(by=cup.whole, role=Role.ARBITER, at=NOW) if decided else None,
        )

    audit = reg.subscriptions()["registration.audit"]
    before = len(reg.audit(cup.tid))
    played = finished(False)
    audit.handler(events.wrap(played, cup.tid), played)
    assert reg.db.inbox == set() and len(reg.audit(cup.tid)) == before
    batch = [finished(d) for d in (False, True, False, True)]
    envelopes = [events.wrap(e, cup.tid) for e in batch]
    assert audit.batch_handler is not None
    assert audit.batch_handler(list(zip(envelopes, batch, strict=True))) == [None] * 4
    redelivered = audit.batch_handler(list(zip(envelopes, batch, strict=True)))
    assert redelivered == [None, "duplicate", None, "duplicate"]  # the decisions' inbox stops them
    assert reg.db.inbox == {(envelopes[1].id, "registration.audit"), (envelopes[3].id, "registration.audit")}
    logged = reg.audit(cup.tid)[before:]
    assert [e.subject.id for e in logged] == [batch[1].game_id, batch[3].game_id]


def test_a_player_withdrawn_before_a_reset_stays_withdrawn(reg: InMemoryRegistration) -> None:
    """A withdrawal is irreversible: after a reset to the draft (possible when the player had a round-1
    bye, so no game has a result) the player is not seeded when the draft starts again, and leaves the
    custom order."""
    org = reg.account("Org")
    players = [reg.account(f"P{i}") for i in range(5)]
    order = tuple(reversed(players))
    tid = reg.knockout(org, players)
    custom = Changes(format=FormatChange(seeding=Seeding.CUSTOM, custom_order=order))
    reg.bus.handle(commands.ChangeTournament(Actor(org), tid, custom))
    reg.bus.handle(commands.StartTournament(Actor(org), tid))
    reg.bus.handle(commands.WithdrawPlayer(Actor(org), tid, players[2], "left the club"))
    decided = events.DecisionBy(by=org, role=Role.ORGANISER, at=NOW)
    reg.hear(events.TournamentReset(tournament_id=tid, decision=decided))
    assert reg.tournament(tid).entries[2].standing is Standing.WITHDRAWN
    refused(reg, commands.WithdrawPlayer(Actor(org), tid, players[2], "again"), errors.NotStarted)
    reg.bus.handle(commands.StartTournament(Actor(org), tid))
    restarted = events.TournamentStarted.model_validate(reg.published("tournament.started")[-1].payload)
    assert [r.player_id for r in restarted.roster] == [p for p in order if p != players[2]]
    assert [r.seed for r in restarted.roster] == [1, 2, 3, 4]
