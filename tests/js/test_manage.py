"""create_tool / list_tools / delete_tool, the tools folder, and broken files."""

from __future__ import annotations

from typing import Any

from agenthost import hookimpl
from tests.js.conftest import CALCULATOR, js_config, tool_source, write_tool

ECHO = "function execute(params) {\n    return 'echo: ' + params.text;\n}"
TEXT_PARAMS = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


class ChangeRecorder:
    def __init__(self) -> None:
        self.changes: list[tuple[list[str], list[str]]] = []

    @hookimpl
    def agenthost_tools_changed(self, host: Any, added: list[str], removed: list[str]) -> None:
        self.changes.append((added, removed))


async def test_created_tool_is_callable_at_once_and_announced(make_host, workspace):
    recorder = ChangeRecorder()
    host = await make_host(plugins=["js"], hooks=[recorder])
    result = await host.call(
        "create_tool",
        {"name": "echo_text", "description": "Echo a text", "code": ECHO, "parameters": TEXT_PARAMS},
    )
    assert result.ok, result.text
    assert result.data["file"] == "tools/echo_text.js"
    assert recorder.changes == [(["echo_text"], [])]
    assert host.tools["echo_text"].description == "Echo a text"
    assert host.tools["echo_text"].input_schema["required"] == ["text"]
    assert host.definitions("mcp", ["echo_text"])[0]["name"] == "echo_text"
    call = await host.call("echo_text", {"text": "hi"})
    assert call.text == "echo: hi"
    saved = (workspace / "tools" / "echo_text.js").read_text()
    assert "function execute(params)" in saved and '"name": "echo_text"' in saved

    deleted = await host.call("delete_tool", {"name": "echo_text"})
    assert deleted.ok, deleted.text
    assert "echo_text" not in host.tools
    assert recorder.changes[-1] == ([], ["echo_text"])
    assert not (workspace / "tools" / "echo_text.js").exists()
    gone = await host.call("echo_text", {"text": "hi"})
    assert gone.error.type == "unknown_tool"


async def test_created_tool_survives_a_restart(make_host, workspace):
    first = await make_host(plugins=["js"])
    created = await first.call(
        "create_tool",
        {
            "name": "keeper",
            "description": "Kept",
            "code": ECHO,
            "parameters": TEXT_PARAMS,
            "permissions": {"fileRead": True},
        },
    )
    assert created.ok, created.text
    await first.aclose()
    second = await make_host(plugins=["js"])
    assert (await second.call("keeper", {"text": "again"})).text == "echo: again"
    listed = (await second.call("list_tools")).data
    keeper = next(t for t in listed["dynamic_tools"] if t["name"] == "keeper")
    assert keeper["created"] is True and keeper["permissions"] == {"fileRead": True}
    assert keeper["granted"] == ["fileRead"]
    # and it is still deletable after the restart
    assert (await second.call("delete_tool", {"name": "keeper"})).ok


async def test_name_rules(make_host):
    host = await make_host(plugins=["js"])
    for bad in ["a", "9lives", "has-dash", "has space", "x" * 51, "ünï"]:
        result = await host.call("create_tool", {"name": bad, "description": "d", "code": ECHO})
        assert result.error.type == "invalid_arguments", bad
        assert "2-50" in result.text
    for good in ["ab", "_x", "A1_b", "y" * 50]:
        result = await host.call("create_tool", {"name": good, "description": "d", "code": ECHO})
        assert result.ok, (good, result.text)


async def test_execute_is_required_and_code_must_run(make_host, workspace):
    host = await make_host(plugins=["js"])
    missing = await host.call("create_tool", {"name": "noexec", "description": "d", "code": "var x = 1;"})
    assert missing.error.type == "invalid_arguments"
    assert "execute(params)" in missing.text
    broken = await host.call(
        "create_tool", {"name": "broken", "description": "d", "code": "function execute(p) {\n  return (;\n}"}
    )
    assert broken.error.type == "invalid_arguments"
    assert "SyntaxError" in broken.text and "line 2" in broken.text
    assert not (workspace / "tools" / "noexec.js").exists()
    assert not (workspace / "tools" / "broken.js").exists()
    assert "noexec" not in host.tools and "broken" not in host.tools


async def test_overwrite(make_host):
    host = await make_host(plugins=["js"])
    args = {"name": "versioned", "description": "v1", "code": "function execute() { return 'one'; }"}
    assert (await host.call("create_tool", args)).ok
    again = await host.call("create_tool", {**args, "code": "function execute() { return 'two'; }"})
    assert again.error.type == "invalid_arguments" and "overwrite" in again.text
    assert (await host.call("versioned")).text == "one"
    replaced = await host.call(
        "create_tool",
        {**args, "description": "v2", "code": "function execute() { return 'two'; }", "overwrite": True},
    )
    assert replaced.ok and replaced.data["replaced"] is True
    assert (await host.call("versioned")).text == "two"
    assert host.tools["versioned"].description == "v2"


