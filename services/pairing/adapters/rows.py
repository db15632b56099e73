"""What the repositories of every format share on SQL: a tournament's head row in ``tournaments`` (the
row each format's repository locks, :class:`RowLocks`) and its roster in ``players``, its rounds, and the
writes a game or a player gets whatever the format (an outcome, a correction, colours, a withdrawal).

Each format's repository keeps the rest of its state in tables of its own: ``tournaments.py`` (round
robins and Swiss), ``round_results.py`` (one round of one), ``eliminations.py`` (knockouts),
``group_playoffs.py``, and ``arbiters.py`` for the arbiters of any. Every statement is built once, at
import (a message binds values only). A driver error that means something to the domain becomes a
domain error here (a round paired twice: :class:`~services.pairing.domain.errors.RoundTaken`).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import games, players, rounds, tournaments
from services.pairing.domain.changes import ColoursSet, OutcomeCorrected, OutcomeSet
from services.pairing.domain.errors import RoundTaken
from services.pairing.domain.heading import Heading, Player, Status, Withdrawal
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.tournament import FideRules
from shared.database import aware
from shared.time_control import RateOfPlay
from shared.vocabulary import ByeKind, Ruleset, System

TID: sa.BindParameter[Any] = sa.bindparam("tid")
"""The tournament a statement is about: every repository's statements bind it as ``tid``."""

_LOCK = sa.select(tournaments.c.system).where(tournaments.c.id == TID).with_for_update()
_GAME_TOURNAMENT = sa.select(games.c.tournament_id).where(games.c.game_id == sa.bindparam("gid"))
_INSERT_TOURNAMENT = sa.insert(tournaments)
_INSERT_PLAYERS = sa.insert(players)
_INSERT_ROUND = sa.insert(rounds)
_RECORD_OUTCOME = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"), games.c.outcome.is_(None))
    .values(outcome=sa.bindparam("result"), finished_at=sa.bindparam("at"), reason=sa.bindparam("why"))
)
_CORRECT_OUTCOME = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"), games.c.outcome.is_not(None))
    .values(outcome=sa.bindparam("result"))
)
_SET_COLOURS = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"))
    .values(white_seed=sa.bindparam("white"), black_seed=sa.bindparam("black"))
)
_WITHDRAW = (
    sa.update(players)
    .where(players.c.tournament_id == TID, players.c.seed == sa.bindparam("s"))
    .values(
        withdrawn_at=sa.bindparam("at"), excluded=sa.bindparam("ex"), withdrawal_reason=sa.bindparam("why")
    )
)
_CLOSE_ROUND = (
    sa.update(rounds)
    .where(rounds.c.tournament_id == TID, rounds.c.number == sa.bindparam("n"))
    .values(completed_at=sa.bindparam("at"))
)
_PUBLISH_ROUND = (
    sa.update(rounds)
    .where(rounds.c.tournament_id == TID, rounds.c.number == sa.bindparam("n"))
    .values(published_at=sa.bindparam("at"))
)
_FINISH = sa.update(tournaments).where(tournaments.c.id == TID).values(status=Status.COMPLETED.value)


class RowLocks:
    """The tournaments' row locks one unit of work holds. Every change of a tournament holds its row
    lock, so results and pairing of one tournament never interleave; the lock is taken once, and a
    savepoint (each message of a batch has one) takes it afresh."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._held: dict[uuid.UUID, System] = {}

    def take(self, tournament_id: uuid.UUID) -> System | None:
        """Lock the tournament's row; its system, or None if there is no such tournament."""
        held = self._held.get(tournament_id)
        if held is not None:
            return held
        row = self.session.execute(_LOCK, {"tid": tournament_id}).first()
        if row is None:
            return None
        self._held[tournament_id] = system = System(row.system)
        return system

    def forget(self) -> None:
        self._held.clear()


def tournament_of_game(session: Session, game_id: uuid.UUID) -> uuid.UUID | None:
    found: uuid.UUID | None = session.execute(_GAME_TOURNAMENT, {"gid": game_id}).scalar()
    return found


