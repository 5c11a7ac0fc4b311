"""Typed settings with their defaults.

`feedtui.config` reads the TOML file and the environment into these; every
other module receives the part it needs and never reads configuration itself.

They are plain slotted classes, not dataclasses: this module is imported on
the way to the reader's first paint, where a dataclass compiles its
generated methods (see slot_record.py). Equality and repr come from
SlotRecord, over the fields in `__slots__`.
"""

from __future__ import annotations

from feedtui.slot_record import SlotRecord

DEFAULT_ARXIV_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_ARXIV_RSS_URL = "https://rss.arxiv.org/rss/"
# Where the Zotero desktop app's connector server listens (its own default port).
DEFAULT_ZOTERO_CONNECTOR_URL = "http://127.0.0.1:23119"


class ArxivSettings(SlotRecord):
    __slots__ = ("api_url", "rss_url", "min_interval", "page_size", "max_results", "max_query_length", "empty_page_retries")

    def __init__(
        self,
        api_url: str = DEFAULT_ARXIV_API_URL,
        rss_url: str = DEFAULT_ARXIV_RSS_URL,
        # Seconds between the starts of two requests to arXiv hosts (arXiv asks for 3).
        min_interval: float = 3.0,
        # Results per API page, and the most results fetched for one query per refresh.
        page_size: int = 200,
        max_results: int = 2000,
        # Longest search_query sent in one request; longer batches are split.
        max_query_length: int = 3500,
        # How often an empty page is retried while totalResults says there is more.
        empty_page_retries: int = 2,
    ) -> None:
        self.api_url = api_url
        self.rss_url = rss_url
        self.min_interval = min_interval
        self.page_size = page_size
        self.max_results = max_results
        self.max_query_length = max_query_length
        self.empty_page_retries = empty_page_retries


class FetchSettings(SlotRecord):
    __slots__ = (
        "connect_timeout", "read_timeout", "timeout", "max_bytes", "concurrency", "per_host", "max_redirects",
        "retries", "backoff", "max_retry_after", "store_batch",
    )

    def __init__(
        self,
        # Seconds: connecting, waiting for each chunk, and the whole request.
        connect_timeout: float = 10.0,
        read_timeout: float = 30.0,
        timeout: float = 60.0,
        # Largest response body accepted, after decompression.
        max_bytes: int = 20 * 1024 * 1024,
        # Requests in flight at once, overall and to one host (arXiv hosts always share one lane).
        concurrency: int = 64,
        per_host: int = 64,
        max_redirects: int = 5,
        retries: int = 3,
        # First backoff in seconds (doubles each retry). The longest one source
        # waits before retrying, in all: a server whose Retry-After asks for more
        # is reported ("try again later") instead of holding the refresh for minutes
        # (arXiv's lane waits up to sources.http.fetcher.ARXIV_RETRY_BUDGET_S, 120 s).
        backoff: float = 1.0,
        max_retry_after: float = 30.0,
        # Papers a refresh stores in one step: what it holds at once is bounded by
        # a few of these, whatever it fetches.
        store_batch: int = 5000,
    ) -> None:
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.concurrency = concurrency
        self.per_host = per_host
        self.max_redirects = max_redirects
        self.retries = retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.store_batch = store_batch


class ZoteroSettings(SlotRecord):
    __slots__ = ("connector_url",)

    def __init__(self, connector_url: str = DEFAULT_ZOTERO_CONNECTOR_URL) -> None:
        self.connector_url = connector_url


class Settings(SlotRecord):
    __slots__ = (
        "arxiv", "fetch", "zotero", "window_weeks", "refresh_age_hours", "auto_refresh", "open_marks_read",
        "cache_limit", "browser", "theme", "default_sort", "date_format", "density", "keymap", "hide", "commands",
        "command_timeout",
    )

    def __init__(
        self,
        arxiv: ArxivSettings | None = None,
        fetch: FetchSettings | None = None,
        zotero: ZoteroSettings | None = None,
        # Papers older than this many weeks are not fetched (and are pruned when
        # the cache outgrows its limit).
        window_weeks: int = 16,
        # Followed topics older than this many hours are refreshed when the app starts.
        refresh_age_hours: float = 6.0,
        auto_refresh: bool = True,
        open_marks_read: bool = True,
        cache_limit: int = 100_000,
        browser: str = "",
        theme: str = "textual-dark",
        default_sort: str = "followed",
        date_format: str = "%b %-d, %Y",
        # Paper cards: "comfortable", "compact", or "auto" (compact on short terminals).
        density: str = "auto",
        keymap: dict[str, str] | None = None,
        # A topic query whose papers are left out of every topic ("": none).
        hide: str = "",
        # [commands]: name → argument list with placeholders (config/commands.py).
        commands: dict[str, tuple[str, ...]] | None = None,
        # Seconds a user command may run before it is stopped.
        command_timeout: float = 60.0,
    ) -> None:
        self.arxiv = ArxivSettings() if arxiv is None else arxiv
        self.fetch = FetchSettings() if fetch is None else fetch
        self.zotero = ZoteroSettings() if zotero is None else zotero
        self.window_weeks = window_weeks
        self.refresh_age_hours = refresh_age_hours
        self.auto_refresh = auto_refresh
        self.open_marks_read = open_marks_read
        self.cache_limit = cache_limit
        self.browser = browser
        self.theme = theme
        self.default_sort = default_sort
        self.date_format = date_format
        self.density = density
        self.keymap = {} if keymap is None else keymap
        self.hide = hide
        self.commands = {} if commands is None else commands
        self.command_timeout = command_timeout
