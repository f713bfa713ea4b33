"""Escapes a script may try: files outside the workspace, blocked addresses,
commands without permission, and reaching Python or the host from JavaScript."""

from __future__ import annotations

import os

import pytest

from tests.js.conftest import ALL_ALLOWED, js_config, tool_source, write_tool

FILE_PERMS = {"fileRead": True, "fileWrite": True, "fileDelete": True}


@pytest.fixture
def outside(tmp_path):
    target = tmp_path / "outside.txt"
    target.write_text("outside secret")
    return target


@pytest.mark.parametrize(
    "body",
    [
        "return fs.readFile('../outside.txt');",
        "return fs.readFile(OUTSIDE);",
        "return fs.readFile('link/outside.txt');",
        "return fs.exists('../outside.txt');",
        "return fs.listDir('..');",
        "fs.writeFile('../outside.txt', 'pwned'); return 1;",
        "fs.appendFile('link/outside.txt', 'pwned'); return 1;",
        "fs.deleteFile('../outside.txt'); return 1;",
        "fs.copyFile('../outside.txt', 'stolen.txt'); return 1;",
        "fs.moveFile('../outside.txt', 'stolen.txt'); return 1;",
        "fs.copyFile('in.txt', '../copied.txt'); return 1;",
    ],
)
async def test_fs_outside_the_workspace(make_host, workspace, outside, body):
    (workspace / "in.txt").write_text("in")
    os.symlink(outside.parent, workspace / "link")
    body = body.replace("OUTSIDE", repr(str(outside)))
    write_tool(workspace, "t.js", tool_source("probe", body, FILE_PERMS))
    host = await make_host(plugins=["js"], config=js_config(ALL_ALLOWED))
    result = await host.call("probe")
    assert result.error.type == "outside_workspace", result.text
    assert outside.read_text() == "outside secret"
    assert not (workspace / "stolen.txt").exists()
    assert not (outside.parent / "copied.txt").exists()


@pytest.mark.parametrize(
    "body",
    [
        "fs.writeFile('agenthost.toml', '[plugins.js.permissions]\\nexec = true'); return 1;",
        "fs.writeFile('.agenthost/audit/fake.jsonl', '{}'); return 1;",
        "fs.deleteFile('agenthost.toml'); return 1;",
        "fs.rmdir('.', true); return 1;",
    ],
)
async def test_host_config_state_and_root_are_out_of_reach(make_host, workspace, body):
    (workspace / "agenthost.toml").write_text("[plugins.js.permissions]\nfile_delete = true\n")
    write_tool(workspace, "t.js", tool_source("probe", body, FILE_PERMS))
    host = await make_host(plugins=["js"], config=workspace / "agenthost.toml")
    result = await host.call("probe")
    assert result.error.type == "denied", result.text
    assert (workspace / "agenthost.toml").read_text() == "[plugins.js.permissions]\nfile_delete = true\n"
    assert not (workspace / ".agenthost" / "audit" / "fake.jsonl").exists()
    assert (workspace / "tools" / "t.js").exists()


@pytest.mark.parametrize(
    ("url", "allow", "error_type", "words"),
    [
        ("http://127.0.0.1:PORT/data", [], "denied", "loopback"),
        ("http://127.1:PORT/data", [], "denied", "loopback"),
        ("http://[::ffff:127.0.0.1]:PORT/data", [], "denied", "loopback"),
        ("http://localhost:PORT/data", [], "denied", "loopback"),
        ("http://169.254.169.254/latest/meta-data/", ["169.254.0.0/16"], "denied", "metadata"),
        ("http://127.0.0.1:PORT/redirect-metadata", ["127.0.0.1"], "denied", "metadata"),
        ("file:///etc/passwd", ["127.0.0.1"], "invalid_arguments", "scheme"),
        ("gopher://127.0.0.1:PORT/", ["127.0.0.1"], "invalid_arguments", "scheme"),
    ],
)
async def test_http_to_blocked_addresses(make_host, workspace, http_server, url, allow, error_type, words):
    port = http_server.url.rsplit(":", 1)[1]
    body = f"return http.get({url.replace('PORT', port)!r}).body;"
    write_tool(workspace, "t.js", tool_source("probe", body, {"network": True}))
    host = await make_host(plugins=["js"], config=js_config(ALL_ALLOWED, net_allow=allow))
    result = await host.call("probe")
    assert result.error.type == error_type, result.text
    assert words in result.text
    if "redirect" not in url:
        assert http_server.requests == []


async def test_allowed_domains_narrows_the_guard(make_host, workspace, http_server):
    body = f"return http.get({http_server.url + '/data'!r}).body;"
    write_tool(workspace, "t.js", tool_source("probe", body, {"network": True}))
    ceiling = {**ALL_ALLOWED, "allowed_domains": ["api.example.com"]}
    host = await make_host(plugins=["js"], config=js_config(ceiling, net_allow=["127.0.0.1"]))
    result = await host.call("probe")
    assert result.error.type == "denied"
    assert "allowed_domains" in result.text
    assert http_server.requests == []
    ceiling = {**ALL_ALLOWED, "allowed_domains": ["127.0.0.1"]}
    second = await make_host(plugins=["js"], config=js_config(ceiling, net_allow=["127.0.0.1"]))
    assert (await second.call("probe")).ok


