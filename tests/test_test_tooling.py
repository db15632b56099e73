"""The test run's own tooling: the database templates (tests/templates.py) and the timings summary
(tests/timings.py)."""

from __future__ import annotations

import importlib
import types

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from shared.database import make_engine
from tests import changed, templates, timings

SERVICES = ("registration", "pairing", "clocks", "standings")


@pytest.mark.parametrize("name", SERVICES)
def test_a_database_copied_from_the_template_is_the_migrated_schema(name, tmp_path):
    bootstrap = importlib.import_module(f"services.{name}.bootstrap")
    orm = importlib.import_module(f"services.{name}.adapters.orm")
    engine = make_engine(f"sqlite:///{tmp_path / 'copy.sqlite'}")
    try:
        templates.upgrade(bootstrap.MIGRATIONS, engine)
        with engine.connect() as conn:
            assert list(compare_metadata(MigrationContext.configure(conn), orm.metadata)) == []
            head = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
    finally:
        engine.dispose()
    assert head == sorted(p.stem for p in (bootstrap.MIGRATIONS / "versions").glob("0*.py"))[-1].split("_")[0]


def test_a_changed_migration_names_another_template(tmp_path):
    (tmp_path / "versions").mkdir()
    (tmp_path / "versions" / "0001_a.py").write_text("revision = '0001'\n")
    before = templates.fingerprint(tmp_path)
    (tmp_path / "versions" / "0001_a.py").write_text("revision = '0001'  # changed\n")
    assert templates.fingerprint(tmp_path) != before


@pytest.mark.parametrize(
    ("nodeid", "directory"),
    [
        ("services/pairing/tests/unit/test_x.py::test_y[1]", "services/pairing/tests/unit"),
        ("services/clocks/tests/test_x.py::test_y", "services/clocks/tests"),
        ("tests/e2e/test_arena.py::test_y", "tests/e2e"),
        ("tests/test_docs.py::test_y", "tests"),
        ("shared/tests/test_x.py::T::test_y", "shared/tests"),
        ("cli/tests/test_x.py::test_y", "cli/tests"),
    ],
)
def test_each_test_counts_in_its_directory(nodeid, directory):
    assert timings.directory_of(nodeid) == directory


def test_the_summary_adds_up_each_directory_and_names_the_slowest():
    summary = timings.Timings()
    for nodeid, seconds in [
        ("tests/e2e/test_a.py::t1", 3.0),
        ("tests/e2e/test_a.py::t1", 1.0),  # its teardown
        ("tests/e2e/test_b.py::t2", 2.0),
        ("shared/tests/test_c.py::t3", 0.5),
    ]:
        summary.add(types.SimpleNamespace(nodeid=nodeid, duration=seconds))  # type: ignore[arg-type]
    lines = summary.lines()
    assert lines[1].split() == ["tests/e2e", "2", "6.0", "92%"]
    assert lines[2].split() == ["shared/tests", "1", "0.5", "8%"]
    slowest = lines[lines.index(f"the {timings.SLOWEST} slowest tests (setup, call and teardown):") + 1 :]
    assert [line.split() for line in slowest] == [
        ["4.0s", "tests/e2e/test_a.py::t1"],
        ["2.0s", "tests/e2e/test_b.py::t2"],
        ["0.5s", "shared/tests/test_c.py::t3"],
    ]


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ([], []),
        (["services/pairing/domain/dutch/engine.py"], [["services/pairing/tests"]]),
        (
            ["services/clocks/adapters/orm.py", "cli/main.py", "services/clocks/tests/unit/test_clock.py"],
            [["services/clocks/tests", "cli/tests"]],
        ),
        (["tests/e2e/test_arena.py", "tests/e2e/stack.py"], [["tests/e2e"]]),
        (
            ["tests/e2e/test_arena.py", "tests/e2e/test_faults.py"],
            [["tests/e2e/test_arena.py", "tests/e2e/test_faults.py"]],
        ),
        (["deploy/gunicorn.conf.py", "docs/api.md"], [["tests/test_deploy.py", "tests/test_docs.py"]]),
        (["README.md"], [["tests/test_docs.py", "tests/e2e/test_quickstart.py"]]),
        (
            ["services/standings/bootstrap.py", "shared/database.py"],
            [
                ["services/standings/tests", "shared/tests"],
                [*changed.EVERYTHING, "--ignore=services/standings/tests", "--ignore=shared/tests"],
            ],
        ),
        (["pyproject.toml"], [["shared/tests"], [*changed.EVERYTHING, "--ignore=shared/tests"]]),
        (  # a root run first is not given again (pytest collects a path it is given, ignored or not)
            ["tests/servers.py", "shared/http/app.py"],
            [["tests", "shared/tests"], ["shared", "services", "cli", "--ignore=shared/tests"]],
        ),
    ],
)
def test_a_change_runs_the_tests_of_what_it_touches_first(files, expected):
    assert changed.runs(files) == expected
