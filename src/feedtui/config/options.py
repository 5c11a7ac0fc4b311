"""Every key of the [general], [arxiv], [fetch] and [zotero] sections, declared once
with its type, default (from `Settings`), meaning and check. The parser, its
messages, `feedtui config --default` and the configuration reference are all
made from `OPTIONS`."""

from __future__ import annotations

import math
import re
import shlex
import unicodedata
from collections.abc import Callable
from datetime import datetime
from typing import Any

from feedtui.model import UTC
from feedtui.settings import Settings
from feedtui.slot_record import SlotRecord

ENV_API_URL = "FEEDTUI_ARXIV_API_URL"
ENV_RSS_URL = "FEEDTUI_ARXIV_RSS_URL"


class Option(SlotRecord):
    """One key (a plain slotted class: see slot_record.py for why no dataclass)."""

    __slots__ = ("section", "key", "kind", "doc", "check", "attribute", "fallback")

    def __init__(
        self,
        section: str,
        key: str,
        kind: type,
        doc: str,
        check: Callable[[Any], str] | None = None,  # returns what was expected, or ""
        attribute: str = "",  # dotted path in Settings; defaults to section.key
        # What a bad value leaves, said after what was expected.
        fallback: str = "using the default",
    ) -> None:
        self.section = section
        self.key = key
        self.kind = kind
        self.doc = doc
        self.check = check
        self.attribute = attribute
        self.fallback = fallback

    @property
    def path(self) -> str:
        return self.attribute or (self.key if self.section == "general" else f"{self.section}.{self.key}")

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"


def _at_least(low: float, high: float | None = None) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value >= low and (high is None or value <= high):
            return ""
        if high is None:
            return f"a number of {low:g} or more"
        return f"a number from {low:g} to {high:g}"

    return check


def http_url_problem(value: Any) -> str:
    return "" if re.match(r"^https?://[^\s/]+", value) else "an http:// or https:// URL"


