"""The SQL repositories: one per aggregate, translating between the tables and the domain objects, and
driver errors into domain errors. Statements are built once; a call only binds its values."""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from services.registration.adapters.orm import (
    accounts,
    arbiters,
    audit_log,
    entries,
    glicko_ratings,
    invite_links,
    rated_games,
    tournaments,
)
from services.registration.domain import errors
from services.registration.domain.account import Account, AccountKind
from services.registration.domain.audit import AuditEntry, AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Arbiter, Entry, Standing, Withdrawal
from services.registration.domain.fide import ClockKeeping, FideFormat, LateEntryBye, PairingSystem
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.passwords import InviteLink
from services.registration.domain.players import Profile, Sex, Title
from services.registration.domain.rating import Glicko2Rating, RatingDecision
from services.registration.domain.ratings import PlayerRating, RatedGame
from services.registration.domain.rulesets import settings_of
from services.registration.domain.tournament import (
    RateOfPlay,
    RatingTerms,
    RulesetFields,
    Status,
    Tournament,
    terms_key,
)
from shared.authority import Role
from shared.database import aware, aware_or_none
from shared.repository import Repository
from shared.time_control import TieBreakSchedule
from shared.vocabulary import Ruleset, Seeding

RUNNING_ORGANISER_INDEX = "uq_tournaments_running_organiser"
FIDE_ID_INDEX = "uq_entries_fide_id"
PROFILE_COLUMNS = (
    "fide_id",
    "federation",
    "title",
    "sex",
    "birth_year",
    "rating_standard",
    "rating_rapid",
)
RUNNING = (Status.SCHEDULED.value, Status.STARTED.value)

_ACCOUNT = sa.select(accounts).where(accounts.c.id == sa.bindparam("account_id"))
_ACCOUNT_LOCKED = _ACCOUNT.with_for_update()
_ACCOUNTS = sa.select(accounts).where(accounts.c.id.in_(sa.bindparam("ids", expanding=True)))
_ADD_ACCOUNT = sa.insert(accounts).values({c.name: sa.bindparam(c.name) for c in accounts.c})

