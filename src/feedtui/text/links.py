"""Which links feedtui will show as openable or hand to a browser."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from feedtui.text.sanitize import clean_line, strip_controls

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


# Scripts whose letters look like one another's (а and a, ο and o, ս and u):
# a host label mixing two of them is how a look-alike of a known host is spelt.
_CONFUSABLE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"})


def shown_link(url: str) -> str:
    """A link as the reader shows it: a host with a label that mixes Latin,
    Cyrillic, Greek, Armenian or Cherokee letters (`exаmple.com`, its `а`
    Cyrillic) in its ASCII form (`xn--exmple-4nf.com`), as browsers show it,
    so that a look-alike of a host never passes for it."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return url
    if host.isascii():
        return url
    labels = host.split(".")
    if not any(_mixes_confusable_scripts(label) for label in labels):
        return url
    userinfo, at, host_port = parts.netloc.rpartition("@")
    start, where = host_port.lower().find(host), url.find(parts.netloc)
    if start < 0 or where < 0:
        return url
    shown = ".".join(_ascii_label(label) for label in labels)
    netloc = userinfo + at + host_port[:start] + shown + host_port[start + len(host) :]
    return url[:where] + netloc + url[where + len(parts.netloc) :]


def _mixes_confusable_scripts(label: str) -> bool:
    import unicodedata

    scripts = {unicodedata.name(ch, "").partition(" ")[0] for ch in label if ch.isalpha()}
    return len(scripts & _CONFUSABLE_SCRIPTS) > 1


def _ascii_label(label: str) -> str:
    if label.isascii():
        return label
    try:
        return label.encode("idna").decode("ascii")
    except UnicodeError:  # not a valid IDNA label: its escapes, never the look-alike
        return label.encode("ascii", "backslashreplace").decode("ascii")


class FeedUrlError(ValueError):
    """A feed URL that cannot be used; `problem` says why without the URL."""

    def __init__(self, problem: str, url: str) -> None:
        super().__init__(f"feed URL {problem}: {visible(url)[:200]}")
        self.problem = problem


# `scheme://user:password@`: the password part, up to the last `@` before the
# host ends (a password may hold an unescaped `@`).
_PASSWORD_IN_URL = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]*):[^\s/?#]*@")


def hide_passwords(text: str, *urls: str) -> str:
    """`text` with the password of every URL in it written as `***`
    (`https://ana:***@host/feed`): refresh messages name feed URLs, and they
    end up in cron mail, logs and screenshots. With `urls`, their
    `user:password@` is hidden wherever it stands in `text`, without a scheme
    too (a topic named from its feed's URL by an import before 1f5bc87:
    `ana:secret@host/feed.xml`)."""
    if "@" not in text:
        return text
    for url in urls:
        userinfo = url.partition("://")[2].split("/", 1)[0].rpartition("@")[0]
        user, colon, password = userinfo.partition(":")
        if colon and password:
            text = text.replace(f"{userinfo}@", f"{user}:***@")
    return _PASSWORD_IN_URL.sub(r"\1:***@", text)


def visible(text: str) -> str:
    """`text` with every character that is not printable written as its
    escape (`\\x1b`, `\\u200b`): a refused URL is shown as it was typed,
    never acted on by the terminal and never looking like a good one."""
    return text if text.isprintable() else "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def feed_url(raw: str) -> str:
    """`raw` as a topic's feed URL is stored; FeedUrlError says what is wrong.

    Every way a topic gets feeds (`topic add --feed`, the topic form, OPML and
    JSON import, a config [[topic]]) comes through here, so a URL the fetcher
    could only fail on (no host, port 99999, `http://[::1`) is refused when it
    is typed, not at every refresh. The scheme may be in any case and is
    stored in lower case. A control character is refused rather than dropped:
    the URL would no longer be the one typed, and it must never be echoed.
    """
    url = raw.strip()
    if strip_controls(url) != url or _WHITESPACE.search(url):
        raise FeedUrlError("has a space or control character", url)
    scheme, colon, rest = url.partition(":")
    if not colon or scheme.lower() not in ("http", "https") or not rest.startswith("//"):
        raise FeedUrlError("must start with http:// or https://", url)
    url = scheme.lower() + colon + rest
    bracket = "is malformed (a host in [ ] must be an IPv6 address, like [2001:db8::1])"
    try:
        parts = urlsplit(url)
    except ValueError as error:
        raise FeedUrlError(bracket if "[" in url else f"is malformed ({clean_line(str(error))})", url) from None
    if not parts.hostname:
        raise FeedUrlError("names no host", url)
    if "[" in parts.netloc:
        import ipaddress  # rarely needed, and not at start-up

        try:
            ipaddress.IPv6Address(parts.hostname)
        except ValueError:
            raise FeedUrlError(bracket, url) from None
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise FeedUrlError("has an invalid port (a port is a number from 1 to 65535)", url)
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
