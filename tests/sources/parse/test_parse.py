"""parse_feed on invented fixtures in the real formats: every Paper field, exactly."""

from __future__ import annotations

import codecs
from datetime import datetime, timedelta, timezone
from html import escape
from pathlib import Path

import pytest

from feedtui.model import Author, Paper
from feedtui.sources.base import FeedError
from feedtui.sources.parse.ids import web_key
from feedtui.sources.parse.route import parse_feed
from feedtui.sources.parse.text import MAX_AUTHORS
from feedtui.text.latex import latex_to_unicode
from feedtui.text.sanitize import clean_block, clean_line

from tests.arxiv_rss import Announcement, rss_feed
from tests.atom import Entry

FEEDS = Path(__file__).parents[2] / "data" / "feeds"
UTC = timezone.utc
NOW = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
API_URL = "https://export.arxiv.org/api/query?search_query=cat:cs.DC&start=0&max_results=4"


def parse(name: str, url: str = "https://feeds.example/feed", **kwargs) -> object:
    return parse_feed((FEEDS / name).read_bytes(), url, now=NOW, **kwargs)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def paper(url: str, **fields) -> Paper:
    """The expected Paper: display forms are the LaTeX rendering of title and abstract."""
    expected = Paper(sources=(url,), **fields)
    expected.title_display = clean_line(latex_to_unicode(expected.title), html_allowed=False)
    expected.abstract_display = clean_block(latex_to_unicode(expected.abstract), html_allowed=False)
    return expected


# --- arXiv API -------------------------------------------------------------------------


def test_arxiv_api_page_header():
    feed = parse("arxiv_api_page.xml", API_URL)
    assert feed.kind == "arxiv-api"
    assert feed.title == "ArXiv Query: search_query=cat:cs.DC&id_list=&start=0&max_results=4"
    assert (feed.total_results, feed.start_index, feed.items_per_page) == (57, 0, 4)
    assert feed.warnings == []
    assert [p.versioned_id for p in feed.papers] == ["2609.01234v3", "2610.00042v1", "cs/9912017v2", "2610.00999v1"]


def test_arxiv_api_v3_paper_with_latex_affiliations_and_references():
    first = parse("arxiv_api_page.xml", API_URL).papers[0]
    assert first == paper(
        API_URL,
        id="2609.01234",
        version=3,
        title="Heterogeneous Offload at $5.2\\times$ Lower Cost: Scheduling $O(n^2)$ Kernels on Mixed Accelerators",
        abstract=(
            "We study offloading dense kernels to a mix of GPUs and FPGAs. Our scheduler, \\emph{Tessera}, "
            "reaches a $5.2\\times$ cost reduction over static placement and runs in $O(n^2)$ time for $n$ "
            "kernels.\n\nA prototype on 16 nodes confirms the model within $3\\%$."
        ),
        published=at(2026, 9, 3, 8, 12, 44),
        updated=at(2026, 10, 2, 17, 45, 10),
        authors=(
            Author("Ada Lindqvist", ("Northvale Institute of Computing", "Tarrensee Laboratory for Systems")),
            Author("Kwabena Osei-Mensah", ("Tarrensee Laboratory for Systems",)),
            Author("Søren Ægidius"),
        ),
        primary_category="cs.DC",
        categories=("cs.DC", "cs.AR", "cs.LG", "68M20"),
        comment="v3: new experiments on 16 nodes; 14 pages, 6 figures",
        journal_ref="Invented J. Parallel Comput. 41 (2026) 77-98",
        doi="10.5555/invented.2026.7731",
        abs_url="http://arxiv.org/abs/2609.01234v3",
        pdf_url="http://arxiv.org/pdf/2609.01234v3",
    )
    assert first.affiliations == ("Northvale Institute of Computing", "Tarrensee Laboratory for Systems")


def test_arxiv_api_cross_listed_categories_keep_order_without_repeats_primary_first():
    cross = parse("arxiv_api_page.xml", API_URL).papers[1]
    assert cross == paper(
        API_URL,
        id="2610.00042",
        version=1,
        title="Cross-Listed: Gradient Compression Meets RDMA",
        abstract=(
            "Gradient compression and RDMA both cut communication; combined naively they fight over the same "
            "buffers. We show how to make them agree."
        ),
        published=at(2026, 10, 1, 23, 59, 1),
        updated=at(2026, 10, 1, 23, 59, 1),
        authors=(Author("Mirela Dragomir"), Author("Paweł Zieliński")),
        primary_category="cs.LG",
        categories=("cs.LG", "cs.DC", "cs.NI"),
        abs_url="http://arxiv.org/abs/2610.00042v1",
        pdf_url="http://arxiv.org/pdf/2610.00042v1",
    )


def test_arxiv_api_old_style_id():
    old = parse("arxiv_api_page.xml", API_URL).papers[2]
    assert old == paper(
        API_URL,
        id="cs/9912017",
        version=2,
        title="Load Balancing on Networks of Workstations",
        abstract="An early study of load balancing when workstations join and leave.",
        published=at(1999, 12, 20, 9, 30),
        updated=at(2000, 2, 14, 10, 0),
        authors=(Author("Hiroka Tanabe", ("Hollowmere University",)),),
        primary_category="cs.DC",
        categories=("cs.DC", "C.2.4"),
        comment="LaTeX2e, 9 pages",
        abs_url="http://arxiv.org/abs/cs/9912017v2",
        pdf_url="http://arxiv.org/pdf/cs/9912017v2",
    )


def test_arxiv_api_text_fields_are_text_not_html():
    """`&lt;b&gt;` in an Atom text construct is the text "<b>"; `$p<q$` must survive."""
    note = parse("arxiv_api_page.xml", API_URL).papers[3]
    assert note.title == "A <Short> Note on Straggler Mitigation & Tail Latency"
    assert note.abstract == 'If $p<q$ then the tail shrinks; "<b>" stays text in an Atom text field.'
    assert (note.published, note.date_estimated) == (at(2026, 10, 4, 12, 0), False)


