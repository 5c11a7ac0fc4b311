"""The topic page's momentum chart: 12 weekly bars, counts above, dated axis.

The drawing is a pure function of the data and the size (`layout_chart`), so
it is redrawn exactly for whatever size the widget has; `MomentumChart` only
maps each run of cells to the style of its part, taken from the widget's
component classes (colours live in `styles/momentum_chart.tcss`).

Layout, top to bottom, for a height of H lines:

- one line of headroom, so the busiest week's count sits above its bar
  (not in the compact form, under COUNTS_FROM_HEIGHT lines: there the bars
  take that line and the momentum sentence gives the numbers);
- H - 3 lines of bars (H - 2 in the compact form) in eighth blocks (`▁▂▃▄▅▆▇█`), the busiest week full
  height; each week's count sits on the line just above its bar;
- the axis `───`, dashed `╌╌` under the current, partial week;
- the first week's label under the first bar, `Week of …` ending under the
  last bar.

The partial week's full cells are drawn `▒` instead of `█`, so it stays
distinguishable without colour. Bars are as wide as the width allows (at
least one cell), with gaps between them.
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any, ClassVar, Literal

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

from feedtui.text.sanitize import clean_line

# Which part of the chart a run of cells belongs to; each is a component class
# `momentum-chart--<part>`, "" is the widget's own background.
Part = Literal["", "bar", "bar-partial", "count", "axis", "label", "note"]
Run = tuple[str, Part]
Row = tuple[Run, ...]

EIGHTHS = " ▁▂▃▄▅▆▇█"
PARTIAL_FULL = "▒"
AXIS = "─"
AXIS_PARTIAL = "╌"
EMPTY_NOTE = "no papers in the last 12 weeks"
LAST_LABEL_PREFIX = "Week of "
# Lines that are not bars: the count headroom, the axis and the labels.
FRAME_LINES = 3
# The least height that has a line of headroom for the counts; below it the
# chart takes its compact form (bars, axis and labels only).
COUNTS_FROM_HEIGHT = 5


class ChartData:
    """What the chart shows: weekly (Monday, count) pairs, oldest first.

    `partial_last` says the last week is still running (the week containing
    "now"), so its bar is drawn as provisional. Compared by value (the chart
    lays out again only for other data).
    """

    __slots__ = ("weeks", "first_label", "last_label", "partial_last")

    def __init__(self, weeks: tuple[tuple[date, int], ...], first_label: str, last_label: str, partial_last: bool) -> None:
        negative = [count for _, count in weeks if count < 0]
        if negative:
            raise ValueError(f"weekly paper counts must not be negative, got {negative}")
        self.weeks = weeks
        self.first_label = first_label
        self.last_label = last_label
        self.partial_last = partial_last

    def _key(self) -> tuple:
        return (self.weeks, self.first_label, self.last_label, self.partial_last)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChartData) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"ChartData{self._key()!r}"

    @classmethod
    def from_momentum(cls, momentum: Any, *, partial_last: bool = True) -> ChartData:
        """From a `feedtui.topics.momentum.Momentum` (read by its attributes:
        `weeks` of `.start`/`.count`, `first_label`, `last_label`). Its last
        week is the one containing the as-of time, so it is partial unless the
        caller knows the week has ended."""
        return cls(
            weeks=tuple((week.start, int(week.count)) for week in momentum.weeks),
            first_label=momentum.first_label,
            last_label=momentum.last_label,
            partial_last=partial_last,
        )

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(count for _, count in self.weeks)


class _Columns:
    """Where the bars go: bar i spans [left + i*slot, left + i*slot + bar)."""

    __slots__ = ("left", "slot", "bar", "count")

    def __init__(self, left: int, slot: int, bar: int, count: int) -> None:
        self.left = left
        self.slot = slot
        self.bar = bar
        self.count = count

    @property
    def span(self) -> int:
        """From the first bar's left edge to the last bar's right edge."""
        return self.slot * (self.count - 1) + self.bar

    def bar_left(self, index: int) -> int:
        return self.left + index * self.slot

    @classmethod
    def fit(cls, bars: int, width: int) -> _Columns:
        """Bars as wide as `width` allows, the block centred; gaps are a fifth
        of a slot and at least one cell, none when a slot is a single cell."""
        slot = max(1, width // bars)
        gap = 0 if slot == 1 else max(1, slot // 5)
        unplaced = cls(left=0, slot=slot, bar=slot - gap, count=bars)
        return _Columns(max(0, (width - unplaced.span) // 2), unplaced.slot, unplaced.bar, unplaced.count)


def format_count(count: int, room: int) -> str:
    """`count` in at most `room` cells: `842`, `1,234`, then `1.2k`/`12k`/`3.4M`, else ""."""
    candidates = [f"{count:,}"]
    for unit, suffix in ((1_000_000, "M"), (1_000, "k")):
        if count >= unit:
            scaled = count / unit
            tenths = math.floor(scaled * 10 + 0.5) / 10  # half up: 1,250 is 1.3k
            candidates += [f"{tenths:.1f}".rstrip("0").rstrip(".") + suffix, f"{math.floor(scaled + 0.5)}{suffix}"]
            break
    return next((text for text in candidates if len(text) <= room), "")


def bar_level(count: int, busiest: int, levels: int) -> int:
    """Height in eighths of a cell, of `levels` in all; a week with papers
    always shows at least one eighth."""
    if count <= 0 or busiest <= 0:
        return 0
    return max(1, round(count / busiest * levels))


def layout_chart(data: ChartData | None, width: int, height: int) -> tuple[Row, ...]:
    """The chart as `height` rows of (text, part) runs, each row `width` cells."""
    if width <= 0 or height <= 0:
        return ()
    if data is None or not data.weeks:
        return tuple(((" " * width, ""),) for _ in range(height))
    counts = data.counts
    # The compact form (fewer than COUNTS_FROM_HEIGHT lines) has no headroom:
    # its lines go to the bars, and the counts, which would have no line
    # above the busiest bar, are left to the momentum sentence.
    headroom = 1 if height >= COUNTS_FROM_HEIGHT else 0
    plot_rows = max(1, height - FRAME_LINES + 1 - headroom)
    columns = _Columns.fit(len(counts), width)
    # Grid rows from the bottom: 0 .. plot_rows - 1 are bars, plot_rows is headroom.
    grid = _Grid(width, plot_rows + headroom)
    busiest = max(counts)
    partial_index = len(counts) - 1 if data.partial_last else -1
    levels = [bar_level(count, busiest, plot_rows * 8) for count in counts]
    for index, level in enumerate(levels):
        part: Part = "bar-partial" if index == partial_index else "bar"
        x = columns.bar_left(index)
        for row in range(plot_rows):
            fill = min(8, max(0, level - row * 8))
            if fill:
                glyph = PARTIAL_FULL if fill == 8 and part == "bar-partial" else EIGHTHS[fill]
                grid.put(x, row, glyph * columns.bar, part)
    if busiest and headroom:
        _put_counts(grid, counts, levels, columns)
    if not busiest:
        note = set_cell_size(EMPTY_NOTE, min(width, len(EMPTY_NOTE)))
        grid.put((width - len(note)) // 2, plot_rows // 2, note, "note")
    rows = grid.rows_top_down()
    rows.append(_axis_row(columns, width, partial_index))
    rows.append(_label_row(data, columns, width))
    return tuple(rows[-height:])


def _put_counts(grid: _Grid, counts: list[int], levels: list[int], columns: _Columns) -> None:
    """Each week's count on the line just above its bar, in at most slot - 1
    cells: centred on its bar, a count that narrow keeps a blank cell between
    itself and the next bar or count, even at the chart's edges. When some
    counts do not fit even shortened (`336` over two-cell bars), only the
    weeks busier than all of those keep theirs: the busiest weeks give the
    chart its scale, and weeks of equal counts are treated alike."""
    texts = [format_count(count, columns.slot - 1) for count in counts]
    unfit = max((count for count, text in zip(counts, texts) if not text), default=-1)
    for index, (count, text) in enumerate(zip(counts, texts)):
        if count > unfit:
            start = columns.bar_left(index) + (columns.bar - len(text)) // 2
            grid.put(min(max(0, start), grid.width - len(text)), -(-levels[index] // 8), text, "count")


class _Grid:
    """A width x height block of single-cell characters, each with its part."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.cells: list[list[tuple[str, Part]]] = [[(" ", "")] * width for _ in range(height)]

    def put(self, x: int, row: int, text: str, part: Part) -> None:
        line = self.cells[row]
        for offset, char in enumerate(text):
            if 0 <= x + offset < self.width:
                line[x + offset] = (char, part)

    def rows_top_down(self) -> list[Row]:
        return [_runs(line) for line in reversed(self.cells)]


