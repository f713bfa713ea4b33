"""``http.*`` goes through the core SSRF guard (``agenthost.net``) plus the
``allowed_domains`` list of ``[plugins.js.permissions]``, checked on every
redirect hop as well (the guard checks each hop's host)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agenthost.net import BlockedURL, GuardedClient, NetGuard, normalize_host


@dataclass
class DomainGuard(NetGuard):
    """The SSRF guard, narrowed to ``domains`` when that list is not empty."""

    domains: tuple[str, ...] = ()

    def domain_allowed(self, host: str) -> bool:
        if not self.domains:
            return True
        name = normalize_host(host)
        for entry in self.domains:
            domain = normalize_host(entry).removeprefix("*.").lstrip(".")
            if name == domain or name.endswith("." + domain):
                return True
        return False

    def check_host(self, host: str) -> Any:
        if not self.domain_allowed(host):
            raise BlockedURL(
                f"blocked: {host} is not in [plugins.js.permissions] allowed_domains "
                f"({', '.join(self.domains)}); use one of those hosts or ask the user to add it"
            )
        return super().check_host(host)


def js_client(config: Any, allowed_domains: list[str], settings: Any) -> GuardedClient:
    """One guarded client per session (closed with the session)."""
    allow = list(getattr(getattr(config, "net", None), "allow", ()) or ())
    guard = DomainGuard(allow=allow, domains=tuple(allowed_domains))
    return GuardedClient(guard, timeout=settings.permissions.http_timeout)
