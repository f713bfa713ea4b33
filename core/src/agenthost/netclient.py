"""The guarded httpx client: a transport pinned to the checked address,
redirects followed by hand (each hop checked), and a capped, deadline-bound fetch.

``agenthost.net`` is the public face; see its docstring. httpx is imported only
when a client is made.
"""

from __future__ import annotations

import asyncio
import re
import zlib
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agenthost.netguard import BlockedURL, FetchError, FetchTimeout, NetGuard, Resolver

if TYPE_CHECKING:
    import httpx

DEFAULT_MAX_BYTES = 10_000_000
DEFAULT_TIMEOUT_S = 30.0
MAX_REDIRECTS = 5
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
CREDENTIAL_HEADERS = ("authorization", "cookie", "proxy-authorization")


# -- the transport -------------------------------------------------------------------


def _guarded_backend(guard: NetGuard) -> Any:
    import httpcore

    class GuardedNetworkBackend(httpcore.AsyncNetworkBackend):
        """Resolves and checks at connect time, then connects to the checked IP."""

        def __init__(self) -> None:
            self._inner = httpcore.AnyIOBackend()

        async def connect_tcp(
            self,
            host: str,
            port: int,
            timeout: float | None = None,
            local_address: str | None = None,
            socket_options: Iterable[Any] | None = None,
        ) -> Any:
            addresses = await guard.resolve(host, port)
            error: Exception | None = None
            for address in addresses:
                try:
                    return await self._inner.connect_tcp(
                        address, port, timeout, local_address, socket_options
                    )
                except (httpcore.ConnectError, httpcore.ConnectTimeout) as e:
                    error = e
            assert error is not None
            raise error

        async def connect_unix_socket(
            self, path: str, timeout: float | None = None, socket_options: Any = None
        ) -> Any:
            raise BlockedURL("blocked: unix sockets cannot be reached from tools")

        async def sleep(self, seconds: float) -> None:
            await self._inner.sleep(seconds)

    return GuardedNetworkBackend()


def guarded_transport(
    guard: NetGuard, *, verify: Any = True, http2: bool = False
) -> httpx.AsyncHTTPTransport:
    """An httpx transport whose every connection passes ``guard`` (no proxies)."""
    import httpcore
    import httpx

    transport = httpx.AsyncHTTPTransport(verify=verify, trust_env=False, http2=http2)
    old = transport._pool
    # httpx builds its pool without a way to pass a network backend: rebuild it
    # with the same settings and the guarded backend.
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=old._ssl_context,
        max_connections=old._max_connections,
        max_keepalive_connections=old._max_keepalive_connections,
        keepalive_expiry=old._keepalive_expiry,
        http1=old._http1,
        http2=old._http2,
        network_backend=_guarded_backend(guard),
    )
    return transport


# -- the client ------------------------------------------------------------------------


@dataclass
class FetchResponse:
    """A whole (capped) response."""

    url: str
    status: int
    reason: str
    headers: httpx.Headers
    content: bytes
    truncated: bool = False
    redirects: list[str] = field(default_factory=list)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    @property
    def charset(self) -> str | None:
        match = re.search(r"charset\s*=\s*[\"']?([\w.:-]+)", self.headers.get("content-type", ""), re.I)
        return match.group(1) if match else None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def text(self) -> str:
        try:
            return self.content.decode(self.charset or "utf-8", errors="replace")
        except LookupError:
            return self.content.decode("utf-8", errors="replace")


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))


