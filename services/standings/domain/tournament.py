"""The standings service's view of a tournament, projected from events: what it is (name, ruleset,
system), who plays (seeds), every round's games and byes with their results (``rounds.py``), and the
table kept current as they come (``live_table.py``). The aggregate of the service: each change is
recorded for the repository (``events.Change``) and, for a tournament with a table, published as
``StandingsUpdated`` (``StandingsFinal`` at the end). Pure code.

**Publication.** A paired round is public only once published (RULES.md §4: knockout rounds are
seen by the organisers until they publish them). ``platform`` rounds are published when paired; an
unpublished round shows no games and counts nothing in the table.

**Tables.** The system chosen at the start (``round.paired``'s ``system``) decides the table:
``platform`` round robin and Swiss have one, by their presets (points, then WIN, DE, SNO with SB
shown; points, then BH-C1, SB, WIN with BH shown). The knockout rulesets are shown as a bracket
(``bracket.py``: matches, their games, who advances, the final placing) and have no table,
crosstable or TRF.

``fide-rapid`` (RULES.md §6) Swiss and round robins rank by its preset: points, then BH, BH-C1, SB,
ARO, in the C.07 edition its start date selects, and lots (drawn reproducibly from the tournament's
id) for what stays tied. Its players carry their profiles (FIDE id, federation, title, sex, birth
year, ratings); a late entry joins with the next seed and the byes of the rounds it missed; the
penalties an arbiter gives are kept with their games.

``group-playoff`` round robins have the group table (``live_table.GroupTable``: match points,
board points, the same among the tied; a withdrawn player's matches score 0:2).

**Under the arbiter's authority.** A corrected result replaces the old one (the game keeps the
correction, its table, crosstable and pages follow); a withdrawn or excluded player is marked (the
table changes only where the ruleset says so: ``group-playoff``); an open game's colours may be
swapped; a knockout reset to its draft forgets its rounds until it is started again.

**The round to come.** Before a Swiss round is paired the standings know who it leaves out, as pairing
does (``PairingTournament.absent``): the withdrawn (an excluded `platform` player stays in the draw), the
zero-point byes asked for it (``bye.requested``, unless taken back: ``bye.taken_back``), and in a
`fide-rapid` event the absentees of the round before (a loss at the default time) whom no arbiter excused
(``absence.excused``) and the late entries not in yet (:meth:`Tournament.left_out`). The TRF written then
gives each of them a block for that round, so that a pairing program reading it pairs the round as
pairing does.

**Repeated news.** A round paired again adds only the games and matches it did not have (a
knockout's tie-break games, or a match's new players after a correction); a second result for a
game, a second publication, decision, cancellation, withdrawal or completion changes nothing (the
first one stands; a match decided again after a correction takes the decision pairing numbered
highest, in whatever order the decisions come).
Each changing method says whether anything changed.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from services.standings.domain.bracket import SECTIONS, BracketMatch, KnockoutFormat, Placing
from services.standings.domain.context import Rules
from services.standings.domain.errors import (
    ChangeOutstanding,
    EventMismatch,
    GameNotFound,
    MatchNotFound,
    NotABracket,
    NotATable,
    PlayerOutstanding,
    ResultsOutstanding,
    RoundNotFound,
    UnsupportedRuleset,
)
from services.standings.domain.events import (
    AbsenceExcused,
    ByeRequested,
    ByeRequestTakenBack,
    Change,
    ColoursSwapped,
    GameCancelled,
    GamesAdded,
    IncidentRecorded,
    MatchDecided,
    MatchPlayersChanged,
    PlayerAdded,
    PlayerWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundAdded,
    RoundPublished,
    StandingsFinal,
    StandingsUpdated,
    TournamentCompleted,
    TournamentReset,
    TournamentRestarted,
)
from services.standings.domain.history import EventHistory, Player
from services.standings.domain.live_table import GroupTable, LiveTable, Ranked, TableKeeper
from services.standings.domain.pairings import AnnouncedBye, AnnouncedGame, AnnouncedMatch, AnnouncedPlace
from services.standings.domain.presets import GROUP_BOARDS, preset
from services.standings.domain.presets import Ruleset as Preset
from services.standings.domain.ranking import Standings
from services.standings.domain.rounds import (
    BYE_RESULTS,
    Bye,
    Competitor,
    Correction,
    Game,
    Incident,
    PairedRound,
    Profile,
    RoundStatus,
    record_round,
)
from services.standings.domain.snapshot import Snapshot, SnapshotRow, SnapshotTable, number
from services.standings.domain.withdrawals import PlayerStatus, Withdrawal, stays_in_draw
from shared.aggregate import Aggregate, DomainEvent
from shared.authority import Role
from shared.resets import Resets
from shared.scoring import Outcome
from shared.time_control import TimeControl
from shared.vocabulary import ByeKind, Decision, Ruleset, System

__all__ = [
    "SYSTEM_NAMES",
    "TABLE_SYSTEMS",
    "FideInfo",
    "Tournament",
    "TournamentInfo",
    "is_bracket",
    "published_on_pairing",
]

DEFAULT_TIME: Final = "default_time"
"""The reason of a loss by absence (``game.finished``: not at the board by the default time, RULES.md §6)."""
TABLE_SYSTEMS: Final = frozenset({System.ROUND_ROBIN, System.SWISS})
SYSTEM_NAMES: Final[Mapping[System, str]] = {
    System.ROUND_ROBIN: "Round robin",
    System.SWISS: "Swiss",
    System.KNOCKOUT: "Knockout",
    System.DOUBLE_KNOCKOUT: "Double knockout",
}
BRACKET_RULESETS: Final = frozenset({Ruleset.KNOCKOUT, Ruleset.DOUBLE_KNOCKOUT})  # RULES.md §4
_PRESETS: Final[Mapping[tuple[Ruleset, System], Preset]] = {
    (Ruleset.PLATFORM, System.ROUND_ROBIN): preset("platform-round-robin"),
    (Ruleset.PLATFORM, System.SWISS): preset("platform-swiss"),
    (Ruleset.GROUP_PLAYOFF, System.ROUND_ROBIN): GROUP_BOARDS,  # ranked by the group table
    (Ruleset.FIDE_RAPID, System.SWISS): preset("fide-rapid"),
    (Ruleset.FIDE_RAPID, System.ROUND_ROBIN): replace(preset("fide-rapid"), pre_determined=True),
}


def published_on_pairing(ruleset: Ruleset) -> bool:
    """Whether a round of this ruleset is public as soon as it is paired (``platform``: yes;
    knockouts: only once the organisers publish it)."""
    return ruleset not in BRACKET_RULESETS


def is_bracket(ruleset: Ruleset, system: System | None) -> bool:
    """A knockout ruleset (known from the start), or a bracket system (named by the first pairing)."""
    return ruleset in BRACKET_RULESETS or (system is not None and system.elimination)


def _board_order(game: Game) -> tuple[int, int, int]:
    """How a round's games are kept: by leg, board, and number in their match."""
    return (game.leg, game.board, game.number or 0)


