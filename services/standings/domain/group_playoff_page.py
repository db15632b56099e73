"""A ``group-playoff`` event's public page (RULES.md §5, "Public pages"), projected from the events:

* ``tournament.started`` — the eight players (seeds, ratings, who said they cannot create games) and the
  groups' recorded lot seed;
* ``group_playoff.announced`` — the groups as drawn, each play-off, each lot (the organiser's for a
  tie, the final's colours, an overdue game's), each phase opened (with its matches, those created
  scored 0:2 too), each deadline, each withdrawal with the phase whose matches it scores 0:2;
* ``round.paired`` — each game with its match (phase, stage, group, players, inviter, extra game);
* ``game.finished`` — results, with how they ended and who decided them;
* ``player.withdrawn`` — withdrawn or excluded, and why; ``tournament.completed`` — the final placing.

The page shows the two group tables with the criterion that decided each place
(:func:`shared.group_playoff.decided_by`), the play-offs and lots, the later phases' matches with their
games, the games overdue (their phase's deadline passed, the game open), and the final placing. The
state is kept as one document (:meth:`GroupPlayoffPage.to_dict`). Pure code.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.aggregate import Aggregate
from shared.group_playoff import Match, MatchGame, MatchKind, MatchOutcome, decide, decided_by
from shared.group_table import GroupTable, group_table
from shared.scoring import Outcome

__all__ = [
    "Announcement",
    "GameFacts",
    "GameResult",
    "GroupPlayoffPage",
    "MatchFacts",
    "PagePlayer",
    "PageWithdrawal",
]

GROUPS = ("I", "II")


@dataclass(frozen=True, slots=True)
class PagePlayer:
    player_id: str
    seed: int
    name: str
    rating: int | None
    creates_games: bool = True  # False: said at entry they cannot; the other player invites (4T1 §4(5))


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A match as the events name it (``players``: the one named first, who invites, first)."""

    stage: MatchKind
    group: str | None
    match: str
    players: tuple[str, str]
    forfeited_by: str | None = None


@dataclass(frozen=True, slots=True)
class GameFacts:
    game_id: str
    white: str
    black: str
    label: str | None
    match: MatchFacts
    inviter: str
    extra: int = 0


@dataclass(frozen=True, slots=True)
class GameResult:
    """A 4T1 game's result as the page shows it: the outcome, how it ended and who entered it."""

    outcome: Outcome
    reason: str
    finished_at: dt.datetime
    decided_by: str | None = None  # who entered it (None: the game ended by itself)
    role: str | None = None


@dataclass(frozen=True, slots=True)
class Announcement:
    """What the event announced on its page (``group_playoff.announced``)."""

    kind: str
    at: dt.datetime
    phase: int | None = None
    group: str | None = None
    players: tuple[str, ...] = ()
    seed: str | None = None
    drawn_by: str | None = None
    deadline: dt.datetime | None = None
    game_id: str | None = None
    result: Outcome | None = None


@dataclass(frozen=True, slots=True)
class PageWithdrawal:
    """A player's withdrawal or exclusion as the page shows it (by name, not by seed: compare
    :class:`~services.standings.domain.withdrawals.Withdrawal`)."""

    excluded: bool
    reason: str | None
    at: dt.datetime | None  # None: an older producer did not say


