"""The one result-code table the pairing and the standings read and write TRF files by."""

import pytest

from shared.scoring import Outcome, side_results
from shared.trf import ResultCode
from shared.trf.results import BYES, CODES, RESULTS, UNRATED, codes_of
from shared.vocabulary import ByeKind


def test_every_code_reads_as_a_result_and_every_written_code_reads_back() -> None:
    assert set(RESULTS) == set(ResultCode)
    for result, code in CODES.items():
        assert RESULTS[code] is result
    for rated, unrated in UNRATED.items():
        assert RESULTS[unrated] is RESULTS[rated]
        assert rated.played and unrated.played


@pytest.mark.parametrize("outcome", [o for o in Outcome if o is not Outcome.NOT_PLAYED])
def test_a_games_codes_read_back_as_its_sides_results(outcome: Outcome) -> None:
    white, black = codes_of(outcome)
    assert (RESULTS[white], RESULTS[black]) == side_results(outcome)


def test_a_game_not_played_has_no_codes() -> None:
    with pytest.raises(KeyError):
        codes_of(Outcome.NOT_PLAYED)


def test_every_kind_of_bye_has_a_bye_code() -> None:
    assert set(BYES) == set(ByeKind)
    assert all(code.is_bye and code.played is False for code in BYES.values())
    assert len(set(BYES.values())) == len(ByeKind)
