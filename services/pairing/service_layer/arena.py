"""The arena in the pairing service (docs/arena.md, "In the services"): the consumer keeps the waiting
pool current — an arena started, players joined, paused or left, a game ended — and the pairing
workers run the passes.

**The worker's tick** (:meth:`ArenaHandlers.run_passes`): for each open arena, in an order of its own,
a worker takes the arena's lease (or skips the arena: another worker holds it), hands on first the
games a previous holder committed and did not announce, then — while pairing is open — runs one pass
(:func:`~.arena_pass.run_pass`), writes the new games and their ``arena.paired`` in one transaction,
marks them announced, and gives the lease back. A worker that dies holding a lease holds it until the
lease's time runs out (a few seconds); then another worker takes the arena over. The pool's commit is
fenced by the lease, so a worker that stalled past it writes nothing; the games' table is keyed by the
game id, so a game handed on twice is announced once.

**A lost pool** (issue 22): the pool is a cache of the arena's record in pairing's database (its entries,
its games and their results, and who plays elsewhere). The consumer writes both, the record in the
handler's transaction; a worker that finds an arena's pool missing (Redis came back without its data)
rebuilds it from the record under the lease and the arena's row lock, before it hands anything on or
pairs (:meth:`ArenaHandlers.rebuild_pool`), and the pass goes on in the same tick.

**Completion** (**Decision**): the arena is complete when its end has passed and its last game has
finished — a game still running at the end counts when it finishes — and then ``tournament.completed``
freezes the final ranking.
"""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Final

from services.pairing.domain.arena.arena import Arena
from services.pairing.domain.arena.record import LEFT, PAUSED, pool_state
from services.pairing.service_layer import commands
from services.pairing.service_layer.arena_pass import run_pass
from services.pairing.service_layer.arena_ports import (
    ArenaPool,
    FinishedGame,
    LeaseLost,
    NewGame,
    arena_game_ref,
)
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.arena_scoring import sheet
from shared.messaging.port import NotReady
from shared.timesource import TimeSource

log = logging.getLogger(__name__)

JOIN: Final = "join"
PAUSE: Final = "pause"
LEAVE: Final = "leave"


def game_ref(game_id: uuid.UUID) -> str:
    """The in-game marker of a player in a game outside the arena that pairs them (a tournament game,
    or another arena's game announced by clocks)."""
    return f"game:{game_id}"


