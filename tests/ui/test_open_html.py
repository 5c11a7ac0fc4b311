"""`h`: arXiv's HTML version of a paper, from the list and the detail view,
opened by a real browser command (a script that records its arguments)."""

from __future__ import annotations

import shlex

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.paper_list import PaperList

from tests.factories import make_paper
from tests.ui.test_app import SIZE, detail_text, install_program, open_detail, ready, told, until, writes_its_arguments


def recording_browser(app, tmp_path):
    record = tmp_path / "browser-argv.txt"
    install_program(tmp_path / "bin", "browse", writes_its_arguments(record))
    app.browser.command = shlex.quote(str(tmp_path / "bin" / "browse"))
    return record


async def test_h_opens_the_arxiv_html_version_from_the_list_and_the_detail_view(make_engine, tmp_path):
    app = FeedtuiApp(make_engine())
    record = recording_browser(app, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("h")
        await until(pilot, lambda: record.exists() and record.read_text().strip(), tries=100)
        assert record.read_text().split() == ["https://arxiv.org/html/2611.00001"]
        record.unlink()
        detail = await open_detail(pilot, main)
        assert "HTML version: https://arxiv.org/html/2611.00001" in detail_text(detail)
        await pilot.press("h")
        await until(pilot, lambda: record.exists() and record.read_text().strip(), tries=100)
        assert record.read_text().split() == ["https://arxiv.org/html/2611.00001"]


async def test_h_on_a_feed_item_says_it_has_no_html_version_and_opens_nothing(make_engine, tmp_path):
    web = make_paper("web:0123456789abcdef", title="A widget post on a lab blog", abstract="A widget.")
    app = FeedtuiApp(make_engine(papers=[web]))
    record = recording_browser(app, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("h")
        await until(pilot, lambda: told(app, "no HTML version"))
        detail = await open_detail(pilot, main)
        assert "HTML version" not in detail_text(detail)
        await pilot.press("h")
        await pilot.pause()
        assert not record.exists()
