"""The ``group-playoff`` competition (4T1 rules, RULES.md §5): its matches, its phases and its final placing.

Everything is a two-game match, one game with each colour, scored by board points 1/½/0 and match
points 2:0, 1:1 or 0:2 (:class:`shared.scoring.MatchScoring`).

* **Phase 1, groups** (:mod:`.seeding`): six matches in each group of four. When every group game is
  finished the group table (:func:`shared.group_table.group_table`, criteria (a)-(f)) says which ties
  need a play-off; the competition creates them itself: a match between two, a round robin of matches among
  three or four (the players in group order, named as in the Berger table). What the play-off leaves
  tied is drawn by lot, and only when the organiser asks for it (:meth:`GroupPlayoff.draw_lots`).
* **Phase 2, semi-finals**: 1st of group I v 2nd of group II, 1st of II v 2nd of I (the group winner named
  first). A 1:1 match gets one extra game, White to the group winner, who also advances on a draw.
* **Phase 3**: the final (semi-final winners), third place (their losers), fifth place (the group
  thirds), seventh place (the group fourths). 1:1 for 3rd, 5th or 7th: both share the place. A 1:1 final
  gets an extra game, White to the player with more board points over phases 1-2; drawn, a second extra
  game with the colours reversed; drawn too, both share first place. The organiser may open the 5th and
  7th place matches together with the semi-finals.
* **Who invites** (4T1 §4(5)): the player named first in a pairing creates the match's games, unless
  they said at entry that they cannot create games and the other player can; then the other invites.
  **Decision:** where neither can, the one named first stays the inviter (the rule's default); an
  extra game's inviter is its White, by the same rule.
* A phase opens only when the organiser announces it and every game of the earlier phases is finished
  (the 5th/7th-place matches opened early excepted).
* **Withdrawal or exclusion after the start**: every match of the player's current phase (finished,
  running and future) is scored 0:2 in match and board points; their open games are no longer played.
  **Decision:** a player who has withdrawn plays no later phase either: a later match of theirs is
  created already scored 0:2.
* **Deadlines**: the organiser may set a date for a phase; once it has passed, its open games are
  overdue and wait for the organiser's result, adjudicated from the position or decided by a recorded lot.

**Decisions** where the rules are silent (docs/rules-decisions.md):

* board points "over phases 1-2" (the final's extra game) are those of the group matches and the
  semi-final (its extra game included), not the play-offs, which only some players play; equal board
  points → the better group place; the same group place → a lot drawn from the competition's recorded seed;
* a semi-final extra game nobody wins (a draw, a double forfeit) sends the group winner through; a final
  extra game nobody wins counts as drawn;
* a lot deciding an overdue game gives the win to the player drawn first.

Game ids are derived (UUID 5) from the competition's id and the game's place, so the same facts give the same ids.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from services.pairing.domain.errors import NotFound, PairingError
from services.pairing.domain.group_playoff.seeding import GROUPS, Entrant, GroupLot, group_pairings, seeded
from shared.group_playoff import (
    PLACES,
    Match,
    MatchGame,
    MatchKind,
    MatchOutcome,
    decide,
    game_id,
    planned_games,
    planned_key,
)
from shared.group_table import GroupTable, group_table
from shared.lots import draw_lots
from shared.scoring import MatchScoring, Outcome

__all__ = [
    "PLACES",
    "GamesStillOpen",
    "GroupPlayoff",
    "GroupPlayoffError",
    "Lot",
    "Match",
    "MatchGame",
    "MatchKind",
    "MatchOutcome",
]


class GroupPlayoffError(PairingError):
    """A request the competition's state refuses (HTTP 409)."""

    slug = "group-playoff-conflict"


class GamesStillOpen(GroupPlayoffError):
    slug = "games-still-open"

    def __init__(self, detail: str, games: Sequence[str]) -> None:
        super().__init__(detail)
        self.games = tuple(games)


class NoTieForLots(GroupPlayoffError):
    slug = "no-tie-for-lots"


class NotOverdue(GroupPlayoffError):
    slug = "game-not-overdue"


class GameHasResult(GroupPlayoffError):
    slug = "game-finished"


class LotDrawn(GroupPlayoffError):
    slug = "game-lot-drawn"


class PhaseNotStarted(GroupPlayoffError):
    """A game or match of a phase the organiser has not opened yet (4T1 §4(2))."""

    slug = "phase-not-started"


@dataclass(frozen=True, slots=True)
class Lot:
    """A recorded lot: its seed, who drew it and when, and the order drawn."""

    seed: str
    drawn_by: str
    drawn_at: dt.datetime | None  # None: drawn by the system from the competition's recorded seed
    order: tuple[str, ...]


