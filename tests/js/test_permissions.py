"""Every permission: denied when the tool does not declare it, denied when the
[plugins.js.permissions] ceiling switches it off, allowed when both agree."""

from __future__ import annotations

import pytest

from tests.js.conftest import ALL_ALLOWED, js_config, tool_source, write_tool

# permission, ceiling key, the call, how to see that it did not happen
CASES = [
    ("fileRead", "file_read", "return fs.readFile('secret.txt');"),
    ("fileRead", "file_read", "return fs.listDir('.');"),
    ("fileWrite", "file_write", "fs.writeFile('made.txt', 'x'); return 'wrote';"),
    ("fileWrite", "file_write", "fs.mkdir('newdir'); return 'made';"),
    ("fileDelete", "file_delete", "fs.deleteFile('secret.txt'); return 'deleted';"),
    ("fileDelete", "file_delete", "fs.rmdir('keepdir'); return 'removed';"),
    ("network", "network", "return http.get(URL).body;"),
    ("network", "network", "return http.postJSON(URL, {a: 1}).body;"),
    ("exec", "exec", "return shell.exec('touch ran.txt').exit_code;"),
]


def _prepare(workspace, http_server, body):
    (workspace / "secret.txt").write_text("s3cret")
    (workspace / "keepdir").mkdir(exist_ok=True)
    return body.replace("URL", repr(http_server.url + "/data"))


def _nothing_happened(workspace, http_server):
    assert (workspace / "secret.txt").read_text() == "s3cret"
    assert (workspace / "keepdir").is_dir()
    assert not (workspace / "made.txt").exists()
    assert not (workspace / "newdir").exists()
    assert not (workspace / "ran.txt").exists()
    assert http_server.requests == []


@pytest.mark.parametrize(("permission", "key", "body"), CASES)
async def test_denied_when_not_declared(make_host, workspace, http_server, permission, key, body):
    write_tool(workspace, "t.js", tool_source("probe", _prepare(workspace, http_server, body)))
    host = await make_host(plugins=["js", "shell"], config=js_config(ALL_ALLOWED, net_allow=["127.0.0.1"]))
    result = await host.call("probe")
    assert result.error.type == "denied", result.text
    assert f"needs the {permission} permission" in result.text
    assert "does not declare" in result.text
    _nothing_happened(workspace, http_server)


@pytest.mark.parametrize(("permission", "key", "body"), CASES)
async def test_denied_by_the_ceiling(make_host, workspace, http_server, permission, key, body):
    write_tool(
        workspace, "t.js", tool_source("probe", _prepare(workspace, http_server, body), {permission: True})
    )
    ceiling = {**ALL_ALLOWED, key: False}
    host = await make_host(plugins=["js", "shell"], config=js_config(ceiling, net_allow=["127.0.0.1"]))
    result = await host.call("probe")
    assert result.error.type == "denied", result.text
    assert f"[plugins.js.permissions] {key} = false" in result.text
    _nothing_happened(workspace, http_server)


@pytest.mark.parametrize(("permission", "key", "body"), CASES)
async def test_allowed_when_declared_and_under_the_ceiling(
    make_host, workspace, http_server, permission, key, body
):
    write_tool(
        workspace, "t.js", tool_source("probe", _prepare(workspace, http_server, body), {permission: True})
    )
    host = await make_host(plugins=["js", "shell"], config=js_config(ALL_ALLOWED, net_allow=["127.0.0.1"]))
    result = await host.call("probe")
    assert result.ok, result.text


@pytest.mark.parametrize(
    ("permission", "body"),
    [
        ("file_delete", "fs.deleteFile('secret.txt');"),
        ("network", "http.get(URL);"),
        ("exec", "shell.exec('touch ran.txt');"),
    ],
)
async def test_default_ceiling_denies_delete_network_and_exec(
    make_host, workspace, http_server, permission, body
):
    declared = {"fileDelete": True, "network": True, "exec": True}
    write_tool(workspace, "t.js", tool_source("probe", _prepare(workspace, http_server, body), declared))
    host = await make_host(plugins=["js", "shell"], config={"net": {"allow": ["127.0.0.1"]}})
    assert host.tools["probe"].level == "read"  # nothing beyond the ceiling counts
    result = await host.call("probe")
    assert result.error.type == "denied"
    assert f"{permission} = false" in result.text
    _nothing_happened(workspace, http_server)


async def test_default_ceiling_allows_read_and_write(make_host, workspace):
    (workspace / "in.txt").write_text("abc")
    body = "fs.writeFile('out.txt', fs.readFile('in.txt') + 'd'); return 'ok';"
    write_tool(workspace, "t.js", tool_source("probe", body, {"fileRead": True, "fileWrite": True}))
    host = await make_host(plugins=["js"])
    assert host.tools["probe"].level == "write"
    assert (await host.call("probe")).ok
    assert (workspace / "out.txt").read_text() == "abcd"


async def test_download_needs_network_and_file_write(make_host, workspace, http_server):
    body = f"return http.download({http_server.url + '/data'!r}, 'dl/data.json');"
    write_tool(workspace, "a.js", tool_source("net_only", body, {"network": True}))
    write_tool(workspace, "b.js", tool_source("both", body, {"network": True, "fileWrite": True}))
    host = await make_host(plugins=["js"], config=js_config(ALL_ALLOWED, net_allow=["127.0.0.1"]))
    denied = await host.call("net_only")
    assert denied.error.type == "denied" and "fileWrite" in denied.text
    assert http_server.requests == []
    done = await host.call("both")
    assert done.ok, done.text
    assert done.data["size"] == (workspace / "dl" / "data.json").stat().st_size > 0


async def test_caught_denial_lets_the_script_go_on(make_host, workspace):
    body = "try { fs.readFile('x'); } catch (e) { return e.name + '|' + e.type; }"
    write_tool(workspace, "t.js", tool_source("probe", body))
    host = await make_host(plugins=["js"])
    assert (await host.call("probe")).text == "PermissionDenied|denied"