def test_arxiv_api_2025_layout():
    feed = parse("arxiv_api_page_2025.xml", API_URL)
    assert feed.kind == "arxiv-api"
    assert feed.title == "arXiv Query: search_query=cat:cs.AR&id_list=&start=200&max_results=2"
    assert (feed.total_results, feed.start_index, feed.items_per_page) == (431, 200, 2)
    assert feed.papers == [
        paper(
            API_URL,
            id="2608.11873",
            version=2,
            title="Near-Memory Sorting with $\\mathcal{O}(\\log^2 n)$ Passes",
            abstract=(
                "We sort inside DRAM banks. The number of passes is $\\mathcal{O}(\\log^2 n)$ and energy per "
                "element drops by $\\approx 40\\%$."
            ),
            published=at(2026, 8, 27, 14, 3, 22),
            updated=at(2026, 9, 15, 9, 0),
            authors=(
                Author("Uxía Ferreiro", ("Institute for Memory Systems, Östergård",)),
                Author("Bartek Nowakowski"),
            ),
            primary_category="cs.AR",
            categories=("cs.AR", "cs.DS"),
            comment="12 pages",
            abs_url="https://arxiv.org/abs/2608.11873v2",
            pdf_url="https://arxiv.org/pdf/2608.11873v2",
        ),
        paper(
            API_URL,
            id="2608.10002",
            version=1,
            title="Clock Gating for Sparse Systolic Arrays",
            abstract="Most processing elements in a sparse systolic array idle. We gate them.",
            published=at(2026, 8, 25, 18, 30),
            updated=at(2026, 8, 25, 18, 30),
            authors=(Author("Thandiwe Mokoena"),),
            primary_category="cs.AR",
            categories=("cs.AR",),
            abs_url="https://arxiv.org/abs/2608.10002v1",
            pdf_url="https://arxiv.org/pdf/2608.10002v1",
        ),
    ]


def test_arxiv_api_error_entry_is_a_warning_not_a_paper():
    feed = parse("arxiv_api_error.xml", API_URL)
    assert feed.kind == "arxiv-api"
    assert feed.papers == []
    assert feed.warnings == ["arXiv API error: incorrect id format for 2609.0123x"]
    assert feed.total_results == 1


def test_arxiv_api_empty_page_is_a_feed():
    feed = parse("arxiv_api_empty.xml", API_URL)
    assert (feed.kind, feed.papers, feed.warnings) == ("arxiv-api", [], [])
    assert (feed.total_results, feed.start_index, feed.items_per_page) == (0, 0, 100)


def test_no_url_means_no_sources():
    assert parse_feed((FEEDS / "arxiv_api_empty.xml").read_bytes(), now=NOW).papers == []
    feed = parse_feed((FEEDS / "arxiv_api_page_2025.xml").read_bytes(), now=NOW)
    assert {p.sources for p in feed.papers} == {()}


# --- arXiv category feeds --------------------------------------------------------------

RSS_URL = "https://rss.arxiv.org/rss/cs.DC+cs.AR"
ANNOUNCED = at(2026, 10, 5, 4, 0)


def test_arxiv_rss_feed():
    feed = parse("arxiv_rss_cs_dc_ar.xml", RSS_URL)
    assert (feed.kind, feed.title, feed.warnings) == ("arxiv-rss", "cs.DC, cs.AR updates on arXiv.org", [])
    assert feed.total_results is None
    assert [(p.versioned_id, p.announce_type) for p in feed.papers] == [
        ("2610.01234v1", "new"),
        ("2610.00871v1", "cross"),
        ("2607.04410v3", "replace"),
        ("cs/0601045v2", "replace-cross"),
        ("2610.01502v1", "new"),
    ]


def test_arxiv_rss_new_item_is_dated_by_its_announcement():
    new = parse("arxiv_rss_cs_dc_ar.xml", RSS_URL).papers[0]
    assert new == paper(
        RSS_URL,
        id="2610.01234",
        version=1,
        title="Spillway: Elastic Pipeline Parallelism with $O(\\log n)$ Rebalancing",
        abstract=(
            "We present Spillway, a scheduler that moves pipeline stages between accelerators at run time. "
            "On 64 devices it reaches $5.2\\times$ the throughput of static placement while keeping memory "
            "below $p < 0.9$ of capacity."
        ),
        published=ANNOUNCED,
        updated=ANNOUNCED,
        authors=(Author("Mireille Okonkwo-Hart"), Author("Tobias Lindqvist"), Author("Sung-min Baek")),
        primary_category="cs.DC",
        categories=("cs.DC", "cs.LG"),
        abs_url="https://arxiv.org/abs/2610.01234",
        pdf_url="https://arxiv.org/pdf/2610.01234v1",
        announce_type="new",
    )


def test_arxiv_rss_cross_listing_keeps_the_first_category_as_primary():
    cross = parse("arxiv_rss_cs_dc_ar.xml", RSS_URL).papers[1]
    assert cross == paper(
        RSS_URL,
        id="2610.00871",
        version=1,
        title="Thermal-Aware Kernel Fusion for Chiplet Accelerators",
        abstract=(
            "Chiplet packages trade bandwidth for heat. We fuse kernels so that hot tiles alternate between "
            "dies, and cut peak temperature by 11 K."
        ),
        published=ANNOUNCED,
        updated=ANNOUNCED,
        authors=(Author("Halvard Ness"), Author("Priya Raghunathan"), Author("Oskar Wendt")),
        primary_category="cs.LG",
        categories=("cs.LG", "cs.AR", "cs.DC"),
        abs_url="https://arxiv.org/abs/2610.00871",
        pdf_url="https://arxiv.org/pdf/2610.00871v1",
        announce_type="cross",
    )


