"""The preview server's guard (`OwnOrigin`): it answers requests addressed to itself only, so that a
web page the user visits cannot read the game's data through a domain rebound to 127.0.0.1
(live/serve.py's docstring)."""

from __future__ import annotations

import ipaddress
import re

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header's (or an origin's authority's) name, lower case, and port (None if it has
    none); None if it is not one: `[::1]:8000` -> ('::1', 8000)."""
    match = re.fullmatch(r"(\[[0-9a-f:.]+\]|[^:\[\]/@\s]+)(?::(\d{1,5}))?", value.strip().lower())
    if match is None:
        return None
    return match[1].strip("[]"), int(match[2]) if match[2] else None


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class OwnOrigin:
    """ASGI middleware: only requests addressed to this server reach the app. The Host header must
    name the address listened on (`host`; 127.0.0.1, localhost or [::1] when it is a loopback
    address; any IP address when it is every interface's: an address, unlike a name, cannot be
    rebound) with the port listened on; else 421 Misdirected Request. An Origin header, when the
    browser sends one, must be such an address too; else 403. The event stream is a request like
    the others."""

    def __init__(self, app, host: str, port: int):
        self.app, self.port = app, port
        host = host.strip("[]").lower()
        self.wildcard = host in WILDCARDS
        self.names = {host} | (LOOPBACK_NAMES if host in LOOPBACK_NAMES or self.wildcard else set())

    def allows(self, authority: str, default_port: int) -> bool:
        parts = split_host(authority)
        if parts is None:
            return False
        name, port = parts
        if (port if port is not None else default_port) != self.port:
            return False
        return name in self.names or (self.wildcard and is_ip(name))

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {key.lower(): value for key, value in scope.get("headers", [])}
        host = headers.get(b"host", b"").decode("latin-1")
        status, why = 0, ""
        if not self.allows(host, 80):
            status, why = 421, "this server answers only requests addressed to it"
        elif b"origin" in headers:
            origin = headers[b"origin"].decode("latin-1")
            scheme, sep, authority = origin.partition("://")
            if not (scheme == "http" and sep and self.allows(authority, 80)):
                status, why = 403, "this server answers only its own page"
        if not status:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = f"{why}\n".encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
