"""Round robins and Swiss tournaments on SQL: a tournament of rounds, whole (its players, rounds, games
and byes, the byes asked for and the absences excused), since pairing a round needs the history.

Loading reads its rows; saving writes only what the tournament says it changed (``domain/changes.py``),
each change with a statement built once. The head row and the roster are those of every format
(``rows.py``); a round paired twice is refused there.
"""

from __future__ import annotations

import datetime as dt
import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import (
    bye_requests,
    byes,
    excused_absences,
    games,
    players,
    rounds,
    tournaments,
)
from services.pairing.adapters.rows import (
    TID,
    RowLocks,
    correct_outcome,
    fide_rules,
    heading_of,
    insert_head,
    insert_players,
    insert_round,
    publish_round,
    set_colours,
    withdraw,
    withdrawal_of,
)
from services.pairing.domain.changes import ColoursSet, OutcomeCorrected, RoundAdded, WithdrawalRecorded
from services.pairing.domain.heading import Player, Status, Withdrawal
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.tournament import (
    AbsenceExcusedRecorded,
    ByeRequest,
    ByeRequestAdded,
    ByeRequestRemoved,
    Game,
    PairingTournament,
    PlayerAdded,
    Round,
    RoundBye,
    RoundDropped,
    RoundReleased,
)
from shared.authority import Decided, Role
from shared.database import aware, aware_or_none
from shared.openings import DrawnOpening, OpeningOption
from shared.repository import Repository
from shared.scoring import Outcome
from shared.variants import Variant
from shared.vocabulary import ByeKind, System

_TOURNAMENT = sa.select(tournaments).where(tournaments.c.id == TID)
_PLAYERS = sa.select(players).where(players.c.tournament_id == TID).order_by(players.c.seed)
_ROUNDS = sa.select(rounds).where(rounds.c.tournament_id == TID).order_by(rounds.c.number)
_GAMES = (
    sa.select(games)
    .where(games.c.tournament_id == TID)
    .order_by(games.c.round, games.c.board, games.c.leg, games.c.number)
)
_BYES = sa.select(byes).where(byes.c.tournament_id == TID).order_by(byes.c.round, byes.c.seed)
_BYE_REQUESTS = (
    sa.select(bye_requests)
    .where(bye_requests.c.tournament_id == TID)
    .order_by(bye_requests.c.round, bye_requests.c.seed)
)
_EXCUSED = sa.select(excused_absences).where(excused_absences.c.tournament_id == TID)
_INSERT_EXCUSED = sa.insert(excused_absences)
_INSERT_GAMES = sa.insert(games)
_INSERT_BYES = sa.insert(byes)
_INSERT_BYE_REQUEST = sa.insert(bye_requests)
_DROP_BYE_REQUEST = sa.delete(bye_requests).where(
    bye_requests.c.tournament_id == TID,
    bye_requests.c.round == sa.bindparam("n"),
    bye_requests.c.seed == sa.bindparam("s"),
)
_DROP_ROUND_GAMES = sa.delete(games).where(games.c.tournament_id == TID, games.c.round == sa.bindparam("n"))
_DROP_ROUND_BYES = sa.delete(byes).where(byes.c.tournament_id == TID, byes.c.round == sa.bindparam("n"))
_DROP_ROUND = sa.delete(rounds).where(rounds.c.tournament_id == TID, rounds.c.number == sa.bindparam("n"))


