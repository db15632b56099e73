"""The login file, ratings as `account create` takes them, forfeits as arguments, and how numbers and
counts are written."""

from __future__ import annotations

import stat
import uuid
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli import config
from cli.accounts import parse_ratings
from cli.client import Api
from cli.main import build_cli
from cli.text import plural, points


@pytest.fixture
def login_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "login.json"
    monkeypatch.setenv("ARBITER_CONFIG", str(path))
    monkeypatch.delenv("ARBITER_TOKEN", raising=False)
    return path


def test_the_saved_login_is_the_token_when_none_is_given(login_file: Path) -> None:
    assert Api({}, None).token is None
    config.save({"token": "saved", "account_id": str(uuid.uuid4()), "name": "Ann"})
    assert stat.S_IMODE(login_file.stat().st_mode) == 0o600  # a bearer credential
    assert Api({}, None).token == "saved"
    assert Api({}, "given").token == "given"  # --token / ARBITER_TOKEN first
    assert config.forget() == login_file and Api({}, None).token is None


def test_a_login_file_that_is_no_json_object_is_a_clear_error(login_file: Path) -> None:
    login_file.write_text("[1, 2]")
    with pytest.raises(click.ClickException, match="not an arbiter login file"):
        config.saved_token()


def test_logout_without_a_login(login_file: Path) -> None:
    result = CliRunner().invoke(build_cli(), ["logout"])
    assert result.exit_code == 0 and result.output == "not logged in\n"


def test_a_command_needing_a_token_says_how_to_get_one(login_file: Path) -> None:
    result = CliRunner().invoke(build_cli(), ["join", str(uuid.uuid4())])
    assert result.exit_code == 2 and "arbiter login ACCOUNT_ID" in result.output


def test_ratings_alone_or_by_variant_and_speed() -> None:
    every = parse_ratings(("1850",))
    assert every["chess:blitz"] == every["chess:classical"] == 1850 and len(every) == 6
    assert parse_ratings(("1850", "chess:blitz=1900")) == {**every, "chess:blitz": 1900}
    with pytest.raises(click.BadParameter, match="chess:blitz=1850"):
        parse_ratings(("fast",))


@pytest.mark.parametrize("command", [["report", str(uuid.uuid4())], ["correct", str(uuid.uuid4())]])
@pytest.mark.parametrize("forfeit", ["-/+", "+/-", "-/-"])
def test_forfeits_are_results_not_options(command: list[str], forfeit: str) -> None:
    args = [*command, forfeit, "--reason", "no show", "--token", "t"]
    urls = (
        ["--clocks-url", "http://127.0.0.1:9"]
        if command[0] == "report"
        else ["--pairing-url", "http://127.0.0.1:9"]
    )
    result = CliRunner().invoke(build_cli(), [*args, *urls])
    assert "No such option" not in result.output
    assert "cannot reach" in result.output  # the result was taken; the (absent) service was asked


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (0.5, "½"),
        (2.5, "2½"),
        (3.0, "3"),
        (Fraction(23, 2), "11½"),
        (11.75, "11.75"),
        (-0.5, "-½"),
        (None, "-"),
    ],
)
def test_half_points_are_one_sign(value: float | Fraction | None, text: str) -> None:
    assert points(value) == text


def test_plurals() -> None:
    assert [plural(n, "player") for n in (0, 1, 2)] == ["0 players", "1 player", "2 players"]
    assert plural(2, "entry", "entries") == "2 entries"
