"""What the clocks service knows of a tournament, beyond its games: its organiser and ruleset, and who
keeps the time — the boards or the server — with the default time (``tournament.started``), the arbiters its organiser appointed (``arbiter.appointed``/``revoked``) and
the players who withdrew or were excluded (``player.withdrawn``). Any of these may arrive first: a
tournament is known from the first of them on, its organiser and ruleset perhaps not yet.

Who may decide about a game (RULES.md §5): its organiser, an arbiter appointed for the whole tournament
or for that game, and — for results of online games — the game server. A player of the game decides
nothing about it, whatever else they are: they report it as a player (:meth:`Game.claim`).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from services.clocks.domain import errors
from services.clocks.domain.endings import Forfeit
from services.clocks.domain.game import Game, Outcome
from shared.aggregate import Aggregate
from shared.authority import Appointment, Authority, Decided, Role
from shared.resets import Resets
from shared.vocabulary import Ruleset

WITHDRAWAL = "withdrawal"
EXCLUSION = "exclusion"
# Rulesets whose players run their own games (4T1: the player named first creates them): a player
# may claim any played result there, final when the opponent confirms it.
PLAYERS_RUN_GAMES = frozenset({Ruleset.GROUP_PLAYOFF})


class Timekeeping(StrEnum):
    """Who keeps a tournament's time (``fide.clocks``): the server's clocks, as for online games, or the
    clocks on the boards (an over-the-board event, the `fide-rapid` default)."""

    SERVER = "server"
    BOARD = "board"


@dataclass(frozen=True)
class Timing:
    """How a tournament's games are timed: who keeps the time, and the default time (minutes; FIDE
    rapid's ten) — applied by the server with server clocks, recorded by the arbiter over the board.
    None or 0: no default time."""

    clocks: Timekeeping = Timekeeping.SERVER
    default_time_minutes: int | None = None
    closes_at: dt.datetime | None = None
    """A `platform` tournament with an announced duration: its end plus the ten minutes running games get
    (RULES.md §2 "Duration"); games still open then are drawn (reason ``tournament_closed``)."""

    @property
    def server_clock(self) -> bool:
        return self.clocks is Timekeeping.SERVER

    @property
    def default_time(self) -> dt.timedelta | None:
        """What the server forfeits a missing first move after: only with its own clocks."""
        if not self.server_clock or not self.default_time_minutes:
            return None
        return dt.timedelta(minutes=self.default_time_minutes)


CLOSING_GRACE = dt.timedelta(minutes=10)
"""What games still running when a tournament's duration ends get before it closes."""

ONLINE = Timing()


@dataclass(frozen=True)
class ArbiterPost:
    """An arbiter's standing as last decided: appointed for the whole tournament (``games`` None) or
    for named games, or revoked. ``at`` is when the organiser decided it: an older decision arriving
    late changes nothing."""

    arbiter_id: uuid.UUID
    games: frozenset[uuid.UUID] | None
    at: dt.datetime
    revoked: bool = False


@dataclass(frozen=True)
class Withdrawal:
    """A player who left the tournament for good after its start: withdrawn, or excluded by the
    organiser. Their unfinished and future games are lost by forfeit."""

    player_id: uuid.UUID
    excluded: bool
    reason: str
    decision: Decided | None

    @property
    def forfeit_reason(self) -> str:
        return EXCLUSION if self.excluded else WITHDRAWAL