@dataclass
class GroupPlayoffPage(Aggregate):
    id: uuid.UUID
    name: str
    started_at: dt.datetime
    players: tuple[PagePlayer, ...]
    lot_seed: str | None = None
    announcements: list[Announcement] = field(default_factory=list)
    matches: dict[str, MatchFacts] = field(default_factory=dict)  # by key, in order of creation
    games: dict[str, GameFacts] = field(default_factory=dict)  # by id, in order paired
    results: dict[str, GameResult] = field(default_factory=dict)
    withdrawals: dict[str, PageWithdrawal] = field(default_factory=dict)
    placing: list[tuple[str, int]] | None = None
    completed_at: dt.datetime | None = None

    # ------------------------------------------------------------------ the events
    def announce(self, a: Announcement) -> bool:
        """An announcement; False when it was heard already. A phase's or play-off's matches are
        kept (those created scored 0:2 have no games to pair)."""
        if a in self.announcements:
            return False
        self.announcements.append(a)
        return True

    def add_match(self, m: MatchFacts) -> None:
        known = self.matches.get(m.match)
        if known is None or (known.forfeited_by is None and m.forfeited_by is not None):
            self.matches[m.match] = m

    def pair(self, games: Iterable[GameFacts]) -> bool:
        changed = False
        for g in games:
            self.add_match(g.match)
            if g.game_id not in self.games:
                self.games[g.game_id] = g
                changed = True
        return changed

    def has_game(self, game_id: str) -> bool:
        return game_id in self.games

    def record_result(self, game_id: str, result: GameResult) -> bool:
        """A game's result; False if it had one (the first stands)."""
        if game_id in self.results:
            return False
        self.results[game_id] = result
        return True

    def withdraw(self, player: str, w: PageWithdrawal) -> bool:
        if player in self.withdrawals:
            return False
        self.withdrawals[player] = w
        return True

    def complete(self, at: dt.datetime, placing: Sequence[tuple[str, int]]) -> bool:
        if self.completed_at is not None:
            return False
        self.completed_at, self.placing = at, list(placing)
        return True

    # ------------------------------------------------------------------ reading
    def of_kind(self, *kinds: str) -> list[Announcement]:
        return [a for a in self.announcements if a.kind in kinds]

    @property
    def names(self) -> dict[str, str]:
        return {p.player_id: p.name for p in self.players}

    @property
    def start_numbers(self) -> dict[str, int]:
        return {p.player_id: p.seed for p in self.players}

    def groups(self) -> dict[str, tuple[str, ...]]:
        """Each group's players as the lot drew them (the seeded player first)."""
        return {a.group: a.players for a in self.of_kind("groups") if a.group is not None}

    @property
    def phase(self) -> int:
        """The latest phase opened (1 from the start)."""
        return max([1, *(a.phase or 1 for a in self.of_kind("phase"))])

    def deadlines(self) -> dict[int, dt.datetime]:
        """Each phase's deadline (the latest the organiser set)."""
        found: dict[int, dt.datetime] = {}
        for a in self.of_kind("deadline"):
            if a.phase is not None and a.deadline is not None:
                found[a.phase] = a.deadline
        return dict(sorted(found.items()))

    def withdrawn_in(self) -> dict[str, int]:
        """Each player who left after the start, and the phase whose matches are scored 0:2."""
        return {a.players[0]: a.phase or 1 for a in self.of_kind("withdrawal") if a.players}

    def match(self, key: str) -> Match:
        """The match with its games and results; scored 0:2 for whoever withdrew in its phase or
        before (a withdrawn player plays no later phase)."""
        facts = self.matches[key]
        games = [
            MatchGame(g.game_id, g.white, g.black, g.inviter, g.extra, *self._outcome(g.game_id))
            for g in self.games.values()
            if g.match.match == key
        ]
        games.sort(key=lambda g: g.extra)
        a, b = facts.players
        left = self.withdrawn_in()
        forfeited = facts.forfeited_by
        if forfeited is None:
            forfeited = next((p for p in (a, b) if p in left and left[p] <= facts.stage.phase), None)
        return Match(facts.stage, a, b, games, facts.group, forfeited)

    def _outcome(self, game_id: str) -> tuple[Outcome | None, str | None]:
        r = self.results.get(game_id)
        return (None, None) if r is None else (r.outcome, how(r.reason))

    def all_matches(self, *stages: MatchKind) -> list[Match]:
        return [self.match(k) for k, m in self.matches.items() if not stages or m.stage in stages]

    def decided(self, match: Match) -> MatchOutcome:
        return decide(match)

    def table(self, group: str) -> GroupTable:
        """The group's table by (a)-(f), as pairing ranks it: the matches with both games finished
        (or scored 0:2), the play-offs, and the organiser's lot."""
        start = self.start_numbers
        members = self.groups().get(group, ())
        left = self.withdrawn_in()
        lot = self._tie_lot(group)
        return group_table(
            [start[p] for p in members],
            [
                m.table_match(start)
                for m in self.all_matches(MatchKind.GROUP)
                if m.group == group and m.finished
            ],
            withdrawn=[start[p] for p in members if left.get(p) == 1],
            playoffs=[
                m.table_match(start)
                for m in self.all_matches(MatchKind.PLAYOFF)
                if m.group == group and m.finished
            ],
            lots_seed=lot.seed if lot else None,
        )

    def group_played(self, group: str) -> bool:
        """Every group match of ``group`` finished (or scored 0:2). Its play-offs are phase 1 too, but
        no group matches: they are what a tie left after the group games needs."""
        return all(m.finished for m in self.all_matches(MatchKind.GROUP) if m.group == group)

    def playoff_needed(self, group: str) -> set[str]:
        """The players of ``group`` a play-off must still separate: tied after (a)-(d) once every group
        match is finished, and no play-off result among them yet (paired or not)."""
        if not self.group_played(group):
            return set()
        by_start = {n: p for p, n in self.start_numbers.items()}
        return {by_start[r.start] for r in self.table(group).rows if r.playoff_needed}

    def _tie_lot(self, group: str) -> Announcement | None:
        return next((a for a in self.of_kind("lot") if a.group == group), None)

    def decided_by(self, group: str, table: GroupTable, start: int) -> str:
        lot = self._tie_lot(group)
        starts = self.start_numbers
        return decided_by(table, start, lot_order=[starts[p] for p in lot.players] if lot else ())

    def overdue(self, now: dt.datetime) -> list[GameFacts]:
        """The open games of the phases whose deadline has passed: they wait for the organiser."""
        late = {p for p, at in self.deadlines().items() if at <= now}
        return [
            g
            for g in self.games.values()
            if g.match.stage.phase in late
            and g.game_id not in self.results
            and not self.match(g.match.match).forfeited_by
        ]

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "started_at": self.started_at.isoformat(),
            "players": [[p.player_id, p.seed, p.name, p.rating, p.creates_games] for p in self.players],
            "lot_seed": self.lot_seed,
            "announcements": [_announcement_dict(a) for a in self.announcements],
            "matches": [_match_dict(m) for m in self.matches.values()],
            "games": [
                [g.game_id, g.white, g.black, g.label, g.match.match, g.inviter, g.extra]
                for g in self.games.values()
            ],
            "results": {
                k: [r.outcome.value, r.reason, r.finished_at.isoformat(), r.decided_by, r.role]
                for k, r in self.results.items()
            },
            "withdrawals": {
                k: [w.excluded, w.reason, None if w.at is None else w.at.isoformat()]
                for k, w in self.withdrawals.items()
            },
            "placing": None if self.placing is None else [list(p) for p in self.placing],
            "completed_at": None if self.completed_at is None else self.completed_at.isoformat(),
        }

    @classmethod
    def from_dict(cls, tournament_id: uuid.UUID, d: Mapping[str, Any]) -> GroupPlayoffPage:
        matches = {m["match"]: _match(m) for m in d["matches"]}
        return cls(
            tournament_id,
            d["name"],
            _time(d["started_at"]),
            tuple(PagePlayer(*p) for p in d["players"]),  # stored before 4T1 §4(5): everyone creates games
            d["lot_seed"],
            [_announcement(a) for a in d["announcements"]],
            matches,
            {g[0]: GameFacts(g[0], g[1], g[2], g[3], matches[g[4]], g[5], g[6]) for g in d["games"]},
            {
                k: GameResult(Outcome(o), reason, _time(at), by, role)
                for k, (o, reason, at, by, role) in d["results"].items()
            },
            {
                k: PageWithdrawal(x, r, None if at is None else _time(at))
                for k, (x, r, at) in d["withdrawals"].items()
            },
            None if d["placing"] is None else [(p, place) for p, place in d["placing"]],
            None if d["completed_at"] is None else _time(d["completed_at"]),
        )


