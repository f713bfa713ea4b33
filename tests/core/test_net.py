"""The SSRF guard (agenthost.net) against a real loopback server."""

from __future__ import annotations

import datetime
import functools
import gzip
import ipaddress
import ssl
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agenthost.config import Config
from agenthost.net import (
    BlockedURL,
    FetchError,
    FetchTimeout,
    NetGuard,
    UnsupportedURL,
    blocked_reason,
    fetch,
    guarded_client,
    literal_address,
)

from ..loopback_http import trickle

LOOPBACK = ["127.0.0.1"]


@functools.cache
def _bomb() -> bytes:
    """200 MB of zeros in about 200 KB of gzip."""
    return gzip.compress(b"\0" * (200 * 1024 * 1024), compresslevel=1)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        if path == "/hello":
            self._send(200, b"hello", {"Content-Type": "text/plain"})
        elif path == "/echo":
            lines = [f"{k.lower()}: {v}" for k, v in self.headers.items()]
            self._send(200, "\n".join(lines).encode(), {"Content-Type": "text/plain"})
        elif path == "/redirect":
            self._send(
                302, b"", {"Location": query.removeprefix("to=").replace("%3A", ":").replace("%2F", "/")}
            )
        elif path.startswith("/hops/"):
            n = int(path.rsplit("/", 1)[1])
            target = f"/hops/{n - 1}" if n > 0 else "/hello"
            self._send(307, b"", {"Location": target})
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(2 * 1024**3))
            self.end_headers()
            block = b"x" * 65536
            try:
                for _ in range(2 * 1024**3 // 65536):
                    self.wfile.write(block)
            except OSError:
                pass
        elif path == "/bomb":
            body = _bomb()
            self._send(200, body, {"Content-Type": "text/plain", "Content-Encoding": "gzip"})
        elif path == "/gzip":
            self._send(200, gzip.compress(b"small and compressed"), {"Content-Encoding": "gzip"})
        elif path == "/gzip-members":
            body = gzip.compress(b"first member, ") + gzip.compress(b"second member")
            self._send(200, body, {"Content-Encoding": "gzip"})
        elif path == "/deflate-raw":
            packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
            body = packer.compress(b"raw deflate body") + packer.flush()
            self._send(200, body, {"Content-Encoding": "deflate"})
        elif path == "/deflate":
            self._send(200, zlib.compress(b"zlib deflate body"), {"Content-Encoding": "deflate"})
        elif path == "/trickle":
            trickle(self, 1000, 0.2, b"a")
        else:
            self._send(404, b"no such page")


def serve(ssl_context: ssl.SSLContext | None = None) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if ssl_context is not None:
        server.socket = ssl_context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def port() -> Iterator[str]:
    yield from serve()


async def _get(url: str, allow: list[str] | None = None, **options: object) -> object:
    async with guarded_client(NetGuard(allow=allow or [])) as client:
        return await client.fetch(url, **options)  # type: ignore[arg-type]


# -- address rules ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("169.254.1.1", "link-local"),
        ("100.64.0.1", "CGNAT"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("240.0.0.1", "reserved"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1", "link-local"),
        ("fc00::1", "private"),
        ("ff02::1", "multicast"),
        ("::ffff:10.0.0.1", "private, as IPv4 10.0.0.1"),
        ("::127.0.0.1", "loopback, as IPv4"),
        ("2002:a9fe:a9fe::", "metadata"),
        ("64:ff9b::7f00:1", "loopback"),
        ("169.254.169.254", "metadata"),
        ("fd00:ec2::254", "metadata"),
    ],
)
def test_blocked_reasons(address: str, reason: str) -> None:
    found = blocked_reason(ipaddress.ip_address(address))
    assert found is not None and reason in found


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1::", "::ffff:93.184.216.34", "1.1.1.1"])
def test_public_addresses_pass(address: str) -> None:
    assert blocked_reason(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("[::ffff:127.0.0.1]", "::ffff:7f00:1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("example.com", None),
        ("cafe", None),
    ],
)
def test_literal_addresses_read_like_the_c_resolver(host: str, address: str | None) -> None:
    found = literal_address(host)
    assert (str(found) if found else None) == address


@given(st.sampled_from(["127.0.0.0/8", "10.0.0.0/8", "192.168.0.0/16", "169.254.0.0/16"]), st.data())
def test_every_spelling_of_a_private_address_is_caught(network: str, data: st.DataObject) -> None:
    net = ipaddress.ip_network(network)
    value = data.draw(st.integers(int(net.network_address), int(net.broadcast_address)))
    a, b, c, d = ipaddress.IPv4Address(value).packed
    spellings = [
        str(value),
        hex(value),
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"{a}.{b}.{(c << 8) | d}",
        f"0{a:o}.0x{b:x}.{c}.0{d:o}",
        f"[::ffff:{a}.{b}.{c}.{d}]",
        f"{a}.{b}.{c}.{d}.",
    ]
    guard = NetGuard()
    for spelling in spellings:
        address = literal_address(spelling)
        assert address is not None, spelling
        with pytest.raises(BlockedURL):
            guard.check_host(spelling)


# -- odd forms of loopback, end to end ---------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "127.1",
        "0x7f000001",
        "2130706433",
        "[::ffff:127.0.0.1]",
        "127.0.0.1",
        "[::1]",
        "0177.1",
        "[::127.0.0.1]",
    ],
)
async def test_odd_loopback_forms_are_blocked(port: str, host: str) -> None:
    with pytest.raises(BlockedURL, match="loopback"):
        await _get(f"http://{host}:{port}/hello")


