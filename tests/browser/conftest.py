from __future__ import annotations

from collections.abc import Iterator

import pytest

from .loopback_site import serve


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """The base URL of the loopback test site."""
    yield from serve()
