"""News of what a knockout's reset to its draft removed, settled: acknowledged and logged, not waited for
nor dead-lettered (issue 22). Pairing erases a reset knockout and keeps only what the reset removed
(:class:`~services.pairing.service_layer.ports.ResetsRepository`); these are asked only once what the news
names was not found, so the usual path pays nothing for them. Anything else not found stays what it was: a
tournament never heard of is not ready, a game never paired an error."""

from __future__ import annotations

import datetime as dt
import logging
import uuid

from services.pairing.service_layer.ports import PairingUnitOfWork

log = logging.getLogger(__name__)


def removed_game(uow: PairingUnitOfWork, tournament_id: uuid.UUID, game_id: uuid.UUID, what: str) -> bool:
    """True, logged, when a reset of the tournament removed the game ``what`` (the event) is about."""
    resets = uow.resets.of(tournament_id)
    if not resets.removed(game_id):
        return False
    log.info(
        "%s for game %s of tournament %s: the game was removed by the reset to its draft (at %s); settled",
        what,
        game_id,
        tournament_id,
        resets.last_at,
    )
    return True


def undone_withdrawal(
    uow: PairingUnitOfWork,
    tournament_id: uuid.UUID,
    player_id: uuid.UUID,
    decided_at: dt.datetime | None,
    started_at: dt.datetime | None,
) -> bool:
    """True, logged, when a withdrawal the tournament does not hold belongs to a start a reset undid: the
    knockout is reset and not started again here, and the withdrawal was decided before the reset
    (``started_at`` None; registration's clock against pairing's, strictly before); or it is started
    again and the withdrawal was decided before that start (registration's clock, both). A withdrawal
    decided later waits for its start, as any other."""
    resets = uow.resets.of(tournament_id)
    if not resets or decided_at is None:
        return False
    undone = resets.before(decided_at) if started_at is None else decided_at < started_at
    if undone:
        log.info(
            "player.withdrawn of %s from tournament %s (decided %s): the start it withdrew from was undone by "
            "the reset to its draft (at %s); settled",
            player_id,
            tournament_id,
            decided_at,
            resets.last_at,
        )
    return undone


def reset_away(uow: PairingUnitOfWork, tournament_id: uuid.UUID, what: str) -> bool:
    """True, logged, when the tournament is not here because a reset erased it (and it has not started
    again): ``what`` (a round due, say) belongs to the undone start."""
    resets = uow.resets.of(tournament_id)
    if not resets:
        return False
    log.info(
        "%s for tournament %s: it was reset to its draft (at %s) and has not started again; settled",
        what,
        tournament_id,
        resets.last_at,
    )
    return True
