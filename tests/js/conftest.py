"""Shared pieces for the JS plugin tests: seed 004's example files, a
loopback HTTP server, and configs that open the permission ceiling."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

# Seed 004's four examples, as written there.
CALCULATOR = """var tool = {
    name: "calculator",
    description: "执行数学计算",
    parameters: {
        type: "object",
        properties: {
            expression: {
                type: "string",
                description: "数学表达式，如: 2 + 3 * 4"
            }
        },
        required: ["expression"]
    }
};

function execute(params) {
    var expression = params.expression;
    var result = Function('"use strict"; return (' + expression + ')')();
    return JSON.stringify({
        expression: expression,
        result: result
    });
}
"""

API_FETCHER = """var tool = {
    name: "api_fetcher",
    description: "从API获取数据并保存到文件",
    parameters: {
        type: "object",
        properties: {
            url: { type: "string", description: "API URL" },
            file: { type: "string", description: "保存文件名" }
        },
        required: ["url", "file"]
    },
    permissions: {
        network: true,
        fileWrite: true
    }
};

function execute(params) {
    var response = http.get(params.url);
    if (response.ok) {
        fs.writeFile(params.file, response.body);
        return JSON.stringify({ success: true, file: params.file });
    }
    return JSON.stringify({ success: false, error: response.status });
}
"""

FILE_PROCESSOR = """var tool = {
    name: "file_processor",
    description: "处理文件内容",
    parameters: {
        type: "object",
        properties: {
            input: { type: "string", description: "输入文件" },
            output: { type: "string", description: "输出文件" },
            operation: { type: "string", description: "操作类型" }
        },
        required: ["input", "output", "operation"]
    },
    permissions: {
        fileRead: true,
        fileWrite: true
    }
};

function execute(params) {
    var content = fs.readFile(params.input);
    var result;

    switch (params.operation) {
        case "uppercase":
            result = content.toUpperCase();
            break;
        case "lowercase":
            result = content.toLowerCase();
            break;
        default:
            return JSON.stringify({ error: "Unknown operation" });
    }

    fs.writeFile(params.output, result);
    return JSON.stringify({ success: true, output: params.output });
}
"""

RUN_COMMAND = """var tool = {
    name: "run_command",
    description: "执行 shell 命令",
    parameters: {
        type: "object",
        properties: {
            command: { type: "string", description: "要执行的命令" },
            timeout: { type: "integer", description: "超时时间（秒）" }
        },
        required: ["command"]
    },
    permissions: {
        exec: true
    }
};

function execute(params) {
    var timeout = params.timeout || 30;
    var result = shell.execWithTimeout(params.command, timeout);

    return JSON.stringify({
        success: result.success,
        stdout: result.stdout,
        stderr: result.stderr,
        exitCode: result.exit_code,
        duration: result.duration
    });
}
"""

ALL_ALLOWED = {"file_read": True, "file_write": True, "file_delete": True, "network": True, "exec": True}


def js_config(
    permissions: dict[str, Any] | None = None, net_allow: list[str] | None = None, **js: Any
) -> dict[str, Any]:
    """A host config with ``[plugins.js]`` and ``[net] allow`` set."""
    section: dict[str, Any] = dict(js)
    if permissions is not None:
        section["permissions"] = permissions
    config: dict[str, Any] = {"plugins": {"js": section}}
    if net_allow is not None:
        config["net"] = {"allow": net_allow}
    return config


def write_tool(workspace: Path, filename: str, source: str) -> Path:
    folder = workspace / "tools"
    folder.mkdir(exist_ok=True)
    path = folder / filename
    path.write_text(source, encoding="utf-8")
    return path


def tool_source(
    name: str, body: str, permissions: dict[str, bool] | None = None, params: dict[str, Any] | None = None
) -> str:
    """A tool file in seed 004's format with ``body`` as execute's body."""
    header: dict[str, Any] = {
        "name": name,
        "description": f"test tool {name}",
        "parameters": params or {"type": "object", "properties": {}},
    }
    if permissions:
        header["permissions"] = permissions
    return f"var tool = {json.dumps(header)};\nfunction execute(params) {{\n{body}\n}}\n"


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.requests.append(  # type: ignore[attr-defined]
            {"method": self.command, "path": self.path, "body": body.decode(), "headers": dict(self.headers)}
        )
        path = self.path.split("?")[0]
        if path == "/slow":
            time.sleep(5)
        if path == "/redirect-metadata":
            self.send_response(302)
            self.send_header("location", "http://169.254.169.254/latest/meta-data/")
            self.end_headers()
            return
        if path == "/missing":
            self.send_response(404)
            self.end_headers()
            self.wfile.write(b"no such thing")
            return
        if path == "/echo":
            payload = json.dumps(
                {"method": self.command, "body": body.decode(), "auth": self.headers.get("authorization")}
            )
        else:
            payload = json.dumps({"items": [1, 2, 3], "source": "loopback"})
        data = payload.encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the script was stopped while this request slept

    do_GET = do_POST = do_PUT = do_DELETE = _answer


@pytest.fixture
def http_server() -> Iterator[Any]:
    """A loopback HTTP server; ``.url`` is its base URL, ``.requests`` what it saw."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.requests = []  # type: ignore[attr-defined]
    server.url = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
