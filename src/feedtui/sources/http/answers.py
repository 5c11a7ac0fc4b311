"""Reading an answer: its status, its redirect, its validators.

The Fetcher follows redirects itself, one hop at a time, and decides from
the status whether an answer is final, worth asking again, or a failure;
the validators (ETag, Last-Modified) it sends and keeps pass through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

import httpx

from feedtui.sources.base import Validators
from feedtui.sources.http.failures import Failure, host_label, shown
from feedtui.sources.http.urls import port_ok

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Worth asking again: rate limiting and gateways that are busy or restarting.
# Other errors (400, 404, 410, 500 …) would answer the same way next time.
RETRY_STATUSES = frozenset({429, 502, 503, 504})
# Where a redirect's Location is kept once it is out of httpx's sight (see hide_location).
LOCATION = "feedtui.location"


@dataclass(slots=True)
class Answer:
    url: httpx.URL
    status: int
    headers: httpx.Headers
    body: bytes = b""
    # A redirect's Location header, as sent ("" when none).
    location: str = ""


async def hide_location(response: httpx.Response) -> None:
    """Move a redirect's Location header where httpx does not look for it.

    The Fetcher follows redirects itself (see redirect_target), but httpx
    builds the request for a redirect even when it is not to follow it, and a
    Location it cannot make a request of (`javascript:alert(1)`, a control
    character) failed the whole exchange with an internal error instead of
    the message redirect_target gives.
    """
    if response.status_code in REDIRECT_STATUSES and "location" in response.headers:
        response.extensions[LOCATION] = response.headers["location"]
        del response.headers["location"]


def redirect_target(answer: Answer, visited: set[str], hops: int, max_redirects: int) -> httpx.URL:
    host = host_label(answer.url)
    location = answer.location
    if not location:
        raise Failure(f"{host} answered HTTP {answer.status} (a redirect) without saying where to")
    try:
        target = answer.url.join(location.strip())
    except httpx.InvalidURL as exc:
        reason = shown(str(exc)).rstrip(".")
        raise Failure(f"{host} redirected to an invalid URL {shown(location)!r}: {reason}") from None
    if target.scheme not in ("http", "https"):
        raise Failure(f'{host} redirected to an unsupported URL scheme "{target.scheme}:" (only http and https)')
    if not port_ok(target):
        raise Failure(f"{host} redirected to an invalid URL {shown(str(target))!r}: port {target.port} is not from 1 to 65535")
    if str(target) in visited:
        raise Failure(f"redirect loop: {shown(str(answer.url))} redirects back to {shown(str(target))}")
    if hops >= max_redirects:
        raise Failure(f"too many redirects from {host} (more than {max_redirects})")
    return target


def raise_for_status(answer: Answer, *, conditional: bool) -> None:
    """Fail on an error status, and on a 304 to a request that had nothing to
    compare (no validators sent): it would leave the source looking up to date
    with nothing fetched from it, ever."""
    if 200 <= answer.status < 300 or (answer.status == 304 and conditional):
        return
    if answer.status == 304:
        raise Failure(
            f"{status_message(answer)} to a request for the whole feed (it sent nothing to compare with); "
            "the server is misconfigured",
            status=answer.status,
        )
    raise Failure(status_message(answer), status=answer.status)


def status_message(answer: Answer) -> str:
    try:
        phrase = HTTPStatus(answer.status).phrase
    except ValueError:
        phrase = ""
    label = f"HTTP {answer.status} {phrase}".rstrip()
    return f"{label} from {host_label(answer.url)}"


def conditional_headers(validators: Validators | None) -> dict[str, str]:
    headers: dict[str, str] = {}
    if validators is None:
        return headers
    if etag := _safe_header_value(validators.etag):
        headers["If-None-Match"] = etag
    if last_modified := _safe_header_value(validators.last_modified):
        headers["If-Modified-Since"] = last_modified
    return headers


def validators_from(answer: Answer, sent: Validators | None) -> Validators:
    etag = _safe_header_value(answer.headers.get("etag", ""))
    last_modified = _safe_header_value(answer.headers.get("last-modified", ""))
    if answer.status == 304 and sent is not None:
        return Validators(etag=etag or sent.etag, last_modified=last_modified or sent.last_modified)
    return Validators(etag=etag, last_modified=last_modified)


def _safe_header_value(value: str) -> str:
    """A validator fit to send back: printable ASCII of sensible length, else nothing."""
    value = value.strip()
    if not value or len(value) > 1024 or not value.isascii() or not value.isprintable():
        return ""
    return value
