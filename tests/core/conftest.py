from __future__ import annotations

from pathlib import Path

import pytest

SITE = Path(__file__).parent / "site"


@pytest.fixture
def fixture_site(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put the test plugins (sample, broken, raising, zdup) where entry points are found."""
    monkeypatch.syspath_prepend(str(SITE))
    monkeypatch.delenv("AGENTHOST_PLUGINS", raising=False)
    monkeypatch.delenv("AGENTHOST_DISABLE_PLUGINS", raising=False)
    return SITE
