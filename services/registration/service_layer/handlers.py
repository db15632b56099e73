"""Command handlers: load, check who asks, call the domain, save, in one unit of work. The tournaments
record what happened; the unit of work writes those events to the outbox at commit, and the decisions
they recorded go to the audit log with them.

Who asks is the token's account (``Actor``): the tournament's organiser, an arbiter the organiser
appointed (``Tournament.official``: for the whole tournament), a player, or the ``service`` principal
(the game server). The ``arbiter`` role of a token grants nothing by itself."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

from services.registration.domain import errors, player_lists, rulesets
from services.registration.domain.account import Account
from services.registration.domain.entries import Entry
from services.registration.domain.passwords import InviteLink, InviteLinkInvalid
from services.registration.domain.ratings import PlayerRating, RatedGame, rate
from services.registration.domain.rulesets import arena, fide_rapid, group_playoff
from services.registration.domain.rulesets import knockout as knockout_draft
from services.registration.domain.rulesets.arena import ARENA_MINUTES
from services.registration.domain.tournament import Entering, Tournament
from services.registration.service_layer import commands
from services.registration.service_layer.ports import UnitOfWork
from shared.openings import OpeningTable
from shared.seed_draw import new_draw_seed
from shared.timesource import TimeSource


def _get(uow: UnitOfWork, tournament_id: uuid.UUID) -> Tournament:
    """The tournament, locked: its handlers serialise on it."""
    t = uow.tournaments.get(tournament_id, lock=True)
    if t is None:
        raise errors.TournamentNotFound(f"no tournament {tournament_id}")
    return t


def _account(uow: UnitOfWork, account_id: uuid.UUID) -> Account:
    account = uow.accounts.get(account_id)
    if account is None:
        raise errors.AccountNotFound(f"no account {account_id}; accounts are registered before they play")
    return account


class Handlers:
    """Built by bootstrap with the clock and the settings they need."""

    def __init__(
        self,
        clock: TimeSource,
        min_lead: dt.timedelta,
        draw_seed: Callable[[], int] = new_draw_seed,
        italian: OpeningTable | None = None,
        *,
        arena_min_minutes: int = ARENA_MINUTES[0],
        new_id: Callable[[], uuid.UUID] = uuid.uuid4,
    ) -> None:
        """``new_id``: where new tournaments and players entered by hand get their ids (random in
        production; the embedded demos draw them from their seed, so that a run can be repeated)."""
        self.clock = clock
        self.new_id = new_id
        self.italian = italian  # the Italian opening table, where one is configured
        self.min_lead = min_lead
        self.draw_seed = draw_seed
        self.arena_min_minutes = arena_min_minutes

    def table(self) -> dict[type, Callable[[Any, UnitOfWork], Any]]:
        return {
            commands.RegisterAccount: self.register_account,
            commands.CreateTournament: self.create_tournament,
            commands.JoinTournament: self.join,
            commands.LeaveTournament: self.leave,
            commands.PauseEntry: self.pause,
            commands.CancelTournament: self.cancel,
            commands.StartDueTournaments: self.start_due,
            commands.ChangeTournament: self.change,
            commands.StartTournament: self.start,
            commands.AppointArbiter: self.appoint,
            commands.RevokeArbiter: self.revoke,
            commands.WithdrawPlayer: self.withdraw,
            commands.DrawSeeding: self.draw_seeding,
            commands.AddPlayer: self.add_player,
            commands.ImportPlayers: self.import_players,
            commands.ChangePlayer: self.change_player,
            commands.RemovePlayer: self.remove_player,
            commands.ConfirmEntry: self.confirm,
            commands.CreateInvite: self.create_invite,
            commands.RevokeInvite: self.revoke_invite,
            commands.RefuseEntry: self.refuse,
        }

    def register_account(self, cmd: commands.RegisterAccount, uow: UnitOfWork) -> Account:
        with uow:
            account = Account.register(cmd.account_id, cmd.name, cmd.kind, cmd.ratings, now=self.clock.now())
            uow.accounts.add(account)  # AccountExists if the id is taken, also concurrently
            uow.commit()
            return account

    def create_tournament(self, cmd: commands.CreateTournament, uow: UnitOfWork) -> Tournament:
        with uow:
            organiser = _account(uow, cmd.actor.id)
            t = rulesets.create(
                organiser,
                cmd.settings,
                now=self.clock.now(),
                min_lead=self.min_lead,
                arena_min_minutes=self.arena_min_minutes,
                organiser_busy=rulesets.one_per_organiser(cmd.settings.ruleset)
                and uow.tournaments.organiser_busy(organiser.id),
                tournament_id=cmd.tournament_id or self.new_id(),
                italian=self.italian,
            )
            uow.tournaments.add(t)  # OrganiserBusy if a concurrent creation got there first
            uow.commit()
            return t

    def join(self, cmd: commands.JoinTournament, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            actor = cmd.actor
            entering = t.settings.entering
            if entering is Entering.OFFICIALS and t.official(actor.id) is None:
                raise errors.RosterKeptByOrganiser(
                    "the organiser (or an arbiter of the whole tournament) keeps a knockout's roster"
                )
            official = entering is Entering.EITHER and t.official(actor.id) is not None
            if (
                entering is not Entering.OFFICIALS
                and actor.id != cmd.player_id
                and not actor.is_service
                and not official
            ):
                raise errors.Forbidden("players join themselves (the game server may enter them)")
            account = _account(uow, cmd.player_id)
            if entering is Entering.OFFICIALS:
                knockout_draft.add_player(t, account, now=self.clock.now())
            else:  # a fide-rapid entry an official makes is confirmed at once
                now = self.clock.now()
                if cmd.invite is not None:
                    link = uow.invites.get(cmd.invite)
                    if link is None:
                        raise InviteLinkInvalid("this invite link is not one of this tournament's")
                    link.admit(cmd.invite, t.id, now=now)  # 403 when revoked or expired
                t.join(
                    account,
                    now=now,
                    password=cmd.password,
                    profile=cmd.profile,
                    confirmed=official,
                    creates_games=cmd.creates_games,
                    invited=cmd.invite is not None,
                )
            uow.tournaments.save(t)
            uow.commit()
            return t

    def create_invite(self, cmd: commands.CreateInvite, uow: UnitOfWork) -> InviteLink:
        """Only the organiser of a private `platform` tournament, before its start."""
        with uow:
            t = _get(uow, cmd.tournament_id)
            _invites_of(t, cmd.actor)
            link = InviteLink.issue(t.id, by=cmd.actor.id, now=self.clock.now(), valid_for=cmd.valid_for)
            uow.invites.add(link)
            uow.commit()
            return link

    def revoke_invite(self, cmd: commands.RevokeInvite, uow: UnitOfWork) -> InviteLink:
        """Revoking a link twice changes nothing; a link of another tournament is not found here."""
        with uow:
            t = _get(uow, cmd.tournament_id)
            _invites_of(t, cmd.actor)
            link = uow.invites.get(cmd.token)
            if link is None or link.tournament_id != t.id:
                raise errors.NotFound(f"no invite link {cmd.token!r} in this tournament")
            revoked = link.revoke(self.clock.now())
            uow.invites.save(revoked)
            uow.commit()
            return revoked

    def leave(self, cmd: commands.LeaveTournament, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            actor = cmd.actor
            official = t.official(actor.id) is not None
            if t.settings.entering is Entering.OFFICIALS and not official:
                raise errors.NotOrganiser(
                    "only the organiser (or an arbiter of the whole tournament) changes a knockout's roster"
                )
            if actor.id != cmd.player_id and not official and not actor.is_service:
                raise errors.NotAllowed("only the player (or the organiser) can withdraw this entry")
            t.leave(cmd.player_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def pause(self, cmd: commands.PauseEntry, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            actor = cmd.actor
            if actor.id != cmd.player_id and t.official(actor.id) is None and not actor.is_service:
                raise errors.NotAllowed("only the player (or the organiser) can pause this entry")
            arena.pause(t, cmd.player_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def cancel(self, cmd: commands.CancelTournament, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.require_organiser(cmd.actor.id, "cancel it")
            t.cancel(now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def change(self, cmd: commands.ChangeTournament, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.require_organiser(cmd.actor.id, "change its settings")
            t.change(cmd.changes)
            uow.tournaments.save(t)
            uow.commit()
            return t

    def start(self, cmd: commands.StartTournament, uow: UnitOfWork) -> Tournament:
        """Start a knockout draft (its organiser), a fide-rapid event (its organiser or an arbiter of the
        whole event) or a group-playoff event (its organiser, the groups' lot seed drawn now): fix the
        roster and its seeds; pairing pairs round 1 on ``tournament.started``."""
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.start_on_request(
                cmd.actor.id, self.clock.now(), accounts=uow.accounts.get_many, draw_seed=self.draw_seed
            )
            uow.tournaments.save(t)
            uow.commit()
            return t

    def appoint(self, cmd: commands.AppointArbiter, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.require_organiser(cmd.actor.id, "appoint arbiters")  # before saying whether the account exists
            t.appoint(cmd.actor.id, _account(uow, cmd.account_id), cmd.games, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def revoke(self, cmd: commands.RevokeArbiter, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.revoke(cmd.actor.id, cmd.arbiter_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def withdraw(self, cmd: commands.WithdrawPlayer, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.withdraw(
                cmd.actor.id, cmd.player_id, reason=cmd.reason, exclude=cmd.exclude, now=self.clock.now()
            )
            uow.tournaments.save(t)
            uow.commit()
            return t

    def draw_seeding(self, cmd: commands.DrawSeeding, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            knockout_draft.draw_seeding(t, cmd.actor.id, self.draw_seed(), now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    # -- a fide-rapid event's players ---------------------------------------------------------------
    def add_player(self, cmd: commands.AddPlayer, uow: UnitOfWork) -> Entry:
        with uow:
            t = _get(uow, cmd.tournament_id)
            player_id = cmd.player_id or self.new_id()
            entry = fide_rapid.add_person(t, cmd.actor.id, cmd.person, player_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return entry

    def import_players(self, cmd: commands.ImportPlayers, uow: UnitOfWork) -> list[Entry]:
        """The whole list is read (a bad line: InvalidPlayerLine) and checked before anything is entered."""
        with uow:
            t = _get(uow, cmd.tournament_id)
            fide_rapid.check_import(t, cmd.actor.id)  # who and when, before reading what they sent
            people = player_lists.read(cmd.text, cmd.format)
            ids = [self.new_id() for _ in people]
            source = f"a {cmd.format.value.upper()} list"
            entered = fide_rapid.import_people(
                t, cmd.actor.id, people, ids, source=source, now=self.clock.now()
            )
            uow.tournaments.save(t)
            uow.commit()
            return entered

    def change_player(self, cmd: commands.ChangePlayer, uow: UnitOfWork) -> Entry:
        with uow:
            t = _get(uow, cmd.tournament_id)
            entry = fide_rapid.change_player(t, cmd.actor.id, cmd.player_id, cmd.change, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return entry

    def remove_player(self, cmd: commands.RemovePlayer, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            fide_rapid.remove_player(t, cmd.actor.id, cmd.player_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def refuse(self, cmd: commands.RefuseEntry, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            group_playoff.refuse(t, cmd.actor.id, cmd.player_id, reason=cmd.reason, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def confirm(self, cmd: commands.ConfirmEntry, uow: UnitOfWork) -> Tournament:
        with uow:
            t = _get(uow, cmd.tournament_id)
            t.confirm(cmd.actor.id, cmd.player_id, now=self.clock.now())
            uow.tournaments.save(t)
            uow.commit()
            return t

    def start_due(self, cmd: commands.StartDueTournaments, uow: UnitOfWork) -> int:
        """Each tournament is started in its own transaction, locked, so two schedulers never both start it."""
        now = self.clock.now()
        with uow:
            due = uow.tournaments.due(now, limit=cmd.limit)
        started = 0
        for tournament_id in due:
            with uow:
                t = _get(uow, tournament_id)
                if not t.due(now):  # another scheduler was first
                    continue
                t.start(now)  # or cancel it for too few players
                uow.tournaments.save(t)
                uow.commit()
                started += 1
        return started

    # -- events from other services ---------------------------------------------------------------
    def on_tournament_completed(self, cmd: commands.CompleteTournament, uow: UnitOfWork) -> None:
        """The organiser is free to open another competition (in the consumer's unit of work)."""
        t = uow.tournaments.get(cmd.tournament_id, lock=True)
        if t is None:
            return
        if t.complete():
            uow.tournaments.save(t)

    def on_tournament_reset(self, cmd: commands.ResetTournament, uow: UnitOfWork) -> None:
        """A knockout back to its draft, and the reset in its audit log. Never waits: a reset of a
        tournament that is not a started knockout (repeated, or unknown) changes nothing but the log."""
        t = uow.tournaments.get(cmd.tournament_id, lock=True)
        if t is not None and knockout_draft.reset_to_draft(t):
            uow.tournaments.save(t)
        uow.audit.add([cmd.entry])

    def on_decision(self, cmd: commands.RecordDecision | None, uow: UnitOfWork) -> None:
        """A decision another service took, appended to the audit log whatever the tournament's state
        (it may arrive before or after anything else; nothing waits for it)."""
        if cmd is not None:
            uow.audit.add([cmd.entry])

    def on_round_paired(self, cmd: commands.RecordRoundPaired, uow: UnitOfWork) -> None:
        """Remember the last round pairing announced, for the round late entries play from. Any other
        tournament's rounds, and a tournament registration does not know, change nothing."""
        t = uow.tournaments.get(cmd.tournament_id, lock=True)
        if t is not None and fide_rapid.round_paired(t, cmd.round):
            uow.tournaments.save(t)

    def on_game_finished(self, cmd: commands.RateGame, uow: UnitOfWork) -> None:
        """A finished game moves both players' Glicko-2 ratings in the tournament's variant and speed
        class when it is rated (``ratings.py``), each published as ``rating.updated``. A game heard
        before, or of a tournament registration does not know, changes nothing."""
        t = uow.tournaments.rating_terms(cmd.tournament_id)
        if t is None:
            return
        accounts = {a.id: a for a in uow.accounts.get_many((cmd.white, cmd.black))}
        game = RatedGame(
            cmd.game_id,
            cmd.tournament_id,
            cmd.outcome,
            cmd.finished_at,
            t.ruleset,
            t.rated,
            cmd.rated,
            cmd.both_moved,
            cmd.moves,
            accounts=len(accounts) == 2,
        )
        key = t.key
        decision = game.decision()
        if not uow.ratings.first_hearing(game, key, decision) or not decision.moves:
            return
        first, second = sorted((cmd.white, cmd.black))  # one lock order for every consumer
        held = {p: _rating(uow, p, key, accounts[p]) for p in (first, second)}
        white, black = held[cmd.white], held[cmd.black]
        rate(game, white, black)
        uow.ratings.save(white)
        uow.ratings.save(black)

    def on_absence_unexcused(self, cmd: commands.WithdrawAbsentPlayer, uow: UnitOfWork) -> None:
        """Withdraw the player (FIDE C.04.2) through the normal path: ``player.withdrawn`` and the audit
        log, decided by the rules (role ``service``). A repeat, or a player gone already, changes nothing."""
        t = uow.tournaments.get(cmd.tournament_id, lock=True)
        if t is None:
            return
        if fide_rapid.withdraw_absent(t, cmd.player_id, cmd.round, now=self.clock.now()) is not None:
            uow.tournaments.save(t)


def _rating(uow: UnitOfWork, account_id: uuid.UUID, key: str, account: Account) -> PlayerRating:
    """The account's rating under ``key``, locked; its first one if it has none yet."""
    found = uow.ratings.get(account_id, key, lock=True)
    return found if found is not None else PlayerRating.first(account_id, key, account.ratings.get(key))


def _invites_of(t: Tournament, actor: commands.Actor) -> None:
    """Invite links are the organiser's, for a private `platform` tournament not started yet."""
    if actor.id != t.organiser_id:
        raise errors.NotOrganiser("only the organiser of this tournament makes and revokes its invite links")
    if not t.private:
        raise errors.NotPrivate("invite links are for private tournaments (set a password)")
