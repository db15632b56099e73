"""The standings service's view of a tournament, projected from events: what it is (name, ruleset,
system), who plays (seeds), every round's games and byes with their results (``rounds.py``), and the
table kept current as they come (``live_table.py``). The aggregate of the service: each change is
recorded for the repository (``events.Change``) and, for a tournament with a table, published as
``StandingsUpdated`` (``StandingsFinal`` at the end). Pure code.

**Publication.** A paired round is public only once published (RULES.md §4: knockout rounds are
seen by the organisers until they publish them). ``platform`` rounds are published when paired; an
unpublished round shows no games and counts nothing in the table.

**Tables.** The system chosen at the start decides the table, or the bracket of a knockout
(``tournament_info.py``: what a tournament is, the presets that rank its table). ``fide-rapid``'s players
carry their profiles (FIDE id, federation, title, sex, birth year, ratings); the penalties an arbiter
gives are kept with their games.

**Under the arbiter's authority.** A corrected result replaces the old one (the game keeps the
correction, its table, crosstable and pages follow); a withdrawn or excluded player is marked (the
table changes only where the ruleset says so: ``group-playoff``); an open game's colours may be
swapped.

**Its other parts**, each in its own module and mixed into :class:`Tournament`: the round to come, whom
the next Swiss round leaves out (``next_round.py``: byes asked, absences excused); a knockout reset to
its draft and started again (``knockout_reset.py``); a `fide-rapid` event's late entries and the byes of
the rounds they missed (``late_entries.py``).

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

from services.standings.domain.bracket import SECTIONS, BracketMatch, BracketPlace
from services.standings.domain.errors import (
    ChangeOutstanding,
    EventMismatch,
    GameNotFound,
    MatchNotFound,
    PlayerOutstanding,
    ResultsOutstanding,
    RoundNotFound,
)
from services.standings.domain.events import (
    Change,
    ColoursSwapped,
    GameCancelled,
    GamesAdded,
    IncidentRecorded,
    MatchDecided,
    MatchPlayersChanged,
    PlayerWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundAdded,
    RoundPublished,
    StandingsFinal,
    StandingsUpdated,
    TournamentCompleted,
)
from services.standings.domain.history import EventHistory, Player
from services.standings.domain.knockout_reset import KnockoutReset
from services.standings.domain.late_entries import LateEntries
from services.standings.domain.live_table import LiveGroupTable, LiveTable, Ranked, TableKeeper
from services.standings.domain.next_round import RoundToCome
from services.standings.domain.pairings import AnnouncedBye, AnnouncedGame, AnnouncedMatch, AnnouncedPlace
from services.standings.domain.presets import Preset
from services.standings.domain.ranking import Standings
from services.standings.domain.rounds import (
    Competitor,
    Correction,
    Game,
    Incident,
    PairedRound,
    RoundBye,
    RoundStatus,
    record_round,
)
from services.standings.domain.snapshot import Snapshot, SnapshotRow, SnapshotTable, number
from services.standings.domain.tournament_info import TournamentInfo, published_on_pairing
from services.standings.domain.withdrawals import PlayerStatus, Withdrawal
from shared.aggregate import Aggregate, DomainEvent
from shared.authority import Role
from shared.resets import Resets
from shared.scoring import Outcome
from shared.vocabulary import DecidedIn, System

__all__ = ["Tournament"]


def _board_order(game: Game) -> tuple[int, int, int]:
    """How a round's games are kept: by leg, board, and number in their match."""
    return (game.leg, game.board, game.number or 0)


def _bracket_order(match: BracketMatch) -> tuple[int, int, int]:
    """How a round's matches are kept: by section, section round and number."""
    return (SECTIONS.index(match.section), match.section_round, match.number)


class Tournament(Aggregate, RoundToCome, KnockoutReset, LateEntries):
    """A tournament's projection. Built when it starts (its snapshot computed) or loaded from what
    was stored (``revision`` and ``snapshot`` as they were saved)."""

    def __init__(
        self,
        info: TournamentInfo,
        players: Sequence[Competitor],
        rounds: Mapping[int, PairedRound] | None = None,
        placing: Sequence[BracketPlace] | None = None,
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
        placing: Sequence[BracketPlace] | None,
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
        self.placing: list[BracketPlace] | None = None if placing is None else list(placing)
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
            RoundBye(number, seed, b.kind, self._missed(seed, number))
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
        how: DecidedIn,
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

    def _replaces(self, match: BracketMatch, seed: int, how: DecidedIn, revision: int | None) -> bool:
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

    def take_changes(self) -> list[Change]:
        """What changed since the last call, in order (the repository's ``save`` writes it)."""
        changes, self._changes = self._changes, []
        return changes

    # -- inside ----------------------------------------------------------------------------------

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

    def _place(self, p: AnnouncedPlace) -> BracketPlace:
        if self.seed_of(p.player_id) != p.seed:
            raise EventMismatch(f"the placing gives {p.player_id} seed {p.seed}")
        return BracketPlace(p.seed, p.rank, p.places, p.matches_won)

    def _live_table(self) -> TableKeeper | None:
        """The table kept current, built from the rounds the first time a change needs it (so
        taken before the change is applied)."""
        if not self._live_built:
            self._live = self._build_live()
            self._live_built = True
        return self._live

    def _build_live(self) -> TableKeeper | None:
        if self.info.is_group and self.info.preset_or_none() is not None:
            return LiveGroupTable(
                (p.seed for p in self.players), self.published_rounds, self.withdrawals.keys
            )
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
