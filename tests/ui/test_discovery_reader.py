"""The reader's discovery parts, driven with keys and clicks and checked on
screen: For you at the top of the sidebar, Ask everything with its quoted
answer, an author's papers and following them, related papers in the
detail view, and more / less like this."""

from __future__ import annotations

from feedtui.discovery.records import Answer, Hit, Quote
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.messages import AnswerReady
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW
from feedtui.ui.screens.detail import DetailScreen
from feedtui.ui.screens.pick_topic import PickTopicScreen
from feedtui.ui.widgets.answer_panel import AnswerPanel
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.related_papers import RelatedPapers
from feedtui.ui.widgets.topic_list import TopicList

from tests.factories import make_paper
from tests.ui.conftest import invented_papers
from tests.ui.test_app import SIZE, detail_text, lines_of, open_detail, ready, show, until


def screen_text(main) -> str:
    """What the reader's right-hand side shows, line by line."""
    parts = [main.query_one("#topic-header"), main.query_one(AnswerPanel), main.query_one("#list-title"), main.query_one(PaperList)]
    return "\n".join(line.rstrip() for part in parts if part.display and part.size.height for line in lines_of(part))


def panel_text(main) -> str:
    panel = main.query_one(AnswerPanel)
    return "\n".join(lines_of(panel)) if panel.display and panel.size.height else ""


def with_two_authors():
    papers = invented_papers()
    papers.append(
        make_paper(
            "2611.00006", title="Gadget fleets for widget makers", abstract="Fleets of gadgets help widget makers.",
            published="2026-11-26T10:00:00", authors=(("Ada Quill", ()), ("Bo Rennet", ())),
        )
    )
    return papers


