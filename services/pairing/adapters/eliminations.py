"""Knockouts and double knockouts on SQL: the bracket (``brackets``), its matches and their games, on
the head row and roster every format has (``rows.py``); and what each reset of one removed (``resets``,
written with the reset).

Loading is three statements (:func:`read_elimination`); saving writes only what the elimination says it
changed, each change with a statement built once.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import brackets, games, matches, players, resets, rounds, tournaments
from services.pairing.adapters.rows import (
    TID,
    RowLocks,
    clock_json,
    close_round,
    correct_outcome,
    finish,
    heading_of,
    insert_head,
    insert_round,
    publish_round,
    record_outcome,
    set_colours,
    withdraw,
    withdrawal_of,
)
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
from services.pairing.domain.elimination.paired_matches import KnockoutGame, KnockoutMatch
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.heading import Player, Status
from services.pairing.domain.rounds.platform import Plan
from shared.database import aware
from shared.repository import Repository
from shared.resets import Resets
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.vocabulary import DecidedIn, Seeding

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
    .where(tournaments.c.id == TID)
    .order_by(players.c.seed)
)
_MATCHES = (  # with their round's state: every paired round has matches
    sa.select(matches, rounds.c.published_at, rounds.c.completed_at)
    .join(
        rounds, sa.and_(rounds.c.tournament_id == matches.c.tournament_id, rounds.c.number == matches.c.round)
    )
    .where(matches.c.tournament_id == TID)
)
_MATCH_GAMES = (
    sa.select(games)
    .where(games.c.tournament_id == TID, games.c.match_id.is_not(None))
    .order_by(games.c.number)
)
_INSERT_GAMES = sa.insert(games)
_INSERT_BRACKET = sa.insert(brackets)
_INSERT_MATCHES = sa.insert(matches)
_REOPEN_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == TID, matches.c.match_id == sa.bindparam("mid"))
    .values(how=None, decided_at=None)
)
_MATCH_HOW = (
    sa.update(matches)
    .where(matches.c.tournament_id == TID, matches.c.match_id == sa.bindparam("mid"))
    .values(how=sa.bindparam("decision"), decided_at=sa.bindparam("at"), decisions=sa.bindparam("n"))
)
_FIRST_WHITE = (
    sa.update(matches)
    .where(matches.c.tournament_id == TID, matches.c.match_id == sa.bindparam("mid"))
    .values(first_white=sa.bindparam("slot"))
)
_REPAIR_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == TID, matches.c.match_id == sa.bindparam("mid"))
    .values(seed_a=sa.bindparam("a"), seed_b=sa.bindparam("b"))
)
_REPLACE_GAME = (
    sa.update(games).where(games.c.game_id == sa.bindparam("gid")).values(replaced_by=sa.bindparam("new"))
)
_ERASE = sa.delete(tournaments).where(tournaments.c.id == TID)
_REMEMBER_RESET = sa.insert(resets)
_RESETS = (
    sa.select(resets.c.start, resets.c.reset_at, resets.c.games)
    .where(resets.c.tournament_id == TID)
    .order_by(resets.c.start)
)
_DECIDE_MATCH = (
    sa.update(matches)
    .where(matches.c.tournament_id == TID, matches.c.match_id == sa.bindparam("mid"))
    .values(how=sa.bindparam("decision"), decided_at=sa.bindparam("at"), decisions=sa.bindparam("n"))
)
_CANCEL_GAMES = (
    sa.update(games)
    .where(games.c.game_id.in_(sa.bindparam("ids", expanding=True)))
    .values(cancelled_at=sa.bindparam("at"))
)
_MOVE_BRACKET = (
    sa.update(brackets).where(brackets.c.tournament_id == TID).values(state=sa.bindparam("bracket"))
)
_COUNT_ROUNDS = (
    sa.update(tournaments).where(tournaments.c.id == TID).values(total_rounds=sa.bindparam("total"))
)


class SqlEliminations(Repository[uuid.UUID, Elimination]):
    def __init__(self, session: Session, locks: RowLocks) -> None:
        super().__init__()
        self.session = session
        self.locks = locks

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> Elimination | None:
        if lock and self.locks.take(tournament_id) is None:
            return None
        return read_elimination(self.session, tournament_id)

    def _insert(self, e: Elimination) -> None:
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
        self._update(e)

    def _update(self, e: Elimination) -> None:
        tid = e.id
        for change in e.take_changes():
            if isinstance(change, RoundAdded):
                self._add_round(e, change)
            elif isinstance(change, GamesAdded):
                match = e.matches[change.match_id]
                ids = set(change.game_ids)
                self._add_games(tid, match, [g for g in match.games if g.game_id in ids])
            elif isinstance(change, OutcomeSet):
                record_outcome(self.session, change)
            elif isinstance(change, OutcomeCorrected):
                correct_outcome(self.session, change)
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
                set_colours(self.session, change)
                found = e.game(change.game_id)
                assert found is not None
                match = found[0]
                self.session.execute(
                    _FIRST_WHITE, {"tid": tid, "mid": str(match.id), "slot": match.first_white}
                )
            elif isinstance(change, WithdrawalRecorded):
                withdraw(self.session, tid, change.seed, e.withdrawals[change.seed])
            elif isinstance(change, RoundClosed):
                close_round(self.session, tid, change.number, change.at)
            elif isinstance(change, RoundMadePublic):
                publish_round(self.session, tid, change.number, change.at)
            elif isinstance(change, Finished):
                finish(self.session, tid)
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

    def _add_round(self, e: Elimination, change: RoundAdded) -> None:
        """A knockout round: unpublished until its organiser publishes it."""
        row = {
            "tournament_id": e.id,
            "number": change.number,
            "paired_at": change.paired_at,
            "published_at": None,
        }
        insert_round(self.session, row)
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

    def _add_games(self, tid: uuid.UUID, match: KnockoutMatch, new: Iterable[KnockoutGame]) -> None:
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
    found: dict[MatchId, KnockoutMatch] = {}
    for m in session.execute(_MATCHES, key):
        mid = MatchId.parse(m.match_id)
        how = DecidedIn(m.how) if m.how else None
        found[mid] = KnockoutMatch(
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
            RateOfPlay(**g.time_control),
            g.label,
        )
        outcome = Outcome(g.outcome) if g.outcome else None
        match.games.append(
            KnockoutGame(g.game_id, planned, outcome, g.cancelled_at is not None, g.replaced_by)
        )
    return Elimination(
        heading_of(row),
        tuple(Player(p.seed, p.player_id, p.player_name, p.rating) for p in head),
        MatchFormat.from_dict(row.match_format),
        bracket_from_dict(row.state),
        seed_list(row.seeding),
        found,
        published,
        completed,
        Status(row.status),
        {p.seed: withdrawal_of(p) for p in head if p.withdrawn_at is not None},
        row.restarts,
    )


class SqlResets:
    """What the resets of each knockout removed (written with the reset by :class:`SqlEliminations`)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def of(self, tournament_id: uuid.UUID) -> Resets:
        found = Resets()
        for row in self.session.execute(_RESETS, {"tid": tournament_id}):
            found = found.add(aware(row.reset_at), (uuid.UUID(g) for g in row.games), row.start)
        return found


# A seed list as stored: a drawn one's kind is written "draw", the name it had before the shared vocabulary.
_STORED_SEEDING = {Seeding.RATING: "rating", Seeding.CUSTOM: "custom", Seeding.RANDOM: "draw"}
_SEEDING_STORED = {stored: kind for kind, stored in _STORED_SEEDING.items()}


def seed_list_json(seeds: SeedList) -> dict[str, Any]:
    return {"kind": _STORED_SEEDING[seeds.kind], "order": list(seeds.order), "draw_seed": seeds.draw_seed}


def seed_list(data: Mapping[str, Any]) -> SeedList:
    return SeedList(
        _SEEDING_STORED[data["kind"]], tuple(str(p) for p in data["order"]), data.get("draw_seed")
    )
