"""The tournaments on SQL: the repository the handlers load and save them through, and the loading
the HTTP views share with it.

A tournament is rows (``orm.py``: the tournament with its JSON columns, players, rounds, games,
byes, matches, corrections, the byes asked for rounds not paired yet and the excused absences) and is saved as the changes it recorded (``Tournament.take_changes``): a
paired round is inserted, a result, a publication, a withdrawal or a colour swap updates its one row,
a correction is inserted beside its game, a reset deletes the rounds, and the tournament's row gets
the new revision and snapshot. Results arrive far more often than a tournament is loaded whole, so each
change has its statement built once, at import; a message only binds values.

Locked reads go through the consumer's live tables (``table_cache.py``): the row lock gives the
revision, and a tournament kept in memory at that revision is used as it is, else it is loaded from
the rows. The tournaments a unit of work locked go back to the cache when it commits.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters import columns
from services.standings.adapters.orm import (
    bye_requests,
    byes,
    corrections,
    excused_absences,
    games,
    incidents,
    matches,
    players,
    rounds,
    tournaments,
)
from services.standings.adapters.table_cache import TableCache
from services.standings.domain.bracket import BracketMatch
from services.standings.domain.errors import TournamentExists
from services.standings.domain.events import (
    AbsenceExcused,
    ByeRequested,
    ByeRequestTakenBack,
    ColoursSwapped,
    GameCancelled,
    GamesAdded,
    IncidentRecorded,
    MatchDecided,
    MatchPlayersChanged,
    PlayerAdded,
    PlayerWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundAdded,
    RoundPublished,
    TournamentCompleted,
    TournamentReset,
    TournamentRestarted,
)
from services.standings.domain.rounds import Competitor, Correction, Game, Incident, PairedRound, RoundBye
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import TournamentInfo
from services.standings.domain.withdrawals import PlayerStatus, Withdrawal
from shared.authority import Role
from shared.database import aware_or_none
from shared.repository import Repository
from shared.resets import Resets
from shared.scoring import Outcome
from shared.vocabulary import ByeKind, DecidedIn, Ruleset, Section, System

# -- loading ------------------------------------------------------------------------------------------

_TID: sa.BindParameter[Any] = sa.bindparam("tid")
_TOURNAMENT = sa.select(tournaments).where(tournaments.c.id == _TID)
_TOURNAMENT_SHARED = _TOURNAMENT.with_for_update(read=True)
_PLAYERS = sa.select(players).where(players.c.tournament_id == _TID).order_by(players.c.seed)
_ROUNDS = sa.select(rounds).where(rounds.c.tournament_id == _TID).order_by(rounds.c.number)
_GAMES = (
    sa.select(games)
    .where(games.c.tournament_id == _TID)
    .order_by(games.c.round, games.c.leg, games.c.board, games.c.number)
)
_BYES = sa.select(byes).where(byes.c.tournament_id == _TID).order_by(byes.c.round, byes.c.seed)
_BYE_REQUESTS = sa.select(bye_requests.c.round, bye_requests.c.seed).where(
    bye_requests.c.tournament_id == _TID
)
_EXCUSED = sa.select(excused_absences.c.round, excused_absences.c.seed).where(
    excused_absences.c.tournament_id == _TID
)
_MATCHES = (
    sa.select(matches).where(matches.c.tournament_id == _TID).order_by(matches.c.round, matches.c.board)
)
_INCIDENTS = (
    sa.select(incidents)
    .where(incidents.c.tournament_id == _TID)
    .order_by(incidents.c.game_id, incidents.c.number)
)
_CORRECTIONS = (
    sa.select(corrections)
    .where(corrections.c.tournament_id == _TID)
    .order_by(corrections.c.game_id, corrections.c.number)
)


def info_of(row: Any) -> TournamentInfo:
    started_at = aware_or_none(row.started_at)
    assert started_at is not None
    return TournamentInfo(
        id=row.id,
        name=row.name,
        ruleset=Ruleset(row.ruleset),
        variant=row.variant,
        started_at=started_at,
        time_control=columns.time_control_of(row.time_control),
        double_rounds=row.double_rounds,
        rated=row.rated,
        opening=row.opening,
        system=None if row.system is None else System(row.system),
        total_rounds=row.total_rounds,
        completed_at=aware_or_none(row.completed_at),
        knockout=None if row.knockout is None else columns.knockout_of(row.knockout),
        reset_at=aware_or_none(row.reset_at),
        fide=None if row.fide is None else columns.fide_of(row.fide),
    )


def _withdrawal(p: Any) -> Withdrawal | None:
    if p.status is None:
        return None
    at = aware_or_none(p.status_at)
    assert at is not None
    role = None if p.status_role is None else Role(p.status_role)
    return Withdrawal(p.seed, PlayerStatus(p.status), p.status_reason, at, role, p.status_by)


def _correction(c: Any) -> Correction:
    at = aware_or_none(c.decided_at)
    assert at is not None
    role = None if c.role is None else Role(c.role)
    return Correction(Outcome(c.old_outcome), Outcome(c.outcome), c.reason, role, c.decided_by, at)


def _incident(i: Any) -> Incident:
    at = aware_or_none(i.decided_at)
    assert at is not None
    role = None if i.role is None else Role(i.role)
    return Incident(i.player_seed, i.kind, i.occurrence, i.consequence, i.reason, role, i.decided_by, at)


def _competitor(p: Any) -> Competitor:
    profile = None if p.profile is None else columns.profile_of(p.profile)
    return Competitor(p.seed, p.player_id, p.name, p.rating, profile, p.from_round)


def load_tournament(
    session: Session, tournament_id: uuid.UUID, *, shared_lock: bool = False
) -> Tournament | None:
    """The whole tournament from its rows, as last saved. ``shared_lock`` reads under a shared lock
    of the tournament's row, so the rows and the snapshot are of one revision (a writer holds the
    row lock for every change)."""
    key = {"tid": tournament_id}
    row = session.execute(_TOURNAMENT_SHARED if shared_lock else _TOURNAMENT, key).first()
    if row is None:
        return None
    player_rows = session.execute(_PLAYERS, key).all()
    roster = [_competitor(p) for p in player_rows]
    withdrawals = [w for w in map(_withdrawal, player_rows) if w is not None]
    by_round = {
        r.number: PairedRound(r.number, [], [], r.published, paired_at=aware_or_none(r.paired_at))
        for r in session.execute(_ROUNDS, key)
    }
    for g in session.execute(_GAMES, key):
        by_round[g.round].games.append(
            Game(
                g.game_id,
                g.round,
                g.board,
                g.white_seed,
                g.black_seed,
                g.leg,
                Outcome(g.outcome) if g.outcome else None,
                g.reason,
                aware_or_none(g.finished_at),
                g.match_id,
                g.number,
                g.label,
                aware_or_none(g.cancelled_at),
                g.rated,
                opening=g.opening,
            )
        )
    if by_round:
        by_game = {g.game_id: g for r in by_round.values() for g in r.games}
        for c in session.execute(_CORRECTIONS, key):
            by_game[c.game_id].corrections.append(_correction(c))
        for i in session.execute(_INCIDENTS, key):
            by_game[i.game_id].incidents.append(_incident(i))
    for b in session.execute(_BYES, key):
        by_round[b.round].byes.append(RoundBye(b.round, b.seed, ByeKind(b.kind), b.late))
    for m in session.execute(_MATCHES, key):
        by_round[m.round].matches.append(
            BracketMatch(
                m.match_id,
                m.round,
                Section(m.section),
                m.section_round,
                m.number,
                m.board,
                (m.seed_a, m.seed_b),
                m.first_white,
                m.winner,
                None if m.how is None else DecidedIn(m.how),
                aware_or_none(m.decided_at),
                m.revision,
            )
        )
    return Tournament(
        info_of(row),
        roster,
        by_round,
        None if row.placing is None else columns.placing_of(row.placing),
        withdrawals=withdrawals,
        bye_requests=[(r.round, r.seed) for r in session.execute(_BYE_REQUESTS, key)],
        excused=[(r.round, r.seed) for r in session.execute(_EXCUSED, key)],
        revision=row.revision,
        snapshot=columns.snapshot_of(row.snapshot),
        resets=Resets.from_json(row.resets),
    )


# -- saving -------------------------------------------------------------------------------------------

_LOCK = sa.select(tournaments.c.revision).where(tournaments.c.id == _TID).with_for_update()
_INSERT_TOURNAMENT = sa.insert(tournaments)
_INSERT_PLAYERS = sa.insert(players)
_INSERT_ROUND = sa.insert(rounds)
_INSERT_GAMES = sa.insert(games)
_INSERT_BYES = sa.insert(byes)
_INSERT_MATCHES = sa.insert(matches)
_PUBLISH_ROUND = (
    sa.update(rounds)
    .where(rounds.c.tournament_id == _TID, rounds.c.number == sa.bindparam("n"))
    .values(published=True)
)
_RECORD_RESULT = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"))
    .values(
        outcome=sa.bindparam("outcome"),
        reason=sa.bindparam("reason"),
        finished_at=sa.bindparam("at"),
        rated=sa.bindparam("rated"),
    )
)
_CORRECT_RESULT = (
    sa.update(games).where(games.c.game_id == sa.bindparam("gid")).values(outcome=sa.bindparam("outcome"))
)
_INSERT_CORRECTION = sa.insert(corrections)
_INSERT_INCIDENT = sa.insert(incidents)
_SWAP_COLOURS = (
    sa.update(games)
    .where(games.c.game_id == sa.bindparam("gid"))
    .values(white_seed=sa.bindparam("white"), black_seed=sa.bindparam("black"))
)
_MATCH_PLAYERS = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(seed_a=sa.bindparam("a"), seed_b=sa.bindparam("b"), first_white=sa.bindparam("first"))
)
_WITHDRAW = (
    sa.update(players)
    .where(players.c.tournament_id == _TID, players.c.seed == sa.bindparam("pseed"))
    .values(
        status=sa.bindparam("status"),
        status_reason=sa.bindparam("reason"),
        status_at=sa.bindparam("at"),
        status_role=sa.bindparam("role"),
        status_by=sa.bindparam("by"),
    )
)
_FORGET = [  # a reset: the rounds and what hangs on them, children first
    sa.delete(table).where(table.c.tournament_id == _TID)
    for table in (corrections, incidents, games, byes, matches, rounds, bye_requests, excused_absences)
]
_INSERT_BYE_REQUEST = sa.insert(bye_requests)
_DELETE_BYE_REQUEST = sa.delete(bye_requests).where(
    bye_requests.c.tournament_id == _TID,
    bye_requests.c.round == sa.bindparam("n"),
    bye_requests.c.seed == sa.bindparam("pseed"),
)
_INSERT_EXCUSED = sa.insert(excused_absences)
_CLEAR_WITHDRAWALS = (
    sa.update(players)
    .where(players.c.tournament_id == _TID)
    .values(status=None, status_reason=None, status_at=None, status_role=None, status_by=None)
)
_FORGET_PLAYERS = sa.delete(players).where(players.c.tournament_id == _TID)
_CANCEL_GAME = (
    sa.update(games).where(games.c.game_id == sa.bindparam("gid")).values(cancelled_at=sa.bindparam("at"))
)
_DECIDE_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == _TID, matches.c.match_id == sa.bindparam("mid"))
    .values(
        winner=sa.bindparam("winner"),
        how=sa.bindparam("how"),
        decided_at=sa.bindparam("at"),
        revision=sa.bindparam("revision"),
    )
)


@functools.cache
def _update_tournament(names: tuple[str, ...]) -> sa.Update:
    """The tournament's row with these columns changed (each set of columns built once)."""
    return (
        sa.update(tournaments)
        .where(tournaments.c.id == _TID)
        .values({name: sa.bindparam(f"new_{name}") for name in names})
    )


