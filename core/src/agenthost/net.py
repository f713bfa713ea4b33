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

The guard lives in ``agenthost.netguard`` and the client in
``agenthost.netclient``; import both from here.
"""

from __future__ import annotations

from agenthost.netclient import (
    CREDENTIAL_HEADERS,
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT_S,
    MAX_REDIRECTS,
    REDIRECT_CODES,
    FetchResponse,
    GuardedClient,
    fetch,
    guarded_client,
    guarded_transport,
    read_capped,
)
from agenthost.netguard import (
    METADATA_ADDRESSES,
    METADATA_NAMES,
    BlockedURL,
    CheckedTarget,
    FetchError,
    FetchTimeout,
    IPAddress,
    NetGuard,
    Resolver,
    UnsupportedURL,
    blocked_reason,
    embedded_ipv4,
    is_metadata,
    literal_address,
    normalize_host,
)

__all__ = [
    "CREDENTIAL_HEADERS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT_S",
    "MAX_REDIRECTS",
    "METADATA_ADDRESSES",
    "METADATA_NAMES",
    "REDIRECT_CODES",
    "BlockedURL",
    "CheckedTarget",
    "FetchError",
    "FetchResponse",
    "FetchTimeout",
    "GuardedClient",
    "IPAddress",
    "NetGuard",
    "Resolver",
    "UnsupportedURL",
    "blocked_reason",
    "embedded_ipv4",
    "fetch",
    "guarded_client",
    "guarded_transport",
    "is_metadata",
    "literal_address",
    "normalize_host",
    "read_capped",
]
