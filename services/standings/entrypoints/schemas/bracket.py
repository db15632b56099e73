"""A knockout's bracket (``GET /tournaments/{id}/bracket``, ``/t/{id}/bracket``, RULES.md §4): its format,
seeding, the published rounds' matches with their games and score, the whole bracket's shape, the
placing."""

from __future__ import annotations

import uuid
from fractions import Fraction

from pydantic import BaseModel

from services.standings.domain.bracket import (
    SECTIONS,
    BracketMatch,
    KnockoutFormat,
    round_name,
    section_title,
    shape,
)
from services.standings.domain.rounds import PairedRound
from services.standings.domain.snapshot import number
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import SYSTEM_NAMES
from services.standings.domain.withdrawals import PlayerStatus
from services.standings.entrypoints.schemas.common import (
    Number,
    PlayerOut,
    ResultFields,
    TournamentFields,
    player_out,
    result_text,
)
from shared.scoring import FIDE, Outcome
from shared.vocabulary import BracketFormat, DecidedIn, Section, Seeding, System


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
    how: DecidedIn | None
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
            players=[player_out(t, p) if p is not None else None for p in m.players],
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
                    result=result_text(g),
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
            seeding=[player_out(t, p.seed) for p in t.players],
            sections=sections,
            layout=layout,
            unpublished=[r.number for r in t.rounds_in_order() if not r.published],
            champion=player_out(t, champion.seed) if champion else None,
            placing=placing,
        )


def _bracket_format(system: System | None) -> BracketFormat:
    """A knockout ruleset's format when its settings did not say (the system, once paired)."""
    return BracketFormat.DOUBLE_KNOCKOUT if system == System.DOUBLE_KNOCKOUT else BracketFormat.KNOCKOUT