@pytest.mark.parametrize("host", ["127.1", "0x7f000001", "2130706433", "[::ffff:127.0.0.1]"])
async def test_odd_forms_reach_the_allowed_address(port: str, host: str) -> None:
    response = await _get(f"http://{host}:{port}/hello", allow=LOOPBACK)
    assert response.status == 200 and response.content == b"hello"  # type: ignore[attr-defined]


async def test_trailing_dot_hostname_is_blocked(port: str) -> None:
    with pytest.raises(BlockedURL, match="loopback"):
        await _get(f"http://localhost.:{port}/hello")
    with pytest.raises(BlockedURL):
        await _get(f"http://LOCALHOST..:{port}/hello")


async def test_allowed_host_name_resolves_and_connects(port: str) -> None:
    response = await _get(f"http://localhost.:{port}/hello", allow=["localhost"])
    assert response.content == b"hello"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "gopher://127.0.0.1:70/_x", "ftp://example.com/", "data:,x"]
)
async def test_only_http_and_https(url: str) -> None:
    with pytest.raises(UnsupportedURL, match="only http"):
        await _get(url, allow=["0.0.0.0/0"])


async def test_metadata_stays_blocked_when_everything_is_allowed() -> None:
    everything = ["0.0.0.0/0", "::/0", "169.254.0.0/16", "metadata.google.internal", "*.internal"]
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/",
        "http://[::ffff:169.254.169.254]/",
        "http://0xa9fea9fe/",
        "http://metadata.google.internal./computeMetadata/v1/",
    ]:
        with pytest.raises(BlockedURL, match="metadata"):
            await _get(url, allow=everything)


# -- redirects ------------------------------------------------------------------------


async def test_redirect_from_allowed_to_blocked_host(port: str) -> None:
    for target in (
        f"http://localhost:{port}/hello",
        f"http://127.0.0.2:{port}/hello",
        "http://169.254.169.254/",
    ):
        with pytest.raises(BlockedURL):
            await _get(f"http://127.0.0.1:{port}/redirect?to={target}", allow=LOOPBACK)


async def test_redirect_to_other_scheme_is_refused(port: str) -> None:
    with pytest.raises(UnsupportedURL):
        await _get(f"http://127.0.0.1:{port}/redirect?to=file:///etc/passwd", allow=LOOPBACK)


async def test_redirects_are_followed_up_to_five(port: str) -> None:
    response = await _get(f"http://127.0.0.1:{port}/hops/4", allow=LOOPBACK)
    assert response.content == b"hello"  # type: ignore[attr-defined]
    assert len(response.redirects) == 5  # type: ignore[attr-defined]
    assert response.url.endswith("/hello")  # type: ignore[attr-defined]
    with pytest.raises(FetchError, match="too many redirects"):
        await _get(f"http://127.0.0.1:{port}/hops/5", allow=LOOPBACK)


async def test_credentials_dropped_on_cross_origin_redirect(port: str) -> None:
    secret = {"Authorization": "Bearer s3cret", "Cookie": "session=abc", "X-Other": "kept"}
    allow = ["127.0.0.1", "localhost"]
    same = await _get(f"http://127.0.0.1:{port}/redirect?to=/echo", allow=allow, headers=secret)
    assert "s3cret" in same.text() and "session=abc" in same.text()  # type: ignore[attr-defined]
    cross = await _get(
        f"http://127.0.0.1:{port}/redirect?to=http://localhost:{port}/echo", allow=allow, headers=secret
    )
    text = cross.text()  # type: ignore[attr-defined]
    assert "x-other: kept" in text
    assert "s3cret" not in text and "session=abc" not in text


# -- the connection goes to the checked address ---------------------------------------------------


