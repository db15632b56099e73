"""What the standings API answers, and what the public pages render: the same models, so the
JSON and the HTML never disagree."""

from __future__ import annotations

import datetime as dt
import uuid
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from services.standings.domain.announced import AnnouncedTournament
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.bracket import (
    SECTIONS,
    BracketMatch,
    KnockoutFormat,
    round_name,
    section_title,
    shape,
)
from services.standings.domain.crosstable import Cell, player_rounds, results_against, symbol
from services.standings.domain.history import Edition
from services.standings.domain.listing import Index, Listed, Phase
from services.standings.domain.rounds import BYE_RESULTS, Correction, Game, Incident, PairedRound, RoundStatus
from services.standings.domain.snapshot import Snapshot, SnapshotRow, number
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import SYSTEM_NAMES, TournamentInfo, is_bracket
from services.standings.domain.withdrawals import PlayerStatus
from shared.arena_scoring import ArenaGame
from shared.authority import Role
from shared.http.schemas import INT32_MAX, Text
from shared.scoring import FIDE, Outcome, side_results
from shared.vocabulary import BracketFormat, ByeKind, Decision, Ruleset, Section, Seeding, System

Number = int | float


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class RoundPath(BaseModel):
    tournament_id: uuid.UUID
    number: int = Field(ge=0, le=INT32_MAX, description="0 and rounds not paired: 404")


class RoundStatusOut(BaseModel):
    number: int
    status: RoundStatus
    games: int
    finished: int


class TournamentFields(BaseModel):
    """What every answer says about the tournament: what it is and how far it has come."""

    tournament_id: uuid.UUID
    name: str
    ruleset: Ruleset
    variant: str
    rated: bool = True  # False: a friendly tournament
    opening: str = "free"  # the opening option: free, random-N, table-K, table-all, thematic:CODE
    system: System | None  # None until round 1 is paired
    double_rounds: bool
    time_control: str
    started_at: dt.datetime
    completed: bool
    completed_at: dt.datetime | None
    rounds_total: int | None
    after_round: int  # the last round with every result in
    games_counted: int
    rounds: list[RoundStatusOut]

    @classmethod
    def fields(cls, info: TournamentInfo, snapshot: Snapshot) -> dict[str, Any]:
        return {
            "tournament_id": info.id,
            "name": info.name,
            "ruleset": info.ruleset,
            "variant": info.variant,
            "rated": info.rated,
            "opening": info.opening,
            "system": info.system,
            "double_rounds": info.double_rounds,
            "time_control": info.time_control.label(),
            "started_at": info.started_at,
            "completed": info.completed_at is not None,
            "completed_at": info.completed_at,
            "rounds_total": info.total_rounds,
            "after_round": snapshot.after_round,
            "games_counted": snapshot.games_counted,
            "rounds": [
                RoundStatusOut(number=r.number, status=r.status, games=r.games, finished=r.finished)
                for r in snapshot.rounds
            ],
        }

    @property
    def current(self) -> RoundStatusOut | None:
        """The round being played, else the last one paired."""
        playing = [r for r in self.rounds if r.status == "playing"]
        return playing[0] if playing else (self.rounds[-1] if self.rounds else None)

    @property
    def is_bracket(self) -> bool:
        """The knockout rulesets are shown as a bracket (the pages' navigation asks)."""
        return is_bracket(self.ruleset, self.system)


class StandingRowOut(BaseModel):
    rank: int  # shared by players equal on points and every tie-break
    place: int  # the row's position
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: Number
    tiebreaks: dict[str, Number | None]  # the ranking tie-breaks, by code (BH-C1, ...)
    shown: dict[str, Number | None]  # shown for information only (SB in a round robin, BH in a Swiss)
    status: PlayerStatus | None = None  # withdrawn or excluded; None: playing
    status_reason: str | None = None
    title: str | None = None  # fide-rapid: the player's profile, where known
    federation: str | None = None
    fide_id: int | None = None

    @classmethod
    def of(cls, row: SnapshotRow) -> StandingRowOut:
        return cls(
            rank=row.rank,
            place=row.place,
            seed=row.seed,
            player_id=row.player_id,
            name=row.name,
            rating=row.rating,
            points=row.points,
            tiebreaks=row.tiebreaks,
            shown=row.shown,
            status=row.status,
            status_reason=row.status_reason,
            title=row.title,
            federation=row.federation,
            fide_id=row.fide_id,
        )