def _bracket_order(match: BracketMatch) -> tuple[int, int, int]:
    """How a round's matches are kept: by section, section round and number."""
    return (SECTIONS.index(match.section), match.section_round, match.number)


@dataclass(frozen=True, slots=True)
class FideInfo:
    """A `fide-rapid` event's settings the standings use (``settings.fide``): the place and dates for
    the TRF's headers and the table's C.07 edition, and what a late entry's missed rounds score."""

    place: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    rounds: int | None = None
    acceleration: bool = False
    clocks: str = "board"  # board or server
    late_entry_bye: ByeKind = ByeKind.ZERO_POINT
    system: System | None = None  # swiss or round robin, as the organiser set it (None: not stored)
    federation: str = ""  # the organising federation (TRF 032)
    chief_arbiter: str = ""  # TRF 102
    deputy_arbiters: tuple[str, ...] = ()  # TRF 112


@dataclass(slots=True)
class TournamentInfo:
    """What a tournament is; ``system`` and ``total_rounds`` come with its first pairing."""

    id: uuid.UUID
    name: str
    ruleset: Ruleset
    started_at: dt.datetime
    time_control: TimeControl
    variant: str = "chess"
    double_rounds: bool = False
    rated: bool = True  # False: a friendly tournament (the organiser's choice, or its opening)
    opening: str = "free"  # the opening option (RULES.md §2)
    system: System | None = None
    total_rounds: int | None = None
    completed_at: dt.datetime | None = None
    knockout: KnockoutFormat | None = None  # the knockout rulesets' format settings
    reset_at: dt.datetime | None = None  # reset to its draft then, not started again since
    fide: FideInfo | None = None  # fide-rapid's settings

    @property
    def start_date(self) -> dt.date:
        """The event's first day: the organiser's (fide-rapid), else the day it started."""
        if self.fide is not None and self.fide.start_date is not None:
            return self.fide.start_date
        return self.started_at.date()

    @property
    def legs(self) -> int:
        return 2 if self.double_rounds else 1

    @property
    def planned_system(self) -> System | None:
        """The system: the first pairing's, before it the organiser's (a `fide-rapid` event's settings)."""
        if self.system is not None:
            return self.system
        return None if self.fide is None else self.fide.system

    @property
    def rounds_to_play(self) -> int | None:
        """The rounds: the pairings', before them the organiser's (`fide-rapid`)."""
        return self.total_rounds or (self.fide.rounds if self.fide is not None else None)

    @property
    def draft(self) -> bool:
        """Reset to its draft (a knockout, RULES.md §4): nothing of it is shown until it starts again."""
        return self.reset_at is not None

    @property
    def is_group(self) -> bool:
        """Ranked by the ``group-playoff`` group table rather than by C.07 tie-breaks."""
        return self.ruleset is Ruleset.GROUP_PLAYOFF

    @property
    def is_bracket(self) -> bool:
        return is_bracket(self.ruleset, self.system)

    @property
    def has_table(self) -> bool:
        """False for a bracket; otherwise True, before the first pairing names the system too."""
        return not self.is_bracket and (self.system is None or self.system in TABLE_SYSTEMS)

    def check_bracket(self) -> None:
        if not self.is_bracket:
            raise NotABracket(f"a {self.system or self.ruleset} tournament has a table, not a bracket")

    def preset_or_none(self) -> Preset | None:
        """The preset that scores this tournament's games and ranks its table (``group-playoff``: the
        board points; the group table ranks); None for a bracket, a ruleset without table rules
        here, or before the first pairing names the system."""
        if self.system is None:
            return None
        return _PRESETS.get((self.ruleset, self.system))

    def check_table(self) -> None:
        """Raise NotATable for a bracket, UnsupportedRuleset for a table this service cannot rank."""
        if self.system is System.GROUP_PLAYOFF:
            raise NotATable(
                "a group-playoff event is not one table: its group tables, matches and placing are on"
                " its page (GET /tournaments/{id}/group-playoff, /t/{id})"
            )
        if not self.has_table:
            raise NotATable(
                f"a {self.system} tournament is shown as a bracket: it has no table, crosstable or TRF"
            )
        if self.system is not None and self.preset_or_none() is None:
            raise UnsupportedRuleset(f"no table rules for the {self.ruleset.value!r} ruleset ({self.system})")

    def bye_points(self, ruleset: Preset) -> dict[ByeKind, Fraction]:
        """What each kind of bye scores over a whole round (both legs with double rounds)."""
        ps = ruleset.point_system
        return {kind: ps.points(result) * self.legs for kind, result in BYE_RESULTS.items()}

    def rules(self, ruleset: Preset) -> Rules:
        """C.07's edition by the start date (docs/standings.md), with the ruleset's bye handling."""
        start = self.start_date
        return ruleset.rules(start, start)


