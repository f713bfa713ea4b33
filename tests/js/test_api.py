"""The script API beyond permissions: utils (Go layouts), Base64, JSON.pretty,
console capture, fs round trips, http bodies and headers, async execute."""

from __future__ import annotations

import base64
import calendar
import json
import time

from tests.js.conftest import ALL_ALLOWED, js_config, tool_source, write_tool

TS = 1704096000


async def _run(make_host, workspace, body, permissions=None, **config):
    write_tool(workspace, "t.js", tool_source("probe", body, permissions))
    host = await make_host(plugins=["js"], config=js_config(ALL_ALLOWED, **config))
    return await host.call("probe")


async def test_format_and_parse_time(make_host, workspace):
    body = f"""return [
        utils.formatTime({TS}, "2006-01-02"),
        utils.formatTime({TS}, "2006-01-02 15:04:05"),
        utils.formatTime({TS}, "Jan _2 03:04PM"),
        utils.parseTime("2024-01-01T00:00:00Z"),
        utils.parseTime("2024-01-01T08:00:00+08:00"),
        utils.timestamp() > 1700000000,
        typeof utils.uuid(), utils.uuid() !== utils.uuid(),
        utils.cwd()
    ];"""
    result = await _run(make_host, workspace, body)
    local = time.localtime(TS)
    hour12 = local.tm_hour % 12 or 12
    assert result.data == [
        time.strftime("%Y-%m-%d", local),
        time.strftime("%Y-%m-%d %H:%M:%S", local),
        f"{time.strftime('%b', local)} {local.tm_mday:2d} {hour12:02d}:{local.tm_min:02d}"
        + ("PM" if local.tm_hour >= 12 else "AM"),
        calendar.timegm((2024, 1, 1, 0, 0, 0)),
        calendar.timegm((2024, 1, 1, 0, 0, 0)),
        True,
        "string",
        True,
        str(workspace.resolve()),
    ]
    bad = await _run(make_host, workspace, 'return utils.parseTime("yesterday");')
    assert bad.error.type == "invalid_arguments"


async def test_base64_json_pretty_and_console(make_host, workspace):
    body = """
    console.log("plain", 1, {a: [1, 2]});
    console.info("info line");
    console.warn("careful");
    console.error(new Error("bad thing"));
    console.debug("details");
    console.table([{name: "a", n: 1}, {name: "b", n: 2}]);
    return JSON.stringify({
        enc: Base64.encode("Hello World"),
        dec: Base64.decode(Base64.encode("héllo ✓")),
        pretty: JSON.pretty({name: "test", value: 123})
    });"""
    result = await _run(make_host, workspace, body)
    assert result.ok, result.text
    assert result.data == {
        "enc": base64.b64encode(b"Hello World").decode(),
        "dec": "héllo ✓",
        "pretty": json.dumps({"name": "test", "value": 123}, indent=2),
    }
    console = result.content[1].text.splitlines()
    assert console[:6] == [
        "console:",
        'plain 1 {"a":[1,2]}',
        "info line",
        "warn: careful",
        "error: Error: bad thing",
        "debug: details",
    ]
    assert console[6].split() == ["|", "(index)", "|", "name", "|", "n", "|"]
    assert console[8].split() == ["|", "0", "|", "a", "|", "1", "|"]


async def test_fs_round_trip(make_host, workspace):
    body = """
    fs.mkdir("a/b");
    fs.writeFile("a/b/one.txt", "one");
    fs.appendFile("a/b/one.txt", "+two");
    fs.copyFile("a/b/one.txt", "a/copy.txt");
    fs.moveFile("a/copy.txt", "a/moved.txt");
    var info = fs.getInfo("a/moved.txt");
    var listing = fs.listDir("a").map(function (e) { return e.name + (e.is_dir ? "/" : ""); });
    var out = [fs.readFile("a/moved.txt"), fs.exists("a/copy.txt"), fs.isDir("a/b"), fs.isFile("a/b"),
               info.size, info.is_dir, info.mode.slice(0, 3), listing];
    fs.deleteFile("a/moved.txt");
    fs.rmdir("a", true);
    out.push(fs.exists("a"));
    return out;"""
    perms = {"fileRead": True, "fileWrite": True, "fileDelete": True}
    result = await _run(make_host, workspace, body, perms)
    assert result.ok, result.text
    assert result.data == ["one+two", False, True, False, 7, False, "-rw", ["b/", "moved.txt"], False]
    assert not (workspace / "a").exists()


async def test_http_bodies_and_headers(make_host, workspace, http_server):
    url = http_server.url + "/echo"
    body = f"""
    var a = http.postJSON({url!r}, {{name: "test", value: 123}});
    var b = http.request("PUT", {url!r}, "raw text", {{"Authorization": "Bearer t0ken"}});
    var c = http.post({url!r}, {{k: "v"}});
    return [JSON.parse(a.body), JSON.parse(b.body), JSON.parse(c.body), a.status_code, a.ok,
            a.headers["content-type"]];"""
    result = await _run(make_host, workspace, body, {"network": True}, net_allow=["127.0.0.1"])
    assert result.ok, result.text
    assert result.data == [
        {"method": "POST", "body": json.dumps({"name": "test", "value": 123}), "auth": None},
        {"method": "PUT", "body": "raw text", "auth": "Bearer t0ken"},
        {"method": "POST", "body": json.dumps({"k": "v"}), "auth": None},
        200,
        True,
        "application/json",
    ]
    assert http_server.requests[0]["headers"]["content-type"] == "application/json"


async def test_async_execute_and_return_shapes(make_host, workspace):
    write_tool(
        workspace,
        "a.js",
        "async function execute(p) { await null; return {n: p.n + 1}; }\nvar tool = {name: 'later'};",
    )
    write_tool(workspace, "b.js", "var tool = {name: 'nothing'};\nfunction execute() {}")
    write_tool(
        workspace,
        "c.js",
        "var tool = {name: 'rejects'};\nasync function execute() { throw new TypeError('nope'); }",
    )
    write_tool(
        workspace, "d.js", "var tool = {name: 'throws_string'};\nfunction execute() { throw 'plain'; }"
    )
    host = await make_host(plugins=["js"])
    assert (await host.call("later", {"n": 1})).data == {"n": 2}
    assert (await host.call("nothing")).text == "(execute returned no value)"
    rejected = await host.call("rejects")
    assert rejected.error.type == "tool_error" and "TypeError: nope" in rejected.text
    assert "plain" in (await host.call("throws_string")).text
