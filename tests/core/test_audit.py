"""The audit log: one well-formed record per call, secrets redacted."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from agenthost.audit import REDACTED, redact

from .tools_for_tests import TestTools


def records(workspace: Path) -> list[dict]:
    files = sorted((workspace / ".agenthost" / "audit").glob("*.jsonl"))
    lines = [line for f in files for line in f.read_text().splitlines()]
    return [json.loads(line) for line in lines]


async def test_thousand_concurrent_calls_give_thousand_records(make_host, workspace: Path) -> None:
    host = await make_host(hooks=[TestTools()])
    calls = [host.call("limited", {"limit": 1 + i % 100}) for i in range(900)]
    calls += [host.call("blocking", {"seconds": 0}) for _ in range(50)]
    calls += [host.call("missing") for _ in range(50)]
    results = await asyncio.gather(*calls)
    found = records(workspace)
    assert len(found) == 1000
    assert {r["call_id"] for r in found} == {r.call_id for r in results}
    statuses = [r["status"] for r in found]
    assert statuses.count("ok") == 950 and statuses.count("not_found") == 50
    for record in found:
        assert set(record) >= {
            "ts",
            "call_id",
            "session",
            "tool",
            "arguments",
            "decision",
            "status",
            "duration_ms",
            "summary",
        }


async def test_records_hold_decision_and_outcome(make_host, workspace: Path) -> None:
    host = await make_host(hooks=[TestTools()], config={"policy": {"deny": ["run(rm *)"]}})
    await host.call("run", {"command": "rm -rf x"})
    await host.call("nosuch", {})
    await host.call("limited", {"limit": 1000})
    denied, unknown, invalid = records(workspace)
    assert (denied["decision"], denied["rule"], denied["status"]) == ("deny", "run(rm *)", "denied")
    assert unknown["status"] == "unknown_tool" and unknown["decision"] is None
    assert invalid["status"] == "invalid_arguments"


async def test_secrets_are_redacted(make_host, workspace: Path) -> None:
    host = await make_host(hooks=[TestTools()])
    await host.call("fetch", {"url": "https://x.example/?q=1", "api_key": "hunter2hunter2"})
    await host.call("run", {"command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz' x"})
    first, second = records(workspace)
    assert first["arguments"]["api_key"] == REDACTED
    assert "abcdefghijklmnopqrstuvwxyz" not in json.dumps(second)


def test_redact_rules() -> None:
    assert redact({"password": "x", "nested": {"GITHUB_TOKEN": "y"}, "ok": "z"}) == {
        "password": REDACTED,
        "nested": {"GITHUB_TOKEN": REDACTED},
        "ok": "z",
    }
    assert redact("key sk-abcdefghijklmnopqrstu here") == f"key {REDACTED} here"
    assert redact("x" * 5000).endswith("chars cut]")


async def test_audit_can_be_turned_off(make_host, workspace: Path) -> None:
    host = await make_host(hooks=[TestTools()], config={"audit": {"enabled": False}})
    await host.call("limited")
    assert not (workspace / ".agenthost").exists()


def test_records_go_to_the_file_of_their_local_day(tmp_path: Path, monkeypatch) -> None:
    import time
    from types import SimpleNamespace

    from agenthost import audit

    clock = [time.mktime((2026, 11, 22, 23, 59, 58, 0, 0, -1))]
    fake = SimpleNamespace(
        time=lambda: clock[0],
        localtime=lambda: time.localtime(clock[0]),
        strftime=time.strftime,
        mktime=time.mktime,
    )
    monkeypatch.setattr(audit, "time", fake)
    log = audit.AuditLog(tmp_path)
    log.write({"n": 1})
    clock[0] += 1  # 23:59:59, same day
    log.write({"n": 2})
    clock[0] += 2  # 00:00:01 the next day
    log.write({"n": 3})
    log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-11-22.jsonl", "2026-11-23.jsonl"]
    assert (tmp_path / "2026-11-22.jsonl").read_text().count("\n") == 2
    assert json.loads((tmp_path / "2026-11-23.jsonl").read_text()) == {"n": 3}
