from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import pytest
from rich.color import Color as RichColor
from textual.app import App, ComposeResult
from textual.color import Color
from textual.geometry import Region
from textual.widgets import Static

from feedtui.ui.widgets.momentum_chart import (
    EMPTY_NOTE,
    ChartData,
    MomentumChart,
    format_count,
    layout_chart,
)

STYLES = Path(__file__).resolve().parents[2] / "styles" / "momentum_chart.tcss"
FIRST_MONDAY = date(2026, 7, 13)
BLOCK_EIGHTHS = {" ": 0, "▁": 1, "▂": 2, "▃": 3, "▄": 4, "▅": 5, "▆": 6, "▇": 7, "█": 8, "▒": 8}


def chart_data(counts, partial_last=True, first="Jul 13", last="Week of Sep 28"):
    weeks = tuple((FIRST_MONDAY + timedelta(weeks=index), count) for index, count in enumerate(counts))
    return ChartData(weeks=weeks, first_label=first, last_label=last, partial_last=partial_last)


COUNTS = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 10, 5]


class ChartApp(App):
    CSS_PATH = STYLES
    CSS = """
    #sidebar { dock: left; width: 24; }
    """

    def __init__(self, data: ChartData | None, *, sidebar: bool = False, theme: str = "textual-dark") -> None:
        super().__init__()
        self.data = data
        self.sidebar = sidebar
        self.start_theme = theme

    def compose(self) -> ComposeResult:
        if self.sidebar:
            yield Static("Topics", id="sidebar")
        yield MomentumChart(self.data, id="chart")

    def on_mount(self) -> None:
        self.theme = self.start_theme


def screen_lines(chart: MomentumChart) -> list[str]:
    """The chart's lines exactly as the compositor puts them on screen."""
    width, height = chart.outer_size
    return [strip.text for strip in chart.render_lines(Region(0, 0, width, height))]


@dataclass
class Bar:
    left: int
    right: int  # exclusive
    top: int  # row of the topmost drawn cell
    eighths: int
    glyphs: set[str]


def read_bars(lines: list[str]) -> list[Bar]:
    """Bars read back from the screen: runs of columns drawn with block characters
    above the axis (the last two lines are the axis and the labels)."""
    plot = lines[:-2]
    width = len(lines[0])
    heights = [sum(BLOCK_EIGHTHS.get(line[x], 0) for line in plot) for x in range(width)]
    bars, x = [], 0
    while x < width:
        if heights[x] == 0:
            x += 1
            continue
        start = x
        while x < width and heights[x] == heights[start]:
            x += 1
        top = next(row for row, line in enumerate(plot) if line[start] in BLOCK_EIGHTHS and line[start] != " ")
        glyphs = {line[column] for line in plot for column in range(start, x)} & BLOCK_EIGHTHS.keys() - {" "}
        bars.append(Bar(start, x, top, heights[start], glyphs))
    return bars


def text_above(lines: list[str], bar: Bar) -> str:
    """What is written on the line above a bar, over the bar and its gaps."""
    return lines[bar.top - 1][max(0, bar.left - 1) : bar.right + 1].strip()


def is_theme_color(color: RichColor | None, app: App, name: str) -> bool:
    """The cell's colour is the theme's (within rounding of the blend with the background)."""
    expected = Color.parse(getattr(app.current_theme, name))
    assert color is not None
    return all(abs(a - b) <= 2 for a, b in zip(color.get_truecolor(), expected.rgb))


# --- the pure layout ---------------------------------------------------------


@pytest.mark.parametrize("width", [1, 12, 23, 24, 36, 59, 60, 61, 97, 200])
@pytest.mark.parametrize("height", [1, 3, 4, 8, 15])
def test_layout_fills_every_size_exactly(width, height):
    rows = layout_chart(chart_data(COUNTS), width, height)
    assert len(rows) == height
    for row in rows:
        assert sum(len(text) for text, _ in row) == width


@pytest.mark.parametrize("width", range(1, 30))
def test_layout_fits_short_labels_and_few_weeks_into_tiny_widths(width):
    for data in (chart_data(COUNTS, first="a", last="b"), chart_data([4, 1], first="Jul 13", last="Week of Jul 20")):
        for row in layout_chart(data, width, 5):
            assert sum(len(text) for text, _ in row) == width


def test_narrow_charts_drop_week_of_before_cutting_labels():
    labels = "".join(text for text, _ in layout_chart(chart_data(COUNTS), 16, 5)[-1])
    assert labels == "Jul 13    Sep 28"
    labels = "".join(text for text, _ in layout_chart(chart_data(COUNTS), 10, 5)[-1])
    assert labels == "Jul Sep 28"


def test_negative_counts_are_refused_with_a_message():
    with pytest.raises(ValueError, match="negative"):
        chart_data([1, -2, 3])