def test_arxiv_rss_replacement_has_an_estimated_first_version_date_and_references():
    replaced = parse("arxiv_rss_cs_dc_ar.xml", RSS_URL).papers[2]
    assert replaced == paper(
        RSS_URL,
        id="2607.04410",
        version=3,
        title="Consensus Without Clocks: A Second Look",
        abstract=(
            "We revisit leaderless consensus when no node has a reliable clock.\n\n"
            "This version adds a proof for the partially synchronous case."
        ),
        published=at(2026, 7, 31, 23, 59, 59),
        updated=ANNOUNCED,
        authors=(Author("Ines Carvalho"), Author("Dmitri Volkonsky"), Author("Yaw Boateng")),
        primary_category="cs.DC",
        categories=("cs.DC",),
        journal_ref="Invented Trans. Distrib. Syst. 12 (2026) 101-133",
        doi="10.5555/invented.2026.0042",
        abs_url="https://arxiv.org/abs/2607.04410",
        pdf_url="https://arxiv.org/pdf/2607.04410v3",
        announce_type="replace",
        date_estimated=True,
    )


def test_arxiv_rss_replace_cross_of_an_old_style_id():
    old = parse("arxiv_rss_cs_dc_ar.xml", RSS_URL).papers[3]
    assert old == paper(
        RSS_URL,
        id="cs/0601045",
        version=2,
        title="On Bus Arbitration in Early Multiprocessors",
        abstract="A short note on fair bus arbitration, revised.",
        published=at(2006, 1, 31, 23, 59, 59),
        updated=ANNOUNCED,
        authors=(Author("Carlos Méndez Jr."), Author("Amara Osei")),
        primary_category="cs.AR",
        categories=("cs.AR", "cs.DC"),
        abs_url="https://arxiv.org/abs/cs/0601045",
        pdf_url="https://arxiv.org/pdf/cs/0601045v2",
        announce_type="replace-cross",
        date_estimated=True,
    )


def test_arxiv_rss_single_author_in_cyrillic():
    last = parse("arxiv_rss_cs_dc_ar.xml", RSS_URL).papers[4]
    assert last.title == "Почти оптимальная маршрутизация в сетях на кристалле"
    assert last.authors == (Author("Ингрид Соколова"),)
    assert (last.categories, last.primary_category) == (("cs.AR",), "cs.AR")


def test_an_announcement_of_an_older_id_is_no_new_paper():
    """arXiv lists cross-lists added later to older papers as `cross`: one for
    a 2024 paper counted as new on its announcement day."""
    announced = datetime(2026, 12, 1, 0, 0, tzinfo=timezone(timedelta(hours=-5)))
    listed = [
        ("2612.00100", "new"),
        ("2611.09999", "new"),  # submitted late in November
        ("2611.09998", "cross"),
        ("2610.00077", "new"),  # two months on: held, or a misfiled id
        ("2401.12345", "cross"),
        ("2401.54321", "new"),
        ("cs/0601045", "cross"),
    ]
    items = [Announcement(Entry(pid, categories=["cs.SY"]), kind) for pid, kind in listed]
    body = rss_feed(["cs.SY"], items, announced)
    feed = parse_feed(body, "https://rss.arxiv.org/rss/cs.SY", now=at(2026, 12, 1, 6, 0))
    day = at(2026, 12, 1, 5, 0)
    assert [(p.id, p.published, p.updated, p.date_estimated) for p in feed.papers] == [
        ("2612.00100", day, day, False),
        ("2611.09999", day, day, False),
        ("2611.09998", day, day, False),
        ("2610.00077", at(2026, 10, 31, 23, 59, 59), day, True),
        ("2401.12345", at(2024, 1, 31, 23, 59, 59), day, True),
        ("2401.54321", at(2024, 1, 31, 23, 59, 59), day, True),
        ("cs/0601045", at(2006, 1, 31, 23, 59, 59), day, True),
    ]


def test_arxiv_atom_category_feed_is_an_arxiv_listing():
    """rss.arxiv.org/atom/… carries the same announcements in Atom."""
    data = b"""<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/"
      xmlns="http://www.w3.org/2005/Atom" xml:lang="en-us">
  <id>http://rss.arxiv.org/atom/cs.DC</id>
  <title>cs.DC updates on arXiv.org</title>
  <updated>2026-10-05T04:00:11.000000+00:00</updated>
  <link href="http://rss.arxiv.org/atom/cs.DC" rel="self" type="application/atom+xml"/>
  <entry>
    <id>oai:arXiv.org:2608.03030v2</id>
    <title>Gossip at Scale</title>
    <updated>2026-10-05T04:00:11.000000+00:00</updated>
    <link href="https://arxiv.org/abs/2608.03030" rel="alternate" type="text/html"/>
    <summary>arXiv:2608.03030v2 Announce Type: replace
Abstract: Gossip protocols $O(\\log n)$ rounds.</summary>
    <category term="cs.DC"/>
    <category term="cs.NI"/>
    <published>2026-10-05T00:00:00-04:00</published>
    <arxiv:announce_type>replace</arxiv:announce_type>
    <dc:creator>Lior Ben-David, Saoirse Nic Giolla</dc:creator>
  </entry>
</feed>"""
    feed = parse_feed(data, "https://rss.arxiv.org/atom/cs.DC", now=NOW)
    assert feed.kind == "arxiv-rss"
    assert feed.papers == [
        paper(
            "https://rss.arxiv.org/atom/cs.DC",
            id="2608.03030",
            version=2,
            title="Gossip at Scale",
            abstract="Gossip protocols $O(\\log n)$ rounds.",
            published=at(2026, 8, 31, 23, 59, 59),
            updated=ANNOUNCED,
            authors=(Author("Lior Ben-David"), Author("Saoirse Nic Giolla")),
            primary_category="cs.DC",
            categories=("cs.DC", "cs.NI"),
            abs_url="https://arxiv.org/abs/2608.03030",
            pdf_url="https://arxiv.org/pdf/2608.03030v2",
            announce_type="replace",
            date_estimated=True,
        )
    ]


