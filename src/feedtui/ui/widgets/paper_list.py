"""The scrollable list of paper cards: a virtual Line-API widget.

Nothing here mounts a widget per paper. `PaperList` is a `ScrollView` whose
`render_line(y)` finds the card under line `y` by arithmetic (every card is
`shape.height` lines tall, see `ui.cards.CardShape`; expanded cards are taller), lays that card out once
per (width, card data) and caches the strips, so a list of 10,000 cards
costs what the ~4 cards on screen cost.

The widget does no I/O: the caller hands it a `CardSource` and listens for
its messages. All text is untrusted, so every line is built from
`rich.text.Text` pieces (never markup) after control characters are removed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Protocol

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from feedtui.ui.cards import COMFORTABLE, CardData, CardShape
from feedtui.ui.widgets.card_heights import CardHeights
from feedtui.ui.widgets.card_layout import (
    ABSTRACT_LINES,
    CARD_HEIGHT,
    CURSOR_BAR,
    TITLE_LINES,
    CardLayout,
    CardStyles,
    TagSpan,
    around_first_match,
    clamp_lines,
    cursor_strips,
    highlight_pattern,
    lay_out,
    one_line_safe,
    to_strip,
)
from feedtui.ui.widgets.focus_restyle import FocusColours
from feedtui.ui.widgets.line_scrollbar import LineScrollBarMixin

# Names callers import from here (the card's parts live in card_layout and card_heights).
__all__ = [
    "ABSTRACT_LINES",
    "CARD_HEIGHT",
    "CURSOR_BAR",
    "TITLE_LINES",
    "CardHeights",
    "CardLayout",
    "CardSource",
    "CardStyles",
    "EmptySource",
    "PaperList",
    "TagSpan",
    "around_first_match",
    "clamp_lines",
    "highlight_pattern",
    "one_line_safe",
]

# What `_hit` says for a click on a card's authors (no topic's name: it has a control character).
AUTHORS = "\x00authors"
CURSOR_BAR_WIDTH, AUTHORS_INDENT = 1, 2
CARD_CACHE_SIZE = 512
LAYOUT_CACHE_SIZE = 512
# Cards laid out ahead per idle moment (each takes a millisecond or two).
WARM_UP_BATCH = 2


class CardSource(Protocol):
    """What the list shows. `card` is called only for cards being drawn."""

    def __len__(self) -> int: ...

    def card(self, index: int) -> CardData: ...

    def index_of(self, paper_id: str) -> int | None:
        """Where a paper is in this source, or None (used to keep the cursor)."""
        ...


class EmptySource:
    """The source a new list starts with."""

    def __len__(self) -> int:
        return 0

    def card(self, index: int) -> CardData:
        raise IndexError(index)

    def index_of(self, paper_id: str) -> int | None:
        return None


class _Paint:
    """The state of one paint of the list, and the card its last line was in.
    (A plain class: a dataclass's generated methods are compiled at import,
    on the way to the first paint.)"""

    __slots__ = ("width", "top", "end", "cursor", "blank", "index", "strips")

    def __init__(self, width: int, top: int, end: int, cursor: int, blank: Strip) -> None:
        self.width = width
        self.top = top
        self.end = end
        self.cursor = cursor
        self.blank = blank
        self.index = -1
        self.strips: list[Strip] = []


class PaperList(FocusColours, LineScrollBarMixin, ScrollView, can_focus=True):
    """Paper cards, newest first, with a cursor; smooth at tens of thousands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "next", "Next paper", id="paper_list.next", key_display="j", show=False),
        Binding("k,up", "previous", "Previous paper", id="paper_list.previous", key_display="k", show=False),
        Binding("enter", "open", "Details", id="paper_list.open"),
        Binding("e", "toggle_expand", "Expand", id="paper_list.expand"),
        Binding("space,pagedown", "page_down", "Page down", id="paper_list.page_down", show=False),
        Binding("pageup", "page_up", "Page up", id="paper_list.page_up", show=False),
        Binding("ctrl+d", "half_page_down", "Half page down", id="paper_list.half_page_down", show=False),
        Binding("ctrl+u", "half_page_up", "Half page up", id="paper_list.half_page_up", show=False),
        Binding("g,home", "first", "First card", id="paper_list.first", show=False),
        Binding("G,end", "last", "Last card", id="paper_list.last", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--date",
        "paper-list--title",
        "paper-list--abstract",
        "paper-list--authors",
        "paper-list--affiliations",
        "paper-list--tag",
        "paper-list--tag-current",
        "paper-list--unread-marker",
        "paper-list--cursor",
        "paper-list--cursor-blurred",
        "paper-list--read",
        "paper-list--star",
        "paper-list--highlight",
        "paper-list--empty",
    }

    DEFAULT_CSS = """
    PaperList {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-gutter: stable;
    }
    """

    cursor: reactive[int] = reactive(0, init=False)
    """Index of the selected card."""

    empty_message: reactive[str] = reactive("No papers")
    """The line shown, centred, when the source is empty."""

    class CardMessage(Message):
        """About one card: which list, which paper, where it is in the list."""

        def __init__(self, paper_list: PaperList, paper_id: str, index: int) -> None:
            self.paper_list = paper_list
            self.paper_id = paper_id
            self.index = index
            super().__init__()

        @property
        def control(self) -> PaperList:
            return self.paper_list

    class Highlighted(CardMessage):
        """The cursor moved to another paper."""

    class Opened(CardMessage):
        """Enter, a double click, or a click on the selected card."""

    class TagSelected(CardMessage):
        """A topic tag was clicked or chosen with `select_tag`."""

        def __init__(self, paper_list: PaperList, paper_id: str, index: int, topic: str) -> None:
            self.topic = topic
            super().__init__(paper_list, paper_id, index)

    class AuthorsSelected(CardMessage):
        """A card's authors were clicked: the reader lists an author's papers."""

    def __init__(
        self,
        source: CardSource | None = None,
        *,
        empty_message: str = "No papers",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.set_reactive(PaperList.empty_message, empty_message)
        # Paper ids whose card shows the whole abstract (the widget decides;
        # `CardData.expanded` is ignored). The source should return the full
        # abstract for these ids. Change it with `toggle_expand`, or mutate it
        # and call `invalidate()`.
        self.expanded: set[str] = set()
        self._expanded_at: dict[int, str] = {}  # index in the source -> paper id
        self._source: CardSource = source if source is not None else EmptySource()
        self._count = len(self._source)
        self.shape: CardShape = COMFORTABLE
        self._heights = CardHeights(self.shape.height)
        self._cards: LRUCache[int, CardData] = LRUCache(CARD_CACHE_SIZE)
        # Keyed by what a layout depends on, not by position: cards keep
        # their layouts when a refresh inserts papers above them.
        self._layouts: LRUCache[tuple[int, CardData, bool], CardLayout] = LRUCache(LAYOUT_CACHE_SIZE)
        self._layout_width = 0
        self._paint: _Paint | None = None
        # The card styles with the focused and with the blurred cursor.
        self._styles: tuple[CardStyles, CardStyles] | None = None
        self._warm_up_pending = False
        self._click_opened = False
        self._update_virtual_size()

    # ----------------------------------------------------------------- data

    @property
    def source(self) -> CardSource:
        return self._source

    @property
    def card_count(self) -> int:
        return self._count

    @property
    def cursor_card(self) -> CardData | None:
        return self._card(self.cursor) if self._count else None

    def set_source(self, source: CardSource, *, keep: str | None = None) -> None:
        """Show `source`. With `keep`, that paper stays under the cursor at the
        same screen row when it is in the new source; otherwise the cursor
        goes to the first card at the top."""
        before = self.cursor_card.paper_id if self._count else None
        row: int | None = None
        if keep is not None:
            old_index = self._source.index_of(keep)
            if old_index is not None and old_index < self._count:
                row = self._heights.top(old_index) - round(self.scroll_y)
        self._source = source
        self._count = len(source)
        self._cards.clear()
        self._remeasure_expanded(remap=True)
        new_index = source.index_of(keep) if keep is not None else None
        if new_index is None or not 0 <= new_index < self._count:
            self.set_reactive(PaperList.cursor, 0)
            self.scroll_to(y=0, animate=False, force=True)
        else:
            self.set_reactive(PaperList.cursor, new_index)
            if row is None:
                self._scroll_to_card(new_index)
            else:
                self._scroll_keeping_row(new_index, row)
        self.refresh()
        after = self.cursor_card
        if after is not None and after.paper_id != before:
            self.post_message(self.Highlighted(self, after.paper_id, self.cursor))

    def invalidate(self, indices: Iterable[int] | None = None) -> None:
        """The data of these cards changed (read, starred, tags...): redraw
        them. With None, everything changed, including `expanded`."""
        if indices is None:
            self._cards.clear()
            self._remeasure_expanded(remap=True)
            self.refresh()
            return
        changed = {index for index in indices if 0 <= index < self._count}
        for index in changed:
            self._cards.discard(index)
        if changed & self._expanded_at.keys():
            self._remeasure_expanded(remap=False)
            self.refresh()
            return
        for index in changed:
            self._refresh_card(index)

    def _card(self, index: int) -> CardData:
        card = self._cards.get(index)
        if card is None:
            card = self._source.card(index)
            self._cards.set(index, card)
        return card

    # ------------------------------------------------------------ geometry

    @property
    def _view_width(self) -> int:
        return self.scrollable_content_region.width

    @property
    def _view_height(self) -> int:
        return self.scrollable_content_region.height

    def _remeasure_expanded(self, *, remap: bool) -> None:
        """Measure the expanded cards again (after a new source, a width
        change or new data) and update the virtual size. `remap` looks the
        expanded paper ids up in the source; ids not in it are forgotten."""
        if remap:
            found = {paper_id: self._source.index_of(paper_id) for paper_id in self.expanded}
            self._expanded_at = {
                index: paper_id for paper_id, index in found.items() if index is not None and 0 <= index < self._count
            }
            self.expanded.intersection_update(self._expanded_at.values())
        width = self._view_width
        extras: dict[int, int] = {}
        if width > 0:
            for index in self._expanded_at:
                extras[index] = len(self._layout(index, width).strips) - self.shape.height
        self._heights.set_extras(extras)
        self._update_virtual_size()

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self._view_width if self.is_mounted else 0, self._heights.total(self._count))

    def card_region(self, index: int) -> Region:
        """Lines of card `index` relative to the top of the visible area."""
        top = self._heights.top(index) - round(self.scroll_y)
        return Region(0, top, self._view_width, self._heights.height(index))

    def refresh_cursor(self) -> None:
        """The focus changes the cursor card's colours only (`FocusColours`)."""
        if self._count:
            self._refresh_card(self.cursor)

    def _refresh_card(self, index: int) -> None:
        region = self.card_region(index)
        if region.bottom > 0 and region.y < self._view_height:
            self.refresh(region)

    def _scroll_to_card(self, index: int) -> None:
        top = self._heights.top(index)
        height = self._heights.height(index)
        view = self._view_height
        scroll_y = round(self.scroll_y)
        if top < scroll_y or height >= view:
            self.scroll_to(y=top, animate=False, force=True)
        elif top + height > scroll_y + view:
            self.scroll_to(y=top + height - view, animate=False, force=True)

    def _scroll_keeping_row(self, index: int, row: int) -> None:
        """Scroll so card `index` starts `row` lines below the top, if possible."""
        row = max(0, min(row, self._view_height - self._heights.height(index)))
        self.scroll_to(y=max(0, self._heights.top(index) - row), animate=False, force=True)

    def visible_range(self) -> range:
        """The indices of the cards the view shows, wholly or in part."""
        total = self._heights.total(self._count)
        if not total:
            return range(0)
        top = min(round(self.scroll_y), total - 1)
        first, _ = self._heights.locate(top)
        last, _ = self._heights.locate(min(top + max(1, self._view_height), total) - 1)
        return range(first, last + 1)

    def _cards_per_page(self) -> int:
        return max(1, self._view_height // self.shape.height)

    # -------------------------------------------------------------- cursor

    def validate_cursor(self, cursor: int) -> int:
        return max(0, min(cursor, self._count - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        if old < self._count:
            self._refresh_card(old)
        self._refresh_card(new)
        self._scroll_to_card(new)
        self._schedule_warm_up()
        card = self.cursor_card
        if card is not None:
            self.post_message(self.Highlighted(self, card.paper_id, new))

    def move_cursor(self, delta: int) -> None:
        self.cursor = self.cursor + delta

    def go_to(self, index: int) -> None:
        self.cursor = index

    def home(self) -> None:
        self.go_to(0)

    def end(self) -> None:
        self.go_to(self._count - 1)

    def page_down(self) -> None:
        self._move_keeping_row(self._cards_per_page())

    def page_up(self) -> None:
        self._move_keeping_row(-self._cards_per_page())

    def _move_keeping_row(self, delta: int) -> None:
        """Move by `delta` cards and scroll by as much, like a pager."""
        if not self._count:
            return
        target = self.validate_cursor(self.cursor + delta)
        row = self._heights.top(self.cursor) - round(self.scroll_y)
        self._scroll_keeping_row(target, row)
        self.cursor = target

    def set_shape(self, shape: CardShape) -> None:
        """Lay every card out in `shape` (the density), the cursor card kept in view."""
        if shape == self.shape:
            return
        self.shape = shape
        self._layouts.clear()
        self._heights = CardHeights(shape.height)
        self._remeasure_expanded(remap=False)
        self.refresh()
        if self._count:
            self._scroll_to_card(self.cursor)

    def toggle_expand(self) -> None:
        """Show the whole abstract of the cursor card, or clamp it again."""
        card = self.cursor_card
        if card is None:
            return
        if card.paper_id in self.expanded:
            self.expanded.discard(card.paper_id)
            self._expanded_at.pop(self.cursor, None)
        else:
            self.expanded.add(card.paper_id)
            self._expanded_at[self.cursor] = card.paper_id
        self._cards.discard(self.cursor)
        self._remeasure_expanded(remap=False)
        self.refresh()
        self._scroll_to_card(self.cursor)

    def select_tag(self, n: int) -> str | None:
        """Choose tag `n` (0-based) of the cursor card; returns its topic."""
        card = self.cursor_card
        if card is None or not 0 <= n < len(card.tags):
            return None
        topic = card.tags[n]
        self.post_message(self.TagSelected(self, card.paper_id, self.cursor, topic))
        return topic

    def action_next(self) -> None:
        self.move_cursor(1)

    def action_previous(self) -> None:
        self.move_cursor(-1)

    def action_open(self) -> None:
        card = self.cursor_card
        if card is not None:
            self.post_message(self.Opened(self, card.paper_id, self.cursor))

    def action_toggle_expand(self) -> None:
        self.toggle_expand()

    def action_page_down(self) -> None:
        self.page_down()

    def action_page_up(self) -> None:
        self.page_up()

    def action_half_page_down(self) -> None:
        self._move_keeping_row(max(1, self._cards_per_page() // 2))

    def action_half_page_up(self) -> None:
        self._move_keeping_row(-max(1, self._cards_per_page() // 2))

    def action_first(self) -> None:
        self.home()

    def action_last(self) -> None:
        self.end()

    # --------------------------------------------------------------- mouse

    def on_click(self, event: events.Click) -> None:
        """A click selects a card; a click on the selected card, or a double
        click, opens it; a click on a tag selects that tag's topic."""
        hit = self._hit(event)
        if hit is None:
            return
        event.stop()
        index, topic = hit
        if topic == AUTHORS and event.chain == 1:
            self.cursor = index
            self.post_message(self.AuthorsSelected(self, self._card(index).paper_id, index))
        elif topic is not None:
            if event.chain == 1:
                self.cursor = index
                self.post_message(self.TagSelected(self, self._card(index).paper_id, index, topic))
        elif event.chain == 1:
            # Remember whether this click opened the card, so the second click
            # of a double click on the selected card does not open it twice.
            self._click_opened = index == self.cursor
            if self._click_opened:
                self.action_open()
            else:
                self.cursor = index
        elif event.chain == 2 and index == self.cursor and not self._click_opened:
            self.action_open()

    def _hit(self, event: events.MouseEvent) -> tuple[int, str | None] | None:
        """The card under the pointer, and the tag under it if any (AUTHORS: its authors)."""
        offset = event.get_content_offset(self)
        if offset is None or not self._count:
            return None
        y = round(self.scroll_y) + offset.y
        if y >= self._heights.total(self._count):
            return None
        index, row = self._heights.locate(y)
        layout = self._layout(index, self._view_width)
        if row == layout.tag_row:
            for span in layout.tags:
                if span.start <= offset.x < span.end:
                    return index, span.topic
        if row == layout.author_row and CURSOR_BAR_WIDTH + AUTHORS_INDENT <= offset.x < layout.author_end:
            return index, AUTHORS
        return index, None

    # ------------------------------------------------------------ rendering

    def on_resize(self, event: events.Resize) -> None:
        if self._view_width != self._layout_width:
            self._layout_width = self._view_width
            self._remeasure_expanded(remap=False)
        else:
            self._update_virtual_size()
        if self._count:
            self._scroll_to_card(self.cursor)
        self._schedule_warm_up()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        old, self._styles = self._styles, None
        # The cursor's colours change only the cursor card's lines (see
        # `cursor_strips`): cards keep their layouts unless another part's
        # style changed. Laying out every card on screen again made Tab slow.
        if old is None or old[0] != (new := self.card_styles)._replace(
            cursor=old[0].cursor, cursor_blurred=old[0].cursor_blurred
        ):
            self._layouts.clear()

    @property
    def card_styles(self) -> CardStyles:
        """The card parts' styles from the component classes (cached until
        the CSS changes), the cursor's in the focused or the blurred colours."""
        if self._styles is None:
            styles = CardStyles.from_widget(self)
            self._styles = (styles, styles._replace(cursor=styles.cursor_blurred))
        return self._styles[0] if self.has_focus else self._styles[1]

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._schedule_warm_up()

    def _schedule_warm_up(self) -> None:
        if not self._warm_up_pending and self.is_mounted:
            self._warm_up_pending = True
            self.call_after_refresh(self._warm_up)

    def _warm_up(self) -> None:
        """Lay out the cards a page above and below the view, and the cursor
        look of the cursor's neighbours, after the frame is painted: the next
        key or scroll then finds them ready instead of wrapping text while a
        frame waits."""
        self._warm_up_pending = False
        width = self._view_width
        total = self._heights.total(self._count)
        if not total or width <= 0:
            return
        shown = self.visible_range()
        first, last = shown.start, shown.stop - 1
        reach = self._cards_per_page() + 1
        wanted = [
            *range(last + 1, min(self._count, last + 1 + reach)),
            *range(first - 1, max(-1, first - 1 - reach), -1),
        ]
        laid_out = 0
        for index in wanted:
            if not self._has_layout(index, width):
                self._layout(index, width)
                laid_out += 1
                if laid_out == WARM_UP_BATCH:
                    self._schedule_warm_up()
                    return
        for index in (self.cursor + 1, self.cursor - 1):
            if 0 <= index < self._count:
                cursor_strips(self._layout(index, width), self.card_styles, separator=self.shape.separator)

    def _has_layout(self, index: int, width: int) -> bool:
        card = self._card(index)
        return (width, card, card.paper_id in self.expanded) in self._layouts

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line of this paint needs, looked up once rather than per
        # line (reactives and regions are slow to read in a tight loop).
        self._paint = self._start_paint()
        try:
            if self._styles_change_lines():
                return super().render_lines(crop)
            return self._plain_lines(crop)
        finally:
            self._paint = None

    def _styles_change_lines(self) -> bool:
        """Whether Textual's style cache would change the lines (CSS that sets
        a border, padding, outline, tint, opacity or hatch on the list).

        Without any, it hands them on as they are but for the line filters,
        at some 60 µs a line: 2 ms of every frame of a full list. Then
        `_plain_lines` does the same directly."""
        styles = self.styles
        return bool(
            any(styles.gutter)
            or any(edge for edge, _ in styles.outline)
            or styles.tint.a
            or styles.text_opacity != 1
            or self.opacity != 1
            or (styles.has_rule("hatch") and styles.hatch != "none")
            or self._border_title is not None
            or self._border_subtitle is not None
        )

    def _plain_lines(self, crop: Region) -> list[Strip]:
        """The lines in `crop` as Textual's style cache gives them for a list
        without border, padding or effects (see `_styles_change_lines`)."""
        width = self.size.width
        base_background, background = self.background_colors
        fill: Style | None = None
        lines: list[Strip] = []
        for y in crop.line_range:
            line = self.render_line(y)
            if line.cell_length != width:
                if fill is None:
                    fill = self._styles_cache.get_inner_outer(base_background, background)[0].rich_style
                line = line.adjust_cell_length(width, fill)
            lines.append(line)
        for line_filter in self.get_line_filters():
            lines = [line.apply_filter(line_filter, background) for line in lines]
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            lines = [line.crop(x1, x2) for line in lines]
        return lines

    def _start_paint(self) -> _Paint:
        width = self._view_width
        return _Paint(
            width=width,
            top=round(self.scroll_y),
            end=self._heights.total(self._count),
            cursor=self.cursor,
            blank=Strip.blank(width, self.card_styles.base),
        )

    def render_line(self, y: int) -> Strip:
        paint = self._paint or self._start_paint()
        if not self._count:
            return self._empty_line(y, paint.width)
        line = paint.top + y
        if line >= paint.end:
            return paint.blank
        index, row = self._heights.locate(line)
        if index != paint.index:
            layout = self._layout(index, paint.width)
            paint.index = index
            paint.strips = cursor_strips(layout, self.card_styles, separator=self.shape.separator) if index == paint.cursor else layout.strips
        return paint.strips[row] if row < len(paint.strips) else paint.blank

    def _empty_line(self, y: int, width: int) -> Strip:
        """The empty message, centred; each of its lines (split at newlines) on one."""
        styles = self.card_styles
        lines = self.empty_message.split("\n")
        row = y - self._view_height // 2
        if not 0 <= row < len(lines):
            return Strip.blank(width, styles.base)
        message = Text(one_line_safe(lines[row]), style=styles.empty)
        message.truncate(width, overflow="ellipsis")
        pad = max(0, (width - message.cell_len) // 2)
        return self._strip(Text(" " * pad) + message, width)

    def _layout(self, index: int, width: int) -> CardLayout:
        card = self._card(index)
        key = (width, card, card.paper_id in self.expanded)
        layout = self._layouts.get(key)
        if layout is None:
            layout = lay_out(card, width, expanded=key[2], styles=self.card_styles, console=self.app.console, shape=self.shape)
            self._layouts.set(key, layout)
        return layout

    def _strip(self, text: Text, width: int) -> Strip:
        """One line, exactly `width` cells, on the list's own style."""
        return to_strip(text, width, self.card_styles.base, self.app.console)
