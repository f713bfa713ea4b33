"""The executor: lookup, validation, faults, timeouts, cancellation, caps, concurrency."""

from __future__ import annotations

import asyncio

import pytest

from .tools_for_tests import TestTools, events


@pytest.fixture
async def host(make_host):
    return await make_host(
        hooks=[TestTools()], config={"host": {"max_output_chars": 500, "max_image_bytes": 1000}}
    )


async def test_unknown_tool_suggests_closest(host) -> None:
    result = await host.call("limted", {})
    assert not result.ok and result.error.type == "unknown_tool"
    assert "did you mean 'limited'" in result.error.message


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"limit": 500}, "limit: 500 is greater than the maximum of 100"),
        ({"limit": 0}, "limit: 0 is less than the minimum of 1"),
        ({"limit": "ten"}, "limit: 'ten' is not of type 'integer'"),
        ({"mode": "c"}, "mode: 'c' is not one of ['a', 'b']"),
        ({"limits": 5}, "unknown argument 'limits' (allowed: limit, mode)"),
    ],
)
async def test_validation_names_field_and_rule(host, arguments, message) -> None:
    result = await host.call("limited", arguments)
    assert result.error.type == "invalid_arguments"
    assert result.error.message.startswith(message)
    assert "\n" not in result.error.message


async def test_missing_required_and_non_object(host) -> None:
    assert (await host.call("where", {})).error.message.startswith("path: missing required argument")
    assert (await host.call("where", ["a"])).error.message.startswith("arguments must be a JSON object")  # type: ignore[arg-type]


async def test_nested_models_are_converted(host) -> None:
    result = await host.call("items", {"entries": [{"content": "a"}, {"content": "b", "status": "done"}]})
    assert result.ok and result.text == "pending,done"
    bad = await host.call("items", {"entries": [{"content": "a", "status": "later"}]})
    assert bad.error.message.startswith("entries.0.status: 'later' is not one of")


async def test_success_shapes(host) -> None:
    result = await host.call("limited", {"limit": 3})
    assert result.ok and result.error is None
    assert result.data == {"limit": 3, "mode": "a"}
    assert '"limit": 3' in result.text
    assert len(result.call_id) == 12 and result.duration_ms > 0
    handle = await host.call("handle")
    assert handle.data["process_id"] == "abc12345" and "process_id: abc12345" in handle.text


async def test_tool_faults_are_results(host) -> None:
    missing = await host.call("missing")
    assert (missing.ok, missing.error.type) == (False, "not_found")
    assert missing.text == "no such thing; list what exists first"
    crash = await host.call("crash")
    assert crash.error.type == "tool_error"
    assert crash.error.message == "crash failed: ValueError: bad value"


async def test_timeout_stops_the_tool(host) -> None:
    events.clear()
    result = await host.call("sleepy")
    assert result.error.type == "timeout"
    assert "within 0.3 s" in result.error.message
    assert events == ["sleepy cleaned up"]
    assert (await host.call("sleepy", {"seconds": 0.01}, timeout=5)).text == "woke"


async def test_cancellation_propagates_and_cleans_up(host) -> None:
    events.clear()
    task = asyncio.create_task(host.call("sleepy", {"seconds": 30}, timeout=60))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert events == ["sleepy cleaned up"]


async def test_sync_tools_run_in_threads_concurrently(host) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    results = await asyncio.gather(*(host.call("blocking", {"seconds": 0.3}) for _ in range(8)))
    assert all(r.ok for r in results)
    assert all(r.text != "MainThread" for r in results)
    # eight 0.3 s sleeps in threads overlap; serial would take 2.4 s
    assert loop.time() - started < 2.0


async def test_output_is_capped_with_a_note(host) -> None:
    result = await host.call("big", {"chars": 5000})
    assert result.ok
    text = result.text
    assert "characters cut" in text and "max_output_chars=500" in text
    assert text.startswith("x" * 100) and text.endswith("y" * 50)
    small = await host.call("big", {"chars": 400})
    assert small.text == "x" * 200 + "y" * 200


async def test_large_images_are_replaced_by_a_note(host) -> None:
    ok = await host.call("picture", {"size": 600})
    assert [b.type for b in ok.content] == ["text", "image"]
    cut = await host.call("picture", {"size": 5000})
    assert [b.type for b in cut.content] == ["text", "text"]
    assert "max_image_bytes" in cut.content[1].text


async def test_concurrent_calls_are_independent(host) -> None:
    results = await asyncio.gather(*(host.call("limited", {"limit": i}) for i in range(1, 101)))
    assert [r.data["limit"] for r in results] == list(range(1, 101))
    assert len({r.call_id for r in results}) == 100


async def test_closed_session_refuses_calls(host) -> None:
    session = host.session()
    async with session:
        assert (await session.call("limited")).ok
    assert (await session.call("limited")).error.type == "unavailable"