def _what_it_is(info: TournamentInfo) -> dict[str, Any]:
    """The tournament row's columns a start sets (again, after a reset)."""
    return {
        "name": info.name,
        "ruleset": info.ruleset.value,
        "variant": info.variant,
        "double_rounds": info.double_rounds,
        "rated": info.rated,
        "opening": info.opening,
        "time_control": columns.time_control_json(info.time_control),
        "started_at": info.started_at,
        "knockout": None if info.knockout is None else columns.knockout_json(info.knockout),
        "fide": None if info.fide is None else columns.fide_json(info.fide),
    }


def _game_row(tournament_id: uuid.UUID, g: Game) -> dict[str, Any]:
    return {
        "game_id": g.game_id,
        "tournament_id": tournament_id,
        "round": g.round,
        "board": g.board,
        "leg": g.leg,
        "white_seed": g.white,
        "black_seed": g.black,
        "match_id": g.match_id,
        "number": g.number,
        "label": g.label,
        "rated": g.rated,
        "opening": g.opening,
    }


def _player_row(tournament_id: uuid.UUID, p: Competitor) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "seed": p.seed,
        "player_id": p.player_id,
        "name": p.name,
        "rating": p.rating,
        "profile": None if p.profile is None else columns.profile_json(p.profile),
        "from_round": p.from_round,
    }


