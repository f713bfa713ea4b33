"""Durable memory: a SQLite database in the host's state folder with FTS5
full-text search ranked by bm25.

Safe across sessions, threads and processes: WAL mode lets readers go on while
one writer writes, every write is one ``BEGIN IMMEDIATE`` transaction (so a
writer waits for the lock up front instead of failing on a lock upgrade), and
a generous ``busy_timeout`` makes concurrent writers queue rather than fail.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from agenthost.errors import InvalidArguments, NotFound, ToolFailure
from agenthost_agent.memory_db import BUSY_TIMEOUT_MS, SCHEMA_VERSION, fts5_available, open_database
from agenthost_agent.memory_query import (
    MAX_KEY_CHARS,
    STOPWORDS,
    WORD,
    check_key,
    match_expression,
    normalize_tags,
    query_words,
    tag_filter,
)

if TYPE_CHECKING:  # sqlite3 loads on first use: listing tools must not pay for it
    import sqlite3

__all__ = [
    "BUSY_TIMEOUT_MS",
    "MAX_KEY_CHARS",
    "PREVIEW_CHARS",
    "SCHEMA_VERSION",
    "STOPWORDS",
    "MemoryStore",
    "check_key",
    "fts5_available",
    "match_expression",
    "normalize_tags",
    "query_words",
]

PREVIEW_CHARS = 400
T = TypeVar("T")


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


class MemoryStore:
    """One database file. Its methods block; ``await store.run(store.search, ...)``
    runs one on the store's own worker thread, off the event loop."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._worker: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        # One long-lived thread rather than the loop's shared pool: the calls
        # are serialised by the lock anyway, and a thread that stays warm
        # answers a search noticeably faster than a pool rotating its threads.
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agenthost-memory")
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn, *args)

    # -- connection ----------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = open_database(self.path)
        return self._db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._connect()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        import sqlite3

        with self._lock:
            db = self._connect()
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                raise ToolFailure(f"the memory database is busy ({e}); try again in a moment") from None
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
        if self._worker is not None:
            self._worker.shutdown(wait=False)
            self._worker = None

    # -- actions -------------------------------------------------------------

    def write(self, key: str, content: str, tags: list[str] | None = None) -> dict[str, Any]:
        """Create or replace the memory under ``key``; tags are replaced when
        given and kept otherwise."""
        now = time.time()
        with self._writing() as db:
            row = db.execute("SELECT id, tags FROM memories WHERE key = ?", (key,)).fetchone()
            if row is None:
                kept = normalize_tags(tags)
                cur = db.execute(
                    "INSERT INTO memories(key, content, tags, created, updated) VALUES (?, ?, ?, ?, ?)",
                    (key, content, json.dumps(kept, ensure_ascii=False), now, now),
                )
                memory_id, created = cur.lastrowid, True
            else:
                memory_id, created = row[0], False
                kept = json.loads(row[1]) if tags is None else normalize_tags(tags)
                db.execute(
                    "UPDATE memories SET content = ?, tags = ?, updated = ? WHERE id = ?",
                    (content, json.dumps(kept, ensure_ascii=False), now, memory_id),
                )
                if tags is not None:
                    db.execute("DELETE FROM memory_tags WHERE memory_id = ?", (memory_id,))
            if created or tags is not None:
                db.executemany(
                    "INSERT OR IGNORE INTO memory_tags(tag, memory_id) VALUES (?, ?)",
                    [(tag, memory_id) for tag in kept],
                )
        return {"key": key, "status": "created" if created else "updated", "tags": kept}

    def write_many(self, items: Iterable[tuple[str, str, list[str]]]) -> int:
        """Bulk import (one transaction): ``(key, content, tags)`` tuples."""
        count = 0
        now = time.time()
        with self._writing() as db:
            for key, content, tags in items:
                kept = normalize_tags(tags)
                cur = db.execute(
                    "INSERT INTO memories(key, content, tags, created, updated) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET content = excluded.content, tags = excluded.tags, "
                    "updated = excluded.updated RETURNING id",
                    (key, content, json.dumps(kept, ensure_ascii=False), now, now),
                )
                (memory_id,) = cur.fetchone()
                db.execute("DELETE FROM memory_tags WHERE memory_id = ?", (memory_id,))
                db.executemany(
                    "INSERT OR IGNORE INTO memory_tags(tag, memory_id) VALUES (?, ?)",
                    [(tag, memory_id) for tag in kept],
                )
                count += 1
        return count

    def read(self, key: str) -> dict[str, Any]:
        with self._reading() as db:
            row = db.execute(
                "SELECT key, content, tags, created, updated FROM memories WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            raise NotFound(self._missing(key))
        return {
            "key": row[0],
            "content": row[1],
            "tags": json.loads(row[2]),
            "created": _iso(row[3]),
            "updated": _iso(row[4]),
        }

    def delete(self, key: str) -> dict[str, Any]:
        with self._writing() as db:
            row = db.execute("SELECT id FROM memories WHERE key = ?", (key,)).fetchone()
            if row is not None:
                db.execute("DELETE FROM memory_tags WHERE memory_id = ?", (row[0],))
                db.execute("DELETE FROM memories WHERE id = ?", (row[0],))
        if row is None:
            raise NotFound(self._missing(key))
        return {"key": key, "status": "deleted"}

    def search(self, query: str, tags: list[str] | None = None, limit: int = 10) -> dict[str, Any]:
        if not query or not query.strip():
            raise InvalidArguments("memory action=search needs a non-empty query (words to look for)")
        tags = normalize_tags(tags)
        rows = self._match(match_expression(query), tags, limit)
        any_word = False
        if not rows and len(query_words(query)) > 1:
            rows, any_word = self._match(match_expression(query, any_word=True), tags, limit), True
        results = []
        for key, content, tag_json, updated, snippet, rank in rows:
            item: dict[str, Any] = {
                "key": key,
                "score": float(f"{-rank:.4g}"),
                "tags": json.loads(tag_json),
                "snippet": snippet,
                "content": content if len(content) <= PREVIEW_CHARS else content[:PREVIEW_CHARS] + "…",
                "updated": _iso(updated),
            }
            if len(content) > PREVIEW_CHARS:
                item["truncated"] = True
            results.append(item)
        answer: dict[str, Any] = {"query": query, "count": len(results), "results": results}
        if any_word:
            answer["note"] = "no memory has every word; these have some of them"
        if tags:
            answer["tags"] = tags
        return answer

    def _match(self, expression: str, tags: list[str], limit: int) -> list[tuple[Any, ...]]:
        import sqlite3

        tag_sql, params = tag_filter("rowid", tags)
        sql = (
            "SELECT m.key, m.content, m.tags, m.updated, f.snip, f.score FROM ("
            "  SELECT rowid, rank AS score,"
            "  snippet(memories_fts, 1, '[', ']', '…', 16) AS snip"
            "  FROM memories_fts WHERE memories_fts MATCH ?" + tag_sql + "  ORDER BY rank LIMIT ?"
            ") AS f JOIN memories AS m ON m.id = f.rowid ORDER BY f.score"
        )
        with self._reading() as db:
            try:
                return db.execute(sql, (expression, *params, limit)).fetchall()
            except sqlite3.OperationalError as e:
                raise InvalidArguments(f"cannot search for that query ({e}); use plain words") from None

    def list(self, tags: list[str] | None = None, limit: int = 50) -> dict[str, Any]:
        tags = normalize_tags(tags)
        tag_sql, params = tag_filter("id", tags)
        where = (" WHERE 1" + tag_sql) if tags else ""
        with self._reading() as db:
            (total,) = db.execute("SELECT count(*) FROM memories" + where, params).fetchone()
            rows = db.execute(
                "SELECT key, content, tags, updated FROM memories"
                + where
                + " ORDER BY updated DESC, id DESC "
                "LIMIT ?",
                (*params, limit),
            ).fetchall()
        memories = [
            {
                "key": key,
                "tags": json.loads(tag_json),
                "preview": content if len(content) <= 120 else content[:120] + "…",
                "updated": _iso(updated),
            }
            for key, content, tag_json, updated in rows
        ]
        answer: dict[str, Any] = {"total": total, "count": len(memories), "memories": memories}
        if total > len(memories):
            answer["more"] = f"{total - len(memories)} more not shown; raise limit or filter by tags"
        if tags:
            answer["tags"] = tags
        return answer

    def count(self) -> int:
        with self._reading() as db:
            (total,) = db.execute("SELECT count(*) FROM memories").fetchone()
        return int(total)

    def _missing(self, key: str) -> str:
        similar: list[str] = []
        if WORD.search(key):
            try:
                rows = self._match("{key}: (" + match_expression(key, any_word=True) + ")", [], 3)
                similar = [r[0] for r in rows]
            except ToolFailure:
                pass
        hint = f"; similar keys: {', '.join(map(repr, similar))}" if similar else ""
        return f"no memory has the key {key!r}{hint}; use action=list or action=search to find keys"