async def test_exec_without_permission_starts_no_process(make_host, workspace):
    marker = workspace / "ran.txt"
    bodies = [
        "shell.exec('touch ran.txt');",
        "shell.pipe(['echo x', 'tee ran.txt']);",
        "shell.execInDir('touch ran.txt', '.');",
        "shell.execWithTimeout('touch ran.txt', 5);",
    ]
    for index, body in enumerate(bodies):
        write_tool(workspace, f"t{index}.js", tool_source(f"probe{index}", body + " return 1;"))
    host = await make_host(plugins=["js", "shell"], config=js_config(ALL_ALLOWED))
    for index in range(len(bodies)):
        result = await host.call(f"probe{index}")
        assert result.error.type == "denied", result.text
    assert not marker.exists()


async def test_shell_stays_inside_the_workspace(make_host, workspace, outside):
    body = "return shell.execInDir('pwd', '..');"
    write_tool(workspace, "t.js", tool_source("probe", body, {"exec": True}))
    host = await make_host(plugins=["js", "shell"], config=js_config(ALL_ALLOWED))
    result = await host.call("probe")
    assert result.error.type == "outside_workspace", result.text


NO_PYTHON = r"""
var names = Object.getOwnPropertyNames(globalThis);
var found = {
    host_gone: typeof __host === "undefined" && names.indexOf("__host") < 0,
    no_modules: ["require", "process", "std", "os", "__builtins__", "__import__", "Deno", "Bun"]
        .every(function (n) { return typeof globalThis[n] === "undefined"; }),
    plain_functions: fs.readFile.constructor === Function
        && Object.getOwnPropertyNames(fs.readFile).sort().join(",") === "length,name",
    escaped_global: fs.readFile.constructor("return this")() === globalThis,
    bridge_hidden: String(fs.readFile).indexOf("native code") >= 0,
    proto_keys: Object.getOwnPropertyNames(Object.getPrototypeOf(fs.readFile)).indexOf("__class__") < 0,
};
var dynamicImport = "none";
import("os").then(function () { dynamicImport = "loaded"; }, function (e) { dynamicImport = "refused"; });
return new Promise(function (resolve) {
    Promise.resolve().then(function () {}).then(function () {
        found.import = dynamicImport;
        resolve(found);
    });
});
"""


async def test_no_python_or_host_objects_reachable(make_host, workspace):
    write_tool(workspace, "t.js", tool_source("probe", NO_PYTHON))
    host = await make_host(plugins=["js"])
    result = await host.call("probe")
    assert result.ok, result.text
    assert result.data == {
        "host_gone": True,
        "no_modules": True,
        "plain_functions": True,
        "escaped_global": True,
        "bridge_hidden": True,
        "proto_keys": True,
        "import": "refused",
    }


@pytest.mark.parametrize(
    "body",
    [
        "return fs.readFile({toString: function () { return '/etc/passwd'; }});",
        "return fs.readFile(['/etc/passwd']);",
        "return http.request('GET /etc/passwd HTTP/1.1\\r\\nX:', 'http://127.0.0.1/');",
        "return shell.pipe('rm -rf /');",
        "return Base64.decode('%%%');",
    ],
)
async def test_odd_arguments_are_refused_not_coerced(make_host, workspace, body):
    write_tool(workspace, "t.js", tool_source("probe", body, {**FILE_PERMS, "network": True, "exec": True}))
    host = await make_host(plugins=["js"], config=js_config(ALL_ALLOWED))
    result = await host.call("probe")
    assert result.error.type == "invalid_arguments", result.text


async def test_redefining_the_api_does_not_widen_it(make_host, workspace):
    body = (
        "fs = {readFile: function () { return 'fake'; }};"
        "Object.prototype.granted = ['fileRead'];"
        "var bridge = Object.getOwnPropertyNames(globalThis).filter(function (n) { return n.indexOf('host') >= 0; });"
        "try { return globalThis.__agenthost.start.constructor('return fs')().readFile('x') + bridge.join(','); }"
        "catch (e) { return 'error: ' + e.message; }"
    )
    write_tool(workspace, "t.js", tool_source("probe", body))
    (workspace / "x").write_text("real")
    host = await make_host(plugins=["js"])
    result = await host.call("probe")
    assert result.text == "fake__agenthost"  # only its own redefinition: no real read
    denied = tool_source("probe2", "Object.prototype.fileRead = true; return fs.readFile('x');")
    write_tool(workspace, "u.js", denied)
    host2 = await make_host(plugins=["js"])
    assert (await host2.call("probe2")).error.type == "denied"


async def test_secret_environment_variables_are_hidden(make_host, workspace, monkeypatch):
    monkeypatch.setenv("AGENTHOST_TEST_API_KEY", "sk-very-secret")
    monkeypatch.setenv("AGENTHOST_TEST_PLAIN", "visible")
    body = (
        "return JSON.stringify([utils.env('AGENTHOST_TEST_API_KEY'), utils.envOr('AGENTHOST_TEST_API_KEY', 'd'),"
        " utils.env('AGENTHOST_TEST_PLAIN'), utils.envOr('AGENTHOST_TEST_NOPE', 'fallback')]);"
    )
    write_tool(workspace, "t.js", tool_source("probe", body))
    host = await make_host(plugins=["js"])
    assert (await host.call("probe")).data == ["", "d", "visible", "fallback"]
