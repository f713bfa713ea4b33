"""The memory database on disk: the schema (memories, their tags, the FTS5
index kept in step by triggers) and opening it safely from several processes
(WAL switched on and the schema created under retries and one transaction)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from agenthost.errors import ToolFailure, Unavailable

if TYPE_CHECKING:  # sqlite3 loads on first use: listing tools must not pay for it
    import sqlite3

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 30_000

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
    import sqlite3

    try:
        with sqlite3.connect(":memory:") as db:
            db.execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
        return True
    except sqlite3.OperationalError:
        return False


def open_database(path: Path) -> sqlite3.Connection:
    """A connection to the database at ``path``, created or migrated as needed
    (autocommit mode: callers open their own transactions)."""
    import sqlite3

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    except (OSError, sqlite3.Error) as e:
        raise Unavailable(f"cannot open the memory database {path}: {e}") from None
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _retry_locked(lambda: _set_wal(db))
        db.execute("PRAGMA synchronous = NORMAL")
        _retry_locked(lambda: _migrate(db))
    except sqlite3.OperationalError as e:
        db.close()
        if "fts5" in str(e):
            raise Unavailable(
                "this Python's SQLite lacks FTS5; install a Python whose sqlite3 has it "
                "(python.org and Debian builds do)"
            ) from None
        raise ToolFailure(f"cannot open the memory database {path}: {e}") from None
    return db


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


def _set_wal(db: sqlite3.Connection) -> None:
    (mode,) = db.execute("PRAGMA journal_mode").fetchone()
    if str(mode).lower() != "wal":
        db.execute("PRAGMA journal_mode = WAL")


def _retry_locked(step: Callable[[], None], budget_s: float = BUSY_TIMEOUT_MS / 1000) -> None:
    """Run ``step``, retrying while another process holds a lock that SQLite
    reports without waiting on the busy handler (switching a new database to
    WAL, two processes creating the schema at once)."""
    import sqlite3

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
    import sqlite3

    pending = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not pending:
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""