class SqlTournaments(Repository[uuid.UUID, PairingTournament]):
    def __init__(self, session: Session, locks: RowLocks) -> None:
        super().__init__()
        self.session = session
        self.locks = locks

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> PairingTournament | None:
        if lock and self.locks.take(tournament_id) is None:
            return None
        return read_tournament(self.session, tournament_id)

    def _insert(self, t: PairingTournament) -> None:
        insert_head(
            self.session,
            t.heading,
            t.players,
            t.system,
            t.plan,
            t.double_rounds,
            t.status,
            byes_on_request=t.byes_on_request,
            variant=t.variant,
            opening=str(t.opening),
            ends_at=t.ends_at,
            fide=t.fide,
        )
        self._update(t)

    def _update(self, t: PairingTournament) -> None:
        tid = t.id
        for change in t.take_changes():
            if isinstance(change, RoundAdded):
                rnd = t.round(change.number)
                assert rnd is not None
                self._add_round(t.id, rnd, change.paired_at)
            elif isinstance(change, OutcomeCorrected):
                correct_outcome(self.session, change)
            elif isinstance(change, ColoursSet):
                set_colours(self.session, change)
            elif isinstance(change, WithdrawalRecorded):
                withdraw(self.session, tid, change.seed, t.withdrawals[change.seed])
            elif isinstance(change, ByeRequestAdded):
                request = change.request
                decision = request.decision
                self.session.execute(
                    _INSERT_BYE_REQUEST,
                    {
                        "tournament_id": tid,
                        "round": request.round,
                        "seed": request.seed,
                        "decided_by": decision.by,
                        "role": decision.role.value,
                        "decided_at": decision.at,
                        "reason": decision.reason,
                    },
                )
            elif isinstance(change, ByeRequestRemoved):
                self.session.execute(_DROP_BYE_REQUEST, {"tid": tid, "n": change.round, "s": change.seed})
            elif isinstance(change, RoundDropped):
                for statement in (_DROP_ROUND_GAMES, _DROP_ROUND_BYES, _DROP_ROUND):
                    self.session.execute(statement, {"tid": tid, "n": change.number})
            elif isinstance(change, RoundReleased):
                publish_round(self.session, tid, change.number, change.at)
            elif isinstance(change, PlayerAdded):
                insert_players(self.session, tid, [t.player(change.seed)])
            elif isinstance(change, AbsenceExcusedRecorded):
                decision = t.excused[(change.round, change.seed)]
                self.session.execute(
                    _INSERT_EXCUSED,
                    {
                        "tournament_id": tid,
                        "round": change.round,
                        "seed": change.seed,
                        "decided_by": decision.by,
                        "role": decision.role.value,
                        "decided_at": decision.at,
                        "reason": decision.reason,
                    },
                )
            else:
                raise TypeError(f"a tournament of rounds does not make {type(change).__name__}")

    def _add_round(self, tid: uuid.UUID, rnd: Round, paired_at: dt.datetime) -> None:
        round_row = {
            "tournament_id": tid,
            "number": rnd.number,
            "paired_at": paired_at,
            "published_at": paired_at if rnd.published else None,  # fide-rapid: when an arbiter publishes it
        }
        insert_round(self.session, round_row)
        if rnd.games:
            rows = [
                {
                    "game_id": g.game_id,
                    "tournament_id": tid,
                    "round": g.round,
                    "board": g.board,
                    "leg": g.leg,
                    "white_seed": g.white,
                    "black_seed": g.black,
                    "opening": None if g.opening is None else g.opening.as_json(),
                }
                for g in rnd.games
            ]
            self.session.execute(_INSERT_GAMES, rows)
        if rnd.byes:
            bye_rows = [
                {"tournament_id": tid, "round": b.round, "seed": b.seed, "kind": b.kind.value}
                for b in rnd.byes
            ]
            self.session.execute(_INSERT_BYES, bye_rows)


def read_tournament(session: Session, tournament_id: uuid.UUID) -> PairingTournament | None:
    """A tournament's players, rounds and games (any format: the pairing API shows a knockout's rounds
    the same way)."""
    row = session.execute(_TOURNAMENT, {"tid": tournament_id}).first()
    if row is None:
        return None
    key = {"tid": tournament_id}
    roster, withdrawals = _players(session, tournament_id)
    by_round: dict[int, Round] = {
        r.number: Round(r.number, [], [], r.completed_at is not None, r.published_at is not None)
        for r in session.execute(_ROUNDS, key)
    }
    variant = Variant(row.variant)
    for g in session.execute(_GAMES, key):
        outcome = Outcome(g.outcome) if g.outcome else None
        by_round[g.round].games.append(
            Game(
                g.game_id,
                g.round,
                g.board,
                g.white_seed,
                g.black_seed,
                g.leg,
                outcome,
                g.reason,
                opening=DrawnOpening.from_json(variant, g.opening),
            )
        )
    for b in session.execute(_BYES, key):
        by_round[b.round].byes.append(RoundBye(b.round, b.seed, ByeKind(b.kind)))
    requests = {
        (r.round, r.seed): ByeRequest(
            r.round, r.seed, Decided(r.decided_by, Role(r.role), aware(r.decided_at), r.reason)
        )
        for r in session.execute(_BYE_REQUESTS, key)
    }
    excused = {
        (r.round, r.seed): Decided(r.decided_by, Role(r.role), aware(r.decided_at), r.reason)
        for r in session.execute(_EXCUSED, key)
    }
    return PairingTournament(
        heading_of(row),
        Plan(System(row.system), row.total_rounds, row.double_cycle),
        row.double_rounds,
        roster,
        [by_round[n] for n in sorted(by_round)],
        Status(row.status),
        byes_on_request=row.byes_on_request,
        withdrawals=withdrawals,
        bye_requests=requests,
        variant=variant,
        opening=OpeningOption.parse(row.opening),
        ends_at=aware_or_none(row.ends_at),
        fide=fide_rules(row.fide),
        excused=excused,
    )


def _players(session: Session, tournament_id: uuid.UUID) -> tuple[tuple[Player, ...], dict[int, Withdrawal]]:
    rows = session.execute(_PLAYERS, {"tid": tournament_id}).all()
    roster = tuple(Player(p.seed, p.player_id, p.name, p.rating, p.from_round) for p in rows)
    return roster, {p.seed: withdrawal_of(p) for p in rows if p.withdrawn_at is not None}
