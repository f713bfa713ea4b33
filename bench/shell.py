"""Benchmarks of the shell plugin, each beside a baseline measured in the same run.

    python bench/shell.py [--runs 200] [--gigabytes 1]

1. Foreground ``bash`` of ``true`` through the whole host (validation, policy,
   audit, process start, reader thread, reaping check) against
   ``subprocess.run(["bash", "-c", "true"])``. Goal: <= 1.3x the time.
2. A background process writing 1 GB: throughput against ``cat > /dev/null``
   reading the same stream. Goal: >= 0.5x the throughput.
3. Host peak RSS growth while that gigabyte flows. Goal: <= 64 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import psutil

from agenthost import Host


class PeakRss:
    """Samples this process's RSS every few milliseconds in a thread."""

    def __init__(self) -> None:
        self.proc = psutil.Process()
        self.before = self.proc.memory_info().rss
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, self.proc.memory_info().rss)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def growth_mb(self) -> float:
        return (self.peak - self.before) / 2**20


def row(name: str, value: str, baseline: str, ratio: float, goal: str, ok: bool) -> None:
    print(f"{name:<34} {value:>14} {baseline:>14} {ratio:>8.2f}x  {goal:<10} {'ok' if ok else 'MISSED'}")


async def main(runs: int, gigabytes: float) -> int:
    size = int(gigabytes * 2**30)
    workspace = tempfile.mkdtemp(prefix="agenthost-bench-shell-")
    print(f"python {sys.version.split()[0]}, {psutil.cpu_count()} cpus, workspace {workspace}")
    print(f"{'figure':<34} {'agenthost':>14} {'baseline':>14} {'ratio':>9}  {'goal':<10}")
    missed = 0
    async with Host(workspace, config={}, plugins=["shell"]) as host, host.session() as session:
        # warm up both paths (imports, schema, first audit file)
        for _ in range(5):
            await session.call("bash", {"command": "true"})
            subprocess.run(["bash", "-c", "true"], check=True)
        # interleaved, so that load from elsewhere hits both sides alike
        base_times, our_times = [], []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(["bash", "-c", "true"], check=True)
            base_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = await session.call("bash", {"command": "true"})
            our_times.append(time.perf_counter() - start)
            assert result.ok, result.text
        base, ours = statistics.median(base_times), statistics.median(our_times)
        ratio = ours / base
        missed += ratio > 1.3
        row("foreground `true` (median)", f"{ours * 1e3:.2f} ms", f"{base * 1e3:.2f} ms", ratio, "<= 1.3x",
            ratio <= 1.3)  # fmt: skip

        producer = f"head -c {size} /dev/zero"
        start = time.perf_counter()
        subprocess.run(["bash", "-c", f"{producer} | cat > /dev/null"], check=True)
        base_s = time.perf_counter() - start
        with PeakRss() as rss:
            start = time.perf_counter()
            started = await session.call("bash", {"command": producer, "background": True})
            pid = started.data["process_id"]
            result = await session.call(
                "bash_output", {"process_id": pid, "block": True, "timeout_ms": 600000}
            )
            ours_s = time.perf_counter() - start
        assert "exit code 0" in result.text, result.text[:500]
        assert "bytes omitted" in result.text
        gb = size / 1e9
        ratio = (gb / ours_s) / (gb / base_s)
        missed += ratio < 0.5
        row(f"background {gigabytes:g} GB throughput", f"{gb / ours_s:.2f} GB/s", f"{gb / base_s:.2f} GB/s",
            ratio, ">= 0.5x", ratio >= 0.5)  # fmt: skip
        growth = rss.growth_mb
        missed += growth > 64
        print(f"{'host peak RSS growth during it':<34} {growth:>11.1f} MB {'(limit)':>14} {'':>9}  "
              f"{'<= 64 MB':<10} {'ok' if growth <= 64 else 'MISSED'}")  # fmt: skip
    print("all goals met" if not missed else f"{missed} goal(s) missed")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--gigabytes", type=float, default=1.0)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.runs, args.gigabytes)))
