"""What went wrong with a request, in words for the user.

Every failure a Fetcher meets, on the wire or in an answer, becomes one
`Failure` with a message that names the host and says what happened
("could not resolve host …", "HTTP 404 Not Found from …"), and whether asking
again could help. Text from a URL or a server is cleaned before it is shown.
"""

from __future__ import annotations

import re
import socket
import ssl
from datetime import datetime

import httpx

from feedtui.settings import FetchSettings
from feedtui.text.sanitize import clean_line

_MB = 1024 * 1024
# h11 ends some messages with the offending bytes as Python shows them:
# "illegal header line: bytearray(b'no colon')".
_BYTES_SHOWN = re.compile(r":\s*(?:bytearray\()?b['\"].*$", re.DOTALL)


class Failure(Exception):
    """One attempt or one get() failed; `message` is for the user."""

    def __init__(self, message: str, *, retryable: bool = False, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable
        # The HTTP status of the answer that failed, when there was one.
        self.status = status


def after_attempts(message: str, attempts: int) -> str:
    return f"{message} (gave up after {attempts} attempts)" if attempts > 1 else message


def timeout_message(exc: httpx.TimeoutException, host: str, settings: FetchSettings) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"timed out connecting to {host} (after {settings.connect_timeout:g} s)"
    if isinstance(exc, httpx.ReadTimeout):
        return f"timed out waiting for {host}: no data for {settings.read_timeout:g} s"
    if isinstance(exc, httpx.WriteTimeout):
        return f"timed out sending the request to {host}"
    return f"timed out waiting for a free connection to {host}"


def transport_failure(exc: httpx.TransportError, url: httpx.URL) -> Failure:
    """Translate what went wrong on the wire into words, and whether to try again."""
    host = host_label(url)
    causes = _causes(exc)
    if any(isinstance(c, socket.gaierror) for c in causes):
        return Failure(f"could not resolve host {url.host}")
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return Failure(f"could not connect to {host}: connection refused")
    ssl_errors = [c for c in causes if isinstance(c, ssl.SSLError)]
    if ssl_errors:
        reason = getattr(ssl_errors[-1], "reason", None) or ssl_errors[-1].__class__.__name__
        return Failure(f"TLS handshake with {host} failed ({str(reason).replace('_', ' ').lower()})")
    if any(isinstance(c, ConnectionResetError) for c in causes):
        return Failure(f"the connection to {host} was reset", retryable=True)
    if isinstance(exc, httpx.RemoteProtocolError):
        text = str(exc).lower()
        if "without sending a response" in text:
            return Failure(f"{host} closed the connection without answering", retryable=True)
        if "incomplete" in text or "without sending complete" in text:
            return Failure(f"{host} closed the connection before the response was complete", retryable=True)
        if "chunk" in text:
            return Failure(f"{host} sent a malformed chunked body")
        return Failure(f"{host} sent an invalid HTTP response ({shown(_BYTES_SHOWN.sub('', str(exc)))})")
    if isinstance(exc, httpx.ConnectError):
        return Failure(f"could not connect to {host}: {shown(str(exc))}")
    return Failure(f"network error talking to {host}: {shown(str(exc))}", retryable=True)


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def host_label(url: httpx.URL) -> str:
    return f"{url.host}:{url.port}" if url.port else url.host


def clock(wall: float) -> str:
    """A wall-clock moment as the local time of day."""
    return datetime.fromtimestamp(wall).strftime("%H:%M:%S")


def size_text(size: int) -> str:
    if size >= _MB:
        return f"{round(size / _MB, 1):g} MB"
    if size >= 1024:
        return f"{round(size / 1024, 1):g} KB"
    return f"{size} bytes"


def shown(text: str, limit: int = 200) -> str:
    """Text from a URL or a server, fit for a one-line message."""
    return clean_line(text, html_allowed=False)[:limit]
