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

**Repeated news.** A round paired again adds only the games and matches it did not have (a
knockout's tie-break games); a second result for a game, a second publication, decision,
cancellation or completion changes nothing (the first one stands). Each changing method says
whether anything changed.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from services.standings.domain.bracket import SECTIONS, BracketMatch, KnockoutFormat, Placing
from services.standings.domain.context import Rules
from services.standings.domain.errors import (
    EventMismatch,
    GameNotFound,
    MatchNotFound,
    NotABracket,
    NotATable,
    ResultsOutstanding,
    RoundNotFound,
    UnsupportedRuleset,
)
from services.standings.domain.events import (
    Change,
    GameCancelled,
    GamesAdded,
    MatchDecided,
    ResultRecorded,
    RoundAdded,
    RoundPublished,
    StandingsFinal,
    StandingsUpdated,
    TournamentCompleted,
)
from services.standings.domain.history import EventHistory, Player
from services.standings.domain.live_table import LiveTable
from services.standings.domain.pairings import AnnouncedBye, AnnouncedGame, AnnouncedMatch, AnnouncedPlace
from services.standings.domain.presets import Ruleset as Preset
from services.standings.domain.presets import preset
from services.standings.domain.ranking import Standings, Table
from services.standings.domain.rounds import (
    BYE_RESULTS,
    Bye,
    Competitor,
    Game,
    PairedRound,
    RoundStatus,
    record_round,
)
from services.standings.domain.snapshot import Snapshot, SnapshotRow, SnapshotTable, number
from shared.aggregate import Aggregate
from shared.scoring import Outcome
from shared.time_control import TimeControl
from shared.vocabulary import ByeKind, Decision, Ruleset, System

__all__ = [
    "SYSTEM_NAMES",
    "TABLE_SYSTEMS",
    "Tournament",
    "TournamentInfo",
    "is_bracket",
    "published_on_pairing",
]

TABLE_SYSTEMS: Final = frozenset({System.ROUND_ROBIN, System.SWISS})
SYSTEM_NAMES: Final[Mapping[System, str]] = {
    System.ROUND_ROBIN: "Round robin",
    System.SWISS: "Swiss",
    System.KNOCKOUT: "Knockout",
    System.DOUBLE_KNOCKOUT: "Double knockout",
}
BRACKET_RULESETS: Final = frozenset({Ruleset.KNOCKOUT, Ruleset.DOUBLE_KNOCKOUT})  # RULES.md §4
_PRESETS: Final = {
    (Ruleset.PLATFORM, System.ROUND_ROBIN): "platform-round-robin",
    (Ruleset.PLATFORM, System.SWISS): "platform-swiss",
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
    system: System | None = None
    total_rounds: int | None = None
    completed_at: dt.datetime | None = None
    knockout: KnockoutFormat | None = None  # the knockout rulesets' format settings

    @property
    def legs(self) -> int:
        return 2 if self.double_rounds else 1

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
        """The preset that ranks this tournament's table; None for a bracket, a ruleset without
        table rules here, or before the first pairing names the system."""
        if self.system is None:
            return None
        name = _PRESETS.get((self.ruleset, self.system))
        return preset(name) if name else None

    def check_table(self) -> None:
        """Raise NotATable for a bracket, UnsupportedRuleset for a table this service cannot rank."""
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
        start = self.started_at.date()
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
        revision: int = 0,
        snapshot: Snapshot | None = None,
    ) -> None:
        self.info = info
        self.players = sorted(players, key=lambda p: p.seed)
        self.rounds: dict[int, PairedRound] = dict(rounds or {})
        for rnd in self.rounds.values():
            rnd.games.sort(key=_board_order)
            rnd.matches.sort(key=_bracket_order)
        self.placing: list[Placing] | None = None if placing is None else list(placing)
        self.revision = revision  # the number of changes applied since the start
        self._seeds = {p.player_id: p.seed for p in self.players}
        self._by_seed = {p.seed: p for p in self.players}
        self._games = {g.game_id: g for r in self.rounds.values() for g in r.games}
        self._live: LiveTable | None = None
        self._live_built = False
        self._changes: list[Change] = []
        self.snapshot = snapshot if snapshot is not None else self._snapshot(self._table_from_scratch())

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
        """A table computed from scratch, or None while there is none to compute (bracket, an
        unsupported ruleset, or nothing paired yet)."""
        ruleset = self.info.preset_or_none()
        if ruleset is None:
            return None
        return Standings(
            self.history(ruleset), ruleset.tiebreaks, self.info.rules(ruleset), shown=ruleset.shown
        )

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
        paired = sorted((self._game(number, g) for g in games), key=_board_order)
        paired_matches = sorted((self._match(number, m) for m in matches), key=_bracket_order)
        if number in self.rounds:
            return self._extend(self.rounds[number], paired, paired_matches)
        live = self._live_table()
        rnd = PairedRound(
            number,
            paired,
            [Bye(number, self.seed_of(b.player_id), b.kind) for b in byes],
            published=published if published is not None else published_on_pairing(self.info.ruleset),
            matches=paired_matches,
            paired_at=at,
        )
        first = self.info.system is None
        if first:
            self.info.system = system
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
        known = {m.match_id for m in rnd.matches}
        new_games = [g for g in games if g.game_id not in self._games]
        new_matches = [m for m in matches if m.match_id not in known]
        if not new_games and not new_matches:
            return False
        live = self._live_table()
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
    ) -> bool:
        """A game's result, naming the round and players the pairing gave it; False when it had one
        already (the first result stands)."""
        game = self.game(game_id)
        if (game.round, game.white, game.black) != (round, self.seed_of(white), self.seed_of(black)):
            raise EventMismatch(
                f"game.finished for {game_id} names round {round} and other players than its pairing"
            )
        if game.outcome is not None:
            return False
        live = self._live_table()
        game.outcome, game.reason, game.finished_at = outcome, reason, finished_at
        self._changes.append(ResultRecorded(game))
        if live is not None and self.rounds[game.round].published:
            live.record(game)
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

    def decide(self, match_id: str, winner: uuid.UUID, how: Decision, at: dt.datetime) -> bool:
        """A knockout match's winner and how it was decided; False if it had one already."""
        match = self.match(match_id)
        seed = self.seed_of(winner)
        if seed not in match.players:
            raise EventMismatch(f"{winner} does not play in match {match_id}")
        if match.winner is not None:
            return False
        self._live_table()
        match.winner, match.how, match.decided_at = seed, how, at
        self._changes.append(MatchDecided(match))
        self._changed()
        return True

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

    def take_changes(self) -> list[Change]:
        """What changed since the last call, in order (the repository's ``save`` writes it)."""
        changes, self._changes = self._changes, []
        return changes

    # -- inside ----------------------------------------------------------------------------------

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

    def _live_table(self) -> LiveTable | None:
        """The table kept current, built from the rounds the first time a change needs it (so
        taken before the change is applied)."""
        if not self._live_built:
            self._live = self._build_live()
            self._live_built = True
        return self._live

    def _build_live(self) -> LiveTable | None:
        standings = self.standings()
        return None if standings is None else LiveTable(standings, self.info.legs)

    def _table_from_scratch(self) -> Table | None:
        standings = self.standings()
        return None if standings is None else standings.table()

    def _changed(self, *, updated: bool = True) -> None:
        """After a change: one more revision, the snapshot again, and (with a table, unless the
        caller publishes something else) ``StandingsUpdated``."""
        self.revision += 1
        self.snapshot = self._snapshot(self._live.table() if self._live is not None else None)
        table = self.snapshot.table
        if updated and table is not None:
            self.record(
                StandingsUpdated(self.id, self.snapshot.after_round, self.snapshot.games_counted, table.rows)
            )

    def _snapshot(self, table: Table | None) -> Snapshot:
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
        if table is not None:
            rows = []
            for row in table.rows:
                p = self.player(row.start)
                points = number(row.points)
                assert points is not None
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
                    )
                )
            snapshot_table = SnapshotTable(
                edition=table.edition,
                tiebreaks=tuple(tb.code for tb in table.tiebreaks),
                shown=tuple(tb.code for tb in table.shown),
                rows=tuple(rows),
            )
        return Snapshot(after_round, games_counted, rounds, snapshot_table)
