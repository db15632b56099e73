"""Settings come from ARBITER_CLOCKS_* variables with local defaults; the CLI names its commands."""

from __future__ import annotations

import pytest

from services.clocks.__main__ import PROCESSES
from services.clocks.bootstrap import bootstrap
from services.clocks.config import ClocksSettings
from shared.runtime import service_main


def test_defaults_are_local():
    settings = ClocksSettings()
    assert settings.database_url.endswith("/arbiter_clocks")
    assert (settings.tick_seconds, settings.sweep_seconds, settings.tick_batch) == (0.1, 1.0, 100)


def test_the_environment_sets_them(monkeypatch):
    monkeypatch.setenv("ARBITER_CLOCKS_DATABASE_URL", "sqlite:///x.sqlite")
    monkeypatch.setenv("ARBITER_CLOCKS_TICK_SECONDS", "0.25")
    monkeypatch.setenv("ARBITER_CLOCKS_SWEEP_SECONDS", "3")
    monkeypatch.setenv("ARBITER_REDIS_PREFIX", "t1:")
    settings = ClocksSettings()
    assert settings.database_url == "sqlite:///x.sqlite"
    assert (settings.tick_seconds, settings.sweep_seconds, settings.redis_prefix) == (0.25, 3.0, "t1:")


def test_a_tick_must_take_time(monkeypatch):
    monkeypatch.setenv("ARBITER_CLOCKS_TICK_SECONDS", "0")
    with pytest.raises(ValueError, match="greater than 0"):
        ClocksSettings()


@pytest.mark.parametrize("argv", [[], ["serve"], ["ticker", "now"]])
def test_unknown_commands_print_the_usage(argv, capsys):
    assert service_main("clocks", argv, bootstrap, PROCESSES) == 2
    assert "migrate|consumer|relay|ticker" in capsys.readouterr().err