class StandingsOut(TournamentFields):
    edition: Edition | None  # FIDE C.07 edition the tie-breaks follow (None: group-playoff, or no table yet)
    tiebreaks: list[str]
    shown: list[str]
    rows: list[StandingRowOut]

    @classmethod
    def of(cls, info: TournamentInfo, snapshot: Snapshot) -> StandingsOut:
        info.check_table()
        table = snapshot.table
        if table is None:
            return cls(**cls.fields(info, snapshot), edition=None, tiebreaks=[], shown=[], rows=[])
        return cls(
            **cls.fields(info, snapshot),
            edition=table.edition,
            tiebreaks=list(table.tiebreaks),
            shown=list(table.shown),
            rows=[StandingRowOut.of(row) for row in table.rows],
        )


class CellOut(BaseModel):
    round: int
    leg: int
    opponent: int | None  # the opponent's seed; None for a bye
    opponent_place: int | None  # the opponent's row in this crosstable
    colour: Literal["w", "b", ""]  # "" for a bye
    result: str  # 1 ½ 0 + - * bye, or "" while the game is open
    points: Number | None
    bye: ByeKind | None
    corrected: bool = False  # the result was corrected by an arbiter or the organiser


class CrossRowOut(BaseModel):
    rank: int
    place: int
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: Number
    rounds: list[CellOut]  # one per round (per leg with double rounds)
    against: list[list[str]] | None  # round robin: results against the player in each place
    status: PlayerStatus | None = None  # withdrawn or excluded
    status_reason: str | None = None
    title: str | None = None
    federation: str | None = None


class CrosstableOut(TournamentFields):
    columns: list[str]  # round labels: "3", or "3.1" and "3.2" with double rounds
    rows: list[CrossRowOut]

    @classmethod
    def of(cls, t: Tournament) -> CrosstableOut:
        t.info.check_table()
        ruleset = t.info.preset_or_none()
        cells = player_rounds(t, ruleset) if ruleset else {}
        table_rows = t.snapshot.table.rows if t.snapshot.table else ()
        place_of = {row.seed: row.place for row in table_rows}
        robin = t.info.system == System.ROUND_ROBIN
        rows = []
        for row in table_rows:
            mine = cells[row.seed]
            against = None
            if robin:
                by_opponent = results_against(mine)
                against = [by_opponent.get(other.seed, []) for other in table_rows]
            rows.append(
                CrossRowOut(
                    rank=row.rank,
                    place=row.place,
                    seed=row.seed,
                    player_id=row.player_id,
                    name=row.name,
                    rating=row.rating,
                    points=row.points,
                    rounds=[_cell(c, place_of) for c in mine],
                    against=against,
                    status=row.status,
                    status_reason=row.status_reason,
                    title=row.title,
                    federation=row.federation,
                )
            )
        labels = [
            str(r.number) if t.info.legs == 1 else f"{r.number}.{leg}"
            for r in t.published_rounds()
            for leg in range(1, t.info.legs + 1)
        ]
        return cls(**cls.fields(t.info, t.snapshot), columns=labels, rows=rows)


def _cell(cell: Cell, place_of: dict[int, int]) -> CellOut:
    return CellOut(
        round=cell.round,
        leg=cell.leg,
        opponent=cell.opponent,
        opponent_place=place_of.get(cell.opponent) if cell.opponent is not None else None,
        colour=cell.colour,
        result=cell.result,
        points=number(cell.points),
        bye=cell.bye,
        corrected=cell.corrected,
    )


class PlayerOut(BaseModel):
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    status: PlayerStatus | None = None  # withdrawn or excluded
    title: str | None = None  # fide-rapid: from the profile, where known
    federation: str | None = None
    fide_id: int | None = None
    points: Number | None = None  # a round's players: their points before the round


