"""Typed settings with their defaults.

`feedtui.config` reads the TOML file and the environment into these; every
other module receives the part it needs and never reads configuration itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_ARXIV_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_ARXIV_RSS_URL = "https://rss.arxiv.org/rss/"
# Where the Zotero desktop app's connector server listens (its own default port).
DEFAULT_ZOTERO_CONNECTOR_URL = "http://127.0.0.1:23119"


@dataclass(slots=True)
class ArxivSettings:
    api_url: str = DEFAULT_ARXIV_API_URL
    rss_url: str = DEFAULT_ARXIV_RSS_URL
    # Seconds between the starts of two requests to arXiv hosts (arXiv asks for 3).
    min_interval: float = 3.0
    # Results per API page, and the most results fetched for one query per refresh.
    page_size: int = 200
    max_results: int = 2000
    # Longest search_query sent in one request; longer batches are split.
    max_query_length: int = 3500
    # How often an empty page is retried while totalResults says there is more.
    empty_page_retries: int = 2


@dataclass(slots=True)
class FetchSettings:
    # Seconds: connecting, waiting for each chunk, and the whole request.
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    timeout: float = 60.0
    # Largest response body accepted, after decompression.
    max_bytes: int = 20 * 1024 * 1024
    # Requests in flight at once, overall and to one host (arXiv hosts always share one lane).
    concurrency: int = 64
    per_host: int = 64
    max_redirects: int = 5
    retries: int = 3
    # First backoff in seconds (doubles each retry). The longest one source
    # waits before retrying, in all: a server whose Retry-After asks for more
    # is reported ("try again later") instead of holding the refresh for minutes
    # (arXiv's lane waits up to sources.http.fetcher.ARXIV_RETRY_BUDGET_S, 120 s).
    backoff: float = 1.0
    max_retry_after: float = 30.0
    # Papers a refresh stores in one step: what it holds at once is bounded by
    # a few of these, whatever it fetches.
    store_batch: int = 5000


@dataclass(slots=True)
class ZoteroSettings:
    connector_url: str = DEFAULT_ZOTERO_CONNECTOR_URL


@dataclass(slots=True)
class Settings:
    arxiv: ArxivSettings = field(default_factory=ArxivSettings)
    fetch: FetchSettings = field(default_factory=FetchSettings)
    zotero: ZoteroSettings = field(default_factory=ZoteroSettings)
    # Papers older than this many weeks are not fetched (and are pruned when
    # the cache outgrows its limit).
    window_weeks: int = 16
    # Followed topics older than this many hours are refreshed when the app starts.
    refresh_age_hours: float = 6.0
    auto_refresh: bool = True
    open_marks_read: bool = True
    cache_limit: int = 100_000
    browser: str = ""
    theme: str = "textual-dark"
    default_sort: str = "followed"
    date_format: str = "%b %-d, %Y"
    # Paper cards: "comfortable", "compact", or "auto" (compact on short terminals).
    density: str = "auto"
    keymap: dict[str, str] = field(default_factory=dict)
    # A topic query whose papers are left out of every topic ("": none).
    hide: str = ""
    # [commands]: name → argument list with placeholders (config/commands.py).
    commands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Seconds a user command may run before it is stopped.
    command_timeout: float = 60.0
