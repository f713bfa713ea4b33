"""A loopback OpenAI-compatible chat-completions server that plays a script.

Each step is a message dict (``{"content": ...}`` or ``{"tool_calls": [...]}``)
or a function of the request body returning one, or an ``(http_status, body)``
pair. Every request (headers and body) is recorded for the test to inspect.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] | tuple[int, str]


def tool_call(name: str, arguments: dict[str, Any] | str, call_id: str = "") -> dict[str, Any]:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "id": call_id or f"call_{name}_{abs(hash(args)) % 10_000}",
        "type": "function",
        "function": {"name": name, "arguments": args},
    }


def calls(*items: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": list(items)}


def answer(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


class FakeOpenAI:
    def __init__(self, script: list[Step], repeat_last: bool = False) -> None:
        self.script = list(script)
        self.repeat_last = repeat_last
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, body: dict[str, Any]) -> tuple[int, str]:
        index = len(self.requests) - 1
        if index >= len(self.script):
            if not self.repeat_last or not self.script:
                return 500, json.dumps({"error": {"message": "script exhausted"}})
            index = len(self.script) - 1
        step = self.script[index]
        if isinstance(step, tuple):
            return step
        message = step(body) if callable(step) else step
        message = {"role": "assistant", **message}
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        payload = {
            "id": f"chatcmpl-{index}",
            "object": "chat.completion",
            "model": body.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        return 200, json.dumps(payload)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/chat/completions":
                    status, text = 404, json.dumps({"error": {"message": f"no route {self.path}"}})
                else:
                    fake.requests.append(body)
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                    status, text = fake._next(body)
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler
