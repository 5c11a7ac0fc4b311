"""The momentum sentence on the topic header says what its share is of."""

from __future__ import annotations

from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.topic_header import TopicHeader

from tests.ui.test_app import SIZE, ready


async def test_a_one_topic_data_dir_says_its_share_is_of_the_cache(make_engine):
    """In a data directory holding one topic it read "… 100% of all new papers."."""
    engine = make_engine(topics={"Widgets": TopicDefinition(query="abs:widget")}, follows=("Widgets",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        text = " ".join(main.query_one(TopicHeader).text.split())
        assert "of the papers in your cache." in text, text
        assert "of all new papers" not in text, text
