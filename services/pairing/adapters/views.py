"""What the pairing API reads: a tournament as it stands, for the pages and the JSON views. Reads, not
the repositories' business: nothing here is changed or saved."""

from __future__ import annotations

import uuid
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.pairing.adapters.arbiters import SqlArbiters
from services.pairing.adapters.eliminations import read_elimination
from services.pairing.adapters.orm import group_playoffs, tournaments
from services.pairing.adapters.rosters import SqlRosters
from services.pairing.adapters.tournaments import read_tournament
from services.pairing.domain.arbiters import authority
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.domain.roster import heard_revision
from services.pairing.domain.rounds.tournament import PairingTournament
from shared.authority import Authority
from shared.vocabulary import System

# A shared lock of the tournament's row: every change holds the row lock, so what follows (several
# statements) sees one state, not half of a pairing.
_SHARED_LOCK = (
    sa.select(tournaments.c.system).where(tournaments.c.id == sa.bindparam("tid")).with_for_update(read=True)
)

_GROUP_PLAYOFF = sa.select(group_playoffs.c.state).where(
    group_playoffs.c.tournament_id == sa.bindparam("tid")
)


class TournamentView(NamedTuple):
    tournament: PairingTournament
    """Players, rounds and games (a knockout's too)."""
    elimination: Elimination | None
    """The bracket, matches and games of a knockout."""
    authority: Authority
    """Its organiser and the arbiters appointed now."""
    roster_revision: int = 0
    """Registration's roster revision up to which every roster change is heard (in this same state)."""


class PairingViews:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def group_playoff(self, tournament_id: uuid.UUID) -> GroupPlayoffTournament | None:
        """A group-playoff event as it stands; None if there is no such event."""
        with self._sessions() as session, session.begin():
            row = session.execute(_SHARED_LOCK, {"tid": tournament_id}).first()
            if row is None or System(row.system) is not System.GROUP_PLAYOFF:
                return None
            state = session.execute(_GROUP_PLAYOFF, {"tid": tournament_id}).scalar()
        return None if state is None else GroupPlayoffTournament.from_dict(tournament_id, state)

    def tournament(self, tournament_id: uuid.UUID) -> TournamentView | None:
        """The tournament's players, rounds and games, its bracket if it is an elimination, and who
        decides in it; None if there is no such tournament."""
        with self._sessions() as session, session.begin():
            row = session.execute(_SHARED_LOCK, {"tid": tournament_id}).first()
            if row is None:
                return None
            t = read_tournament(session, tournament_id)
            assert t is not None
            e = read_elimination(session, tournament_id) if System(row.system).elimination else None
            arbiters = SqlArbiters(session).get(tournament_id)
            revision = heard_revision(SqlRosters(session).get(tournament_id))
        return TournamentView(t, e, authority(t.organiser_id, arbiters), revision)

    def roster_revision(self, tournament_id: uuid.UUID) -> int:
        """The roster revision up to which pairing has heard every change of the tournament's roster (0:
        none numbered, or a tournament it has not heard of)."""
        with self._sessions() as session, session.begin():
            return heard_revision(SqlRosters(session).get(tournament_id))
