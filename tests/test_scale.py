"""Correctness at scale: a 40,000-paper cache, made by a real refresh of 200
generated arXiv-style feeds from a loopback server, is counted right by the
CLI and by the reader, and read marks made on it, from the CLI and with `m`
in the reader, survive a restart. How fast this is, bench/ measures.

The expected counts come from the generator (`papers_for_feed`), not from
feedtui: each feed's 200 papers, each paper in one feed only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest

from bench.feeds import FeedSetSpec, feed_file_name, papers_for_feed, render_feed
from bench.server import FeedServer
from feedtui.config import load_config
from feedtui.ui.run import build_app
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_list import TopicList
from tests.ui.test_app import lines_of, list_title, until

REPO = Path(__file__).resolve().parents[1]
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


def feedtui(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}
    env["PYTHONPATH"] = str(REPO / "src")
    command = [sys.executable, "-m", "feedtui", "--data-dir", str(root / "data"), "--config", str(root / "config.toml"), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, (args[:2], done.stderr[-2000:])
    return done


def counts(root: Path) -> dict[str, tuple[int, int]]:
    """Topic name -> (papers, unread), as `feedtui topics --json` says, for this set's topics."""
    topics = json.loads(feedtui(root, "topics", "--json").stdout)
    return {t["name"]: (t["papers"], t["unread"]) for t in topics if t["name"].startswith("Scale ")}


def opml(server: FeedServer) -> str:
    outlines = "".join(
        f'<outline type="rss" text={quoteattr(topic_name(i))} xmlUrl={quoteattr(server.url(feed_file_name(i)))}/>'
        for i in range(FEEDS)
    )
    return f'<?xml version="1.0"?><opml version="2.0"><head/><body>{outlines}</body></opml>'


def sidebar_count(app, name: str) -> str:
    """The unread count the sidebar shows at the end of a topic's row (after its sparkline)."""
    line = next((line for line in lines_of(app.screen.query_one(TopicList)) if name in line), "")
    return line.split()[-1] if line.strip() else ""


@pytest.mark.slow
async def test_forty_thousand_papers_are_counted_right_and_marks_survive_restarts(tmp_path, served):
    (tmp_path / "config.toml").write_text("[general]\nauto_refresh = false\n", encoding="utf-8")
    (tmp_path / "feeds.opml").write_text(opml(served), encoding="utf-8")
    feedtui(tmp_path, "import", "opml", str(tmp_path / "feeds.opml"), "--follow")
    refreshed = feedtui(tmp_path, "refresh")
    assert f"{FEEDS * ENTRIES:,} new, 0 updated papers from {FEEDS} sources; 0 failed" in refreshed.stderr
    assert counts(tmp_path) == {topic_name(i): (ENTRIES, ENTRIES) for i in range(FEEDS)}

    # Marks from the CLI, then a fresh process counts them.
    generated = [papers_for_feed(SPEC, i) for i in range(FEEDS)]
    marked = [
        f"{p.arxiv_id}v{p.version}" if n % 2 else p.arxiv_id
        for papers in generated
        for n, p in enumerate(papers[:MARKED_PER_FEED])
    ]
    feedtui(tmp_path, "read", *marked)
    left = ENTRIES - MARKED_PER_FEED
    assert counts(tmp_path) == {topic_name(i): (ENTRIES, left) for i in range(FEEDS)}

    # The reader, started on the cache, shows the same counts; three papers of
    # one topic marked there with `m` are still read after it quits.
    app = build_app(load_config(tmp_path / "config.toml"), tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        main = app.main_screen
        await until(pilot, lambda: main.ready and main.current, tries=TRIES)
        main.go_to_topic(topic_name(7))
        await until(pilot, lambda: list_title(main).startswith(f"Latest papers ({ENTRIES:,})"), tries=TRIES)
        shown = [line for line in lines_of(app.screen.query_one(TopicList)) if "Scale " in line]
        assert len(shown) > 10 and all(line.split()[-1] == f"{left:,}" for line in shown), shown
        main.query_one(PaperList).focus()
        # The list starts on the newest paper, which the CLI marked read: `n`
        # goes to the next unread one, `m` marks it.
        for _ in range(3):
            await pilot.press("n", "m")
        await until(pilot, lambda: sidebar_count(app, topic_name(7)) == f"{left - 3:,}", tries=TRIES)
        await pilot.press("q")
    app.engine.close()
    expected = {topic_name(i): (ENTRIES, left) for i in range(FEEDS)}
    expected[topic_name(7)] = (ENTRIES, left - 3)
    assert counts(tmp_path) == expected
