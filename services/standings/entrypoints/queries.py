"""The reads behind the API and the pages, through the service's views: the standings table comes
from the snapshot the consumer wrote; the crosstable, a round, the bracket and the TRF read the whole
tournament, its rows and snapshot of one revision. The exports: TRF-2026, TRF-16 and the standings as CSV."""

from __future__ import annotations

import csv
import io
import uuid

from services.standings.bootstrap import StandingsService
from services.standings.domain import errors
from services.standings.domain.announced import AnnouncedTournament
from services.standings.domain.listing import Index
from services.standings.domain.to_trf import trf_document
from services.standings.domain.tournament import Tournament
from services.standings.entrypoints.schemas.arena import ArenaOut
from services.standings.entrypoints.schemas.bracket import BracketOut
from services.standings.entrypoints.schemas.crosstable import CrosstableOut
from services.standings.entrypoints.schemas.player import PlayerPageOut
from services.standings.entrypoints.schemas.round import RoundOut
from services.standings.entrypoints.schemas.standings import StandingsOut
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


def pairing_rounds(
    svc: StandingsService, tournament_id: uuid.UUID, number: int | None = None
) -> list[RoundOut]:
    """The pairing lists: round ``number``, or every paired round (of a tournament with a table)."""
    if number is not None:
        return [round_(svc, tournament_id, number)]
    return [round_(svc, tournament_id, r.number) for r in standings(svc, tournament_id).rounds]


def player(svc: StandingsService, tournament_id: uuid.UUID, seed: int) -> PlayerPageOut:
    t = _tournament(svc, tournament_id)
    if seed not in {p.seed for p in t.players}:
        raise errors.PlayerNotFound(f"no player with start number {seed} in tournament {tournament_id}")
    return PlayerPageOut.of(t, seed)


INDEX_LIMIT = 100  # tournaments per list of the index: the latest (upcoming: the next ones)


def index(svc: StandingsService, query: str | None) -> Index:
    return svc.views.index(query.strip() if query else None, INDEX_LIMIT)


def announced(svc: StandingsService, tournament_id: uuid.UUID) -> AnnouncedTournament:
    """A tournament announced but not started here (cancelled ones too: their page says so)."""
    found = svc.views.announced(tournament_id)
    if found is None:
        raise _missing(tournament_id)
    return found


def trf(svc: StandingsService, tournament_id: uuid.UUID, *, trf2026: bool = True) -> str:
    """The event as TRF-2026, or as TRF-16 (the rating officer's file) with ``trf2026=False``."""
    return write(trf_document(_tournament(svc, tournament_id), trf2026=trf2026), canonical=True)


CSV_HEADER = ("Rank", "Place", "SNo", "Title", "Name", "FED", "FIDE ID", "Rtg", "Pts")


def _cell(value: int | float | None) -> str:
    return "" if value is None else f"{value:g}"


def standings_csv(svc: StandingsService, tournament_id: uuid.UUID) -> str:
    """The table as CSV (RFC 4180, a header line): rank, place, start number, title, name,
    federation, FIDE id, rating, points, each ranking tie-break and each column shown for
    information by its code, and the status (withdrawn, excluded) with its reason."""
    table = standings(svc, tournament_id)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*CSV_HEADER, *table.tiebreaks, *table.shown, "Status", "Status reason"])
    for row in table.rows:
        writer.writerow(
            [
                row.rank,
                row.place,
                row.seed,
                row.title or "",
                row.name,
                row.federation or "",
                row.fide_id or "",
                "" if row.rating is None else row.rating,
                _cell(row.points),
                *(_cell(row.tiebreaks[c]) for c in table.tiebreaks),
                *(_cell(row.shown[c]) for c in table.shown),
                "" if row.status is None else row.status.value,
                row.status_reason or "",
            ]
        )
    return out.getvalue()


def bracket(svc: StandingsService, tournament_id: uuid.UUID) -> BracketOut:
    return BracketOut.of(_tournament(svc, tournament_id))


def arena(svc: StandingsService, arena_id: uuid.UUID) -> ArenaOut:
    """An arena's ranking with its marks, the games in progress and the finished games."""
    found = svc.views.arena(arena_id)
    if found is None:
        raise errors.TournamentNotFound(f"no arena {arena_id}")
    return ArenaOut.of(found)