class IncidentOut(BaseModel):
    """A penalty an arbiter gave in the game (RULES.md §6)."""

    player: int  # the penalised player's seed
    name: str
    kind: str  # illegal_move, displaced_pieces
    occurrence: int  # the how-many-th of its kind
    consequence: str  # warning, extra_minute, loss
    reason: str | None
    role: Role | None
    at: dt.datetime

    @classmethod
    def of(cls, t: Tournament, i: Incident) -> IncidentOut:
        return cls(
            player=i.player,
            name=t.player(i.player).name,
            kind=i.kind,
            occurrence=i.occurrence,
            consequence=i.consequence,
            reason=i.reason,
            role=i.role,
            at=i.at,
        )


class CorrectionOut(BaseModel):
    """A result corrected by an arbiter or the organiser."""

    old_outcome: Outcome
    old_result: str  # for reading: 1-0, ½-½, ...
    outcome: Outcome
    result: str
    reason: str | None
    role: Role | None  # in what capacity it was decided: organiser, arbiter
    at: dt.datetime

    @classmethod
    def of(cls, c: Correction) -> CorrectionOut:
        return cls(
            old_outcome=c.old_outcome,
            old_result=_spelled(c.old_outcome),
            outcome=c.outcome,
            result=_spelled(c.outcome),
            reason=c.reason,
            role=c.role,
            at=c.at,
        )


class ResultFields(BaseModel):
    """What a game's result says besides the outcome: rated or not, corrected or not."""

    rated: bool = True  # False: a knockout's tie-break or sudden-death game
    corrected: bool = False  # the result was corrected by an arbiter or the organiser
    old_outcome: Outcome | None = None  # the outcome the latest correction replaced
    corrections: list[CorrectionOut] = []  # in the order they were made

    @classmethod
    def fields(cls, g: Game) -> dict[str, Any]:
        latest = g.correction
        return {
            "rated": g.rated,
            "corrected": g.corrected,
            "old_outcome": latest.old_outcome if latest else None,
            "corrections": [CorrectionOut.of(c) for c in g.corrections],
        }


class GameOut(ResultFields):
    game_id: uuid.UUID
    board: int
    leg: int
    white: PlayerOut
    black: PlayerOut
    outcome: Outcome | None  # as on the wire: 1-0, 1/2-1/2, 0-1, +/-, -/+, -/-, *; None while open
    result: str  # for reading: 1-0, ½-½, 0-1, +/-, -/+, -/-, *; "" while open
    reason: str | None
    finished_at: dt.datetime | None
    match_id: str | None = None  # knockouts: the match, the game's name in it, not needed any more
    label: str | None = None
    cancelled: bool = False
    opening: str | None = None  # the drawn opening: its table code, or the moves played; None: free
    incidents: list[IncidentOut] = []  # penalties given in the game, in order


class ByeOut(BaseModel):
    player: PlayerOut
    kind: ByeKind
    points: Number | None  # over the whole round (both legs with double rounds)
    late: bool = False  # a late entry's missed round (fide-rapid)


class RoundOut(TournamentFields):
    number: int
    published: bool  # an unpublished round shows neither pairings nor results
    status: RoundStatus
    games: list[GameOut]
    byes: list[ByeOut]

    @classmethod
    def of(cls, t: Tournament, round_no: int) -> RoundOut:
        rnd = t.round(round_no)
        games: list[GameOut] = []
        byes: list[ByeOut] = []
        ruleset = t.info.preset_or_none()
        before = _points_before(t, round_no)

        def _player(seed: int) -> PlayerOut:
            return _round_player(t, seed, before.get(seed))

        if rnd.published:
            games = [
                GameOut(
                    game_id=g.game_id,
                    board=g.board,
                    leg=g.leg,
                    white=_player(g.white),
                    black=_player(g.black),
                    outcome=g.outcome,
                    result=_result(g),
                    reason=g.reason,
                    finished_at=g.finished_at,
                    match_id=g.match_id,
                    label=g.label,
                    cancelled=g.cancelled,
                    opening=g.opening,
                    incidents=[IncidentOut.of(t, i) for i in g.incidents],
                    **GameOut.fields(g),
                )
                for g in sorted(rnd.games, key=lambda g: (g.leg, g.board, g.number or 0))
            ]
            points = t.info.bye_points(ruleset) if ruleset else None
            byes = [
                ByeOut(
                    player=_player(b.seed),
                    kind=b.kind,
                    points=number(points[b.kind]) if points else None,
                    late=b.late,
                )
                for b in rnd.byes
            ]
        return cls(
            **cls.fields(t.info, t.snapshot),
            number=rnd.number,
            published=rnd.published,
            status=rnd.status,
            games=games,
            byes=byes,
        )


