"""`hide` in the reader: the hidden paper is not in the list, the counts
leave it out, and the momentum sentence says what it did not count."""

from __future__ import annotations

from feedtui.ui.widgets.topic_header import TopicHeader

from tests.ui.test_app import SIZE, list_title, ready, sidebar_row, until
from tests.ui.test_user_commands import start


async def test_the_reader_leaves_hidden_papers_out_and_says_so(tmp_path, make_engine):
    app = start(tmp_path, make_engine, 'hide = "ti:gadget*"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        # The hide query is tagged in the background after the first paint.
        await until(pilot, lambda: list_title(main) == "Latest papers (3)", tries=250)
        cards = main.topic_view.cards
        titles = [cards.card(i).title for i in range(len(cards))]
        assert "Gadgets and widgets together" not in titles and len(titles) == 3
        assert "(1 hidden, not counted)" in main.query_one(TopicHeader).text
        assert sidebar_row(app, "Widgets").split()[-1] == "3"
