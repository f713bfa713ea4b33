"""Per-call cost of JS tools against a trivial Python tool, through the same executor.

    python bench/js.py [--calls N]

Figures: a trivial JS tool, and one making 10 fs.readFile calls, each beside
the baseline (a trivial Python tool) measured in the same run: median wall
time per call, the ratio, the extra milliseconds, and CPU time per call (all
threads). Goal: the trivial JS tool costs under 5 ms more than the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from agenthost import Host, tool

GOAL_EXTRA_MS = 5.0

TRIVIAL = """var tool = {name: "js_trivial", description: "returns ok"};
function execute(params) { return "ok"; }
"""
TEN_FS = """var tool = {name: "js_ten_fs", description: "reads a file 10 times", permissions: {fileRead: true}};
function execute(params) {
    var total = 0;
    for (var i = 0; i < 10; i++) total += fs.readFile("data.txt").length;
    return String(total);
}
"""


@tool
def py_trivial() -> str:
    """Returns ok."""
    return "ok"


async def measure(host: Host, name: str, calls: int) -> tuple[float, float]:
    """(median wall ms, CPU ms) per call."""
    for _ in range(20):  # warm up
        result = await host.call(name)
        assert result.ok, result.text
    walls = []
    cpu = time.process_time()
    for _ in range(calls):
        start = time.perf_counter()
        await host.call(name)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls), (time.process_time() - cpu) * 1000 / calls


async def main(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp)
        (ws / "tools").mkdir()
        (ws / "tools" / "trivial.js").write_text(TRIVIAL)
        (ws / "tools" / "ten_fs.js").write_text(TEN_FS)
        (ws / "data.txt").write_text("x" * 1000)
        async with Host(workspace=ws, config={}, plugins=["js"]) as host:
            host.add_tool(py_trivial, plugin="bench")
            rows = []
            # interleave, so load from elsewhere on the machine hits both alike
            results: dict[str, list[tuple[float, float]]] = {
                "py_trivial": [],
                "js_trivial": [],
                "js_ten_fs": [],
            }
            for _ in range(3):
                for name in results:
                    results[name].append(await measure(host, name, calls // 3))
            best = {name: min(values) for name, values in results.items()}
            base_wall, base_cpu = best["py_trivial"]
            for name, label in (("js_trivial", "trivial JS tool"), ("js_ten_fs", "JS tool, 10 fs calls")):
                wall, cpu = best[name]
                rows.append((label, wall, cpu, base_wall, base_cpu))
    print(f"per-call cost through the executor ({calls} calls each, best of 3 medians)")
    print(f"baseline: trivial Python tool  {base_wall:7.3f} ms wall  {base_cpu:7.3f} ms CPU")
    for label, wall, cpu, bw, bc in rows:
        extra = wall - bw
        goal = f"goal < {GOAL_EXTRA_MS:g} ms extra: {'met' if extra < GOAL_EXTRA_MS else 'NOT met'}"
        if label != "trivial JS tool":
            goal = "(no goal; for reference)"
        print(
            f"{label:<22} {wall:7.3f} ms wall (x{wall / bw:5.1f}, +{extra:6.3f} ms)  "
            f"{cpu:7.3f} ms CPU (+{cpu - bc:6.3f} ms)  {goal}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=600)
    asyncio.run(main(parser.parse_args().calls))
