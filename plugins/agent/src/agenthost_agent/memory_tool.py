"""The ``memory`` tool over a ``MemoryStore``.

The store (and SQLite, asyncio, the query code) is imported on the first
call: listing tools must not pay for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from agenthost import InvalidArguments, Param, Tool, tool

if TYPE_CHECKING:
    from pathlib import Path

    from agenthost_agent.memory import MemoryStore

MAX_CONTENT_CHARS = 100_000
DEFAULT_LIMITS = {"search": 10, "list": 50}


class StoreSlot:
    """One host's ``MemoryStore``, made on the first call that needs it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.store: MemoryStore | None = None

    def get(self) -> MemoryStore:
        if self.store is None:
            from agenthost_agent.memory import MemoryStore

            self.store = MemoryStore(self.path)
        return self.store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def auto_key(content: str) -> str:
    """A readable key from the content's first words, plus a short hash."""
    import hashlib

    from agenthost_agent.memory_query import MAX_KEY_CHARS

    words = re.findall(r"\w+", content.lower())[:6]
    digest = hashlib.sha1(content.encode()).hexdigest()[:6]
    return ("-".join(words)[: MAX_KEY_CHARS - 8] + "-" + digest).lstrip("-")


def make_memory_tool(slot: StoreSlot) -> Tool:
    async def memory(
        action: Literal["write", "read", "search", "list", "delete"],
        key: str | None = None,
        content: str | None = None,
        query: str | None = None,
        tags: list[str] | None = None,
        limit: Annotated[int, Param(ge=1, le=200)] | None = None,
    ) -> dict[str, Any]:
        """Durable memory that outlives this conversation: facts, decisions, user
        preferences and lessons worth keeping for later sessions. Memories are
        stored under a key with optional tags and found again by full-text search
        (ranked by relevance). Search before asking the user something you may
        have been told before; write when you learn something lasting.
        Actions: write (key?, content, tags?: creates or replaces; without a key
        one is made from the content), read (key), search (query, tags?, limit?),
        list (tags?, limit?: newest first), delete (key).

        :param action: write, read, search, list or delete.
        :param key: the memory's name, e.g. 'user-prefers-tabs' (write, read, delete).
        :param content: the text to remember (write).
        :param query: words to look for (search); all words must match, else any.
        :param tags: labels for write (replacing the old ones); for search and list,
            only memories carrying all these tags.
        :param limit: how many results at most (search: 10, list: 50 by default).
        """
        from agenthost_agent.memory_query import check_key

        store = slot.get()
        if action == "write":
            if content is None or not content.strip():
                raise InvalidArguments("memory action=write needs content (the text to remember)")
            if len(content) > MAX_CONTENT_CHARS:
                raise InvalidArguments(
                    f"content is {len(content):,} characters; a memory holds at most "
                    f"{MAX_CONTENT_CHARS:,}: keep what matters, or split it under several keys"
                )
            name = check_key(key, action) if key is not None else auto_key(content)
            return await store.run(store.write, name, content, tags)
        if action == "read":
            return await store.run(store.read, check_key(key, action))
        if action == "delete":
            return await store.run(store.delete, check_key(key, action))
        if action == "search":
            if query is None or not query.strip():
                raise InvalidArguments("memory action=search needs a non-empty query (words to look for)")
            return await store.run(store.search, query, tags, limit or DEFAULT_LIMITS["search"])
        return await store.run(store.list, tags, limit or DEFAULT_LIMITS["list"])

    return tool(memory, level="write")
