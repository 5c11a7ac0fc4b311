"""Which links feedtui will show as openable or hand to a browser."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from feedtui.text.sanitize import strip_controls

# For str patterns `\s` is exactly `str.isspace`.
_WHITESPACE = re.compile(r"\s")


def safe_link(url: str | None) -> str | None:
    """The URL if it is a well-formed http(s) link, else None.

    `javascript:`, `file:`, `data:` and anything else is refused: a feed must
    never make feedtui open a local file or run code in a browser.
    """
    if not url:
        return None
    url = strip_controls(url).strip()
    if _WHITESPACE.search(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def refusal(url: str) -> str:
    """Why a link is not opened, for a toast (in the words and case of the reader's
    other notifications: `c` says "This paper has no http or https link to copy")."""
    if not url.strip():
        return "This paper has no http or https link to open"
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme and scheme not in ("http", "https"):
        return f"Refused to open a {scheme}: link; feedtui only opens http and https links"
    return "Refused to open a malformed link"
