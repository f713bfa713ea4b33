"""Shared pieces of the shell tests."""

from __future__ import annotations

import random
import shutil
import time
from typing import Any

import psutil
import pytest


def shell_config(**settings: Any) -> dict[str, Any]:
    """A host config with ``[plugins.shell]`` settings (a short kill grace by default)."""
    return {"plugins": {"shell": {"kill_grace_s": 0.5, **settings}}}


def new_marker() -> str:
    """Digits unique to one test, used as sleep durations so that every
    process a test starts can be found by its command line."""
    return str(random.randint(10_000, 99_999))


def find_marked(marker: str) -> list[psutil.Process]:
    """Live (non-zombie) processes whose command line mentions ``marker``."""
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            if any(marker in arg for arg in proc.info["cmdline"] or ()):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def wait_for_marked(marker: str, count: int, timeout: float = 10.0) -> list[psutil.Process]:
    """Wait until at least ``count`` marked ``sleep`` processes run (the
    shells and sandboxes around them also mention the marker, and do not count)."""
    deadline = time.monotonic() + timeout
    while True:
        found = []
        for proc in find_marked(marker):
            try:
                if proc.name() == "sleep":
                    found.append(proc)
            except psutil.Error:
                continue
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def kill_marked(marker: str) -> None:
    """Clean up after a failed test so that it does not leak processes."""
    for proc in find_marked(marker):
        try:
            proc.kill()
        except psutil.Error:
            pass


def need_bwrap() -> None:
    if shutil.which("bwrap") is None:
        pytest.skip(reason="bwrap not on PATH (apt-get install bubblewrap)")


# A tree that resists: every member ignores SIGTERM; one child left the
# process group with setsid, one was orphaned by `setsid -f`, one by a
# double fork. `{m}` becomes the marker.
RESISTANT_TREE = """
trap '' TERM
sleep 1{m} &
bash -c 'trap "" TERM; sleep 2{m} & wait' &
setsid bash -c 'trap "" TERM; sleep 3{m}' &
setsid -f sleep 4{m}
( sleep 5{m} & )
echo ready
wait
"""
RESISTANT_COUNT = 5  # sleeps (the bash wrappers come on top)