def _runs(cells: list[tuple[str, Part]]) -> Row:
    """Neighbouring cells of the same part joined into one run."""
    runs: list[Run] = []
    for char, part in cells:
        if runs and runs[-1][1] == part:
            runs[-1] = (runs[-1][0] + char, part)
        else:
            runs.append((char, part))
    return tuple(runs)


def _axis_row(columns: _Columns, width: int, partial_index: int) -> Row:
    cells: list[tuple[str, Part]] = [(" ", "")] * width
    for x in range(columns.left, min(width, columns.left + columns.span)):
        cells[x] = (AXIS, "axis")
    if partial_index >= 0:
        start = columns.bar_left(partial_index)
        for x in range(start, min(width, start + columns.bar)):
            cells[x] = (AXIS_PARTIAL, "bar-partial")
    return _runs(cells)


def _label_row(data: ChartData, columns: _Columns, width: int) -> Row:
    """First label from the first bar's left edge, last label ending at the
    last bar's right edge. When they do not fit there they spread to the full
    width, then `Week of` is dropped, then the first label is cut."""
    first = clean_line(data.first_label, html_allowed=False)
    last = clean_line(data.last_label, html_allowed=False)
    left, right = columns.left, min(width, columns.left + columns.span)
    if cell_len(first) + 1 + cell_len(last) > right - left:
        left, right = 0, width
    if cell_len(first) + 1 + cell_len(last) > width and last.startswith(LAST_LABEL_PREFIX):
        last = last[len(LAST_LABEL_PREFIX) :]
    last = set_cell_size(last, min(cell_len(last), width))
    first = set_cell_size(first, min(cell_len(first), max(0, width - cell_len(last) - 1)))
    between = right - left - cell_len(first) - cell_len(last)
    runs: list[Run] = [(" " * left, ""), (first + " " * between + last, "label"), (" " * (width - right), "")]
    return tuple(run for run in runs if run[0])


