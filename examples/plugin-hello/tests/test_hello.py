"""The example plugin's own tests, written with agenthost.testing."""

from __future__ import annotations

from agenthost.testing import check_conformance, list_fresh


async def test_hello(make_host):
    host = await make_host(plugins=["hello"])
    result = await host.call("hello", {"name": "Ada"})
    assert result.ok and result.text == "Hello, Ada!"


async def test_config_section(make_host):
    host = await make_host(plugins=["hello"], config={"plugins": {"hello": {"greeting": "Hi"}}})
    assert (await host.call("hello", {"name": "Ada", "style": "loud"})).text == "HI, ADA!"


async def test_count_words(make_host, workspace):
    (workspace / "notes.txt").write_text("the cat and the hat and the bat")
    host = await make_host(plugins=["hello"])
    result = await host.call("count_words", {"path": "notes.txt", "top": 2})
    assert result.data == {
        "words": 8,
        "most_common": [{"word": "the", "count": 3}, {"word": "and", "count": 2}],
    }
    outside = await host.call("count_words", {"path": "../etc/passwd"})
    assert outside.error.type == "outside_workspace"


async def test_every_tool_conforms(make_host, workspace):
    (workspace / "README.md").write_text("hello world")
    host = await make_host(plugins=["hello"])
    for name in host.tools:
        assert await check_conformance(host, name) == []


def test_listing_stays_light(tmp_path):
    # `agenthost tools` imports every installed plugin: this one brings nothing heavy
    listing = list_fresh(["hello"], tmp_path)
    assert listing.tools == ["count_words", "hello"]
    assert listing.loaded("agenthost_hello") == ["agenthost_hello"]
    assert listing.imported() == []
