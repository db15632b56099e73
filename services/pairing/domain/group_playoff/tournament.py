"""The ``group-playoff`` event as pairing's aggregate: the event's structure (:mod:`.event`) with its
heading, recording what the other services and the tournament page need to know.

* every batch of new games (the groups at the start, the play-offs, a phase announced, an extra game)
  is one more **announcement** — ``RoundPaired`` with ``round`` the announcement's number and the
  system ``group_playoff``; each game is labelled with its phase, match and the player who invites
  (creates) it; a match's two games are played at the same time (correspondence), so they carry no
  ``match_id`` (the clocks would play them one after the other);
* the groups' lot, each play-off, each lot the organiser draws, each phase announced and each deadline
  are ``GroupPlayoffAnnounced`` for the tournament page;
* the end: ``TournamentCompleted`` with the final placing of all eight.

The state is stored as one document (:meth:`GroupPlayoffTournament.to_dict`).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any

from services.pairing.domain import events
from services.pairing.domain.errors import NotOrganiser
from services.pairing.domain.group_playoff.competition import (
    GroupPlayoff,
    Lot,
    Match,
    MatchGame,
    MatchKind,
)
from services.pairing.domain.group_playoff.seeding import Entrant, GroupLot, draw_groups
from services.pairing.domain.heading import Heading, Player
from shared.aggregate import Aggregate
from shared.group_playoff import decided_by
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.vocabulary import Ruleset, System

__all__ = ["GroupPlayoffTournament"]

ADJUDICATION = "adjudication"
"""The reason of a result the organiser set from the position of an overdue game (4T1 §4(10))."""
LOT = "lot"
"""The reason of a result drawn by the organiser's recorded lot (the clocks enter it)."""


LABELS = {
    MatchKind.GROUP: "group",
    MatchKind.PLAYOFF: "play-off",
    MatchKind.SEMI_FINAL: "semi-final",
    MatchKind.FINAL: "final",
    MatchKind.THIRD: "match for 3rd place",
    MatchKind.FIFTH: "match for 5th place",
    MatchKind.SEVENTH: "match for 7th place",
}


