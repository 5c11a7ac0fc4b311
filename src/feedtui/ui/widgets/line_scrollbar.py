"""The vertical scrollbar of feedtui's long lists, drawn with the Line API.

Textual's scrollbar hands a Rich renderable to the widget's style cache, which
renders it line by line again on every frame the list scrolls: 2–4 ms of a
frame at 48 rows, the largest single part of a `j` that scrolls. This one
draws the same segments (Textual's own `ScrollBarRender.render_bar`: the same
glyphs, colours and mouse actions) and turns each kind of line into a strip
once: a frame costs a lookup per row.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.scrollbar import ScrollBar
from textual.strip import Strip

# Kinds of line seen (track, thumb and the partial glyphs at its ends, in each
# colour state): a few dozen at most; past this the strips are made again.
_MAX_KINDS = 256


class LineScrollBar(ScrollBar):
    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical=vertical, name=name, thickness=thickness)
        self._strips: dict[tuple[Style, Segment], Strip] = {}

    def render_lines(self, crop: Region) -> list[Strip]:
        width, height = self.size
        if not self.vertical or not width or not height or self.opacity != 1:
            # Faded (a disabled or fading list): Textual's path blends the colours.
            return super().render_lines(crop)
        renderer = self.render()
        style = renderer.style
        segments = renderer.render_bar(
            size=height,
            virtual_size=renderer.virtual_size,
            window_size=renderer.window_size,
            position=renderer.position,
            thickness=width,
            vertical=True,
            back_color=style.bgcolor or Color.parse("#555555"),  # type: ignore[union-attr]
            bar_color=style.color or Color.parse("bright_magenta"),  # type: ignore[union-attr]
        ).segments
        # Under the bar's own colours, the widget's style, as Textual renders it.
        base = self.rich_style
        strips = self._strips
        if len(strips) > _MAX_KINDS:
            strips.clear()
        lines: list[Strip] = []
        for segment in segments[crop.y : crop.bottom]:
            key = (base, segment)
            strip = strips.get(key)
            if strip is None:
                text, style, control = segment
                styled = Segment(text, base + style if style else base, control)
                strip = strips[key] = Strip([styled], cell_len(text))
            lines.append(strip)
        if crop.x or crop.width < width:
            lines = [line.crop(crop.x, crop.right) for line in lines]
        filters = self.get_line_filters()
        if filters:
            _, background = self.background_colors
            for line_filter in filters:
                lines = [line.apply_filter(line_filter, background) for line in lines]
        return lines


class LineScrollBarMixin:
    """Gives a scrollable widget a `LineScrollBar` (list it before the widget
    class: it overrides Textual's `Widget.vertical_scrollbar`, taking the same
    steps as Textual 8.2 does for its own)."""

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:  # type: ignore[attr-defined]
            scroll_bar = LineScrollBar(vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)  # type: ignore[attr-defined]
            scroll_bar.display = False
            self._vertical_scrollbar = scroll_bar
            self.app._start_widget(self, scroll_bar)  # type: ignore[attr-defined]
        return self._vertical_scrollbar  # type: ignore[attr-defined]
