"""SVG snapshots of the main screen on the demo data, in a dark and a light theme."""

from __future__ import annotations

import pytest

from feedtui.config import Config
from feedtui.demo import demo_epoch
from feedtui.core.engine import open_engine
from feedtui.ui.app import FeedtuiApp
from tests.ui.test_app import until


def demo_app(tmp_path, theme: str) -> FeedtuiApp:
    config = Config()
    config.settings.auto_refresh = False
    config.settings.theme = theme
    epoch = demo_epoch()
    engine = open_engine(config, tmp_path / "demo", demo=True, clock=lambda: epoch)
    return FeedtuiApp(engine)


async def wait_ready(pilot) -> None:
    main = pilot.app.main_screen
    await until(pilot, lambda: main.ready and main.current, tries=200)
    await pilot.pause(0.2)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_main_screen(snap_compare, tmp_path, theme):
    assert snap_compare(demo_app(tmp_path, theme), terminal_size=(120, 40), run_before=wait_ready)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_main_screen_small_and_large_with_the_chart(snap_compare, tmp_path, theme, size):
    """80×24 (compact chart and cards, Quit and Help first in the footer) and
    160×48 (the full chart, comfortable cards)."""

    async def ready_with_chart(pilot) -> None:
        await wait_ready(pilot)
        chart = pilot.app.main_screen.query_one("#chart")
        assert chart.display and chart.size.height >= 4, "the chart is on screen"

    assert snap_compare(demo_app(tmp_path, theme), terminal_size=size, run_before=ready_with_chart)