def _player(t: Tournament, seed: int) -> PlayerOut:
    return _round_player(t, seed, None)


def _round_player(t: Tournament, seed: int, points: Fraction | None) -> PlayerOut:
    p = t.player(seed)
    profile = p.profile
    return PlayerOut(
        seed=p.seed,
        player_id=p.player_id,
        name=p.name,
        rating=p.rating,
        status=t.status(seed),
        title=profile.title if profile else None,
        federation=profile.federation if profile else None,
        fide_id=profile.fide_id if profile else None,
        points=number(points) if points is not None else None,
    )


def _points_before(t: Tournament, round_no: int) -> dict[int, Fraction]:
    """Each player's points from the published rounds before ``round_no`` (the pairing list's
    scores); none for a bracket or a group table."""
    ruleset = t.info.preset_or_none()
    if ruleset is None or t.info.is_group or t.info.is_bracket:
        return {}
    cells = player_rounds(t, ruleset)
    return {
        seed: sum((c.points for c in mine if c.round < round_no and c.points is not None), Fraction(0))
        for seed, mine in cells.items()
    }


def _spelled(outcome: Outcome) -> str:
    return outcome.value.replace("1/2", "½")


def _result(g: Game) -> str:
    return _spelled(g.outcome) if g.outcome else ""


class PlayerPath(BaseModel):
    tournament_id: uuid.UUID
    seed: int = Field(ge=1, le=INT32_MAX, description="the player's start number; not on the roster: 404")


class PlayerGameOut(ResultFields):
    """One of the player's games (each leg with double rounds), or a bye, or a round without a pairing."""

    round: int
    leg: int
    board: int | None  # None: a bye or no pairing
    game_id: uuid.UUID | None
    label: str | None = None  # a knockout's game: Game 1, Tie-break 1 (15+10), game 2 …
    colour: Literal["w", "b", ""]  # "" for a bye or no pairing
    opponent: PlayerOut | None
    result: str  # from the player's side: 1 ½ 0 + - *, "bye"; "" while open or without a pairing
    points: Number | None  # what it scored under the ruleset (None while open; a bracket: game points)
    bye: ByeKind | None = None
    cancelled: bool = False  # a knockout game its match no longer needed


class PlayerPageOut(TournamentFields):
    """A player's page: who they are, their place and tie-breaks in the table, every game of theirs in
    the published rounds with opponent, colour and result."""

    player: PlayerOut
    status_reason: str | None = None
    rank: int | None  # None: a bracket, or no table yet
    place: int | None
    points: Number | None
    tiebreaks: dict[str, Number | None]  # the ranking tie-breaks, by code, in ranking order
    shown: dict[str, Number | None]  # shown for information only
    games: list[PlayerGameOut]

    @classmethod
    def of(cls, t: Tournament, seed: int) -> PlayerPageOut:
        if not t.info.is_bracket:
            t.info.check_table()
        me = t.player(seed)
        table = t.snapshot.table
        row = next((r for r in table.rows if r.seed == seed), None) if table else None
        return cls(
            **cls.fields(t.info, t.snapshot),
            player=_player(t, seed),
            status_reason=row.status_reason if row else None,
            rank=row.rank if row else None,
            place=row.place if row else None,
            points=row.points if row else None,
            tiebreaks={c: row.tiebreaks[c] for c in table.tiebreaks} if row and table else {},
            shown={c: row.shown[c] for c in table.shown} if row and table else {},
            games=_games_of(t, me.seed),
        )


