"""The reader on small terminals: at 80×24 the momentum chart (compact), the
sentence, three cards and the footer's Quit and Help all on screen; compact
cards; words wrapped whole and a narrower sidebar on narrow terminals."""

from __future__ import annotations

import re

import pytest

from feedtui.config import Config
from feedtui.core.engine import open_engine
from feedtui.demo import demo_epoch
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.cards import COMFORTABLE, COMPACT, card_shape
from feedtui.ui.widgets.momentum_chart import ChartData, MomentumChart, layout_chart
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_header import TopicHeader
from tests.ui.test_app import ready, show, terminal_lines, until

# "Sep 14" on the left, "Week of Nov 30" on the right, on one line.
LABELS = re.compile(r"\b[A-Z][a-z]{2} \d{1,2}\b.*\bWeek of [A-Z][a-z]{2} \d{1,2}\s*$")


def demo_app(tmp_path, density: str = "auto") -> FeedtuiApp:
    config = Config()
    config.settings.auto_refresh = False
    config.settings.density = density
    epoch = demo_epoch()
    return FeedtuiApp(open_engine(config, tmp_path / "demo", demo=True, clock=lambda: epoch))


def titles_on_screen(app, lines: list[str]) -> list[str]:
    """The titles of the list's cards whose first words are on screen."""
    paper_list = app.main_screen.query_one(PaperList)
    screen = "\n".join(lines)
    found = []
    for index in range(min(paper_list.card_count, 8)):
        title = paper_list.source.card(index).title
        if " ".join(title.split()[:3]) in screen:
            found.append(title)
    return found


async def check_topic_page(pilot, name: str | None = None) -> list[str]:
    app = pilot.app
    main = await ready(pilot)
    if name:
        await show(pilot, name)
        await until(pilot, lambda: main.current == name)
    await pilot.pause(0.1)
    lines = terminal_lines(app)
    assert "papers in the last four weeks" in main.query_one(TopicHeader).text
    assert main.query_one(MomentumChart).size.height >= 3, "the chart is on screen"
    assert any(LABELS.search(line) for line in lines), "\n".join(lines)
    assert len(titles_on_screen(app, lines)) >= 3, "\n".join(lines)
    footer = lines[-1]
    assert footer.startswith("q Quit ? Help"), footer
    return lines


async def test_80x24_shows_chart_sentence_three_cards_and_quit_help(tmp_path):
    app = demo_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await check_topic_page(pilot)
        assert app.main_screen.query_one(PaperList).shape == COMPACT
        await check_topic_page(pilot, "Heterogeneous Computing")


async def test_60x20_keeps_the_chart_and_the_footer_keys(tmp_path):
    app = demo_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        main = await ready(pilot)
        lines = terminal_lines(app)
        assert any(LABELS.search(line) for line in lines), "\n".join(lines)
        assert lines[-1].startswith("q Quit ? Help")
        assert main.query_one(MomentumChart).size.height == 4


async def test_comfortable_density_is_kept_when_asked_for(tmp_path):
    app = demo_app(tmp_path, density="comfortable")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        assert app.main_screen.query_one(PaperList).shape == COMFORTABLE


async def test_auto_density_is_comfortable_on_a_tall_terminal_and_follows_a_resize(tmp_path):
    app = demo_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert paper_list.shape == COMFORTABLE
        assert main.query_one(MomentumChart).size.height >= 8
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: paper_list.shape == COMPACT)
        assert paper_list.virtual_size.height == paper_list.card_count * COMPACT.height


@pytest.mark.parametrize(
    ("density", "height", "shape"),
    [("auto", 24, COMPACT), ("auto", 33, COMPACT), ("auto", 34, COMFORTABLE), ("compact", 60, COMPACT), ("comfortable", 12, COMFORTABLE)],
)
def test_card_shape_follows_the_setting_and_the_height(density, height, shape):
    assert card_shape(density, height) == shape


def test_compact_card_shape_is_five_lines():
    assert COMPACT.height == 5
    assert COMFORTABLE.height == 10


def test_compact_chart_has_bars_axis_and_both_labels():
    from datetime import date, timedelta

    start = date(2026, 9, 14)
    weeks = tuple((start + timedelta(weeks=i), i * 3) for i in range(12))
    data = ChartData(weeks, "Sep 14", "Week of Nov 30", partial_last=True)
    rows = ["".join(text for text, _ in row) for row in layout_chart(data, 54, 4)]
    assert len(rows) == 4
    assert rows[-1].strip().startswith("Sep 14") and rows[-1].rstrip().endswith("Week of Nov 30")
    assert set(rows[-2].strip()) <= {"─", "╌"}
    assert "█" in rows[0] + rows[1], "the busiest week fills both bar lines"
    assert not re.search(r"\d", rows[0] + rows[1]), "no counts: no headroom for them"


@pytest.mark.parametrize(("width", "height", "widest"), [(80, 24, 24), (60, 20, 20), (40, 12, 16)])
async def test_sidebar_narrows_with_the_terminal(tmp_path, width, height, widest):
    app = demo_app(tmp_path)
    async with app.run_test(size=(width, height)) as pilot:
        main = await ready(pilot)
        sidebar = main.query_one("#sidebar")
        assert sidebar.size.width + 1 <= widest  # + its border
        # Counts stay whole: "★ Federa…   16", not a cut "1".
        unread = main.engine.library.unread_count("Federated Learning")
        rows = [line[: sidebar.size.width] for line in terminal_lines(app) if line.startswith("★ Fede")]
        assert rows and rows[0].rstrip(" ▁▂▃▄▅▆▇█").endswith(f" {unread}"), rows


async def test_40x12_breaks_no_word_in_the_middle(tmp_path):
    app = demo_app(tmp_path)
    async with app.run_test(size=(40, 12)) as pilot:
        main = await ready(pilot)
        await show(pilot, "LLM Inference")
        paper_list = main.query_one(PaperList)
        words = set()
        for index in range(paper_list.card_count):
            card = paper_list.source.card(index)
            words.update(re.findall(r"\w+", " ".join([card.header, card.title, card.abstract, card.authors, card.affiliations, *card.tags])))
        for index in range(min(6, paper_list.card_count)):
            paper_list.go_to(index)
            await pilot.pause()
            region = paper_list.region
            for line in terminal_lines(app)[region.y : region.bottom]:
                pane = line[region.x :]
                for word in re.findall(r"\w+…?", pane):
                    assert word.endswith("…") or word in words or not word.isalpha(), (word, pane)
