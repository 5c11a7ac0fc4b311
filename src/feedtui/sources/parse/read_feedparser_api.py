"""An arXiv API response as feedparser read it → `ApiFeed` (raw strings, as the fast path collects them)."""

from __future__ import annotations

from feedtui.sources.parse.build_api import ApiAuthor, ApiEntry, ApiFeed, ApiLink
from feedtui.sources.parse.read_feedparser import FeedparserResult, is_markup, string


def api_feed(parsed: FeedparserResult) -> ApiFeed:
    feed = parsed.feed
    return ApiFeed(
        title=string(feed, "title"),
        title_html=is_markup(feed, "title_detail"),
        total_results=_optional(feed, "opensearch_totalresults"),
        start_index=_optional(feed, "opensearch_startindex"),
        items_per_page=_optional(feed, "opensearch_itemsperpage"),
        entries=[_entry(entry) for entry in parsed.entries],
    )


def _entry(entry: dict) -> ApiEntry:
    return ApiEntry(
        id=string(entry, "id"),
        title=string(entry, "title"),
        title_html=is_markup(entry, "title_detail"),
        summary=string(entry, "summary"),
        summary_html=is_markup(entry, "summary_detail"),
        published=string(entry, "published"),
        updated=string(entry, "updated"),
        authors=[
            ApiAuthor(name=string(author, "name"), affiliations=[str(a) for a in author.get("arxiv_affiliations", ())])
            for author in dict.get(entry, "authors") or ()
        ],
        primary_category=_primary_category(entry),
        categories=[str(tag.get("term") or "") for tag in dict.get(entry, "tags") or ()],
        comment=string(entry, "arxiv_comment"),
        journal_ref=string(entry, "arxiv_journal_ref"),
        doi=string(entry, "arxiv_doi"),
        links=[
            ApiLink(
                href=str(link.get("href") or ""), rel=str(link.get("rel") or ""), title=str(link.get("title") or "")
            )
            for link in dict.get(entry, "links") or ()
        ],
    )


def _primary_category(entry: dict) -> str:
    value = dict.get(entry, "arxiv_primary_category")
    if isinstance(value, dict):
        return str(value.get("term") or "")
    return str(value or "")


def _optional(mapping: dict, key: str) -> str | None:
    value = dict.get(mapping, key)
    return value if isinstance(value, str) else None
