"""One flow per format: how a tournament of that format starts, pairs a round, takes a result and
publishes a round. A handler takes the tournament's row lock, which says its system, and hands the work
to the flow of that system; nothing else branches on the format.

Formats now: ``rounds`` (round robin and Swiss, the `platform` ruleset) and ``elimination`` (knockout
and double knockout). Another format (the arena, the group-playoff event) is another flow listed in
``bootstrap.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

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
    def publish_round(self, cmd: commands.PublishRound, uow: PairingUnitOfWork) -> None: ...


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
