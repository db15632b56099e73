from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.stack import Stack, running_stack
from tests.e2e.story import Story


@pytest.fixture(scope="session")
def stack(servers) -> Iterator[Stack]:
    with (
        tempfile.TemporaryDirectory(prefix="arbiter_e2e_") as tmp,
        running_stack(servers, Path(tmp)) as running,
    ):
        yield running


@pytest.fixture
def story(stack: Stack) -> Story:
    return Story(stack)
