"""Command and event handlers: load, ask the domain, save, publish, in one unit of work."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from services.registration.domain import errors, knockout
from services.registration.domain.model import Account, Seeded, Tournament
from services.registration.service_layer import commands
from services.registration.service_layer.unit_of_work import RegistrationUnitOfWork
from shared import events
from shared.seed_draw import new_draw_seed
from shared.time_control import clock_dict
from shared.timesource import Clock


def _settings_event(t: Tournament) -> events.TournamentSettings:
    tc = t.time_control
    return events.TournamentSettings(
        ruleset=t.ruleset,
        variant=t.variant,
        threshold=t.threshold,
        double_rounds=t.double_rounds,
        extra_round=t.extra_round,
        rated=t.rated,
        time_control=events.TimeControl(
            base_seconds=tc.base_seconds,
            increment_seconds=tc.increment_seconds,
            days_per_move=tc.days_per_move,
        ),
        knockout=_knockout_event(t),
    )


def _knockout_event(t: Tournament) -> events.KnockoutSettings | None:
    fmt = t.knockout
    if fmt is None:
        return None
    plan = fmt.tiebreak_plan
    return events.KnockoutSettings(
        format=knockout.FORMAT_OF_RULESET[t.ruleset],
        games_per_match=fmt.games_per_match,
        seeding=fmt.seeding.value,
        draw_seed=fmt.draw_seed,
        third_place=fmt.third_place,
        second_final=fmt.second_final,
        tiebreak_plan=events.TieBreakPlan(
            stages=[
                events.TieBreakStage(
                    games=s.games, time_control=events.TimeControl(**clock_dict(s.time_control))
                )
                for s in plan.stages
            ],
            sudden_death=events.TimeControl(**clock_dict(plan.sudden_death)),
        ),
    )


def _started_event(t: Tournament, roster: list[Seeded], now: dt.datetime) -> events.TournamentStarted:
    return events.TournamentStarted(
        tournament_id=t.id,
        organiser_id=t.organiser_id,
        name=t.name,
        started_at=now,
        settings=_settings_event(t),
        roster=[
            events.RosterEntry(seed=s.seed, player_id=s.player_id, name=s.name, rating=s.rating)
            for s in roster
        ],
    )


def _require_organiser(t: Tournament, actor: commands.Actor, action: str) -> None:
    if actor.id != t.organiser_id and not actor.staff:
        raise errors.NotOrganiser(f"only the organiser of this tournament may {action}")


def _get(uow: RegistrationUnitOfWork, tournament_id: uuid.UUID, *, lock: bool = False) -> Tournament:
    t = uow.tournaments.get(tournament_id, lock=lock)
    if t is None:
        raise errors.TournamentNotFound(f"no tournament {tournament_id}")
    return t


def _account(uow: RegistrationUnitOfWork, account_id: uuid.UUID) -> Account:
    account = uow.accounts.get(account_id)
    if account is None:
        raise errors.AccountNotFound(f"no account {account_id}; accounts are registered before they play")
    return account


class Handlers:
    """Built by bootstrap with the clock and the settings they need."""

    def __init__(
        self, clock: Clock, min_lead: dt.timedelta, draw_seed: Callable[[], int] = new_draw_seed
    ) -> None:
        self.clock = clock
        self.min_lead = min_lead
        self.draw_seed = draw_seed

    def table(self) -> dict[type, Callable[[Any, RegistrationUnitOfWork], Any]]:
        return {
            commands.RegisterAccount: self.register_account,
            commands.CreateTournament: self.create_tournament,
            commands.JoinTournament: self.join,
            commands.LeaveTournament: self.leave,
            commands.CancelTournament: self.cancel,
            commands.StartDueTournaments: self.start_due,
            commands.ChangeTournament: self.change,
            commands.StartTournament: self.start,
        }

    def register_account(self, cmd: commands.RegisterAccount, uow: RegistrationUnitOfWork) -> Account:
        with uow:
            if uow.accounts.get(cmd.account_id) is not None:
                raise errors.AccountExists(f"account {cmd.account_id} exists")
            account = Account(cmd.account_id, cmd.name, cmd.kind, dict(cmd.ratings))
            uow.accounts.add(account, self.clock.now())
            try:
                uow.commit()
            except sa.exc.IntegrityError:  # the same account registered concurrently
                raise errors.AccountExists(f"account {cmd.account_id} exists") from None
            return account

    def create_tournament(self, cmd: commands.CreateTournament, uow: RegistrationUnitOfWork) -> Tournament:
        with uow:
            organiser = _account(uow, cmd.actor.id)
            t = Tournament.create(
                organiser,
                cmd.settings,
                now=self.clock.now(),
                min_lead=self.min_lead,
                organiser_busy=not knockout.is_knockout(cmd.settings.ruleset)
                and uow.tournaments.organiser_busy(organiser.id),
                tournament_id=cmd.tournament_id,
            )
            uow.tournaments.add(t)
            if t.starts_at is None:  # a knockout draft: nothing is scheduled
                uow.commit()
                return t
            uow.publish(
                events.TournamentScheduled(
                    tournament_id=t.id,
                    organiser_id=t.organiser_id,
                    name=t.name,
                    starts_at=t.starts_at,
                    seats=t.seats,
                    minimum=t.minimum,
                    settings=_settings_event(t),
                ),
                t.id,
            )
            try:
                uow.commit()
            except sa.exc.IntegrityError:  # the partial unique index saw a concurrent creation
                raise errors.OrganiserBusy("you already run a competition") from None
            return t

    def join(self, cmd: commands.JoinTournament, uow: RegistrationUnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id, lock=True)
            actor = cmd.actor
            if t.is_knockout and actor.id != t.organiser_id and not actor.staff:
                raise errors.RosterKeptByOrganiser("the organiser keeps a knockout's roster")
            if not t.is_knockout and actor.id != cmd.player_id and not actor.staff:
                raise errors.Forbidden("this needs one of the roles: arbiter, service")
            account = _account(uow, cmd.player_id)
            if t.is_knockout:
                entry = t.add_player(account, now=self.clock.now())
            else:
                entry = t.join(account, now=self.clock.now(), password=cmd.password)
            uow.tournaments.save(t)
            uow.publish(
                events.PlayerJoined(
                    tournament_id=t.id, player_id=entry.player_id, name=entry.name, rating=entry.rating
                ),
                t.id,
            )
            uow.commit()
            return t

    def leave(self, cmd: commands.LeaveTournament, uow: RegistrationUnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id, lock=True)
            if t.is_knockout:
                _require_organiser(t, cmd.actor, "change its roster")
            if cmd.actor.id != cmd.player_id and cmd.actor.id != t.organiser_id and not cmd.actor.staff:
                raise errors.NotAllowed("only the player (or the organiser) can withdraw this entry")
            t.leave(cmd.player_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.publish(events.PlayerLeft(tournament_id=t.id, player_id=cmd.player_id), t.id)
            uow.commit()
            return t

    def cancel(self, cmd: commands.CancelTournament, uow: RegistrationUnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id, lock=True)
            _require_organiser(t, cmd.actor, "cancel it")
            t.cancel(now=self.clock.now())
            uow.tournaments.save(t)
            uow.publish(
                events.TournamentCancelled(
                    tournament_id=t.id,
                    reason="organiser",
                    detail=t.status_reason or "",
                    present=len(t.entries),
                ),
                t.id,
            )
            uow.commit()
            return t

    def change(self, cmd: commands.ChangeTournament, uow: RegistrationUnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id, lock=True)
            _require_organiser(t, cmd.actor, "change its settings")
            t.change(cmd.changes)
            uow.tournaments.save(t)
            uow.commit()
            return t

    def start(self, cmd: commands.StartTournament, uow: RegistrationUnitOfWork) -> Tournament:
        """Start a knockout draft: fix the roster and its seeds; pairing pairs round 1 on
        ``tournament.started``."""
        now = self.clock.now()
        with uow:
            t = _get(uow, cmd.tournament_id, lock=True)
            _require_organiser(t, cmd.actor, "start it")
            ratings = uow.accounts.ratings([e.player_id for e in t.entries])
            roster = t.start_knockout(now, ratings, self.draw_seed())
            uow.tournaments.save(t)
            uow.publish(_started_event(t, roster, now), t.id)
            uow.commit()
            return t

    def start_due(self, cmd: commands.StartDueTournaments, uow: RegistrationUnitOfWork) -> int:
        """Each tournament is started in its own transaction, locked, so two schedulers never both start it."""
        now = self.clock.now()
        with uow:
            due = uow.tournaments.due(now, limit=cmd.limit)
        started = 0
        for tournament_id in due:
            with uow:
                t = _get(uow, tournament_id, lock=True)
                if not t.due(now):
                    continue
                roster = t.start(now)
                uow.tournaments.save(t)
                if roster is None:
                    uow.publish(
                        events.TournamentCancelled(
                            tournament_id=t.id,
                            reason="too_few_players",
                            detail=t.status_reason or "",
                            present=len(t.entries),
                        ),
                        t.id,
                    )
                else:
                    uow.publish(_started_event(t, roster, now), t.id)
                uow.commit()
                started += 1
        return started

    # -- events from other services ---------------------------------------------------------------
    def on_tournament_completed(self, event: events.TournamentCompleted, uow: RegistrationUnitOfWork) -> None:
        """The organiser is free to open another competition."""
        t = uow.tournaments.get(event.tournament_id, lock=True)
        if t is None:
            return
        if t.complete():
            uow.tournaments.save(t)
