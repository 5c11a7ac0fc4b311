from __future__ import annotations

import pytest
from rich.text import Text

from feedtui.ui.widgets.sparkline import BASELINE, LEVELS, spark_text, sparkline


def test_one_character_per_count_without_a_width():
    assert len(sparkline([1, 2, 3, 4, 5])) == 5


def test_all_zero_weeks_are_a_flat_baseline():
    assert sparkline([0] * 12) == BASELINE * 12


def test_zero_weeks_are_baseline_and_any_paper_rises_above_it():
    line = sparkline([0, 1, 0, 1000])
    assert line[0] == BASELINE and line[2] == BASELINE
    assert line[1] == LEVELS[0]
    assert line[1] != BASELINE


def test_one_spike_is_the_full_block_and_the_rest_baseline():
    assert sparkline([0, 0, 0, 7, 0, 0]) == "▁▁▁█▁▁"


def test_equal_values_are_all_at_the_top():
    assert sparkline([4, 4, 4, 4]) == "████"


def test_half_the_busiest_week_is_about_half_height():
    assert sparkline([5, 10]) == "▅█"


def test_scaled_to_the_busiest_week():
    assert sparkline([1, 2, 3, 4, 5, 6, 7]) == "▂▃▄▅▆▇█"
    assert sparkline([10, 20, 30, 40, 50, 60, 70]) == "▂▃▄▅▆▇█"
    assert sparkline([35, 70]) == "▅█"


def test_a_single_week():
    assert sparkline([3]) == "█"
    assert sparkline([0]) == BASELINE


def test_narrower_width_averages_neighbouring_weeks():
    # 12 weeks into 6 columns: pairs averaged: 0, 0, 0, 0, 1, 8 (peak).
    line = sparkline([0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 8, 8], width=6)
    assert line == BASELINE * 4 + "▂█"


def test_narrower_width_keeps_the_peak_full():
    line = sparkline([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], width=4)
    assert len(line) == 4
    assert line[-1] == "█"
    assert list(line) == sorted(line, key=LEVELS.index)


def test_wider_width_repeats_each_week():
    assert sparkline([0, 5], width=8) == BASELINE * 4 + "█" * 4
    assert sparkline([1, 2, 4], width=6) == "▃▃▅▅██"


def test_width_not_a_multiple_still_fills_exactly():
    for width in range(1, 30):
        assert len(sparkline(list(range(12)), width=width)) == width


def test_zero_width_and_no_counts():
    assert sparkline([1, 2, 3], width=0) == ""
    assert sparkline([]) == ""
    assert sparkline([], width=3) == BASELINE * 3


def test_negative_counts_are_refused_with_a_message():
    with pytest.raises(ValueError, match="negative"):
        sparkline([1, -2, 3])


def test_spark_text_is_plain_styled_text():
    text = spark_text([0, 2, 4], style="bold")
    assert isinstance(text, Text)
    assert text.plain == "▁▅█"
    assert str(text.style) == "bold"
    assert text.spans == []