class MomentumChart(Widget):
    """12 weekly bars of a topic's papers, drawn for the widget's current size.

    Colours come from the component classes below (see
    `styles/momentum_chart.tcss`); the shapes alone keep the chart readable
    without colour.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "momentum-chart--bar",
        "momentum-chart--bar-partial",
        "momentum-chart--count",
        "momentum-chart--axis",
        "momentum-chart--label",
        "momentum-chart--note",
    }

    DEFAULT_CSS = """
    MomentumChart {
        height: 8;
    }
    """

    def __init__(
        self,
        data: ChartData | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._data = data
        self._layout_key: tuple[ChartData | None, int, int] | None = None
        self._layout: tuple[Row, ...] = ()

    @property
    def data(self) -> ChartData | None:
        return self._data

    def update_chart(self, data: ChartData | None) -> None:
        """Show new counts (None clears the chart)."""
        if data != self._data:
            self._data = data
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        key = (self._data, width, height)
        if key != self._layout_key:
            self._layout = layout_chart(self._data, width, height)
            self._layout_key = key
        # The widget's own style walks its ancestors: once per line, not per part.
        base = self.rich_style
        if y >= len(self._layout):
            return Strip.blank(width, base)
        segments = [Segment(text, self._part_style(part) if part else base) for text, part in self._layout[y]]
        return Strip(segments, width)

    def _part_style(self, part: Part) -> Style:
        return self.get_component_rich_style(f"momentum-chart--{part}")