class Tournament(Aggregate):
    """A tournament's projection. Built when it starts (its snapshot computed) or loaded from what
    was stored (``revision`` and ``snapshot`` as they were saved)."""

    def __init__(
        self,
        info: TournamentInfo,
        players: Sequence[Competitor],
        rounds: Mapping[int, PairedRound] | None = None,
        placing: Sequence[Placing] | None = None,
        *,
        withdrawals: Iterable[Withdrawal] = (),
        bye_requests: Iterable[tuple[int, int]] = (),
        excused: Iterable[tuple[int, int]] = (),
        revision: int = 0,
        snapshot: Snapshot | None = None,
        resets: Resets | None = None,
    ) -> None:
        self.revision = revision  # the number of changes applied since the start
        self.resets = resets or Resets()  # a knockout's resets to its draft: what they removed
        self._changes: list[Change] = []
        self._start(info, players, rounds, placing, withdrawals, bye_requests, excused)
        self._current: Snapshot | None = (
            snapshot if snapshot is not None else self._snapshot(self._table_from_scratch())
        )
        self._update_due = False  # a change of the table whose StandingsUpdated is not recorded yet

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot as of the last change, computed when first asked for after it: a batch of
        results costs one computation, not one per result."""
        if self._current is None:
            self._current = self._snapshot(self._live.ranked() if self._live is not None else None)
        return self._current

    def record(self, event: DomainEvent) -> None:
        """Any other event comes after the table update due before it."""
        if not isinstance(event, StandingsUpdated):
            self._record_due_update()
        super().record(event)

    def collect_events(self) -> list[DomainEvent]:
        """What was recorded, with the update of the table due (one for all the changes since the last
        collection: what ``standings.updated`` carries is the whole table)."""
        self._record_due_update()
        return super().collect_events()

    def _record_due_update(self) -> None:
        if not self._update_due:
            return
        self._update_due = False
        snapshot = self.snapshot
        if snapshot.table is not None:
            super().record(
                StandingsUpdated(self.id, snapshot.after_round, snapshot.games_counted, snapshot.table.rows)
            )

    def _start(
        self,
        info: TournamentInfo,
        players: Sequence[Competitor],
        rounds: Mapping[int, PairedRound] | None,
        placing: Sequence[Placing] | None,
        withdrawals: Iterable[Withdrawal],
        bye_requests: Iterable[tuple[int, int]] = (),
        excused: Iterable[tuple[int, int]] = (),
    ) -> None:
        self.info = info
        self.players = sorted(players, key=lambda p: p.seed)
        self.rounds: dict[int, PairedRound] = dict(rounds or {})
        for rnd in self.rounds.values():
            rnd.games.sort(key=_board_order)
            rnd.matches.sort(key=_bracket_order)
        self.placing: list[Placing] | None = None if placing is None else list(placing)
        self.withdrawals: dict[int, Withdrawal] = {w.seed: w for w in withdrawals}
        self.bye_requests: set[tuple[int, int]] = set(bye_requests)  # (round, seed): zero-point byes asked
        self.excused: set[tuple[int, int]] = set(excused)  # (round, seed): absences an arbiter excused
        self._seeds = {p.player_id: p.seed for p in self.players}
        self._by_seed = {p.seed: p for p in self.players}
        self._games = {g.game_id: g for r in self.rounds.values() for g in r.games}
        self._live: TableKeeper | None = None
        self._live_built = False

    @property
    def id(self) -> uuid.UUID:
        return self.info.id

    # -- reading -------------------------------------------------------------------------------

    def seed_of(self, player_id: uuid.UUID) -> int:
        try:
            return self._seeds[player_id]
        except KeyError:
            raise EventMismatch(f"player {player_id} is not in tournament {self.id}") from None

    def player(self, seed: int) -> Competitor:
        return self._by_seed[seed]

    def round(self, number: int) -> PairedRound:
        found = self.rounds.get(number)
        if found is None:
            raise RoundNotFound(f"round {number} of tournament {self.id} is not paired")
        return found

    def game(self, game_id: uuid.UUID) -> Game:
        found = self._games.get(game_id)
        if found is None:
            raise GameNotFound(f"game {game_id} is not in tournament {self.id}")
        return found

    def match(self, match_id: str) -> BracketMatch:
        for rnd in self.rounds.values():
            for m in rnd.matches:
                if m.match_id == match_id:
                    return m
        raise MatchNotFound(f"match {match_id} is not paired in tournament {self.id}")

    def rounds_in_order(self) -> Iterator[PairedRound]:
        return (self.rounds[n] for n in sorted(self.rounds))

    def published_rounds(self) -> Iterator[PairedRound]:
        return (r for r in self.rounds_in_order() if r.published)

    def history(self, ruleset: Preset) -> EventHistory:
        """The tie-break history of the published rounds (legs as rounds, open games NOT_PLAYED)."""
        history = EventHistory.create(
            (Player(p.seed, p.name, p.rating) for p in self.players),
            point_system=ruleset.point_system,
            pre_determined=ruleset.pre_determined,
        )
        for rnd in self.published_rounds():
            record_round(rnd, history, self.info.legs)
        return history

    def standings(self) -> Standings | None:
        """A C.07 table computed from scratch, or None while there is none to compute (bracket, an
        unsupported ruleset, nothing paired yet) or the table is not C.07's (``group-playoff``)."""
        ruleset = self.info.preset_or_none()
        if ruleset is None or self.info.is_group:
            return None
        return Standings(
            self.history(ruleset),
            ruleset.tiebreaks,
            self.info.rules(ruleset),
            shown=ruleset.shown,
            lots_seed=self.lots_seed(ruleset),
        )

    def lots_seed(self, ruleset: Preset) -> str | None:
        """The seed of the drawing of lots that orders the ties left (the tournament's id), where the
        ruleset ends in one."""
        return str(self.id) if ruleset.lots else None

    def ranked(self) -> Ranked | None:
        """The table computed from scratch (exact values), or None where there is none."""
        return self._table_from_scratch()

    def status(self, seed: int) -> PlayerStatus | None:
        """Withdrawn, excluded, or None while the player plays on."""
        found = self.withdrawals.get(seed)
        return None if found is None else found.status

    def stays_in_draw(self, seed: int) -> bool:
        """Whether the player is paired in later rounds (an excluded `platform` player still is)."""
        found = self.withdrawals.get(seed)
        return found is None or stays_in_draw(self.info.ruleset, found.status)

    def absentees(self, number: int) -> frozenset[int]:
        """Who lost round ``number`` at the default time (not at the board): a forfeit's losers."""
        rnd = self.rounds.get(number)
        if rnd is None or not rnd.published:
            return frozenset()
        out: set[int] = set()
        for g in rnd.games:
            if g.reason != DEFAULT_TIME or g.cancelled:
                continue
            if g.outcome in (Outcome.BLACK_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT):
                out.add(g.white)
            if g.outcome in (Outcome.WHITE_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT):
                out.add(g.black)
        return frozenset(out)

    def unexcused(self, number: int) -> list[int]:
        """The absentees of round ``number`` no arbiter excused who are still in the draw (in a
        `fide-rapid` event they count as withdrawn from the next round on, FIDE C.04.2)."""
        return sorted(
            s for s in self.absentees(number) if (number, s) not in self.excused and self.stays_in_draw(s)
        )

    def requested_byes(self, number: int) -> list[int]:
        """The seeds with a zero-point bye asked for round ``number`` who are still in the draw."""
        return sorted(s for (r, s) in self.bye_requests if r == number and self.stays_in_draw(s))

    def left_out(self, number: int) -> frozenset[int]:
        """The seeds a Swiss leaves out of round ``number``, as pairing does: the withdrawn, the byes asked
        for it, and in a `fide-rapid` event the absentees of the round before nobody excused and the late
        entries not in yet."""
        gone = {seed for seed in self.withdrawals if not self.stays_in_draw(seed)}
        if self.info.fide is not None:
            gone |= set(self.unexcused(number - 1))
            gone |= {p.seed for p in self.players if p.from_round is not None and p.from_round > number}
        return frozenset(gone | set(self.requested_byes(number)))

    # -- changing ------------------------------------------------------------------------------

    def pair_round(
        self,
        number: int,
        *,
        system: System,
        total_rounds: int,
        games: Sequence[AnnouncedGame],
        byes: Sequence[AnnouncedBye] = (),
        matches: Sequence[AnnouncedMatch] = (),
        published: bool | None = None,
        at: dt.datetime,
    ) -> bool:
        """Record a paired round (the first one names the system; ``published`` None: by the
        ruleset). The same round again adds the games and matches it did not have yet (a knockout's
        tie-break games). False when nothing changed."""
        if self.info.fide is not None:
            named = {p for g in games for p in (g.white, g.black)} | {b.player_id for b in byes}
            unknown = named - self._seeds.keys()
            if unknown:
                raise PlayerOutstanding(
                    f"round {number} names {len(unknown)} player(s) whose late entry is on its way"
                )
        paired = sorted((self._game(number, g) for g in games), key=_board_order)
        paired_matches = sorted((self._match(number, m) for m in matches), key=_bracket_order)
        if number in self.rounds:
            return self._extend(self.rounds[number], paired, paired_matches)
        live = self._live_table()
        announced = [
            Bye(number, seed, b.kind, self._missed(seed, number))
            for b in byes
            for seed in [self.seed_of(b.player_id)]
        ]
        rnd = PairedRound(
            number,
            paired,
            announced + self._late_byes(number, paired, announced),
            published=published if published is not None else published_on_pairing(self.info.ruleset),
            matches=paired_matches,
            paired_at=at,
        )
        first = self.info.system is None
        if first:
            self.info.system = system
            if any(g.leg > 1 for g in paired):
                # pairing decides the legs: four players play double rounds whatever was chosen
                self.info.double_rounds = True
        self.info.total_rounds = total_rounds
        self.rounds[number] = rnd
        for game in paired:
            self._games[game.game_id] = game
        self._changes.append(RoundAdded(rnd))
        if first:
            self._live = self._build_live()  # the first pairing says which table this is
        elif live is not None and rnd.published:
            live.add_round(rnd)
        self._changed()
        return True

    def _extend(self, rnd: PairedRound, games: list[Game], matches: list[BracketMatch]) -> bool:
        known = {m.match_id: m for m in rnd.matches}
        new_games = [g for g in games if g.game_id not in self._games]
        new_matches = [m for m in matches if m.match_id not in known]
        # a correction changed who advanced: the match is announced again with its new players
        # (pairing cancels its unplayed games and adds new ones); a decided match keeps its own
        moved = [
            (known[m.match_id], m)
            for m in matches
            if m.match_id in known
            and not known[m.match_id].decided
            and known[m.match_id].players != m.players
        ]
        if not new_games and not new_matches and not moved:
            return False
        live = self._live_table()
        for match, announced in moved:
            match.players, match.first_white = announced.players, announced.first_white
            self._changes.append(MatchPlayersChanged(match))
        if new_games or new_matches:
            rnd.games.extend(new_games)
            rnd.games.sort(key=_board_order)
            rnd.matches.extend(new_matches)
            rnd.matches.sort(key=_bracket_order)
            for game in new_games:
                self._games[game.game_id] = game
            self._changes.append(GamesAdded(rnd.number, tuple(new_games), tuple(new_matches)))
            if live is not None and rnd.published:
                live.add_games(rnd.number, new_games)
        self._changed()
        return True

    def record_result(
        self,
        game_id: uuid.UUID,
        *,
        round: int,
        white: uuid.UUID,
        black: uuid.UUID,
        outcome: Outcome,
        reason: str,
        finished_at: dt.datetime,
        rated: bool = True,
    ) -> bool:
        """A game's result, naming the round and players the pairing gave it (``rated`` False: a
        tie-break or sudden-death game); False when it had one already (the first result stands;
        corrections come as :meth:`correct_result`)."""
        game = self.game(game_id)
        self._check_pairing(game, round, white, black, "game.finished")
        if game.outcome is not None:
            return False
        live = self._live_table()
        game.outcome, game.reason, game.finished_at = outcome, reason, finished_at
        game.rated = game.rated and rated
        self._changes.append(ResultRecorded(game))
        rnd = self.rounds[game.round]
        if live is not None and rnd.published:
            live.record(game)
            if rnd.byes and rnd.progress().status is RoundStatus.FINISHED:
                live.add_byes(rnd)  # its last result: the round's byes count from now on
        self._changed()
        return True

    def correct_result(
        self,
        game_id: uuid.UUID,
        *,
        round: int,
        white: uuid.UUID,
        black: uuid.UUID,
        old_outcome: Outcome,
        outcome: Outcome,
        reason: str | None,
        at: dt.datetime,
        role: Role | None = None,
        by: uuid.UUID | None = None,
    ) -> bool:
        """A finished game's result corrected: the new outcome replaces the old one in the table,
        the crosstable, the rounds, the bracket's score and the TRF, and the game is marked
        corrected. After the end the final table is published again. False when this correction
        was recorded already. A correction that overtook the result it corrects (or an earlier
        correction) is not ready yet."""
        game = self.game(game_id)
        self._check_pairing(game, round, white, black, "game.result_corrected")
        if any((c.old_outcome, c.outcome, c.at) == (old_outcome, outcome, at) for c in game.corrections):
            return False
        if game.outcome is None:
            raise ResultsOutstanding(f"game {game_id} has no result yet: its game.finished is on its way")
        if game.outcome != old_outcome:
            raise ChangeOutstanding(
                f"game {game_id} stands at {game.outcome.value}, the correction is of {old_outcome.value}: "
                "an earlier correction is on its way"
            )
        live = self._live_table()
        correction = Correction(old_outcome, outcome, reason or None, role, by, at)
        game.outcome = outcome
        game.corrections.append(correction)
        self._changes.append(ResultCorrected(game, correction))
        if live is not None and self.rounds[game.round].published and not game.cancelled:
            live.record(game)
        self._changed()
        table = self.snapshot.table
        if self.info.completed_at is not None and table is not None:
            self.record(StandingsFinal(self.id, table.rows))
        return True

    def swap_colours(self, game_id: uuid.UUID, *, round: int, white: uuid.UUID, black: uuid.UUID) -> bool:
        """An open game's colours swapped: ``white`` and ``black`` are the new colours (a match's
        first game gives the match's first White). False when the game has them already."""
        game = self.game(game_id)
        seeds = (self.seed_of(white), self.seed_of(black))
        if game.round != round or set(seeds) != {game.white, game.black}:
            raise EventMismatch(f"game.colours_swapped for {game_id} names other players than its pairing")
        if seeds == (game.white, game.black):
            return False
        if game.outcome is not None:
            raise EventMismatch(f"game {game_id} has its result: its colours stand")
        live = self._live_table()
        game.white, game.black = seeds
        match = None
        if game.match_id is not None and game.number == 1:
            match = self.match(game.match_id)
            match.first_white = game.white
        self._changes.append(ColoursSwapped(game, match))
        if live is not None and self.rounds[game.round].published and not game.cancelled:
            live.record(game)
        self._changed()
        return True

    def withdraw(
        self,
        player_id: uuid.UUID,
        *,
        excluded: bool,
        reason: str | None,
        at: dt.datetime,
        role: Role | None = None,
        by: uuid.UUID | None = None,
    ) -> bool:
        """A player withdrawn (or excluded by the organiser) for good: marked from now on; the
        ``group-playoff`` table scores their matches 0:2. False if they were already (the first
        withdrawal stands)."""
        seed = self.seed_of(player_id)
        if seed in self.withdrawals:
            return False
        live = self._live_table()
        status = PlayerStatus.EXCLUDED if excluded else PlayerStatus.WITHDRAWN
        withdrawal = Withdrawal(seed, status, reason or None, at, role, by)
        self.withdrawals[seed] = withdrawal
        self._changes.append(PlayerWithdrawn(withdrawal))
        if live is not None:
            live.withdraw(seed)
        self._changed()
        return True

    def publish(self, number: int) -> bool:
        """Make a round public (it counts from now on); False if it was already."""
        rnd = self.round(number)
        if rnd.published:
            return False
        live = self._live_table()
        rnd.published = True
        self._changes.append(RoundPublished(number))
        if live is not None:
            live.add_round(rnd)
        self._changed()
        return True

    def decide(
        self,
        match_id: str,
        winner: uuid.UUID,
        how: Decision,
        at: dt.datetime,
        *,
        players: Iterable[uuid.UUID] | None = None,
        revision: int | None = None,
    ) -> bool:
        """A knockout match's winner and how it was decided. Pairing decides a match again after a
        correction and counts its decisions (``revision``): the decision with the highest count stands,
        whatever order they are heard in — a later one replaces the one shown, an earlier one heard
        after it changes nothing. A decision of a producer that did not count them (None) is older than
        any counted one; of two such, the second replaces the first only once one of the match's games
        was corrected. ``players``: whom the decision names; other players than the match has here
        mean its new pairing (a correction before it moved a player in) is on its way. False when
        nothing changed."""
        match = self.match(match_id)
        seed = self.seed_of(winner)
        named = {seed} if players is None else {self.seed_of(p) for p in players}
        if seed not in named or not named <= set(match.players):
            if match.decided or seed not in named:
                raise EventMismatch(f"match.decided for {match_id} names other players than its pairing")
            raise ChangeOutstanding(f"match {match_id} is paired again with other players: on its way")
        if match.winner is not None and not self._replaces(match, seed, how, revision):
            return False
        if (match.winner, match.how, match.decided_at, match.revision) == (seed, how, at, revision):
            return False
        self._live_table()
        match.winner, match.how, match.decided_at, match.revision = seed, how, at, revision
        self._changes.append(MatchDecided(match))
        self._changed()
        return True

    def _replaces(self, match: BracketMatch, seed: int, how: Decision, revision: int | None) -> bool:
        """Whether a decision replaces the one ``match`` has (see :meth:`decide`)."""
        if revision is not None:
            return match.revision is None or revision > match.revision
        if match.revision is not None:
            return False
        corrected = any(g.corrected for g in self._games.values() if g.match_id == match.match_id)
        return corrected and (match.winner, match.how) != (seed, how)

    def cancel(self, game_id: uuid.UUID, at: dt.datetime) -> bool:
        """A game its knockout match no longer needed: counted nowhere. False if it was already."""
        game = self.game(game_id)
        if game.cancelled:
            return False
        self._live_table()
        game.cancelled_at = at
        self._changes.append(GameCancelled(game))
        self._changed()
        return True

    def complete(self, at: dt.datetime, placing: Sequence[AnnouncedPlace] | None = None) -> bool:
        """The end (a knockout's with its final placing); publishes the final table. False if it
        was completed already. Pairing completes a tournament only after its last result (and a
        knockout's last cancellations): while some game is open, those are on their way."""
        self._record_due_update()
        if self.info.completed_at is not None:
            return False
        open_games = [g for r in self.rounds.values() for g in r.live_games if g.outcome is None]
        if open_games:
            raise ResultsOutstanding(f"tournament.completed before the results of {len(open_games)} games")
        places = None if placing is None else [self._place(p) for p in placing]
        self._live_table()
        self.info.completed_at = at
        self.placing = places
        self._changes.append(TournamentCompleted(at, None if places is None else tuple(places)))
        self._changed(updated=False)
        if self.snapshot.table is not None:
            self.record(StandingsFinal(self.id, self.snapshot.table.rows))
        return True

    def reset(self, at: dt.datetime, games: Iterable[uuid.UUID] = (), start: int | None = None) -> bool:
        """A knockout reset to its draft at ``at`` (RULES.md §4: round 1 undone), undoing its start
        number ``start`` (the resets before it): its rounds, withdrawals and placing are forgotten and
        nothing of it is shown until it is started again (:meth:`restart`). What it removed is kept
        (:attr:`resets`): ``games`` (pairing's list) and the games recorded here, so that news of them
        heard later is told from the next start's. False if that reset was heard already (or, unnumbered,
        while in the draft); the reset of a start not recorded here yet waits for that start."""
        self._record_due_update()
        if start is not None:
            current = len(self.resets)  # this start's number (in the draft: the next one's)
            if start < current:
                return False
            if start > current or self.info.draft:
                raise ChangeOutstanding(
                    f"tournament {self.id}: the reset of its start {start} came before that start"
                )
        elif self.info.draft:
            return False
        self.resets = self.resets.add(at, {*games, *self._games}, start)
        self.info.system = self.info.total_rounds = self.info.completed_at = None
        self.info.reset_at = at
        self._start(self.info, self.players, None, None, ())
        self._live_built = True  # nothing paired: no table
        self._changes.append(TournamentReset(at))
        self._changed(updated=False)
        return True

    def restart(self, info: TournamentInfo, players: Sequence[Competitor]) -> bool:
        """The tournament, reset to its draft, started again: what it is and its roster are the new
        start's. False unless it is in its draft (a start recorded already stands)."""
        self._record_due_update()
        if not self.info.draft:
            return False
        self._start(info, players, None, None, ())
        self._changes.append(TournamentRestarted())
        self._changed(updated=False)
        return True

    def removed(self, game_id: uuid.UUID) -> bool:
        """Whether a reset to the draft removed the game (news of it belongs to an undone start)."""
        return self.resets.removed(game_id)

    def undone(self, start: int) -> bool:
        """Whether start number ``start`` (what pairing's news of it says) was undone by a reset."""
        return self.resets.undone(start)

    def ahead(self, start: int) -> bool:
        """Whether start number ``start`` comes after a reset not recorded here yet."""
        return self.resets.ahead(start)

    def undone_withdrawal(self, player_id: uuid.UUID, at: dt.datetime | None) -> bool:
        """Whether a withdrawal decided at ``at`` belongs to a start a reset undid: while in the draft,
        decided before the reset (registration's time against pairing's, strictly); once started again,
        decided before this start (registration's time, both) and of a player not in it (registration
        seeds no player withdrawn before a reset). Unsaid (None): no."""
        if not self.resets or at is None:
            return False
        if self.info.draft:
            return self.resets.before(at)
        return at < self.info.started_at and player_id not in self._seeds

    def add_player(
        self,
        player_id: uuid.UUID,
        *,
        name: str,
        rating: int | None,
        profile: Profile | None = None,
        from_round: int | None = None,
    ) -> bool:
        """A late entry (``fide-rapid``): the next seed (as pairing gives it), paired from
        ``from_round`` or the round after the last one paired, whichever is later (as pairing does
        when the events crossed); each round before it that is recorded already gets the late
        entry's bye (``settings.fide.late_entry_bye``), later ones get it when they are paired.
        False when the player is known (heard again) or the tournament is no `fide-rapid` event."""
        if self.info.fide is None or player_id in self._seeds:
            return False
        self._live_table()
        seed = len(self.players) + 1
        # the rounds paired meanwhile are missed too (pairing plays the entry from its next round)
        first = max(from_round or 1, max(self.rounds, default=0) + 1)
        player = Competitor(seed, player_id, name, rating, profile, first)
        self.players.append(player)
        self._seeds[player_id] = seed
        self._by_seed[seed] = player
        added = []
        for rnd in self.rounds_in_order():
            if rnd.number < first and not self._in_round(rnd, seed):
                bye = Bye(rnd.number, seed, self.info.fide.late_entry_bye, late=True)
                rnd.byes.append(bye)
                added.append(bye)
        self._changes.append(PlayerAdded(player, tuple(added)))
        self._live = self._build_live()  # one more player: the table from scratch
        self._changed()
        return True

    def penalise(
        self,
        game_id: uuid.UUID,
        *,
        round: int,
        player_id: uuid.UUID,
        kind: str,
        occurrence: int,
        consequence: str,
        reason: str | None,
        at: dt.datetime,
        role: Role | None = None,
        by: uuid.UUID | None = None,
    ) -> bool:
        """A penalty an arbiter gave in a game (``game.penalised``): kept with the game as an
        incident and shown on its round's page. The result it may bring (a loss) comes as the game's
        ``game.finished``. False when it was recorded already."""
        self._record_due_update()
        game = self.game(game_id)
        seed = self.seed_of(player_id)
        if game.round != round or seed not in (game.white, game.black):
            raise EventMismatch(
                f"game.penalised for {game_id} names another round or player than its pairing"
            )
        incident = Incident(seed, kind, occurrence, consequence, reason or None, role, by, at)
        if incident in game.incidents:
            return False
        self._live_table()
        game.incidents.append(incident)
        self._changes.append(IncidentRecorded(game, incident))
        self._changed(updated=False)
        return True

    # -- the round to come ----------------------------------------------------------------------------

    def request_bye(self, player_id: uuid.UUID, number: int) -> bool:
        """A zero-point bye asked for round ``number`` before it is paired (``bye.requested``): the
        player is left out of it. False when it was heard already."""
        return self._next_round_fact(self.bye_requests, (number, self._heard(player_id)), ByeRequested)

    def take_back_bye(self, player_id: uuid.UUID, number: int) -> bool:
        """A requested bye taken back before its round is paired (``bye.taken_back``): the player is
        paired in it again. False when no such bye is recorded."""
        key = (number, self._heard(player_id))
        if key not in self.bye_requests:
            return False
        self._record_due_update()
        self.bye_requests.discard(key)
        self._changes.append(ByeRequestTakenBack(*key))
        self._changed(updated=False)
        return True

    def excuse_absence(self, player_id: uuid.UUID, number: int) -> bool:
        """An arbiter excused the player's absence from round ``number`` (``absence.excused``): they
        are paired in the next round. False when it was heard already."""
        return self._next_round_fact(self.excused, (number, self._heard(player_id)), AbsenceExcused)

    def _next_round_fact(
        self,
        facts: set[tuple[int, int]],
        key: tuple[int, int],
        change: type[ByeRequested] | type[AbsenceExcused],
    ) -> bool:
        if key in facts:
            return False
        self._record_due_update()
        facts.add(key)
        self._changes.append(change(*key))
        self._changed(updated=False)
        return True

    def _heard(self, player_id: uuid.UUID) -> int:
        """The player's seed; a `fide-rapid` player not known yet is a late entry on its way."""
        if player_id not in self._seeds and self.info.fide is not None:
            raise PlayerOutstanding(f"player {player_id}: the late entry's player.joined is on its way")
        return self.seed_of(player_id)

    def take_changes(self) -> list[Change]:
        """What changed since the last call, in order (the repository's ``save`` writes it)."""
        changes, self._changes = self._changes, []
        return changes

    # -- inside ----------------------------------------------------------------------------------

    def _missed(self, seed: int, number: int) -> bool:
        """Round ``number`` is one a late entry missed (before its first round)."""
        first = self.player(seed).from_round
        return first is not None and number < first

    @staticmethod
    def _in_round(rnd: PairedRound, seed: int) -> bool:
        return any(seed in (g.white, g.black) for g in rnd.games) or any(b.seed == seed for b in rnd.byes)

    def _late_byes(self, number: int, games: Sequence[Game], byes: Sequence[Bye]) -> list[Bye]:
        """The late entries' byes in round ``number``, a round before their first one (``fide-rapid``)."""
        fide = self.info.fide
        if fide is None:
            return []
        present = {s for g in games for s in (g.white, g.black)} | {b.seed for b in byes}
        return [
            Bye(number, p.seed, fide.late_entry_bye, late=True)
            for p in self.players
            if p.from_round is not None and number < p.from_round and p.seed not in present
        ]

    def _check_pairing(self, game: Game, round: int, white: uuid.UUID, black: uuid.UUID, what: str) -> None:
        """An event about a game names the round and colours the pairing gave it; the colours
        reversed mean the game's colour swap has not been recorded yet."""
        named = (round, self.seed_of(white), self.seed_of(black))
        if named == (game.round, game.white, game.black):
            return
        if named == (game.round, game.black, game.white):
            raise ChangeOutstanding(
                f"{what} for {game.game_id} names swapped colours: the swap is on its way"
            )
        raise EventMismatch(
            f"{what} for {game.game_id} names round {round} and other players than its pairing"
        )

    def _game(self, number: int, g: AnnouncedGame) -> Game:
        return Game(
            g.game_id,
            number,
            g.board,
            self.seed_of(g.white),
            self.seed_of(g.black),
            g.leg,
            match_id=g.match_id,
            number=g.number,
            label=g.label,
            rated=g.rated,
            opening=g.opening,
        )

    def _match(self, number: int, m: AnnouncedMatch) -> BracketMatch:
        a, b = m.players
        return BracketMatch(
            m.match_id,
            number,
            m.section,
            m.section_round,
            m.number,
            m.board,
            (self._seed_or_none(a), self._seed_or_none(b)),
            self._seed_or_none(m.first_white),
        )

    def _seed_or_none(self, player_id: uuid.UUID | None) -> int | None:
        return None if player_id is None else self.seed_of(player_id)

    def _place(self, p: AnnouncedPlace) -> Placing:
        if self.seed_of(p.player_id) != p.seed:
            raise EventMismatch(f"the placing gives {p.player_id} seed {p.seed}")
        return Placing(p.seed, p.rank, p.places, p.matches_won)

    def _live_table(self) -> TableKeeper | None:
        """The table kept current, built from the rounds the first time a change needs it (so
        taken before the change is applied)."""
        if not self._live_built:
            self._live = self._build_live()
            self._live_built = True
        return self._live

    def _build_live(self) -> TableKeeper | None:
        if self.info.is_group and self.info.preset_or_none() is not None:
            return GroupTable((p.seed for p in self.players), self.published_rounds, self.withdrawals.keys)
        standings = self.standings()
        return None if standings is None else LiveTable(standings, self.info.legs)

    def _table_from_scratch(self) -> Ranked | None:
        keeper = self._build_live()
        return None if keeper is None else keeper.ranked()

    def _changed(self, *, updated: bool = True) -> None:
        """After a change: one more revision, the snapshot to compute again when next asked for, and
        (unless the caller publishes something else) ``StandingsUpdated`` due, recorded with the table
        as it stands when the events are collected (:meth:`collect_events`) or before the next other
        event or change that publishes none. A change that publishes none records the update due
        before it first (:meth:`_record_due_update`, at the start of those methods)."""
        self.revision += 1
        self._current = None
        if updated:
            self._update_due = True

    def _snapshot(self, ranked: Ranked | None) -> Snapshot:
        rounds = tuple(r.progress() for r in self.rounds_in_order())
        after_round = games_counted = 0  # the last round with every result in; results counted
        done = True
        for progress in rounds:
            if progress.status is RoundStatus.UNPUBLISHED:
                continue
            games_counted += progress.finished
            done = done and progress.status is RoundStatus.FINISHED
            if done:
                after_round = progress.number
        snapshot_table = None
        if ranked is not None:
            rows = []
            for row in ranked.rows:
                p = self.player(row.start)
                points = number(row.points)
                assert points is not None
                withdrawal = self.withdrawals.get(p.seed)
                rows.append(
                    SnapshotRow(
                        rank=row.rank,
                        place=row.place,
                        seed=p.seed,
                        player_id=p.player_id,
                        name=p.name,
                        rating=p.rating,
                        points=points,
                        tiebreaks={code: number(v) for code, v in row.tiebreaks.items()},
                        shown={code: number(v) for code, v in row.shown.items()},
                        status=None if withdrawal is None else withdrawal.status,
                        status_reason=None if withdrawal is None else withdrawal.reason,
                        title=p.profile.title if p.profile else None,
                        federation=p.profile.federation if p.profile else None,
                        fide_id=p.profile.fide_id if p.profile else None,
                    )
                )
            snapshot_table = SnapshotTable(
                edition=ranked.edition,
                tiebreaks=ranked.tiebreaks,
                shown=ranked.shown,
                rows=tuple(rows),
            )
        return Snapshot(after_round, games_counted, rounds, snapshot_table)
