"""The round to come: whom a Swiss leaves out of the round it pairs next, as pairing does
(``PairingTournament.absent``): the withdrawn (an excluded `platform` player stays in the draw), the
zero-point byes asked for it (``bye.requested``, unless taken back: ``bye.taken_back``), and in a
`fide-rapid` event the absentees of the round before (a loss at the default time) whom no arbiter excused
(``absence.excused``) and the late entries not in yet (:meth:`RoundToCome.left_out`). The TRF written then
gives each of them a block for that round, so that a pairing program reading it pairs the round as
pairing does (``to_trf.py``).

:class:`RoundToCome` is a part of the :class:`~services.standings.domain.tournament.Tournament`
aggregate: the methods it adds read and change what the tournament holds, declared below. Pure code.
"""

from __future__ import annotations

import uuid
from abc import abstractmethod
from typing import Final

from services.standings.domain.errors import PlayerOutstanding
from services.standings.domain.events import AbsenceExcused, ByeRequested, ByeRequestTakenBack, Change
from services.standings.domain.rounds import Competitor, PairedRound
from services.standings.domain.tournament_info import TournamentInfo
from services.standings.domain.withdrawals import Withdrawal, stays_in_draw
from shared.scoring import Outcome

__all__ = ["DEFAULT_TIME", "RoundToCome"]

DEFAULT_TIME: Final = "default_time"
"""The reason of a loss by absence (``game.finished``: not at the board by the default time, RULES.md §6)."""


class RoundToCome:
    """Who the next round leaves out, and the byes asked and absences excused that decide it."""

    # what the tournament holds (tournament.py)
    info: TournamentInfo
    players: list[Competitor]
    rounds: dict[int, PairedRound]
    withdrawals: dict[int, Withdrawal]
    bye_requests: set[tuple[int, int]]  # (round, seed): zero-point byes asked
    excused: set[tuple[int, int]]  # (round, seed): absences an arbiter excused
    _seeds: dict[uuid.UUID, int]
    _changes: list[Change]

    @abstractmethod
    def seed_of(self, player_id: uuid.UUID) -> int: ...

    @abstractmethod
    def _record_due_update(self) -> None: ...

    @abstractmethod
    def _changed(self, *, updated: bool = True) -> None: ...

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
