"""New since the last visit: cards marked new, day separators, the sidebar's
counts of new papers, and N."""

from __future__ import annotations

from datetime import timedelta

from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.cards import COMPACT
from feedtui.ui.screens.main_parts.visit import SESSION_PREF
from feedtui.ui.widgets.paper_list import PaperList

from tests.ui.conftest import NOW, invented_papers
from tests.ui.test_app import SIZE, lines_of, ready, show, sidebar_row, terminal_lines, until

EARLIER = NOW - timedelta(days=3)
# 2611.00001 and 2611.00003 came since the last visit; the others before it.
NEW_IDS = ("2611.00001", "2611.00003")


def engine_with_a_last_visit(make_engine, *, last_visit=NOW - timedelta(days=1)):
    engine = make_engine(papers=[], follows=("Widgets", "Gadgets"))
    papers = invented_papers()
    engine.cache.store([p for p in papers if p.id not in NEW_IDS], {}, EARLIER)
    engine.cache.store([p for p in papers if p.id in NEW_IDS], {}, NOW)
    engine.load_library()
    engine.retag(engine.registry.names())
    if last_visit is not None:
        engine.set_pref(SESSION_PREF, int(last_visit.timestamp()))
    return engine


def list_text(main) -> str:
    return "\n".join(lines_of(main.query_one(PaperList)))


async def test_new_cards_are_marked_and_days_are_separated(make_engine):
    engine = engine_with_a_last_visit(make_engine)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        paper_list = main.query_one(PaperList)
        cards = [paper_list.source.card(i) for i in range(paper_list.card_count)]
        assert [c.paper_id for c in cards if c.new] == ["2611.00001"]
        shown = list_text(main)
        assert "Nov 25, 2026 · cs.DC · new" in shown, shown
        assert "Nov 24, 2026 · cs.DC · new" not in shown
        # Cards newest first (Nov 25, Nov 24, Nov 10, …): a line names each next day.
        assert "── Tue Nov 24 ──" in shown and "── Tue Nov 10 ──" in shown, shown
        assert shown.index("Nov 25, 2026") < shown.index("── Tue Nov 24") < shown.index("Nov 24, 2026")


async def test_compact_cards_separate_days_too_and_three_still_fit_at_80x24(make_engine):
    """Compact cards have no line between them: the last card of a day names
    the next day in a rule on its tags line, so no card gets taller."""
    engine = engine_with_a_last_visit(make_engine)
    app = FeedtuiApp(engine)
    async with app.run_test(size=(80, 24)) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert paper_list.shape == COMPACT  # picked on a short terminal
        lines = terminal_lines(app)
        shown = "\n".join(lines)
        assert sum("Nov" in line and ", 2026 · cs." in line for line in lines) >= 3, shown  # three cards' headers
        [rule] = [line for line in lines if "── Tue Nov 24 ──" in line]
        # The rule ends the Nov 25 card's tags line, and the Nov 24 card follows.
        assert "Widgets" in rule and rule.rstrip().endswith("── Tue Nov 24 ──"), rule
        after = lines[lines.index(rule) + 1]
        assert "Nov 24, 2026" in after, shown
        assert paper_list.virtual_size.height == paper_list.card_count * COMPACT.height


async def test_the_sidebar_counts_each_topics_new_papers(make_engine):
    engine = engine_with_a_last_visit(make_engine)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        # Widgets: 2611.00001 new; Gadgets: 2611.00003 new (2611.00002 is older).
        assert "+1" in sidebar_row(app, "Widgets") and "+1" in sidebar_row(app, "Gadgets")
        assert sidebar_row(app, "Widgets").split()[-1] == "4"  # the unread count stays last


async def test_n_goes_to_the_first_new_paper_then_to_the_next_topic_with_one(make_engine):
    engine = engine_with_a_last_visit(make_engine)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("G")  # the last card, an old one
        await pilot.press("N")
        await pilot.pause()
        assert paper_list.cursor_card.paper_id == "2611.00001"
        engine.mark_read(["2611.00001"])
        await show(pilot, "Gadgets")
        await pilot.press("g", "N")
        await pilot.pause()
        assert (main.current, paper_list.cursor_card.paper_id) == ("Gadgets", "2611.00003")


async def test_n_in_a_topic_with_nothing_new_goes_to_another_that_has_some(make_engine):
    engine = engine_with_a_last_visit(make_engine)
    engine.add_topic("Notes", TopicDefinition(query="abs:older"))
    engine.retag(["Notes"])
    engine.follow("Notes")
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Notes")
        await ready(pilot)
        await show(pilot, "Notes")
        assert main.current == "Notes"
        main.query_one(PaperList).focus()
        await pilot.press("N")
        await until(pilot, lambda: main.current != "Notes")
        assert main.query_one(PaperList).cursor_card.paper_id in NEW_IDS


async def test_the_session_start_is_kept_and_the_next_visit_counts_from_it(make_engine):
    engine = engine_with_a_last_visit(make_engine)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert engine.pref(SESSION_PREF) != int(NOW.timestamp())  # written at quit, not at start
        await pilot.press("q")
        await pilot.pause()
    assert engine.pref(SESSION_PREF) == int(NOW.timestamp())
    assert engine.unsaved_changes()[1] == 0  # no question at quit for it
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert not any(paper_list.source.card(i).new for i in range(paper_list.card_count))
        assert "+" not in sidebar_row(app, "Widgets")


async def test_a_first_visit_calls_nothing_new_and_n_says_why(make_engine):
    engine = engine_with_a_last_visit(make_engine, last_visit=None)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("N")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said and said[-1].startswith("Nothing is new yet"), said
        assert "· new" not in list_text(main)


async def test_in_the_demo_new_means_dated_since_the_last_visit(tmp_path):
    """The demo stores all its papers again when its dates move on: by when
    they were stored, every paper would be new each day."""
    from datetime import UTC, datetime

    from feedtui.config import Config
    from feedtui.core.engine import open_engine

    thursday = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    config = Config()
    config.settings.auto_refresh = False
    engine = open_engine(config, tmp_path / "demo", demo=True, clock=lambda: thursday)
    last_visit = int(datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp())
    engine.set_pref(SESSION_PREF, last_visit)
    library = engine.library
    dated_since = {library.ids[p] for p, row in enumerate(library.rows) if row.published > last_visit}
    assert 0 < len(dated_since) < len(library) // 10
    app = FeedtuiApp(engine)
    try:
        async with app.run_test(size=SIZE) as pilot:
            main = await ready(pilot)
            assert {library.ids[p] for p in range(len(library)) if main.visit.is_new(p)} == dated_since
    finally:
        engine.close()
