"""The terminal front end: a person at a terminal answers the policy's y/N prompt."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from .conftest import SITE


def run_in_pty(workspace: Path, answer: str) -> tuple[int, str, str]:
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(SITE), "AGENTHOST_PLUGINS": "sample"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "agenthost.cli", "call", "greet", '{"name": "Ada"}'],
        cwd=workspace,
        env=env,
        stdin=slave,
        stderr=slave,
        stdout=subprocess.PIPE,
        text=True,
    )
    os.close(slave)
    seen = ""
    deadline = time.monotonic() + 60
    while "[y/N]" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1)
        if ready:
            seen += os.read(master, 1024).decode(errors="replace")
    os.write(master, answer.encode() + b"\n")
    stdout, _ = proc.communicate(timeout=60)
    os.close(master)
    return proc.returncode, stdout, seen


def test_yes_allows_the_call(workspace: Path) -> None:
    (workspace / "agenthost.toml").write_text('[policy]\nask = ["greet"]\n')
    code, stdout, prompt = run_in_pty(workspace, "y")
    assert "allow greet" in prompt and "rule: greet" in prompt
    assert (code, stdout) == (0, "Hello, Ada!\n")


def test_no_denies_the_call(workspace: Path) -> None:
    (workspace / "agenthost.toml").write_text('[policy]\nask = ["greet"]\n')
    code, stdout, _ = run_in_pty(workspace, "n")
    assert (code, stdout) == (1, "")
