"""A ``group-playoff`` event's page (RULES.md §5, "Public pages"): the JSON model of
``GET /tournaments/{id}/group-playoff`` and the HTML page ``/t/{id}/group-playoff`` (``/t/{id}`` routes
to it for such an event). Both render :class:`GroupPlayoffPageOut`, made from the projection
(:mod:`services.standings.domain.group_playoff_page`): the two group tables with the criterion that
decided each place, the play-offs and lots, every match with its games, the deadlines and the overdue
games, the announcements (phases, withdrawals and exclusions), and the final placing."""

from __future__ import annotations

import datetime as dt
import uuid
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

from services.standings.bootstrap import StandingsService
from services.standings.domain import errors
from services.standings.domain.group_playoff_page import Announcement, GameFacts, GroupPlayoffPage, how
from shared.group_playoff import Match

CRITERIA: dict[str, str] = {
    "a": "(a) match points",
    "b": "(b) board points",
    "c": "(c) match points among the tied",
    "d": "(d) board points among the tied",
    "e": "(e) play-off",
    "f": "(f) lot",
    "tied": "still tied",
}
STAGES: dict[str, str] = {
    "group": "Group",
    "playoff": "Play-off",
    "semi-final": "Semi-final",
    "final": "Final",
    "third-place": "Match for 3rd place",
    "fifth-place": "Match for 5th place",
    "seventh-place": "Match for 7th place",
}
HOW = Literal["played", "adjudicated", "lot", "withdrawn"]


