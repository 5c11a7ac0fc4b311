"""A topic's weekly counts as a one-line sparkline string, for the sidebar rows.

Textual's own `Sparkline` is a widget; a sidebar row of an `OptionList` needs
plain text, so this module draws the line as a string (`sparkline`) or a
styled `rich.text.Text` (`spark_text`).

A week with no papers is drawn as the baseline `▁` and every week with papers
as one of `▂▃▄▅▆▇█`, scaled to the busiest week: a quiet week is never
mistaken for an empty one, and a topic with no papers at all is a flat
baseline rather than a blank gap in the row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

BASELINE = "▁"
LEVELS = "▂▃▄▅▆▇█"


def sparkline(counts: Sequence[float], width: int | None = None) -> str:
    """The counts as one character each, or resampled to `width` characters.

    Resampling averages the counts that fall into each character (narrower) or
    repeats them (wider), so a 12-week line fits any width. No counts give an
    all-baseline line of `width` (or an empty string without a width).
    Negative counts raise ValueError.
    """
    if any(count < 0 for count in counts):
        raise ValueError(f"sparkline counts must not be negative: {list(counts)!r}")
    columns = len(counts) if width is None else max(0, width)
    if not counts:
        return BASELINE * columns
    values = _resample(counts, columns)
    peak = max(values, default=0)
    return "".join(_glyph(value, peak) for value in values)


def spark_text(counts: Sequence[float], width: int | None = None, style: str | Style = "") -> Text:
    """`sparkline` as a `Text` in one style (never parsed as markup)."""
    return Text(sparkline(counts, width), style=style, no_wrap=True, end="")


def _resample(counts: Sequence[float], columns: int) -> list[float]:
    """Column i shows the mean of the counts it covers, [i*n//columns, (i+1)*n//columns)."""
    size = len(counts)
    if columns == size:
        return [float(count) for count in counts]
    values = []
    for column in range(columns):
        start = column * size // columns
        end = max(start + 1, (column + 1) * size // columns)
        chunk = counts[start:end]
        values.append(sum(chunk) / len(chunk))
    return values


def _glyph(value: float, peak: float) -> str:
    if value <= 0 or peak <= 0:
        return BASELINE
    # (0, peak] split into len(LEVELS) equal bins; the peak is the full block.
    level = math.ceil(value / peak * len(LEVELS)) - 1
    return LEVELS[min(len(LEVELS) - 1, max(0, level))]
