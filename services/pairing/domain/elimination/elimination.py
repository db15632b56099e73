"""A knockout or double-knockout event as the pairing service runs it (RULES.md §4): the bracket engine
(``knockout.py``, ``double_knockout.py``) for who meets whom, and for each match its games
(``match_play.py``), as paired (``paired_matches.py``). :class:`Elimination` is the aggregate: it records
what happens as domain events (``domain/events.py``) and the rows to write as changes (``domain/changes.py``
and the elimination's own, ``changes.py`` here).

Rounds. The service pairs rounds 1, 2, …; round k + 1 once every match of round k is decided.

* **Knockout:** round k is winners round k; the third-place match is paired with the final. Matches whose
  two players both came through byes can be ready before their round (docs/pairing.md): they wait for it.
* **Double knockout:** round k + 1 holds every match of both brackets whose two players are known — the
  engine's ``ready_matches()``, as the bracket docs recommend.

A round is paired unpublished: only its organiser sees it until they publish it. Byes (a top seed's
empty slot in winners round 1) are no games: they are reported with round 1. A match is decided by
:func:`match_play.progress`; its winner is then recorded in the engine, which places them in their next
match. Game ids are derived from the tournament, its start, the match and the game's number, so a
re-paired round names the same games and a knockout reset to its draft and started again names new ones.

Under the arbiter's authority (RULES.md §4, the results-authority issue):

* **Corrections.** A finished game's result is replaced and its match decided again from all its games.
  A correction that keeps every match's winner is always allowed (also after the event finished). One
  that changes who advances from a match — another winner, or the match left undecided — is refused
  (``correction-changes-advancement``) once a match it feeds (the winner's or, in a double knockout, the
  loser's next match, through walkovers) has a result (a game of it has one: RULES.md §4), and after
  the event finished; one that leaves the match undecided is also refused once its round is complete.
  Otherwise the bracket takes the new winner (``match.decided`` again, its ``revision`` the match's
  decisions so far; a correction that keeps the winner but moves where the match was decided is a
  decision again too) and each paired match it feeds
  that now has other players is paired again: the new players in its slots (the drawn first White
  stays with its slot), its unplayed games cancelled and new ones paired under new ids, and its round
  announced again naming the cancelled games. Or the match goes on: the games it had cancelled are
  paired again under new ids and the round is announced again.
* **Withdrawals** are recorded for display: the clocks forfeit the player's games, and the match logic
  decides their matches from those forfeits.
* **Reset** to the draft: while round 1 is the only round and no game has a result, by the organiser.
* **Colours** of a game not yet played follow ``game.colours_swapped``; a swapped first game moves the
  colours of the tie-break games paired later (they follow the first regular game).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Final, NoReturn

from services.pairing.domain import events
from services.pairing.domain.arbiters import deciding
from services.pairing.domain.changes import (
    Changing,
    ColoursSet,
    Finished,
    OutcomeCorrected,
    OutcomeSet,
    RoundAdded,
    RoundClosed,
    WithdrawalRecorded,
)
from services.pairing.domain.corrections import replaced_outcome
from services.pairing.domain.elimination.bracket import (
    Bracket,
    BracketError,
    BracketMatch,
    BracketPlace,
    MatchId,
    MatchStatus,
    better_seed,
)
from services.pairing.domain.elimination.changes import (
    Erased,
    GamesAdded,
    GamesReplaced,
    MatchHowChanged,
    MatchReopened,
    MatchRepaired,
    MatchSettled,
    RoundMadePublic,
)
from services.pairing.domain.elimination.double_knockout import DoubleKnockout
from services.pairing.domain.elimination.knockout import Knockout
from services.pairing.domain.elimination.match_play import (
    GameKind,
    MatchFormat,
    PlannedGame,
    Progress,
    progress,
    regular_games,
)
from services.pairing.domain.elimination.paired_matches import (
    KnockoutGame,
    KnockoutMatch,
    Recorded,
    round_of_games,
)
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.errors import (
    ByesNotOffered,
    ColoursFixed,
    CorrectionChangesAdvancement,
    EventMismatch,
    GameNotFound,
    NotAnArbiterHere,
    NotOrganiser,
    NotYourBye,
    PlayerNotFound,
    ResetNotAllowed,
    RoundNotDue,
    RoundNotFound,
    UnsupportedField,
)
from services.pairing.domain.heading import Heading, Player, Status, Withdrawal
from shared.aggregate import Aggregate
from shared.authority import Authority, Decided, Role
from shared.scoring import Outcome
from shared.time_control import TieBreakSchedule
from shared.vocabulary import BracketFormat, Section, Seeding, System

GAME_NAMESPACE: Final = uuid.UUID("8f5d2c1e-3b6a-4e7f-9a0b-1c2d3e4f5a6b")
FORMATS: Final[Mapping[BracketFormat, type[Knockout] | type[DoubleKnockout]]] = {
    Knockout.format: Knockout,
    DoubleKnockout.format: DoubleKnockout,
}


def new_bracket(
    fmt: BracketFormat, players: int, *, third_place: bool = False, second_final: bool = True
) -> Bracket:
    """An empty bracket of the format (``knockout`` or ``double_knockout``)."""
    if fmt == Knockout.format:
        return Knockout(players, third_place=third_place)
    if fmt == DoubleKnockout.format:
        return DoubleKnockout(players, second_final=second_final)
    raise BracketError(f"not a bracket format: {fmt!r} (knockout or double_knockout)")


def bracket_from_dict(data: Mapping[str, Any]) -> Bracket:
    try:
        cls = FORMATS[BracketFormat(str(data.get("format")))]
    except ValueError:
        raise BracketError(f"not a bracket state: format {data.get('format')!r}") from None
    return cls.from_dict(data)


@dataclass(eq=False)
class Elimination(Aggregate, Changing):
    heading: Heading
    players: tuple[Player, ...]
    match_format: MatchFormat
    bracket: Bracket
    seeds: SeedList
    matches: dict[MatchId, KnockoutMatch] = field(default_factory=dict)
    published: set[int] = field(default_factory=set)
    """The rounds the organiser has published."""
    completed: set[int] = field(default_factory=set)
    """The rounds every match of which is decided."""
    status: Status = Status.RUNNING
    withdrawals: dict[int, Withdrawal] = field(default_factory=dict)
    """Players (by seed) who left for good: their games are lost by forfeit (the clocks)."""
    restarts: int = 0
    """How many resets to its draft came before this start: its game ids differ from every earlier
    start's even at the same start time (news of a removed game is told from this start's by its id)."""

    @classmethod
    def start(
        cls,
        heading: Heading,
        players: tuple[Player, ...],
        *,
        format: BracketFormat,
        games_per_match: int,
        seeding: Seeding,
        draw_seed: int | None = None,
        third_place: bool = False,
        second_final: bool = True,
        tiebreak_plan: TieBreakSchedule,
        restarts: int = 0,
    ) -> Elimination:
        """The bracket, its seed list (the roster's order) and its match format; round 1 is due.
        ``restarts``: the resets to its draft before this start."""
        roster = tuple(sorted(players, key=lambda p: p.seed))
        if [p.seed for p in roster] != list(range(1, len(roster) + 1)):
            raise UnsupportedField("a knockout's roster must be seeded 1 … N")
        try:
            seeds = SeedList(seeding, tuple(str(p.player_id) for p in roster), draw_seed)
            bracket = new_bracket(format, len(roster), third_place=third_place, second_final=second_final)
            match_format = MatchFormat(games_per_match, heading.time_control, tiebreak_plan)
        except ValueError as exc:  # BracketError, SeedingError, MatchPlayError
            raise UnsupportedField(f"cannot run this knockout: {exc}") from exc
        e = cls(heading, roster, match_format, bracket, seeds, restarts=restarts)
        e.record(events.RoundBecameDue(e.id, 1))
        return e

    @property
    def id(self) -> uuid.UUID:
        return self.heading.id

    @property
    def format(self) -> BracketFormat:
        return self.bracket.format

    @property
    def system(self) -> System:
        return System(self.bracket.format.value)

    # -- rounds ------------------------------------------------------------------------------------
    @property
    def paired_rounds(self) -> int:
        return max((m.round for m in self.matches.values()), default=0)

    def round_matches(self, number: int) -> list[KnockoutMatch]:
        return sorted((m for m in self.matches.values() if m.round == number), key=lambda m: m.board)

    def round_decided(self, number: int) -> bool:
        matches = self.round_matches(number)
        return bool(matches) and all(m.decided for m in matches)

    def next_round_number(self) -> int | None:
        """The round to pair now, or None (a round is still being played, or the bracket is finished)."""
        current = self.paired_rounds
        if self.bracket.is_finished() or (current and not self.round_decided(current)):
            return None
        return current + 1

    def rounds_total(self) -> int:
        """Rounds of the whole event: a knockout's winners rounds; a double knockout's waves of ready
        matches (they do not depend on who wins), one more once the second final is needed."""
        if isinstance(self.bracket, Knockout):
            return self.bracket.round_count
        assert isinstance(self.bracket, DoubleKnockout)
        total = _double_knockout_waves(self.bracket.players, self.bracket.second_final)
        if self.bracket.second_final:
            reset = self.bracket.match(MatchId(Section.GRAND_FINAL, 2, 1))
            if reset.status in (MatchStatus.READY, MatchStatus.DECIDED):
                total += 1
        return total

    def to_pair(self, number: int) -> tuple[BracketMatch, ...]:
        """The engine's matches that make round ``number``."""
        ready = self.bracket.ready_matches()
        if isinstance(self.bracket, Knockout):
            final = self.bracket.round_count
            return tuple(
                m
                for m in ready
                if (m.id.section is Section.WINNERS and m.id.round == number)
                or (m.id.section is Section.THIRD_PLACE and number == final)
            )
        return ready

    def pair_round(
        self, number: int, draw_white: Callable[[], int], *, now: dt.datetime
    ) -> list[KnockoutMatch]:
        """Pair round ``number``, unpublished: every match of it, with its regular games; ``draw_white``
        draws the slot (0 or 1) with White in each match's first game."""
        due = self.next_round_number()
        if number != due:
            raise RoundNotDue(f"round {number} cannot be paired now (next: {due})")
        engine_matches = self.to_pair(number)
        if not engine_matches:
            raise RoundNotDue(f"no match of round {number} has both players yet")
        paired: list[KnockoutMatch] = []
        for board, m in enumerate(engine_matches, start=1):
            a, b = m.players
            assert a is not None and b is not None  # ready
            first_white = draw_white()
            match = KnockoutMatch(m.id, number, board, (a, b), first_white)
            match.games = [self._game(m.id, g) for g in regular_games(self.match_format, first_white)]
            self.matches[m.id] = match
            paired.append(match)
        self.change(RoundAdded(number, now))
        self.record(self._paired(number))
        return paired

    def publish_round(self, number: int, *, authority: Authority, by: uuid.UUID, now: dt.datetime) -> bool:
        """The organiser (or an arbiter of the whole tournament) makes a paired round public: its
        pairings are shown and its games may start. False if it was public already (nothing changes)."""
        if authority.decides(by) is None:
            raise NotOrganiser("only the organiser of this tournament or its arbiters may publish its rounds")
        if not 1 <= number <= self.paired_rounds:
            raise RoundNotFound(f"round {number} of tournament {self.id} is not paired")
        if number in self.published:
            return False
        self.published.add(number)
        self.change(RoundMadePublic(number, now))
        self.record(events.RoundPublished(self.id, number, now, self.restarts))
        return True

    def byes(self, number: int) -> list[int]:
        """Seeds that advance without a game: the top seeds' empty slots, reported with round 1."""
        if number != 1:
            return []
        first = self.bracket.rounds(Section.WINNERS)[0]
        return [m.winner for m in first if m.status is MatchStatus.WALKOVER and m.winner is not None]

    def walkovers(self, number: int) -> list[BracketMatch]:
        """Round 1's bye matches (one slot empty), in bracket order."""
        if number != 1:
            return []
        return [m for m in self.bracket.rounds(Section.WINNERS)[0] if m.status is MatchStatus.WALKOVER]

    # -- results -----------------------------------------------------------------------------------
    def game(self, game_id: uuid.UUID) -> tuple[KnockoutMatch, KnockoutGame] | None:
        for match in self.matches.values():
            for g in match.games:
                if g.game_id == game_id:
                    return match, g
        return None

    def record_result(
        self, game_id: uuid.UUID, outcome: Outcome, *, finished_at: dt.datetime, now: dt.datetime
    ) -> Recorded | None:
        """Record a game's result. None when the game had a result already (the first one stands).
        A result for a game of a decided match (a cancelled game that was played anyway) is kept and
        changes nothing else. A level match gets its next games (the round is announced again); a
        decided one goes into the bracket; the round's last decision closes the round and makes the
        next one due, or ends the event with its final placing."""
        found = self.game(game_id)
        if found is None:
            raise RoundNotFound(f"game {game_id} is not in tournament {self.id}")
        match, game = found
        if game.outcome is not None:
            return None
        game.outcome = outcome
        self.change(OutcomeSet(game_id, outcome, finished_at))
        if match.decided or not game.counts:
            return Recorded(match)
        return self._go_on(match, self._progress(match), now)

    def correct_result(
        self,
        game_id: uuid.UUID,
        outcome: Outcome,
        *,
        authority: Authority,
        by: uuid.UUID,
        reason: str,
        at: dt.datetime,
    ) -> Recorded:
        """An arbiter in scope or the organiser corrects a finished game's result; its match is decided
        again from all its games (see the module's docstring for what is refused)."""
        found = self.game(game_id)
        if found is None:
            raise GameNotFound(f"game {game_id} is not in tournament {self.id}")
        match, game = found
        decision = deciding(
            authority, by, game_id, at=at, reason=reason, refusal=NotAnArbiterHere, what="correct its result"
        )
        old = replaced_outcome(game_id, game.outcome, outcome)
        state = self._progress(match, {game_id: outcome})
        was = self.bracket.match(match.id).winner if match.decided else None
        winner = None if state.winner is None else match.seed(state.winner)
        if match.decided and winner != was:
            self._refuse_new_advancement(match, reopens=winner is None)
        game.outcome = outcome
        self.change(OutcomeCorrected(game_id, outcome))
        self.record(
            events.ResultCorrected(
                self.id,
                game_id,
                match.round,
                self.player_of(match.white(game)),
                self.player_of(match.black(game)),
                old,
                outcome,
                decision,
            )
        )
        if not match.decided:
            return self._go_on(match, state, at)
        if winner == was:
            assert state.how is not None and winner is not None
            if state.how != match.how:
                match.how = state.how
                match.decisions += 1
                self.change(MatchHowChanged(match.id, state.how, at, match.decisions))
                self.record(self._decided(match, winner, (), at))
            return Recorded(match)
        if winner is not None:
            settled = self._settle(match, state, at)
            self._repair_fed(match, at)
            return settled
        return self._reopen(match, state, at)

    def _refuse_new_advancement(self, match: KnockoutMatch, *, reopens: bool) -> None:
        """A correction that changes who advances from a decided match: refused after the event
        finished, once a match it feeds has a result (RULES.md §4: "once that player's next match has
        a result"), and (leaving it undecided) once its round is complete."""
        mid = str(match.id)
        change = "leave it undecided" if reopens else "change its winner"
        if self.status is Status.COMPLETED:
            raise CorrectionChangesAdvancement(
                f"the tournament is finished: a correction may not {change} ({mid}); every match keeps "
                "its winner",
                match_id=mid,
            )
        for later in self.bracket.downstream(match.id):
            fed = self.matches.get(later)
            if fed is not None and any(g.outcome is not None for g in fed.games if g.counts):
                raise CorrectionChangesAdvancement(
                    f"the correction would {change} ({mid}), and {later}, which it feeds, has a result "
                    "already: correct that result first",
                    match_id=mid,
                    next_match_id=str(later),
                )
        if reopens and match.round in self.completed:
            raise CorrectionChangesAdvancement(
                f"the correction would leave {mid} undecided, and round {match.round} is complete",
                match_id=mid,
            )

    def _repair_fed(self, match: KnockoutMatch, at: dt.datetime) -> None:
        """After a new winner: each paired match it feeds that the bracket now fills with other players
        (none has a result: :meth:`_refuse_new_advancement`) is paired again, and each round concerned
        is announced again, naming the games cancelled."""
        cancelled: dict[int, list[uuid.UUID]] = {}
        for later in self.bracket.downstream(match.id):
            fed = self.matches.get(later)
            if fed is None or fed.decided:
                continue
            a, b = self.bracket.match(later).players
            assert a is not None and b is not None, f"{later} was paired: both its slots stay filled"
            if (a, b) != fed.players:
                cancelled.setdefault(fed.round, []).extend(self._repair(fed, (a, b), at))
        for number, games in sorted(cancelled.items()):
            self.record(self._paired(number, cancelled=tuple(games)))

    def _repair(self, match: KnockoutMatch, players: tuple[int, int], at: dt.datetime) -> list[uuid.UUID]:
        """Pair ``match`` again between ``players``: the first White stays with its slot; its games, none
        played, are cancelled and replaced by new ones under new ids (numbered after them, as a
        reopened match's are). The ids of the games cancelled."""
        old = [g for g in match.games if g.counts]
        assert all(g.outcome is None for g in old), f"{match.id} has a result: it is not paired again"
        number = max(g.planned.number for g in match.games) + 1
        new = [
            self._game(match.id, replace(planned, number=number + i))
            for i, planned in enumerate(regular_games(self.match_format, match.first_white))
        ]
        for g in old:
            g.cancelled = True
        for g, replacement in zip(old, new, strict=False):
            g.replaced_by = replacement.game_id
        match.players = players
        match.games.extend(new)
        ids = [g.game_id for g in old]
        self.change(MatchRepaired(match.id, players, tuple(ids), at))
        self.change(
            GamesReplaced(match.id, tuple((g.game_id, r.game_id) for g, r in zip(old, new, strict=False)))
        )
        self.change(GamesAdded(match.id, tuple(g.game_id for g in new)))
        return ids

    def _progress(
        self, match: KnockoutMatch, overrides: Mapping[uuid.UUID, Outcome] | None = None
    ) -> Progress:
        return progress(self.match_format, match.first_white, match.counted(overrides))

    def _go_on(self, match: KnockoutMatch, state: Progress, now: dt.datetime) -> Recorded:
        """An undecided match after a result: its next games, or its decision."""
        if state.winner is None:
            added = tuple(self._game(match.id, planned) for planned in state.to_pair)
            if added:
                match.games.extend(added)
                self.change(GamesAdded(match.id, tuple(g.game_id for g in added)))
                self.record(self._paired(match.round))
            return Recorded(match, added=added)
        return self._settle(match, state, now)

    def _settle(self, match: KnockoutMatch, state: Progress, now: dt.datetime) -> Recorded:
        """The match has its winner (a first one, or another after a correction): into the bracket; the
        games it no longer needs are cancelled; its round closes when it was the round's last."""
        assert state.winner is not None and state.how is not None
        winner = match.seed(state.winner)
        self.bracket = self.bracket.record(match.id, winner)
        match.how = state.how
        cancelled = tuple(g for g in match.games if g.open)
        for g in cancelled:
            g.cancelled = True
        match.decisions += 1
        ids = tuple(g.game_id for g in cancelled)
        self.change(MatchSettled(match.id, state.how, now, ids, match.decisions))
        self.record(self._decided(match, winner, ids, now))
        if match.round not in self.completed:
            if self.round_decided(match.round):
                self._close_round(match.round, now)
        elif self.bracket.is_finished() and self.status is Status.RUNNING:
            self._finish(now)  # a corrected match of a closed round ended the event
        return Recorded(match, winner=winner, cancelled=cancelled)

    def _decided(
        self, match: KnockoutMatch, winner: int, cancelled: tuple[uuid.UUID, ...], at: dt.datetime
    ) -> events.MatchDecided:
        """``match.decided`` for the match's latest decision (``how`` set), numbered by its count."""
        assert match.how is not None
        return events.MatchDecided(
            tournament_id=self.id,
            match_id=str(match.id),
            round=match.round,
            section=match.id.section,
            players=(self.player_of(match.players[0]), self.player_of(match.players[1])),
            winner=self.player_of(winner),
            how=match.how,
            games_cancelled=cancelled,
            decided_at=at,
            revision=match.decisions,
        )

    def _reopen(self, match: KnockoutMatch, state: Progress, now: dt.datetime) -> Recorded:
        """A correction left the match undecided: its winner leaves the bracket, the games it had
        cancelled are paired again under new ids (or its next tie-break stage is), and the round is
        announced again."""
        self.bracket = self.bracket.clear(match.id)
        match.how = None
        self.change(MatchReopened(match.id))
        number = max(g.planned.number for g in match.games) + 1
        replaced: list[tuple[KnockoutGame, KnockoutGame]] = []
        for g in match.games:
            if g.cancelled and g.outcome is None and g.replaced_by is None:
                new = self._game(match.id, replace(g.planned, number=number))
                number += 1
                g.replaced_by = new.game_id
                replaced.append((g, new))
        if not replaced:
            return self._go_on(match, state, now)
        assert not state.to_pair  # a part with games left never opens the next one
        revived = tuple(new for _, new in replaced)
        match.games.extend(revived)
        self.change(GamesReplaced(match.id, tuple((old.game_id, new.game_id) for old, new in replaced)))
        self.change(GamesAdded(match.id, tuple(g.game_id for g in revived)))
        self.record(self._paired(match.round))
        return Recorded(match, added=revived)

    # -- who plays, colours, reset -----------------------------------------------------------------
    def plays(self, player_id: uuid.UUID) -> bool:
        """Whether the player is in this start's roster."""
        return any(p.player_id == player_id for p in self.players)

    def seed_of(self, player_id: uuid.UUID) -> int:
        for p in self.players:
            if p.player_id == player_id:
                return p.seed
        raise PlayerNotFound(f"player {player_id} does not play in tournament {self.id}")

    def withdraw(self, player_id: uuid.UUID, *, excluded: bool, reason: str, at: dt.datetime) -> bool:
        """Record that a player left for good; False if they had already. Nothing else changes here:
        the clocks forfeit their games (the current match's, its tie-break games, and those of the next
        match paired for them), and the match logic decides the matches from those forfeits."""
        seed = self.seed_of(player_id)
        if seed in self.withdrawals:
            return False
        self.withdrawals[seed] = Withdrawal(at, excluded, reason)
        self.change(WithdrawalRecorded(seed))
        return True

    def swap_colours(self, game_id: uuid.UUID, white: uuid.UUID, black: uuid.UUID) -> bool:
        """A game not yet played changed colours (``game.colours_swapped``); False if it has them. A
        swapped first game moves the colours of the tie-break games paired later (RULES.md §4)."""
        found = self.game(game_id)
        if found is None:
            raise GameNotFound(f"game {game_id} is not in tournament {self.id}")
        match, game = found
        seeds = (self.seed_of(white), self.seed_of(black))
        if set(seeds) != set(match.players):
            raise EventMismatch(f"{white} and {black} do not play game {game_id}")
        if seeds == (match.white(game), match.black(game)):
            return False
        if game.outcome is not None:
            raise ColoursFixed(f"game {game_id} has a result: its colours stay")
        slot = match.players.index(seeds[0])
        game.planned = replace(game.planned, white=slot)
        if game.planned.kind is GameKind.REGULAR and game.planned.number == 1:
            match.first_white = slot
        self.change(ColoursSet(game_id, *seeds))
        return True

    def refuse_bye(self, player_id: uuid.UUID, *, authority: Authority, by: uuid.UUID) -> NoReturn:
        """A knockout has no byes on request (RULES.md §4): whoever asks (a player of it, an arbiter,
        the organiser) is told so."""
        self.seed_of(player_id)
        if by != player_id and authority.decides(by) is None:
            raise NotYourBye("only the player, an arbiter of this tournament or its organiser may ask")
        raise ByesNotOffered("a knockout has no byes on request (RULES.md §4)")

    def reset(self, *, authority: Authority, by: uuid.UUID, at: dt.datetime) -> None:
        """Back to the draft (RULES.md §4): by the organiser, while round 1 is the only round and no
        game has a result. Everything pairing holds of the event goes (``tournament.reset``)."""
        if not authority.is_organiser(by):
            raise NotOrganiser("only the organiser of this tournament may reset it to its draft")
        if self.paired_rounds > 1:
            raise ResetNotAllowed(f"round {self.paired_rounds} is paired: only round 1 can be undone")
        if any(g.outcome is not None for m in self.matches.values() for g in m.games):
            raise ResetNotAllowed("a game of round 1 has a result: the draft cannot come back")
        games = tuple(g.game_id for m in self.matches.values() for g in m.games)
        self.change(Erased(at, games, self.restarts))
        self.record(events.TournamentReset(self.id, Decided(by, Role.ORGANISER, at), games, self.restarts))

    def placings(self) -> tuple[BracketPlace, ...]:
        return self.bracket.placings()

    def player_of(self, seed: int) -> uuid.UUID:
        return uuid.UUID(self.seeds.player(seed))

    # -- internals ---------------------------------------------------------------------------------
    def _close_round(self, number: int, now: dt.datetime) -> None:
        self.completed.add(number)
        self.change(RoundClosed(number, now))
        self.record(events.RoundCompleted(self.id, number))
        if not self.bracket.is_finished():
            self.record(events.RoundBecameDue(self.id, number + 1))
            return
        self._finish(now)

    def _finish(self, now: dt.datetime) -> None:
        self.status = Status.COMPLETED
        self.change(Finished())
        self.record(
            events.TournamentCompleted(
                self.id,
                self.heading.organiser_id,
                self.paired_rounds,
                now,
                placing=tuple(
                    events.FinalPlace(self.player_of(p.seed), p.seed, p.rank, p.places, p.matches_won)
                    for p in self.placings()
                ),
            )
        )

    def _game(self, match_id: MatchId, planned: PlannedGame) -> KnockoutGame:
        started = self.heading.started_at.astimezone(dt.UTC).isoformat()
        again = f":{self.restarts}" if self.restarts else ""  # the first start's ids as they always were
        game_id = uuid.uuid5(GAME_NAMESPACE, f"{self.id}:{started}{again}:{match_id}:{planned.number}")
        return KnockoutGame(game_id, planned)

    def _paired(self, number: int, *, cancelled: tuple[uuid.UUID, ...] = ()) -> events.RoundPaired:
        """Round ``number`` as it stands: every match and every game paired in it so far (consumers add
        the games they do not know yet; a replaced game is left out, since a match paired again has
        other players than its old games), and round 1's byes. ``cancelled``: games announced before
        that a match paired again will not play."""
        round_matches = self.round_matches(number)
        games = tuple(
            events.GameInRound(
                g.game_id,
                m.board,
                self.player_of(m.white(g)),
                self.player_of(m.black(g)),
                match_id=str(m.id),
                number=g.planned.number,
                label=g.planned.label,
                time_control=g.planned.time_control,
                rated=g.planned.kind is GameKind.REGULAR,
            )
            for m, g in round_of_games(round_matches)
            if g.counts
        )
        paired = tuple(
            events.MatchInRound(
                str(m.id),
                m.id.section,
                m.id.round,
                m.id.number,
                (self.player_of(m.players[0]), self.player_of(m.players[1])),
                board=m.board,
                first_white=self.player_of(m.seed(m.first_white)),
            )
            for m in round_matches
        )
        walkovers = tuple(
            events.MatchInRound(
                str(w.id),
                w.id.section,
                w.id.round,
                w.id.number,
                (
                    None if w.players[0] is None else self.player_of(w.players[0]),
                    None if w.players[1] is None else self.player_of(w.players[1]),
                ),
            )
            for w in self.walkovers(number)
        )
        return events.RoundPaired(
            tournament_id=self.id,
            organiser_id=self.heading.organiser_id,
            round=number,
            total_rounds=self.rounds_total(),
            system=self.system,
            games=games,
            byes=tuple(events.ByeInRound(self.player_of(seed)) for seed in self.byes(number)),
            time_control=self.heading.time_control,
            published=number in self.published,
            matches=(*paired, *walkovers),
            games_cancelled=cancelled,
        )


@cache
def _double_knockout_waves(players: int, second_final: bool) -> int:
    """Rounds of a double knockout without the second final: its waves of ready matches."""
    bracket: Bracket = DoubleKnockout(players, second_final=second_final)
    waves = 0
    while ready := bracket.ready_matches():
        # the winners'-bracket player (slot 1) takes the grand final, so the second final is not needed
        bracket = bracket.record_many({m.id: _no_reset(m) for m in ready})
        waves += 1
    return waves


def _no_reset(match: BracketMatch) -> int:
    """A winner that keeps the second final unneeded: the winners'-bracket player (slot 1) takes the
    grand final; elsewhere anyone (the better seed)."""
    first = match.players[0]
    if match.id.section is Section.GRAND_FINAL and first is not None:
        return first
    return better_seed(match)


__all__ = ["FORMATS", "Elimination", "bracket_from_dict", "new_bracket"]
