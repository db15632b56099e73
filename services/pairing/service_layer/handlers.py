"""Pairing's handlers. The consumer records facts (a tournament started, a game finished) and announces
when a round is due; the pairing worker pairs it; the organiser publishes a knockout round. Each takes
the tournament's row lock first, so the work on one tournament is serialised while different
tournaments proceed in parallel, and hands the work to the flow of the tournament's system."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from services.pairing.domain import errors
from services.pairing.service_layer import commands
from services.pairing.service_layer.flows import Flow, Flows
from services.pairing.service_layer.ports import PairingUnitOfWork


class Handlers:
    def __init__(self, flows: Flows) -> None:
        self.flows = flows

    def table(self) -> dict[type, Callable[[Any, PairingUnitOfWork], Any]]:
        return {commands.PublishRound: self.publish_round}

    # -- consumer -----------------------------------------------------------------------------------
    def on_tournament_started(self, cmd: commands.StartTournament, uow: PairingUnitOfWork) -> None:
        if uow.lock(cmd.tournament_id) is not None:
            return  # started already
        self.flows.starting(cmd).start(cmd, uow)

    def on_game_finished(self, cmd: commands.RecordResult, uow: PairingUnitOfWork) -> None:
        self._flow(uow, cmd.tournament_id).record_result(cmd, uow)  # an unknown one: retried, then DLQ

    # -- worker -------------------------------------------------------------------------------------
    def on_round_due(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None:
        """Pair a due round unless it is paired already. The row lock serialises workers; the rounds'
        primary key would still refuse a second pairing (``RoundTaken``, retried, and the retry finds
        the round paired)."""
        self._flow(uow, cmd.tournament_id).pair_round(cmd, uow)

    # -- commands -----------------------------------------------------------------------------------
    def publish_round(self, cmd: commands.PublishRound, uow: PairingUnitOfWork) -> None:
        with uow:
            self._flow(uow, cmd.tournament_id).publish_round(cmd, uow)
            uow.commit()

    def _flow(self, uow: PairingUnitOfWork, tournament_id: uuid.UUID) -> Flow:
        system = uow.lock(tournament_id)
        if system is None:
            raise errors.TournamentNotFound(f"no tournament {tournament_id}")
        return self.flows.of(system)
