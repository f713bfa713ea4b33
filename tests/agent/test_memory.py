"""memory: a real SQLite database with FTS5 in the state folder."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

WRITER = Path(__file__).with_name("memory_writer.py")


async def write(host, key, content, tags=None):
    args = {"action": "write", "key": key, "content": content}
    if tags is not None:
        args["tags"] = tags
    result = await host.call("memory", args)
    assert result.ok, result.text
    return result.data


async def test_write_read_update_delete(make_host, workspace):
    host = await make_host(plugins=["agent"])
    assert (await write(host, "editor", "The user edits with Helix", ["prefs"]))["status"] == "created"
    read = await host.call("memory", {"action": "read", "key": "editor"})
    assert read.ok
    assert read.data["content"] == "The user edits with Helix"
    assert read.data["tags"] == ["prefs"]
    created = read.data["created"]

    # replacing content keeps the tags when none are given
    assert (await write(host, "editor", "The user edits with Zed"))["status"] == "updated"
    read = await host.call("memory", {"action": "read", "key": "editor"})
    assert read.data["content"] == "The user edits with Zed"
    assert read.data["tags"] == ["prefs"]
    assert read.data["created"] == created

    # given tags replace the old ones
    await write(host, "editor", "The user edits with Zed", ["tools", "tools", " setup  "])
    read = await host.call("memory", {"action": "read", "key": "editor"})
    assert read.data["tags"] == ["tools", "setup"]
    listed = await host.call("memory", {"action": "list", "tags": ["prefs"]})
    assert listed.data["total"] == 0

    deleted = await host.call("memory", {"action": "delete", "key": "editor"})
    assert deleted.ok and deleted.data == {"key": "editor", "status": "deleted"}
    again = await host.call("memory", {"action": "read", "key": "editor"})
    assert not again.ok and again.error.type == "not_found"
    # gone from the index too
    search = await host.call("memory", {"action": "search", "query": "Zed"})
    assert search.ok and search.data["count"] == 0


async def test_database_lives_in_the_state_folder_in_wal_mode(make_host, workspace):
    host = await make_host(plugins=["agent"])
    await write(host, "k", "v")
    db_path = workspace / ".agenthost" / "memory.sqlite3"
    assert db_path.is_file()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT key, content FROM memories").fetchall() == [("k", "v")]


async def test_state_dir_and_file_name_follow_config(make_host, tmp_path):
    state = tmp_path / "elsewhere"
    host = await make_host(
        plugins=["agent"],
        config={"host": {"state_dir": str(state)}, "plugins": {"agent": {"memory_db": "m.db"}}},
    )
    await write(host, "k", "v")
    assert (state / "m.db").is_file()


async def test_memories_persist_across_hosts(make_host):
    first = await make_host(plugins=["agent"])
    await write(first, "deploy", "Deploys go through the staging cluster first", ["ops"])
    await first.aclose()
    second = await make_host(plugins=["agent"])
    found = await second.call("memory", {"action": "search", "query": "staging"})
    assert found.ok and [r["key"] for r in found.data["results"]] == ["deploy"]


async def test_missing_key_errors_name_the_key_and_suggest(make_host):
    host = await make_host(plugins=["agent"])
    await write(host, "database-password-rotation", "Rotate every 90 days")
    for action in ("read", "delete"):
        result = await host.call("memory", {"action": action, "key": "database-rotation"})
        assert not result.ok and result.error.type == "not_found"
        assert "'database-rotation'" in result.text
        assert "'database-password-rotation'" in result.text  # a similar key is offered
    no_key = await host.call("memory", {"action": "read"})
    assert not no_key.ok and no_key.error.type == "invalid_arguments"
    assert "needs a key" in no_key.text


@pytest.mark.parametrize("query", [None, "", "   ", "?!* ()"])
async def test_empty_query_is_a_clear_error(make_host, query):
    host = await make_host(plugins=["agent"])
    args = {"action": "search"}
    if query is not None:
        args["query"] = query
    result = await host.call("memory", args)
    assert not result.ok and result.error.type == "invalid_arguments"
    assert "query" in result.text


async def test_write_needs_content(make_host):
    host = await make_host(plugins=["agent"])
    result = await host.call("memory", {"action": "write", "key": "k", "content": "  "})
    assert not result.ok and result.error.type == "invalid_arguments"
    assert "content" in result.text


async def test_write_without_key_makes_one(make_host):
    host = await make_host(plugins=["agent"])
    result = await host.call("memory", {"action": "write", "content": "Prefers metric units"})
    assert result.ok
    key = result.data["key"]
    assert key.startswith("prefers-metric-units-")
    read = await host.call("memory", {"action": "read", "key": key})
    assert read.data["content"] == "Prefers metric units"


async def test_search_ranks_by_bm25(make_host):
    host = await make_host(plugins=["agent"])
    filler = " ".join(f"word{i}" for i in range(80))
    await write(host, "a-long", f"{filler} kestrel {filler}")
    await write(host, "b-dense", "kestrel kestrel kestrel nests")
    await write(host, "c-none", "sparrow nests")
    await write(host, "kestrel", "a bird of prey")  # named after the query: keys weigh most
    result = await host.call("memory", {"action": "search", "query": "kestrel"})
    keys = [r["key"] for r in result.data["results"]]
    assert keys == ["kestrel", "b-dense", "a-long"]
    scores = [r["score"] for r in result.data["results"]]
    assert scores == sorted(scores, reverse=True)
    assert "[kestrel]" in result.data["results"][1]["snippet"]


async def test_search_requires_every_word_then_falls_back_to_any(make_host):
    host = await make_host(plugins=["agent"])
    await write(host, "both", "rust compiler flags")
    await write(host, "one", "rust belt history")
    both = await host.call("memory", {"action": "search", "query": "rust compiler"})
    assert [r["key"] for r in both.data["results"]] == ["both"]
    some = await host.call("memory", {"action": "search", "query": "compiler belt"})
    assert {r["key"] for r in some.data["results"]} == {"both", "one"}
    assert "note" in some.data


async def test_search_stems_and_ignores_query_syntax(make_host):
    host = await make_host(plugins=["agent"])
    await write(host, "deploys", "We deployed the service on Friday")
    for query in ["deploying", 'deploy AND (service OR "', "NEAR(deploy service)", "deploy*", "-service"]:
        result = await host.call("memory", {"action": "search", "query": query})
        assert result.ok, (query, result.text)
        assert [r["key"] for r in result.data["results"]] == ["deploys"], query


async def test_search_and_list_filter_by_tags(make_host):
    host = await make_host(plugins=["agent"])
    await write(host, "a", "postgres tuning notes", ["db", "perf"])
    await write(host, "b", "postgres backup notes", ["db"])
    await write(host, "c", "nginx tuning notes", ["perf"])
    result = await host.call("memory", {"action": "search", "query": "notes", "tags": ["db"]})
    assert {r["key"] for r in result.data["results"]} == {"a", "b"}
    result = await host.call("memory", {"action": "search", "query": "notes", "tags": ["db", "perf"]})
    assert [r["key"] for r in result.data["results"]] == ["a"]
    listed = await host.call("memory", {"action": "list", "tags": ["perf"]})
    assert listed.data["total"] == 2 and {m["key"] for m in listed.data["memories"]} == {"a", "c"}
    # tag words are searchable too
    by_tag = await host.call("memory", {"action": "search", "query": "perf"})
    assert {r["key"] for r in by_tag.data["results"]} == {"a", "c"}


async def test_list_is_newest_first_and_limited(make_host):
    host = await make_host(plugins=["agent"])
    for i in range(5):
        await write(host, f"k{i}", f"content {i}")
    await write(host, "k1", "touched again")
    listed = await host.call("memory", {"action": "list", "limit": 3})
    assert [m["key"] for m in listed.data["memories"]] == ["k1", "k4", "k3"]
    assert listed.data["total"] == 6 - 1
    assert "2 more" in listed.data["more"]
    search = await host.call("memory", {"action": "search", "query": "content", "limit": 2})
    assert search.data["count"] == 2


async def test_limit_is_bounded_by_the_schema(make_host):
    host = await make_host(plugins=["agent"])
    result = await host.call("memory", {"action": "list", "limit": 0})
    assert not result.ok and result.error.type == "invalid_arguments"
    result = await host.call("memory", {"action": "frobnicate"})
    assert not result.ok and result.error.type == "invalid_arguments"


async def test_long_content_is_previewed_in_search(make_host):
    host = await make_host(plugins=["agent"])
    await write(host, "long", "alpha " + "x" * 2000)
    result = await host.call("memory", {"action": "search", "query": "alpha"})
    hit = result.data["results"][0]
    assert hit["truncated"] is True and len(hit["content"]) < 500
    read = await host.call("memory", {"action": "read", "key": "long"})
    assert len(read.data["content"]) == 2006


async def test_concurrent_writes_from_two_hosts_in_one_process(make_host):
    a = await make_host(plugins=["agent"])
    b = await make_host(plugins=["agent"])

    async def burst(host, prefix):
        results = await asyncio.gather(
            *(
                host.call("memory", {"action": "write", "key": f"{prefix}{i}", "content": f"x {i}"})
                for i in range(40)
            )
        )
        assert all(r.ok for r in results), [r.text for r in results if not r.ok]

    await asyncio.gather(burst(a, "a"), burst(b, "b"))
    listed = await a.call("memory", {"action": "list", "limit": 200})
    assert listed.data["total"] == 80


@pytest.mark.timeout(180)
def test_two_processes_write_at_once_and_nothing_is_lost(workspace, tmp_path):
    count = 150
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, str(WRITER), str(workspace), prefix, str(count), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for prefix in ("alpha", "beta")
    ]
    for p in procs:  # a real barrier: both hosts are up before either writes
        assert p.stdout.readline().strip() == "ready", p.communicate(timeout=30)
    go.touch()
    outputs = [p.communicate(timeout=150) for p in procs]
    for p, (_out, err) in zip(procs, outputs, strict=True):
        assert p.returncode == 0, err
    assert [o[0].strip() for o in outputs] == [f"alpha wrote {count}", f"beta wrote {count}"]

    with sqlite3.connect(workspace / ".agenthost" / "memory.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.execute("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")  # raises if corrupt
        keys = {k for (k,) in db.execute("SELECT key FROM memories")}
        assert keys == {f"{p}-{i}" for p in ("alpha", "beta") for i in range(count)} | {"common"}
        for prefix in ("alpha", "beta"):
            (n,) = db.execute(
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", (f'"{prefix}writer"',)
            ).fetchone()
            assert n == count
            (tagged,) = db.execute("SELECT count(*) FROM memory_tags WHERE tag = ?", (prefix,)).fetchone()
            assert tagged == count
        # the two writers really overlapped in time (else this test proves nothing)
        spans = [
            db.execute(
                "SELECT min(created), max(created) FROM memories WHERE key LIKE ?", (f"{p}-%",)
            ).fetchone()
            for p in ("alpha", "beta")
        ]
        assert spans[0][0] < spans[1][1] and spans[1][0] < spans[0][1]


async def test_stopwords_do_not_have_to_match_unless_alone(make_host):
    host = await make_host(plugins=["agent"])
    await write(host, "cache", "Redis holds sessions for a day")
    await write(host, "motto", "to be or not to be")
    result = await host.call("memory", {"action": "search", "query": "what is the redis setup"})
    # 'setup' is missing: every non-stopword must match, else any of them
    assert [r["key"] for r in result.data["results"]] == ["cache"]
    assert "note" in result.data
    exact = await host.call("memory", {"action": "search", "query": "where are the sessions"})
    assert [r["key"] for r in exact.data["results"]] == ["cache"] and "note" not in exact.data
    only = await host.call("memory", {"action": "search", "query": "to be"})
    assert [r["key"] for r in only.data["results"]] == ["motto"]
