"""One polite HTTP client for every source (implementation pending)."""

from __future__ import annotations

from feedtui.settings import ArxivSettings, FetchSettings
from feedtui.sources.base import FetchResult, Validators


class Fetcher:
    """Fetches URLs concurrently with per-host caps; every arXiv host shares one paced lane.

    Use as `async with Fetcher(fetch_settings, arxiv_settings) as fetcher:`.
    """

    def __init__(self, fetch: FetchSettings, arxiv: ArxivSettings, *, user_agent: str | None = None) -> None:
        self.fetch_settings = fetch
        self.arxiv_settings = arxiv

    async def __aenter__(self) -> "Fetcher":
        return self

    async def __aexit__(self, *exc) -> None:
        return None

    async def get(self, url: str, validators: Validators | None = None) -> FetchResult:
        """GET `url`; with validators, a conditional GET. Never raises for network
        or HTTP failures: they come back as `FetchResult.error` in plain words."""
        raise NotImplementedError