async def test_for_you_is_on_top_of_the_sidebar_and_the_reader_opens_on_a_topic(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        names = main.query_one(TopicList).names()
        assert names[1] == FOR_YOU_VIEW and EVERYTHING_VIEW in names
        assert main.current == "Widgets"  # never For you
        assert main.discover.for_you is None  # computed only when shown
        assert "For you" in main.query_one(TopicList).row_text(FOR_YOU_VIEW)
        assert "\u200b" not in main.query_one(TopicList).row_text(FOR_YOU_VIEW)


async def test_for_you_says_why_and_learns_from_plus_and_minus(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await show(pilot, FOR_YOU_VIEW)
        await until(pilot, lambda: main.discover.for_you is not None, tries=400)
        await pilot.pause()
        shown = screen_text(main)
        assert "For you (" in shown
        for_you = main.discover.for_you
        # No star nor mark yet: ranked by the followed topics, and said in one line.
        assert for_you.fallback and for_you.note and for_you.note in panel_text(main)
        assert for_you.hits, "the fixture's unread papers are suggested"
        paper_list = main.query_one(PaperList)
        first = paper_list.cursor_card
        assert first.why and first.why == for_you.hits[0].why
        assert first.why[:20] in "\n".join(lines_of(paper_list))
        paper_list.focus()
        before = main.discover.for_you
        await pilot.press("minus")
        await pilot.pause()
        assert engine.feedback_of(first.paper_id) == -1
        # TasteChanged: For you computed again, in a worker, while shown
        await until(pilot, lambda: main.discover.for_you is not before and not main.discover._for_you_running, tries=400)
        # A star teaches it too: no longer the fallback.
        before = main.discover.for_you
        await pilot.press("s")
        await until(pilot, lambda: main.discover.for_you is not before and not main.discover._for_you_running, tries=400)
        assert not main.discover.for_you.fallback


async def test_ask_everything_ranks_the_whole_cache_with_a_quoted_answer(make_engine):
    # Widgets is followed; the question's answer is in a Gadgets paper.
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("A")
        await pilot.pause()
        assert main.current == EVERYTHING_VIEW
        await pilot.press(*"calibrating gadget", "enter")
        await until(pilot, lambda: main.query_one(PaperList).card_count > 0, tries=400)
        await pilot.pause()
        shown = screen_text(main)
        assert "Ask: calibrating gadget" in shown
        ids = [main.query_one(PaperList).source.paper_id(i) for i in range(main.query_one(PaperList).card_count)]
        assert "2611.00003" in ids[:3]  # from a topic not followed: the whole cache
        answer = panel_text(main)
        assert "“" in answer and "— " in answer  # quoted, citing its paper
        # read, mark and star like any topic
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("s", "m")
        await pilot.pause()
        assert engine.is_starred(ids[0]) and engine.is_read(ids[0])
        await pilot.press("escape")  # the question closed: the view says what it is for
        await pilot.pause()
        assert not panel_text(main)


async def test_the_answer_is_plain_text_highlighted_and_says_when_lexical(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.go_to_topic(EVERYTHING_VIEW, question="markup")
        # The engine's own answer first; then one as a damaged model gives it.
        await until(pilot, lambda: main.query_one(PaperList).card_count > 0, tries=400)
        hostile = "[bold red]x[/] and [@click=app.quit] markup\x1b[31m text"
        answer = Answer(
            question="markup",
            hits=[Hit("2611.00004", 1.0, (hostile,))],
            quotes=[Quote("2611.00004", hostile)],
            terms=("markup",),
            semantic=False,
            note="The model file is damaged: lexical ranking only",
        )
        main.post_message(AnswerReady("markup", answer))
        await until(pilot, lambda: "The model file is damaged" in panel_text(main))
        text = panel_text(main)
        assert "[bold red]x[/] and [@click=app.quit] markup" in text  # shown as typed, never markup
        assert "\x1b" not in text and app.is_running
        shown = main.query_one(AnswerPanel).render()
        word = shown.plain.index(" markup ") + 1
        # the question's word highlighted
        assert any(span.start == word and "bold" in str(span.style) for span in shown.spans)


async def test_an_authors_papers_and_following_the_author(make_engine):
    engine = make_engine(papers=with_two_authors())
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        assert paper_list.cursor_card.paper_id == "2611.00006"
        await pilot.press("w")  # two authors: which one?
        await until(pilot, lambda: isinstance(app.screen, PickTopicScreen))
        await pilot.press("down", "enter")  # Bo Rennet
        await until(pilot, lambda: main.current == EVERYTHING_VIEW and main.query_one(PaperList).card_count == 1)
        await pilot.pause()
        assert "Papers by Bo Rennet (1)" in screen_text(main)
        await pilot.press("W")  # follows the author listed
        await until(pilot, lambda: engine.has_topic("Bo Rennet"))
        await pilot.pause()
        assert engine.is_following("Bo Rennet")
        assert engine.topic("Bo Rennet").topic.definition.query == engine.author_query("Bo Rennet")
        assert main.current == "Bo Rennet"


async def test_a_click_on_a_cards_authors_lists_their_papers(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert paper_list.cursor_card.paper_id == "2611.00001"  # by Ada Quill alone
        layout = paper_list._layout(0, paper_list._view_width)
        await pilot.click(PaperList, offset=(4, layout.author_row))
        await until(pilot, lambda: main.current == EVERYTHING_VIEW and main.query_one(PaperList).card_count)
        await pilot.pause()
        assert "Papers by Ada Quill" in screen_text(main)


async def test_the_detail_view_lists_related_papers_each_openable(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        detail = await open_detail(pilot, main)
        related = detail.query_one(RelatedPapers)
        await until(pilot, lambda: related.option_count > 0, tries=400)
        await pilot.pause()
        assert "Related papers" in detail_text(detail)
        first = related.get_option_at_index(0).id
        assert first != "2611.00001"
        await pilot.press("l", "enter")
        await until(pilot, lambda: detail.paper is not None and detail.paper.id == first)
        await pilot.pause()
        title = engine.card(first).title
        assert title.split()[0] in detail_text(detail)
        assert isinstance(app.screen, DetailScreen)


async def test_plus_and_minus_are_shown_on_the_card_and_taken_back(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        paper_id = paper_list.cursor_card.paper_id
        await pilot.press("plus")
        await pilot.pause()
        assert engine.feedback_of(paper_id) == 1
        assert "+ more like this" in lines_of(paper_list)[0]
        await pilot.press("minus")
        await pilot.pause()
        assert engine.feedback_of(paper_id) == -1
        assert "- less like this" in lines_of(paper_list)[0]
        await pilot.press("minus")  # given again: taken back
        await pilot.pause()
        assert engine.feedback_of(paper_id) == 0
        assert "like this" not in lines_of(paper_list)[0]


async def test_a_refresh_in_the_reader_computes_the_new_papers_vectors(make_engine, httpserver):
    from werkzeug import Response

    from feedtui.core.discovery_store import VECTORS_FILE
    from feedtui.model import TopicDefinition

    from tests.atom import Entry, api_feed
    from tests.ui.test_app import refresh_over

    entry = Entry("2611.09999", title="A fresh widget", summary="New widget results.", published="2026-11-26T09:00:00Z")
    httpserver.expect_request("/good.xml").respond_with_handler(
        lambda request: Response(api_feed([entry]), content_type="application/atom+xml")
    )
    engine = make_engine(topics={"Good feed": TopicDefinition(feeds=(httpserver.url_for("/good.xml"),))}, follows=("Good feed",))
    vectors = engine.data_dir / "cache" / VECTORS_FILE
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert not vectors.exists()  # nothing heavy at start
        await pilot.press("r")
        await refresh_over(pilot, main)
        await until(pilot, lambda: vectors.exists() and not main.workers, tries=600, step=0.05)
        assert vectors.stat().st_size > 0
