"""Build invented arXiv API Atom responses for tests (the real layout)."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr


@dataclass
class Entry:
    id: str
    title: str = "An Invented Title"
    summary: str = "An invented abstract."
    published: str = "2026-11-02T10:00:00Z"
    updated: str | None = None
    version: int = 1
    authors: list[tuple[str, list[str]]] = field(default_factory=lambda: [("Ada Quill", ["Institute of Nowhere"])])
    categories: list[str] = field(default_factory=lambda: ["cs.DC"])
    comment: str | None = None
    journal_ref: str | None = None
    doi: str | None = None


def api_feed(entries: list[Entry], *, total: int | None = None, start: int = 0) -> bytes:
    ax = 'xmlns:arxiv="http://arxiv.org/schemas/atom"'
    os_ns = 'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"'
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n',
        '  <link href="http://arxiv.org/api/query?search_query%3Dall" rel="self" type="application/atom+xml"/>\n',
        '  <title type="html">ArXiv Query: search_query=all</title>\n',
        "  <id>http://arxiv.org/api/InventedQueryId</id>\n",
        "  <updated>2026-11-29T00:00:00-05:00</updated>\n",
        f"  <opensearch:totalResults {os_ns}>{len(entries) if total is None else total}</opensearch:totalResults>\n",
        f"  <opensearch:startIndex {os_ns}>{start}</opensearch:startIndex>\n",
        f"  <opensearch:itemsPerPage {os_ns}>{len(entries)}</opensearch:itemsPerPage>\n",
    ]
    for e in entries:
        vid = f"{e.id}v{e.version}"
        out.append("  <entry>\n")
        out.append(f"    <id>http://arxiv.org/abs/{vid}</id>\n")
        out.append(f"    <updated>{e.updated or e.published}</updated>\n")
        out.append(f"    <published>{e.published}</published>\n")
        out.append(f"    <title>{escape(e.title)}</title>\n")
        out.append(f"    <summary>  {escape(e.summary)}\n</summary>\n")
        for name, affs in e.authors:
            out.append(f"    <author>\n      <name>{escape(name)}</name>\n")
            for aff in affs:
                out.append(f"      <arxiv:affiliation {ax}>{escape(aff)}</arxiv:affiliation>\n")
            out.append("    </author>\n")
        if e.doi:
            out.append(f"    <arxiv:doi {ax}>{escape(e.doi)}</arxiv:doi>\n")
        if e.comment:
            out.append(f"    <arxiv:comment {ax}>{escape(e.comment)}</arxiv:comment>\n")
        if e.journal_ref:
            out.append(f"    <arxiv:journal_ref {ax}>{escape(e.journal_ref)}</arxiv:journal_ref>\n")
        out.append(f'    <link href="http://arxiv.org/abs/{vid}" rel="alternate" type="text/html"/>\n')
        out.append(f'    <link title="pdf" href="http://arxiv.org/pdf/{vid}" rel="related" type="application/pdf"/>\n')
        out.append(f'    <arxiv:primary_category {ax} term={quoteattr(e.categories[0])} scheme="http://arxiv.org/schemas/atom"/>\n')
        for c in e.categories:
            out.append(f'    <category term={quoteattr(c)} scheme="http://arxiv.org/schemas/atom"/>\n')
        out.append("  </entry>\n")
    out.append("</feed>\n")
    return "".join(out).encode("utf-8")