async def test_builtin_and_hand_written_tools_cannot_be_replaced_or_deleted(make_host, workspace):
    write_tool(workspace, "calculator.js", CALCULATOR)
    host = await make_host(plugins=["js", "fs"])
    for name in ["read_file", "create_tool", "calculator"]:
        deleted = await host.call("delete_tool", {"name": name})
        assert deleted.error.type == "denied", name
        assert name in host.tools
        replaced = await host.call(
            "create_tool", {"name": name, "description": "d", "code": ECHO, "overwrite": True}
        )
        assert not replaced.ok, name
    assert (workspace / "tools" / "calculator.js").exists()
    assert (await host.call("delete_tool", {"name": "never_made"})).error.type == "not_found"


async def test_list_tools_shape(make_host, workspace):
    write_tool(workspace, "calculator.js", CALCULATOR)
    host = await make_host(plugins=["js"])
    assert (await host.call("create_tool", {"name": "made", "description": "d", "code": ECHO})).ok
    data = (await host.call("list_tools")).data
    builtin = {t["name"] for t in data["builtin_tools"]}
    dynamic = {t["name"]: t for t in data["dynamic_tools"]}
    assert {"create_tool", "list_tools", "delete_tool"} <= builtin
    assert set(dynamic) == {"calculator", "made"}
    assert (
        dynamic["calculator"]["created"] is False and dynamic["calculator"]["file"] == "tools/calculator.js"
    )
    assert dynamic["made"]["created"] is True
    example = data["create_example"]
    made = await host.call("create_tool", example)
    assert made.ok, made.text
    assert (await host.call(example["name"], {"text": "three little words"})).data == {"words": 3}


async def test_bad_definitions_are_refused(make_host):
    host = await make_host(plugins=["js"])
    cases = [
        {"parameters": {"type": "array"}},
        {"parameters": {"type": "object", "properties": {"x": {"type": "no-such-type"}}}},
        {"permissions": {"root": True}},
        {"permissions": {"fileRead": "yes"}},
        {"description": "  "},
    ]
    for case in cases:
        args = {"name": "bad_def", "description": "d", "code": ECHO, **case}
        result = await host.call("create_tool", args)
        assert result.error.type == "invalid_arguments", (case, result.text)


async def test_permissions_over_the_ceiling_are_reported(make_host):
    host = await make_host(plugins=["js"])
    result = await host.call(
        "create_tool",
        {
            "name": "wants_net",
            "description": "d",
            "code": ECHO,
            "permissions": {"network": True, "fileRead": True},
        },
    )
    assert result.ok
    assert result.data["granted"] == ["fileRead"]
    assert "network" in result.data["not_granted"]
    assert host.tools["wants_net"].level == "read"


async def test_broken_files_are_problems_and_the_others_load(make_host, workspace):
    write_tool(workspace, "calculator.js", CALCULATOR)
    write_tool(
        workspace, "syntax.js", "var tool = {name: 'syntax_bad'};\nfunction execute(p) {\n  return [;\n}\n"
    )
    write_tool(
        workspace, "throws.tool", "var tool = {name: 'thrower'};\n\nnull.boom;\nfunction execute() {}\n"
    )
    write_tool(workspace, "noexec.js", "var tool = {name: 'noexec', description: 'x'};\n")
    write_tool(workspace, "badname.js", "var tool = {name: '1bad'};\nfunction execute() {}\n")
    write_tool(workspace, "clash.js", tool_source("read_file", "return 'mine';"))
    write_tool(workspace, "dup.js", CALCULATOR)
    write_tool(workspace, "loops.js", "var tool = {name: 'loops'};\nwhile (true) {}\nfunction execute() {}\n")
    write_tool(workspace, "notes.txt", "not a tool")
    host = await make_host(plugins=["js", "fs"], config=js_config(timeout=1))
    js = next(i for i in host.plugin_infos if i.name == "js")
    fs = next(i for i in host.plugin_infos if i.name == "fs")
    assert js.status == "loaded" and fs.status == "loaded"
    assert host.tools["read_file"].plugin == "fs"
    problems = "\n".join(js.problems)
    assert len(js.problems) == 7, problems
    assert "tools/syntax.js line 3: SyntaxError" in problems
    assert "tools/throws.tool line 3: TypeError" in problems
    assert "tools/noexec.js: the code defines no execute(params) function" in problems
    assert "tools/badname.js" in problems and "2-50" in problems
    assert "tools/clash.js" in problems and "read_file" in problems
    assert "tools/dup.js" in problems and "already defined by tools/calculator.js" in problems
    assert "tools/loops.js: the script ran longer than 1 s" in problems and "longer than 1 s" in problems
    assert "calculator" in js.tools and "calculator" in host.tools
    assert (await host.call("calculator", {"expression": "6*7"})).data["result"] == 42


async def test_disabled_plugin_registers_nothing(make_host, workspace):
    write_tool(workspace, "calculator.js", CALCULATOR)
    host = await make_host(plugins=["js"], config=js_config(enabled=False))
    assert not host.tools


async def test_tools_dir_setting(make_host, workspace):
    (workspace / "scripts").mkdir()
    (workspace / "scripts" / "calc.js").write_text(CALCULATOR)
    host = await make_host(plugins=["js"], config=js_config(tools_dir="scripts"))
    assert "calculator" in host.tools
    made = await host.call("create_tool", {"name": "here", "description": "d", "code": ECHO})
    assert made.data["file"] == "scripts/here.js"
