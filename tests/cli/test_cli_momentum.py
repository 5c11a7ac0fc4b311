"""Momentum end to end: refreshes at pinned times against a loopback arXiv and
a blog feed, then `feedtui topics --json --as-of` and `feedtui topic show`.

Every expected figure below is worked out by hand from the dates of invented
papers placed on the boundaries: a Sunday 23:59:59 and the Monday after, the
exact 28- and 56-day edges, papers older than the 12 weeks shown, a paper
after the as-of time, a leap day.
"""

from __future__ import annotations

import asyncio
import json
import math
from datetime import UTC, date, datetime, timedelta

import pytest
from werkzeug.wrappers import Response

from feedtui.cli import main
from feedtui.config import load_config
from feedtui.core.engine import open_engine
from feedtui.topics.catalogue import load_catalogue

from tests.arxiv_rss import Announcement
from tests.arxiv_search import LoopbackArxiv
from tests.atom import Entry


def paper(pid: str, when: str, word: str) -> Entry:
    return Entry(pid, title=f"Paper {pid}", summary=f"An invented study of the {word}.", published=when)


WIDGETS = [
    paper("2610.00001", "2026-10-01T12:00:00Z", "widget"),  # exactly the as-of time: last4, this week
    paper("2609.00002", "2026-09-28T00:00:00Z", "widget"),  # Monday 00:00: this week
    paper("2609.00003", "2026-09-27T23:59:59Z", "widget"),  # Sunday 23:59:59: the week before
    paper("2609.00004", "2026-09-03T12:00:01Z", "widget"),  # 28 days less a second: last4
    paper("2609.00005", "2026-09-03T12:00:00Z", "widget"),  # exactly 28 days: prev4
    paper("2608.00006", "2026-08-06T12:00:01Z", "widget"),  # 56 days less a second: prev4
    paper("2608.00007", "2026-08-06T12:00:00Z", "widget"),  # exactly 56 days: neither
    paper("2607.00008", "2026-07-13T00:00:00Z", "widget"),  # the first Monday shown
    paper("2607.00009", "2026-07-12T23:59:59Z", "widget"),  # a second older than the 12 weeks
    paper("2606.00010", "2026-06-20T10:00:00Z", "widget"),  # cached, long before the chart
    paper("2610.00011", "2026-10-01T12:00:01Z", "widget"),  # a second after the as-of time
    paper("2609.00012", "2026-09-30T08:00:00Z", "widget"),
    paper("2609.00013", "2026-09-15T09:00:00Z", "widget"),
]
GIZMOS = [paper("2609.00021", "2026-09-20T10:00:00Z", "gizmo")]
FLAT = [paper(f"2609.0003{i}", f"2026-09-1{i - 1}T10:00:00Z", "flatline") for i in (1, 2, 3)] + [
    paper(f"2608.0003{i}", f"2026-08-{16 + i}T10:00:00Z", "flatline") for i in (4, 5, 6)
]
SPROCKETS = [paper(f"2608.0004{i}", f"2026-08-2{4 + i}T10:00:00Z", "sprocket") for i in (1, 2, 3)]

BLOG_POSTS = [
    ("1", "Wed, 30 Sep 2026 10:00:00 +0000"),
    ("2", "Thu, 10 Sep 2026 10:00:00 +0000"),
    ("3", "Wed, 01 Jul 2026 10:00:00 +0000"),
]

AS_OF = "2026-10-01T12:00:00Z"
FIRST = datetime(2026, 10, 1, 18, 0, tzinfo=UTC)
TOPICS = {"Widgets": "abs:widget", "Gizmos": "abs:gizmo", "Flat": "abs:flatline", "Sprockets": "abs:sprocket",
          "Empty": "abs:nothingatall"}


def blog_feed(base: str) -> bytes:
    items = "".join(
        f"<item><title>Lab note {n}</title><link>{base}/posts/{n}</link><guid>{base}/posts/{n}</guid>"
        f"<pubDate>{day}</pubDate><description>What the lab did, part {n}.</description></item>"
        for n, day in BLOG_POSTS
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>An invented lab blog</title>'
        f"<link>{base}/</link><description>Notes.</description>{items}</channel></rss>"
    ).encode()


