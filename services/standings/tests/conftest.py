"""The standings service on the embedded adapters (SQLite, in-process broker, a fake clock), and a
tournament story told as the events other services publish."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from services.standings.bootstrap import StandingsService, bootstrap
from services.standings.config import StandingsSettings
from services.standings.domain.tournament import snapshot_of
from services.standings.entrypoints.app import create_app
from shared import events
from shared.events import GameOutcome
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.port import Subscription
from shared.timesource import FakeClock

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
W, D, B = GameOutcome.WHITE_WIN, GameOutcome.DRAW, GameOutcome.BLACK_WIN


def embedded(url: str, broker: InProcessBroker | None = None, *, migrate: bool = True) -> StandingsService:
    """A standings service on ``url``; the broker also keeps a queue of everything published."""
    broker = broker or InProcessBroker()
    service = bootstrap(
        StandingsSettings(ARBITER_STANDINGS_DATABASE_URL=url),
        broker=broker,
        clock=FakeClock(NOW),
        migrate=migrate,
        relay_on_commit=True,
    )
    broker.subscribe(service.subscriptions)
    broker.declare([Subscription("test.everything", ("#",), lambda env, ev: None)])
    return service


@pytest.fixture
def database_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'standings.sqlite'}"


@pytest.fixture
def svc(database_url) -> Iterator[StandingsService]:
    service = embedded(database_url)
    yield service
    service.engine.dispose()


@pytest.fixture
def client(svc):
    return create_app(svc).test_client()


def deliver(svc: StandingsService, event: events.Event | events.Envelope) -> events.Envelope:
    """Publish an event (or an envelope again, as a redelivery) and let the consumer take it."""
    envelope = event if isinstance(event, events.Envelope) else events.wrap(event, event.tournament_id)  # type: ignore[attr-defined]
    svc.broker.publish([envelope])
    svc.broker.run_until_idle()  # type: ignore[attr-defined]
    dead = [d for s in svc.subscriptions for d in svc.broker.dead_letters(s.queue)]
    assert not dead, dead
    return envelope


def published(svc: StandingsService, kind: str) -> list[events.Envelope]:
    return [e for e in svc.broker.published if e.type == kind]  # type: ignore[attr-defined]


def snapshot(svc: StandingsService, tournament_id: uuid.UUID) -> dict[str, Any]:
    with svc.uow() as uow:
        found = uow.tournaments.summary(tournament_id)
    assert found is not None
    return found[1]


def recomputed(svc: StandingsService, tournament_id: uuid.UUID) -> dict[str, Any]:
    """The snapshot computed from scratch from the stored rows."""
    with svc.uow() as uow:
        found = uow.tournaments.get(tournament_id)
    assert found is not None
    t = found[0]
    standings = t.standings()
    return snapshot_of(t, standings.table() if standings else None)


def table(svc: StandingsService, tournament_id: uuid.UUID) -> list[tuple[Any, ...]]:
    """(rank, seed, points, ranking tie-breaks, shown) of each row, in table order."""
    rows = snapshot(svc, tournament_id)["table"]["rows"]
    return [(r["rank"], r["seed"], r["points"], r["tiebreaks"], r["shown"]) for r in rows]


class Story:
    """One tournament told as events: started by registration, paired by pairing, played on the
    clocks. Players are named by seed; pairings are (white, black) seeds; with double rounds each
    pairing is played as leg 1 (as given) and leg 2 (colours swapped)."""

    def __init__(
        self,
        svc: StandingsService,
        players: int,
        *,
        system: str = "round_robin",
        rounds: int | None = None,
        double_rounds: bool = False,
        ruleset: str = "platform",
        names: Sequence[str] | None = None,
        send: Callable[[StandingsService, Any], events.Envelope] = deliver,
    ) -> None:
        self.svc = svc
        self.send = send
        self.system = system
        self.total_rounds = rounds or (players - 1 if players % 2 == 0 else players)
        self.double_rounds = double_rounds
        self.id = uuid.uuid4()
        self.organiser = uuid.uuid4()
        self.player_ids = {seed: uuid.uuid4() for seed in range(1, players + 1)}
        self.started = events.TournamentStarted(
            tournament_id=self.id,
            organiser_id=self.organiser,
            name="Sunday blitz",
            started_at=NOW,
            settings=events.TournamentSettings(
                ruleset=ruleset,
                double_rounds=double_rounds,
                time_control=events.TimeControl(base_seconds=180, increment_seconds=2),
            ),
            roster=[
                events.RosterEntry(
                    seed=seed,
                    player_id=pid,
                    name=names[seed - 1] if names else f"Player {seed}",
                    rating=2100 - 50 * seed,
                )
                for seed, pid in self.player_ids.items()
            ],
        )
        self.paired: dict[int, events.RoundPaired] = {}
        self.envelopes: list[events.Envelope] = []

    def _send(self, event: Any) -> events.Envelope:
        envelope = self.send(self.svc, event)
        self.envelopes.append(envelope)
        return envelope

    def start(self) -> Story:
        self._send(self.started)
        return self

    def pair(
        self, number: int, pairs: Sequence[tuple[int, int]], bye: int | None = None
    ) -> events.RoundPaired:
        games = []
        for board, (white, black) in enumerate(pairs, start=1):
            legs = [(white, black, 1)] + ([(black, white, 2)] if self.double_rounds else [])
            for w, b, leg in legs:
                games.append(
                    events.PairedGame(
                        game_id=uuid.uuid5(self.id, f"{number}/{board}/{leg}"),
                        board=board,
                        white=self.player_ids[w],
                        black=self.player_ids[b],
                        leg=leg,
                    )
                )
        event = events.RoundPaired(
            tournament_id=self.id,
            organiser_id=self.organiser,
            round=number,
            total_rounds=self.total_rounds,
            system=self.system,
            games=games,
            byes=[events.Bye(player_id=self.player_ids[bye])] if bye else [],
            time_control=events.TimeControl(base_seconds=180, increment_seconds=2),
        )
        self.paired[number] = event
        self._send(event)
        return event

    def finished(self, number: int, white: int, black: int, outcome: GameOutcome) -> events.GameFinished:
        """The game in round ``number`` with these colours (for double rounds: whichever leg has them)."""
        wid, bid = self.player_ids[white], self.player_ids[black]
        game = next(g for g in self.paired[number].games if (g.white, g.black) == (wid, bid))
        return events.GameFinished(
            tournament_id=self.id,
            game_id=game.game_id,
            round=number,
            white=wid,
            black=bid,
            outcome=outcome,
            reason="reported",
            moves=40,
            finished_at=NOW,
        )

    def result(self, number: int, white: int, black: int, outcome: GameOutcome) -> events.Envelope:
        return self._send(self.finished(number, white, black, outcome))

    def play(self, number: int, boards: Sequence[tuple[Any, ...]], bye: int | None = None) -> None:
        """Pair a round and report its games: each board is ``(white, black, outcome)``, with double
        rounds ``(white, black, leg 1 outcome, leg 2 outcome)`` (leg 2: ``black`` has White)."""
        self.pair(number, [(board[0], board[1]) for board in boards], bye)
        for white, black, *outcomes in boards:
            self.result(number, white, black, outcomes[0])
            if self.double_rounds:
                self.result(number, black, white, outcomes[1])

    def complete(self) -> events.Envelope:
        return self._send(
            events.TournamentCompleted(
                tournament_id=self.id, organiser_id=self.organiser, rounds=self.total_rounds, completed_at=NOW
            )
        )
