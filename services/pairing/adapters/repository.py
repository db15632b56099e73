"""Pairing's repositories on SQL: one per aggregate, each with ``get``, ``add`` and ``save``.

Loading reads the aggregate's rows; saving writes only what the aggregate says it changed
(``domain/changes.py``), with statements built once (a message binds values only). A result, the
commonest message by far, costs the row lock, one read of its round and one update:

* :class:`SqlTournaments` — a round robin or a Swiss, whole (players, rounds, games, byes): pairing a
  round needs the history;
* :class:`SqlRoundResults` — one round of one, what a result changes;
* :class:`SqlEliminations` — a knockout or a double knockout: the bracket, the matches and their games;
* :class:`SqlArbiters` — the arbiters of a tournament (kept before it starts here too).

Every change of a tournament holds its row lock (:class:`RowLocks`), taken once per unit of work.
A driver error that means something to the domain becomes a domain error here (a round paired twice:
:class:`~services.pairing.domain.errors.RoundTaken`).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import (
    arbiters,
    brackets,
    bye_requests,
    byes,
    excused_absences,
    games,
    matches,
    players,
    resets,
    rounds,
    tournaments,
)
from services.pairing.domain.arbiters import ArbiterChanged, ArbiterEntry, Arbiters, Decided
from services.pairing.domain.changes import (
    ColoursSet,
    Finished,
    OutcomeCorrected,
    OutcomeSet,
    RoundAdded,
    RoundClosed,
    WithdrawalRecorded,
)
from services.pairing.domain.elimination.bracket import MatchId
from services.pairing.domain.elimination.changes import (
    Erased,
    GamesAdded,
    GamesReplaced,
    MatchHowChanged,
    MatchReopened,
    MatchRepaired,
    MatchSettled,
    RoundMadePublic,
)
from services.pairing.domain.elimination.elimination import Elimination, bracket_from_dict
from services.pairing.domain.elimination.match_play import GameKind, MatchFormat, PlannedGame
from services.pairing.domain.elimination.paired_matches import MatchGame, PairedMatch
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.errors import RoundTaken
from services.pairing.domain.heading import Heading, Player, Status, Withdrawal
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.results import RoundResults
from services.pairing.domain.rounds.tournament import (
    AbsenceExcusedRecorded,
    Bye,
    ByeRequest,
    ByeRequestAdded,
    ByeRequestRemoved,
    FideRules,
    Game,
    PairingTournament,
    PlayerAdded,
    Round,
    RoundDropped,
    RoundReleased,
)
from shared.aggregate import Seen
from shared.authority import Role
from shared.database import aware, aware_or_none
from shared.openings import GameOpening, OpeningOption
from shared.resets import Resets
from shared.scoring import Outcome
from shared.time_control import TimeControl
from shared.variants import Variant
from shared.vocabulary import ByeKind, Decision, Ruleset, Seeding, System

# -- the statements, built once ------------------------------------------------------------------------
_TID: sa.BindParameter[Any] = sa.bindparam("tid")

_LOCK = sa.select(tournaments.c.system).where(tournaments.c.id == _TID).with_for_update()
_TOURNAMENT = sa.select(tournaments).where(tournaments.c.id == _TID)
_PLAYERS = sa.select(players).where(players.c.tournament_id == _TID).order_by(players.c.seed)
_ROUNDS = sa.select(rounds).where(rounds.c.tournament_id == _TID).order_by(rounds.c.number)
_GAMES = (
    sa.select(games)
    .where(games.c.tournament_id == _TID)
    .order_by(games.c.round, games.c.board, games.c.leg, games.c.number)
)
_BYES = sa.select(byes).where(byes.c.tournament_id == _TID).order_by(byes.c.round, byes.c.seed)
_ROUND_RESULTS = (
    sa.select(
        tournaments.c.organiser_id,
        tournaments.c.total_rounds,
        tournaments.c.ends_at,
        tournaments.c.fide,
        rounds.c.completed_at,
        games.c.game_id,
        games.c.outcome,
    )
    .select_from(
        tournaments.join(rounds, rounds.c.tournament_id == tournaments.c.id).outerjoin(
            games, sa.and_(games.c.tournament_id == rounds.c.tournament_id, games.c.round == rounds.c.number)
        )
    )
    .where(tournaments.c.id == _TID, rounds.c.number == sa.bindparam("n"))
)
_BYE_REQUESTS = (
    sa.select(bye_requests)
    .where(bye_requests.c.tournament_id == _TID)
    .order_by(bye_requests.c.round, bye_requests.c.seed)
)
_ARBITERS = sa.select(arbiters).where(arbiters.c.tournament_id == _TID)
_EXCUSED = sa.select(excused_absences).where(excused_absences.c.tournament_id == _TID)
_INSERT_EXCUSED = sa.insert(excused_absences)
_DROP_ROUND_GAMES = sa.delete(games).where(games.c.tournament_id == _TID, games.c.round == sa.bindparam("n"))
_DROP_ROUND_BYES = sa.delete(byes).where(byes.c.tournament_id == _TID, byes.c.round == sa.bindparam("n"))
_DROP_ROUND = sa.delete(rounds).where(rounds.c.tournament_id == _TID, rounds.c.number == sa.bindparam("n"))
_GAME_TOURNAMENT = sa.select(games.c.tournament_id).where(games.c.game_id == sa.bindparam("gid"))
_ELIMINATION = (  # the head, the bracket and the players: one row per player
    sa.select(
        tournaments,
        brackets.c.state,
        brackets.c.seeding,
        brackets.c.match_format,
        brackets.c.restarts,
        players.c.seed,
        players.c.player_id,
        players.c.name.label("player_name"),
        players.c.rating,
        players.c.withdrawn_at,
        players.c.excluded,
        players.c.withdrawal_reason,
    )
    .join(brackets, brackets.c.tournament_id == tournaments.c.id)
    .join(players, players.c.tournament_id == tournaments.c.id)
    .where(tournaments.c.id == _TID)
    .order_by(players.c.seed)
)
_MATCHES = (  # with their round's state: every paired round has matches
    sa.select(matches, rounds.c.published_at, rounds.c.completed_at)
    .join(
        rounds, sa.and_(rounds.c.tournament_id == matches.c.tournament_id, rounds.c.number == matches.c.round)
    )
    .where(matches.c.tournament_id == _TID)
)
_MATCH_GAMES = (
    sa.select(games)
    .where(games.c.tournament_id == _TID, games.c.match_id.is_not(None))
    .order_by(games.c.number)
)

_INSERT_TOURNAMENT = sa.insert(tournaments)
_INSERT_PLAYERS = sa.insert(players)
_INSERT_ROUND = sa.insert(rounds)
_INSERT_GAMES = sa.insert(games)
_INSERT_BYES = sa.insert(byes)
_INSERT_BRACKET = sa.insert(brackets)
_INSERT_MATCHES = sa.insert(matches)
_INSERT_BYE_REQUEST = sa.insert(bye_requests)
_INSERT_ARBITER = sa.insert(arbiters)

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
    .where(players.c.tournament_id == _TID, players.c.seed == sa.bindparam("s"))
    .values(
        withdrawn_at=sa.bindparam("at"), excluded=sa.bindparam("ex"), withdrawal_reason=sa.bindparam("why")
    )
)
_DROP_BYE_REQUEST = sa.delete(bye_requests).where(
    bye_requests.c.tournament_id == _TID,
    bye_requests.c.round == sa.bindparam("n"),
    bye_requests.c.seed == sa.bindparam("s"),
)
_UPDATE_ARBITER = (
    sa.update(arbiters)
    .where(arbiters.c.tournament_id == _TID, arbiters.c.arbiter_id == sa.bindparam("aid"))
    .values(games=sa.bindparam("scope"), active=sa.bindparam("on"), decided_at=sa.bindparam("at"))
)
_REOPEN_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(how=None, decided_at=None)
)
_MATCH_HOW = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(how=sa.bindparam("decision"), decided_at=sa.bindparam("at"), decisions=sa.bindparam("n"))
)
_FIRST_WHITE = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(first_white=sa.bindparam("slot"))
)
_REPAIR_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(seed_a=sa.bindparam("a"), seed_b=sa.bindparam("b"))
)
_REPLACE_GAME = (
    sa.update(games).where(games.c.game_id == sa.bindparam("gid")).values(replaced_by=sa.bindparam("new"))
)
_ERASE = sa.delete(tournaments).where(tournaments.c.id == _TID)
_REMEMBER_RESET = sa.insert(resets)
_RESETS = (
    sa.select(resets.c.start, resets.c.reset_at, resets.c.games)
    .where(resets.c.tournament_id == _TID)
    .order_by(resets.c.start)
)
_CLOSE_ROUND = (
    sa.update(rounds)
    .where(rounds.c.tournament_id == _TID, rounds.c.number == sa.bindparam("n"))
    .values(completed_at=sa.bindparam("at"))
)
_PUBLISH_ROUND = (
    sa.update(rounds)
    .where(rounds.c.tournament_id == _TID, rounds.c.number == sa.bindparam("n"))
    .values(published_at=sa.bindparam("at"))
)
_FINISH = sa.update(tournaments).where(tournaments.c.id == _TID).values(status=Status.COMPLETED.value)
_DECIDE_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(how=sa.bindparam("decision"), decided_at=sa.bindparam("at"), decisions=sa.bindparam("n"))
)
_CANCEL_GAMES = (
    sa.update(games)
    .where(games.c.game_id.in_(sa.bindparam("ids", expanding=True)))
    .values(cancelled_at=sa.bindparam("at"))
)
_MOVE_BRACKET = (
    sa.update(brackets).where(brackets.c.tournament_id == _TID).values(state=sa.bindparam("bracket"))
)
_COUNT_ROUNDS = (
    sa.update(tournaments).where(tournaments.c.id == _TID).values(total_rounds=sa.bindparam("total"))
)


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


# -- round robins and Swiss tournaments ----------------------------------------------------------------
class SqlTournaments:
    def __init__(self, session: Session, locks: RowLocks) -> None:
        self.session = session
        self.locks = locks
        self.seen: Seen[PairingTournament] = Seen()

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> PairingTournament | None:
        if lock and self.locks.take(tournament_id) is None:
            return None
        t = read_tournament(self.session, tournament_id)
        return None if t is None else self.seen.add(t)

    def add(self, t: PairingTournament) -> None:
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
        self.save(t)

    def save(self, t: PairingTournament) -> None:
        tid = t.id
        for change in t.take_changes():
            if isinstance(change, RoundAdded):
                rnd = t.round(change.number)
                assert rnd is not None
                self._add_round(t.id, rnd, change.paired_at)
            elif isinstance(change, OutcomeCorrected):
                _correct_outcome(self.session, change)
            elif isinstance(change, ColoursSet):
                _set_colours(self.session, change)
            elif isinstance(change, WithdrawalRecorded):
                _withdraw(self.session, tid, change.seed, t.withdrawals[change.seed])
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
                self.session.execute(_PUBLISH_ROUND, {"tid": tid, "n": change.number, "at": change.at})
            elif isinstance(change, PlayerAdded):
                self.session.execute(_INSERT_PLAYERS, [_player_row(tid, t.player(change.seed))])
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
        self.seen.add(t)

    def _add_round(self, tid: uuid.UUID, rnd: Round, paired_at: dt.datetime) -> None:
        round_row = {
            "tournament_id": tid,
            "number": rnd.number,
            "paired_at": paired_at,
            "published_at": paired_at if rnd.published else None,  # fide-rapid: when an arbiter publishes it
        }
        _insert_round(self.session, round_row)
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
                opening=GameOpening.from_json(variant, g.opening),
            )
        )
    for b in session.execute(_BYES, key):
        by_round[b.round].byes.append(Bye(b.round, b.seed, ByeKind(b.kind)))
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
        _heading(row),
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


# -- one round's results -------------------------------------------------------------------------------
class SqlRoundResults:
    def __init__(self, session: Session, locks: RowLocks) -> None:
        self.session = session
        self.locks = locks
        self.seen: Seen[RoundResults] = Seen()

    def get(self, key: tuple[uuid.UUID, int], *, lock: bool = False) -> RoundResults | None:
        """Round ``number`` of a tournament: who organises it, how many rounds it has, and its games'
        outcomes, in one statement (after the row lock: a statement taken before it would read the
        round as it was before the lock's previous holder committed)."""
        tid, number = key
        if lock and self.locks.take(tid) is None:
            return None
        rows = self.session.execute(_ROUND_RESULTS, {"tid": tid, "n": number}).all()
        if not rows:
            return None
        first = rows[0]
        outcomes = {
            r.game_id: Outcome(r.outcome) if r.outcome else None for r in rows if r.game_id is not None
        }
        results = RoundResults(
            tid,
            first.organiser_id,
            number,
            first.total_rounds,
            outcomes,
            first.completed_at is not None,
            aware_or_none(first.ends_at),
            on_command=first.fide is not None,
        )
        return self.seen.add(results)

    def save(self, results: RoundResults) -> None:
        tid = results.tournament_id
        for change in results.take_changes():
            if isinstance(change, OutcomeSet):
                _record_outcome(self.session, change)
            elif isinstance(change, RoundClosed):
                self.session.execute(_CLOSE_ROUND, {"tid": tid, "n": change.number, "at": change.at})
            elif isinstance(change, Finished):
                self.session.execute(_FINISH, {"tid": tid})
            else:
                raise TypeError(f"a round's results do not make {type(change).__name__}")
        self.seen.add(results)


# -- knockouts -----------------------------------------------------------------------------------------
class SqlEliminations:
    def __init__(self, session: Session, locks: RowLocks) -> None:
        self.session = session
        self.locks = locks
        self.seen: Seen[Elimination] = Seen()

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Elimination | None:
        if lock and self.locks.take(tournament_id) is None:
            return None
        e = read_elimination(self.session, tournament_id)
        return None if e is None else self.seen.add(e)

    def add(self, e: Elimination) -> None:
        plan = Plan(e.system, e.rounds_total(), False)
        insert_head(self.session, e.heading, e.players, e.system, plan, False, e.status)
        self.session.execute(
            _INSERT_BRACKET,
            {
                "tournament_id": e.id,
                "state": e.bracket.to_dict(),
                "seeding": seed_list_json(e.seeds),
                "match_format": e.match_format.to_dict(),
                "restarts": e.restarts,
            },
        )
        self.save(e)

    def save(self, e: Elimination) -> None:
        tid = e.id
        for change in e.take_changes():
            if isinstance(change, RoundAdded):
                self._add_round(e, change)
            elif isinstance(change, GamesAdded):
                match = e.matches[change.match_id]
                ids = set(change.game_ids)
                self._add_games(tid, match, [g for g in match.games if g.game_id in ids])
            elif isinstance(change, OutcomeSet):
                _record_outcome(self.session, change)
            elif isinstance(change, OutcomeCorrected):
                _correct_outcome(self.session, change)
            elif isinstance(change, MatchSettled):
                self._settle(e, change)
            elif isinstance(change, MatchReopened):
                self.session.execute(_REOPEN_MATCH, {"tid": tid, "mid": str(change.match_id)})
                self._move_bracket(e)
            elif isinstance(change, MatchHowChanged):
                self.session.execute(
                    _MATCH_HOW,
                    {
                        "tid": tid,
                        "mid": str(change.match_id),
                        "decision": change.how.value,
                        "at": change.at,
                        "n": change.decisions,
                    },
                )
            elif isinstance(change, MatchRepaired):
                a, b = change.players
                self.session.execute(_REPAIR_MATCH, {"tid": tid, "mid": str(change.match_id), "a": a, "b": b})
                self.session.execute(_CANCEL_GAMES, {"ids": list(change.cancelled), "at": change.at})
            elif isinstance(change, GamesReplaced):
                for old, new in change.replaced:
                    self.session.execute(_REPLACE_GAME, {"gid": old, "new": new})
            elif isinstance(change, ColoursSet):
                _set_colours(self.session, change)
                found = e.game(change.game_id)
                assert found is not None
                match = found[0]
                self.session.execute(
                    _FIRST_WHITE, {"tid": tid, "mid": str(match.id), "slot": match.first_white}
                )
            elif isinstance(change, WithdrawalRecorded):
                _withdraw(self.session, tid, change.seed, e.withdrawals[change.seed])
            elif isinstance(change, RoundClosed):
                self.session.execute(_CLOSE_ROUND, {"tid": tid, "n": change.number, "at": change.at})
            elif isinstance(change, RoundMadePublic):
                self.session.execute(_PUBLISH_ROUND, {"tid": tid, "n": change.number, "at": change.at})
            elif isinstance(change, Finished):
                self.session.execute(_FINISH, {"tid": tid})
            elif isinstance(change, Erased):
                self.session.execute(_ERASE, {"tid": tid})  # players, rounds, games, matches: cascaded
                self.session.execute(
                    _REMEMBER_RESET,
                    {
                        "tournament_id": tid,
                        "start": change.restarts,
                        "reset_at": change.at,
                        "games": [str(g) for g in change.games],
                    },
                )
            else:
                raise TypeError(f"an elimination does not make {type(change).__name__}")
        self.seen.add(e)

    def _add_round(self, e: Elimination, change: RoundAdded) -> None:
        """A knockout round: unpublished until its organiser publishes it."""
        row = {
            "tournament_id": e.id,
            "number": change.number,
            "paired_at": change.paired_at,
            "published_at": None,
        }
        _insert_round(self.session, row)
        paired = e.round_matches(change.number)
        self.session.execute(
            _INSERT_MATCHES,
            [
                {
                    "tournament_id": e.id,
                    "match_id": str(m.id),
                    "round": m.round,
                    "board": m.board,
                    "seed_a": m.players[0],
                    "seed_b": m.players[1],
                    "first_white": m.first_white,
                }
                for m in paired
            ],
        )
        for m in paired:
            self._add_games(e.id, m, m.games)

    def _add_games(self, tid: uuid.UUID, match: PairedMatch, new: Iterable[MatchGame]) -> None:
        rows = [
            {
                "game_id": g.game_id,
                "tournament_id": tid,
                "round": match.round,
                "board": match.board,
                "leg": 1,
                "white_seed": match.white(g),
                "black_seed": match.black(g),
                "match_id": str(match.id),
                "number": g.planned.number,
                "kind": g.planned.kind.value,
                "stage": g.planned.stage,
                "label": g.planned.label,
                "time_control": clock_json(g.planned.time_control),
            }
            for g in new
        ]
        if rows:
            self.session.execute(_INSERT_GAMES, rows)

    def _settle(self, e: Elimination, change: MatchSettled) -> None:
        """A match has its winner: how and when, the games it no longer needs, the bracket's new state
        and (a double knockout's second final) its round count."""
        tid = e.id
        self.session.execute(
            _DECIDE_MATCH,
            {
                "tid": tid,
                "mid": str(change.match_id),
                "decision": change.how.value,
                "at": change.at,
                "n": change.decisions,
            },
        )
        if change.cancelled:
            self.session.execute(_CANCEL_GAMES, {"ids": list(change.cancelled), "at": change.at})
        self._move_bracket(e)

    def _move_bracket(self, e: Elimination) -> None:
        """The bracket's new state, and its round count (a double knockout's second final)."""
        self.session.execute(_MOVE_BRACKET, {"tid": e.id, "bracket": e.bracket.to_dict()})
        self.session.execute(_COUNT_ROUNDS, {"tid": e.id, "total": e.rounds_total()})


def read_elimination(session: Session, tournament_id: uuid.UUID) -> Elimination | None:
    """Three statements: the head with the bracket and the players, the matches with their rounds, the
    matches' games."""
    key = {"tid": tournament_id}
    head = session.execute(_ELIMINATION, key).all()
    if not head:
        return None
    row = head[0]
    published: set[int] = set()
    completed: set[int] = set()
    found: dict[MatchId, PairedMatch] = {}
    for m in session.execute(_MATCHES, key):
        mid = MatchId.parse(m.match_id)
        how = Decision(m.how) if m.how else None
        found[mid] = PairedMatch(
            mid, m.round, m.board, (m.seed_a, m.seed_b), m.first_white, how=how, decisions=m.decisions
        )
        if m.published_at is not None:
            published.add(m.round)
        if m.completed_at is not None:
            completed.add(m.round)
    for g in session.execute(_MATCH_GAMES, key):
        match = found[MatchId.parse(g.match_id)]
        planned = PlannedGame(
            g.number,
            GameKind(g.kind),
            g.stage,
            0 if g.white_seed == match.players[0] else 1,
            TimeControl(**g.time_control),
            g.label,
        )
        outcome = Outcome(g.outcome) if g.outcome else None
        match.games.append(MatchGame(g.game_id, planned, outcome, g.cancelled_at is not None, g.replaced_by))
    return Elimination(
        _heading(row),
        tuple(Player(p.seed, p.player_id, p.player_name, p.rating) for p in head),
        MatchFormat.from_dict(row.match_format),
        bracket_from_dict(row.state),
        seed_list(row.seeding),
        found,
        published,
        completed,
        Status(row.status),
        {p.seed: _withdrawal(p) for p in head if p.withdrawn_at is not None},
        row.restarts,
    )


# -- the arbiters of a tournament ----------------------------------------------------------------------
class SqlResets:
    """What the resets of each knockout removed (written with the reset by :class:`SqlEliminations`)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def of(self, tournament_id: uuid.UUID) -> Resets:
        found = Resets()
        for row in self.session.execute(_RESETS, {"tid": tournament_id}):
            found = found.add(aware(row.reset_at), (uuid.UUID(g) for g in row.games), row.start)
        return found


class SqlArbiters:
    """The arbiters of a tournament, one row per arbiter (the latest decision about them)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: Seen[Arbiters] = Seen()

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Arbiters | None:
        rows = self.session.execute(_ARBITERS, {"tid": tournament_id}).all()
        if not rows:
            return None
        entries = {
            r.arbiter_id: ArbiterEntry(
                r.arbiter_id,
                None if r.games is None else frozenset(uuid.UUID(g) for g in r.games),
                r.active,
                aware(r.decided_at),
            )
            for r in rows
        }
        return self.seen.add(Arbiters(tournament_id, entries))

    def add(self, a: Arbiters) -> None:
        self.save(a)

    def save(self, a: Arbiters) -> None:
        for change in a.take_changes():
            if not isinstance(change, ArbiterChanged):
                raise TypeError(f"arbiters do not make {type(change).__name__}")
            entry = a.entries[change.arbiter_id]
            scope = None if entry.games is None else sorted(str(g) for g in entry.games)
            values: dict[str, Any] = {"tid": a.tournament_id, "aid": entry.arbiter_id, "scope": scope}
            values |= {"on": entry.active, "at": entry.decided_at}
            if self.session.execute(_UPDATE_ARBITER, values).rowcount == 0:  # type: ignore[attr-defined]
                self.session.execute(
                    _INSERT_ARBITER,
                    {
                        "tournament_id": a.tournament_id,
                        "arbiter_id": entry.arbiter_id,
                        "games": scope,
                        "active": entry.active,
                        "decided_at": entry.decided_at,
                    },
                )
        self.seen.add(a)


def tournament_of_game(session: Session, game_id: uuid.UUID) -> uuid.UUID | None:
    found: uuid.UUID | None = session.execute(_GAME_TOURNAMENT, {"gid": game_id}).scalar()
    return found


# -- shared by both formats ----------------------------------------------------------------------------
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
    rows = [_player_row(heading.id, p) for p in roster]
    if rows:
        session.execute(_INSERT_PLAYERS, rows)


def _insert_round(session: Session, row: Mapping[str, Any]) -> None:
    """Raises RoundTaken if another worker paired this round first (the primary key refuses it)."""
    try:
        session.execute(_INSERT_ROUND, row)
    except IntegrityError as exc:
        raise RoundTaken(
            f"round {row['number']} of tournament {row['tournament_id']} is paired already"
        ) from exc


def _player_row(tid: uuid.UUID, p: Player) -> dict[str, Any]:
    return {
        "tournament_id": tid,
        "seed": p.seed,
        "player_id": p.player_id,
        "name": p.name,
        "rating": p.rating,
        "from_round": p.from_round,
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


def _record_outcome(session: Session, change: OutcomeSet) -> None:
    row = {
        "gid": change.game_id,
        "result": change.outcome.value,
        "at": change.finished_at,
        "why": change.reason,
    }
    session.execute(_RECORD_OUTCOME, row)


def _correct_outcome(session: Session, change: OutcomeCorrected) -> None:
    session.execute(_CORRECT_OUTCOME, {"gid": change.game_id, "result": change.outcome.value})


def _set_colours(session: Session, change: ColoursSet) -> None:
    session.execute(_SET_COLOURS, {"gid": change.game_id, "white": change.white, "black": change.black})


def _withdraw(session: Session, tid: uuid.UUID, seed: int, w: Withdrawal) -> None:
    session.execute(_WITHDRAW, {"tid": tid, "s": seed, "at": w.at, "ex": w.excluded, "why": w.reason})


def _withdrawal(row: Any) -> Withdrawal:
    return Withdrawal(aware(row.withdrawn_at), bool(row.excluded), row.withdrawal_reason or "")


def _players(session: Session, tournament_id: uuid.UUID) -> tuple[tuple[Player, ...], dict[int, Withdrawal]]:
    rows = session.execute(_PLAYERS, {"tid": tournament_id}).all()
    roster = tuple(Player(p.seed, p.player_id, p.name, p.rating, p.from_round) for p in rows)
    return roster, {p.seed: _withdrawal(p) for p in rows if p.withdrawn_at is not None}


def _heading(row: Any) -> Heading:
    return Heading(
        row.id,
        row.organiser_id,
        row.name,
        Ruleset(row.ruleset),
        TimeControl(**row.time_control),
        aware(row.started_at),
    )


def clock_json(tc: TimeControl) -> dict[str, int | None]:
    """A time control as stored (the fields of the wire's ``TimeControl``)."""
    return {
        "base_seconds": tc.base_seconds,
        "increment_seconds": tc.increment_seconds,
        "days_per_move": tc.days_per_move,
    }


# A seed list as stored: a drawn one's kind is written "draw", the name it had before the shared vocabulary.
_STORED_SEEDING = {Seeding.RATING: "rating", Seeding.CUSTOM: "custom", Seeding.RANDOM: "draw"}
_SEEDING_STORED = {stored: kind for kind, stored in _STORED_SEEDING.items()}


def seed_list_json(seeds: SeedList) -> dict[str, Any]:
    return {"kind": _STORED_SEEDING[seeds.kind], "order": list(seeds.order), "draw_seed": seeds.draw_seed}


def seed_list(data: Mapping[str, Any]) -> SeedList:
    return SeedList(
        _SEEDING_STORED[data["kind"]], tuple(str(p) for p in data["order"]), data.get("draw_seed")
    )
