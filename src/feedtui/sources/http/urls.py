"""The URLs a Fetcher accepts, and the host each belongs to.

Only http and https, with a host and a real port: anything else is turned
away with a message before a request is made. `host_key` is the host as the
per-host limits and the arXiv lane count it.
"""

from __future__ import annotations

import httpx

from feedtui.sources.http.failures import Failure, shown

def checked_url(url: str) -> httpx.URL:
    quoted = shown(url)
    try:
        parsed = httpx.URL(url.strip())
    except httpx.InvalidURL as exc:
        raise Failure(f"invalid URL {quoted!r}: {exc}") from None
    if not parsed.scheme:
        raise Failure(f"invalid URL {quoted!r}: it should start with http:// or https://")
    if parsed.scheme not in ("http", "https"):
        raise Failure(f'unsupported URL scheme "{parsed.scheme}:" in {quoted!r} (feedtui fetches only http and https)')
    if not parsed.host:
        raise Failure(f"invalid URL {quoted!r}: it names no host")
    if not port_ok(parsed):
        raise Failure(f"invalid URL {quoted!r}: port {parsed.port} is not from 1 to 65535")
    return parsed


def port_ok(url: httpx.URL) -> bool:
    """httpx takes any number as a port; connecting to 99999 failed as
    "unexpected error: ExceptionGroup(… OverflowError …)"."""
    return url.port is None or 0 < url.port < 65536


def parse_or_none(url: str) -> httpx.URL | None:
    try:
        return checked_url(url)
    except Failure:
        return None


def host_key(url: httpx.URL) -> str:
    port = url.port or (443 if url.scheme == "https" else 80)
    return f"{url.host.lower().rstrip('.')}:{port}"
