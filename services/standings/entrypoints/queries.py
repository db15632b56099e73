"""The reads behind the API and the pages. The standings table comes from the snapshot the consumer
wrote; the crosstable, a round and the TRF read the rows, under a shared lock of the tournament's
row so that rows and snapshot are of the same revision."""

from __future__ import annotations

import uuid
from typing import Any

from services.standings.bootstrap import StandingsService
from services.standings.domain import errors
from services.standings.domain.to_trf import trf_document
from services.standings.domain.tournament import Tournament
from services.standings.entrypoints.schemas import BracketOut, CrosstableOut, RoundOut, StandingsOut
from shared.trf import write


def _missing(tournament_id: uuid.UUID) -> errors.TournamentNotFound:
    return errors.TournamentNotFound(f"no tournament {tournament_id}")


def _tournament(svc: StandingsService, tournament_id: uuid.UUID) -> tuple[Tournament, dict[str, Any]]:
    with svc.uow() as uow:
        found = uow.tournaments.get(tournament_id, consistent=True)
    if found is None:
        raise _missing(tournament_id)
    return found


def standings(svc: StandingsService, tournament_id: uuid.UUID) -> StandingsOut:
    with svc.uow() as uow:
        found = uow.tournaments.summary(tournament_id)
    if found is None:
        raise _missing(tournament_id)
    return StandingsOut.of(*found)


def crosstable(svc: StandingsService, tournament_id: uuid.UUID) -> CrosstableOut:
    return CrosstableOut.of(*_tournament(svc, tournament_id))


def round_(svc: StandingsService, tournament_id: uuid.UUID, number: int) -> RoundOut:
    t, snapshot = _tournament(svc, tournament_id)
    return RoundOut.of(t, snapshot, number)


def trf(svc: StandingsService, tournament_id: uuid.UUID) -> str:
    t, _snapshot = _tournament(svc, tournament_id)
    return write(trf_document(t))


def bracket(svc: StandingsService, tournament_id: uuid.UUID) -> BracketOut:
    return BracketOut.of(*_tournament(svc, tournament_id))
