"""Memory search latency over 100,000 memories.

Builds a memory database of notes made of real English technical prose (the
sentences of the standard library's docstrings, 2 to 4 per note, with tags)
through the plugin's own store, then times searches three ways on the same
database and the same queries:

- tool:     ``host.call("memory", {"action": "search", ...})`` — the whole path
            an agent sees (validation, policy, thread hop, snippets, JSON result)
- store:    ``MemoryStore.search`` alone (on the store's worker thread, as the
            tool runs it)
- baseline: a bare sqlite3 FTS5 query (``MATCH ... ORDER BY rank LIMIT 10``
            joined to the rows for key and content), on its own connection

Goal: tool p50 under 10 ms.

    python bench/memory.py [--memories 100000] [--queries 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import statistics
import sysconfig
import tempfile
import time
from pathlib import Path

from agenthost import Host
from agenthost_agent.memory import MemoryStore, match_expression

GOAL_P50_MS = 10.0
TAGS = [f"tag{i}" for i in range(30)]
DOCSTRING = re.compile(r'"""(.*?)"""', re.S)


def sentences() -> list[str]:
    """Real English technical prose: the sentences of the standard library's
    docstrings (read from this Python's own files, so the run needs nothing
    else and is the same on every machine with the same Python)."""
    lib = Path(sysconfig.get_paths()["stdlib"])
    found: set[str] = set()
    for path in sorted(lib.rglob("*.py")):
        if "test" in path.parts or "site-packages" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for doc in DOCSTRING.findall(text):
            for sentence in re.split(r"(?<=[.!?])\s+", " ".join(doc.split())):
                if 30 <= len(sentence) <= 300 and re.search(r"[a-z]{3}", sentence):
                    found.add(sentence)
    return sorted(found)


def notes(count: int, seed: int = 7) -> list[tuple[str, str, list[str]]]:
    """``count`` memories of 2 to 4 sentences each, with 0 to 3 tags."""
    rng = random.Random(seed)
    pool = sentences()
    items = []
    for i in range(count):
        content = " ".join(rng.sample(pool, rng.randint(2, 4)))
        items.append((f"note-{i}", content, rng.sample(TAGS, rng.randint(0, 3))))
    return items


def queries(items: list[tuple[str, str, list[str]]], count: int, seed: int = 11) -> list[str]:
    """1 to 3 words taken from a stored memory, as an agent recalling it would
    write them (stopwords and all): every query has at least that match."""
    rng = random.Random(seed)
    picked = []
    for _ in range(count):
        words = [w for w in re.findall(r"[A-Za-z]{3,}", rng.choice(items)[1])]
        picked.append(" ".join(rng.sample(words, min(len(words), rng.choice([1, 2, 2, 3])))))
    return picked


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50 * 1000, p95 * 1000


async def run(memories: int, query_count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        db_path = workspace / ".agenthost" / "memory.sqlite3"
        started = time.perf_counter()
        items = notes(memories)
        store = MemoryStore(db_path)
        for i in range(0, len(items), 10_000):
            store.write_many(items[i : i + 10_000])
        store.close()
        build = time.perf_counter() - started
        size_mb = sum(p.stat().st_size for p in db_path.parent.glob("memory.sqlite3*")) / 1e6
        print(f"built {memories:,} memories in {build:.1f} s ({size_mb:.0f} MB)")

        wanted = queries(items, query_count)
        tool_times: list[float] = []
        store_times: list[float] = []
        base_times: list[float] = []
        hits = 0
        async with Host(workspace, config={"audit": {"enabled": False}}, plugins=["agent"]) as host:
            store = MemoryStore(db_path)
            bare = sqlite3.connect(db_path)
            sql = (
                "SELECT m.key, m.content FROM memories_fts JOIN memories AS m ON m.id = memories_fts.rowid "
                "WHERE memories_fts MATCH ? ORDER BY rank LIMIT 10"
            )
            for q in wanted[:20]:  # warm caches on all three paths
                await host.call("memory", {"action": "search", "query": q})
                await store.run(store.search, q)
                bare.execute(sql, (match_expression(q),)).fetchall()
            # interleave the three so that machine noise hits them alike
            for q in wanted:
                t = time.perf_counter()
                result = await host.call("memory", {"action": "search", "query": q})
                tool_times.append(time.perf_counter() - t)
                assert result.ok, result.text
                hits += result.data["count"]

                t = time.perf_counter()
                await store.run(store.search, q)
                store_times.append(time.perf_counter() - t)

                t = time.perf_counter()
                bare.execute(sql, (match_expression(q),)).fetchall()
                base_times.append(time.perf_counter() - t)
            store.close()
            bare.close()

    base50, base95 = percentiles(base_times)
    print(f"{len(wanted)} queries (1-3 words), {hits / len(wanted):.1f} results each on average")
    print(f"e.g. {', '.join(repr(q) for q in wanted[:4])}\n")
    print(f"{'path':<10} {'p50 ms':>8} {'p95 ms':>8} {'p50 ratio':>10} {'p95 ratio':>10}")
    for name, samples in (("baseline", base_times), ("store", store_times), ("tool", tool_times)):
        p50, p95 = percentiles(samples)
        print(f"{name:<10} {p50:>8.2f} {p95:>8.2f} {p50 / base50:>9.2f}x {p95 / base95:>9.2f}x")
    tool50, _ = percentiles(tool_times)
    verdict = "met" if tool50 < GOAL_P50_MS else "NOT met"
    print(f"\ngoal: tool p50 < {GOAL_P50_MS:g} ms -> {tool50:.2f} ms, {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(run(args.memories, args.queries))


if __name__ == "__main__":
    main()
