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
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from agenthost.errors import InvalidArguments, NotFound, ToolFailure, Unavailable

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 30_000
MAX_KEY_CHARS = 200
PREVIEW_CHARS = 400
_WORD = re.compile(r"\w+", re.UNICODE)
T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    content TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',          -- JSON array; FTS indexes its words
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_by_updated ON memories(updated);
CREATE TABLE IF NOT EXISTS memory_tags (
    tag TEXT NOT NULL,
    memory_id INTEGER NOT NULL,
    PRIMARY KEY (tag, memory_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS memory_tags_by_memory ON memory_tags(memory_id);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    key, content, tags,
    content='memories', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, key, content, tags) VALUES (new.id, new.key, new.content, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, key, content, tags)
    VALUES ('delete', old.id, old.key, old.content, old.tags);
END;
CREATE TRIGGER IF NOT EXISTS memories_au AFTER UPDATE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, key, content, tags)
    VALUES ('delete', old.id, old.key, old.content, old.tags);
    INSERT INTO memories_fts(rowid, key, content, tags) VALUES (new.id, new.key, new.content, new.tags);
END;
"""

# Keys and tags weigh more than the body: a memory named after the query is
# what the model most likely wants. Stored as the table's `rank` function, so
# that `ORDER BY rank LIMIT n` stays FTS5's fast path (it sorts inside FTS5
# and computes snippets only for the rows returned).
_RANK = "bm25(8.0, 1.0, 4.0)"


def fts5_available() -> bool:
    try:
        with sqlite3.connect(":memory:") as db:
            db.execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
        return True
    except sqlite3.OperationalError:
        return False


# Words too common to tell memories apart: dropped from a query that has other
# words (they add nothing to the ranking, and scoring every memory that holds
# "the" costs time).
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)


def query_words(query: str) -> list[str]:
    words = _WORD.findall(query)
    kept = [w for w in words if w.lower() not in STOPWORDS]
    return kept or words


def match_expression(query: str, any_word: bool = False) -> str:
    """A safe FTS5 MATCH expression for free text: each word quoted (so model
    text cannot be FTS5 syntax), all words required unless ``any_word``;
    stopwords left out when other words remain."""
    words = query_words(query)
    if not words:
        raise InvalidArguments("the query has no words to search for; give one or more words")
    quoted = ['"' + w.replace('"', '""') + '"' for w in words]
    return (" OR " if any_word else " ").join(quoted)


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def normalize_tags(tags: Iterable[str] | None) -> list[str]:
    seen: dict[str, None] = {}
    for tag in tags or []:
        tag = " ".join(str(tag).split())
        if tag:
            seen.setdefault(tag, None)
    return list(seen)


def check_key(key: str | None, action: str) -> str:
    if key is None or not key.strip():
        raise InvalidArguments(f"memory action={action} needs a key (the name the memory is stored under)")
    key = key.strip()
    if len(key) > MAX_KEY_CHARS:
        raise InvalidArguments(f"a memory key is at most {MAX_KEY_CHARS} characters; use a shorter name")
    if "\n" in key or "\r" in key:
        raise InvalidArguments("a memory key is one line; remove the line breaks")
    return key


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
        if self._db is not None:
            return self._db
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        except (OSError, sqlite3.Error) as e:
            raise Unavailable(f"cannot open the memory database {self.path}: {e}") from None
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            _retry_locked(lambda: _set_wal(db))
            db.execute("PRAGMA synchronous = NORMAL")
            _retry_locked(lambda: self._migrate(db))
        except sqlite3.OperationalError as e:
            db.close()
            if "fts5" in str(e):
                raise Unavailable(
                    "this Python's SQLite lacks FTS5; install a Python whose sqlite3 has it "
                    "(python.org and Debian builds do)"
                ) from None
            raise ToolFailure(f"cannot open the memory database {self.path}: {e}") from None
        self._db = db
        return db

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version >= SCHEMA_VERSION:
            return
        db.execute("BEGIN IMMEDIATE")  # another process may be creating it too
        try:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version < SCHEMA_VERSION:
                for statement in _statements(_SCHEMA):
                    db.execute(statement)
                db.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', ?)", (_RANK,))
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._connect()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
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
        tag_filter, params = _tag_filter("rowid", tags)
        sql = (
            "SELECT m.key, m.content, m.tags, m.updated, f.snip, f.score FROM ("
            "  SELECT rowid, rank AS score,"
            "  snippet(memories_fts, 1, '[', ']', '…', 16) AS snip"
            "  FROM memories_fts WHERE memories_fts MATCH ?" + tag_filter + "  ORDER BY rank LIMIT ?"
            ") AS f JOIN memories AS m ON m.id = f.rowid ORDER BY f.score"
        )
        with self._reading() as db:
            try:
                return db.execute(sql, (expression, *params, limit)).fetchall()
            except sqlite3.OperationalError as e:
                raise InvalidArguments(f"cannot search for that query ({e}); use plain words") from None

    def list(self, tags: list[str] | None = None, limit: int = 50) -> dict[str, Any]:
        tags = normalize_tags(tags)
        tag_filter, params = _tag_filter("id", tags)
        where = (" WHERE 1" + tag_filter) if tags else ""
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
        if _WORD.search(key):
            try:
                rows = self._match("{key}: (" + match_expression(key, any_word=True) + ")", [], 3)
                similar = [r[0] for r in rows]
            except ToolFailure:
                pass
        hint = f"; similar keys: {', '.join(map(repr, similar))}" if similar else ""
        return f"no memory has the key {key!r}{hint}; use action=list or action=search to find keys"


def _set_wal(db: sqlite3.Connection) -> None:
    (mode,) = db.execute("PRAGMA journal_mode").fetchone()
    if str(mode).lower() != "wal":
        db.execute("PRAGMA journal_mode = WAL")


def _retry_locked(step: Callable[[], None], budget_s: float = BUSY_TIMEOUT_MS / 1000) -> None:
    """Run ``step``, retrying while another process holds a lock that SQLite
    reports without waiting on the busy handler (switching a new database to
    WAL, two processes creating the schema at once)."""
    deadline = time.monotonic() + budget_s
    delay = 0.005
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def _statements(script: str) -> Iterator[str]:
    """Split a script into statements (``executescript`` would commit the
    open transaction first)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not pending:
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""


def _tag_filter(column: str, tags: list[str]) -> tuple[str, list[Any]]:
    """Keep rows that carry every tag in ``tags``."""
    if not tags:
        return "", []
    marks = ", ".join("?" * len(tags))
    return (
        f" AND {column} IN (SELECT memory_id FROM memory_tags WHERE tag IN ({marks}) "
        f"GROUP BY memory_id HAVING count(*) = ?)",
        [*tags, len(tags)],
    )