@pytest.fixture
def world(tmp_path, httpserver):
    arxiv = LoopbackArxiv(WIDGETS + GIZMOS + FLAT + SPROCKETS, total_new=6000).install(httpserver)
    base = httpserver.url_for("/blog").removesuffix("/blog")
    httpserver.expect_request("/blog.xml").respond_with_handler(
        lambda request: Response(blog_feed(base), content_type="application/rss+xml")
    )
    config = tmp_path / "config.toml"
    config.write_text(
        f'[arxiv]\nmin_interval = 0.0\napi_url = "{httpserver.url_for("/api/query")}"\n'
        f'rss_url = "{httpserver.url_for("/rss/")}"\n'
    )
    data = tmp_path / "data"

    def cli(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    def refresh_at(moment: datetime, *, force: bool = False) -> None:
        engine = open_engine(load_config(config), data, clock=lambda: moment)
        assert asyncio.run(engine.refresh(force=force)).ok
        engine.close()

    for name, query in TOPICS.items():
        assert cli("topic", "add", name, "--query", query) == 0
        assert cli("follow", name) == 0
    assert cli("topic", "add", "Blog", "--feed", httpserver.url_for("/blog.xml")) == 0
    assert cli("follow", "Blog") == 0
    return arxiv, cli, refresh_at


def topics_json(cli, capsys, *args: str) -> list[dict]:
    return topics_json_said(cli, capsys, *args)[0]


def topics_json_said(cli, capsys, *args: str) -> tuple[list[dict], str]:
    """`topics --json` and what it said on stderr."""
    capsys.readouterr()
    assert cli("topics", "--json", *args) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def weeks(first: date, counts: list[int]) -> list[dict]:
    return [{"start": (first + timedelta(weeks=i)).isoformat(), "count": c} for i, c in enumerate(counts)]


def test_topics_json_momentum_on_the_boundaries(world, capsys):
    arxiv, cli, refresh_at = world
    refresh_at(FIRST)
    assert [r.search_query for r in arxiv.total_requests] == ["submittedDate:[202609031800 TO 202610011800]"]
    assert arxiv.total_requests[0].max_results == 1

    topics = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", AS_OF)}
    widgets = topics["Widgets"]
    assert widgets["papers"] == 13 and widgets["description"] == ""
    assert widgets["momentum"] == {
        "last4": 6,
        "prev4": 2,
        "trending": 4 / math.sqrt(12),
        "share": 6 / 6000,
        "share_of": "arxiv",
        "sentence": "6 papers in the last four weeks, against 2 the four weeks before. 0.1% of all new papers.",
        "hidden": 0,
        "weeks": weeks(date(2026, 7, 13), [1, 0, 0, 2, 0, 0, 0, 2, 0, 1, 1, 3]),
    }
    gizmos = topics["Gizmos"]["momentum"]
    assert gizmos["sentence"] == "1 paper in the last four weeks, against 0 the four weeks before. <0.1% of all new papers."
    assert (gizmos["share_of"], gizmos["weeks"][9]["count"]) == ("arxiv", 1)
    flat = topics["Flat"]["momentum"]
    assert (flat["last4"], flat["prev4"], flat["share_of"]) == (3, 3, "arxiv")
    sprockets = topics["Sprockets"]["momentum"]
    assert sprockets["sentence"] == "0 papers in the last four weeks, against 3 the four weeks before. 0% of all new papers."
    empty = topics["Empty"]
    assert empty["papers"] == 0
    assert empty["momentum"]["sentence"] == (
        "0 papers in the last four weeks, against 0 the four weeks before. 0% of all new papers."
    )
    assert [w["count"] for w in empty["momentum"]["weeks"]] == [0] * 12
    # A feed topic's share is of every cached paper of those 28 days: 6 widgets,
    # 1 gizmo, 3 flatlines and 2 posts.
    blog = topics["Blog"]["momentum"]
    assert blog["share_of"] == "cache" and blog["share"] == 2 / 12
    assert blog["sentence"] == "2 papers in the last four weeks, against 0 the four weeks before. 17% of the papers in your cache."
    catalogue = {t["name"]: t for t in topics.values() if t["origin"] == "catalogue"}
    assert len(catalogue) == len(load_catalogue())
    assert all(t["description"] for t in catalogue.values())


def test_the_count_of_all_new_papers_is_asked_once_a_day(world, capsys, monkeypatch, closed_port):
    arxiv, cli, refresh_at = world
    refresh_at(FIRST)
    searches = len(arxiv.search_requests)
    refresh_at(FIRST + timedelta(hours=3), force=True)
    assert len(arxiv.search_requests) > searches  # arXiv was asked again …
    assert len(arxiv.total_requests) == 1  # … but the day's total is cached

    # Offline from here (the past windows' counts are not asked for).
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    # The next day, before any refresh (offline): the day before's count still
    # stands. (The share jumped to one of the cache, 50%, at 00:00 UTC.)
    next_day = "2026-10-02T00:00:00Z"
    widgets = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", next_day)}["Widgets"]["momentum"]
    assert (widgets["last4"], widgets["prev4"], widgets["share_of"]) == (6, 2, "arxiv")
    assert widgets["sentence"] == "6 papers in the last four weeks, against 2 the four weeks before. 0.1% of all new papers."
    # It stands for seven days after the day it was counted; then the cache is the basis.
    for as_of, basis in (("2026-10-08T23:59:59Z", "arxiv"), ("2026-10-09T00:00:00Z", "cache")):
        widgets = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", as_of)}["Widgets"]["momentum"]
        assert widgets["share_of"] == basis, as_of
    # A count is never taken for a time before it was counted.
    widgets = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", "2026-09-30T23:59:59Z")}["Widgets"]["momentum"]
    assert widgets["share_of"] == "cache"

    monkeypatch.delenv("FEEDTUI_ARXIV_API_URL")
    arxiv.total_new = 6100
    refresh_at(FIRST + timedelta(days=1))
    assert [r.search_query for r in arxiv.total_requests] == [
        "submittedDate:[202609031800 TO 202610011800]",
        "submittedDate:[202609041800 TO 202610021800]",
    ]
    # Each day's momentum takes the latest count up to that day.
    for as_of, total in (("2026-10-01T12:00Z", 6000), ("2026-10-02T12:00Z", 6100), ("2026-10-05T12:00Z", 6100)):
        widgets = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", as_of)}["Widgets"]["momentum"]
        assert (widgets["share_of"], widgets["share"]) == ("arxiv", widgets["last4"] / total), as_of


def test_a_past_windows_count_is_asked_for_once_and_said(world, capsys, monkeypatch, closed_port):
    """`topics --as-of` a past day no refresh counted: arXiv is asked for that
    window's count, once (kept in the data directory), and the shares of arXiv
    topics are of it; offline, of the cache, and both are said."""
    arxiv, cli, refresh_at = world
    refresh_at(FIRST)
    assert len(arxiv.total_requests) == 1
    past = "2026-09-20T12:00:00Z"
    arxiv.total_new = 5000
    topics, err = topics_json_said(cli, capsys, "--as-of", past)
    widgets = {t["name"]: t for t in topics}["Widgets"]["momentum"]
    assert [r.search_query for r in arxiv.total_requests][1:] == ["submittedDate:[202608231200 TO 202609201200]"]
    assert (widgets["share_of"], widgets["share"]) == ("arxiv", widgets["last4"] / 5000)
    assert widgets["sentence"].endswith(" of all new papers.")
    assert err == (
        "feedtui: arXiv topics' shares are of arXiv's count of all new papers in the 28 days to Sep 20, 2026: 5,000\n"
    )
    # Asked again: the kept count, no request; the same in `topic show`.
    topics = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", past)}
    assert topics["Widgets"]["momentum"] == widgets
    assert topics["Blog"]["momentum"]["share_of"] == "cache"  # a feed topic's share stays of the cache
    assert cli("topic", "show", "Widgets", "--as-of", past) == 0
    shown = capsys.readouterr()
    assert f"{widgets['sentence']}\n(share of arXiv's count" in shown.out
    assert "5,000" in shown.err
    assert len(arxiv.total_requests) == 2

    # Offline, another past day: the cache's share, and said so.
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    offline = "2026-09-10T12:00:00Z"
    topics, err = topics_json_said(cli, capsys, "--as-of", offline)
    widgets = {t["name"]: t for t in topics}["Widgets"]["momentum"]
    assert widgets["share_of"] == "cache"
    assert widgets["sentence"].endswith(" of the papers in your cache.")
    assert err.startswith("feedtui: arXiv's count of all new papers in the 28 days to Sep 10, 2026 could not be fetched (")
    assert err.endswith("); shares are of the papers in your cache\n")
    assert len(arxiv.total_requests) == 2
    # A feed-only topic shown needs no count: nothing asked, nothing said.
    assert cli("topic", "show", "Blog", "--as-of", offline) == 0
    assert capsys.readouterr().err == ""


def test_sorting_by_trending_unread_and_name(world, capsys):
    _arxiv, cli, refresh_at = world
    refresh_at(FIRST)
    names = [t["name"] for t in topics_json(cli, capsys, "--as-of", AS_OF, "--sort", "name")]
    assert names == sorted(names, key=str.casefold) and len(names) == len(load_catalogue()) + 6

    # Scores (last4 - prev4) / sqrt(last4 + prev4 + 4): Widgets 6-2 1.15, Blog 2-0 0.82,
    # Gizmos 1-0 0.45, Flat 3-3 and every quiet topic 0 (Flat first: more volume),
    # Sprockets 0-3 -1.13.
    quiet = sorted((n for n in names if n not in {"Widgets", "Blog", "Gizmos", "Flat", "Sprockets"}), key=str.casefold)
    trending = topics_json(cli, capsys, "--as-of", AS_OF, "--sort", "trending")
    assert [t["name"] for t in trending] == ["Widgets", "Blog", "Gizmos", "Flat", *quiet, "Sprockets"]
    # The score it sorts by is in the JSON (a script had to work it out from last4 and prev4).
    scores = {t["name"]: round(t["momentum"]["trending"], 2) for t in trending}
    assert [scores[name] for name in ("Widgets", "Blog", "Gizmos", "Flat", "Sprockets")] == [1.15, 0.82, 0.45, 0.0, -1.13]

    assert cli("read", *(w.id for w in WIDGETS[:10])) == 0
    unread = topics_json(cli, capsys, "--sort", "unread")
    assert [(t["name"], t["unread"]) for t in unread[:5]] == [
        ("Flat", 6), ("Blog", 3), ("Sprockets", 3), ("Widgets", 3), ("Gizmos", 1)
    ]
    assert all(t["unread"] == 0 for t in unread[5:])


def test_topic_show_prints_definition_sentence_and_a_twelve_week_chart(world, capsys):
    _arxiv, cli, refresh_at = world
    refresh_at(FIRST)
    capsys.readouterr()
    assert cli("topic", "show", "widgets", "--as-of", AS_OF) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Widgets  (following)"
    assert "definition: query abs:widget" in lines
    assert "papers: 13, unread: 13" in lines
    assert "6 papers in the last four weeks, against 2 the four weeks before. 0.1% of all new papers." in lines
    assert "(share of arXiv's count of all new papers in 28 days, taken in the last week)" in lines
    counts, labels = lines[-2], lines[-1]
    assert counts.split() == ["1", "0", "0", "2", "0", "0", "0", "2", "0", "1", "1", "3"]
    assert labels.startswith("Jul 13") and labels.endswith("Week of Sep 28")
    bars = lines[lines.index("6 papers in the last four weeks, against 2 the four weeks before. 0.1% of all new papers.") + 3 : -2]
    assert len(bars) == 8 and bars[-1].strip()  # the busiest week's bar reaches the top row
    assert "█" in bars[0]

    assert cli("topic", "show", "Blog", "--as-of", AS_OF) == 0
    assert "(share of the new papers in your cache: feed topics, or no arXiv count taken in the last week)" in (
        capsys.readouterr().out.splitlines()
    )


def test_a_leap_day_and_its_28_day_window(tmp_path, httpserver, capsys):
    leap = [
        paper("2402.00001", "2024-02-29T23:59:59Z", "widget"),
        paper("2403.00002", "2024-03-01T00:00:00Z", "widget"),
        paper("2402.00003", "2024-02-07T12:00:01Z", "widget"),
        paper("2402.00004", "2024-02-07T12:00:00Z", "widget"),  # exactly 28 days before the as-of time
        paper("2403.00005", "2024-03-04T00:00:00Z", "widget"),
    ]
    arxiv = LoopbackArxiv(leap).install(httpserver)
    config = tmp_path / "config.toml"
    config.write_text(f'[arxiv]\nmin_interval = 0.0\napi_url = "{httpserver.url_for("/api/query")}"\n')
    data = tmp_path / "data"

    def cli(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    assert cli("topic", "add", "Widgets", "--query", "abs:widget") == 0
    assert cli("follow", "Widgets") == 0
    refresh = datetime(2024, 3, 6, 18, 0, tzinfo=UTC)
    engine = open_engine(load_config(config), data, clock=lambda: refresh)
    assert asyncio.run(engine.refresh()).ok
    engine.close()
    assert [r.search_query for r in arxiv.total_requests] == ["submittedDate:[202402071800 TO 202403061800]"]

    widgets = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", "2024-03-06T12:00:00Z")}["Widgets"]
    assert widgets["momentum"] == {
        "last4": 4,
        "prev4": 1,
        "trending": 3 / math.sqrt(9),
        "share": 4 / 6000,
        "share_of": "arxiv",
        "sentence": "4 papers in the last four weeks, against 1 the four weeks before. <0.1% of all new papers.",
        "hidden": 0,
        "weeks": weeks(date(2023, 12, 18), [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 2, 1]),
    }


def test_a_bad_as_of_time_is_a_usage_error(world, capsys):
    _arxiv, cli, _refresh_at = world
    assert cli("topics", "--as-of", "last tuesday") == 2
    assert "not an ISO 8601 time" in capsys.readouterr().err


@pytest.mark.parametrize("moment", ["0001-01-02", "0001-03-01", "1970-01-01T03:00:00+05:00", "9999-12-31"])
@pytest.mark.parametrize("command", [("topics",), ("topics", "--json"), ("topic", "show", "Widgets")])
def test_an_as_of_time_too_far_out_for_the_week_counts_is_a_usage_error_not_a_traceback(world, capsys, command, moment):
    """The weeks counted back from 0001-01-02 are no dates: OverflowError, with a traceback."""
    _arxiv, cli, _refresh_at = world
    assert cli(*command, "--as-of", moment) == 2
    assert "outside the years feedtui counts weeks in (1970 to 9998)" in capsys.readouterr().err


@pytest.mark.parametrize("moment", ["1970-01-01", "9998-12-31T23:59:59Z"])
def test_the_first_and_last_as_of_times_allowed_give_their_week_counts(world, capsys, moment):
    _arxiv, cli, _refresh_at = world
    assert cli("topics", "--json", "--as-of", moment) == 0
    topics = json.loads(capsys.readouterr().out)
    assert topics and all(len(t["momentum"]["weeks"]) == 12 and t["momentum"]["last4"] == 0 for t in topics)


def newsletter(posts: list[tuple[str, str, str]]) -> bytes:
    items = "".join(
        f"<item><title>{title}</title><link>{link}</link><guid>{link}</guid><pubDate>{day}</pubDate></item>"
        for title, link, day in posts
    )
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>Papers</title>{items}</channel></rss>'.encode()


def test_a_post_about_an_older_arxiv_paper_is_no_new_paper_until_arxiv_dates_it(tmp_path, httpserver, capsys):
    """A post of Nov 30 linking "Attention" (1706.03762) made it a paper
    submitted on Nov 30, counted in momentum; so did a post about a v2."""
    corpus = [
        Entry("2610.00009", title="Last month's widget", summary="A widget.", published="2026-10-12T10:00:00Z"),
        Entry("2611.00005", title="Widgets, again", summary="A widget.", published="2026-11-03T10:00:00Z", version=2),
    ]
    LoopbackArxiv(corpus).install(httpserver)
    httpserver.expect_request("/news.xml").respond_with_data(
        newsletter(
            [
                ("Classic: Attention", "https://arxiv.org/abs/1706.03762", "Mon, 30 Nov 2026 10:00:00 +0000"),
                ("Missed last month", "https://arxiv.org/abs/2610.00009", "Mon, 30 Nov 2026 11:00:00 +0000"),
                ("Widgets v2 is out", "https://arxiv.org/abs/2611.00005v2", "Wed, 25 Nov 2026 10:00:00 +0000"),
                ("Fresh this month", "https://arxiv.org/pdf/2611.00006v1", "Fri, 20 Nov 2026 10:00:00 +0000"),
                ("Our own post", "https://news.example/p3", "Tue, 20 Oct 2026 10:00:00 +0000"),
            ]
        ),
        content_type="application/rss+xml",
    )
    config = tmp_path / "config.toml"
    config.write_text(f'[arxiv]\nmin_interval = 0.0\napi_url = "{httpserver.url_for("/api/query")}"\n')
    data = tmp_path / "data"

    def cli(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    def refresh_at(moment: datetime) -> None:
        engine = open_engine(load_config(config), data, clock=lambda: moment)
        assert asyncio.run(engine.refresh()).ok
        engine.close()

    def newsletter_momentum() -> dict:
        return {t["name"]: t for t in topics_json(cli, capsys, "--as-of", "2026-12-01T06:00:00Z")}["Newsletter"][
            "momentum"
        ]

    assert cli("topic", "add", "Newsletter", "--feed", httpserver.url_for("/news.xml")) == 0
    assert cli("follow", "Newsletter") == 0
    refresh_at(datetime(2026, 12, 1, 5, 50, tzinfo=UTC))
    momentum = newsletter_momentum()
    assert (momentum["last4"], momentum["prev4"]) == (1, 1)
    assert [w["count"] for w in momentum["weeks"]][-3:] == [1, 0, 0]  # weeks of Nov 16, 23 and 30

    # arXiv's own records, fetched for another topic, give the real dates.
    assert cli("topic", "add", "Widgets", "--query", "abs:widget") == 0
    assert cli("follow", "Widgets") == 0
    refresh_at(datetime(2026, 12, 1, 5, 55, tzinfo=UTC))
    momentum = newsletter_momentum()
    assert (momentum["last4"], momentum["prev4"]) == (2, 2)
    capsys.readouterr()
    assert cli("papers", "Newsletter", "--json") == 0
    dates = {p["id"]: (p["published"], p["date_estimated"]) for p in json.loads(capsys.readouterr().out)}
    assert dates["2610.00009"] == ("2026-10-12T10:00:00Z", False)
    assert dates["2611.00005"] == ("2026-11-03T10:00:00Z", False)
    assert dates["2611.00006"] == ("2026-11-20T10:00:00Z", False)
    assert dates["1706.03762"] == ("2017-06-30T23:59:59Z", True)  # not in the window asked of arXiv


def test_an_older_paper_announced_again_in_a_category_feed_is_no_new_paper(tmp_path, httpserver, capsys):
    """A `cross` item for a 2024 paper (a cross-list added later) and a `new`
    one with a 2024 id counted as papers submitted on the announcement day."""
    both = ["math.OC", "cs.SY"]
    older = Entry("2609.00077", title="Cross-listed later", published="2026-09-22T10:00:00Z", categories=both)
    listed = [
        Announcement(Entry("2401.12345", title="Old paper newly cross-listed", categories=both), "cross"),
        Announcement(Entry("2401.54321", title="Old paper as new", categories=["cs.SY"])),
        Announcement(older, "cross"),
        Announcement(Entry("2611.09999", title="Submitted late in November", categories=["cs.SY"])),
        Announcement(Entry("2612.00100", title="Really new paper", categories=["cs.SY"])),
    ]
    # arXiv's API knows the paper of September (the gap fill asks for the window only).
    arxiv = LoopbackArxiv([older], announcements=listed, announced=datetime(2026, 12, 1, 5, 0, tzinfo=UTC))
    arxiv.install(httpserver)
    config = tmp_path / "config.toml"
    config.write_text(
        f'[arxiv]\nmin_interval = 0.0\napi_url = "{httpserver.url_for("/api/query")}"\n'
        f'rss_url = "{httpserver.url_for("/rss/")}"\n'
    )
    data = tmp_path / "data"

    def cli(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    assert cli("topic", "add", "Control", "--category", "cs.SY") == 0
    assert cli("follow", "Control") == 0
    moment = datetime(2026, 12, 1, 5, 50, tzinfo=UTC)
    engine = open_engine(load_config(config), data, clock=lambda: moment)
    assert asyncio.run(engine.refresh()).ok
    engine.close()
    assert arxiv.rss_requests == [["cs.SY"]]

    control = {t["name"]: t for t in topics_json(cli, capsys, "--as-of", "2026-12-01T06:00:00Z")}["Control"]
    assert control["papers"] == 5
    assert (control["momentum"]["last4"], control["momentum"]["prev4"]) == (2, 0)
    assert [w["count"] for w in control["momentum"]["weeks"]] == [0, 1] + [0] * 9 + [2]  # Sep 14 … Nov 30
    assert cli("papers", "Control", "--json") == 0
    dates = {p["id"]: (p["published"], p["date_estimated"]) for p in json.loads(capsys.readouterr().out)}
    assert dates == {
        "2612.00100": ("2026-12-01T05:00:00Z", False),
        "2611.09999": ("2026-12-01T05:00:00Z", False),
        "2609.00077": ("2026-09-22T10:00:00Z", False),
        "2401.12345": ("2024-01-31T23:59:59Z", True),
        "2401.54321": ("2024-01-31T23:59:59Z", True),
    }