def test_layout_without_data_is_blank():
    rows = layout_chart(None, 30, 5)
    assert ["".join(text for text, _ in row) for row in rows] == [" " * 30] * 5


@pytest.mark.parametrize(
    ("count", "room", "shown"),
    [(7, 1, "7"), (42, 2, "42"), (42, 1, ""), (999, 3, "999"), (1234, 5, "1,234"), (1234, 4, "1.2k"), (1234, 3, "1k"),
     (1250, 4, "1.3k"), (2500, 3, "3k"), (15_300, 4, "15k"), (1_260_000, 4, "1.3M"), (1_000_000, 4, "1M"), (12_345, 4, "12k"), (2_500_000, 4, "2.5M"), (12_345, 2, "")],
)
def test_counts_are_shortened_to_the_room_they_have(count, room, shown):
    assert format_count(count, room) == shown


# --- on screen -----------------------------------------------------------------


async def test_bars_are_proportional_and_the_busiest_week_is_full_height():
    counts = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 10, 5]
    app = ChartApp(chart_data(counts, partial_last=False))
    async with app.run_test(size=(80, 10)):
        chart = app.query_one(MomentumChart)
        assert chart.size.height == 8
        bars = read_bars(screen_lines(chart))
        assert len(bars) == 12
        full = (8 - 3) * 8  # five lines of bars, eight eighths each
        assert bars[9].eighths == full
        assert bars[9].glyphs == {"█"}
        assert abs(bars[4].eighths - full / 2) <= 1  # 10 of 20
        for bar, count in zip(bars, counts):
            assert abs(bar.eighths - count / 20 * full) <= 0.5
        assert len({bar.right - bar.left for bar in bars}) == 1


async def test_each_count_is_shown_just_above_its_bar():
    app = ChartApp(chart_data(COUNTS))
    async with app.run_test(size=(80, 10)):
        lines = screen_lines(app.query_one(MomentumChart))
        for bar, count in zip(read_bars(lines), COUNTS):
            assert text_above(lines, bar) == str(count)


async def test_axis_labels_sit_under_the_first_and_last_bars():
    app = ChartApp(chart_data(COUNTS))
    async with app.run_test(size=(80, 10)):
        lines = screen_lines(app.query_one(MomentumChart))
        bars = read_bars(lines)
        labels = lines[-1]
        assert labels[bars[0].left :].startswith("Jul 13")
        assert labels[: bars[-1].right].endswith("Week of Sep 28")
        assert set(lines[-2][bars[0].left : bars[-1].right]) <= {"─", "╌"}


async def test_partial_week_differs_by_character_and_by_style():
    app = ChartApp(chart_data([5] * 11 + [10]))
    async with app.run_test(size=(80, 10)):
        chart = app.query_one(MomentumChart)
        lines = screen_lines(chart)
        bars = read_bars(lines)
        partial, whole = bars[-1], bars[0]
        assert "▒" in partial.glyphs and "█" not in partial.glyphs
        assert "▒" not in whole.glyphs and "█" in whole.glyphs
        assert set(lines[-2][partial.left : partial.right]) == {"╌"}
        assert set(lines[-2][whole.left : whole.right]) == {"─"}
        bottom = len(lines) - 3
        partial_style = chart.get_style_at(partial.left, bottom)
        whole_style = chart.get_style_at(whole.left, bottom)
        assert is_theme_color(partial_style.color, app, "accent")
        assert is_theme_color(whole_style.color, app, "primary")
        assert partial_style.color != whole_style.color


async def test_a_finished_last_week_is_drawn_like_the_others():
    app = ChartApp(chart_data(COUNTS, partial_last=False))
    async with app.run_test(size=(80, 10)):
        lines = screen_lines(app.query_one(MomentumChart))
        assert "▒" not in "".join(lines) and "╌" not in "".join(lines)


async def test_colours_follow_the_theme():
    app = ChartApp(chart_data(COUNTS), theme="textual-dark")
    async with app.run_test(size=(80, 10)) as pilot:
        chart = app.query_one(MomentumChart)
        bar = read_bars(screen_lines(chart))[0]
        dark = chart.get_style_at(bar.left, 5).color
        assert is_theme_color(dark, app, "primary")
        app.theme = "textual-light"
        await pilot.pause()
        light = chart.get_style_at(bar.left, 5).color
        assert is_theme_color(light, app, "primary")
        assert light != dark


async def test_resizing_changes_bar_width_and_keeps_both_labels():
    app = ChartApp(chart_data(COUNTS))
    async with app.run_test(size=(120, 10)) as pilot:
        chart = app.query_one(MomentumChart)
        widths = {}
        for width in (120, 62, 200, 90):
            await pilot.resize_terminal(width, 10)
            await pilot.pause()
            lines = screen_lines(chart)
            assert all(len(line) == width for line in lines)
            bars = read_bars(lines)
            assert len(bars) == 12
            widths[width] = bars[0].right - bars[0].left
            assert lines[-1].strip().startswith("Jul 13")
            assert lines[-1].strip().endswith("Week of Sep 28")
            assert bars[-1].right > width * 0.8 and bars[0].left < width * 0.2
        assert widths[62] < widths[90] < widths[120] < widths[200]


