"""Ask about one topic (`/` on a topic): the engine's fused ranking (words
and meaning) of the topic's papers, under the quoted answer, checked on
screen. The exact counts of papers matching a question's words, the races
and the stalls are in test_app.py (with the model missing, words alone)."""

from __future__ import annotations

from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.answer_panel import AnswerPanel
from feedtui.ui.widgets.paper_list import PaperList

from tests.factories import make_paper
from tests.ui.conftest import invented_papers
from tests.ui.test_app import SIZE, list_title, ready, until
from tests.ui.test_discovery_reader import panel_text, screen_text


def card_ids(main) -> list[str]:
    paper_list = main.query_one(PaperList)
    return [paper_list.source.paper_id(i) for i in range(paper_list.card_count)]


async def answered(pilot, main, question: str) -> str:
    await pilot.press("slash", *question, "enter")
    await until(pilot, lambda: list_title(main).startswith("Ask:"), tries=400)
    await pilot.pause()
    return list_title(main)


async def test_a_topic_ask_shows_the_quoted_answer_above_the_topics_ranked_papers(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets"
        title = await answered(pilot, main, "sorting")
        assert title.startswith("Ask: sorting — ") and title.endswith("best match first  (esc: back)")
        ids = card_ids(main)
        assert ids[0] == "2611.00001"
        assert "2611.00003" not in ids  # a Gadgets paper: only the topic's are asked
        # The answer: quoted from the best paper, citing it, above the list.
        answer = panel_text(main)
        assert "“Widgets sorted by a widget network.” — Widget sorting at scale" in answer
        shown = screen_text(main)
        assert shown.index("Widgets sorted by a widget network.”") < shown.index("Ask: sorting")
        # The question's word highlighted in the answer, the card too.
        assert main.query_one(PaperList).cursor_card.highlight == ("sorting",)
        # Its papers are read, marked and starred as the topic's.
        await pilot.press("s", "m")
        await pilot.pause()
        assert engine.is_starred("2611.00001") and engine.is_read("2611.00001")
        # Escape: back to the topic, its papers newest first, no answer.
        await pilot.press("escape")
        await pilot.pause()
        assert list_title(main).startswith("Latest papers") and not panel_text(main)
        assert main.current == "Widgets" and main.query_one(PaperList).card_count == 4


async def test_the_answers_words_are_highlighted(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await answered(pilot, main, "widget network")
        assert "“Widgets sorted by a widget network.”" in panel_text(main)
        shown = main.query_one(AnswerPanel).render()
        word, plain = shown.plain.index("network"), shown.plain.index("sorted")

        def marked(at: int) -> bool:
            return any(span.start <= at < span.end and getattr(span.style, "reverse", False) for span in shown.spans)

        assert marked(word) and not marked(plain)


def phone_papers():
    papers = invented_papers()
    papers += [
        make_paper(
            "2611.00011", title="Battery drain in handsets",
            abstract="Smartphones lose charge quickly when the display is bright.", published="2026-11-21T10:00:00",
        ),
        make_paper(
            "2611.00012", title="Tide tables of the northern coast",
            abstract="Harbour tides measured over twelve winters.", published="2026-11-22T10:00:00",
        ),
    ]
    return papers


PHONES = {"Devices": TopicDefinition(query="ti:handsets OR ti:tide")}


async def test_a_topic_ask_finds_papers_close_in_meaning_that_share_no_word(make_engine):
    """Words alone found nothing for a question put in other words."""
    engine = make_engine(papers=phone_papers(), topics=PHONES, follows=("Devices",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Devices"
        await answered(pilot, main, "mobile phone power consumption")
        assert card_ids(main)[0] == "2611.00011"


async def test_without_the_model_a_topic_ask_ranks_by_words_and_says_so(make_engine, words_only):
    engine = make_engine(papers=phone_papers(), topics=PHONES, follows=("Devices",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        title = await answered(pilot, main, "mobile phone power consumption")
        assert title == "Ask: mobile phone power consumption — no paper matches  (esc: back)"
        assert "lexical ranking only: the wordllama package is not installed" in panel_text(main)
        assert main.query_one(PaperList).empty_message == "No paper in this topic matches those words"
        await pilot.press("escape")
        assert await answered(pilot, main, "tides") == "Ask: tides — 1 paper, best match first  (esc: back)"