class GuardedClient:
    """An httpx ``AsyncClient`` behind the guard, with redirects followed by hand.

    ``client.http`` is the underlying ``httpx.AsyncClient`` (never use it for a
    URL that did not come through ``fetch`` or ``stream``: redirects there are
    not followed, and connections still pass the guard).
    """

    def __init__(
        self,
        guard: NetGuard,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        headers: Mapping[str, str] | None = None,
        verify: Any = True,
        max_redirects: int = MAX_REDIRECTS,
    ) -> None:
        import httpx

        self.guard = guard
        self.max_redirects = max_redirects
        self.timeout = timeout
        base = {"accept-encoding": "gzip, deflate", "user-agent": f"agenthost/{_version()}"}
        base.update({k.lower(): v for k, v in (headers or {}).items()})
        self.http = httpx.AsyncClient(
            transport=guarded_transport(guard, verify=verify),
            follow_redirects=False,
            trust_env=False,
            timeout=httpx.Timeout(timeout),
            headers=base,
        )

    async def __aenter__(self) -> GuardedClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    @asynccontextmanager
    async def stream(
        self,
        url: str,
        *,
        method: str = "GET",
        headers: Mapping[str, str] | None = None,
        content: bytes | str | None = None,
        max_redirects: int | None = None,
    ) -> AsyncIterator[httpx.Response]:
        """The final response after checked redirects, body unread. Its
        ``extensions["agenthost_redirects"]`` lists the URLs that redirected."""
        import httpx

        limit = self.max_redirects if max_redirects is None else max_redirects
        current = self.guard.check_url_static(url)
        request_headers = httpx.Headers(headers or {})
        method = method.upper()
        body = content
        chain: list[str] = []
        while True:
            request = self.http.build_request(method, current, headers=request_headers, content=body)
            response = await self._send(request)
            location = response.headers.get("location")
            if response.status_code not in REDIRECT_CODES or not location:
                break
            await response.aclose()
            if len(chain) >= limit:
                raise FetchError(
                    f"too many redirects (more than {limit}) starting at {url}; fetch the last URL directly: {current}"
                )
            try:
                target = current.join(location)
            except httpx.InvalidURL:
                raise FetchError(f"{current} redirected to an invalid URL {location!r}") from None
            target = self.guard.check_url_static(target)
            if _origin(target) != _origin(current):
                for name in CREDENTIAL_HEADERS:
                    request_headers.pop(name, None)
            if (response.status_code == 303 and method != "HEAD") or (
                response.status_code in (301, 302) and method == "POST"
            ):
                method, body = "GET", None
                for name in ("content-type", "content-length", "transfer-encoding"):
                    request_headers.pop(name, None)
            chain.append(str(current))
            current = target
        response.extensions = {**response.extensions, "agenthost_redirects": chain}
        try:
            yield response
        finally:
            await response.aclose()

    async def _send(self, request: httpx.Request) -> httpx.Response:
        import httpx

        try:
            return await self.http.send(request, stream=True)
        except httpx.TimeoutException:
            raise FetchTimeout(
                f"timed out after {self.timeout:g}s waiting for {request.url.host}; try again later or another source"
            ) from None
        except httpx.ConnectError as e:
            raise FetchError(
                f"could not connect to {request.url.host}:{request.url.port or ''} ({_cause(e)}); "
                "check the URL or try again later"
            ) from None
        except httpx.HTTPError as e:
            raise FetchError(f"request to {request.url.host} failed ({_cause(e)}); try again later") from None

    async def fetch(
        self,
        url: str,
        *,
        method: str = "GET",
        headers: Mapping[str, str] | None = None,
        content: bytes | str | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        timeout: float | None = None,
        max_redirects: int | None = None,
    ) -> FetchResponse:
        """The whole exchange under one deadline; the body cut at ``max_bytes``
        (after decompression), with ``truncated`` set when it was."""
        deadline = self.timeout if timeout is None else timeout
        try:
            async with asyncio.timeout(deadline):
                async with self.stream(
                    url, method=method, headers=headers, content=content, max_redirects=max_redirects
                ) as response:
                    body, truncated = await read_capped(response, max_bytes)
                    return FetchResponse(
                        url=str(response.url),
                        status=response.status_code,
                        reason=response.reason_phrase,
                        headers=response.headers,
                        content=body,
                        truncated=truncated,
                        redirects=list(response.extensions.get("agenthost_redirects", [])),
                    )
        except TimeoutError:
            raise FetchTimeout(
                f"timed out after {deadline:g}s fetching {url}; try again later, or a smaller page"
            ) from None