def _games_of(t: Tournament, seed: int) -> list[PlayerGameOut]:
    preset = t.info.preset_or_none()
    scoring = preset.point_system if preset else FIDE
    out: list[PlayerGameOut] = []
    for rnd in t.published_rounds():
        mine = sorted(
            (g for g in rnd.games if seed in (g.white, g.black)), key=lambda g: (g.leg, g.number or 0)
        )
        for g in mine:
            white = g.white == seed
            sides, points = (
                (side_results(g.outcome), scoring.game_points(g.outcome)) if g.outcome else (None, None)
            )
            out.append(
                PlayerGameOut(
                    round=rnd.number,
                    leg=g.leg,
                    board=g.board,
                    game_id=g.game_id,
                    label=g.label,
                    colour="w" if white else "b",
                    opponent=_player(t, g.black if white else g.white),
                    result=symbol(sides[0 if white else 1]) if sides else "",
                    points=number(points[0 if white else 1]) if points else None,
                    cancelled=g.cancelled,
                    **PlayerGameOut.fields(g),
                )
            )
        bye = next((b for b in rnd.byes if b.seed == seed), None)
        if bye is not None:
            for leg in range(1, t.info.legs + 1):
                scored = scoring.points(BYE_RESULTS[bye.kind]) if preset else None
                out.append(
                    PlayerGameOut(
                        round=rnd.number, leg=leg, board=None, game_id=None, colour="", opponent=None,
                        result="bye", points=number(scored), bye=bye.kind,
                    )
                )  # fmt: skip
        elif not mine and not t.info.is_bracket:  # not paired (withdrawn, a late entry's round before)
            for leg in range(1, t.info.legs + 1):
                out.append(
                    PlayerGameOut(
                        round=rnd.number, leg=leg, board=None, game_id=None, colour="", opponent=None,
                        result="", points=None,
                    )
                )  # fmt: skip
    return out


class StageOut(BaseModel):
    games: int
    time_control: str  # 15+10


class FormatOut(BaseModel):
    """What a knockout's public page states: format, seeding kind and tie-break plan (RULES.md §4)."""

    format: BracketFormat
    name: str  # Knockout | Double knockout
    games_per_match: int
    seeding: Seeding
    draw_seed: int | None
    third_place: bool
    second_final: bool
    stages: list[StageOut]
    sudden_death: str
    tiebreak_plan: str  # 2 games 15+10, 2 games 5+3, then sudden death 3+2

    @classmethod
    def of(cls, fmt: KnockoutFormat) -> FormatOut:
        return cls(
            format=fmt.format,
            name=SYSTEM_NAMES[System(fmt.format)],
            games_per_match=fmt.games_per_match,
            seeding=fmt.seeding,
            draw_seed=fmt.draw_seed,
            third_place=fmt.third_place,
            second_final=fmt.second_final,
            stages=[StageOut(games=games, time_control=clock.label()) for games, clock in fmt.stages],
            sudden_death=fmt.sudden_death.label(),
            tiebreak_plan=fmt.plan_label(),
        )


class MatchGameOut(ResultFields):
    game_id: uuid.UUID
    number: int | None
    label: str | None
    white: int  # seeds
    black: int
    outcome: Outcome | None
    result: str  # 1-0, ½-½, 0-1, +/-, ...; "" while open
    cancelled: bool  # the match was decided without it