def _resolver(table: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    calls: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return table[host]

    resolve.calls = calls  # type: ignore[attr-defined]
    return resolve


async def test_connection_uses_the_checked_address_and_keeps_the_host_name(port: str) -> None:
    # "pinned.test" is unknown to the system resolver: reaching the server proves
    # the connection went to the address the guard resolved and checked.
    resolver = _resolver({"pinned.test": ["127.0.0.1"]})
    async with guarded_client(NetGuard(allow=["pinned.test"], resolver=resolver)) as client:
        response = await client.fetch(f"http://pinned.test:{port}/echo")
    assert f"host: pinned.test:{port}" in response.text()
    assert resolver.calls == ["pinned.test"]


async def test_every_resolved_address_is_checked(port: str) -> None:
    resolver = _resolver({"mixed.test": ["93.184.216.34", "127.0.0.1"]})
    async with guarded_client(NetGuard(resolver=resolver)) as client:
        with pytest.raises(BlockedURL, match=r"mixed\.test \(127\.0\.0\.1\) is loopback"):
            await client.fetch(f"http://mixed.test:{port}/hello")


async def test_rebinding_is_checked_on_every_connection(port: str) -> None:
    answers = iter([["127.0.0.1"], ["10.0.0.5"]])

    async def rebinding(host: str, port: int) -> list[str]:
        return next(answers)

    guard = NetGuard(allow=["127.0.0.1"], resolver=rebinding)
    async with guarded_client(guard) as client:
        first = await client.fetch(f"http://rebind.test:{port}/hello", headers={"Connection": "close"})
        assert first.content == b"hello"
        with pytest.raises(BlockedURL, match=r"10\.0\.0\.5"):
            await client.fetch(f"http://rebind.test:{port}/hello")


def _self_signed(tmp: Path, name: str) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_path, key_path


async def test_tls_to_a_pinned_address_verifies_the_host_name(tmp_path: Path) -> None:
    pytest.importorskip("cryptography", reason="cryptography not installed")
    cert, key = _self_signed(tmp_path, "secure.test")
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    client_ctx = ssl.create_default_context(cafile=str(cert))
    seen_sni: list[str | None] = []
    server_ctx.sni_callback = lambda sock, name, ctx: seen_sni.append(name)  # type: ignore[assignment]
    server = serve(server_ctx)
    tls_port = next(server)
    try:
        resolver = _resolver({"secure.test": ["127.0.0.1"]})
        guard = NetGuard(allow=["secure.test", "127.0.0.1"], resolver=resolver)
        async with guarded_client(guard, verify=client_ctx) as client:
            response = await fetch(client, f"https://secure.test:{tls_port}/hello")
            assert response.content == b"hello"
            assert seen_sni == ["secure.test"]
            # the same server by address: the certificate does not name it
            with pytest.raises(FetchError):
                await client.fetch(f"https://127.0.0.1:{tls_port}/hello")
    finally:
        server.close()


# -- caps and deadlines -------------------------------------------------------------------


async def test_endless_body_is_cut_at_the_cap(port: str) -> None:
    response = await _get(f"http://127.0.0.1:{port}/endless", allow=LOOPBACK, max_bytes=1_000_000)
    assert response.truncated and len(response.content) == 1_000_000  # type: ignore[attr-defined]


async def test_gzip_bomb_is_cut_at_the_cap(port: str) -> None:
    response = await _get(f"http://127.0.0.1:{port}/bomb", allow=LOOPBACK, max_bytes=2_000_000)
    assert response.truncated and len(response.content) == 2_000_000  # type: ignore[attr-defined]
    assert set(response.content) == {0}  # type: ignore[attr-defined]


async def test_gzip_body_is_decompressed(port: str) -> None:
    response = await _get(f"http://127.0.0.1:{port}/gzip", allow=LOOPBACK)
    assert response.content == b"small and compressed" and not response.truncated  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("gzip-members", b"first member, second member"),
        ("deflate-raw", b"raw deflate body"),
        ("deflate", b"zlib deflate body"),
    ],
)
async def test_other_compressed_bodies(port: str, path: str, body: bytes) -> None:
    response = await _get(f"http://127.0.0.1:{port}/{path}", allow=LOOPBACK)
    assert response.content == body  # type: ignore[attr-defined]


async def test_trickling_server_hits_the_deadline(port: str) -> None:
    with pytest.raises(FetchTimeout, match="timed out after 1s"):
        await _get(f"http://127.0.0.1:{port}/trickle", allow=LOOPBACK, timeout=1)


async def test_unresolvable_host_says_so() -> None:
    with pytest.raises(FetchError, match="could not resolve"):
        await _get("http://no-such-host.invalid/")


def test_guard_reads_net_allow_from_config(tmp_path: Path) -> None:
    config = Config.load(tmp_path, {"net": {"allow": ["127.0.0.0/8", "*.corp.example"]}})
    guard = NetGuard.from_config(config)
    guard.check_address(ipaddress.ip_address("127.0.0.9"), "127.0.0.9")
    guard.check_address(ipaddress.ip_address("10.1.1.1"), "wiki.corp.example")
    with pytest.raises(BlockedURL):
        guard.check_address(ipaddress.ip_address("10.1.1.1"), "corp.example.evil")
    with pytest.raises(BlockedURL, match="metadata"):
        guard.check_address(ipaddress.ip_address("169.254.169.254"), "wiki.corp.example")
