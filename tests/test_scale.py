"""Correctness at scale: a 40,000-paper cache, made by a real refresh of 200
generated arXiv-style feeds from a loopback server, is counted right by the
CLI and by the reader, and read marks made on it, from the CLI and with `m`
in the reader, survive a restart. How fast this is, bench/ measures.

The expected counts come from the generator (`papers_for_feed`), not from
feedtui: each feed's 200 papers, each paper in one feed only."""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime, timedelta
from xml.sax.saxutils import quoteattr

import pytest

from bench.feedtui_app import Launcher, Sandbox
from bench.feeds import FeedSetSpec, feed_file_name, papers_for_feed, render_feed
from bench.server import FeedServer
from feedtui.config import load_config
from feedtui.ui.run import build_app
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_list import TopicList
from tests.ui.test_app import lines_of, list_title, until

FEEDS = 200
ENTRIES = 200
# Well inside the 16 weeks a refresh keeps.
SPEC = FeedSetSpec(FEEDS, ENTRIES, 23, datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=1), weeks=12)
# Marked read from the CLI: the first five papers of every feed, some by a
# versioned id (`2609.01234v2`), as `feedtui read` takes either.
MARKED_PER_FEED = 5
# Waits in the reader: 20 s at most (a 40,000-paper start takes about 1 s
# here, longer on a loaded machine).
TRIES = 1000


def topic_name(index: int) -> str:
    return f"Scale {index:03d}"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    for index in range(FEEDS):
        (folder / feed_file_name(index)).write_bytes(render_feed(SPEC, index))
    with FeedServer(folder) as server:
        yield server


def opml(server: FeedServer) -> str:
    outlines = "".join(
        f'<outline type="rss" text={quoteattr(topic_name(i))} xmlUrl={quoteattr(server.url(feed_file_name(i)))}/>'
        for i in range(FEEDS)
    )
    return f'<?xml version="1.0"?><opml version="2.0"><head/><body>{outlines}</body></opml>'


def sidebar_counts(app) -> dict[str, str]:
    """This set's topics in the sidebar as drawn: name -> the unread count at
    the end of the row (after its sparkline)."""
    rows = lines_of(app.screen.query_one(TopicList))
    return {found.group(): row.split()[-1] for row in rows if (found := re.search(r"Scale \d{3}", row))}


@pytest.mark.slow
async def test_forty_thousand_papers_are_counted_right_and_marks_survive_restarts(tmp_path, served):
    sandbox = Sandbox.create(tmp_path / "sandbox", Launcher.from_checkout(sys.executable))  # auto_refresh off
    (tmp_path / "feeds.opml").write_text(opml(served), encoding="utf-8")
    sandbox.run("import", "opml", str(tmp_path / "feeds.opml"), "--follow")
    refreshed = sandbox.run("refresh")
    assert f"{FEEDS * ENTRIES:,} new, 0 updated papers from {FEEDS} sources; 0 failed" in refreshed.stderr
    assert sandbox.papers_in("Scale ") == {topic_name(i): (ENTRIES, ENTRIES) for i in range(FEEDS)}

    # Marks from the CLI, then a fresh process counts them.
    generated = [papers_for_feed(SPEC, i) for i in range(FEEDS)]
    marked = [
        f"{p.arxiv_id}v{p.version}" if n % 2 else p.arxiv_id
        for papers in generated
        for n, p in enumerate(papers[:MARKED_PER_FEED])
    ]
    sandbox.run("read", *marked)
    left = ENTRIES - MARKED_PER_FEED
    assert sandbox.papers_in("Scale ") == {topic_name(i): (ENTRIES, left) for i in range(FEEDS)}

    # The reader, started on the cache, shows the same counts; three papers of
    # one topic marked there with `m` are still read after it quits.
    app = build_app(load_config(sandbox.root / "config.toml"), sandbox.data_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        main = app.main_screen
        await until(pilot, lambda: main.ready and main.current, tries=TRIES)
        main.go_to_topic(topic_name(7))
        await until(pilot, lambda: list_title(main).startswith(f"Latest papers ({ENTRIES:,})"), tries=TRIES)
        shown = sidebar_counts(app)
        assert len(shown) > 10 and set(shown.values()) == {f"{left:,}"}, shown
        main.query_one(PaperList).focus()
        # The list starts on the newest paper, which the CLI marked read: `n`
        # goes to the next unread one, `m` marks it.
        for _ in range(3):
            await pilot.press("n", "m")
        await until(pilot, lambda: sidebar_counts(app).get(topic_name(7)) == f"{left - 3:,}", tries=TRIES)
        await pilot.press("q")
    app.engine.close()
    expected = {topic_name(i): (ENTRIES, left) for i in range(FEEDS)}
    expected[topic_name(7)] = (ENTRIES, left - 3)
    assert sandbox.papers_in("Scale ") == expected
