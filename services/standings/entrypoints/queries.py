"""The reads behind the API and the pages, through the service's views: the standings table comes
from the snapshot the consumer wrote; the crosstable, a round, the bracket and the TRF read the whole
tournament, its rows and snapshot of one revision."""

from __future__ import annotations

import uuid

from services.standings.bootstrap import StandingsService
from services.standings.domain import errors
from services.standings.domain.to_trf import trf_document
from services.standings.domain.tournament import Tournament
from services.standings.entrypoints.schemas import ArenaOut, BracketOut, CrosstableOut, RoundOut, StandingsOut
from shared.trf import write


def _missing(tournament_id: uuid.UUID) -> errors.TournamentNotFound:
    return errors.TournamentNotFound(f"no tournament {tournament_id}")


def _tournament(svc: StandingsService, tournament_id: uuid.UUID) -> Tournament:
    found = svc.views.tournament(tournament_id)
    if found is None:
        raise _missing(tournament_id)
    return found


def standings(svc: StandingsService, tournament_id: uuid.UUID) -> StandingsOut:
    found = svc.views.summary(tournament_id)
    if found is None:
        raise _missing(tournament_id)
    return StandingsOut.of(*found)


def crosstable(svc: StandingsService, tournament_id: uuid.UUID) -> CrosstableOut:
    return CrosstableOut.of(_tournament(svc, tournament_id))


def round_(svc: StandingsService, tournament_id: uuid.UUID, number: int) -> RoundOut:
    return RoundOut.of(_tournament(svc, tournament_id), number)


def trf(svc: StandingsService, tournament_id: uuid.UUID) -> str:
    return write(trf_document(_tournament(svc, tournament_id)), canonical=True)


def bracket(svc: StandingsService, tournament_id: uuid.UUID) -> BracketOut:
    return BracketOut.of(_tournament(svc, tournament_id))


def arena(svc: StandingsService, arena_id: uuid.UUID) -> ArenaOut:
    """An arena's ranking with its marks, the games in progress and the finished games."""
    found = svc.views.arena(arena_id)
    if found is None:
        raise errors.TournamentNotFound(f"no arena {arena_id}")
    return ArenaOut.of(found)
