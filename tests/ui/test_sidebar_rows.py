"""The sidebar's title (the order), its filter over names, descriptions and
queries, its count label, and topics with no papers: dimmed, and their page
saying why."""

from __future__ import annotations

from textual.widgets import Input, Static

from feedtui.config import Config
from feedtui.core.engine import open_engine
from feedtui.demo import demo_epoch
from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.presenter import STARRED_VIEW
from feedtui.ui.screens.main_parts.sidebar import BY_DEFINITION, BY_NAME, filter_match
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_header import TopicHeader
from feedtui.ui.widgets.topic_list import TopicList
from tests.ui.conftest import TOPICS
from tests.ui.test_app import SIZE, lines_of, ready, refresh_over, show, until


def demo_app(tmp_path) -> FeedtuiApp:
    config = Config()
    config.settings.auto_refresh = False
    epoch = demo_epoch()
    return FeedtuiApp(open_engine(config, tmp_path / "demo", demo=True, clock=lambda: epoch))


async def type_filter(pilot, text: str) -> list[str]:
    await pilot.press("ctrl+f")
    for char in text:
        await pilot.press(char)
    await pilot.pause()
    return [name for name in pilot.app.main_screen.query_one(TopicList).names() if not name.startswith("::")]


async def test_ctrl_f_finds_topics_by_description_and_query_names_first(tmp_path):
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        shown = await type_filter(pilot, "gpu")
        # Heterogeneous Computing's description mentions GPUs; its name does not.
        assert "Heterogeneous Computing" in shown
        entries = {entry.name: entry for entry in main.engine.topics()}
        assert all(filter_match(entries[name], "gpu") is not None for name in shown)
        await pilot.press("escape")
        shown = await type_filter(pilot, "inference")
        kinds = [filter_match(entries[name], "inference") for name in shown]
        assert BY_NAME in kinds and BY_DEFINITION in kinds, shown
        topic_list = main.query_one(TopicList)
        following = [r.name for r in topic_list.rows if r.following]
        others = [r.name for r in topic_list.rows if not r.following and not r.virtual]
        for section in (following, others):
            section_kinds = [filter_match(entries[name], "inference") for name in section]
            assert section_kinds == sorted(section_kinds), "names that match come first"


def test_filter_match_reads_name_description_and_definition():
    from feedtui.model import Topic
    from feedtui.topics.registry import TopicEntry

    entry = TopicEntry(Topic("Sparse Things", TopicDefinition(query="abs:tensor", categories=("cs.AR",)), "Pruned models"))
    assert filter_match(entry, "sparse") == BY_NAME
    assert filter_match(entry, "pruned") == BY_DEFINITION
    assert filter_match(entry, "tensor") == BY_DEFINITION
    assert filter_match(entry, "cs.ar") == BY_DEFINITION
    assert filter_match(entry, "gpu") is None


async def test_the_sidebar_title_says_the_order_and_follows_s(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        title = main.query_one("#sidebar-title", Static)
        assert "Topics by name (S)" in str(title.render())
        main.query_one(TopicList).focus()
        await pilot.press("S")
        await pilot.pause()
        assert "Topics by unread (S)" in str(title.render())
        await pilot.press("S")
        await pilot.pause()
        assert "Topics by trending (S)" in str(title.render())


async def test_counts_are_labelled_unread_and_the_reading_list_says_so(make_engine):
    engine = make_engine()
    engine.star(["2611.00001"])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        lines = lines_of(main.query_one(TopicList))
        assert lines[0].startswith("Following") and lines[0].rstrip().endswith("unread")
        await show(pilot, STARRED_VIEW)
        assert "(1 unread, the sidebar's count)" in main.query_one(TopicHeader).text


async def test_a_topic_with_no_papers_is_dimmed_and_says_why(make_engine, httpserver):
    from tests.atom import api_feed

    topics = {**TOPICS, "Nothing Here": TopicDefinition(query="abs:nonexistentwordzz")}
    engine = make_engine(topics=topics)
    httpserver.expect_request("/api/query").respond_with_data(api_feed([]), content_type="application/atom+xml")
    engine.settings.arxiv.api_url = httpserver.url_for("/api/query")
    engine.settings.arxiv.rss_url = httpserver.url_for("/rss/")
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        dim = topic_list._style("topic-list--no-papers")
        row = topic_list.names().index("Nothing Here")
        strip = topic_list.render_line(row - round(topic_list.scroll_y))
        assert any(seg.style and seg.style.color == dim.color and "Nothing" in seg.text for seg in strip)
        # Widgets has papers: drawn in the usual colour.
        row = topic_list.names().index("Widgets")
        strip = topic_list.render_line(row - round(topic_list.scroll_y))
        assert not any(seg.style and seg.style.color == dim.color and "Widgets" in seg.text for seg in strip)

        await show(pilot, "Nothing Here")
        paper_list = main.query_one(PaperList)
        said = "\n".join(lines_of(paper_list))
        assert "Not followed, so never fetched" in said and "press f to follow this topic and fetch it" in said
        await pilot.press("f")
        await until(pilot, lambda: main.engine.topic_fetched_at("Nothing Here") is not None, tries=250, step=0.02)
        await refresh_over(pilot, main)
        await pilot.pause()
        said = "\n".join(lines_of(paper_list))
        assert "Nothing in the last 16 weeks" in said and "nothing matched — E edits the topic" in said, said


async def test_a_demo_topic_with_no_papers_says_the_demo_has_none(tmp_path):
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        empty = next(name for name in main.engine.topic_names() if not main.engine.library.topic_positions(name))
        await show(pilot, empty)
        assert "The demo data has no papers for this topic" in "\n".join(lines_of(main.query_one(PaperList)))


async def test_rows_below_the_first_screen_get_their_sparklines_once_drawn(tmp_path):
    """At start only the rows of the first screen get their momentum; the
    others get theirs after the first frame, the same as a full rebuild's."""
    app = demo_app(tmp_path)
    async with app.run_test(size=(100, 20)) as pilot:
        main = await ready(pilot)
        await pilot.pause()
        topic_list = main.query_one(TopicList)
        shown = {row.name: row.weeks for row in topic_list.rows if not row.virtual}
        assert len(shown) > 20  # more topics than the first screen's rows
        full = {row.name: row.weeks for row in main.sidebar.topic_rows() if not row.virtual}
        assert shown == full
        assert all(weeks for weeks in shown.values())
        assert main.sidebar.topic_rows(sparklines=5)  # partial rows leave the rest waiting …
        assert len(main.sidebar._without_sparklines) == len(shown) - 5
