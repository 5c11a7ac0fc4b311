"""Links from feeds: only plain http(s) URLs are kept."""

from __future__ import annotations

import re

from feedtui.sources.parse.text import MAX_URL
from feedtui.text.sanitize import has_mark_flood

# feedparser turns `http:///host` into `http://host`; so does this module, so
# both parsers keep the same links.
_EXTRA_SLASHES = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)/+")
_AUTHORITY = re.compile(r"^https?://([^/?#]*)", re.IGNORECASE)
_UNSAFE = re.compile(r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]")


def http_url(raw: str | None) -> str:
    """The URL if it is an absolute http or https URL with a host; "" otherwise.

    `javascript:`, `file:`, `data:` and relative links are dropped, and so is
    anything with white space or control or format characters inside it, a
    flood of combining marks (no address needs one, and the link is shown), or
    a user name before the host (`https://arxiv.org@elsewhere.example/`).
    """
    if not raw:
        return ""
    url = raw.strip()
    if "///" in url:
        url = _EXTRA_SLASHES.sub(r"\1", url)
    authority = _AUTHORITY.match(url)
    if authority is None or len(url) > MAX_URL or _UNSAFE.search(url) or has_mark_flood(url):
        return ""
    host = authority.group(1)
    if not host or host.startswith(":") or "@" in host:
        return ""
    return url