HOW = {"lot": "lot", "adjudication": "adjudicated", "withdrawal": "withdrawn", "exclusion": "withdrawn"}


def how(reason: str) -> str:
    """How a game was decided, from its result's reason: by lot, adjudicated, withdrawn, or played."""
    return HOW.get(reason, "played")


def _time(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def _match_dict(m: MatchFacts) -> dict[str, Any]:
    return {
        "stage": m.stage.value,
        "group": m.group,
        "match": m.match,
        "players": list(m.players),
        "forfeited_by": m.forfeited_by,
    }


def _match(d: Mapping[str, Any]) -> MatchFacts:
    a, b = d["players"]
    return MatchFacts(MatchKind(d["stage"]), d["group"], d["match"], (a, b), d["forfeited_by"])


def _announcement_dict(a: Announcement) -> dict[str, Any]:
    return {
        "kind": a.kind,
        "at": a.at.isoformat(),
        "phase": a.phase,
        "group": a.group,
        "players": list(a.players),
        "seed": a.seed,
        "drawn_by": a.drawn_by,
        "deadline": None if a.deadline is None else a.deadline.isoformat(),
        "game_id": a.game_id,
        "result": None if a.result is None else a.result.value,
    }


def _announcement(d: Mapping[str, Any]) -> Announcement:
    return Announcement(
        d["kind"],
        _time(d["at"]),
        d["phase"],
        d["group"],
        tuple(d["players"]),
        d["seed"],
        d["drawn_by"],
        None if d["deadline"] is None else _time(d["deadline"]),
        d["game_id"],
        None if d["result"] is None else Outcome(d["result"]),
    )