def _bye_row(tournament_id: uuid.UUID, b: RoundBye) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "round": b.round,
        "seed": b.seed,
        "kind": b.kind.value,
        "late": b.late,
    }


def _match_row(tournament_id: uuid.UUID, m: BracketMatch) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "match_id": m.match_id,
        "round": m.round,
        "section": m.section.value,
        "section_round": m.section_round,
        "number": m.number,
        "board": m.board,
        "seed_a": m.players[0],
        "seed_b": m.players[1],
        "first_white": m.first_white,
    }


class SqlTournamentRepository(Repository[uuid.UUID, Tournament]):
    def __init__(self, session: Session, cache: TableCache | None = None) -> None:
        super().__init__()
        self.session = session
        self._cache = cache
        self._held: dict[uuid.UUID, Tournament] = {}  # locked in this unit of work
        self._rows: dict[uuid.UUID, tuple[Tournament, dict[str, Any]]] = {}  # rows not written yet

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> Tournament | None:
        """The tournament, or None. ``lock`` takes its row lock first (serialising the changes of
        one tournament) and uses the tournament kept in memory when it is at the locked revision."""
        if not lock:
            self.flush()
            return load_tournament(self.session, tournament_id)
        t = self._held.get(tournament_id)
        if t is not None:  # locked already in this transaction: nobody else changed it since
            return t
        revision = self.session.execute(_LOCK, {"tid": tournament_id}).scalar_one_or_none()
        if revision is None:
            return None
        t = self._cache.take(tournament_id, revision) if self._cache is not None else None
        if t is None:
            t = load_tournament(self.session, tournament_id)
            assert t is not None  # locked above
        self._held[tournament_id] = t
        return t

    def _insert(self, t: Tournament) -> None:
        info = t.info
        try:
            self.session.execute(
                _INSERT_TOURNAMENT,
                {
                    "id": info.id,
                    **_what_it_is(info),
                    "system": None if info.system is None else info.system.value,
                    "total_rounds": info.total_rounds,
                    "revision": t.revision,
                    "snapshot": columns.snapshot_json(t.snapshot),
                },
            )
        except sa.exc.IntegrityError as exc:
            raise TournamentExists(f"tournament {info.id} is recorded already") from exc
        self._add_players(t)
        t.take_changes()
        self._held[info.id] = t

    def _update(self, t: Tournament) -> None:
        """Write what changed since the tournament was loaded or last saved; nothing if nothing did.
        The tournament's own row (its revision, its snapshot) is written by :meth:`flush`, once for
        all the changes of a batch: the unit of work flushes before it commits and at the end of each
        savepoint."""
        changes = t.take_changes()
        if not changes:
            return
        row = self._rows.setdefault(t.id, (t, {}))[1]
        for change in changes:
            match change:
                case RoundAdded(round=rnd):
                    row["system"] = None if t.info.system is None else t.info.system.value
                    row["total_rounds"] = t.info.total_rounds
                    row["double_rounds"] = t.info.double_rounds  # four players: pairing's double rounds
                    self._add_round(t.id, rnd)
                case GamesAdded(games=new_games, matches=new_matches):
                    self._add_games(t.id, new_games, new_matches)
                case ResultRecorded(game=g):
                    assert g.outcome is not None
                    self.session.execute(
                        _RECORD_RESULT,
                        {
                            "gid": g.game_id,
                            "outcome": g.outcome.value,
                            "reason": (g.reason or "")[:40],
                            "at": g.finished_at,
                            "rated": g.rated,
                        },
                    )
                case RoundPublished(round=number):
                    self.session.execute(_PUBLISH_ROUND, {"tid": t.id, "n": number})
                case MatchDecided(match=m):
                    self.session.execute(
                        _DECIDE_MATCH,
                        {
                            "tid": t.id,
                            "mid": m.match_id,
                            "winner": m.winner,
                            "how": None if m.how is None else m.how.value,
                            "at": m.decided_at,
                            "revision": m.revision,
                        },
                    )
                case ResultCorrected(game=g, correction=c):
                    self._correct(t.id, g, c)
                case ColoursSwapped(game=g, match=m):
                    self.session.execute(
                        _SWAP_COLOURS, {"gid": g.game_id, "white": g.white, "black": g.black}
                    )
                    if m is not None:
                        self._match_players(t.id, m)
                case MatchPlayersChanged(match=m):
                    self._match_players(t.id, m)
                case PlayerWithdrawn(withdrawal=w):
                    self.session.execute(
                        _WITHDRAW,
                        {
                            "tid": t.id,
                            "pseed": w.seed,
                            "status": w.status.value,
                            "reason": None if w.reason is None else w.reason[:500],
                            "at": w.at,
                            "role": None if w.role is None else w.role.value,
                            "by": w.by,
                        },
                    )
                case GameCancelled(game=g):
                    self.session.execute(_CANCEL_GAME, {"gid": g.game_id, "at": g.cancelled_at})
                case TournamentCompleted(completed_at=at, placing=placing):
                    row["completed_at"] = at
                    if placing is not None:
                        row["placing"] = columns.placing_json(placing)
                case TournamentReset(at=at):
                    for statement in _FORGET:
                        self.session.execute(statement, {"tid": t.id})
                    self.session.execute(_CLEAR_WITHDRAWALS, {"tid": t.id})
                    row.update(
                        system=None,
                        total_rounds=None,
                        completed_at=None,
                        placing=None,
                        reset_at=at,
                        resets=t.resets.to_json(),
                    )
                case TournamentRestarted():
                    self.session.execute(_FORGET_PLAYERS, {"tid": t.id})
                    self._add_players(t)
                    row.update(_what_it_is(t.info), reset_at=None)
                case PlayerAdded(player=p, byes=late_byes):
                    self.session.execute(_INSERT_PLAYERS, [_player_row(t.id, p)])
                    if late_byes:
                        self.session.execute(_INSERT_BYES, [_bye_row(t.id, b) for b in late_byes])
                case IncidentRecorded(game=g, incident=i):
                    self.session.execute(
                        _INSERT_INCIDENT,
                        {
                            "game_id": g.game_id,
                            "number": len(g.incidents),
                            "tournament_id": t.id,
                            "player_seed": i.player,
                            "kind": i.kind,
                            "occurrence": i.occurrence,
                            "consequence": i.consequence,
                            "reason": None if i.reason is None else i.reason[:500],
                            "role": None if i.role is None else i.role.value,
                            "decided_by": i.by,
                            "decided_at": i.at,
                        },
                    )
                case ByeRequested(round=number, seed=seed):
                    self.session.execute(
                        _INSERT_BYE_REQUEST, {"tournament_id": t.id, "round": number, "seed": seed}
                    )
                case ByeRequestTakenBack(round=number, seed=seed):
                    self.session.execute(_DELETE_BYE_REQUEST, {"tid": t.id, "n": number, "pseed": seed})
                case AbsenceExcused(round=number, seed=seed):
                    self.session.execute(
                        _INSERT_EXCUSED, {"tournament_id": t.id, "round": number, "seed": seed}
                    )
                case _:
                    raise TypeError(f"no statement for {type(change).__name__}")

    def flush(self) -> None:
        """Write the rows of the tournaments saved since the last flush: their revision and snapshot
        (computed here, once per tournament), with the columns their changes set."""
        rows, self._rows = self._rows, {}
        for t, row in rows.values():
            row.update(revision=t.revision, snapshot=columns.snapshot_json(t.snapshot))
            values = {f"new_{name}": value for name, value in row.items()}
            self.session.execute(_update_tournament(tuple(sorted(row))), {"tid": t.id, **values})

    def _add_players(self, t: Tournament) -> None:
        self.session.execute(_INSERT_PLAYERS, [_player_row(t.id, p) for p in t.players])

    def _correct(self, tournament_id: uuid.UUID, g: Game, c: Correction) -> None:
        self.session.execute(_CORRECT_RESULT, {"gid": g.game_id, "outcome": c.outcome.value})
        self.session.execute(
            _INSERT_CORRECTION,
            {
                "game_id": g.game_id,
                "number": len(g.corrections),
                "tournament_id": tournament_id,
                "old_outcome": c.old_outcome.value,
                "outcome": c.outcome.value,
                "reason": None if c.reason is None else c.reason[:500],
                "role": None if c.role is None else c.role.value,
                "decided_by": c.by,
                "decided_at": c.at,
            },
        )

    def _match_players(self, tournament_id: uuid.UUID, m: BracketMatch) -> None:
        self.session.execute(
            _MATCH_PLAYERS,
            {
                "tid": tournament_id,
                "mid": m.match_id,
                "a": m.players[0],
                "b": m.players[1],
                "first": m.first_white,
            },
        )

    def _add_round(self, tournament_id: uuid.UUID, rnd: PairedRound) -> None:
        self.session.execute(
            _INSERT_ROUND,
            {
                "tournament_id": tournament_id,
                "number": rnd.number,
                "published": rnd.published,
                "paired_at": rnd.paired_at,
            },
        )
        self._add_games(tournament_id, rnd.games, rnd.matches)
        if rnd.byes:
            self.session.execute(
                _INSERT_BYES,
                [_bye_row(tournament_id, b) for b in rnd.byes],
            )

    def _add_games(
        self, tournament_id: uuid.UUID, new_games: Sequence[Game], new_matches: Sequence[BracketMatch]
    ) -> None:
        if new_games:
            self.session.execute(_INSERT_GAMES, [_game_row(tournament_id, g) for g in new_games])
        if new_matches:
            self.session.execute(_INSERT_MATCHES, [_match_row(tournament_id, m) for m in new_matches])

    # -- the unit of work's side ---------------------------------------------------------------------

    def held(self) -> list[Tournament]:
        """The tournaments locked in this unit of work, as they are now (for the cache at commit)."""
        return list(self._held.values())

    def forget(self) -> None:
        """A savepoint or the transaction was rolled back: what this unit holds in memory may carry
        changes the database no longer has, so none of it is trusted."""
        self._held.clear()
        self._rows.clear()
