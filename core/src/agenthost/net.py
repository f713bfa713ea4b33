"""The SSRF guard and a guarded httpx client for requests made on a model's behalf.

Use it for every request whose URL a model chose (``web_fetch``, the JS
plugin's ``http.*``, browser navigation). Endpoints the user configured (an LLM
base URL, SearXNG, MCP server URLs) are trusted and need no guard.

Usage::

    from agenthost.net import guarded_client

    async with guarded_client(config) as client:   # config: Config, NetGuard or None
        response = await client.fetch(url, max_bytes=5_000_000, timeout=30)
        response.status, response.headers, response.content, response.truncated
        response.url          # the final URL after redirects
        response.redirects    # the URLs that redirected, in order

    # streaming (redirects already followed and checked; the body is unread):
    async with client.stream(url, method="POST", content=b"...") as response:
        body, truncated = await read_capped(response, max_bytes=1_000_000)

    # a browser checks a navigation and pins what it checked:
    target = await NetGuard.from_config(config).check_url(url)
    target.host, target.port, target.addresses   # e.g. --host-resolver-rules="MAP host ip"

``fetch(client, url, ...)`` is the same as ``client.fetch(url, ...)``.

What the guard enforces:

- only ``http`` and ``https`` URLs (``file:``, ``gopher:``, ... raise ``UnsupportedURL``);
- hosts are read the way the C resolver reads them, so ``127.1``,
  ``0x7f000001``, ``2130706433``, ``0177.0.0.1``, ``[::ffff:127.0.0.1]`` and
  ``localhost.`` are all seen as loopback;
- every address a host resolves to is checked, and one bad address blocks the
  URL: loopback, private, link-local, shared (CGNAT 100.64/10), multicast,
  unspecified, reserved, documentation and any other range that is not
  globally routable; an IPv6 address that carries an IPv4 one (mapped,
  compatible, SIIT, 6to4, NAT64; Teredo is never global) is judged by the IPv4
  address inside;
- cloud metadata addresses and names (169.254.169.254, fd00:ec2::254,
  metadata.google.internal, ...) are blocked always, even inside a range that
  ``[net] allow`` lets through;
- ``[net] allow`` lists host names (``intranet.example``, ``*.example.com``),
  addresses or CIDR ranges (``127.0.0.1``, ``10.0.0.0/8``) to let through;
- the connection goes to the address that was checked: the client's network
  backend resolves and checks the host when it opens a connection and then
  connects to that IP, while the URL keeps the host name, so the Host header,
  TLS SNI and the certificate check all use the name (no DNS rebinding window
  between a check and a second lookup);
- redirects are followed by hand, at most 5, each hop checked again;
  ``Authorization``, ``Cookie`` and ``Proxy-Authorization`` are dropped when a
  redirect leaves the origin;
- proxies from the environment are ignored (``trust_env=False``): a proxy
  would do its own lookups and make the checks meaningless;
- ``fetch`` caps the body while streaming, after decompression (a gzip bomb
  stops at the cap), and puts one deadline on the whole exchange so a server
  that trickles bytes cannot hold a call.

Errors are ``ToolFailure`` subclasses with one-line messages that say what to
try: ``BlockedURL`` (denied), ``UnsupportedURL`` (invalid_arguments),
``FetchTimeout`` (timeout) and ``FetchError`` (tool_error). httpx is imported
only when a client is made.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agenthost.errors import Denied, InvalidArguments, ToolFailure

if TYPE_CHECKING:
    import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]

DEFAULT_MAX_BYTES = 10_000_000
DEFAULT_TIMEOUT_S = 30.0
MAX_REDIRECTS = 5
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
CREDENTIAL_HEADERS = ("authorization", "cookie", "proxy-authorization")

# Blocked even when [net] allow covers them: they hand out cloud credentials.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, ...
        "169.254.170.2",  # AWS ECS task credentials
        "169.254.169.253",  # AWS VPC resolver
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::253",
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud
        "168.63.129.16",  # Azure wire server
    )
)
METADATA_NAMES = frozenset(
    {
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.azure.internal",
        "metadata.tencentyun.com",
    }
)

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_COMPAT = ipaddress.ip_network("::/96")
_SIIT = ipaddress.ip_network("::ffff:0:0:0/96")
_NUMERIC_HOST = re.compile(r"^[0-9a-fA-FxX.]+$")
_FIX = "add the host to [net] allow in agenthost.toml only if you trust it"


# -- errors ---------------------------------------------------------------------


class BlockedURL(Denied):
    """The URL leads to an address that requests on a model's behalf may not reach."""


