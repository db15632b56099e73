"""``arbiter pair --dutch IN -p [OUT]``: bbpPairings' arguments, output and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dutch"


def test_pairs_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair", "--dutch", str(FIXTURES / "017.trf"), "-p"]) == 0
    assert capsys.readouterr().out == (FIXTURES / "017.pairs").read_text()


def test_pairs_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "round.txt"
    assert main(["pair", "--dutch", str(FIXTURES / "031.trf"), "-p", str(out)]) == 0
    assert out.read_text() == (FIXTURES / "031.pairs").read_text()


def test_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.trf"
    assert main(["pair", "--dutch", str(missing), "-p"]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err
    assert "Traceback" not in err


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.trf"
    path.write_text(text)
    return path


PLAYER = (
    "001    1      A                                 2000                             1.0    1     2 w 1\n"
)
OTHER = (
    "001    2      B                                 1900                             0.0    2     1 b 0\n"
)


def test_a_line_breaking_the_layout_names_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = OTHER.replace("1 b 0", "1 x 0")
    path = _write(tmp_path, "012 Test\nXXR 3\n" + PLAYER + bad)
    assert main(["pair", "--dutch", str(path), "-p"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:4:" in err
    assert "colour" in err


def test_unknown_player_number_names_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "XXR 3\n" + PLAYER.replace("     2 w 1", "     7 w 1") + OTHER)
    assert main(["pair", "--dutch", str(path), "-p"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2:" in err
    assert "unknown opponent 7" in err


def test_missing_number_of_rounds_is_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, PLAYER + OTHER)
    assert main(["pair", "--dutch", str(path), "-p"]) == 2
    assert "XXR" in capsys.readouterr().err


def test_no_valid_pairing_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the only two players have met: nothing can be paired
    path = _write(tmp_path, "XXR 3\n" + PLAYER + OTHER)
    assert main(["pair", "--dutch", str(path), "-p"]) == 1
    captured = capsys.readouterr()
    assert "No valid pairing exists" in captured.err
    assert captured.out == ""


def test_the_system_must_be_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair", str(FIXTURES / "017.trf"), "-p"]) == 2
    assert "--dutch" in capsys.readouterr().err


def test_a_binary_file_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.trf"
    path.write_bytes(b"XXR 3\n" + PLAYER.encode() + b"\x00\x01\x02\xff garbage\n")
    assert main(["pair", "--dutch", str(path), "-p"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:3: control character 0x00 in column 1" in err and "Traceback" not in err


def test_cr_only_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # bbpPairings' own files end their lines with CR alone
    text = (FIXTURES / "017.trf").read_text().replace("\n", "\r")
    path = tmp_path / "cr.trf"
    path.write_bytes(text.encode())
    assert main(["pair", "--dutch", str(path), "-p"]) == 0
    assert capsys.readouterr().out == (FIXTURES / "017.pairs").read_text()