class MatchOut(BaseModel):
    match_id: str  # section:round:number
    section: Section
    section_round: int
    number: int
    round: int  # the round of the tournament it was played in
    board: int | None  # None for a bye
    bye: bool
    players: list[PlayerOut | None]  # slot order; None: nobody (a bye)
    first_white: int | None  # the seed with White in the first game
    score: list[Number] | None  # game points of each slot (None for a bye)
    winner: int | None  # who advances (seed), once decided
    how: Decision | None
    games: list[MatchGameOut]

    @classmethod
    def of(cls, t: Tournament, rnd: PairedRound, m: BracketMatch) -> MatchOut:
        games = sorted((g for g in rnd.games if g.match_id == m.match_id), key=lambda g: g.number or 0)
        score = None
        if not m.bye:
            points = [Fraction(0), Fraction(0)]
            for g in games:
                if g.outcome is None or g.cancelled:
                    continue
                white, black = FIDE.game_points(g.outcome)
                for seed, pts in ((g.white, white), (g.black, black)):
                    points[m.players.index(seed)] += pts
            score = [number(p) or 0 for p in points]
        present = next((p for p in m.players if p is not None), None)
        return cls(
            match_id=m.match_id,
            section=m.section,
            section_round=m.section_round,
            number=m.number,
            round=m.round,
            board=m.board,
            bye=m.bye,
            players=[_player(t, p) if p is not None else None for p in m.players],
            first_white=m.first_white,
            score=score,
            winner=present if m.bye else m.winner,
            how=m.how,
            games=[
                MatchGameOut(
                    game_id=g.game_id,
                    number=g.number,
                    label=g.label,
                    white=g.white,
                    black=g.black,
                    outcome=g.outcome,
                    result=_result(g),
                    cancelled=g.cancelled,
                    **MatchGameOut.fields(g),
                )
                for g in games
            ],
        )


class SectionRoundOut(BaseModel):
    section_round: int
    name: str  # Quarter-finals, Semi-finals, Final, Losers round 2, Grand final …
    matches: list[MatchOut]


class SectionOut(BaseModel):
    section: Section
    title: str
    rounds: list[SectionRoundOut]


class RoundLayoutOut(BaseModel):
    section_round: int
    name: str
    matches: int  # how many matches the round has, byes included


class SectionLayoutOut(BaseModel):
    """A section of the whole bracket, rounds not yet paired included (computed from its size)."""

    section: Section
    title: str
    rounds: list[RoundLayoutOut]


class PlacingOut(BaseModel):
    rank: int  # dense: one step per group of players out at the same point
    places: list[int]  # the span shared: [5, 6]
    place: str  # for reading: 1, 2, 5–6
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    matches_won: int
    status: PlayerStatus | None = None  # withdrawn or excluded


class BracketOut(TournamentFields):
    """A knockout's bracket: only published rounds show their matches, games and results."""

    format: FormatOut | None
    seeding: list[PlayerOut]  # seed 1 first
    sections: list[SectionOut]  # the published rounds' matches
    layout: list[SectionLayoutOut]  # the whole bracket's shape: the rounds ahead too
    unpublished: list[int]  # rounds paired but not yet published: nothing of them is shown
    champion: PlayerOut | None
    placing: list[PlacingOut] | None  # after the end

    @classmethod
    def of(cls, t: Tournament) -> BracketOut:
        t.info.check_bracket()
        fmt = t.info.knockout
        kind = fmt.format if fmt else _bracket_format(t.info.system)
        grouped: dict[Section, dict[int, list[MatchOut]]] = {}
        for rnd in t.published_rounds():
            for m in rnd.matches:
                grouped.setdefault(m.section, {}).setdefault(m.section_round, []).append(
                    MatchOut.of(t, rnd, m)
                )
        sections = [
            SectionOut(
                section=section,
                title=section_title(kind, section),
                rounds=[
                    SectionRoundOut(
                        section_round=r,
                        name=round_name(kind, section, r, len(t.players)),
                        matches=sorted(grouped[section][r], key=lambda m: m.number),
                    )
                    for r in sorted(grouped[section])
                ],
            )
            for section in SECTIONS
            if section in grouped
        ]
        placing = None
        if t.placing is not None:
            placing = [
                PlacingOut(
                    rank=p.rank,
                    places=list(p.places),
                    place=str(p.places[0]) if p.places[0] == p.places[1] else f"{p.places[0]}–{p.places[1]}",
                    seed=p.seed,
                    player_id=t.player(p.seed).player_id,
                    name=t.player(p.seed).name,
                    rating=t.player(p.seed).rating,
                    matches_won=p.matches_won,
                    status=t.status(p.seed),
                )
                for p in t.placing
            ]
        champion = next((p for p in t.placing or [] if p.rank == 1), None)
        counts = shape(
            kind,
            len(t.players),
            third_place=fmt.third_place if fmt else False,
            second_final=fmt.second_final if fmt else False,
        )
        layout = [
            SectionLayoutOut(
                section=section,
                title=section_title(kind, section),
                rounds=[
                    RoundLayoutOut(
                        section_round=r, name=round_name(kind, section, r, len(t.players)), matches=n
                    )
                    for r, n in enumerate(counts[section], start=1)
                ],
            )
            for section in SECTIONS
            if section in counts
        ]
        return cls(
            **cls.fields(t.info, t.snapshot),
            format=FormatOut.of(fmt) if fmt else None,
            seeding=[_player(t, p.seed) for p in t.players],
            sections=sections,
            layout=layout,
            unpublished=[r.number for r in t.rounds_in_order() if not r.published],
            champion=_player(t, champion.seed) if champion else None,
            placing=placing,
        )