def test_weekend_arxiv_rss_feed_without_items_is_an_empty_listing():
    data = b"""<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" version="2.0"><channel>
<title>cs.DC updates on arXiv.org</title><link>http://rss.arxiv.org/rss/cs.DC</link>
<description>cs.DC updates on the arXiv.org e-print archive.</description>
<pubDate>Sat, 10 Oct 2026 00:00:00 -0400</pubDate></channel></rss>"""
    feed = parse_feed(data, "https://rss.arxiv.org/rss/cs.DC", now=NOW)
    assert (feed.kind, feed.papers, feed.warnings) == ("arxiv-rss", [], [])


# --- any RSS / Atom feed ------------------------------------------------------------------

BLOG = "https://blog.example.org/feed.xml"


def test_rss20_blog():
    feed = parse("blog_rss20.xml", BLOG)
    assert (feed.kind, feed.title) == ("rss", "Parallel Thoughts & Notes")
    assert feed.warnings == ["1 entry without a guid or link skipped"]
    assert feed.papers == [
        paper(
            BLOG,
            id=web_key("https://blog.example.org/2026/10/why-pipelines-stall", BLOG),
            version=1,
            title="Why pipelines stall",
            abstract="Bubbles appear when stages wait.\n\nSee the figure & the notes.",
            published=at(2026, 10, 3, 12, 30),
            updated=at(2026, 10, 3, 12, 30),
            authors=(Author("Rosa Quint"),),
            primary_category="pipelines",
            categories=("pipelines", "Scheduling"),
            abs_url="https://blog.example.org/2026/10/why-pipelines-stall",
        ),
        paper(
            BLOG,
            id="2609.01234",
            version=2,
            title="Reading group: Tessera",
            abstract="This week we read the Tessera paper.",
            # A post about a second version, from after the id's month: the
            # first-version date is not the post's.
            published=at(2026, 9, 30, 23, 59, 59),
            updated=at(2026, 10, 2, 9, 0),
            authors=(Author("Jonas Feld"),),
            abs_url="https://arxiv.org/abs/2609.01234v2",
            date_estimated=True,
            secondhand=True,
        ),
        paper(
            BLOG,
            id=web_key("https://blog.example.org/2026/09/slides", BLOG),
            version=1,
            title="Slides from the workshop",
            abstract="Slides are attached.",
            published=at(2026, 9, 30, 18, 0),
            updated=at(2026, 9, 30, 18, 0),
            abs_url="https://blog.example.org/2026/09/slides",
            pdf_url="https://blog.example.org/files/slides.pdf",
        ),
        paper(
            BLOG,
            id=web_key("https://blog.example.org/notes/undated", BLOG),
            version=1,
            title="An undated note",
            abstract="No date on this one.",
            published=NOW,
            updated=NOW,
            abs_url="https://blog.example.org/notes/undated",
            date_estimated=True,
        ),
    ]


def test_a_web_feeds_text_is_kept_as_written_but_for_its_math():
    r"""Its titles went through the LaTeX renderer: `~/.bashrc` lost its `~`,
    `C:\Windows\System32` its backslashes, `{key: value}` its braces."""
    titles = {
        "Tips for your ~/.bashrc file": "Tips for your ~/.bashrc file",
        r"Paths like C:\Windows\System32 explained": r"Paths like C:\Windows\System32 explained",
        "JSON {key: value} objects -- and `quotes''": "JSON {key: value} objects -- and `quotes''",
        r"Use \n for newlines, costs $5 and $10": r"Use \n for newlines, costs $5 and $10",
        r"Why $O(n^2)$ and \(\alpha_1\) \emph{still} matter": r"Why O(n²) and α₁ \emph{still} matter",
    }
    items = "".join(
        f"<item><title>{escape(title)}</title><guid>urn:invented:{n}</guid>"
        f"<description>{escape(title)}</description><pubDate>Fri, 02 Oct 2026 09:00:00 GMT</pubDate></item>"
        for n, title in enumerate(titles)
    )
    body = f"<?xml version='1.0'?><rss version='2.0'><channel><title>Notes</title>{items}</channel></rss>"
    feed = parse_feed(body.encode(), BLOG, now=NOW)
    assert [p.title_display for p in feed.papers] == list(titles.values())
    assert [p.abstract_display for p in feed.papers] == list(titles.values())
    assert [p.title for p in feed.papers] == list(titles)


def test_arxiv_text_is_still_latex_throughout():
    body = (FEEDS / "arxiv_rss_cs_dc_ar.xml").read_bytes()
    plain = b"A short note on fair bus arbitration, revised."
    assert plain in body
    body = body.replace(plain, rb"A short note on fair bus~arbitration, \emph{revised} {again} -- $k$.")
    feed = parse_feed(body, "https://rss.arxiv.org/rss/cs.DC+cs.AR", now=NOW)
    [note] = [p for p in feed.papers if p.abstract.startswith("A short note")]
    assert note.abstract_display == "A short note on fair bus arbitration, revised again – k."


def test_blog_entry_about_an_arxiv_paper_is_that_paper():
    blog = parse("blog_rss20.xml", BLOG).papers[1]
    api = parse("arxiv_api_page.xml", API_URL).papers[0]
    assert blog.id == api.id == "2609.01234"
    merged = api.merged_with(blog)
    assert merged.version == 3
    assert set(merged.sources) == {API_URL, BLOG}


