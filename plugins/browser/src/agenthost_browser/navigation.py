"""Which URLs the browser may open: schemes and origin lists."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agenthost.errors import Denied, InvalidArguments
from agenthost_browser.settings import BrowserSettings

if TYPE_CHECKING:
    from agenthost.net import NetGuard

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_OPEN_SCHEMES = ("http", "https", "about", "data")
_LOCAL = re.compile(r"^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?([/?#]|$)")


def normalize_url(url: str) -> str:
    """Add a scheme to a bare host (``example.com/x`` → ``https://example.com/x``)."""
    url = url.strip()
    if not url:
        raise InvalidArguments("url is empty; give an http(s) URL such as https://example.com")
    if _LOCAL.match(url):
        return "http://" + url
    if _SCHEME.match(url) and not re.match(r"^[^/]+:\d+", url):
        return url
    return "https://" + url


class NavigationRules:
    """Schemes and origins a page may be opened at, from ``[plugins.browser]``."""

    def __init__(
        self,
        settings: BrowserSettings,
        resolve_path: Callable[[str], Path],
        guard: NetGuard | None = None,
    ) -> None:
        self.guard = guard  # the SSRF guard, when ssrf_guard is on
        self.allow_file = settings.allow_file_urls
        self.allowed = [p.lower() for p in settings.allowed_origins]
        self.blocked = [p.lower() for p in settings.blocked_origins]
        self._resolve_path = resolve_path

    @property
    def filters_requests(self) -> bool:
        return bool(self.allowed or self.blocked)

    def check(self, url: str) -> str:
        """The normalized URL, or ``Denied`` naming the rule that refuses it."""
        url = normalize_url(url)
        scheme = url.split(":", 1)[0].lower()
        if scheme == "file":
            if not self.allow_file:
                raise Denied(
                    "file:// URLs are refused by default; set allow_file_urls = true in "
                    "[plugins.browser] to open files inside the workspace"
                )
            from urllib.request import url2pathname  # deferred: it imports http.client

            path = url2pathname(urlsplit(url).path)
            self._resolve_path(path)  # raises OutsideWorkspace when outside
            return url
        if scheme not in _OPEN_SCHEMES:
            raise Denied(
                f"{scheme}: URLs are not opened by the browser tools; use an http(s), about: or data: URL"
            )
        reason = self.refusal(url)
        if reason:
            raise Denied(reason)
        return url

    async def check_open(self, url: str) -> str:
        """``check``, then the SSRF guard (with a lookup) for http(s) URLs when it is on."""
        url = self.check(url)
        if self.guard is not None and url.split(":", 1)[0].lower() in ("http", "https"):
            await self.guard.check_url(url)  # BlockedURL (denied) names the address
        return url

    def refusal(self, url: str) -> str | None:
        """Why the origin lists refuse ``url``, or None."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return None
        host = (parts.hostname or "").lower()
        port = parts.port or (443 if parts.scheme == "https" else 80)
        origin = f"{parts.scheme}://{host}:{port}"
        for pattern in self.blocked:
            if _origin_matches(pattern, parts.scheme, host, port):
                return f"{origin} is blocked by blocked_origins pattern {pattern!r} in [plugins.browser]"
        if self.allowed and not any(_origin_matches(p, parts.scheme, host, port) for p in self.allowed):
            return (
                f"{origin} is not in allowed_origins of [plugins.browser]; only those origins can be opened"
            )
        return None


def _origin_matches(pattern: str, scheme: str, host: str, port: int) -> bool:
    """``example.com``, ``*.example.com``, ``https://example.com``, ``http://127.0.0.1:8080``."""
    want_scheme = None
    if "://" in pattern:
        want_scheme, pattern = pattern.split("://", 1)
    pattern = pattern.rstrip("/")
    want_port = None
    if re.search(r":(\d+|\*)$", pattern) and not pattern.endswith("]"):
        pattern, _, port_text = pattern.rpartition(":")
        want_port = None if port_text == "*" else int(port_text)
    if want_scheme and want_scheme != scheme:
        return False
    if want_port is not None and want_port != port:
        return False
    if pattern.startswith("*."):
        return host == pattern[2:] or fnmatch.fnmatchcase(host, pattern)
    return fnmatch.fnmatchcase(host, pattern)