async def read_capped(response: httpx.Response, max_bytes: int) -> tuple[bytes, bool]:
    """Read a streamed body, decompressed, up to ``max_bytes``; (body, truncated).

    gzip and deflate are decompressed here with a bound on each step, so a
    small compressed chunk cannot expand past the cap in memory.
    """
    import httpx

    encoding = response.headers.get("content-encoding", "").strip().lower()
    out = bytearray()
    try:
        if encoding in ("", "identity", "gzip", "x-gzip", "deflate"):
            decoder = _Inflater(encoding) if encoding not in ("", "identity") else None
            async for chunk in response.aiter_raw():
                data = decoder.feed(chunk, max_bytes + 1 - len(out)) if decoder else chunk
                out += data
                if len(out) > max_bytes:
                    return bytes(out[:max_bytes]), True
                if decoder is not None and decoder.done:
                    break
        else:  # br, zstd, stacked encodings: httpx decodes them
            async for chunk in response.aiter_bytes():
                out += chunk
                if len(out) > max_bytes:
                    return bytes(out[:max_bytes]), True
    except httpx.TimeoutException:
        raise FetchTimeout(
            f"timed out reading the body of {response.url}; try again later, or a smaller page"
        ) from None
    except (httpx.HTTPError, zlib.error) as e:
        raise FetchError(
            f"the body of {response.url} could not be read ({_cause(e)}); try again later"
        ) from None
    return bytes(out), False


class _Inflater:
    def __init__(self, encoding: str) -> None:
        self.gzip = encoding in ("gzip", "x-gzip")
        self.obj = zlib.decompressobj(zlib.MAX_WBITS | 16 if self.gzip else zlib.MAX_WBITS)
        self.first = True
        self.finished = False

    @property
    def done(self) -> bool:
        return self.finished

    def feed(self, chunk: bytes, room: int) -> bytes:
        """Up to ``room`` bytes of output (the rest of the input is dropped:
        the caller stops once the cap is passed)."""
        if self.first and not self.gzip:
            self.first = False
            try:
                probe = zlib.decompressobj(zlib.MAX_WBITS)
                probe.decompress(chunk[:2])
            except zlib.error:  # raw deflate without the zlib header
                self.obj = zlib.decompressobj(-zlib.MAX_WBITS)
        out = bytearray()
        data = chunk
        while data and len(out) < room:
            out += self.obj.decompress(data, room - len(out))
            data = self.obj.unconsumed_tail
            if self.obj.eof:
                data = self.obj.unused_data
                if not (self.gzip and data.startswith(b"\x1f\x8b")):
                    self.finished = True
                    break
                self.obj = zlib.decompressobj(zlib.MAX_WBITS | 16)  # the next gzip member
        return bytes(out)


def _cause(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text and text[0] else type(error).__name__


def _version() -> str:
    from agenthost import __version__

    return __version__


def guarded_client(
    config: Any = None,
    *,
    timeout: float = DEFAULT_TIMEOUT_S,
    headers: Mapping[str, str] | None = None,
    verify: Any = True,
    max_redirects: int = MAX_REDIRECTS,
    resolver: Resolver | None = None,
) -> GuardedClient:
    """A ``GuardedClient`` for ``config`` (a ``Config``, a ``NetGuard`` or None).

    Use it as ``async with guarded_client(config) as client:``, or keep it
    (per session) and call ``await client.aclose()`` at the end.
    """
    guard = NetGuard.from_config(config, resolver=resolver)
    return GuardedClient(guard, timeout=timeout, headers=headers, verify=verify, max_redirects=max_redirects)


async def fetch(client: GuardedClient, url: str, **options: Any) -> FetchResponse:
    """``client.fetch(url, **options)``."""
    return await client.fetch(url, **options)