# -- the head row and the roster -----------------------------------------------------------------------
def insert_head(
    session: Session,
    heading: Heading,
    roster: Iterable[Player],
    system: System,
    plan: Plan,
    double_rounds: bool,
    status: Status,
    *,
    byes_on_request: bool = False,
    variant: str = "chess",
    opening: str = "free",
    ends_at: dt.datetime | None = None,
    fide: FideRules | None = None,
) -> None:
    """Write a new tournament's head row in ``tournaments`` (its identity, ruleset, system, round plan,
    status and settings: the row every format's repository locks) and its roster in ``players``. Each
    format's repository (rounds, knockouts, group-playoff events) calls it from its ``add`` and keeps
    the rest of its state in tables of its own."""
    session.execute(
        _INSERT_TOURNAMENT,
        {
            "id": heading.id,
            "organiser_id": heading.organiser_id,
            "name": heading.name,
            "ruleset": heading.ruleset.value,
            "system": system.value,
            "total_rounds": plan.rounds,
            "double_cycle": plan.double_cycle,
            "double_rounds": double_rounds,
            "time_control": clock_json(heading.time_control),
            "status": status.value,
            "started_at": heading.started_at,
            "byes_on_request": byes_on_request,
            "variant": variant,
            "opening": opening,
            "ends_at": ends_at,
            "fide": fide_json(fide),
        },
    )
    insert_players(session, heading.id, roster)


def insert_players(session: Session, tid: uuid.UUID, roster: Iterable[Player]) -> None:
    rows = [
        {
            "tournament_id": tid,
            "seed": p.seed,
            "player_id": p.player_id,
            "name": p.name,
            "rating": p.rating,
            "from_round": p.from_round,
        }
        for p in roster
    ]
    if rows:
        session.execute(_INSERT_PLAYERS, rows)


def heading_of(row: Any) -> Heading:
    """A tournament's heading from its head row."""
    return Heading(
        row.id,
        row.organiser_id,
        row.name,
        Ruleset(row.ruleset),
        RateOfPlay(**row.time_control),
        aware(row.started_at),
    )


def withdrawal_of(row: Any) -> Withdrawal:
    """A withdrawn player's withdrawal from their row in ``players``."""
    return Withdrawal(aware(row.withdrawn_at), bool(row.excluded), row.withdrawal_reason or "")


def withdraw(session: Session, tid: uuid.UUID, seed: int, w: Withdrawal) -> None:
    session.execute(_WITHDRAW, {"tid": tid, "s": seed, "at": w.at, "ex": w.excluded, "why": w.reason})


# -- rounds and games ----------------------------------------------------------------------------------
def insert_round(session: Session, row: Mapping[str, Any]) -> None:
    """Raises RoundTaken if another worker paired this round first (the primary key refuses it)."""
    try:
        session.execute(_INSERT_ROUND, row)
    except IntegrityError as exc:
        raise RoundTaken(
            f"round {row['number']} of tournament {row['tournament_id']} is paired already"
        ) from exc


def publish_round(session: Session, tid: uuid.UUID, number: int, at: dt.datetime) -> None:
    session.execute(_PUBLISH_ROUND, {"tid": tid, "n": number, "at": at})


def close_round(session: Session, tid: uuid.UUID, number: int, at: dt.datetime) -> None:
    session.execute(_CLOSE_ROUND, {"tid": tid, "n": number, "at": at})


def finish(session: Session, tid: uuid.UUID) -> None:
    """The tournament is completed (its head row's status)."""
    session.execute(_FINISH, {"tid": tid})


def record_outcome(session: Session, change: OutcomeSet) -> None:
    row = {
        "gid": change.game_id,
        "result": change.outcome.value,
        "at": change.finished_at,
        "why": change.reason,
    }
    session.execute(_RECORD_OUTCOME, row)


def correct_outcome(session: Session, change: OutcomeCorrected) -> None:
    session.execute(_CORRECT_OUTCOME, {"gid": change.game_id, "result": change.outcome.value})


def set_colours(session: Session, change: ColoursSet) -> None:
    session.execute(_SET_COLOURS, {"gid": change.game_id, "white": change.white, "black": change.black})


# -- JSON columns --------------------------------------------------------------------------------------
def clock_json(tc: RateOfPlay) -> dict[str, int | None]:
    """A time control as stored (the fields of the wire's ``TimeControl``)."""
    return {
        "base_seconds": tc.base_seconds,
        "increment_seconds": tc.increment_seconds,
        "days_per_move": tc.days_per_move,
    }


def fide_json(fide: FideRules | None) -> dict[str, Any] | None:
    """A `fide-rapid` event's pairing rules as stored (None: paired when due)."""
    if fide is None:
        return None
    return {"acceleration": fide.acceleration, "late_entry_bye": fide.late_entry_bye.value}


def fide_rules(data: Mapping[str, Any] | None) -> FideRules | None:
    if data is None:
        return None
    return FideRules(bool(data["acceleration"]), ByeKind(data["late_entry_bye"]))