@dataclass
class Tournament(Aggregate):
    id: uuid.UUID
    organiser_id: uuid.UUID | None = None
    ruleset: Ruleset | None = None
    timing: Timing = ONLINE
    arbiters: dict[uuid.UUID, ArbiterPost] = field(default_factory=dict)
    withdrawn: dict[uuid.UUID, Withdrawal] = field(default_factory=dict)
    resets: Resets = field(default_factory=Resets)  # a knockout's resets to its draft: what they removed
    # what changed and is not saved yet: the repository collects it
    changes: list[ArbiterPost | Withdrawal] = field(default_factory=list, compare=False, repr=False)

    # -- what arrives ---------------------------------------------------------------------------
    def start(self, organiser_id: uuid.UUID, ruleset: Ruleset, timing: Timing = ONLINE) -> bool:
        """``tournament.started``: its organiser, ruleset and timing. True when this changed them."""
        if (self.organiser_id, self.ruleset, self.timing) == (organiser_id, ruleset, timing):
            return False
        self.organiser_id, self.ruleset, self.timing = organiser_id, ruleset, timing
        return True

    def appoint(self, arbiter_id: uuid.UUID, games: frozenset[uuid.UUID] | None, at: dt.datetime) -> bool:
        """The organiser appointed an arbiter (again: the new scope replaces the old). True when this
        changed what is known; a decision older than the one known is ignored."""
        return self._post(ArbiterPost(arbiter_id, games, at))

    def revoke(self, arbiter_id: uuid.UUID, at: dt.datetime) -> bool:
        """The organiser revoked an appointment (known or not yet: a revocation overtaking its
        appointment still wins over it, being the later decision)."""
        return self._post(ArbiterPost(arbiter_id, None, at, revoked=True))

    def withdraw(self, withdrawal: Withdrawal) -> bool:
        """A player withdrew or was excluded, irreversibly. True the first time."""
        if withdrawal.player_id in self.withdrawn:
            return False
        self.withdrawn[withdrawal.player_id] = withdrawal
        self.changes.append(withdrawal)
        return True

    def reset(self, at: dt.datetime, games: Iterable[uuid.UUID], start: int | None = None) -> bool:
        """``tournament.reset``: a knockout back to its draft at ``at``, undoing its start number
        ``start``; ``games`` (its games, deleted) are gone for good: what comes later about them, or about
        the start the reset undid, is settled. True when this changed what is known (a reset heard again
        changes nothing)."""
        before = self.resets
        self.resets = self.resets.add(at, games, start)
        return self.resets != before

    def collect_changes(self) -> list[ArbiterPost | Withdrawal]:
        collected, self.changes = self.changes, []
        return collected

    def _post(self, post: ArbiterPost) -> bool:
        known = self.arbiters.get(post.arbiter_id)
        if known is not None and (known.at > post.at or known == post):
            return False
        self.arbiters[post.arbiter_id] = post
        self.changes.append(post)
        return True

    # -- asking ---------------------------------------------------------------------------------
    @property
    def players_run_games(self) -> bool:
        return self.ruleset in PLAYERS_RUN_GAMES

    def authority(self, organiser_id: uuid.UUID) -> Authority:
        """The organiser (the game's, when ``tournament.started`` has not arrived yet) and the
        arbiters appointed and not revoked."""
        return Authority.of(
            self.organiser_id or organiser_id,
            (Appointment(a.arbiter_id, a.games) for a in self.arbiters.values() if not a.revoked),
        )

    def forfeit_of(self, game: Game, cause: uuid.UUID | None = None) -> Forfeit | None:
        """How ``game`` ends if a player of it has withdrawn: the opponent wins by forfeit, both out
        is a double forfeit; None if both are still in. The reason and decision are ``cause``'s
        withdrawal when given (the one just announced), else White's, else Black's."""
        white, black = self.withdrawn.get(game.white), self.withdrawn.get(game.black)
        if white is None and black is None:
            return None
        if white is not None and black is not None:
            outcome = Outcome.DOUBLE_FORFEIT
        elif white is not None:
            outcome = Outcome.BLACK_FORFEIT_WIN
        else:
            outcome = Outcome.WHITE_FORFEIT_WIN
        deciding = self.withdrawn.get(cause) if cause in (game.white, game.black) else None
        deciding = deciding or white or black
        assert deciding is not None
        return Forfeit(outcome, deciding.forfeit_reason, deciding.decision)


def deciding_role(
    game: Game,
    actor_id: uuid.UUID,
    *,
    service: bool,
    arbiter_token: bool,
    authority: Callable[[], Authority],
    result: bool = True,
) -> Role:
    """In what capacity ``actor_id`` decides about ``game`` — enters its result (``result``) or swaps its
    colours: its organiser, an arbiter appointed for the tournament or this game, or (results only) the
    game server. ``authority`` is asked only when the organiser's id and the token do not settle it.
    A player of the game decides nothing about it (403 ``own-game``); an arbiter out of scope is 403
    ``not-an-arbiter-here``; anyone else 403 ``not-your-game`` (a result) or ``not-organiser``."""
    if game.side_of(actor_id) is not None:
        raise errors.OwnGame("you play this game: its organiser or an arbiter decides about it")
    if actor_id == game.organiser_id:
        return Role.ORGANISER
    if result and service:
        return Role.SERVICE
    if authority().is_arbiter(actor_id, game.id):
        return Role.ARBITER
    if arbiter_token:
        raise errors.NotAnArbiterHere("you are not an arbiter appointed for this game or its tournament")
    if result:
        raise errors.NotYourGame(
            "only the players of this game, its organiser, an arbiter appointed for it or the game "
            "server report its result"
        )
    raise errors.NotOrganiser("only the game's organiser or an arbiter appointed for it may do this")
