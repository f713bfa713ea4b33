"""compact: registered only when a plugin provides the compact hook."""

from __future__ import annotations

from agenthost import hookimpl


class Compactor:
    """A stand-in for the embedding agent's context manager."""

    def __init__(self, summary="Summary: fixed the parser; tests pass."):
        self.summary = summary
        self.calls = []

    @hookimpl
    def agenthost_compact(self, focus, session):
        self.calls.append((focus, session.id))
        return self.summary


async def test_not_registered_without_a_hook(make_host):
    host = await make_host(plugins=["agent"])
    assert "compact" not in host.tools
    assert "memory" in host.tools


async def test_delegates_to_the_hook(make_host):
    compactor = Compactor()
    host = await make_host(plugins=["agent"], hooks=[compactor])
    assert "compact" in host.tools
    async with host.session(id="conv") as session:
        result = await session.call("compact", {"focus": "the parser bug"})
        plain = await session.call("compact", {})
    assert result.ok and result.text == "Summary: fixed the parser; tests pass."
    assert plain.ok
    assert compactor.calls == [("the parser bug", "conv"), (None, "conv")]


async def test_async_hook_and_structured_summary(make_host):
    class AsyncCompactor:
        @hookimpl
        async def agenthost_compact(self, focus):
            return {"kept_messages": 4, "focus": focus}

    host = await make_host(plugins=["agent"], hooks=[AsyncCompactor()])
    result = await host.call("compact", {"focus": "x"})
    assert result.ok and '"kept_messages": 4' in result.text


async def test_a_hook_that_declines_is_unavailable(make_host):
    host = await make_host(plugins=["agent"], hooks=[Compactor(summary=None)])
    result = await host.call("compact", {})
    assert not result.ok and result.error.type == "unavailable"
