"""The topic sidebar: followed topics first, unread counts, weekly sparklines.

A Line-API widget with one line per row, drawing only the rows on screen: a
heavy reader following hundreds of feeds gets a sidebar that costs the same as
one with ten topics (an OptionList measures every prompt up front).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from feedtui.text.sanitize import clean_line
from feedtui.ui.presenter import TopicRow
from feedtui.ui.widgets.focus_restyle import FocusColours
from feedtui.ui.widgets.line_scrollbar import LineScrollBarMixin
from feedtui.ui.widgets.sparkline import sparkline

SPARK_MIN_WIDTH = 38
# Cells the unread counts take at least (`9,999` takes five; every row then does).
COUNT_WIDTH = 4
SPARK_WEEKS = 12
FOLLOWING = "Following"
# Over the counts, on each section's line: every count is of unread papers.
COUNTS_LABEL = "unread"
TOPICS = "Topics"


def as_drawn(rows: Sequence[TopicRow]) -> tuple[list[TopicRow], list[TopicRow]]:
    """(following, others): followed topics and the reading list, then the
    rest, each in the order given."""
    following = [r for r in rows if r.following or r.virtual]
    others = [r for r in rows if not (r.following or r.virtual)]
    return following, others


class _Line:
    """A section title (row is None) or a topic row."""

    __slots__ = ("title", "row")

    def __init__(self, title: str, row: TopicRow | None = None) -> None:
        self.title = title
        self.row = row


class TopicList(FocusColours, LineScrollBarMixin, ScrollView, can_focus=True):
    """Topics as one-line rows; moving onto one posts `TopicList.Shown`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "next", "Next topic", show=False, id="topics.next"),
        Binding("k,up", "previous", "Previous topic", show=False, id="topics.previous"),
        Binding("enter", "open", "Open topic", show=False, id="topics.open"),
        Binding("g,home", "first", "First topic", show=False, id="topics.first"),
        Binding("G,end", "last", "Last topic", show=False, id="topics.last"),
        Binding("pagedown", "page_down", "Page down the topics", show=False, id="topics.page_down"),
        Binding("pageup", "page_up", "Page up the topics", show=False, id="topics.page_up"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "topic-list--section",
        "topic-list--cursor",
        "topic-list--cursor-blurred",
        "topic-list--followed",
        "topic-list--followed-cursor",
        "topic-list--count",
        "topic-list--count-zero",
        "topic-list--spark",
        "topic-list--error",
        "topic-list--no-papers",
    }

    DEFAULT_CSS = """
    TopicList {
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-gutter: stable;
    }
    """

    cursor: reactive[int] = reactive(0, init=False)

    class Shown(Message):
        def __init__(self, name: str) -> None:
            self.name = name
            super().__init__()

    # The colours the cached rows were drawn in (see notify_style_update).
    _colours: tuple[Style, ...] = ()
    _colours_checked = False

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._lines: list[_Line] = []
        self._index: dict[str, int] = {}
        self._cache: dict[tuple, Strip] = {}
        self._styles: dict[str, Style] = {}  # by component class, until the styles change
        # Shown on the first line when there are no rows (a filter matched nothing).
        self.empty_message = ""
        self._count_width = COUNT_WIDTH

    # -- data ------------------------------------------------------------------

    @property
    def rows(self) -> list[TopicRow]:
        """The rows top to bottom, as drawn: followed topics (and the reading
        list) first, then the others."""
        return [line.row for line in self._lines if line.row]

    @property
    def current(self) -> str | None:
        if 0 <= self.cursor < len(self._lines):
            row = self._lines[self.cursor].row
            return row.name if row else None
        return None

    def names(self) -> list[str]:
        """Every line top to bottom: section titles as `::Title`, then topic names."""
        return [line.row.name if line.row else f"::{line.title}" for line in self._lines]

    def row_text(self, name: str) -> str:
        """The plain text of a topic's row at the current width."""
        index = self._index[name]
        width = self._width()
        return self._row_strip(self._lines[index].row, width, Style()).crop(0, width).text  # type: ignore[arg-type]

    def show_rows(self, rows: Sequence[TopicRow], keep: str | None = None) -> None:
        """Replace the rows; the cursor stays on `keep` (or the current topic)."""
        keep = keep or self.current
        following, others = as_drawn(rows)
        lines: list[_Line] = []
        if following:
            lines.append(_Line(FOLLOWING))
            lines.extend(_Line(r.name, r) for r in following)
        if others:
            lines.append(_Line(TOPICS))
            lines.extend(_Line(r.name, r) for r in others)
        self._lines = lines
        self._index = {line.row.name: i for i, line in enumerate(lines) if line.row}
        self._count_width = max([COUNT_WIDTH, *(_count_cells(r.unread) for r in rows)])
        self._cache.clear()
        self.virtual_size = Size(self.size.width, len(lines))
        target = self._index.get(keep) if keep else None
        if target is None:
            real = [i for i, line in enumerate(lines) if line.row and not line.row.virtual]
            target = real[0] if real else next((i for i, line in enumerate(lines) if line.row), 0)
        self.set_reactive(TopicList.cursor, target)
        self.scroll_to_cursor()
        # Scrolling is bounded by the last layout: a list that grew (a filter
        # cleared) can reach its cursor once laid out again.
        self.call_after_refresh(self.scroll_to_cursor)
        self.refresh()

    def update_row(self, row: TopicRow) -> None:
        """A count changed: redraw that row in place."""
        index = self._index.get(row.name)
        if index is None:
            return
        self._lines[index] = _Line(row.name, row)
        if _count_cells(row.unread) > self._count_width:  # every row's count moves over
            self._count_width = _count_cells(row.unread)
            self._cache.clear()
            self.refresh()
        else:
            self.refresh_line(index)

    def select_topic(self, name: str) -> bool:
        index = self._index.get(name)
        if index is None:
            return False
        self.set_reactive(TopicList.cursor, index)
        self.scroll_to_cursor()
        self.refresh()
        return True

    # -- movement --------------------------------------------------------------

    def _step(self, start: int, delta: int) -> int:
        index = start + delta
        while 0 <= index < len(self._lines) and self._lines[index].row is None:
            index += 1 if delta > 0 else -1
        if 0 <= index < len(self._lines):
            return index
        return start

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_line(old)
        self.refresh_line(new)
        self.scroll_to_cursor()
        name = self.current
        if name:
            self.post_message(self.Shown(name))

    def scroll_to_cursor(self) -> None:
        height = self.scrollable_content_region.height or 1
        top = int(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=max(0, self.cursor - 1), animate=False)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False)

    def action_next(self) -> None:
        self.cursor = self._step(self.cursor, 1)

    def action_previous(self) -> None:
        self.cursor = self._step(self.cursor, -1)

    def action_first(self) -> None:
        self.cursor = self._step(-1, 1)

    def action_last(self) -> None:
        self.cursor = self._step(len(self._lines), -1)

    def action_page_down(self) -> None:
        if not self._lines:  # a filter that matches nothing: no row to land on
            return
        height = max(1, self.scrollable_content_region.height - 1)
        target = min(len(self._lines) - 1, self.cursor + height)
        self.cursor = self._step(target, 1) if self._lines[target].row is None else target

    def action_page_up(self) -> None:
        if not self._lines:
            return
        height = max(1, self.scrollable_content_region.height - 1)
        target = max(0, self.cursor - height)
        self.cursor = self._step(target, -1) if self._lines[target].row is None else target

    def action_open(self) -> None:
        if self.current:
            self.post_message(self.Shown(self.current))

    def on_click(self, event: events.Click) -> None:
        index = int(self.scroll_y) + event.y
        if 0 <= index < len(self._lines) and self._lines[index].row is not None:
            self.focus()
            if index == self.cursor:
                self.action_open()
            else:
                self.cursor = index

    def refresh_cursor(self) -> None:
        """The focus changes the cursor row's colours only (`FocusColours`)."""
        self.refresh_line(self.cursor)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # Rows are cached with the focus they were drawn in: only new colours
        # (a theme, a stylesheet) draw every row anew (drawing them all again
        # on each focus change made Tab slow). The component classes are not
        # restyled yet here: the next paint compares.
        self._colours_checked = False

    def _check_colours(self) -> None:
        self._colours_checked = True
        colours = (self.rich_style, *(self.get_component_rich_style(name) for name in sorted(self.COMPONENT_CLASSES)))
        if colours != self._colours:
            self._colours = colours
            self._styles.clear()
            self._cache.clear()  # rows drawn in the old theme's colours

    def on_resize(self) -> None:
        self._cache.clear()
        self.virtual_size = Size(self.size.width, len(self._lines))
        self.call_after_refresh(self.scroll_to_cursor)

    def refresh_line(self, index: int) -> None:
        """Repaint row `index` (ScrollView.refresh_lines takes the scroll off itself)."""
        self._cache = {k: v for k, v in self._cache.items() if k[0] != index}
        self.refresh_lines(index)

    # -- drawing -----------------------------------------------------------------

    def _width(self) -> int:
        return max(self.scrollable_content_region.width, 12)

    def render_line(self, y: int) -> Strip:
        if not self._colours_checked:
            self._check_colours()
        index = int(self.scroll_y) + y
        width = self._width()
        # The widget's style as of the last style update (see _check_colours):
        # Textual works it out from every ancestor at each call.
        base = self._colours[0]
        if not 0 <= index < len(self._lines):
            if not self._lines and index == 0 and self.empty_message:
                message = Text(self.empty_message, style=self._style("topic-list--section"), no_wrap=True)
                message.truncate(width, overflow="ellipsis")
                return self._strip(message, width, base)
            return Strip.blank(width, base)
        line = self._lines[index]
        selected = index == self.cursor
        # Only the cursor row is drawn differently with the focus: the others
        # stay cached across Tab.
        key = (index, width, line.row, selected, selected and self.has_focus)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if selected:
            base = base + self._style("topic-list--cursor" if self.has_focus else "topic-list--cursor-blurred")
        if line.row is None:
            strip = self._strip(self._section_text(line.title, width), width, base)
        else:
            strip = self._row_strip(line.row, width, base, selected=selected).crop_extend(0, width, base).simplify()
        self._cache[key] = strip
        return strip

    def _section_text(self, title: str, width: int) -> Text:
        """`Following      unread`: the section's title, and over the counts
        what they count (the reading list's too), where the width allows."""
        text = Text(title, style=self._style("topic-list--section"), no_wrap=True)
        gap = width - text.cell_len - len(COUNTS_LABEL)
        if gap >= 2:
            text.append(" " * gap)
            text.append(COUNTS_LABEL, style=self._style("topic-list--count-zero"))
        return text

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        """One line of `width` cells: `text` on the row's style."""
        segments = Segment.apply_style(text.render(self.app.console), style=base)
        return Strip(list(segments)).crop_extend(0, width, base).simplify()

    def _style(self, component: str) -> Style:
        """The component's style as declared (a part that sets no background
        lets the row's show through), its colours blended as Textual would
        draw them: `$text-muted` and `$accent 60%` are translucent, and a
        partial style keeps them unblended, so the muted text came out white
        and the cursor row solid accent, unreadable and the same focused or not."""
        style = self._styles.get(component)
        if style is None:
            declared = self.get_component_rich_style(component, partial=True)
            full = self.get_component_rich_style(component)
            style = declared.without_color + Style(
                color=full.color if declared.color is not None else None,
                bgcolor=full.bgcolor if declared.bgcolor is not None else None,
            )
            self._styles[component] = style
        return style

    def _row_strip(self, row: TopicRow, width: int, base: Style, *, selected: bool = False) -> Strip:
        """`★ Name ……… ▁▂▃▅ +3 12`: marker, name (cut to fit), sparkline, the
        papers new since the previous session, unread count; each part on
        `base`, not yet cut to `width`. Made as segments, not as a Text
        rendered by the console: the sidebar draws every row on screen for
        the first paint."""
        style = self._style
        marker = "★ " if row.following else ("  " if not row.virtual else "")
        spark = sparkline(row.weeks[-SPARK_WEEKS:]) if width >= SPARK_MIN_WIDTH and row.weeks else ""
        new = f"+{row.new:,} " if row.new else ""
        if row.unread:
            count, count_style = f"{row.unread:>{self._count_width},}", style("topic-list--count")
        else:
            count, count_style = "·".rjust(self._count_width), style("topic-list--count-zero")
        right_cells = cell_len(spark) + (1 if spark else 0) + len(new) + cell_len(count)
        room = max(4, width - len(marker) - right_cells - 1)
        name = clean_line(row.name, html_allowed=False)
        name_cells = cell_len(name)
        if name_cells > room:
            cut = Text(name, no_wrap=True)
            cut.truncate(room, overflow="ellipsis")
            name, name_cells = cut.plain, cut.cell_len
        if row.error:
            name_style = base + style("topic-list--error")
        elif not row.papers and not row.virtual:
            # No papers at all: the topic view says why.
            name_style = base + style("topic-list--no-papers")
        else:
            name_style = base
        # On the cursor row the marker takes the row's colours: in some themes
        # the marker's own colour is the cursor's.
        segments = [Segment(marker, base + style("topic-list--followed-cursor" if selected else "topic-list--followed"))] if marker else []
        segments += [Segment(name, name_style), Segment(" " * max(1, width - len(marker) - name_cells - right_cells), base)]
        if spark:
            segments += [Segment(spark, base + style("topic-list--spark")), Segment(" ", base)]
        if new:
            segments.append(Segment(new, base + style("topic-list--count") + Style(bold=True)))
        segments.append(Segment(count, base + count_style))
        return Strip(segments)


def _count_cells(count: int) -> int:
    return len(f"{count:,}")
