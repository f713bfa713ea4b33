"""The SSRF guard: which hosts and addresses a request on a model's behalf may reach.

Host parsing (the way the C resolver reads hosts), the address rules, the
``[net] allow`` list and the errors. ``agenthost.net`` is the public face; see
its docstring for what the guard enforces. No httpx import at module level.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agenthost.errors import Denied, InvalidArguments, ToolFailure

if TYPE_CHECKING:
    import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]

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
