"""Late entries (``fide-rapid``, RULES.md §6): a player who joins a started event takes the next seed (as
pairing gives it) and is paired from a later round; each round before it gets the late entry's bye
(``settings.fide.late_entry_bye``), in the rounds recorded already when the entry is heard, and in later
ones when they are paired.

:class:`LateEntries` is a part of the :class:`~services.standings.domain.tournament.Tournament`
aggregate: the methods it adds read and change what the tournament holds, declared below. Pure code.
"""

from __future__ import annotations

import uuid
from abc import abstractmethod
from collections.abc import Iterator, Sequence

from services.standings.domain.events import Change, PlayerAdded
from services.standings.domain.live_table import TableKeeper
from services.standings.domain.rounds import Competitor, Game, PairedRound, Profile, RoundBye
from services.standings.domain.tournament_info import TournamentInfo

__all__ = ["LateEntries"]


class LateEntries:
    """A `fide-rapid` event's late entries and the byes of the rounds they missed."""

    # what the tournament holds (tournament.py)
    info: TournamentInfo
    players: list[Competitor]
    rounds: dict[int, PairedRound]
    _seeds: dict[uuid.UUID, int]
    _by_seed: dict[int, Competitor]
    _live: TableKeeper | None
    _changes: list[Change]

    @abstractmethod
    def player(self, seed: int) -> Competitor: ...

    @abstractmethod
    def rounds_in_order(self) -> Iterator[PairedRound]: ...

    @abstractmethod
    def _live_table(self) -> TableKeeper | None: ...

    @abstractmethod
    def _build_live(self) -> TableKeeper | None: ...

    @abstractmethod
    def _changed(self, *, updated: bool = True) -> None: ...

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
                bye = RoundBye(rnd.number, seed, self.info.fide.late_entry_bye, late=True)
                rnd.byes.append(bye)
                added.append(bye)
        self._changes.append(PlayerAdded(player, tuple(added)))
        self._live = self._build_live()  # one more player: the table from scratch
        self._changed()
        return True

    def _missed(self, seed: int, number: int) -> bool:
        """Round ``number`` is one a late entry missed (before its first round)."""
        first = self.player(seed).from_round
        return first is not None and number < first

    @staticmethod
    def _in_round(rnd: PairedRound, seed: int) -> bool:
        return any(seed in (g.white, g.black) for g in rnd.games) or any(b.seed == seed for b in rnd.byes)

    def _late_byes(self, number: int, games: Sequence[Game], byes: Sequence[RoundBye]) -> list[RoundBye]:
        """The late entries' byes in round ``number``, a round before their first one (``fide-rapid``)."""
        fide = self.info.fide
        if fide is None:
            return []
        present = {s for g in games for s in (g.white, g.black)} | {b.seed for b in byes}
        return [
            RoundBye(number, p.seed, fide.late_entry_bye, late=True)
            for p in self.players
            if p.from_round is not None and number < p.from_round and p.seed not in present
        ]
