"""The topic sidebar: followed topics first, unread counts, weekly sparklines."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from feedtui.ui.presenter import TopicRow
from feedtui.ui.widgets.sparkline import sparkline

SPARK_MIN_WIDTH = 34
SPARK_WEEKS = 12


class TopicList(OptionList):
    """Topics as one-line rows; selecting one posts `TopicList.Shown`."""

    BINDINGS = [
        Binding("j", "cursor_down", "Next topic", show=False, id="topics.next"),
        Binding("k", "cursor_up", "Previous topic", show=False, id="topics.previous"),
    ]

    class Shown(Message):
        def __init__(self, name: str) -> None:
            self.name = name
            super().__init__()

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._rows: list[TopicRow] = []
        self._width = 0

    @property
    def rows(self) -> list[TopicRow]:
        return list(self._rows)

    @property
    def current(self) -> str | None:
        if self.highlighted is None:
            return None
        option = self.get_option_at_index(self.highlighted)
        return option.id

    def show_rows(self, rows: Sequence[TopicRow], keep: str | None = None) -> None:
        """Replace the rows; the highlight stays on `keep` (or the current topic)."""
        keep = keep or self.current
        self._rows = list(rows)
        self._rebuild(keep)

    def update_row(self, row: TopicRow) -> None:
        """A count changed: redraw one row in place."""
        for index, existing in enumerate(self._rows):
            if existing.name == row.name:
                self._rows[index] = row
                try:
                    self.replace_option_prompt(row.name, self._prompt(row))
                except Exception:  # the row is filtered out
                    pass
                return

    def select_topic(self, name: str) -> bool:
        try:
            index = self.get_option_index(name)
        except Exception:
            return False
        self.highlighted = index
        return True

    def _row_width(self) -> int:
        """Cells available to a row's text: the content width less gutter, option
        padding and a vertical scrollbar (always reserved: it comes and goes as the
        filter changes, without a resize event)."""
        padding = self.get_component_styles("option-list--option").padding.width
        scrollbar = self.styles.scrollbar_size_vertical
        return self.content_region.width - scrollbar - self._get_left_gutter_width() - padding

    def on_resize(self) -> None:
        width = self._row_width()
        if width != self._width:
            self._width = width
            self._rebuild(self.current)

    def _rebuild(self, keep: str | None) -> None:
        options: list[Option | None] = []
        following = [r for r in self._rows if r.following or r.virtual]
        others = [r for r in self._rows if not (r.following or r.virtual)]
        if following:
            options.append(Option(Text("Following", style="bold"), disabled=True, id="::following"))
            options.extend(Option(self._prompt(r), id=r.name) for r in following)
        if others:
            options.append(Option(Text("Topics", style="bold"), disabled=True, id="::topics"))
            options.extend(Option(self._prompt(r), id=r.name) for r in others)
        with self.prevent(OptionList.OptionHighlighted):
            self.set_options(options)
            if keep and self.select_topic(keep):
                return
            choices = [i for i, o in enumerate(self.options) if not o.disabled]
            virtual = {r.name for r in self._rows if r.virtual}
            real = [i for i in choices if self.options[i].id not in virtual]
            if real or choices:
                self.highlighted = (real or choices)[0]

    def _prompt(self, row: TopicRow) -> Text:
        width = max(self._width or self._row_width(), 12)
        marker = "★ " if row.following else ("  " if not row.virtual else "")
        right = Text()
        if width >= SPARK_MIN_WIDTH and row.weeks:
            right.append(sparkline(row.weeks[-SPARK_WEEKS:]), style="dim")
            right.append(" ")
        count = f"{row.unread:>4}" if row.unread else "   ·"
        right.append(count, style="bold" if row.unread else "dim")
        room = width - len(marker) - right.cell_len - 1
        name = Text(row.name, no_wrap=True, overflow="ellipsis")
        if row.error:
            name.stylize("strike")
        name.truncate(max(room, 4), overflow="ellipsis")
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(marker, style="bold")
        line.append_text(name)
        line.append(" " * max(1, width - len(marker) - name.cell_len - right.cell_len))
        line.append_text(right)
        return line

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id and not event.option.id.startswith("::"):
            self.post_message(self.Shown(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id and not event.option.id.startswith("::"):
            self.post_message(self.Shown(event.option.id))