def test_a_post_dates_an_arxiv_paper_only_when_it_links_a_first_version_from_its_month():
    """Posts dated Oct 2026 about arXiv papers: "Attention" (1706.03762) took the
    post's date as its submission date, exact, and counted as a new paper."""
    posts = [
        ("https://arxiv.org/abs/2610.00042", "Fri, 02 Oct 2026 09:00:00 GMT"),
        ("https://arxiv.org/abs/2610.00043v1", "Fri, 02 Oct 2026 09:00:00 GMT"),
        ("https://arxiv.org/abs/1706.03762", "Fri, 02 Oct 2026 09:00:00 GMT"),
        ("https://arxiv.org/abs/2609.00044", "Thu, 01 Oct 2026 00:30:00 GMT"),
        ("https://arxiv.org/pdf/2610.00045v2", "Sat, 03 Oct 2026 09:00:00 GMT"),
        ("https://arxiv.org/abs/hep-th/9901001v1", "Sat, 03 Oct 2026 09:00:00 GMT"),
        ("https://arxiv.org/abs/2611.00046", "Sat, 03 Oct 2026 09:00:00 GMT"),
        ("https://arxiv.org/abs/1706.03762", ""),
    ]
    items = "".join(
        f"<item><title>Post</title><link>{link}</link>" + (f"<pubDate>{day}</pubDate>" if day else "") + "</item>"
        for link, day in posts
    )
    body = f"<rss version='2.0'><channel><title>Notes</title>{items}</channel></rss>".encode()
    feed = parse_feed(body, BLOG, now=NOW)
    assert [(p.versioned_id, p.published, p.updated, p.date_estimated) for p in feed.papers] == [
        ("2610.00042v1", at(2026, 10, 2, 9, 0), at(2026, 10, 2, 9, 0), False),
        ("2610.00043v1", at(2026, 10, 2, 9, 0), at(2026, 10, 2, 9, 0), False),
        ("1706.03762v1", at(2017, 6, 30, 23, 59, 59), at(2026, 10, 2, 9, 0), True),
        ("2609.00044v1", at(2026, 9, 30, 23, 59, 59), at(2026, 10, 1, 0, 30), True),
        ("2610.00045v2", at(2026, 10, 3, 9, 0), at(2026, 10, 3, 9, 0), True),
        ("hep-th/9901001v1", at(1999, 1, 31, 23, 59, 59), at(2026, 10, 3, 9, 0), True),
        # Posted before its id's month: no paper's first version is that early.
        ("2611.00046v1", at(2026, 10, 3, 9, 0), at(2026, 10, 3, 9, 0), True),
        # No date at all: the fetch time, an estimate, as for any post.
        ("1706.03762v1", NOW, NOW, True),
    ]


def test_rss10_rdf():
    url = "https://lab.example.net/news.rdf"
    feed = parse("rss10_rdf.xml", url)
    assert (feed.kind, feed.title, feed.warnings) == ("rss", "Invented Lab News", [])
    assert feed.papers == [
        paper(
            url,
            id=web_key("https://lab.example.net/news/42", url),
            version=1,
            title="New cluster online",
            abstract="Our 64-node cluster is online.",
            published=at(2026, 9, 28, 8, 15),
            updated=at(2026, 9, 28, 8, 15),
            authors=(Author("Odalys Ferrer"),),
            primary_category="infrastructure",
            categories=("infrastructure",),
            abs_url="https://lab.example.net/news/42",
        ),
        paper(
            url,
            id=web_key("https://lab.example.net/news/43", url),
            version=1,
            title="Paper accepted",
            abstract="Our paper on gossip protocols was accepted.",
            published=at(2026, 10, 1, 8, 0),
            updated=at(2026, 10, 1, 8, 0),
            authors=(Author("Valdis Ozols"),),
            abs_url="https://lab.example.net/news/43",
        ),
    ]


def test_rss091_in_latin1_without_guids_or_dates():
    url = "http://oldschool.example.com/rss.xml"
    feed = parse("rss091.xml", url)
    assert (feed.kind, feed.title, feed.warnings) == ("rss", "Old School Systems", [])
    assert feed.papers == [
        paper(
            url,
            id=web_key("http://oldschool.example.com/talks/caches.html", url),
            version=1,
            title="Café talk on caches",
            abstract="A talk on caches, given at the café downstairs.",
            published=NOW,
            updated=NOW,
            abs_url="http://oldschool.example.com/talks/caches.html",
            date_estimated=True,
        ),
        paper(
            url,
            id=web_key("http://oldschool.example.com/talks/second.html", url),
            version=1,
            title="Second talk",
            abstract="",
            published=NOW,
            updated=NOW,
            abs_url="http://oldschool.example.com/talks/second.html",
            date_estimated=True,
        ),
    ]


def test_atom10_with_xhtml_content():
    url = "https://group.example.edu/atom.xml"
    feed = parse("atom10_xhtml.xml", url)
    assert (feed.kind, feed.title, feed.warnings) == ("atom", "Invented Group Blog", [])
    assert feed.papers == [
        paper(
            url,
            id=web_key("tag:group.example.edu,2026:post-7", url),
            version=1,
            title="Benchmarks & lies",
            abstract="Most benchmarks measure the wrong thing.\n\nHere is a better one.",
            published=at(2026, 10, 2, 8, 0),
            updated=at(2026, 10, 3, 9, 30),
            authors=(Author("Gwenllian Price"), Author("Nnamdi Okafor")),
            primary_category="benchmarks",
            categories=("benchmarks", "methodology"),
            abs_url="https://group.example.edu/posts/benchmarks",
            pdf_url="https://group.example.edu/files/benchmarks.pdf",
        ),
        paper(
            url,
            id=web_key("tag:group.example.edu,2026:post-8", url),
            version=1,
            title="Only an update date",
            abstract="This entry has an updated date and no published date.",
            published=at(2026, 10, 4, 7, 45),
            updated=at(2026, 10, 4, 7, 45),
            abs_url="https://group.example.edu/posts/update-only",
        ),
        paper(
            url,
            id="2608.11873",
            version=2,
            title="A paper we liked",
            abstract="Worth a read.",
            published=at(2026, 8, 31, 23, 59, 59),
            updated=at(2026, 10, 4, 7, 50),
            abs_url="https://arxiv.org/pdf/2608.11873v2",
            pdf_url="https://arxiv.org/pdf/2608.11873v2",
            date_estimated=True,
            secondhand=True,
        ),
    ]


