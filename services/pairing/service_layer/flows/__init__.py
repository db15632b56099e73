"""One flow per format: how a tournament of that format starts, pairs a round, takes a result and
publishes a round, and how it takes the decisions of its organiser and arbiters (corrections,
withdrawals, byes on request, a reset to the draft, colours). A handler takes the tournament's row lock, which says its system, and hands the work
to the flow of that system; nothing else branches on the format.

Formats now: ``rounds`` (round robin and Swiss, the `platform` ruleset), ``elimination`` (knockout
and double knockout) and ``group_playoff`` (the 4T1 event). Another format (the arena) is another flow listed in
``bootstrap.py``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any, Protocol

from services.pairing.domain.arbiters import Arbiters
from services.pairing.service_layer import commands
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.vocabulary import System


class Flow(Protocol):
    systems: tuple[System, ...]
    """The systems this flow pairs."""
    starts: type[Any]
    """The start command it takes (one per flow)."""

    def start(self, cmd: Any, uow: PairingUnitOfWork) -> None: ...
    def pair_round(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None: ...
    def record_result(self, cmd: commands.RecordResult, uow: PairingUnitOfWork) -> None: ...
    def publish_round(
        self, cmd: commands.PublishRound, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None: ...
    def pair_on_command(
        self, cmd: commands.PairOnCommand, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None: ...
    def excuse_absence(
        self, cmd: commands.ExcuseAbsence, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> bool: ...
    def add_late_player(self, cmd: commands.AddLatePlayer, uow: PairingUnitOfWork) -> None: ...
    def record_withdrawal(self, cmd: commands.RecordWithdrawal, uow: PairingUnitOfWork) -> None: ...
    def record_colours(self, cmd: commands.RecordColours, uow: PairingUnitOfWork) -> None: ...
    def correct_result(
        self,
        cmd: commands.CorrectResult,
        tournament_id: uuid.UUID,
        arbiters: Arbiters | None,
        uow: PairingUnitOfWork,
    ) -> commands.Corrected: ...
    def request_bye(
        self, cmd: commands.RequestBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> Any: ...
    def take_back_bye(
        self, cmd: commands.TakeBackBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None: ...
    def reset(
        self, cmd: commands.ResetTournament, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None: ...


class Flows:
    """The flows of a pairing service, by system and by start command."""

    def __init__(self, flows: Iterable[Flow]) -> None:
        self._by_system: dict[System, Flow] = {}
        self._by_start: dict[type[Any], Flow] = {}
        for flow in flows:
            for system in flow.systems:
                if system in self._by_system:
                    raise ValueError(f"two flows pair {system.value}")
                self._by_system[system] = flow
            if flow.starts in self._by_start:
                raise ValueError(f"two flows start with {flow.starts.__name__}")
            self._by_start[flow.starts] = flow

    def of(self, system: System) -> Flow:
        """The flow of a tournament paired by ``system``."""
        return self._by_system[system]

    def starting(self, cmd: object) -> Flow:
        """The flow a start command begins."""
        return self._by_start[type(cmd)]
