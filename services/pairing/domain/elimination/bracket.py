"""Elimination brackets: the mechanics shared by the knockout and the double knockout.

A bracket is a fixed *layout* — every match it can ever hold, each of its two slots saying where the player
comes from (a seed, nobody, the winner or the loser of an earlier match) — plus the recorded *results*
(match id → winning seed). Everything else is derived: who sits in each slot, which matches are ready to
be played, who advanced without a game, whether the event is finished and the final placing.

Bracket objects are immutable. ``record`` and ``clear`` return a new bracket; ``to_dict``/``from_dict``
turn the state into plain data (format, player count, options, results) for a service to store.

Players are seed numbers 1 … N; a service maps them to its players with a seeding list (``seeding.py``).

Byes. A slot that can never be filled is *empty*: a seed above N in the first round, the loser of a match
that was a bye, the winner of a match with two empty slots. A match with one empty slot is a walkover
(the other player advances without a game as soon as they are known; no result is recorded); a match
with two empty slots is void and sends nobody on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, ClassVar, Final, Literal, NamedTuple, Self

from shared.vocabulary import BracketFormat, Section


class BracketError(ValueError):
    """A bracket that cannot be built, or state or input that does not fit it."""


class ResultRefused(BracketError):
    """A result that cannot be recorded (or cleared) in the bracket's current state."""


class NotFinished(BracketError):
    """The final placing was asked for before every match was decided."""


class MatchId(NamedTuple):
    """A match: its section, its round in that section and its number in that round (all 1-based).

    Written ``section:round:number``, e.g. ``winners:2:3``.
    """

    section: Section
    round: int
    number: int

    def __str__(self) -> str:
        return f"{self.section.value}:{self.round}:{self.number}"

    @classmethod
    def parse(cls, text: str) -> MatchId:
        parts = text.split(":")
        try:
            section, rnd, number = Section(parts[0]), int(parts[1]), int(parts[2])
        except (ValueError, IndexError):
            raise BracketError(f"not a match id: {text!r} (expected section:round:number)") from None
        if len(parts) != 3:
            raise BracketError(f"not a match id: {text!r} (expected section:round:number)")
        return cls(section, rnd, number)


# Where a slot's player comes from.
@dataclass(frozen=True)
class Seed:
    number: int


@dataclass(frozen=True)
class Empty:
    """A slot nobody will ever fill (a bye)."""


@dataclass(frozen=True)
class WinnerOf:
    match: MatchId


@dataclass(frozen=True)
class LoserOf:
    match: MatchId


Source = Seed | Empty | WinnerOf | LoserOf


@dataclass(frozen=True)
class MatchSpec:
    """One match of a layout. ``reset_of``: played only if the player in slot 2 wins that match."""

    id: MatchId
    slots: tuple[Source, Source]
    reset_of: MatchId | None = None


class MatchStatus(StrEnum):
    PENDING = "pending"
    """A player is not known yet (or, for a grand-final reset, the first final is not decided)."""
    READY = "ready"
    """Both players known, no result yet: this match is to be played."""
    DECIDED = "decided"
    """Played; the result is recorded."""
    WALKOVER = "walkover"
    """One slot is empty: the other player advances without a game."""
    VOID = "void"
    """Both slots are empty: nobody advances."""
    NOT_NEEDED = "not_needed"
    """A grand-final reset after the winners'-bracket player won the first final."""


TERMINAL: Final = frozenset(
    {MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.VOID, MatchStatus.NOT_NEEDED}
)


@dataclass(frozen=True)
class BracketMatch:
    """A match as it stands. ``players[i]`` is None while unknown and for an empty slot (``empty[i]``)."""

    id: MatchId
    players: tuple[int | None, int | None]
    empty: tuple[bool, bool]
    status: MatchStatus
    winner: int | None = None
    loser: int | None = None


@dataclass(frozen=True)
class BracketPlace:
    """A player's final place.

    ``rank`` is dense, one step per group of players who went out at the same point (1, 2, 3, 3, 4, 4, 4, 4
    … in a knockout without a third-place match) — the ranking of the reference (brackets-manager).
    ``places`` is the span of final positions the group shares (the semi-final losers above share 3–4, the
    quarter-final losers 5–8). ``matches_won`` counts matches played and won; walkovers are not counted.
    """

    seed: int
    rank: int
    places: tuple[int, int]
    matches_won: int