def _n(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


class GPPlayerOut(BaseModel):
    player_id: str
    seed: int
    name: str
    rating: int | None
    group: str | None
    creates_games: bool = Field(
        description="false: said at entry they cannot create games; the other player invites (4T1 §4(5))"
    )
    status: Literal["withdrawn", "excluded"] | None = Field(description="left after the start")
    status_reason: str | None
    left_in_phase: int | None = Field(description="the phase whose matches are scored 0:2")


class GPRowOut(BaseModel):
    rank: int
    player_id: str
    name: str
    match_points: float
    board_points: float
    tied_match_points: float | None = Field(description="(c), when tied on (a) and (b)")
    tied_board_points: float | None = Field(description="(d)")
    playoff_needed: bool = Field(description="tied after (a)-(d) once the group's games are all finished")
    decided_by: Literal["a", "b", "c", "d", "e", "f", "tied"]
    criterion: str = Field(description="what decided the place, in words")


class GPGameOut(BaseModel):
    game_id: str
    white: str
    black: str
    inviter: str = Field(
        description="who creates the game: the player named first, unless they cannot create games (4T1 §4(5))"
    )
    extra: int = Field(description="0: one of the match's two games; 1, 2: an extra game")
    label: str | None
    result: str | None = Field(description="1-0, 1/2-1/2, 0-1, +/-, -/+, -/-; null while open")
    reason: str | None
    how: HOW | None
    finished_at: dt.datetime | None
    decided_by_role: str | None = Field(description="who entered the result, if it was not played out")
    overdue: bool = Field(description="its phase's deadline passed and the game is open")


class GPMatchOut(BaseModel):
    match: str
    phase: int
    stage: Literal["group", "playoff", "semi-final", "final", "third-place", "fifth-place", "seventh-place"]
    title: str
    group: str | None
    players: list[str] = Field(description="the one named first first")
    inviter: str | None = Field(
        description="who creates the match's games (4T1 §4(5)); null before they are paired"
    )
    board_points: list[float]
    forfeited_by: str | None = Field(description="withdrawn or excluded: the match scored 0:2")
    winner: str | None
    shared: bool = Field(description="both share it (level where the rules allow)")
    games: list[GPGameOut]


class GPLotOut(BaseModel):
    kind: Literal["groups", "tie", "final-colours", "game"]
    group: str | None
    game_id: str | None = Field(description="kind game: the overdue game the lot decided")
    result: str | None = Field(description="kind game: the result the lot gave")
    seed: str | None
    drawn_by: str | None = Field(description="who drew it ('system': from the event's recorded seed)")
    drawn_at: dt.datetime
    order: list[str] = Field(description="the players in the order drawn")


class GPDeadlineOut(BaseModel):
    phase: int
    at: dt.datetime
    passed: bool


class GPAnnouncementOut(BaseModel):
    kind: Literal["groups", "playoff", "lot", "colour-lot", "phase", "deadline", "withdrawal", "game-lot"]
    at: dt.datetime
    phase: int | None
    group: str | None
    players: list[str]
    text: str


class GPPlaceOut(BaseModel):
    place: int
    player_id: str
    name: str


class GroupPlayoffPageOut(BaseModel):
    """A group-playoff event's page: the group tables with the criterion (a)-(f) that decided each
    place, the lots, every match with its games (groups, play-offs, semi-finals, phase 3), the
    deadlines, the overdue games, the announcements and, at the end, the final placing."""

    tournament_id: uuid.UUID
    name: str
    started_at: dt.datetime
    phase: int = Field(description="the latest phase the organiser opened")
    completed_at: dt.datetime | None
    players: list[GPPlayerOut]
    groups: dict[str, list[GPRowOut]]
    lots: list[GPLotOut]
    matches: list[GPMatchOut]
    deadlines: list[GPDeadlineOut]
    overdue: list[GPGameOut]
    announcements: list[GPAnnouncementOut]
    placing: list[GPPlaceOut] | None

    @classmethod
    def of(cls, page: GroupPlayoffPage, now: dt.datetime) -> GroupPlayoffPageOut:
        names = page.names
        groups = page.groups()
        group_of = {p: g for g, members in groups.items() for p in members}
        by_start = {n: p for p, n in page.start_numbers.items()}
        left = page.withdrawn_in()
        overdue = {g.game_id for g in page.overdue(now)}
        matches = [_match(page, m, overdue) for m in page.all_matches()]
        tables: dict[str, list[GPRowOut]] = {}
        for group in groups:
            table = page.table(group)
            needed = page.playoff_needed(group)
            rows = []
            for r in table.rows:
                decided = page.decided_by(group, table, r.start)
                rows.append(
                    GPRowOut(
                        rank=r.rank,
                        player_id=by_start[r.start],
                        name=names[by_start[r.start]],
                        match_points=float(r.match_points),
                        board_points=float(r.board_points),
                        tied_match_points=_n(r.tied_match_points),
                        tied_board_points=_n(r.tied_board_points),
                        playoff_needed=by_start[r.start] in needed,
                        decided_by=decided,
                        criterion=CRITERIA[decided],
                    )
                )
            tables[group] = rows
        deadlines = [GPDeadlineOut(phase=p, at=at, passed=at <= now) for p, at in page.deadlines().items()]
        return cls(
            tournament_id=page.id,
            name=page.name,
            started_at=page.started_at,
            phase=page.phase,
            completed_at=page.completed_at,
            players=[
                GPPlayerOut(
                    player_id=p.player_id,
                    seed=p.seed,
                    name=p.name,
                    rating=p.rating,
                    group=group_of.get(p.player_id),
                    creates_games=p.creates_games,
                    status=_status(page, p.player_id),
                    status_reason=(w.reason if (w := page.withdrawals.get(p.player_id)) else None),
                    left_in_phase=left.get(p.player_id),
                )
                for p in page.players
            ],
            groups=tables,
            lots=[_lot(a) for a in page.announcements if a.kind in LOT_KINDS],
            matches=matches,
            deadlines=deadlines,
            overdue=[g for m in matches for g in m.games if g.overdue],
            announcements=[_announcement(page, a) for a in page.announcements],
            placing=None
            if page.placing is None
            else [GPPlaceOut(place=place, player_id=p, name=names[p]) for p, place in page.placing],
        )


LOT_KINDS = {"groups": "groups", "lot": "tie", "colour-lot": "final-colours", "game-lot": "game"}


def _status(page: GroupPlayoffPage, player: str) -> Literal["withdrawn", "excluded"] | None:
    w = page.withdrawals.get(player)
    if w is None:
        return "withdrawn" if player in page.withdrawn_in() else None
    return "excluded" if w.excluded else "withdrawn"


def _lot(a: Announcement) -> GPLotOut:
    return GPLotOut(
        kind=LOT_KINDS[a.kind],
        group=a.group,
        game_id=a.game_id,
        result=None if a.result is None else a.result.value,
        seed=a.seed,
        drawn_by=a.drawn_by,
        drawn_at=a.at,
        order=list(a.players),
    )


def _game(page: GroupPlayoffPage, g: GameFacts, overdue: set[str]) -> GPGameOut:
    r = page.results.get(g.game_id)
    return GPGameOut(
        game_id=g.game_id,
        white=g.white,
        black=g.black,
        inviter=g.inviter,
        extra=g.extra,
        label=g.label,
        result=None if r is None else r.outcome.value,
        reason=None if r is None else r.reason,
        how=None if r is None else how(r.reason),
        finished_at=None if r is None else r.finished_at,
        decided_by_role=None if r is None else r.role,
        overdue=g.game_id in overdue,
    )


def _match(page: GroupPlayoffPage, m: Match, overdue: set[str]) -> GPMatchOut:
    decided = page.decided(m)
    a, b = m.board_points(extra=True)
    title = STAGES[m.stage.value] + (f" {m.group}" if m.group else "")
    return GPMatchOut(
        match=m.key,
        phase=m.stage.phase,
        stage=m.stage.value,
        title=title,
        group=m.group,
        players=[m.a, m.b],
        inviter=next((g.inviter for g in m.games if not g.extra), None),
        board_points=[float(a), float(b)],
        forfeited_by=m.forfeited_by,
        winner=decided.winner,
        shared=decided.shared,
        games=[_game(page, page.games[g.id], overdue) for g in m.games],
    )


def _announcement(page: GroupPlayoffPage, a: Announcement) -> GPAnnouncementOut:
    names = page.names
    who = ", ".join(names.get(p, p) for p in a.players)
    texts = {
        "groups": f"Group {a.group} drawn by lot (seed {a.seed}): {who}",
        "playoff": f"Play-off in group {a.group}: {who}",
        "lot": f"Lot for the tie in group {a.group} (seed {a.seed}): {who}",
        "colour-lot": f"Lot for White in the final's extra game (seed {a.seed}): {who}",
        "phase": f"Phase {a.phase} opened",
        "deadline": f"Phase {a.phase} must be finished by {a.deadline:%Y-%m-%d %H:%M} UTC"
        if a.deadline
        else "",
        "withdrawal": f"{who} {'excluded by the organiser' if _status(page, a.players[0]) == 'excluded' else 'withdrew'}"
        f": every match of phase {a.phase} scored 0:2"
        if a.players
        else "",
        "game-lot": f"Overdue game decided by lot (seed {a.seed}): {a.result.value if a.result else ''}, "
        f"{names.get(a.players[0], '') if a.players else ''} drawn first",
    }
    return GPAnnouncementOut(
        kind=a.kind,
        at=a.at,
        phase=a.phase,
        group=a.group,
        players=list(a.players),
        text=texts.get(a.kind, a.kind),
    )


def group_playoff(svc: StandingsService, tournament_id: uuid.UUID) -> GroupPlayoffPageOut:
    """The page of a group-playoff event; 404 for no tournament, 409 ``not-a-group-playoff`` for
    another kind of tournament."""
    page = svc.views.group_playoff(tournament_id)
    if page is None:
        if svc.views.summary(tournament_id) is not None:
            raise NotAGroupPlayoff(f"tournament {tournament_id} is not a group-playoff event")
        raise errors.TournamentNotFound(f"no tournament {tournament_id}")
    return GroupPlayoffPageOut.of(page, svc.clock.now())


class NotAGroupPlayoff(errors.Conflict):
    slug = "not-a-group-playoff"


__all__ = ["STAGES", "GroupPlayoffPageOut", "NotAGroupPlayoff", "group_playoff"]
