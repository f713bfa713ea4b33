"""Run as a separate process by test_memory: one host writing memories.

usage: python memory_writer.py WORKSPACE PREFIX COUNT GO_FILE
Prints "ready" once its host and memory store are up, then waits until GO_FILE exists, so that
two writers start together.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from agenthost import Host


async def main(workspace: str, prefix: str, count: int, go_file: str) -> None:
    async with Host(workspace, config={}, plugins=["agent"]) as host:
        # the memory store opens on the first call: open it now, so that "ready"
        # means both writers can write at once (the schema is made by then)
        opened = await host.call("memory", {"action": "list"})
        if not opened.ok:
            sys.exit(f"opening the store failed: {opened.text}")
        print("ready", flush=True)
        deadline = time.monotonic() + 60
        while not Path(go_file).exists():
            if time.monotonic() > deadline:
                sys.exit("the go file never appeared")
            await asyncio.sleep(0.01)
        for i in range(count):
            result = await host.call(
                "memory",
                {
                    "action": "write",
                    "key": f"{prefix}-{i}",
                    "content": f"note {i} written by {prefix}writer about shared topic",
                    "tags": [prefix, "shared"],
                },
            )
            if not result.ok:
                sys.exit(f"write {i} failed: {result.text}")
            # both processes also rewrite one common key: it must stay one row
            if i % 10 == 0:
                shared = await host.call(
                    "memory", {"action": "write", "key": "common", "content": f"{prefix} {i}"}
                )
                if not shared.ok:
                    sys.exit(f"common write {i} failed: {shared.text}")
    print(f"{prefix} wrote {count}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