def test_an_author_named_in_author_and_in_dc_creator_is_one_author():
    data = b"""<?xml version="1.0"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Lab</title>
<item><title>One</title><link>https://lab.example.org/1</link>
  <author>ann@lab.example.org (Ann One)</author><dc:creator>Ann One</dc:creator></item>
<item><title>Two</title><link>https://lab.example.org/2</link>
  <dc:creator>Ann One</dc:creator><dc:creator>Bob Two</dc:creator></item>
</channel></rss>"""
    feed = parse_feed(data, "https://lab.example.org/feed.xml", now=NOW)
    assert [[a.name for a in p.authors] for p in feed.papers] == [["Ann One"], ["Ann One", "Bob Two"]]


def test_same_post_in_two_feeds_is_one_paper_when_its_guid_is_a_uri():
    one = parse("atom10_xhtml.xml", "https://group.example.edu/atom.xml").papers[0]
    other = parse("atom10_xhtml.xml", "https://mirror.example.com/group.xml").papers[0]
    assert one.id == other.id


def test_bare_token_guids_are_scoped_by_their_feed():
    data = (
        (FEEDS / "blog_rss20.xml")
        .read_bytes()
        .replace(
            b'<guid isPermaLink="true">https://blog.example.org/2026/10/why-pipelines-stall</guid>',
            b'<guid isPermaLink="false">post-117</guid>',
        )
    )
    one = parse_feed(data, "https://blog.example.org/feed.xml", now=NOW).papers[0]
    other = parse_feed(data, "https://elsewhere.example/feed.xml", now=NOW).papers[0]
    assert one.id != other.id
    assert one.id == web_key("post-117", "https://blog.example.org/feed.xml")


def test_relative_rss_links_are_resolved_against_the_url_the_feed_came_from():
    """RSS 2.0 wants absolute links, but blogs write `/p/rel1`: it was dropped,
    and `o` said the paper had no link. The key stays the link as written."""
    data = b"""<rss version="2.0"><channel><title>t</title>
<item><title>Root</title><link>/p/rel1</link></item>
<item><title>Beside</title><link>p/rel2.html</link><enclosure url="files/rel2.pdf" type="application/pdf"/></item>
<item><title>Other host</title><link>//cdn.example/p/3</link></item>
<item><title>Absolute</title><link>https://x.example/abs</link></item>
<item><title>Script</title><link>javascript:alert(1)</link></item>
<item><title>Mail</title><link>mailto:me@x.example</link><guid>mail</guid></item>
</channel></rss>"""
    url = "https://x.example/feed"
    feed = parse_feed(data, url, now=NOW, base="https://www.x.example/blog/feed.xml")
    assert [(p.title, p.abs_url, p.pdf_url) for p in feed.papers] == [
        ("Root", "https://www.x.example/p/rel1", ""),
        ("Beside", "https://www.x.example/blog/p/rel2.html", "https://www.x.example/blog/files/rel2.pdf"),
        ("Other host", "https://cdn.example/p/3", ""),
        ("Absolute", "https://x.example/abs", ""),
        ("Script", "", ""),
        ("Mail", "", ""),
    ]
    assert feed.papers[0].id == web_key("/p/rel1", url)
    assert feed.papers[0].sources == (url,)
    # Without a base of its own, the feed's URL is the base.
    assert parse_feed(data, url, now=NOW).papers[0].abs_url == "https://x.example/p/rel1"


def test_entries_are_never_keyed_by_title():
    data = b"""<rss version="2.0"><channel><title>t</title>
<item><title>Same title</title><description>one</description></item>
<item><title>Same title</title><link>https://x.example/2</link></item>
</channel></rss>"""
    feed = parse_feed(data, "https://x.example/feed", now=NOW)
    assert [p.abstract for p in feed.papers] == [""]
    assert feed.papers[0].id == web_key("https://x.example/2", "https://x.example/feed")
    assert feed.warnings == ["1 entry without a guid or link skipped"]


def test_an_entry_repeating_the_guid_or_link_of_an_earlier_one_is_skipped_with_a_note():
    """The second was dropped when the refresh was stored, without a word."""
    data = b"""<rss version="2.0"><channel><title>t</title>
<item><title>Dup guid first</title><guid>dup</guid><link>https://x.example/1</link></item>
<item><title>Dup guid second</title><guid>dup</guid><link>https://x.example/2</link></item>
<item><title>Dup guid third</title><guid>dup</guid></item>
<item><title>Linked once</title><link>https://x.example/3</link></item>
<item><title>Linked again</title><link>https://x.example/3</link></item>
<item><title>Other</title><guid>other</guid></item>
</channel></rss>"""
    feed = parse_feed(data, "https://x.example/feed", now=NOW)
    assert [p.title for p in feed.papers] == ["Dup guid first", "Linked once", "Other"]
    assert feed.warnings == ["2 entries with a repeated guid skipped", "1 entry with a repeated link skipped"]


def test_two_posts_about_one_arxiv_paper_are_no_repeated_guid():
    """They are one paper by design (merged as records of it), not a feed's mistake."""
    data = b"""<rss version="2.0"><channel><title>t</title>
<item><title>Post one</title><link>https://arxiv.org/abs/2609.01234v1</link></item>
<item><title>Post two</title><link>https://arxiv.org/abs/2609.01234v2</link></item>
</channel></rss>"""
    feed = parse_feed(data, "https://x.example/feed", now=NOW)
    assert [p.versioned_id for p in feed.papers] == ["2609.01234v1", "2609.01234v2"]
    assert feed.warnings == []