class GroupPlayoffTournament(Aggregate):
    def __init__(
        self, heading: Heading, players: tuple[Player, ...], event: GroupPlayoff, announcements: int = 0
    ) -> None:
        self.heading = heading
        self.players = players
        self.event = event
        self.announcements = announcements
        self.completed = event.complete

    @property
    def id(self) -> uuid.UUID:
        return self.heading.id

    @property
    def system(self) -> System:
        return System.GROUP_PLAYOFF

    # ------------------------------------------------------------------ start
    @classmethod
    def start(
        cls,
        heading: Heading,
        players: tuple[Player, ...],
        lot_seed: int,
        drawn_by: uuid.UUID,
        cannot_create: frozenset[uuid.UUID] = frozenset(),
    ) -> GroupPlayoffTournament:
        """Players by seed (the registration's order: rating, then order of entry); ``cannot_create``:
        those who said at entry they cannot create games (the other player of their matches invites)."""
        entrants = [
            Entrant(str(p.player_id), p.rating or 0, p.seed, p.player_id not in cannot_create)
            for p in players
        ]
        lot = draw_groups(entrants, lot_seed, str(drawn_by), heading.started_at)
        t = cls(heading, players, GroupPlayoff.start(heading.id, entrants, lot))
        for name, members in zip(("I", "II"), lot.groups, strict=True):
            t._announce(
                "groups",
                heading.started_at,
                phase=1,
                group=name,
                players=members,
                seed=str(lot_seed),
                drawn_by=str(drawn_by),
            )
        t._paired([g for m in t.event.matches for g in m.games])
        return t

    # ------------------------------------------------------------------ facts
    def record_result(
        self, game_id: uuid.UUID, outcome: Outcome, now: dt.datetime, reason: str | None = None
    ) -> bool:
        """A game's result from the clocks; False if the event no longer waits for it (a game of a
        withdrawn player's match, a result already recorded). How it was decided: by the organiser's
        recorded lot, adjudicated (reason ``adjudication``), or played."""
        _, game = self.event.game(str(game_id))
        if not game.open:
            return False
        playoffs = len(self.event.stage_matches(MatchKind.PLAYOFF))
        how = {LOT: "lot", ADJUDICATION: "adjudicated"}.get(reason or "", "played")
        created = self.event.record_result(str(game_id), outcome, how=how)
        self._after(created, playoffs, now)
        return True

    def withdraw(self, player_id: uuid.UUID, now: dt.datetime) -> bool:
        """Withdrawn or excluded after the start: announced with the phase whose matches are scored 0:2."""
        player = str(player_id)
        if player in self.event.withdrawn:
            return False
        playoffs = len(self.event.stage_matches(MatchKind.PLAYOFF))
        self.event.withdraw(player)
        phase = self.event.withdrawn[player]
        forfeited = [m for m in self.event.matches if m.forfeited_by == player and m.stage.phase == phase]
        self._announce(
            "withdrawal", now, phase=phase, players=(player,), matches=tuple(_place(m) for m in forfeited)
        )
        self._after([], playoffs, now)
        return True

    # ------------------------------------------------------------------ the organiser
    def announce_phase(
        self, phase: int, by: uuid.UUID, now: dt.datetime, *, with_placement: bool = False
    ) -> None:
        self._organiser(by, "announce a phase")
        before = len(self.event.matches)
        games = self.event.announce_phase(phase, with_placement=with_placement)
        opened = tuple(_place(m) for m in self.event.matches[before:])
        self._announce("phase", now, phase=phase, matches=opened)
        self._paired(games)
        self._complete(now)

    def draw_lots(self, group: str, seed: str, by: uuid.UUID, now: dt.datetime) -> Lot:
        self._organiser(by, "draw lots")
        lot = self.event.draw_lots(group, seed, str(by), now)
        self._announce("lot", now, phase=1, group=group, players=lot.order, seed=seed, drawn_by=str(by))
        return lot

    def draw_game_lot(self, game_id: uuid.UUID, seed: str, by: uuid.UUID, now: dt.datetime) -> Lot:
        """The organiser decides an overdue game by a recorded lot (4T1 §4(10)), announced with the
        result it gives (``game-lot``): the clocks enter it (reason ``lot``), the event takes it then."""
        self._organiser(by, "draw a game's lot")
        lot = self.event.draw_game_lot(str(game_id), seed, str(by), now)
        self._announce(
            "game-lot",
            now,
            phase=self._match_of(self.event.game(str(game_id))[1]).stage.phase,
            players=lot.order,
            seed=seed,
            drawn_by=str(by),
            game_id=game_id,
            result=self.event.lot_outcome(str(game_id)),
        )
        return lot

    def set_deadline(self, phase: int, at: dt.datetime, by: uuid.UUID, now: dt.datetime) -> None:
        self._organiser(by, "set a deadline")
        self.event.set_deadline(phase, at)
        self._announce("deadline", now, phase=phase, deadline=at)

    def _organiser(self, by: uuid.UUID, what: str) -> None:
        if by != self.heading.organiser_id:
            raise NotOrganiser(f"only the organiser may {what} (RULES.md §5)")

    # ------------------------------------------------------------------ recording
    def _after(self, created: list[MatchGame], playoffs_before: int, now: dt.datetime) -> None:
        for m in self.event.stage_matches(MatchKind.PLAYOFF)[playoffs_before:]:
            self._announce("playoff", now, phase=1, group=m.group, players=(m.a, m.b), matches=(_place(m),))
        created = created + [
            g
            for m in self.event.stage_matches(MatchKind.PLAYOFF)[playoffs_before:]
            for g in m.games
            if g not in created
        ]
        if self.event.colour_lot is not None and any(g.extra == 1 for g in created if self._final_game(g)):
            lot = self.event.colour_lot
            self._announce("colour-lot", now, phase=3, players=lot.order, seed=lot.seed, drawn_by="system")
        self._paired(created)
        self._complete(now)

    def _final_game(self, game: MatchGame) -> bool:
        return any(game in m.games for m in self.event.stage_matches(MatchKind.FINAL))

    def _announce(
        self,
        kind: str,
        at: dt.datetime,
        *,
        players: tuple[str, ...] | tuple[uuid.UUID, ...] = (),
        **fields: Any,
    ) -> None:
        self.record(
            events.GroupPlayoffAnnounced(
                self.id, kind, at, players=tuple(uuid.UUID(str(p)) for p in players), **fields
            )
        )

    def _paired(self, games: list[MatchGame]) -> None:
        if not games:
            return
        self.announcements += 1
        board = {g.id: i + 1 for i, g in enumerate(g for m in self.event.matches for g in m.games)}
        self.record(
            events.RoundPaired(
                tournament_id=self.id,
                organiser_id=self.heading.organiser_id,
                round=self.announcements,
                total_rounds=self.announcements,
                system=System.GROUP_PLAYOFF,
                games=tuple(
                    events.GameInRound(
                        game_id=uuid.UUID(g.id),
                        board=board[g.id],
                        white=uuid.UUID(g.white),
                        black=uuid.UUID(g.black),
                        label=self.label(g),
                        rated=True,
                        group_playoff=_place(self._match_of(g), g),
                    )
                    for g in games
                ),
                byes=(),
                time_control=self.heading.time_control,
            )
        )

    def _match_of(self, game: MatchGame) -> Match:
        return next(m for m in self.event.matches if game in m.games)

    def label(self, game: MatchGame) -> str:
        """e.g. 'Phase 1, group I: Anand v Tal, game 2 (Anand invites)'."""
        match = self._match_of(game)
        names = {str(p.player_id): p.name for p in self.players}
        what = LABELS[match.stage] + (f" {match.group}" if match.group else "")
        number = f"extra game {game.extra}" if game.extra else f"game {match.games.index(game) + 1}"
        return (
            f"Phase {match.stage.phase}, {what}: {names[match.a]} v {names[match.b]}, {number} "
            f"({names[game.inviter]} invites)"
        )

    def _complete(self, now: dt.datetime) -> None:
        if self.completed or not self.event.complete:
            return
        self.completed = True
        seeds = {str(p.player_id): p.seed for p in self.players}
        rows = self.event.placing()
        shared = {place for _, place in rows if sum(1 for _, q in rows if q == place) > 1}
        self.record(
            events.TournamentCompleted(
                tournament_id=self.id,
                organiser_id=self.heading.organiser_id,
                rounds=self.announcements,
                completed_at=now,
                placing=tuple(
                    events.FinalPlace(
                        player_id=uuid.UUID(player),
                        seed=seeds[player],
                        rank=place,
                        places=(place, place + 1) if place in shared else (place, place),
                        matches_won=self._matches_won(player),
                    )
                    for player, place in rows
                ),
            )
        )

    def _matches_won(self, player: str) -> int:
        return sum(1 for m in self.event.matches if self.event.decided(m).winner == player)

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        e = self.event
        return {
            "heading": {
                "organiser_id": str(self.heading.organiser_id),
                "name": self.heading.name,
                "ruleset": self.heading.ruleset.value,
                "time_control": [
                    self.heading.time_control.base_seconds,
                    self.heading.time_control.increment_seconds,
                    self.heading.time_control.days_per_move,
                ],
                "started_at": self.heading.started_at.isoformat(),
            },
            "players": [[p.seed, str(p.player_id), p.name, p.rating] for p in self.players],
            "announcements": self.announcements,
            "entrants": [[x.player, x.rating, x.order, x.creates_games] for x in e.entrants],
            "group_lot": {
                "seed": e.group_lot.seed,
                "drawn_by": e.group_lot.drawn_by,
                "drawn_at": e.group_lot.drawn_at.isoformat(),
                "groups": [list(g) for g in e.group_lot.groups],
            },
            "matches": [
                {
                    "stage": m.stage.value,
                    "a": m.a,
                    "b": m.b,
                    "group": m.group,
                    "forfeited_by": m.forfeited_by,
                    "games": [
                        [g.id, g.white, g.black, g.inviter, g.extra, g.outcome and g.outcome.value, g.how]
                        for g in m.games
                    ],
                }
                for m in e.matches
            ],
            "phase": e.phase,
            "placement_early": e.placement_early,
            "withdrawn": e.withdrawn,
            "lots": {k: _lot_dict(v) for k, v in e.lots.items()},
            "colour_lot": None if e.colour_lot is None else _lot_dict(e.colour_lot),
            "deadlines": {str(k): v.isoformat() for k, v in e.deadlines.items()},
            "game_lots": {k: _lot_dict(v) for k, v in e.game_lots.items()},
        }

    @classmethod
    def from_dict(cls, tournament_id: uuid.UUID, d: Mapping[str, Any]) -> GroupPlayoffTournament:
        h = d["heading"]
        heading = Heading(
            tournament_id,
            uuid.UUID(h["organiser_id"]),
            h["name"],
            Ruleset(h["ruleset"]),
            RateOfPlay(*h["time_control"]),
            dt.datetime.fromisoformat(h["started_at"]),
        )
        players = tuple(Player(s, uuid.UUID(p), n, r) for s, p, n, r in d["players"])
        gl = d["group_lot"]
        event = GroupPlayoff(
            tournament_id,
            tuple(Entrant(*x) for x in d["entrants"]),  # stored before 4T1 §4(5): everyone creates games
            GroupLot(
                gl["seed"],
                gl["drawn_by"],
                dt.datetime.fromisoformat(gl["drawn_at"]),
                (tuple(gl["groups"][0]), tuple(gl["groups"][1])),
            ),
            matches=[
                Match(
                    MatchKind(m["stage"]),
                    m["a"],
                    m["b"],
                    [
                        MatchGame(i, w, b, inv, x, None if o is None else Outcome(o), how)
                        for i, w, b, inv, x, o, how in m["games"]
                    ],
                    m["group"],
                    m["forfeited_by"],
                )
                for m in d["matches"]
            ],
            phase=d["phase"],
            placement_early=d["placement_early"],
            withdrawn=dict(d["withdrawn"]),
            lots={k: _lot(v) for k, v in d["lots"].items()},
            colour_lot=None if d["colour_lot"] is None else _lot(d["colour_lot"]),
            deadlines={int(k): dt.datetime.fromisoformat(v) for k, v in d["deadlines"].items()},
            game_lots={k: _lot(v) for k, v in d.get("game_lots", {}).items()},
        )
        return cls(heading, players, event, d["announcements"])


