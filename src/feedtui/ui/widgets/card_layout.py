"""One paper card laid out into lines: the text of each row, and its strips.

A card is `CARD_HEIGHT` lines (an expanded one, more): header, title,
abstract, authors, affiliations, tags and a blank separator. `lay_out`
wraps and clamps the text once per (width, card data); `PaperList` caches
what it returns and only copies strips out of it while painting.

All text is untrusted, so every line is built from `rich.text.Text` pieces
(never markup) after control characters are removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from feedtui.search import highlight_pattern as search_highlight_pattern
from feedtui.text.sanitize import clean_block, strip_controls
from feedtui.ui.cards import COMFORTABLE, CardData, CardShape, byline

TITLE_LINES = COMFORTABLE.title_lines
ABSTRACT_LINES = COMFORTABLE.abstract_lines
# header, title, abstract, authors, affiliations, tags, blank separator
CARD_HEIGHT = COMFORTABLE.height  # the comfortable shape; PaperList.set_shape gives the list another

# Columns left of the text: the cursor bar, the unread marker, a space.
BAR_WIDTH = 1
INDENT = 2
RIGHT_MARGIN = 1
CURSOR_BAR = "▌"
# The day rule of a compact card: dashes around the day's name at least,
# and the cells its tags keep at least, or it is left out.
DAY_RULE_DASHES = 6
DAY_RULE_MIN_TAGS = 12
UNREAD_MARKER = "●"
STAR = "★"
# A card's "more like this" and "less like this" (For you's `+` and `-`).
MORE_LIKE = "+ more like this"
LESS_LIKE = "- less like this"
ELLIPSIS = "…"
TAG_GAP = "  "


class TagSpan(NamedTuple):
    """Where a tag was drawn on its card's tags row (widget columns, end exclusive)."""

    start: int
    end: int
    topic: str


class CardLayout:
    """A card laid out at one width: one strip per line, without the cursor bar.
    (Records on the way to the first paint are plain classes and NamedTuples:
    a dataclass's methods are compiled when its module is imported.)"""

    __slots__ = ("strips", "tag_row", "tags", "cursor_strips", "cursor_style", "author_row", "author_end")

    def __init__(
        self, strips: list[Strip], tag_row: int, tags: tuple[TagSpan, ...], author_row: int = -1, author_end: int = 0
    ) -> None:
        self.strips = strips
        self.tag_row = tag_row
        self.tags = tags
        self.cursor_strips: list[Strip] | None = None
        self.cursor_style: CardStyles | None = None  # the styles cursor_strips were made with
        self.author_row = author_row  # the line of the authors, for clicks
        self.author_end = author_end  # the widget column the authors' names end at


# What `strip_controls` removes: C0/C1 controls (tab and newline are
# whitespace here), DEL, bidi controls, zero-width and invisible characters.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)


def one_line_safe(text: str) -> str:
    """`text` on one line with no control characters.

    Card data is cleaned when it is stored (`clean_line`/`clean_block`,
    which also thin out floods of combining marks); this is the widget's own
    guard against control characters, with a fast path for the clean text it
    nearly always gets.
    """
    if _UNSAFE.search(text):
        text = strip_controls(text)
    return " ".join(text.split())


def highlight_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """Case-insensitive matches of `words` at the start of a word.

    A match runs on to the end of the word it starts, so `graph` highlights
    `graphs` and `Graph-based` (up to the hyphen) but not `paragraph`; a word
    of one or two characters only whole (`n` of `O(n^2)`); a
    Chinese, Japanese or Korean word is marked wherever it occurs, and only
    its own characters (see `feedtui.search.highlight_pattern`).
    """
    return search_highlight_pattern(one_line_safe(word) for word in words)


