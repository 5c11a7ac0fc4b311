"""Invented papers for tests."""

from __future__ import annotations

from datetime import datetime

from feedtui.model import UTC, Author, Paper


def make_paper(
    paper_id: str = "2609.01234",
    *,
    version: int = 1,
    title: str = "Invented Title",
    abstract: str = "An invented abstract about heterogeneous accelerators.",
    published: datetime | str = "2026-09-28T10:00:00",
    updated: datetime | str | None = None,
    authors: tuple[tuple[str, tuple[str, ...]], ...] = (("Ada Quill", ("Institute of Nowhere",)),),
    categories: tuple[str, ...] = ("cs.DC",),
    **extra,
) -> Paper:
    published = _moment(published)
    updated = _moment(updated) if updated else published
    return Paper(
        id=paper_id,
        version=version,
        title=title,
        abstract=abstract,
        title_display=extra.pop("title_display", title),
        abstract_display=extra.pop("abstract_display", abstract),
        published=published,
        updated=updated,
        authors=tuple(Author(n, a) for n, a in authors),
        primary_category=categories[0] if categories else "",
        categories=categories,
        abs_url=f"https://arxiv.org/abs/{paper_id}v{version}",
        pdf_url=f"https://arxiv.org/pdf/{paper_id}v{version}",
        **extra,
    )


def _moment(value: datetime | str) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value).replace(tzinfo=UTC)