class UnsupportedURL(InvalidArguments):
    """Not an http(s) URL, or no host."""


class FetchError(ToolFailure):
    """The exchange failed: no connection, too many redirects, a broken body."""


class FetchTimeout(ToolFailure):
    type = "timeout"


# -- address rules ----------------------------------------------------------------


def embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries, if it is of a kind that does."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _SIIT or any(ip in net for net in _NAT64) or (ip in _COMPAT and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def blocked_reason(ip: IPAddress) -> str | None:
    """Why ``ip`` may not be reached on a model's behalf, or None (ignoring
    ``[net] allow``)."""
    inner = embedded_ipv4(ip)
    if inner is not None:
        reason = blocked_reason(inner)
        return f"{reason}, as IPv4 {inner} inside IPv6" if reason else None
    if ip in METADATA_ADDRESSES:
        return "a cloud metadata address"
    checks: tuple[tuple[bool, str], ...] = (
        (ip.is_unspecified, "unspecified"),
        (ip.is_loopback, "loopback"),
        (ip.is_link_local, "link-local"),
        (ip.is_multicast, "multicast"),
        (isinstance(ip, ipaddress.IPv4Address) and ip in _CGNAT, "shared address space (CGNAT)"),
        (isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local, "site-local"),
        (ip.is_reserved, "reserved"),
        (ip.is_private, "private"),
        (not ip.is_global, "not globally routable"),
    )
    for hit, reason in checks:
        if hit:
            return reason
    return None


def is_metadata(ip: IPAddress) -> bool:
    inner = embedded_ipv4(ip)
    return (inner if inner is not None else ip) in METADATA_ADDRESSES


def normalize_host(host: str) -> str:
    """Lower case, no brackets, no trailing dots, no IPv6 zone."""
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host.split("%", 1)[0].rstrip(".")


