"""MCP front end benchmark: ``agenthost serve`` against the SDK's own
``MCPServer`` exposing the same trivial function, both over stdio, both
driven by the official MCP client in one run.

Figures:
  1. tools/call round trips per second (sequential calls, one client);
     agenthost runs with policy rules and the audit log on. Goal >= 0.9x.
  2. time from process start to the first tools/list answer.

Run: ``python bench/mcp.py [--seconds 4] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# this file is bench/mcp.py: keep its folder from shadowing the MCP SDK
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from mcp import Client, StdioServerParameters  # noqa: E402

PLUGIN = '''
from agenthost import hookimpl, tool


@tool
def echo(text: str) -> str:
    """Return the text unchanged.

    :param text: what to return
    """
    return text


@hookimpl
def agenthost_register_tools(register):
    register(echo)
'''

BASELINE = '''
from mcp.server.mcpserver import MCPServer

app = MCPServer("baseline")


@app.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


app.run()
'''

CONFIG = """
[policy]
deny = ["echo(forbidden*)"]
allow = ["echo(*)"]

[audit]
enabled = true
"""


def prepare(folder: Path) -> tuple[StdioServerParameters, StdioServerParameters, Path]:
    (folder / "bench_echo_plugin.py").write_text(PLUGIN)
    info = folder / "agenthost_benchecho-0.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: agenthost-benchecho\nVersion: 0.0.0\n")
    (info / "entry_points.txt").write_text("[agenthost]\nbenchecho = bench_echo_plugin\n")
    (folder / "baseline_server.py").write_text(BASELINE)
    workspace = folder / "ws"
    workspace.mkdir()
    (workspace / "agenthost.toml").write_text(CONFIG)
    script = Path(sys.executable).with_name("agenthost")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "agenthost.cli"]
    env = {"PYTHONPATH": str(folder), "PATH": os.environ.get("PATH", "")}
    ours = StdioServerParameters(
        command=command[0],
        args=[*command[1:], "serve", "--workspace", str(workspace), "--plugins", "benchecho"],
        env=env,
    )
    theirs = StdioServerParameters(command=sys.executable, args=[str(folder / "baseline_server.py")], env=env)
    return ours, theirs, workspace


async def first_listing(params: StdioServerParameters) -> float:
    started = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        tools = (await client.list_tools()).tools
        elapsed = time.perf_counter() - started
    assert [t.name for t in tools] == ["echo"], tools
    return elapsed


async def round_trips(params: StdioServerParameters, seconds: float) -> float:
    async with Client(params, mode="legacy") as client:
        for _ in range(50):  # warm up
            await client.call_tool("echo", {"text": "warm"})
        calls = 0
        started = time.perf_counter()
        deadline = started + seconds
        while time.perf_counter() < deadline:
            result = await client.call_tool("echo", {"text": "ping"})
            assert not result.is_error
            calls += 1
        return calls / (time.perf_counter() - started)


def line(figure: str, ours: float, base: float, unit: str, goal: str, higher_is_better: bool) -> None:
    ratio = ours / base if higher_is_better else base / ours
    print(
        f"{figure:<34} agenthost {ours:>9.2f} {unit:<8} MCPServer {base:>9.2f} {unit:<8} ratio {ratio:5.2f}x  goal {goal}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="measuring time per round and server")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median reported)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs, workspace = prepare(Path(tmp))
        ours_rt, theirs_rt, ours_start, theirs_start = [], [], [], []
        for _ in range(args.rounds):
            ours_start.append(await first_listing(ours))
            theirs_start.append(await first_listing(theirs))
            ours_rt.append(await round_trips(ours, args.seconds))
            theirs_rt.append(await round_trips(theirs, args.seconds))
        audited = sum(1 for f in (workspace / ".agenthost" / "audit").glob("*.jsonl") for _ in f.open())
    print(f"stdio, official client (handshake era), {args.rounds} alternating rounds, medians")
    line(
        "tools/call round trips",
        statistics.median(ours_rt),
        statistics.median(theirs_rt),
        "calls/s",
        ">= 0.90x (policy + audit on)",
        True,
    )
    line(
        "process start -> first tools/list",
        statistics.median(ours_start) * 1000,
        statistics.median(theirs_start) * 1000,
        "ms",
        "report (ratio = baseline/ours)",
        False,
    )
    print(f"audit records written by agenthost: {audited}")


if __name__ == "__main__":
    asyncio.run(main())