@dataclass
class GroupPlayoff:
    id: uuid.UUID
    entrants: tuple[Entrant, ...]
    group_lot: GroupLot
    matches: list[Match] = field(default_factory=list)
    phase: int = 1  # the latest phase announced
    placement_early: bool = False  # the 5th/7th-place matches opened with the semi-finals
    withdrawn: dict[str, int] = field(default_factory=dict)  # player -> the phase they left in
    lots: dict[str, Lot] = field(default_factory=dict)  # group -> the lot the organiser asked for
    colour_lot: Lot | None = None  # the final's extra game, when nothing else decides White
    deadlines: dict[int, dt.datetime] = field(default_factory=dict)
    game_lots: dict[str, Lot] = field(default_factory=dict)  # game -> the organiser's lot (winner first)
    scoring: MatchScoring = field(default_factory=MatchScoring)

    # ------------------------------------------------------------------ creation
    @classmethod
    def start(cls, event_id: uuid.UUID, entrants: Sequence[Entrant], group_lot: GroupLot) -> GroupPlayoff:
        event = cls(event_id, seeded(entrants), group_lot)
        for name, members in zip(GROUPS, group_lot.groups, strict=True):
            for a, b in group_pairings(members):
                event._add(MatchKind.GROUP, a, b, group=name)
        return event

    def _game_id(self, key: str, n: int) -> str:
        return game_id(self.id, key, n)

    def _id_key(self, match: Match) -> str:
        """What a match's game ids derive from: a phase-1 match's players; a later match's slot
        (``semi-final:1``, ``final``, ...), so its games' ids are known before the phase opens."""
        if match.stage.phase == 1:
            return match.key
        slot = self.stage_matches(match.stage).index(match) + 1 if match in self.matches else None
        return planned_key(match.stage, slot)

    def _add(self, stage: MatchKind, a: str, b: str, *, group: str | None = None) -> Match:
        match = Match(stage, a, b, [], group)
        if stage.phase > 1:
            slot = len(self.stage_matches(stage)) + 1
            key = planned_key(stage, slot)
        else:
            key = match.key
        inviter = self.inviter(a, b)
        match.games = [
            MatchGame(self._game_id(key, 0), a, b, inviter),
            MatchGame(self._game_id(key, 1), b, a, inviter),
        ]
        self.matches.append(match)
        for player in (a, b):
            if player in self.withdrawn:
                self._forfeit(match, player)
        return match

    # ------------------------------------------------------------------ reading
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(e.player for e in self.entrants)

    def creates_games(self, player: str) -> bool:
        return next((e.creates_games for e in self.entrants if e.player == player), True)

    def inviter(self, first: str, other: str) -> str:
        """Who creates a pairing's games (4T1 §4(5)): the one named ``first``, unless they cannot create
        games and ``other`` can."""
        if not self.creates_games(first) and self.creates_games(other):
            return other
        return first

    @property
    def start_numbers(self) -> dict[str, int]:
        return {p: i + 1 for i, p in enumerate(self.players)}

    def group_of(self, player: str) -> str:
        return next(name for name, ms in zip(GROUPS, self.group_lot.groups, strict=True) if player in ms)

    def members(self, group: str) -> tuple[str, ...]:
        return self.group_lot.groups[GROUPS.index(group)]

    def stage_matches(self, *stages: MatchKind) -> list[Match]:
        return [m for m in self.matches if m.stage in stages]

    def game(self, game_id: str) -> tuple[Match, MatchGame]:
        """A game of the competition; 409 ``phase-not-started`` for a game of a phase not opened yet (its id
        is known ahead: :meth:`planned`), 404 for any other."""
        for m in self.matches:
            for g in m.games:
                if g.id == game_id:
                    return m, g
        for stage, slot, ids in self.planned():
            if game_id in ids:
                where = f"{stage.value}{'' if slot is None else f' {slot}'}"
                raise PhaseNotStarted(
                    f"game {game_id} is a game of the {where} match, phase {stage.phase}, which has not"
                    f" started: the organiser announces it once every game of the earlier phases is finished"
                )
        raise NotFound(f"game {game_id} is not a game of this event")

    def planned(self) -> list[tuple[MatchKind, int | None, tuple[str, ...]]]:
        """The matches of the phases not opened yet, each with its slot and its games' ids (the two
        games and the extra games it may need): they are derived from the slot, so known ahead."""
        return [p for p in planned_games(self.id) if not self.stage_matches(p[0])]

    def open_games(self, *, phases: Iterable[int] = (1, 2, 3)) -> list[MatchGame]:
        wanted = set(phases)
        return [g for m in self.matches if m.stage.phase in wanted for g in m.games if g.open]

    def table(self, group: str) -> GroupTable:
        """The group's table by (a)-(f), with its play-offs and the lot the organiser asked for. A match
        counts once both its games are finished (or it is scored 0:2)."""
        start = self.start_numbers
        lot = self.lots.get(group)
        return group_table(
            [start[p] for p in self.members(group)],
            [
                m.table_match(start)
                for m in self.stage_matches(MatchKind.GROUP)
                if m.group == group and m.finished
            ],
            scoring=self.scoring,
            withdrawn=[start[p] for p, phase in self.withdrawn.items() if phase == 1],
            playoffs=[
                m.table_match(start)
                for m in self.stage_matches(MatchKind.PLAYOFF)
                if m.group == group and m.finished
            ],
            lots_seed=lot.seed if lot else None,
        )

    def group_places(self, group: str) -> tuple[str, ...] | None:
        """The group in place order once phase 1 decided every place; None while a tie remains."""
        phase_one = [m for m in self.stage_matches(MatchKind.GROUP, MatchKind.PLAYOFF) if m.group == group]
        if not all(m.finished for m in phase_one):
            return None
        table = self.table(group)
        if len({r.rank for r in table.rows}) < len(table.rows):
            return None
        by_start = {n: p for p, n in self.start_numbers.items()}
        return tuple(by_start[r.start] for r in table.rows)

    def decided(self, match: Match) -> MatchOutcome:
        return decide(match)

    # ------------------------------------------------------------------ results
    def record_result(self, game_id: str, outcome: Outcome, *, how: str = "played") -> list[MatchGame]:
        """A game's result; returns the games this creates (play-offs, extra games)."""
        _, game = self.game(game_id)  # a phase's games exist once it is announced: none of a later phase
        if not game.open:
            raise GameHasResult(f"game {game_id} has its result")
        game.outcome, game.how = outcome, how
        return self._follow_up()

    def _follow_up(self) -> list[MatchGame]:
        created: list[MatchGame] = []
        if all(m.finished for m in self.stage_matches(MatchKind.GROUP)):
            for group in GROUPS:
                created += self._playoffs(group)
        for m in self.stage_matches(MatchKind.SEMI_FINAL, MatchKind.FINAL):
            created += self._extra_game(m)
        return created

    def _playoffs(self, group: str) -> list[MatchGame]:
        """The play-offs the group's ties need, each once (a tie a withdrawal makes later gets its own)."""
        created: list[MatchGame] = []
        for tie in self.table(group).playoff_groups:
            order = [p for p in self.members(group) if self.start_numbers[p] in tie]
            if any(m.a in order and m.b in order for m in self.stage_matches(MatchKind.PLAYOFF)):
                continue  # its play-off is being played
            for x, y in group_pairings_among(order):
                created += self._add(MatchKind.PLAYOFF, x, y, group=group).games
        return created

    def _extra_game(self, match: Match) -> list[MatchGame]:
        if match.forfeited_by is not None or not match.finished or self.decided(match).done:
            return []
        extra = [g for g in match.games if g.extra]
        if match.stage is MatchKind.SEMI_FINAL:
            white, black = match.a, match.b  # the group winner
        elif not extra:
            white, black = self._final_white(match)
        else:
            white, black = extra[0].black, extra[0].white
        game = MatchGame(
            self._game_id(self._id_key(match), len(match.games)),
            white,
            black,
            self.inviter(white, black),
            extra=len(extra) + 1,
        )
        match.games.append(game)
        return [game]

    def phase_board_points(self, player: str) -> Fraction:
        """Board points over phases 1-2: the group matches and the semi-final, extra game included."""
        total = Fraction(0)
        for m in self.stage_matches(MatchKind.GROUP, MatchKind.SEMI_FINAL):
            if player in (m.a, m.b):
                a, b = m.board_points(extra=True)
                total += a if player == m.a else b
        return total

    def group_place(self, player: str) -> int:
        places = self.group_places(self.group_of(player)) or ()
        return places.index(player) + 1 if player in places else 5

    def _final_white(self, match: Match) -> tuple[str, str]:
        a, b = match.a, match.b
        pa, pb = self.phase_board_points(a), self.phase_board_points(b)
        if pa == pb:
            pa, pb = Fraction(-self.group_place(a)), Fraction(-self.group_place(b))
        if pa == pb:
            start = self.start_numbers
            drawn = draw_lots([[start[a], start[b]]], f"{self.group_lot.seed}:final-colours").groups[0]
            white = a if drawn[0] == start[a] else b
            self.colour_lot = Lot(
                f"{self.group_lot.seed}:final-colours", "system", None, (white, b if white == a else a)
            )
            return (a, b) if white == a else (b, a)
        return (a, b) if pa > pb else (b, a)

    # ------------------------------------------------------------------ the organiser
    def draw_lots(self, group: str, seed: str, drawn_by: str, drawn_at: dt.datetime) -> Lot:
        """(f): the organiser's lot for what the play-off left tied. 409 where no tie needs one."""
        if group not in GROUPS:
            raise NotFound(f"there is no group {group!r}; the groups are I and II")
        phase_one = [m for m in self.stage_matches(MatchKind.GROUP, MatchKind.PLAYOFF) if m.group == group]
        table = self.table(group)
        ties = [
            [r.start for r in table.rows if r.rank == rank]
            for rank in sorted({r.rank for r in table.rows})
            if sum(1 for r in table.rows if r.rank == rank) > 1
        ]
        if group in self.lots or not all(m.finished for m in phase_one) or table.playoff_groups or not ties:
            raise NoTieForLots(f"no tie in group {group} needs a lot")
        by_start = {n: p for p, n in self.start_numbers.items()}
        drawn = draw_lots(ties, seed)
        order = tuple(by_start[s] for g in drawn.groups for s in g)
        self.lots[group] = lot = Lot(seed, drawn_by, drawn_at, order)
        return lot

    def announce_phase(self, phase: int, *, with_placement: bool = False) -> list[MatchGame]:
        """Open phase 2 or 3; 409 naming the open games of the earlier phases. ``with_placement``
        (phase 2): the 5th/7th-place matches start at the same time."""
        if phase != self.phase + 1 or phase not in (2, 3):
            raise GroupPlayoffError(f"phase {phase} cannot be announced after phase {self.phase}")
        still = [g.id for g in self.open_games(phases=range(1, phase))]
        if still:
            raise GamesStillOpen(
                f"phase {phase} cannot start: {len(still)} game(s) of earlier phases are open: {', '.join(still)}",
                still,
            )
        places = {group: self.group_places(group) for group in GROUPS}
        undecided = [group for group, p in places.items() if p is None]
        if undecided:
            raise GroupPlayoffError(
                f"group {', '.join(undecided)} has places still tied; the play-off or the organiser's lot decides them"
            )
        stages = [MatchKind.SEMI_FINAL] if phase == 2 else [MatchKind.FINAL, MatchKind.THIRD]
        if (phase == 2 and with_placement) or (phase == 3 and not self.placement_early):
            stages += [MatchKind.FIFTH, MatchKind.SEVENTH]
        pairs = [
            (stage, self.planned_players(stage, slot)) for stage, slot, _ in self.planned() if stage in stages
        ]
        created: list[Match] = []
        for stage, players in pairs:
            assert players is not None
            created.append(self._add(stage, *players))
        if phase == 2 and with_placement:
            self.placement_early = True
        self.phase = phase
        return [g for m in created for g in m.games if g.open]

    def planned_players(self, stage: MatchKind, slot: int | None) -> tuple[str, str] | None:
        """Who plays a later phase's match (the one named first first), once the earlier results say:
        the semi-finals 1st of I v 2nd of II and 1st of II v 2nd of I, 5th place the group thirds, 7th
        the fourths, the final the semi-final winners, third place their losers."""
        one, two = self.group_places("I"), self.group_places("II")
        if stage in (MatchKind.FINAL, MatchKind.THIRD):
            semis = [self.decided(m) for m in self.stage_matches(MatchKind.SEMI_FINAL)]
            if len(semis) != 2 or not all(d.winner for d in semis):
                return None
            x, y = semis
            pair = (x.winner, y.winner) if stage is MatchKind.FINAL else (x.loser, y.loser)
            assert pair[0] is not None and pair[1] is not None
            return pair[0], pair[1]
        if one is None or two is None:
            return None
        if stage is MatchKind.SEMI_FINAL:
            return (one[0], two[1]) if slot == 1 else (two[0], one[1])
        index = 2 if stage is MatchKind.FIFTH else 3
        return one[index], two[index]

    def withdraw(self, player: str) -> list[MatchGame]:
        """Withdrawn or excluded after the start: every match of the player's phase scored 0:2. Returns
        the open games no longer played."""
        if player not in self.players:
            raise NotFound(f"player {player} is not in this event")
        if player in self.withdrawn:
            raise GroupPlayoffError(f"player {player} has already left the event")
        mine = [m for m in self.matches if player in (m.a, m.b)]
        phase = max((m.stage.phase for m in mine), default=1)
        self.withdrawn[player] = phase
        dropped: list[MatchGame] = []
        for m in mine:
            if m.stage.phase == phase and m.forfeited_by is None:
                dropped += self._forfeit(m, player)
        self._follow_up()
        return dropped

    def _forfeit(self, match: Match, player: str) -> list[MatchGame]:
        if match.forfeited_by is not None:  # the opponent left first
            return []
        match.forfeited_by = player
        dropped = [g for g in match.games if g.open]
        for g in dropped:
            g.how = "withdrawn"
        return dropped

    def set_deadline(self, phase: int, at: dt.datetime) -> None:
        if phase not in (1, 2, 3):
            raise GroupPlayoffError(f"the event has phases 1, 2 and 3, not {phase}")
        self.deadlines[phase] = at

    def overdue(self, now: dt.datetime) -> list[MatchGame]:
        """The open games of phases whose deadline has passed."""
        late = {p for p, at in self.deadlines.items() if at <= now}
        return [g for g in self.open_games(phases=late)]

    def _check_overdue(self, game_id: str, now: dt.datetime) -> MatchGame:
        _, game = self.game(game_id)
        if not game.open:
            raise GameHasResult(f"game {game_id} has its result")
        if game not in self.overdue(now):
            raise NotOverdue(
                f"game {game_id} is not overdue: the organiser decides only games past the deadline"
            )
        return game

    def draw_game_lot(self, game_id: str, seed: str, drawn_by: str, drawn_at: dt.datetime) -> Lot:
        """4T1 §4(10): the organiser decides an overdue game by lot; the player drawn first wins. The lot
        is recorded (seed, who, when, the order drawn); the result itself is the clocks' to enter.
        409 when the game is not overdue, has its result or was drawn already."""
        game = self._check_overdue(game_id, drawn_at)
        if game_id in self.game_lots:
            raise LotDrawn(f"the lot for game {game_id} was drawn already; its result is on its way")
        start = self.start_numbers
        first = draw_lots([[start[game.white], start[game.black]]], seed).groups[0][0]
        order = (game.white, game.black) if first == start[game.white] else (game.black, game.white)
        self.game_lots[game_id] = lot = Lot(seed, drawn_by, drawn_at, order)
        return lot

    def lot_outcome(self, game_id: str) -> Outcome:
        """The result the game's lot gave: a win for the player drawn first."""
        _, game = self.game(game_id)
        return Outcome.WHITE_WIN if self.game_lots[game_id].order[0] == game.white else Outcome.BLACK_WIN

    def adjudicate(
        self, game_id: str, now: dt.datetime, *, outcome: Outcome | None = None, lot_seed: str | None = None
    ) -> list[MatchGame]:
        """The organiser's result for an overdue game: from the position (``outcome``) or by a lot."""
        self._check_overdue(game_id, now)
        if (outcome is None) == (lot_seed is None):
            raise GroupPlayoffError("an adjudication gives either the result or the seed of a lot")
        if lot_seed is not None:
            self.draw_game_lot(game_id, lot_seed, "organiser", now)
            outcome = self.lot_outcome(game_id)
        assert outcome is not None
        return self.record_result(game_id, outcome, how="lot" if lot_seed else "adjudicated")

    # ------------------------------------------------------------------ the end
    @property
    def complete(self) -> bool:
        phase_three = self.stage_matches(MatchKind.FINAL, MatchKind.THIRD, MatchKind.FIFTH, MatchKind.SEVENTH)
        return len(phase_three) == 4 and all(self.decided(m).done for m in phase_three)

    def placing(self) -> list[tuple[str, int]]:
        """The final placing of all eight, shared places repeated; empty until phase 3 is decided."""
        if not self.complete:
            return []
        rows: list[tuple[str, int]] = []
        for stage, place in PLACES.items():
            (match,) = self.stage_matches(stage)
            d = self.decided(match)
            if d.shared:
                rows += [(match.a, place), (match.b, place)]
            else:
                assert d.winner and d.loser
                rows += [(d.winner, place), (d.loser, place + 1)]
        return rows


def group_pairings_among(players: Sequence[str]) -> list[tuple[str, str]]:
    """A play-off: one match between two, a round robin of matches among three or four."""
    if len(players) == 4:
        return list(group_pairings(players))
    return [(players[i], players[j]) for i in range(len(players)) for j in range(i + 1, len(players))]