def test_dates_out_of_range_are_replaced_by_the_fetch_time_with_a_warning():
    data = b"""<rss version="2.0"><channel><title>t</title>
<item><guid>https://x.example/1</guid><pubDate>Thu, 01 Jan 1970 00:00:00 GMT</pubDate></item>
<item><guid>https://x.example/2</guid><pubDate>Fri, 01 Jan 2099 00:00:00 GMT</pubDate></item>
<item><guid>https://x.example/3</guid><pubDate>Fri, 01 Jan 2099 00:00:00 GMT</pubDate></item>
<item><guid>https://x.example/4</guid><pubDate>Tue, 06 Oct 2026 06:00:00 GMT</pubDate></item>
</channel></rss>"""
    feed = parse_feed(data, "https://x.example/feed", now=NOW)
    assert [(p.published, p.date_estimated) for p in feed.papers] == [
        (NOW, True),
        (NOW, True),
        (NOW, True),
        (at(2026, 10, 6, 6, 0), False),  # less than a day ahead: time zones, clock skew
    ]
    assert feed.warnings == [
        "2 entries dated more than a day in the future; the fetch time is used instead",
        "1 entry dated before 1991; the fetch time is used instead",
    ]


def test_a_naive_now_is_utc_and_an_aware_one_is_converted():
    data = b'<rss version="2.0"><channel><item><guid>https://x.example/1</guid></item></channel></rss>'
    assert parse_feed(data, now=datetime(2026, 10, 5, 12, 0)).papers[0].published == NOW
    plus_two = timezone(timedelta(hours=2))
    assert parse_feed(data, now=datetime(2026, 10, 5, 14, 0, tzinfo=plus_two)).papers[0].published == NOW
    assert parse_feed(data, now=datetime(2026, 10, 5, 14, 0, tzinfo=plus_two)).papers[0].published.tzinfo == UTC


def test_now_defaults_to_the_current_time():
    data = b'<rss version="2.0"><channel><item><guid>https://x.example/1</guid></item></channel></rss>'
    before = datetime.now(UTC)
    published = parse_feed(data).papers[0].published
    assert before <= published <= datetime.now(UTC)


# --- not a feed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not a feed: the response is empty"),
        (b"  \r\n\t ", "not a feed: the response is empty"),
        (
            b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>x</body></html>",
            "not a feed: the response is HTML (a web page), not RSS or Atom",
        ),
        (
            b"<html lang='en'><body><rss>not really</rss></body></html>",
            "not a feed: the response is HTML (a web page), not RSS or Atom",
        ),
        (
            b'<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">\n'
            b'<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
            "not a feed: the response is HTML (a web page), not RSS or Atom",
        ),
        (b'{"papers": []}', "not a feed: the response is JSON, not RSS or Atom"),
        (b"Rate exceeded.", "not a feed: the response is not XML (it begins \u201cRate exceeded.\u201d)"),
        (b"\x1b[2J\x1b]0;title\x07Busy", "not a feed: the response is not XML (it begins \u201cBusy\u201d)"),
        (
            b'<?xml version="1.0"?><opml version="2.0"><body/></opml>',
            "not a feed: the XML document is <opml>, not RSS or Atom",
        ),
        (
            b'<?xml version="1.0"?>\n<rss version="2.0">\n<channel><title>a &nbsp; b</title>',
            "not a feed: XML error at line 3, column 19: undefined entity",
        ),
    ],
)
def test_not_a_feed(data: bytes, message: str):
    with pytest.raises(FeedError) as raised:
        parse_feed(data, "https://x.example/feed", now=NOW)
    assert str(raised.value) == message


def test_truncated_api_response_keeps_what_was_read_and_says_so():
    data = (FEEDS / "arxiv_api_page.xml").read_bytes()
    cut = data[: data.index(b"<entry>", data.index(b"<entry>") + 1) + 200]
    feed = parse_feed(cut, API_URL, now=NOW)
    assert feed.kind == "arxiv-api"
    assert [p.id for p in feed.papers][:1] == ["2609.01234"]
    assert feed.papers[0] == parse("arxiv_api_page.xml", API_URL).papers[0]
    assert len(feed.warnings) == 1
    assert feed.warnings[0].startswith("the feed is not well-formed (XML error at line ")
    assert "no element found" in feed.warnings[0] or "unclosed token" in feed.warnings[0]


def test_broken_response_with_nothing_readable_is_an_error_not_an_empty_feed():
    data = (FEEDS / "arxiv_api_page.xml").read_bytes()
    cut = data[: data.index(b"<entry>")]
    with pytest.raises(FeedError) as raised:
        parse_feed(cut, API_URL, now=NOW)
    assert str(raised.value) == "not a feed: XML error at line 10, column 3: no element found"


def test_a_feed_cut_short_in_its_first_entry_is_an_error_not_an_empty_feed():
    """The lenient reading keeps the entry it was in, which has neither id nor
    link and is skipped: the refresh once counted the source as answered, with
    no papers and no word of the damage."""
    cut = b'<?xml version="1.0"?><rss version="2.0"><channel><title>Lab</title><item><title>Unclosed'
    with pytest.raises(FeedError) as raised:
        parse_feed(cut, "https://x.example/feed", now=NOW)
    message = str(raised.value)
    assert message.startswith("not a feed: XML error at line 1, column ")
    assert message.endswith(": no element found; 1 entry without a guid or link skipped")


# --- encodings ------------------------------------------------------------------------

