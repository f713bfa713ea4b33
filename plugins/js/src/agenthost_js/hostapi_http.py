"""``http.*``: requests through the core SSRF guard and ``allowed_domains``
(``agenthost_js.netguard``), bodies capped by the script memory limit."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

from agenthost.errors import InvalidArguments, ToolFailure
from agenthost_js.hostapi_bridge import ApiBase, text_arg
from agenthost_js.hostapi_fs import atomic_write

_DOWNLOAD_MAX = 100 * 1024 * 1024


@dataclass
class _Json:
    data: Any


class HttpApi(ApiBase):
    """The ``http.*`` ops."""

    def op_http_get(self, url: Any, headers: Any = None) -> dict[str, Any]:
        return self._http("GET", url, None, headers, "http.get")

    def op_http_post(self, url: Any, body: Any = None, headers: Any = None) -> dict[str, Any]:
        return self._http("POST", url, body, headers, "http.post")

    def op_http_postJSON(self, url: Any, data: Any = None, headers: Any = None) -> dict[str, Any]:
        return self._http("POST", url, _Json(data), headers, "http.postJSON")

    def op_http_request(self, method: Any, url: Any, body: Any = None, headers: Any = None) -> dict[str, Any]:
        if not isinstance(method, str) or not re.fullmatch(r"[A-Za-z]{1,16}", method):
            raise InvalidArguments("http.request: method must be a word such as GET or POST")
        return self._http(method.upper(), url, body, headers, "http.request")

    def op_http_download(self, url: Any, path: Any, headers: Any = None) -> dict[str, Any]:
        target = self._path(path, write=True)
        client = self._client()
        checked_url = text_arg(url, "url")
        request_headers = _headers(headers)
        limit = self.settings.permissions.http_timeout

        async def download() -> dict[str, Any]:
            from agenthost.net import FetchTimeout, read_capped

            try:
                async with asyncio.timeout(limit):
                    async with client.stream(checked_url, headers=request_headers) as response:
                        body, truncated = await read_capped(response, _DOWNLOAD_MAX)
                        status = response.status_code
            except TimeoutError:
                raise FetchTimeout(
                    f"http.download: timed out after {limit:g} s fetching {checked_url}"
                ) from None
            if truncated:
                raise ToolFailure(f"http.download: {checked_url} is larger than {_DOWNLOAD_MAX:,} bytes")
            ok = 200 <= status < 300
            if ok:
                await asyncio.to_thread(atomic_write, target, body)
            return {"ok": ok, "status_code": status, "path": self._shown(target), "size": len(body)}

        return self._wait(download(), "http.download")  # type: ignore[no-any-return]

    def _client(self) -> Any:
        from agenthost_js.netguard import js_client

        ctx = self.ctx
        return ctx.state(
            "js.http", lambda: js_client(ctx.config, self.settings.permissions.allowed_domains, self.settings)
        )

    def _http(self, method: str, url: Any, body: Any, headers: Any, op: str) -> dict[str, Any]:
        checked_url = text_arg(url, "url")
        request_headers = _headers(headers)
        content: bytes | None
        if isinstance(body, _Json) or (body is not None and not isinstance(body, str)):
            data = body.data if isinstance(body, _Json) else body
            content = json.dumps(data, ensure_ascii=False).encode("utf-8")
            if not any(k.lower() == "content-type" for k in request_headers):
                request_headers["content-type"] = "application/json"
        else:
            content = body.encode("utf-8") if isinstance(body, str) else None
        client = self._client()
        timeout = min(self.settings.permissions.http_timeout, max(self.run.remaining(), 0.001))

        async def fetch() -> dict[str, Any]:
            response = await client.fetch(
                checked_url,
                method=method,
                headers=request_headers,
                content=content,
                max_bytes=self.settings.max_memory,
                timeout=timeout,
            )
            return {
                "ok": response.ok,
                "status_code": response.status,
                "status": f"{response.status} {response.reason}".strip(),
                "headers": {k: v for k, v in response.headers.items()},
                "body": response.text(),
                "url": response.url,
                "truncated": response.truncated,
            }

        return self._wait(fetch(), op)  # type: ignore[no-any-return]


def _headers(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidArguments("headers must be an object of name: value strings")
    return {str(k): str(v) for k, v in value.items()}