class ArenaHandlers:
    def __init__(
        self,
        pool: ArenaPool,
        clock: TimeSource,
        *,
        lease_ms: int = 5_000,
        new_game_id: Callable[[], uuid.UUID] = uuid.uuid4,
        rng: random.Random | None = None,
    ) -> None:
        self.pool = pool
        self.clock = clock
        self.lease_ms = lease_ms
        self.new_game_id = new_game_id
        self.rng = rng or random.Random()

    # -- consumer ---------------------------------------------------------------------------------
    def on_started(self, cmd: commands.StartArena, uow: PairingUnitOfWork) -> None:
        if uow.arenas.get(cmd.tournament_id) is not None:
            return  # started already
        h = cmd.heading
        uow.arenas.add(
            Arena(
                h.id, h.organiser_id, h.name, h.started_at, cmd.ends_at, h.time_control, variant=cmd.variant
            )
        )
        for p in cmd.players:  # joining again keeps a place already taken: a retry changes nothing
            uow.arenas.enter(h.id, p.player_id, rating=p.rating or 0, at=h.started_at)
            self.pool.join(h.id, p.player_id, rating=p.rating or 0, at=h.started_at)
        self.pool.open(h.id)

    def on_entry(self, cmd: commands.ArenaEntry, uow: PairingUnitOfWork) -> None:
        """Before the start (no arena here yet) the roster of ``tournament.started`` carries the
        entries; both travel on one queue, in order. Events of other formats change nothing."""
        arena = uow.arenas.get(cmd.tournament_id)
        if arena is None or arena.completed_at is not None:
            return
        now = self.clock.now()
        if cmd.kind == JOIN:
            uow.arenas.enter(arena.id, cmd.player_id, rating=cmd.rating or 0, at=now)
            self.pool.join(arena.id, cmd.player_id, rating=cmd.rating or 0, at=now)
        elif cmd.kind == PAUSE:
            uow.arenas.away(arena.id, cmd.player_id, PAUSED, at=now)
            self.pool.pause(arena.id, cmd.player_id)
        else:
            uow.arenas.away(arena.id, cmd.player_id, LEFT, at=now)
            self.pool.leave(arena.id, cmd.player_id)

    def on_game_finished(self, cmd: commands.RecordArenaResult, uow: PairingUnitOfWork) -> None:
        """The result and boosts are kept, both players' arena points computed from their games
        (``shared.arena_scoring``), and the pool told: the markers go, the meeting's cooldown runs, and
        the players wait again unless they paused or left."""
        boost = (cmd.white_boost, cmd.black_boost)
        found = uow.arenas.finish_game(cmd.game_id, cmd.outcome, boost, cmd.finished_at)
        if found is None:
            raise NotReady(f"arena game {cmd.game_id} is not known here yet")
        arena_id, game = found
        games = uow.arenas.finished_games(arena_id, (game.white, game.black))

        def points(player: uuid.UUID) -> int:
            mine = [g for g in games if player in (g.white, g.black)]
            return sum(e.points for e in sheet(player, mine))

        self.pool.finish(
            arena_id,
            FinishedGame(
                game.id, game.white, game.black, cmd.finished_at, points(game.white), points(game.black)
            ),
        )

    def on_playing(self, cmd: commands.RecordPlaying, uow: PairingUnitOfWork) -> None:
        """``game.started`` / ``game.finished`` / ``game.cancelled`` of any game: the players' in-game
        marker. An arena game's players carry their arena's marker already, which this leaves alone."""
        ref = game_ref(cmd.game_id)
        for player in cmd.players:
            if cmd.playing:
                uow.arenas.start_playing(player, cmd.game_id)
                self.pool.start_playing(player, ref)
            else:
                uow.arenas.stop_playing(player, cmd.game_id)
                self.pool.stop_playing(player, ref)

    # -- worker -----------------------------------------------------------------------------------
    def run_passes(self, token: str, uow_factory: Callable[[], PairingUnitOfWork]) -> int:
        """One tick: a pass over every open arena whose lease this worker can take; the games made."""
        with uow_factory() as uow:
            arenas = uow.arenas.open_ids()
        self.rng.shuffle(arenas)  # workers meet the arenas in different orders
        made = 0
        for arena_id in arenas:
            if not self.pool.take_lease(arena_id, token, self.lease_ms):
                continue
            try:
                made += self._pass(arena_id, token, uow_factory)
            except LeaseLost:
                log.warning("arena %s: lease lost mid-pass; nothing was committed", arena_id)
            finally:
                self.pool.release_lease(arena_id, token)
        return made

    def _pass(self, arena_id: uuid.UUID, token: str, uow_factory: Callable[[], PairingUnitOfWork]) -> int:
        with uow_factory() as uow:
            arena = uow.arenas.get(arena_id, lock=True)
            if arena is None or arena.completed_at is not None:
                return 0
            now = self.clock.now()
            if not self.pool.intact(arena_id):
                self.rebuild_pool(arena_id, token, uow)
            pending: dict[uuid.UUID, NewGame] = {g.id: g for g in self.pool.unannounced(arena_id)}
            if arena.pairing_open(now):
                outcome = run_pass(self.pool, arena_id, token, now, new_game_id=self.new_game_id)
                pending.update((g.id, g) for g in outcome.committed.games)
            new = uow.arenas.add_games(arena_id, list(pending.values()), now)
            made = arena.announce(((g.id, g.white, g.black) for g in new), now)
            completed = not arena.pairing_open(now) and arena.complete(
                now, running=uow.arenas.running(arena_id)
            )
            uow.arenas.save(arena)
            uow.commit()
        self.pool.announced(arena_id, pending)
        if completed:
            self.pool.discard(arena_id)
        return made

    def rebuild_pool(self, arena_id: uuid.UUID, token: str, uow: PairingUnitOfWork) -> None:
        """The arena's pool was lost (Redis came back without its data): write it again from the arena's
        record, which stays share-locked until this pass commits (a result or an entry written meanwhile
        waits, then reaches the rebuilt pool). The games a worker committed and had not handed on are
        lost with the pool; nobody heard of them, and their players wait again."""
        record = uow.arenas.record(arena_id)
        state = pool_state(record.entries, record.games)
        markers: dict[uuid.UUID, str] = {}
        for player, game, other in record.elsewhere:
            ref = game_ref(game) if other is None else arena_game_ref(other, game)
            if other is not None or player not in markers:  # an arena's own marker before clocks'
                markers[player] = ref
        for game, players in state.running.items():
            markers.update(dict.fromkeys(players, arena_game_ref(arena_id, game)))
        self.pool.rebuild(arena_id, token, replace(state, playing=markers))
        own = f"arena:{arena_id}:"
        log.warning(
            "arena %s: its pool was missing from Redis (lost with Redis's data); rebuilt from the database: "
            "%d waiting, %d paused or gone, %d games running, %d players in a game elsewhere",
            arena_id,
            len(state.waiting),
            len(state.absent),
            len(state.running),
            sum(1 for ref in markers.values() if not ref.startswith(own)),
        )