def around_first_match(text: str, pattern: re.Pattern[str], width: int, lines: int = ABSTRACT_LINES) -> str:
    """`text` as a card clamped to `lines` of `width` shows it, or, when its
    first match would fall past them, from a whole word about half a line
    before that match, after `…`: the reason an Ask found the paper is then
    on the card (a search result's snippet)."""
    found = pattern.search(text)
    # Words wrap early: a line holds somewhat less than `width` characters.
    if found is None or found.end() <= (lines * width * 3) // 4:
        return text
    start = text.rfind(" ", 0, max(0, found.start() - width // 2))
    if start <= 0:
        return text
    return ELLIPSIS + text[start + 1 :]


def clamp_lines(lines: list[Text], limit: int, width: int) -> list[Text]:
    """At most `limit` lines; the last one ends in `…` when text was cut."""
    if len(lines) <= limit:
        return lines
    kept = lines[:limit]
    last = kept[-1].copy()
    last.rstrip()
    last.append(ELLIPSIS)
    last.truncate(width, overflow="ellipsis")
    kept[-1] = last
    return kept


class CardStyles(NamedTuple):
    """Rich styles for the parts of a card, read from the component classes.

    Each part style carries only what its CSS rule sets (so a read card's
    colour can lie over a bold title), with colours blended the way Textual
    blends them for the widget's background.
    """

    base: Style
    date: Style
    title: Style
    abstract: Style
    authors: Style
    affiliations: Style
    tag: Style
    tag_current: Style
    unread_marker: Style
    star: Style
    highlight: Style
    read: Style
    cursor: Style
    cursor_blurred: Style
    empty: Style

    @classmethod
    def from_widget(cls, widget: Widget) -> CardStyles:
        """The styles of `widget`'s `paper-list--*` component classes."""
        def part(name: str) -> Style:
            full = widget.get_component_rich_style(f"paper-list--{name}")
            declared = widget.get_component_rich_style(f"paper-list--{name}", partial=True)
            return declared.without_color + Style(
                color=full.color if declared.color is not None else None,
                bgcolor=full.bgcolor if declared.bgcolor is not None else None,
            )

        names = [field for field in cls._fields if field != "base"]
        return cls(base=widget.rich_style, **{name: part(name.replace("_", "-")) for name in names})


def to_strip(text: Text, width: int, base: Style, console: Console) -> Strip:
    """One line, exactly `width` cells, on the list's own style `base`."""
    segments = Segment.apply_style(text.render(console), style=base)
    return Strip(segments, text.cell_len).crop_extend(0, width, base).simplify()


def lay_out(
    card: CardData, width: int, *, expanded: bool, styles: CardStyles, console: Console, shape: CardShape = COMFORTABLE
) -> CardLayout:
    """Lay out one card at `width` columns (the bar column included), in `shape` (the density)."""
    text_width = max(1, width - BAR_WIDTH - INDENT - RIGHT_MARGIN)
    pattern = highlight_pattern(card.highlight) if card.highlight else None

    def marked(plain: str, style: Style) -> Text:
        text = Text(plain, style=style)
        if pattern is not None:
            text.highlight_regex(pattern, style=styles.highlight)
        return text

    def single(plain: str, style: Style, *, mark: bool = False) -> Text:
        text = marked(one_line_safe(plain), style) if mark else Text(one_line_safe(plain), style=style)
        text.truncate(text_width, overflow="ellipsis")
        return text

    header = Text(" " if card.read else UNREAD_MARKER, style=styles.unread_marker)
    header.append(" ")
    heading = single(card.header, styles.date)
    if card.new:  # came since the previous session
        heading.append(" · new", style=styles.unread_marker)
    if card.feedback:  # the user's + or - (more or less like this)
        heading.append(f" · {MORE_LIKE if card.feedback > 0 else LESS_LIKE}", style=styles.star)
    if card.why:  # For you: why the paper is there
        heading.append(" · ")
        heading.append(marked(one_line_safe(card.why), styles.date))
    heading.truncate(text_width, overflow="ellipsis")
    if card.starred:
        heading.truncate(max(0, text_width - 2), overflow="ellipsis")
        heading.append(" ")
        heading.append(STAR, style=styles.star)
    header.append(heading)

    title = marked(one_line_safe(card.title), styles.title)
    # A word longer than the line ends in … rather than being broken.
    title_lines = clamp_lines(list(title.wrap(console, text_width, overflow="ellipsis")), shape.title_lines, text_width)
    # A compact card's abstract has the lines its title leaves.
    abstract_room = shape.text_lines - len(title_lines) if shape.fill else shape.abstract_lines

    if expanded:
        abstract_plain = clean_block(card.abstract, html_allowed=False)
    else:
        abstract_plain = one_line_safe(card.abstract) if abstract_room else ""
        if abstract_plain and pattern is not None and not pattern.search(card.title):
            abstract_plain = around_first_match(abstract_plain, pattern, text_width, abstract_room)
    abstract = marked(abstract_plain, styles.abstract)
    abstract_lines = list(abstract.wrap(console, text_width, overflow="ellipsis")) if abstract_plain else []
    if not expanded:
        abstract_lines = clamp_lines(abstract_lines, abstract_room, text_width)

    # A compact card has no line after it: the last card of a day names the
    # next day on its tags line instead, in a rule to the line's end.
    rule_room = day_rule_room(card.day_after, text_width) if not shape.separator else 0
    tags_line, tag_spans = _tags_line(card, text_width - rule_room, styles)
    if rule_room:
        if tags_line.cell_len:
            tags_line.append(" ")
        tags_line.append(day_rule(card.day_after, text_width - tags_line.cell_len), style=styles.date)

    rows: list[Text] = [header]
    rows += title_lines if shape.fill else _padded(title_lines, shape.title_lines)
    rows += _padded(abstract_lines, abstract_room)
    author_row = len(rows)
    if shape.affiliations:
        rows.append(single(card.authors, styles.authors, mark=True))
        rows.append(single(card.affiliations, styles.affiliations, mark=True))
    else:
        rows.append(single(byline(card), styles.authors, mark=True))
    rows.append(tags_line)
    tag_row = len(rows) - 1
    if shape.separator:
        # The line between cards; between two days' cards it names the next day.
        rows.append(Text(f"── {card.day_after} ".ljust(text_width, "─"), style=styles.date) if card.day_after else Text())

    strips: list[Strip] = []
    for number, row in enumerate(rows):
        line = Text(" " * (BAR_WIDTH if number == 0 else BAR_WIDTH + INDENT))
        line.append(row)
        if card.read:
            line.stylize(styles.read, BAR_WIDTH)
        strips.append(to_strip(line, width, styles.base, console))
    authors_end = BAR_WIDTH + INDENT + rows[author_row].cell_len if card.authors else 0
    return CardLayout(strips=strips, tag_row=tag_row, tags=tag_spans, author_row=author_row, author_end=authors_end)


def day_rule_room(day: str, text_width: int) -> int:
    """The cells a compact card's tags line leaves to the rule naming the
    next `day` (none without one, or on a line too narrow for it and a tag)."""
    if not day:
        return 0
    room = len(day) + DAY_RULE_DASHES + 1  # the rule, and a space before it
    return room if text_width - room >= DAY_RULE_MIN_TAGS else 0


def day_rule(day: str, width: int) -> str:
    """`──── Tue Nov 24 ──`, `width` cells, the day's name near its end."""
    label = f" {day} ──"
    return "─" * max(0, width - len(label)) + label


def _tags_line(card: CardData, text_width: int, styles: CardStyles) -> tuple[Text, tuple[TagSpan, ...]]:
    """The tags row and where each tag landed, for clicks.

    Tags that do not fit are counted in a final `+N`; a first tag too
    long for the row is cut with `…`.
    """
    line = Text()
    spans: list[TagSpan] = []
    left = BAR_WIDTH + INDENT
    for position, topic in enumerate(card.tags):
        piece = Text(one_line_safe(topic), style=styles.tag)
        remaining = len(card.tags) - position - 1
        more = cell_len(f"{TAG_GAP}+{remaining}") if remaining else 0
        gap = len(TAG_GAP) if spans else 0
        room = text_width - line.cell_len - gap
        if piece.cell_len + more > room:
            if spans:
                line.append(f"{TAG_GAP}+{remaining + 1}", style=styles.tag)
                break
            piece.truncate(max(1, room - more), overflow="ellipsis")
        if gap:
            line.append(TAG_GAP)
        if topic == card.current_topic:
            piece.stylize(styles.tag_current)
        start = line.cell_len
        line.append(piece)
        spans.append(TagSpan(left + start, left + line.cell_len, topic))
    return line, tuple(spans)


def cursor_strips(layout: CardLayout, styles: CardStyles, *, separator: bool = True) -> list[Strip]:
    """The card's lines with the cursor bar, and the cursor's background
    behind everything that has the list's own background (kept on `layout`
    until the styles change)."""
    if layout.cursor_strips is None or layout.cursor_style is not styles:
        plain_background = styles.base.bgcolor
        tint = Style(bgcolor=styles.cursor.bgcolor)
        bar = Segment(CURSOR_BAR, styles.base + Style(color=styles.cursor.color, bgcolor=styles.cursor.bgcolor))

        def tinted(segment: Segment) -> Segment:
            segment_style = segment.style or Style()
            if segment_style.bgcolor not in (None, plain_background):
                return segment
            return Segment(segment.text, segment_style + tint, segment.control)

        # The line between cards (when the shape has one) takes no cursor.
        card_strips = layout.strips[:-1] if separator else layout.strips
        layout.cursor_strips = [
            Strip([bar, *map(tinted, strip.crop(BAR_WIDTH))], strip.cell_length) for strip in card_strips
        ]
        layout.cursor_strips += layout.strips[len(card_strips) :]
        layout.cursor_style = styles
    return layout.cursor_strips


def _padded(lines: list[Text], count: int) -> list[Text]:
    """`lines`, with blank lines added to reach at least `count`."""
    return lines + [Text() for _ in range(count - len(lines))]