async def test_a_60_by_20_terminal_with_a_sidebar_shows_the_whole_chart():
    app = ChartApp(chart_data(COUNTS), sidebar=True)
    async with app.run_test(size=(60, 20)):
        chart = app.query_one(MomentumChart)
        assert chart.size.width == 36
        lines = screen_lines(chart)
        bars = read_bars(lines)
        assert len(bars) == 12
        for bar, count in zip(bars, COUNTS):
            assert text_above(lines, bar) == str(count)
        assert "Jul 13" in lines[-1] and "Week of Sep 28" in lines[-1]


BUSY = [40, 113, 336, 745, 1680, 1680, 1680, 1234, 980, 2, 0, 215]


@pytest.mark.parametrize("width", [60, 70, 80, 90, 120])
@pytest.mark.parametrize("sidebar", [False, True])
async def test_counts_keep_a_blank_cell_from_each_other_and_from_bars(width, sidebar):
    app = ChartApp(chart_data(BUSY), sidebar=sidebar)
    async with app.run_test(size=(width, 10)):
        lines = screen_lines(app.query_one(MomentumChart))
    for line in lines[:-2]:
        for label in re.finditer(r"[0-9.,kM]+", line):
            assert line[label.start() - 1 : label.start()] in ("", " "), line
            assert line[label.end() : label.end() + 1] in ("", " "), line
    shown = {}
    for bar, count in zip(read_bars(lines), [count for count in BUSY if count]):
        text = text_above(lines, bar)
        assert text in {format_count(count, room) for room in range(6)}, (count, text)
        shown[count] = bool(text)
    # A week's count is left out only with those of every week not busier.
    labelled = [count for count, seen in shown.items() if seen]
    assert all(count < min(labelled, default=float("inf")) for count, seen in shown.items() if not seen), shown


async def test_an_all_zero_topic_shows_a_flat_baseline_and_a_note():
    app = ChartApp(chart_data([0] * 12))
    async with app.run_test(size=(70, 10)):
        lines = screen_lines(app.query_one(MomentumChart))
        assert read_bars(lines) == []
        assert any(EMPTY_NOTE in line for line in lines[:-2])
        assert "─" * 50 in lines[-2]
        assert "Jul 13" in lines[-1] and "Week of Sep 28" in lines[-1]
        drawn = "".join(lines[:-1]).replace(EMPTY_NOTE, "")
        assert not any(character.isdigit() for character in drawn)


async def test_update_chart_redraws_and_none_clears():
    app = ChartApp(None)
    async with app.run_test(size=(70, 10)) as pilot:
        chart = app.query_one(MomentumChart)
        assert all(not line.strip() for line in screen_lines(chart))
        chart.update_chart(chart_data(COUNTS))
        await pilot.pause()
        assert len(read_bars(screen_lines(chart))) == 12
        chart.update_chart(chart_data([0] * 12))
        await pilot.pause()
        assert any(EMPTY_NOTE in line for line in screen_lines(chart))
        chart.update_chart(None)
        await pilot.pause()
        assert all(not line.strip() for line in screen_lines(chart))


async def test_labels_are_shown_as_plain_text_never_markup_or_controls():
    data = chart_data(COUNTS, first="[bold red]x[/]", last="Week of \x1b[31mSep 28")
    app = ChartApp(data)
    async with app.run_test(size=(80, 10)):
        labels = screen_lines(app.query_one(MomentumChart))[-1]
        assert "[bold red]x[/]" in labels
        assert labels.rstrip().endswith("Week of Sep 28")
        assert "\x1b" not in labels


def test_from_momentum_reads_weeks_and_labels():
    @dataclass
    class Week:
        start: date
        count: int

    @dataclass
    class Momentum:
        weeks: tuple[Week, ...]
        first_label: str = "Jul 13"
        last_label: str = "Week of Sep 28"

    momentum = Momentum(tuple(Week(FIRST_MONDAY + timedelta(weeks=index), index) for index in range(12)))
    data = ChartData.from_momentum(momentum)
    assert data.counts == tuple(range(12))
    assert data.weeks[0] == (FIRST_MONDAY, 0)
    assert (data.first_label, data.last_label, data.partial_last) == ("Jul 13", "Week of Sep 28", True)
    assert ChartData.from_momentum(momentum, partial_last=False).partial_last is False


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_snapshot_in_dark_and_light_themes(snap_compare, theme):
    app = ChartApp(chart_data(COUNTS), theme=theme)
    assert snap_compare(app, terminal_size=(64, 10))