def _place(match: Match, game: MatchGame | None = None) -> events.GroupPlayoffPlace:
    """A match (and one of its games) as the events name it."""
    return events.GroupPlayoffPlace(
        stage=match.stage.value,
        phase=match.stage.phase,
        group=match.group,
        match=match.key,
        players=(uuid.UUID(match.a), uuid.UUID(match.b)),
        forfeited_by=None if match.forfeited_by is None else uuid.UUID(match.forfeited_by),
        inviter=None if game is None else uuid.UUID(game.inviter),
        extra=0 if game is None else game.extra,
    )


def _lot_dict(lot: Lot) -> dict[str, Any]:
    return {
        "seed": lot.seed,
        "drawn_by": lot.drawn_by,
        "drawn_at": None if lot.drawn_at is None else lot.drawn_at.isoformat(),
        "order": list(lot.order),
    }


def _lot(d: Mapping[str, Any]) -> Lot:
    at = d["drawn_at"]
    return Lot(
        d["seed"], d["drawn_by"], None if at is None else dt.datetime.fromisoformat(at), tuple(d["order"])
    )


def _criterion(event: GroupPlayoff, group: str, start: int) -> str:
    """What decided a player's group place: ``a``-``f`` (4T1), or ``tied`` while nothing has yet."""
    lot = event.lots.get(group)
    starts = event.start_numbers
    return decided_by(event.table(group), start, lot_order=[starts[p] for p in lot.order] if lot else ())