def literal_address(host: str) -> IPAddress | None:
    """The address a host names literally, read as the C resolver reads it
    (``127.1``, ``0x7f000001``, ``2130706433`` and ``0177.0.0.1`` included)."""
    host = normalize_host(host)
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            return None
    if host and _NUMERIC_HOST.match(host) and any(c.isdigit() for c in host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


# -- the guard ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckedTarget:
    """A URL that passed the guard, with the addresses it may connect to."""

    url: str
    host: str
    port: int
    addresses: tuple[str, ...]


@dataclass
class NetGuard:
    """Decides which hosts and addresses a request on a model's behalf may reach.

    :param allow: ``[net] allow`` entries: host names (``*.example.com`` or
        ``.example.com`` for a domain and its subdomains), addresses or CIDR ranges.
    :param resolver: ``async (host, port) -> [ip, ...]``; the system resolver by default.
    """

    allow: Iterable[str] = ()
    resolver: Resolver | None = None
    _networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = field(init=False, repr=False)
    _names: set[str] = field(init=False, repr=False)
    _suffixes: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.allow = tuple(self.allow)
        self._networks, self._names, suffixes = [], set(), []
        for entry in self.allow:
            text = normalize_host(entry)
            if not text:
                continue
            try:
                self._networks.append(ipaddress.ip_network(text, strict=False))
                continue
            except ValueError:
                pass
            address = literal_address(text)
            if address is not None:
                self._networks.append(ipaddress.ip_network(address))
            elif text.startswith(("*.", ".")):
                suffixes.append("." + text.lstrip("*."))
            else:
                self._names.add(text)
        self._suffixes = tuple(suffixes)

    @classmethod
    def from_config(cls, config: Any = None, resolver: Resolver | None = None) -> NetGuard:
        """From a ``Config`` (its ``[net] allow``), a NetGuard (returned as is) or None."""
        if isinstance(config, NetGuard):
            return config
        net = getattr(config, "net", None)
        return cls(allow=list(getattr(net, "allow", ()) or ()), resolver=resolver)

    # -- decisions --

    def name_allowed(self, host: str) -> bool:
        name = normalize_host(host)
        if name in self._names:
            return True
        return bool(self._suffixes) and ("." + name).endswith(self._suffixes)

    def check_address(self, ip: IPAddress, host: str) -> None:
        """Raise ``BlockedURL`` unless ``ip`` (reached through ``host``) may be used."""
        shown = f"{host} ({ip})" if normalize_host(host) != str(ip) else str(ip)
        if is_metadata(ip):
            raise BlockedURL(
                f"blocked: {shown} is a cloud metadata address, which is never reachable from tools"
            )
        reason = blocked_reason(ip)
        if reason is None or self.name_allowed(host):
            return
        if any(ip in net for net in self._networks if net.version == ip.version):
            return
        inner = embedded_ipv4(ip)
        if inner is not None and any(inner in net for net in self._networks if net.version == 4):
            return
        raise BlockedURL(f"blocked: {shown} is {reason}; {_FIX}")

    def check_host(self, host: str) -> IPAddress | None:
        """Checks that need no lookup; returns the literal address, if the host is one."""
        name = normalize_host(host)
        if not name:
            raise UnsupportedURL("the URL has no host; give a full http:// or https:// URL")
        if name in METADATA_NAMES:
            raise BlockedURL(f"blocked: {host} is a cloud metadata host, which is never reachable from tools")
        address = literal_address(name)
        if address is not None:
            self.check_address(address, host)
        elif (name == "localhost" or name.endswith(".localhost")) and not self.name_allowed(name):
            raise BlockedURL(f"blocked: {host} is loopback; {_FIX}")
        return address

    def check_url_static(self, url: str | httpx.URL) -> httpx.URL:
        """Scheme, host and literal-address checks (no lookup); the parsed URL."""
        import httpx

        try:
            parsed = httpx.URL(url) if isinstance(url, str) else url
        except (httpx.InvalidURL, TypeError, ValueError) as e:
            raise UnsupportedURL(
                f"not a valid URL: {url!r} ({e}); give a full http:// or https:// URL"
            ) from None
        if parsed.scheme not in ("http", "https"):
            scheme = parsed.scheme or "no scheme"
            raise UnsupportedURL(
                f"unsupported URL scheme {scheme!r} in {str(url)[:200]}: only http:// and https:// URLs can be fetched"
            )
        self.check_host(parsed.host)
        return parsed

    async def resolve(self, host: str, port: int) -> list[str]:
        """Every address ``host`` resolves to, each checked; raises ``BlockedURL``
        if any is blocked and ``FetchError`` if the name does not resolve."""
        literal = self.check_host(host)
        if literal is not None:
            mapped = literal.ipv4_mapped if isinstance(literal, ipaddress.IPv6Address) else None
            return [str(mapped or literal)]
        name = normalize_host(host)
        try:
            if self.resolver is not None:
                found = await self.resolver(name, port)
            else:
                infos = await asyncio.get_running_loop().getaddrinfo(name, port, type=socket.SOCK_STREAM)
                found = [str(info[4][0]) for info in infos]
        except socket.gaierror as e:
            raise FetchError(
                f"could not resolve host {host!r} ({e.strerror}); check the URL's spelling"
            ) from None
        addresses = list(dict.fromkeys(a.split("%", 1)[0] for a in found))
        if not addresses:
            raise FetchError(f"host {host!r} has no addresses; check the URL's spelling")
        for text in addresses:
            self.check_address(ipaddress.ip_address(text), host)
        return addresses

    async def check_url(self, url: str) -> CheckedTarget:
        """Every check, lookup included: for callers that connect by themselves
        (a browser) and can pin the returned addresses."""
        parsed = self.check_url_static(url)
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        addresses = await self.resolve(parsed.host, port)
        return CheckedTarget(str(parsed), parsed.host, port, tuple(addresses))


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