_TOURNAMENT = sa.select(tournaments).where(tournaments.c.id == sa.bindparam("tournament_id"))
_TOURNAMENT_LOCKED = _TOURNAMENT.with_for_update()
_RATING_TERMS = sa.select(
    tournaments.c.ruleset,
    tournaments.c.rated,
    tournaments.c.variant,
    tournaments.c.base_seconds,
    tournaments.c.increment_seconds,
    tournaments.c.days_per_move,
).where(tournaments.c.id == sa.bindparam("tournament_id"))
_ENTRIES = (
    sa.select(entries)
    .where(entries.c.tournament_id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(entries.c.joined_at, entries.c.name, entries.c.player_id)  # the same instant: by name
)
_ADD_TOURNAMENT = sa.insert(tournaments).values({c.name: sa.bindparam(c.name) for c in tournaments.c})
_SAVE_TOURNAMENT = (
    sa.update(tournaments)
    .where(tournaments.c.id == sa.bindparam("tournament_id"))
    .values(
        {
            c.name: sa.bindparam(c.name)
            for c in tournaments.c
            if c.name not in ("id", "organiser_id", "created_at")
        }
    )
)
_ENTER = sa.insert(entries).values({c.name: sa.bindparam(c.name) for c in entries.c})
_WITHDRAW = (
    sa.update(entries)
    .where(
        entries.c.tournament_id == sa.bindparam("entry_tournament"),
        entries.c.player_id == sa.bindparam("entry_player"),
    )
    .values(
        standing=sa.bindparam("standing"),
        withdrawn_at=sa.bindparam("withdrawn_at"),
        withdrawal_reason=sa.bindparam("withdrawal_reason"),
    )
)
_CHANGE_ENTRY = (
    sa.update(entries)
    .where(
        entries.c.tournament_id == sa.bindparam("entry_tournament"),
        entries.c.player_id == sa.bindparam("entry_player"),
    )
    .values(
        {
            c.name: sa.bindparam(c.name)
            for c in entries.c
            if c.name not in ("tournament_id", "player_id", "joined_at", "by_hand")
        }
    )
)
_ARBITERS = (
    sa.select(arbiters)
    .where(arbiters.c.tournament_id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(arbiters.c.appointed_at, arbiters.c.account_id)
)
_APPOINT = sa.insert(arbiters).values({c.name: sa.bindparam(c.name) for c in arbiters.c})
_UNAPPOINT = sa.delete(arbiters).where(
    arbiters.c.tournament_id == sa.bindparam("tournament_id"),
    arbiters.c.account_id.in_(sa.bindparam("accounts", expanding=True)),
)
_AUDIT = sa.insert(audit_log).values({c.name: sa.bindparam(c.name) for c in audit_log.c if c.name != "id"})
_AUDIT_OF = (
    sa.select(audit_log)
    .where(audit_log.c.tournament_id == sa.bindparam("tournament_id"))
    .order_by(audit_log.c.at, audit_log.c.id)
)
_REMOVE = sa.delete(entries).where(
    entries.c.tournament_id == sa.bindparam("tournament_id"),
    entries.c.player_id.in_(sa.bindparam("players", expanding=True)),
)
_RERATE = (
    sa.update(entries)
    .where(
        entries.c.tournament_id == sa.bindparam("entry_tournament"),
        entries.c.player_id == sa.bindparam("entry_player"),
    )
    .values(rating=sa.bindparam("rating"))
)
_DUE = (
    sa.select(tournaments.c.id)
    .where(tournaments.c.status == Status.SCHEDULED.value, tournaments.c.starts_at <= sa.bindparam("now"))
    .order_by(tournaments.c.starts_at)
    .limit(sa.bindparam("limit"))
)
# the competitions of which an organiser runs one at a time (RULES.md §2, §3)
SELF_REGISTERED = (Ruleset.PLATFORM.value, Ruleset.ARENA.value)
_BUSY = sa.select(sa.func.count()).where(
    tournaments.c.organiser_id == sa.bindparam("organiser_id"),
    tournaments.c.status.in_(RUNNING),
    tournaments.c.ruleset.in_(SELF_REGISTERED),
)


def unique_violation(exc: sa.exc.IntegrityError) -> str | None:
    """What a unique violation names: the constraint or index (PostgreSQL), or the columns
    (SQLite: ``table.column``); None for any other integrity error."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23505":
        diag = getattr(orig, "diag", None)
        return str(getattr(diag, "constraint_name", "") or "")
    text = str(orig)
    prefix = "UNIQUE constraint failed: "
    return text[len(prefix) :] if text.startswith(prefix) else None


class AccountRepository(Repository[uuid.UUID, Account]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, account_id: uuid.UUID, *, lock: bool) -> Account | None:
        query = _ACCOUNT_LOCKED if lock else _ACCOUNT
        row = self.session.execute(query, {"account_id": account_id}).first()
        return None if row is None else account_of(row)

    def get_many(self, account_ids: Iterable[uuid.UUID]) -> list[Account]:
        ids = list(account_ids)
        if not ids:
            return []
        return self._handed_out(account_of(row) for row in self.session.execute(_ACCOUNTS, {"ids": ids}))

    def _insert(self, account: Account) -> None:
        if account.created_at is None:
            raise ValueError("an account is added with the time it was registered")
        try:
            self.session.execute(
                _ADD_ACCOUNT,
                {
                    "id": account.id,
                    "name": account.name,
                    "kind": account.kind.value,
                    "ratings": account.ratings,
                    "created_at": account.created_at,
                },
            )
        except sa.exc.IntegrityError as exc:
            if unique_violation(exc) is None:
                raise
            raise errors.AccountExists(f"account {account.id} exists") from None


_RATING = sa.select(glicko_ratings).where(
    glicko_ratings.c.account_id == sa.bindparam("account_id"), glicko_ratings.c.key == sa.bindparam("key")
)
_RATING_LOCKED = _RATING.with_for_update()
_ADD_RATING = sa.insert(glicko_ratings)
_SAVE_RATING = (
    sa.update(glicko_ratings)
    .where(glicko_ratings.c.account_id == sa.bindparam("a"), glicko_ratings.c.key == sa.bindparam("k"))
    .values(
        rating=sa.bindparam("rating"),
        deviation=sa.bindparam("deviation"),
        volatility=sa.bindparam("volatility"),
        games=sa.bindparam("games"),
        updated_at=sa.bindparam("updated_at"),
    )
)
_SET_SHOWN = sa.update(accounts).where(accounts.c.id == sa.bindparam("a")).values(ratings=sa.bindparam("r"))
_HEARD = sa.select(rated_games.c.game_id).where(rated_games.c.game_id == sa.bindparam("g"))
_HEAR = sa.insert(rated_games)


class RatingRepository(Repository[tuple[uuid.UUID, str], PlayerRating]):
    """Glicko-2 ratings (``glicko_ratings``), the shown value kept in ``accounts.ratings`` beside them,
    and the finished games heard (``rated_games``)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self._stored: set[tuple[uuid.UUID, str]] = set()

    def get(self, account_id: uuid.UUID, key: str, *, lock: bool = False) -> PlayerRating | None:  # type: ignore[override]
        """A player's rating under one key (the port's two-part key)."""
        return super().get((account_id, key), lock=lock)

    def _find(self, account_key: tuple[uuid.UUID, str], *, lock: bool) -> PlayerRating | None:
        account_id, key = account_key
        query = _RATING_LOCKED if lock else _RATING
        row = self.session.execute(query, {"account_id": account_id, "key": key}).first()
        if row is None:
            return None
        self._stored.add((account_id, key))
        value = Glicko2Rating(row.rating, row.deviation, row.volatility)
        return PlayerRating(account_id, key, value, row.games, aware_or_none(row.updated_at))

    def _update(self, r: PlayerRating) -> None:
        values = {
            "rating": r.value.rating,
            "deviation": r.value.deviation,
            "volatility": r.value.volatility,
            "games": r.games,
            "updated_at": r.updated_at,
        }
        if (r.account_id, r.key) in self._stored:
            self.session.execute(_SAVE_RATING, {"a": r.account_id, "k": r.key, **values})
        else:
            self.session.execute(_ADD_RATING, {"account_id": r.account_id, "key": r.key, **values})
            self._stored.add((r.account_id, r.key))
        row = self.session.execute(_ACCOUNT_LOCKED, {"account_id": r.account_id}).first()
        if row is not None:
            shown = dict(row.ratings)
            shown[r.key] = r.value.shown
            self.session.execute(_SET_SHOWN, {"a": r.account_id, "r": shown})

    def first_hearing(self, game: RatedGame, key: str, decision: RatingDecision) -> bool:
        """One statement where the database can (``INSERT … ON CONFLICT DO NOTHING RETURNING``): a game
        heard before, or concurrently by another consumer, inserts nothing."""
        values = {
            "game_id": game.game_id,
            "tournament_id": game.tournament_id,
            "key": key,
            "rated": decision.moves,
            "reason": decision.reason[:200],
            "finished_at": game.finished_at,
        }
        dialect = self.session.get_bind().dialect.name
        if dialect in ("postgresql", "sqlite"):
            return self.session.execute(_hear_once(dialect), values).first() is not None
        if self.session.execute(_HEARD, {"g": game.game_id}).first() is not None:
            return False
        try:
            with self.session.begin_nested():
                self.session.execute(_HEAR, values)
        except sa.exc.IntegrityError as exc:
            if unique_violation(exc) is None:
                raise
            return False  # heard concurrently, by another consumer
        return True


@functools.cache
def _hear_once(dialect: str) -> sa.Executable:
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return (
        insert(rated_games)
        .on_conflict_do_nothing(index_elements=["game_id"])
        .returning(rated_games.c.game_id)
    )


_INVITE = sa.select(invite_links).where(invite_links.c.token == sa.bindparam("token"))
_INVITES = (
    sa.select(invite_links)
    .where(invite_links.c.tournament_id == sa.bindparam("tid"))
    .order_by(invite_links.c.created_at, invite_links.c.token)
)
_ADD_INVITE = sa.insert(invite_links)
_REVOKE_INVITE = (
    sa.update(invite_links)
    .where(invite_links.c.token == sa.bindparam("t"))
    .values(revoked_at=sa.bindparam("revoked_at"))
)


def invite_of(row: Any) -> InviteLink:
    return InviteLink(
        row.tournament_id,
        row.token,
        aware(row.created_at),
        row.created_by,
        aware_or_none(row.revoked_at),
        aware_or_none(row.expires_at),
    )


def invites_of(conn: sa.Connection | Session, tournament_id: uuid.UUID) -> list[InviteLink]:
    return [invite_of(row) for row in conn.execute(_INVITES, {"tid": tournament_id})]


class InviteRepository:
    """A private tournament's invite links (``invite_links``)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, token: str) -> InviteLink | None:
        row = self.session.execute(_INVITE, {"token": token}).first()
        return None if row is None else invite_of(row)

    def of(self, tournament_id: uuid.UUID) -> list[InviteLink]:
        return invites_of(self.session, tournament_id)

    def add(self, link: InviteLink) -> None:
        self.session.execute(
            _ADD_INVITE,
            {
                "token": link.token,
                "tournament_id": link.tournament_id,
                "created_by": link.created_by,
                "created_at": link.created_at,
                "revoked_at": link.revoked_at,
                "expires_at": link.expires_at,
            },
        )

    def save(self, link: InviteLink) -> None:
        self.session.execute(_REVOKE_INVITE, {"t": link.token, "revoked_at": link.revoked_at})


def account_of(row: Any) -> Account:
    return Account(row.id, row.name, AccountKind(row.kind), dict(row.ratings), aware(row.created_at))


class TournamentRepository(Repository[uuid.UUID, Tournament]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> Tournament | None:
        query = _TOURNAMENT_LOCKED if lock else _TOURNAMENT
        row = self.session.execute(query, {"tournament_id": tournament_id}).first()
        if row is None:
            return None
        return tournament_of(
            row, entries_of(self.session, [row.id])[row.id], arbiters_of(self.session, [row.id])[row.id]
        )

    def rating_terms(self, tournament_id: uuid.UUID) -> RatingTerms | None:
        row = self.session.execute(_RATING_TERMS, {"tournament_id": tournament_id}).first()
        if row is None:
            return None
        tc = RateOfPlay(row.base_seconds, row.increment_seconds, row.days_per_move)
        return RatingTerms(Ruleset(row.ruleset), row.rated, terms_key(row.variant, tc))

    def _insert(self, t: Tournament) -> None:
        try:
            self.session.execute(_ADD_TOURNAMENT, tournament_row(t))
        except sa.exc.IntegrityError as exc:
            violated = unique_violation(exc) or ""
            if violated != RUNNING_ORGANISER_INDEX and violated != "tournaments.organiser_id":
                raise
            raise errors.OrganiserBusy("you already run a competition") from None
        self._write_changes(t)

    def _update(self, t: Tournament) -> None:
        row = tournament_row(t)
        row["tournament_id"] = row.pop("id")
        del row["organiser_id"], row["created_at"]
        self.session.execute(_SAVE_TOURNAMENT, row)
        self._write_changes(t)

    def _write_changes(self, t: Tournament) -> None:
        changes = t.collect_roster_changes()
        if changes.removed:
            self.session.execute(_REMOVE, {"tournament_id": t.id, "players": list(changes.removed)})
        if changes.changed:
            rows = [entry_row(t.id, e) for e in changes.changed.values()]
            for row in rows:
                row["entry_tournament"], row["entry_player"] = row.pop("tournament_id"), row.pop("player_id")
                del row["joined_at"], row["by_hand"]
            self._entries(_CHANGE_ENTRY, rows)
        if changes.added:
            self._entries(_ENTER, [entry_row(t.id, e) for e in changes.added.values()])
        if changes.withdrawn:
            self.session.execute(
                _WITHDRAW,
                [
                    {
                        "entry_tournament": t.id,
                        "entry_player": e.player_id,
                        **withdrawal_columns(e),
                    }
                    for e in changes.withdrawn.values()
                ],
            )
        gone = changes.revoked | set(changes.appointed)
        if gone:  # a new scope replaces the stored one
            self.session.execute(_UNAPPOINT, {"tournament_id": t.id, "accounts": list(gone)})
        if changes.appointed:
            self.session.execute(_APPOINT, [arbiter_row(t.id, a) for a in changes.appointed.values()])
        if changes.rerated:
            self.session.execute(
                _RERATE,
                [
                    {"entry_tournament": t.id, "entry_player": e.player_id, "rating": e.rating}
                    for e in changes.rerated.values()
                ],
            )
        write_audit(self.session, t.collect_decisions())

    def _entries(self, statement: Any, rows: list[dict[str, Any]]) -> None:
        """Insert or update entries; a FIDE id another entry of the event holds is DuplicateFideId."""
        try:
            self.session.execute(statement, rows)
        except sa.exc.IntegrityError as exc:
            violated = unique_violation(exc) or ""
            if violated != FIDE_ID_INDEX and "entries.fide_id" not in violated:
                raise
            raise errors.DuplicateFideId("another player of this event has the same FIDE id") from None

    def due(self, now: dt.datetime, *, limit: int) -> list[uuid.UUID]:
        return list(self.session.execute(_DUE, {"now": now, "limit": limit}).scalars())

    def organiser_busy(self, organiser_id: uuid.UUID) -> bool:
        return bool(self.session.execute(_BUSY, {"organiser_id": organiser_id}).scalar())


class AuditRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, entries: Iterable[AuditEntry]) -> None:
        write_audit(self.session, entries)

    def of(self, tournament_id: uuid.UUID) -> list[AuditEntry]:
        return audit_of(self.session, tournament_id)


def write_audit(session: Session, entries: Iterable[AuditEntry]) -> None:
    rows = [
        {
            "tournament_id": e.tournament_id,
            "at": e.at,
            "by": e.by,
            "role": e.role.value,
            "kind": e.kind.value,
            "subject_kind": e.subject.kind.value,
            "subject_id": e.subject.id,
            "subject_round": e.subject.round,
            "detail": e.detail,
            "reason": e.reason,
        }
        for e in entries
    ]
    if rows:
        session.execute(_AUDIT, rows)


def audit_of(connection: Session | sa.Connection, tournament_id: uuid.UUID) -> list[AuditEntry]:
    return [
        AuditEntry(
            tournament_id=row.tournament_id,
            at=aware(row.at),
            by=row.by,
            role=Role(row.role),
            kind=AuditKind(row.kind),
            subject=Subject(SubjectKind(row.subject_kind), row.subject_id, row.subject_round),
            detail=row.detail,
            reason=row.reason,
        )
        for row in connection.execute(_AUDIT_OF, {"tournament_id": tournament_id})
    ]


# -- rows and aggregates (the views read through these too) ----------------------------------------
def entries_of(
    connection: Session | sa.Connection, tournament_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[Any]]:
    """The entry rows of these tournaments in joining order, in one query."""
    found: dict[uuid.UUID, list[Any]] = {tid: [] for tid in tournament_ids}
    if tournament_ids:
        for e in connection.execute(_ENTRIES, {"ids": list(tournament_ids)}):
            found[e.tournament_id].append(e)
    return found


def arbiters_of(
    connection: Session | sa.Connection, tournament_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[Any]]:
    """The arbiter rows of these tournaments in the order they were appointed, in one query."""
    found: dict[uuid.UUID, list[Any]] = {tid: [] for tid in tournament_ids}
    if tournament_ids:
        for a in connection.execute(_ARBITERS, {"ids": list(tournament_ids)}):
            found[a.tournament_id].append(a)
    return found


def entry_row(tournament_id: uuid.UUID, e: Entry) -> dict[str, Any]:
    p = e.profile or Profile()
    return {
        "tournament_id": tournament_id,
        "player_id": e.player_id,
        "name": e.name,
        "rating": e.rating,
        "joined_at": e.joined_at,
        **withdrawal_columns(e),
        "by_hand": e.by_hand,
        "fide_id": p.fide_id,
        "federation": p.federation,
        "title": None if p.title is None else p.title.value,
        "sex": None if p.sex is None else p.sex.value,
        "birth_year": p.birth_year,
        "rating_standard": p.rating_standard,
        "rating_rapid": p.rating_rapid,
        "from_round": e.from_round,
        "paused": e.paused,
        "creates_games": e.creates_games,
    }


def withdrawal_columns(e: Entry) -> dict[str, Any]:
    w = e.withdrawal
    return {
        "standing": e.standing.value,
        "withdrawn_at": None if w is None else w.at,
        "withdrawal_reason": None if w is None else w.reason,
    }


def entry_of(row: Any) -> Entry:
    withdrawal = None
    if row.standing in (Standing.WITHDRAWN.value, Standing.EXCLUDED.value):
        withdrawal = Withdrawal(
            row.standing == Standing.EXCLUDED.value, row.withdrawal_reason or "", aware(row.withdrawn_at)
        )
    profile = Profile(
        fide_id=row.fide_id,
        federation=row.federation,
        title=None if row.title is None else Title(row.title),
        sex=None if row.sex is None else Sex(row.sex),
        birth_year=row.birth_year,
        rating_standard=row.rating_standard,
        rating_rapid=row.rating_rapid,
    )
    return Entry(
        row.player_id,
        row.name,
        row.rating,
        aware(row.joined_at),
        withdrawal,
        profile=None if profile.empty else profile,
        by_hand=row.by_hand,
        confirmed=row.standing != Standing.UNCONFIRMED.value,
        from_round=row.from_round,
        paused=row.paused,
        creates_games=row.creates_games,
    )


def arbiter_row(tournament_id: uuid.UUID, a: Arbiter) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "account_id": a.account_id,
        "name": a.name,
        "games": None if a.games is None else sorted(str(g) for g in a.games),
        "appointed_at": a.appointed_at,
    }


def arbiter_of(row: Any) -> Arbiter:
    games = None if row.games is None else frozenset(uuid.UUID(g) for g in row.games)
    return Arbiter(row.account_id, row.name, games, aware(row.appointed_at))


def tournament_of(row: Any, entry_rows: Iterable[Any], arbiter_rows: Iterable[Any] = ()) -> Tournament:
    return Tournament(
        id=row.id,
        organiser_id=row.organiser_id,
        name=row.name,
        starts_at=aware_or_none(row.starts_at),
        time_control=RateOfPlay(row.base_seconds, row.increment_seconds, row.days_per_move),
        seats=row.seats,
        minimum=row.minimum,
        threshold=row.threshold,
        variant=row.variant,
        double_rounds=row.double_rounds,
        extra_round=row.extra_round,
        rated=row.rated,
        min_rating=row.min_rating,
        password_hash=row.password_hash,
        status=Status(row.status),
        status_reason=row.status_reason,
        created_at=aware(row.created_at),
        entries=[entry_of(e) for e in entry_rows],
        byes_on_request=row.byes_on_request,
        arbiters={a.account_id: a for a in map(arbiter_of, arbiter_rows)},
        opening=row.opening,
        rated_reason=row.rated_reason,
        settings=settings_of(Ruleset(row.ruleset), ruleset_fields_of(row)),
        roster_revision=row.roster_revision,
    )


def ruleset_fields_of(row: Any) -> RulesetFields:
    """The ruleset's settings as the ``tournaments`` columns hold them, one column (or two) per ruleset."""
    return RulesetFields(
        knockout=format_of(row.knockout) if row.knockout is not None else None,
        fide=fide_of(row.fide) if row.fide is not None else None,
        rounds_paired=row.rounds_paired,
        duration_minutes=row.duration_minutes,
        arena_minutes=row.arena_minutes,
        group_playoff=None if row.group_playoff is None else group_format_of(row.group_playoff),
    )


def tournament_row(t: Tournament) -> dict[str, Any]:
    own = t.settings.fields()
    return {
        "id": t.id,
        "organiser_id": t.organiser_id,
        "name": t.name,
        "starts_at": t.starts_at,
        "base_seconds": t.time_control.base_seconds,
        "increment_seconds": t.time_control.increment_seconds,
        "days_per_move": t.time_control.days_per_move,
        "seats": t.seats,
        "minimum": t.minimum,
        "threshold": t.threshold,
        "ruleset": t.ruleset.value,
        "variant": t.variant,
        "double_rounds": t.double_rounds,
        "extra_round": t.extra_round,
        "rated": t.rated,
        "min_rating": t.min_rating,
        "password_hash": t.password_hash,
        "status": t.status.value,
        "status_reason": t.status_reason,
        "created_at": t.created_at,
        "knockout": format_json(own.knockout) if own.knockout is not None else None,
        "byes_on_request": t.byes_on_request,
        "fide": fide_json(own.fide) if own.fide is not None else None,
        "rounds_paired": own.rounds_paired,
        "opening": t.opening,
        "rated_reason": t.rated_reason,
        "duration_minutes": own.duration_minutes,
        "arena_minutes": own.arena_minutes,
        "group_playoff": None if own.group_playoff is None else group_format_json(own.group_playoff),
        "roster_revision": t.roster_revision,
    }


def group_format_json(fmt: GroupFormat) -> dict[str, Any]:
    """A group-playoff event's settings as the ``tournaments.group_playoff`` JSON column holds them."""
    return {
        "closes_at": fmt.closes_at.isoformat(),
        "expected_start": None if fmt.expected_start is None else fmt.expected_start.isoformat(),
        "rating_above": fmt.rating_above,
        "rating_below": fmt.rating_below,
        "lot_seed": fmt.lot_seed,
    }


def group_format_of(data: Mapping[str, Any]) -> GroupFormat:
    start = data.get("expected_start")
    return GroupFormat(
        closes_at=dt.datetime.fromisoformat(data["closes_at"]),
        expected_start=None if start is None else dt.date.fromisoformat(start),
        rating_above=data["rating_above"],
        rating_below=data["rating_below"],
        lot_seed=data.get("lot_seed"),
    )


def format_json(fmt: KnockoutFormat) -> dict[str, Any]:
    """A knockout's format as the ``tournaments.knockout`` JSON column holds it."""
    return {
        "games_per_match": fmt.games_per_match,
        "seeding": fmt.seeding.value,
        "custom_order": [str(p) for p in fmt.custom_order],
        "third_place": fmt.third_place,
        "second_final": fmt.second_final,
        "tiebreak_plan": fmt.tiebreak_plan.to_dict(),
        "draw_seed": fmt.draw_seed,
    }


def format_of(data: Mapping[str, Any]) -> KnockoutFormat:
    return KnockoutFormat(
        games_per_match=data["games_per_match"],
        seeding=Seeding(data["seeding"]),
        custom_order=tuple(uuid.UUID(p) for p in data.get("custom_order", [])),
        third_place=data["third_place"],
        second_final=data["second_final"],
        tiebreak_plan=TieBreakSchedule.from_dict(data["tiebreak_plan"]),
        draw_seed=data.get("draw_seed"),
    )


def fide_json(fmt: FideFormat) -> dict[str, Any]:
    """A fide-rapid event's settings as the ``tournaments.fide`` JSON column holds them."""
    return {
        "rounds": fmt.rounds,
        "system": fmt.system.value,
        "place": fmt.place,
        "start_date": None if fmt.start_date is None else fmt.start_date.isoformat(),
        "end_date": None if fmt.end_date is None else fmt.end_date.isoformat(),
        "acceleration": fmt.acceleration,
        "clocks": fmt.clocks.value,
        "default_time_minutes": fmt.default_time_minutes,
        "late_entry_bye": fmt.late_entry_bye.value,
        "federation": fmt.federation,
        "chief_arbiter": fmt.chief_arbiter,
        "deputy_arbiters": list(fmt.deputy_arbiters),
    }


def fide_of(data: Mapping[str, Any]) -> FideFormat:
    def date(key: str) -> dt.date | None:
        value = data.get(key)
        return None if value is None else dt.date.fromisoformat(value)

    return FideFormat(
        rounds=data["rounds"],
        system=PairingSystem(data["system"]),
        place=data["place"],
        start_date=date("start_date"),
        end_date=date("end_date"),
        acceleration=data["acceleration"],
        clocks=ClockKeeping(data["clocks"]),
        default_time_minutes=data["default_time_minutes"],
        late_entry_bye=LateEntryBye(data["late_entry_bye"]),
        federation=data.get("federation", ""),
        chief_arbiter=data.get("chief_arbiter", ""),
        deputy_arbiters=tuple(data.get("deputy_arbiters", ())),
    )