def page(t: GroupPlayoffTournament, now: dt.datetime) -> dict[str, Any]:
    """The tournament page's content (RULES.md §5, "Public pages"): the two group tables with the
    criterion that decided each place, the lots, every match with its games, the deadlines and the
    overdue games, and the final placing."""
    e = t.event
    names = {str(p.player_id): p.name for p in t.players}
    by_start = {n: p for p, n in e.start_numbers.items()}
    groups = {}
    for group in ("I", "II"):
        groups[group] = [
            {
                "player_id": by_start[r.start],
                "name": names[by_start[r.start]],
                "rank": r.rank,
                "match_points": str(r.match_points),
                "board_points": str(r.board_points),
                "tied_match_points": None if r.tied_match_points is None else str(r.tied_match_points),
                "tied_board_points": None if r.tied_board_points is None else str(r.tied_board_points),
                "playoff_needed": r.playoff_needed,
                "decided_by": _criterion(e, group, r.start),
            }
            for r in e.table(group).rows
        ]
    lots = [
        {
            "kind": "groups",
            "group": None,
            "seed": str(e.group_lot.seed),
            "drawn_by": e.group_lot.drawn_by,
            "drawn_at": e.group_lot.drawn_at,
            "order": [p for g in e.group_lot.groups for p in g],
        },
        *(
            {
                "kind": "tie",
                "group": g,
                "seed": lot.seed,
                "drawn_by": lot.drawn_by,
                "drawn_at": lot.drawn_at,
                "order": list(lot.order),
            }
            for g, lot in e.lots.items()
        ),
    ]
    lots += [
        {
            "kind": "game",
            "group": None,
            "game_id": game_id,
            "seed": lot.seed,
            "drawn_by": lot.drawn_by,
            "drawn_at": lot.drawn_at,
            "order": list(lot.order),
        }
        for game_id, lot in e.game_lots.items()
    ]
    if e.colour_lot is not None:
        c = e.colour_lot
        lots.append(
            {
                "kind": "final-colours",
                "group": None,
                "seed": c.seed,
                "drawn_by": c.drawn_by,
                "drawn_at": c.drawn_at,
                "order": list(c.order),
            }
        )
    matches = []
    for m in e.matches:
        decided = e.decided(m)
        a, b = m.board_points(extra=True)
        matches.append(
            {
                "phase": m.stage.value,
                "group": m.group,
                "players": [m.a, m.b],
                "inviter": m.games[0].inviter if m.games else m.a,
                "board_points": [str(a), str(b)],
                "forfeited_by": m.forfeited_by,
                "winner": decided.winner,
                "shared": decided.shared,
                "games": [
                    {
                        "game_id": g.id,
                        "white": g.white,
                        "black": g.black,
                        "inviter": g.inviter,
                        "extra": g.extra,
                        "result": None if g.outcome is None else g.outcome.value,
                        "how": g.how,
                        "label": t.label(g),
                    }
                    for g in m.games
                ],
            }
        )
    return {
        "tournament_id": str(t.id),
        "name": t.heading.name,
        "phase": e.phase,
        "placement_early": e.placement_early,
        "players": [
            {
                "player_id": str(p.player_id),
                "name": p.name,
                "rating": p.rating,
                "seed": p.seed,
                "group": e.group_of(str(p.player_id)),
                "withdrawn": str(p.player_id) in e.withdrawn,
                "creates_games": e.creates_games(str(p.player_id)),
            }
            for p in t.players
        ],
        "groups": groups,
        "lots": lots,
        "matches": matches,
        "deadlines": {str(k): v for k, v in sorted(e.deadlines.items())},
        "overdue": [g.id for g in e.overdue(now)],
        "planned": [
            {
                "phase": stage.phase,
                "stage": stage.value,
                "slot": slot,
                "players": list(e.planned_players(stage, slot) or ()) or None,
                "game_ids": list(ids),
            }
            for stage, slot, ids in e.planned()
        ],
        "placing": [{"player_id": p, "name": names[p], "place": place} for p, place in e.placing()],
        "completed": t.completed,
    }