def _bracket_format(system: System | None) -> BracketFormat:
    """A knockout ruleset's format when its settings did not say (the system, once paired)."""
    return BracketFormat.DOUBLE_KNOCKOUT if system == System.DOUBLE_KNOCKOUT else BracketFormat.KNOCKOUT


# -- arenas (RULES.md §3, docs/arena.md) ---------------------------------------------------------------
class ArenaSidesOut(BaseModel):
    white: bool
    black: bool


class ArenaPointsOut(BaseModel):
    white: int
    black: int


class ArenaGameOut(BaseModel):
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    result: str = Field(description="1-0 | 1/2-1/2 | 0-1 (forfeits: +/-, -/+, -/-)")
    ended_at: dt.datetime
    boost: ArenaSidesOut
    points: ArenaPointsOut = Field(description="what the game scored each player (streak and boost counted)")
    streak: ArenaSidesOut = Field(description="a win worth 3 (6 boosted) because of the run before it")


class ArenaRunningOut(BaseModel):
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    started_at: dt.datetime


class ArenaRowOut(BaseModel):
    rank: int
    player: uuid.UUID
    name: str
    rating: int | None
    points: int
    wins: int
    games: int
    streak: int = Field(description="wins in a row now")
    on_fire: bool = Field(description="the next win is worth 3 (two wins in a row or more)")
    boosts: int = Field(description="games in which the player took the boost")


class ArenaOut(BaseModel):
    tournament_id: uuid.UUID
    name: str
    started_at: dt.datetime
    ends_at: dt.datetime
    final: bool = Field(description="the arena is complete: the ranking is frozen")
    ranking: list[ArenaRowOut]
    in_progress: list[ArenaRunningOut]
    games: list[ArenaGameOut] = Field(description="finished games, in the order they ended")

    @classmethod
    def of(cls, a: ArenaStandings) -> ArenaOut:
        marks = a.points_of()
        games = sorted(a.finished.values(), key=lambda g: (g.ended_at, g.id.int))

        def entry(g: ArenaGame, player: uuid.UUID) -> tuple[int, bool]:
            found = marks.get((g.id, player))
            return (0, False) if found is None else (found.points, found.streak)

        out = []
        for g in games:
            (wp, ws), (bp, bs) = entry(g, g.white), entry(g, g.black)
            out.append(
                ArenaGameOut(
                    game_id=g.id,
                    white=g.white,
                    black=g.black,
                    result=g.outcome.value,
                    ended_at=g.ended_at,
                    boost=ArenaSidesOut(white=g.white_boost, black=g.black_boost),
                    points=ArenaPointsOut(white=wp, black=bp),
                    streak=ArenaSidesOut(white=ws, black=bs),
                )
            )
        return cls(
            tournament_id=a.id,
            name=a.name,
            started_at=a.started_at,
            ends_at=a.ends_at,
            final=a.frozen,
            ranking=[
                ArenaRowOut(
                    rank=r.rank,
                    player=r.player,
                    name=a.players[r.player].name,
                    rating=a.players[r.player].rating,
                    points=r.points,
                    wins=r.wins,
                    games=r.games,
                    streak=r.streak,
                    on_fire=r.on_fire,
                    boosts=r.boosts,
                )
                for r in a.ranking()
            ],
            in_progress=[
                ArenaRunningOut(game_id=g.id, white=g.white, black=g.black, started_at=g.started_at)
                for g in sorted(a.running.values(), key=lambda g: (g.started_at, g.id.int))
            ],
            games=out,
        )


