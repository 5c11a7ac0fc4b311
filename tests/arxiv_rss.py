"""Build invented arXiv category feeds (rss.arxiv.org/rss/<cats>) for tests, in
the real layout: the id, version and announce type lead the description, all
authors share one `dc:creator`, and `arxiv:announce_type` repeats the type."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime
from xml.sax.saxutils import escape

from tests.atom import Entry


@dataclass
class Announcement:
    """One item of a day's listing: a paper and how it was announced."""

    entry: Entry
    # new, cross, replace or replace-cross.
    kind: str = "new"


def rss_feed(categories: list[str], announcements: list[Announcement], announced: datetime) -> bytes:
    """The feed for `categories` (as the URL names them) listing `announcements`,
    all announced at `announced` (timezone-aware: arXiv uses US Eastern)."""
    names = "+".join(categories)
    day = format_datetime(announced)
    out = [
        "<?xml version='1.0' encoding='UTF-8'?>\n",
        '<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">\n',
        "  <channel>\n",
        f"    <title>{escape(', '.join(categories))} updates on arXiv.org</title>\n",
        f"    <link>http://rss.arxiv.org/rss/{escape(names)}</link>\n",
        f"    <description>{escape(', '.join(categories))} updates on the arXiv.org e-print archive.</description>\n",
        f'    <atom:link href="http://rss.arxiv.org/rss/{escape(names)}" rel="self" type="application/rss+xml"/>\n',
        "    <language>en-us</language>\n",
        f"    <lastBuildDate>{day}</lastBuildDate>\n",
        f"    <pubDate>{day}</pubDate>\n",
    ]
    for item in announcements:
        entry = item.entry
        versioned = f"{entry.id}v{entry.version}"
        description = f"arXiv:{versioned} Announce Type: {item.kind} \nAbstract: {entry.summary}"
        out.append("    <item>\n")
        out.append(f"      <title>{escape(entry.title)}</title>\n")
        out.append(f"      <link>https://arxiv.org/abs/{entry.id}</link>\n")
        out.append(f"      <description>{escape(description)}</description>\n")
        out.append(f'      <guid isPermaLink="false">oai:arXiv.org:{versioned}</guid>\n')
        for category in entry.categories:
            out.append(f"      <category>{escape(category)}</category>\n")
        out.append(f"      <pubDate>{day}</pubDate>\n")
        out.append(f"      <arxiv:announce_type>{item.kind}</arxiv:announce_type>\n")
        out.append("      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>\n")
        out.append(f"      <dc:creator>{escape(', '.join(name for name, _ in entry.authors))}</dc:creator>\n")
        out.append("    </item>\n")
    out.append("  </channel>\n</rss>\n")
    return "".join(out).encode("utf-8")
