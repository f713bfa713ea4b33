from __future__ import annotations

from collections.abc import Iterator

import pytest

from .helpers import kill_marked, new_marker


@pytest.fixture
def marker() -> Iterator[str]:
    """A unique marker; whatever still carries it after the test is killed
    (the assertions inside the test decide whether that was a failure)."""
    value = new_marker()
    yield value
    kill_marked(value)