# -- the index (docs/standings.md, "Public pages") -------------------------------------------------------
class IndexQuery(BaseModel):
    """The index page's parameters (``/t/``); what else the address carries is ignored, as by the search
    form's other fields."""

    q: Text | None = Field(None, max_length=100, description="a part of the name, any case")
    status: Phase | None = Field(None, description="only this list: running, upcoming or finished")

    @field_validator("q", "status", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        """``?q=&status=`` (the search form sent as it is): no search, every list."""
        return None if isinstance(value, str) and not value.strip() else value


class ArenaPageQuery(BaseModel):
    """An arena page's parameters: whose games to show, and the part that changes only (the page's
    script fetches ``?fragment=1``)."""

    player: uuid.UUID | None = Field(None, description="the player whose games the page shows")
    fragment: Literal["1"] | None = Field(None, description="1: the ranking and games only")


class ListedOut(BaseModel):
    tournament_id: uuid.UUID
    name: str
    status: Phase
    ruleset: str  # an arena: arena
    variant: str
    time_control: str | None  # 3+2; None: an arena that started (its clock is pairing's)
    starts_at: dt.datetime = Field(description="when it started, or (upcoming) is to start")
    completed_at: dt.datetime | None
    players: int = Field(description="entered so far (upcoming), else on the roster")
    rounds_paired: int
    rounds_total: int | None

    @classmethod
    def of(cls, t: Listed) -> ListedOut:
        return cls(
            tournament_id=t.id,
            name=t.name,
            status=t.phase,
            ruleset=t.ruleset,
            variant=t.variant,
            time_control=t.time_control.label() if t.time_control else None,
            starts_at=t.starts_at,
            completed_at=t.completed_at,
            players=t.players,
            rounds_paired=t.rounds_paired,
            rounds_total=t.rounds_total,
        )


class IndexOut(BaseModel):
    """Every tournament whose name contains ``q``: the running ones (latest start first), the upcoming
    ones (soonest first), the finished ones (latest end first); each list at most ``limit`` long."""

    q: str | None
    limit: int
    running: list[ListedOut]
    upcoming: list[ListedOut]
    finished: list[ListedOut]

    @classmethod
    def of(cls, index: Index, query: IndexQuery) -> IndexOut:
        def listed(phase: Phase, items: tuple[Listed, ...]) -> list[ListedOut]:
            return [ListedOut.of(t) for t in items] if query.status in (None, phase) else []

        return cls(
            q=query.q,
            limit=index.limit,
            running=listed(Phase.RUNNING, index.running),
            upcoming=listed(Phase.UPCOMING, index.upcoming),
            finished=listed(Phase.FINISHED, index.finished),
        )


class EntrantOut(BaseModel):
    player_id: uuid.UUID
    name: str
    rating: int | None
    title: str | None
    federation: str | None


class AnnouncedOut(BaseModel):
    """A tournament announced before its start: what it is, when it starts, who has entered so far."""

    tournament_id: uuid.UUID
    name: str
    ruleset: str
    variant: str
    time_control: str
    rated: bool
    starts_at: dt.datetime
    seats: int
    arena: bool
    started: bool
    cancelled: str | None  # why, once cancelled
    entries: list[EntrantOut]  # by rating, unrated last

    @classmethod
    def of(cls, a: AnnouncedTournament) -> AnnouncedOut:
        return cls(
            tournament_id=a.id,
            name=a.name,
            ruleset=a.ruleset.value,
            variant=a.variant,
            time_control=a.time_control.label(),
            rated=a.rated,
            starts_at=a.starts_at,
            seats=a.seats,
            arena=a.arena,
            started=a.started,
            cancelled=a.cancelled,
            entries=[
                EntrantOut(
                    player_id=e.player_id,
                    name=e.name,
                    rating=e.rating,
                    title=e.title,
                    federation=e.federation,
                )
                for e in a.by_rating()
            ],
        )