def _one_of(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        return "" if value in choices else "one of " + ", ".join(repr(c) for c in choices)

    return check


def _command_line(value: Any) -> str:
    try:
        shlex.split(value)
    except ValueError as error:
        return f"a command line as a shell would split it ({error})"
    return ""


def _topic_query(value: Any) -> str:
    """A query of the topic language; a bad one's message ends with the
    query and a caret under the column of the problem, on lines of their own."""
    if not value.strip():
        return ""
    from feedtui.topics.query import QueryError, parse_query

    try:
        parse_query(value)
    except QueryError as error:
        return f"a topic query (docs/queries.md): {error}\n{error.caret_line('    ')}"
    return ""


def _strftime_format(value: Any) -> str:
    if "%" not in value:
        return 'a strftime format such as "%b %-d, %Y" (this one has no % directive, so every date would look the same)'
    # In UTC, as cards show dates.
    sample = datetime(2026, 10, 4, 9, 30, tzinfo=UTC)
    try:
        shown = sample.strftime(value)
    except ValueError as error:
        return f'a strftime format such as "%b %-d, %Y" ({error})'
    if not shown.strip():
        return 'a strftime format such as "%b %-d, %Y" (this one makes every date empty)'
    # The C library copies a directive it does not know as it is: cards would
    # read "%Q 2026" (or "%+"). Scanned left to right, so %% is one directive.
    for directive in re.findall(r"%[-_0^#]*[0-9]*[EO]?(?:.|$)", value, re.S):
        if directive != "%%" and directive in sample.strftime(directive):
            return f'a strftime format such as "%b %-d, %Y" ({directive.strip()} is not a strftime directive)'
    # Only text and directives that are the same on every date (%%, %n, %Z).
    if datetime(2027, 3, 17, 21, 5, 48, tzinfo=UTC).strftime(value) == shown:
        return 'a strftime format such as "%b %-d, %Y" (nothing in this one changes with the date, so every date would look the same)'
    return ""


OPTIONS: tuple[Option, ...] = (
    Option(
        "general", "window_weeks", int,
        "How many weeks back a topic's first arXiv API fetch reaches (papers then stay until cache_limit prunes them). "
        "Later fetches read back to a week before the last one, as arXiv announces papers days after they were submitted (a Friday's on Monday).",
        _at_least(1, 2000),
    ),
    Option(
        "general", "refresh_age_hours", float,
        "Followed topics last refreshed longer ago than this are refreshed when the app starts, and while it stays open.",
        _at_least(0, 100_000),
    ),
    Option("general", "auto_refresh", bool, "Refresh stale followed topics in the background: at start, and every refresh_age_hours while the app is open."),
    Option("general", "open_marks_read", bool, "Opening a paper's detail view marks it read."),
    Option(
        "general", "cache_limit", int,
        "Most papers kept in the cache; beyond it the oldest papers that are not starred are pruned.",
        _at_least(1),
    ),
    Option(
        "general", "browser", str,
        "Command that opens links: {url} (or %s) is replaced by the link, else the link is appended; "
        "empty uses $BROWSER, then the system's browser.",
        _command_line,
    ),
    Option(
        "general", "theme", str,
        "Textual theme (ctrl+p, then Theme, lists them). A theme picked in the app is remembered "
        "until this value changes.",
    ),
    Option(
        "general", "default_sort", str,
        "Topic sidebar order until you pick one with S; followed topics are always on top: followed or name (both by name), unread, trending.",
        _one_of("followed", "name", "unread", "trending"),
    ),
    Option(
        "general", "density", str,
        "Paper cards: comfortable (a line each for title, abstract, authors, affiliations and a blank between cards), "
        "compact (five lines: the abstract fills what the title leaves, affiliations follow the authors, no blank), "
        "or auto: compact on a terminal of fewer than 34 lines.",
        _one_of("auto", "compact", "comfortable"),
    ),
    Option("general", "date_format", str, "strftime format of the dates on cards and in a paper's detail view.", _strftime_format),
    Option(
        "general", "hide", str,
        "A topic query (docs/queries.md) whose papers are left out of every topic, its counts and its momentum, "
        'in the reader and the CLI alike: ti:survey OR au:"Ann Example". Empty hides nothing. See docs/commands.md.',
        _topic_query,
        fallback="nothing is hidden until it is fixed",
    ),
    Option(
        "general", "command_timeout", float,
        "Seconds a command of [commands] may run before it is stopped (see docs/commands.md).",
        _at_least(0.1, 86_400),
    ),
    Option("arxiv", "api_url", str, "arXiv API endpoint (env FEEDTUI_ARXIV_API_URL overrides it).", http_url_problem),
    Option(
        "arxiv", "rss_url", str,
        "arXiv category feed base; categories are appended (env FEEDTUI_ARXIV_RSS_URL overrides it).",
        http_url_problem,
    ),
    Option("arxiv", "min_interval", float, "Seconds between requests to arXiv hosts (arXiv asks for 3).", _at_least(0, 3600)),
    Option("arxiv", "page_size", int, "Results per arXiv API page.", _at_least(1, 2000)),
    Option("arxiv", "max_results", int, "Most results fetched for one topic's query per refresh (a combined request gets this per topic, up to 10,000).", _at_least(1)),
    Option("arxiv", "max_query_length", int, "Longest combined search_query sent in one API request.", _at_least(200)),
    Option("fetch", "timeout", float, "Seconds allowed for a whole request.", _at_least(0.001)),
    Option("fetch", "connect_timeout", float, "Seconds allowed to connect.", _at_least(0.001)),
    Option("fetch", "read_timeout", float, "Seconds allowed between two chunks of a response.", _at_least(0.001)),
    Option("fetch", "max_bytes", int, "Largest response accepted, in bytes, after decompression.", _at_least(1)),
    Option("fetch", "concurrency", int, "Requests in flight at once.", _at_least(1)),
    Option("fetch", "per_host", int, "Requests in flight at once to one host (arXiv hosts always get one).", _at_least(1)),
    Option("fetch", "retries", int, "Retries after 429, 502, 503, 504 and network errors.", _at_least(0, 100)),
    Option("fetch", "max_redirects", int, "Redirects followed.", _at_least(0, 100)),
    Option(
        "fetch", "store_batch", int,
        "Papers a refresh stores in one step; what it holds in memory grows with it.", _at_least(1),
    ),
    Option(
        "zotero", "connector_url", str,
        "Where the Zotero desktop app's connector listens: z and `feedtui export zotero` send papers there "
        "(Zotero's own port is 23119; see docs/export.md).",
        http_url_problem,
    ),
)
SECTIONS = ("general", "arxiv", "fetch", "zotero", "keymap", "commands", "topic")


def value_problem(option: Option, value: Any) -> str:
    """What a value of `option` was expected to be, or "" when it is one."""
    if option.kind is bool and not isinstance(value, bool):
        return "true or false"
    if option.kind in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return "a number, without quotes" if isinstance(value, str) else "a number"
    if option.kind is int and not isinstance(value, int):
        return "a whole number"
    if option.kind is float and not math.isfinite(value):
        return "a finite number"
    if option.kind is str:
        if not isinstance(value, str):
            return "a string in quotes"
        if any(unicodedata.category(c) == "Cc" for c in value):
            return "text without control characters"
    return option.check(value) if option.check else ""


def set_setting(settings: Settings, dotted: str, value: Any) -> None:
    target: Any = settings
    *parents, name = dotted.split(".")
    for parent in parents:
        target = getattr(target, parent)
    setattr(target, name, value)


def _get(settings: Settings, dotted: str) -> Any:
    target: Any = settings
    for part in dotted.split("."):
        target = getattr(target, part)
    return target


def default_value(option: Option) -> Any:
    return _get(Settings(), option.path)