class _Bye(Enum):
    BYE = "bye"


_BYE: Final = _Bye.BYE
_Occupant = int | Literal[_Bye.BYE] | None


@dataclass(frozen=True)
class Layout:
    """Every match of a bracket, in an order where a match comes after the matches feeding it."""

    matches: tuple[MatchSpec, ...]
    by_id: Mapping[MatchId, MatchSpec] = field(init=False, repr=False)
    dependents: Mapping[MatchId, tuple[MatchId, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_id: dict[MatchId, MatchSpec] = {}
        dependents: dict[MatchId, list[MatchId]] = {spec.id: [] for spec in self.matches}
        for spec in self.matches:
            if spec.id in by_id:
                raise BracketError(f"duplicate match {spec.id}")
            feeders = [s.match for s in spec.slots if isinstance(s, WinnerOf | LoserOf)]
            if spec.reset_of is not None:
                feeders.append(spec.reset_of)
            for feeder in feeders:
                if feeder not in by_id:
                    raise BracketError(f"{spec.id} is fed by {feeder}, which does not come before it")
                dependents[feeder].append(spec.id)
            by_id[spec.id] = spec
        object.__setattr__(self, "by_id", by_id)
        object.__setattr__(self, "dependents", {k: tuple(v) for k, v in dependents.items()})


class Bracket(ABC):
    """The shared engine. Subclasses give the layout, the options and the placing groups."""

    format: ClassVar[BracketFormat]

    def __init__(self, players: int, results: Mapping[MatchId, int] | None = None) -> None:
        self._players = players
        self._layout = self._build_layout()
        order = {spec.id: i for i, spec in enumerate(self._layout.matches)}
        unknown = [str(mid) for mid in (results or {}) if mid not in order]
        if unknown:
            raise BracketError(f"no such match in this bracket: {', '.join(sorted(unknown))}")
        self._results: dict[MatchId, int] = dict(
            sorted((results or {}).items(), key=lambda item: order[item[0]])
        )
        self._matches = self._resolve()

    # -- what subclasses provide -------------------------------------------------------------------
    @abstractmethod
    def _build_layout(self) -> Layout: ...

    @abstractmethod
    def _options(self) -> dict[str, Any]:
        """The options besides the player count, as plain data (keyword arguments of the constructor)."""

    @abstractmethod
    def _placing_groups(self) -> list[list[int]]:
        """Players grouped by how far they got, best first; called only once the bracket is finished."""

    @abstractmethod
    def champion(self) -> int | None:
        """The winner of the event, once decided."""

    def _with_results(self, results: Mapping[MatchId, int]) -> Self:
        return type(self)(self._players, results=results, **self._options())

    # -- reading -----------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._players

    @property
    def size(self) -> int:
        """Slots in winners round 1: the smallest power of two holding every player."""
        return next_power_of_two(self._players)

    @property
    def results(self) -> Mapping[MatchId, int]:
        """The recorded results: match → winning seed."""
        return dict(self._results)

    @property
    def sections(self) -> tuple[Section, ...]:
        return tuple(dict.fromkeys(spec.id.section for spec in self._layout.matches))

    def match(self, match_id: MatchId | str) -> BracketMatch:
        mid = self._match_id(match_id)
        return self._matches[mid]

    def slot_sources(self, match_id: MatchId | str) -> tuple[Source, Source]:
        """Where the two players of a match come from (a seed, nobody, a winner or a loser)."""
        return self._layout.by_id[self._match_id(match_id)].slots

    def matches(self, section: Section | None = None) -> tuple[BracketMatch, ...]:
        """Every match (of one section), in layout order: by section, round, number."""
        return tuple(m for m in self._matches.values() if section is None or m.id.section is section)

    def rounds(self, section: Section) -> tuple[tuple[BracketMatch, ...], ...]:
        """The matches of one section grouped by round, each round in match-number order."""
        grouped: dict[int, list[BracketMatch]] = {}
        for m in self.matches(section):
            grouped.setdefault(m.id.round, []).append(m)
        return tuple(tuple(sorted(ms, key=lambda m: m.id.number)) for _, ms in sorted(grouped.items()))

    def ready_matches(self) -> tuple[BracketMatch, ...]:
        """Who plays whom next: every match whose two players are known and that has no result yet."""
        return tuple(m for m in self._matches.values() if m.status is MatchStatus.READY)

    def is_finished(self) -> bool:
        return all(m.status in TERMINAL for m in self._matches.values())

    def downstream(self, match_id: MatchId | str) -> tuple[MatchId, ...]:
        """Every match a player of ``match_id`` can reach from it — the matches its winner and its loser
        go to, then theirs, and a grand final's second match — nearest first (breadth first)."""
        start = self._match_id(match_id)
        queue = deque(self._layout.dependents[start])
        seen: dict[MatchId, None] = {}
        while queue:
            nxt = queue.popleft()
            if nxt in seen:
                continue
            seen[nxt] = None
            queue.extend(self._layout.dependents[nxt])
        return tuple(seen)

    def matches_won(self, seed: int) -> int:
        return sum(1 for m in self._matches.values() if m.status is MatchStatus.DECIDED and m.winner == seed)

    def placings(self) -> tuple[BracketPlace, ...]:
        """The final placing, best first (by rank, then seed). Raises :class:`NotFinished` before the end."""
        if not self.is_finished():
            raise NotFinished("the bracket is not finished: some matches are still to be decided")
        placings: list[BracketPlace] = []
        above = 0
        rank = 0
        for group in self._placing_groups():
            if not group:
                continue
            rank += 1
            span = (above + 1, above + len(group))
            placings.extend(BracketPlace(seed, rank, span, self.matches_won(seed)) for seed in sorted(group))
            above += len(group)
        return tuple(placings)

    # -- changing ----------------------------------------------------------------------------------
    def record(self, match_id: MatchId | str, winner: int) -> Self:
        """Record (or correct) the winner of a match. Returns the new bracket.

        A correction that changes the winner is refused once a later match fed by this one (directly or
        through walkovers) has a result: clear that result first.
        """
        return self.record_many({self._match_id(match_id): winner})

    def record_many(self, results: Mapping[MatchId, int]) -> Self:
        """Record several results at once (e.g. a whole round)."""
        merged = dict(self._results)
        for match_id, winner in results.items():
            mid = self._match_id(match_id)
            current = self._matches[mid]
            if current.status not in (MatchStatus.READY, MatchStatus.DECIDED):
                raise ResultRefused(f"{mid} cannot take a result: it is {current.status.value}")
            if winner not in current.players:
                raise ResultRefused(f"{mid} is {_vs(current)}: seed {winner} does not play in it")
            if self._results.get(mid, winner) != winner:
                self._refuse_if_locked(mid)
            merged[mid] = winner
        return self._with_results(merged)

    def clear(self, match_id: MatchId | str) -> Self:
        """Remove a recorded result (same rule as a correction). Returns the new bracket."""
        mid = self._match_id(match_id)
        if mid not in self._results:
            return self
        self._refuse_if_locked(mid)
        remaining = {k: v for k, v in self._results.items() if k != mid}
        return self._with_results(remaining)

    # -- plain data --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "players": self._players,
            **self._options(),
            "results": {str(mid): winner for mid, winner in self._results.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a bracket stored with :meth:`to_dict`; every stored result is checked again."""
        if data.get("format") != cls.format:
            raise BracketError(f"not a {cls.format} state: format is {data.get('format')!r}")
        results = data.get("results", {})
        if not isinstance(results, Mapping):
            raise BracketError("results must be an object of match id → winning seed")
        parsed: dict[MatchId, int] = {}
        for key, winner in results.items():
            if not isinstance(winner, int) or isinstance(winner, bool):
                raise BracketError(f"result of {key}: the winner must be a seed number, not {winner!r}")
            parsed[MatchId.parse(str(key))] = winner
        options = {k: v for k, v in data.items() if k not in ("format", "players", "results")}
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise BracketError(f"players must be a number, not {players!r}")
        try:
            return cls(players, results=parsed, **options)
        except TypeError as exc:  # an unknown option
            raise BracketError(f"not a {cls.format} state: {exc}") from None

    # -- internals ---------------------------------------------------------------------------------
    def _match_id(self, match_id: MatchId | str) -> MatchId:
        mid = MatchId.parse(match_id) if isinstance(match_id, str) else match_id
        if mid not in self._layout.by_id:
            raise BracketError(f"no such match in this bracket: {mid}")
        return mid

    def _refuse_if_locked(self, mid: MatchId) -> None:
        """Refuse a change to ``mid`` once a match it feeds (directly or through walkovers) has a result."""
        queue = deque(self._layout.dependents[mid])
        seen: set[MatchId] = set()
        while queue:
            nxt = queue.popleft()
            if nxt in seen:
                continue
            seen.add(nxt)
            if nxt in self._results:
                raise ResultRefused(
                    f"{mid} cannot change: {nxt}, which it feeds, already has a result (clear that first)"
                )
            queue.extend(self._layout.dependents[nxt])

    def _resolve(self) -> dict[MatchId, BracketMatch]:
        resolved: dict[MatchId, BracketMatch] = {}

        def occupant(source: Source) -> _Occupant:
            if isinstance(source, Seed):
                return source.number
            if isinstance(source, Empty):
                return _BYE
            feeder = resolved[source.match]
            if feeder.status is MatchStatus.VOID:
                return _BYE
            if isinstance(source, WinnerOf):
                return feeder.winner if feeder.status in (MatchStatus.DECIDED, MatchStatus.WALKOVER) else None
            if feeder.status is MatchStatus.WALKOVER:
                return _BYE
            return feeder.loser if feeder.status is MatchStatus.DECIDED else None

        for spec in self._layout.matches:
            a, b = occupant(spec.slots[0]), occupant(spec.slots[1])
            players = (a if isinstance(a, int) else None, b if isinstance(b, int) else None)
            empty = (a is _BYE, b is _BYE)
            result = self._results.get(spec.id)
            status = MatchStatus.PENDING
            winner = loser = None
            if spec.reset_of is not None and not self._reset_needed(resolved[spec.reset_of]):
                first = resolved[spec.reset_of]
                if first.status is MatchStatus.DECIDED:
                    status, players = MatchStatus.NOT_NEEDED, (None, None)
            elif a is _BYE and b is _BYE:
                status = MatchStatus.VOID
            elif a is _BYE or b is _BYE:
                other = b if a is _BYE else a
                if isinstance(other, int):
                    status, winner = MatchStatus.WALKOVER, other
            elif isinstance(a, int) and isinstance(b, int):
                status = MatchStatus.READY
                if result is not None:
                    if result not in (a, b):
                        raise BracketError(f"result of {spec.id}: seed {result} does not play in {a} v {b}")
                    status, winner, loser = MatchStatus.DECIDED, result, (b if result == a else a)
            if result is not None and status is not MatchStatus.DECIDED:
                raise BracketError(
                    f"result of {spec.id}: the match is {status.value}, it cannot have a result"
                )
            resolved[spec.id] = BracketMatch(spec.id, players, empty, status, winner, loser)
        return resolved

    @staticmethod
    def _reset_needed(first: BracketMatch) -> bool:
        return first.status is MatchStatus.DECIDED and first.winner == first.players[1]


def _vs(match: BracketMatch) -> str:
    a, b = (str(p) if p is not None else "?" for p in match.players)
    return f"{a} v {b}"


def play_out(bracket: Bracket, choose: Callable[[BracketMatch], int]) -> Bracket:
    """Play every remaining match, ``choose`` picking each winner, until nothing is left to play."""
    while ready := bracket.ready_matches():
        bracket = bracket.record_many({m.id: choose(m) for m in ready})
    return bracket


def better_seed(match: BracketMatch) -> int:
    """The smaller seed number (the stronger player) of a ready match."""
    return min(_known(match.players))


def worse_seed(match: BracketMatch) -> int:
    """The larger seed number of a ready match."""
    return max(_known(match.players))


def _known(players: Iterable[int | None]) -> list[int]:
    known = [p for p in players if p is not None]
    if not known:
        raise BracketError("the match has no known player")
    return known


def next_power_of_two(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size
