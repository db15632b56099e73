"""Double rounds: a pairing's two games one after the other (RULES.md §2; seed 001: «Jede Paarung wird
zweimal hintereinander gespielt … innerhalb derselben Runde, die damit doppelt so lange dauert»).

A round with double rounds pairs every board twice: leg 1, and leg 2 with the colours swapped on the
same opening (pairing's ``round.paired`` says so, ``leg``). Both games are created at once, so their ids
are known and the pages show them, but only leg 1 starts with the round: leg 2 waits (``pending``, no
clock running) and begins when leg 1 ends, however it ends (a result, a flag, a disconnection, a forfeit,
the tournament's close). A player is never on two boards of the same pairing, and the round lasts two
legs' time.

Everything that applies to a game at its start applies to leg 2 at its own start (:meth:`Game.begin`):
its clock starts then, so an absent player's time runs from there; a player busy elsewhere then loses it
by forfeit (both away: ``-/-``), whatever they were at leg 1; the 30 seconds to come back count from a
disconnection after one's first move *in that leg*; and a leg 2 whose turn comes after the tournament's
close is drawn at the close, as every game still open then.

Knockout matches keep their own order (``match_id``, ``number``): their games are not legs.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Game


def link(games: Iterable[Game]) -> set[uuid.UUID]:
    """Link the legs among a round's new games: each leg 1 learns the leg 2 of its board
    (``next_leg``). The ids of the games that wait for their pairing's earlier leg are returned: they
    do not start with the round."""
    paired = [g for g in games if g.match_id is None]
    by_leg = {(g.tournament_id, g.round, g.board, g.leg): g for g in paired}
    waiting: set[uuid.UUID] = set()
    for game in paired:
        before = by_leg.get((game.tournament_id, game.round, game.board, game.leg - 1))
        if before is not None:
            before.next_leg = game.id
            waiting.add(game.id)
    return waiting


def turn_has_come(leg: Game, before: Game) -> bool:
    """Whether ``leg``, waiting for ``before`` (whose ``next_leg`` it is), begins now: ``before`` is
    over and ``leg`` still waits (not ended meanwhile, by a withdrawal's forfeit or the close)."""
    return before.next_leg == leg.id and before.over and leg.status is GameStatus.PENDING and leg.released