ENCODING_FEED = """<?xml version="1.0" encoding="{declared}"?>
<rss version="2.0"><channel><title>Caf\u00e9 \u2013 na\u00efve \u201cquotes\u201d</title>
<item><guid>https://x.example/1</guid><title>R\u00e9sum\u00e9 \u20ac</title></item></channel></rss>"""
EXPECTED_TITLE = "Caf\u00e9 \u2013 na\u00efve \u201cquotes\u201d"


def encoded(declared: str, encoding: str, bom: bytes = b"") -> bytes:
    return bom + ENCODING_FEED.format(declared=declared).encode(encoding)


@pytest.mark.parametrize(
    ("data", "content_type", "warnings"),
    [
        (encoded("UTF-8", "utf-8"), "", []),
        (encoded("windows-1252", "cp1252"), "", []),
        (encoded("UTF-16", "utf-16-le", b"\xff\xfe"), "", []),
        (encoded("UTF-16", "utf-16-be", b"\xfe\xff"), "", []),
        (encoded("UTF-8", "utf-8", b"\xef\xbb\xbf"), "", []),
        (encoded("UTF-8", "utf-8"), "application/rss+xml; charset=utf-8", []),
        (
            encoded("UTF-8", "cp1252"),
            "",
            ["the feed says its encoding is UTF-8 but it is not; read as windows-1252"],
        ),
        (
            encoded("ISO-8859-1", "utf-8"),
            "",
            ["the feed says its encoding is ISO-8859-1 but it is UTF-8; read as UTF-8"],
        ),
        (
            encoded("UTF-8", "utf-8"),
            "text/xml; charset=iso-8859-1",
            ["the feed says its encoding is iso-8859-1 but it is UTF-8; read as UTF-8"],
        ),
        (encoded("windows-1252", "cp1252"), "application/xml; charset=windows-1252", []),
    ],
    ids=[
        "utf-8",
        "windows-1252",
        "utf-16-le-bom",
        "utf-16-be-bom",
        "utf-8-bom",
        "http-charset",
        "cp1252-bytes-declared-utf-8",
        "utf-8-bytes-declared-latin-1",
        "utf-8-bytes-http-latin-1",
        "http-and-declaration-agree",
    ],
)
def test_encodings_give_the_right_text_or_say_what_they_did(data: bytes, content_type: str, warnings: list[str]):
    feed = parse_feed(data, "https://x.example/feed", content_type, now=NOW)
    assert feed.title == EXPECTED_TITLE
    assert feed.papers[0].title == "R\u00e9sum\u00e9 \u20ac"
    assert feed.warnings == warnings


@pytest.mark.parametrize(
    ("label", "codec", "title"),
    [
        ("GB2312", "gbk", "論文新到：研究の事"),  # traditional characters: GBK has them, GB2312 not
        ("Shift_JIS", "cp932", "①論文の新着 ～ Ⅱ"),  # windows-31j's circled digits, wave dash and numerals
        ("EUC-KR", "cp949", "똠방각하 논문"),  # a syllable only windows-949 encodes
        ("Big5", "big5hkscs", "論文新到 㐵"),  # an HKSCS character
    ],
)
def test_a_feed_labelled_with_an_east_asian_encoding_is_read_as_its_superset_as_browsers_do(label, codec, title):
    """Feeds written by Windows software name the smaller encoding and use the
    larger one; a GB2312 feed of GBK text was read as windows-1252, garbled."""
    data = f'<?xml version="1.0" encoding="{label}"?><rss version="2.0"><channel><title>t</title><item><guid>https://x.example/1</guid><title>{title}</title></item></channel></rss>'.encode(codec)
    with pytest.raises(UnicodeError):
        data.decode(codecs.lookup(label).name)  # it is not in the encoding named
    feed = parse_feed(data, "https://x.example/feed", now=NOW)
    assert feed.papers[0].title == title
    assert feed.warnings == []


def test_latin1_declared_but_undefined_windows_bytes_lose_only_those_bytes():
    data = (
        b'<?xml version="1.0" encoding="ISO-8859-1"?>'
        b'<rss version="2.0"><channel><title>a\x81b\x93c\x94</title></channel></rss>'
    )
    assert parse_feed(data, now=NOW).title == "ab\u201cc\u201d"


def test_api_response_in_utf16_still_takes_the_fast_path_and_matches():
    data = (FEEDS / "arxiv_api_page.xml").read_bytes()
    utf16 = b"\xff\xfe" + data.decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16-le")
    assert parse_feed(utf16, API_URL, now=NOW) == parse_feed(data, API_URL, now=NOW)


def test_feed_is_parsed_the_same_with_extra_leading_white_space():
    data = (FEEDS / "arxiv_api_page.xml").read_bytes()
    assert parse_feed(b"\n\n  " + data, API_URL, now=NOW) == parse_feed(data, API_URL, now=NOW)


def test_authors_past_the_limit_are_counted_in_a_category_feed_and_a_web_feed():
    names = [f"Author {i}" for i in range(MAX_AUTHORS + 7)]
    listing = (FEEDS / "arxiv_rss_cs_dc_ar.xml").read_bytes().replace(
        b"Mireille Okonkwo-Hart, Tobias Lindqvist and Sung-min Baek", ", ".join(names).encode(), 1
    )
    web = (FEEDS / "atom10_xhtml.xml").read_bytes().replace(
        b"<author>", "".join(f"<author><name>{name}</name></author>" for name in names).encode() + b"<author>", 1
    )
    for data, url in ((listing, RSS_URL), (web, "https://feeds.example/feed")):
        paper = parse_feed(data, url, now=NOW).papers[0]
        assert len(paper.authors) == MAX_AUTHORS
        assert paper.authors[-1] == Author(f"Author {MAX_AUTHORS - 1}")
        assert paper.authors_omitted == 7 + (2 if data is web else 0)  # the web post's own two authors
