"""Migration 0003 (the arbiter's authority) on PostgreSQL: a database holding tournaments paired before
it upgrades in place — they offer no byes on request, nobody has withdrawn, no game was replaced — and
the service goes on with them (a withdrawal, a bye, a correction, appointments); it downgrades again."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic import command

from services.pairing.adapters import wire
from services.pairing.bootstrap import MIGRATIONS, Pairing, bootstrap
from services.pairing.config import PairingSettings
from services.pairing.domain.arbiters import Arbiters
from services.pairing.service_layer import commands
from services.pairing.tests.helpers import NOW, started
from shared.commands import Actor
from shared.database import alembic_config, make_engine, upgrade
from shared.messaging.inprocess import InProcessBroker
from shared.scoring import Outcome
from shared.timesource import FakeClock

pytestmark = pytest.mark.integration

NEW_TABLES = {"arbiters", "bye_requests"}
NEW_COLUMNS = {
    ("tournaments", "byes_on_request"),
    ("players", "withdrawn_at"),
    ("players", "excluded"),
    ("players", "withdrawal_reason"),
    ("games", "replaced_by"),
}


@pytest.fixture
def url(servers) -> Iterator[str]:
    yield servers.create_database(f"pairing_mig_{uuid.uuid4().hex[:8]}")


def columns(engine: sa.Engine) -> set[tuple[str, str]]:
    inspector = sa.inspect(engine)
    return {(t, c["name"]) for t in inspector.get_table_names() for c in inspector.get_columns(t)}


def downgrade(engine: sa.Engine, revision: str) -> None:
    cfg = alembic_config(MIGRATIONS, engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def old_tournament(engine: sa.Engine) -> tuple[uuid.UUID, uuid.UUID, list[uuid.UUID], uuid.UUID]:
    """A Swiss of eight as revision 0002 stored it: round 1 paired, one result in."""
    tid, organiser = uuid.uuid4(), uuid.uuid4()
    players = [uuid.uuid4() for _ in range(8)]
    game = uuid.uuid4()
    tc = {"base_seconds": 180, "increment_seconds": 2, "days_per_move": None}
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO tournaments (id, organiser_id, name, ruleset, system, total_rounds, double_cycle,"
                " double_rounds, time_control, status, started_at) VALUES (:id, :org, 'Old', 'platform',"
                " 'swiss', 4, false, false, CAST(:tc AS JSON), 'running', :at)"
            ),
            {"id": tid, "org": organiser, "tc": json.dumps(tc), "at": NOW},
        )
        for seed, pid in enumerate(players, start=1):
            conn.execute(
                sa.text("INSERT INTO players (tournament_id, seed, player_id, name) VALUES (:t, :s, :p, :n)"),
                {"t": tid, "s": seed, "p": pid, "n": f"P{seed}"},
            )
        conn.execute(
            sa.text(
                "INSERT INTO rounds (tournament_id, number, paired_at, published_at) VALUES (:t, 1, :at, :at)"
            ),
            {"t": tid, "at": NOW},
        )
        for board in range(1, 5):
            conn.execute(
                sa.text(
                    "INSERT INTO games (game_id, tournament_id, round, board, leg, white_seed, black_seed,"
                    " outcome, finished_at) VALUES (:g, :t, 1, :b, 1, :w, :bl, :o, :f)"
                ),
                {
                    "g": game if board == 1 else uuid.uuid4(),
                    "t": tid,
                    "b": board,
                    "w": board,
                    "bl": board + 4,
                    "o": "1-0" if board == 1 else None,
                    "f": NOW if board == 1 else None,
                },
            )
    return tid, organiser, players, game


def test_a_database_of_revision_0002_upgrades_and_goes_on(url: str) -> None:
    engine = make_engine(url)
    try:
        upgrade(MIGRATIONS, engine, "0002")
        assert not NEW_COLUMNS & columns(engine)
        tid, _, players, game = old_tournament(engine)
        upgrade(MIGRATIONS, engine)
        assert columns(engine) >= NEW_COLUMNS
        assert set(sa.inspect(engine).get_table_names()) >= NEW_TABLES
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT byes_on_request FROM tournaments")).scalar_one() is False

        svc: Pairing = bootstrap(
            PairingSettings(ARBITER_PAIRING_DATABASE_URL=url),
            engine=engine,
            broker=InProcessBroker(),
            clock=FakeClock(NOW),
        )
        with svc.uow() as uow:
            t = uow.tournaments.get(tid)
        assert t is not None and not t.byes_on_request and t.withdrawals == {} and t.bye_requests == {}
        assert t.game(game).outcome is Outcome.WHITE_WIN

        arbiter = uuid.uuid4()
        with svc.uow() as uow:
            arbiters = Arbiters(tid)
            arbiters.appoint(arbiter, [game], at=NOW)
            uow.arbiters.add(arbiters)
            svc.handlers.on_player_withdrawn(
                commands.RecordWithdrawal(tid, players[7], excluded=True, reason="conduct", at=NOW), uow
            )
            uow.commit()
        corrected = svc.bus.handle(
            commands.CorrectResult(
                Actor(arbiter, roles=frozenset({"arbiter"})), game, Outcome.DRAW, "misread"
            )
        )
        assert (corrected.old_outcome, corrected.outcome) == (Outcome.WHITE_WIN, Outcome.DRAW)
        with svc.uow() as uow:
            t = uow.tournaments.get(tid)
        assert t is not None and t.withdrawals[8].excluded and t.game(game).outcome is Outcome.DRAW

        downgrade(engine, "0002")
        assert not NEW_COLUMNS & columns(engine)
        assert not NEW_TABLES & set(sa.inspect(engine).get_table_names())
        upgrade(MIGRATIONS, engine)  # and back up: nothing left behind blocks it
        assert columns(engine) >= NEW_COLUMNS
    finally:
        engine.dispose()


def test_a_fresh_database_runs_the_whole_story(url: str) -> None:
    """The migrated schema is the one the service writes: a tournament of rounds started, paired and
    decided on it (an arbiter before the start, a bye, a withdrawal)."""
    svc = bootstrap(
        PairingSettings(ARBITER_PAIRING_DATABASE_URL=url),
        broker=InProcessBroker(),
        clock=FakeClock(NOW),
        migrate=True,
    )
    try:
        ev = started(8, ruleset="fide-rapid", byes_on_request=True)
        arbiter = uuid.uuid4()
        with svc.uow() as uow:
            svc.handlers.on_arbiter(commands.RecordAppointment(ev.tournament_id, arbiter, None, NOW), uow)
            svc.handlers.on_tournament_started(wire.start(ev), uow)
            svc.handlers.on_round_due(commands.PairRound(ev.tournament_id, 1), uow)
            uow.commit()
        player = ev.roster[0].player_id
        svc.bus.handle(commands.RequestBye(Actor(arbiter), ev.tournament_id, player, 2))
        with svc.uow() as uow:
            t = uow.tournaments.get(ev.tournament_id)
        assert t is not None and t.byes_on_request and (2, 1) in t.bye_requests
        assert t.bye_requests[(2, 1)].decision.role.value == "arbiter"
    finally:
        svc.engine.dispose()


def test_migration_0010_counts_one_decision_for_each_match_decided_before(url: str) -> None:
    """Issue 22: ``matches.decisions`` (``match.decided``'s revision): a match decided before the
    migration counts one decision, so that its first decision after a correction is its second."""
    engine = make_engine(url)
    try:
        upgrade(MIGRATIONS, engine, "0009")
        tid = uuid.uuid4()
        tc = {"base_seconds": 600, "increment_seconds": 5, "days_per_move": None}
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO tournaments (id, organiser_id, name, ruleset, system, total_rounds,"
                    " double_cycle, double_rounds, time_control, status, started_at) VALUES (:id, :org,"
                    " 'Cup', 'knockout', 'knockout', 2, false, false, CAST(:tc AS JSON), 'running', :at)"
                ),
                {"id": tid, "org": uuid.uuid4(), "tc": json.dumps(tc), "at": NOW},
            )
            conn.execute(
                sa.text("INSERT INTO rounds (tournament_id, number, paired_at) VALUES (:t, 1, :at)"),
                {"t": tid, "at": NOW},
            )
            for number, how in ((1, "regular"), (2, None)):
                conn.execute(
                    sa.text(
                        "INSERT INTO matches (tournament_id, match_id, round, board, seed_a, seed_b,"
                        " first_white, how, decided_at) VALUES (:t, :m, 1, :n, :n, 5 - :n, 0, :how, :at)"
                    ),
                    {"t": tid, "m": f"winners:1:{number}", "n": number, "how": how, "at": how and NOW},
                )
        upgrade(MIGRATIONS, engine)
        with engine.connect() as conn:
            counted = conn.execute(sa.text("SELECT match_id, decisions FROM matches ORDER BY match_id")).all()
        assert [tuple(row) for row in counted] == [("winners:1:1", 1), ("winners:1:2", 0)]
        downgrade(engine, "0009")
        assert ("matches", "decisions") not in columns(engine)
    finally:
        engine.dispose()
