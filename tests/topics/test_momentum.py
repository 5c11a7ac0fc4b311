from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from feedtui.topics.momentum import (
    Momentum,
    Week,
    compute_momentum,
    compute_momentum_at,
    counted_since,
    format_share,
    momentum_sentence,
    render_text_chart,
    sort_trending,
    trending_score,
    week_start,
)


def ts(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    """Epoch seconds of a UTC wall-clock time, computed independently of the module."""
    return calendar.timegm((year, month, day, hour, minute, second))


# Thursday 1 October 2026, noon UTC: its week starts Monday 28 September.
AS_OF = ts(2026, 10, 1, 12)


def counts(momentum: Momentum) -> list[int]:
    return [week.count for week in momentum.weeks]


def test_twelve_monday_weeks_oldest_first_with_the_model_labels():
    momentum = compute_momentum([], AS_OF)
    assert [week.start for week in momentum.weeks] == [date(2026, 7, 13) + timedelta(weeks=i) for i in range(12)]
    assert all(week.start.weekday() == 0 for week in momentum.weeks)
    assert momentum.first_label == "Jul 13"
    assert momentum.last_label == "Week of Sep 28"


def test_sunday_one_second_before_midnight_belongs_to_the_previous_week():
    momentum = compute_momentum([ts(2026, 9, 27, 23, 59, 59), ts(2026, 9, 28, 0, 0, 0)], AS_OF)
    assert counts(momentum) == [0] * 10 + [1, 1]


def test_sunday_2359_utc_and_monday_midnight_across_older_weeks():
    papers = [ts(2026, 7, 19, 23, 59), ts(2026, 7, 20, 0, 0), ts(2026, 7, 13, 0, 0)]
    assert counts(compute_momentum(papers, AS_OF))[:3] == [2, 1, 0]


def test_last4_and_prev4_edges_are_exclusive_below_and_inclusive_above():
    edge28 = AS_OF - 28 * 86_400  # 2026-09-03T12:00:00Z
    edge56 = AS_OF - 56 * 86_400  # 2026-08-06T12:00:00Z
    assert edge28 == ts(2026, 9, 3, 12) and edge56 == ts(2026, 8, 6, 12)
    papers = [
        AS_OF,  # last4: the window includes as_of itself
        edge28 + 1,  # last4
        edge28,  # prev4: exactly 28 days old
        edge56 + 1,  # prev4
        edge56,  # neither: exactly 56 days old
    ]
    momentum = compute_momentum(papers, AS_OF)
    assert (momentum.last4, momentum.prev4) == (2, 2)


def test_papers_after_as_of_are_not_counted_anywhere():
    momentum = compute_momentum([AS_OF + 1, ts(2026, 10, 2), ts(2026, 12, 1)], AS_OF)
    assert (momentum.last4, momentum.prev4) == (0, 0)
    assert sum(counts(momentum)) == 0


def test_as_of_in_the_middle_of_a_week_counts_a_partial_current_week():
    as_of = ts(2026, 9, 30, 12)  # Wednesday
    papers = [
        ts(2026, 9, 28, 9),  # Monday of the current week
        ts(2026, 9, 30, 11, 59, 59),
        ts(2026, 9, 30, 12),  # exactly as_of: counted
        ts(2026, 9, 30, 12, 0, 1),  # after as_of: not counted
        ts(2026, 10, 2),  # later in the same week: not counted
        ts(2026, 9, 25),  # Friday before: the previous week
    ]
    momentum = compute_momentum(papers, as_of)
    assert momentum.weeks[-1] == Week(date(2026, 9, 28), 3)
    assert momentum.weeks[-2] == Week(date(2026, 9, 21), 1)
    assert momentum.last4 == 4


def test_as_of_on_monday_midnight_starts_a_new_week():
    as_of = ts(2026, 9, 28)
    momentum = compute_momentum([ts(2026, 9, 27, 23, 59, 59), as_of], as_of)
    assert momentum.weeks[-1] == Week(date(2026, 9, 28), 1)
    assert momentum.weeks[-2] == Week(date(2026, 9, 21), 1)
    assert momentum.weeks[0].start == date(2026, 7, 13)


def test_leap_day_2028():
    as_of = ts(2028, 3, 1)  # Wednesday; 28 days earlier is 2 February in a leap year
    papers = [
        ts(2028, 2, 29, 10),  # leap day: the current week (from Monday 28 February)
        ts(2028, 2, 2, 0, 0, 1),  # last4
        ts(2028, 2, 2),  # exactly 28 days: prev4
        ts(2028, 2, 1, 23, 59),  # prev4
        ts(2028, 1, 5),  # exactly 56 days: neither window
    ]
    momentum = compute_momentum(papers, as_of)
    assert (momentum.last4, momentum.prev4) == (2, 2)
    assert momentum.weeks[-1] == Week(date(2028, 2, 28), 1)
    assert momentum.first_label == "Dec 13"
    assert momentum.last_label == "Week of Feb 28"
    # 2 Feb 2028 is a Wednesday in the week of 31 January; 5 Jan in the week of 3 January.
    by_start = {week.start: week.count for week in momentum.weeks}
    assert by_start[date(2028, 1, 31)] == 3
    assert by_start[date(2028, 1, 3)] == 1


def test_papers_older_than_twelve_weeks_are_outside_the_chart_and_the_windows():
    papers = [ts(2026, 7, 12, 23, 59, 59), ts(2026, 5, 1), ts(2026, 7, 13), ts(2026, 8, 7)]
    momentum = compute_momentum(papers, AS_OF)
    assert sum(counts(momentum)) == 2
    assert momentum.weeks[0].count == 1
    assert (momentum.last4, momentum.prev4) == (0, 1)


def test_counted_since_is_the_start_of_the_oldest_week_shown():
    # AS_OF's week starts Monday 28 September; eleven weeks before is 13 July.
    assert counted_since(AS_OF) == ts(2026, 7, 13)
    on_the_edge = compute_momentum([ts(2026, 7, 13)], AS_OF)
    assert on_the_edge.weeks[0].count == 1


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.integers(AS_OF - 30 * 86_400, AS_OF + 30 * 86_400),
        # Monday 00:00 and the seconds around it: the week grid moves there.
        st.integers(-5, 5).flatmap(lambda week: st.integers(-2, 2).map(lambda s: week_start(AS_OF) + week * 7 * 86_400 + s)),
    ),
    st.lists(st.integers(-120 * 86_400, 10 * 86_400), max_size=40),
    st.lists(st.integers(-2, 2), max_size=6),
)
@example(as_of=ts(2026, 10, 4, 20), offsets=[], nudges=[-7 * 86_400])  # a Sunday evening
def test_papers_before_counted_since_can_be_left_out(as_of, offsets, nudges):
    """What the library relies on to read only a topic's recent papers."""
    since = counted_since(as_of)
    edges = [since, week_start(as_of), as_of - 56 * 86_400, as_of - 28 * 86_400, as_of]
    papers = [as_of + offset for offset in offsets] + [edge + nudge for edge in edges for nudge in nudges]
    kept = [p for p in papers if p >= since]
    assert compute_momentum(kept, as_of, total_new=500) == compute_momentum(papers, as_of, total_new=500)


def test_input_order_does_not_matter():
    papers = [AS_OF - k * 40_000 for k in range(300)]
    assert compute_momentum(papers, AS_OF) == compute_momentum(list(reversed(papers)), AS_OF)


def test_empty_topic():
    momentum = compute_momentum([], AS_OF, total_new=None)
    assert momentum.sentence == "0 papers in the last four weeks, against 0 the four weeks before."
    assert (momentum.last4, momentum.prev4, momentum.share, momentum.share_of) == (0, 0, None, None)
    assert counts(momentum) == [0] * 12


def test_empty_topic_with_known_denominator_has_zero_share():
    momentum = compute_momentum([], AS_OF, total_new=4000, share_of="arxiv")
    assert momentum.share == 0.0
    assert momentum.sentence == "0 papers in the last four weeks, against 0 the four weeks before. 0% of all new papers."


def test_model_page_sentence():
    papers = [AS_OF - day * 86_400 for day in (1, 3, 5, 8, 13, 20)] + [AS_OF - 40 * 86_400]
    momentum = compute_momentum(papers, AS_OF, total_new=6000, share_of="arxiv")
    assert momentum.sentence == (
        "6 papers in the last four weeks, against 1 the four weeks before. 0.1% of all new papers."
    )
    assert momentum.share == pytest.approx(0.001)
    assert momentum.share_of == "arxiv"


def test_singular_and_small_share():
    momentum = compute_momentum([AS_OF - 3600], AS_OF, total_new=2000)
    assert momentum.sentence == (
        "1 paper in the last four weeks, against 0 the four weeks before. <0.1% of the papers in your cache."
    )
    assert momentum.share_of == "cache"


def test_plural_for_prev4_never_changes_wording():
    assert momentum_sentence(2, 1, None) == "2 papers in the last four weeks, against 1 the four weeks before."


def test_unknown_or_zero_denominator_omits_the_share():
    for total in (None, 0):
        momentum = compute_momentum([AS_OF - 10], AS_OF, total_new=total, share_of="arxiv")
        assert momentum.share is None and momentum.share_of is None
        assert momentum.sentence == "1 paper in the last four weeks, against 0 the four weeks before."


def test_denominator_below_numerator_is_capped_at_all_of_them():
    momentum = compute_momentum([AS_OF - 10, AS_OF - 20, AS_OF - 30], AS_OF, total_new=2)
    assert momentum.share == 1.0
    assert momentum.sentence.endswith(" 100% of the papers in your cache.")


def test_unknown_share_provenance_is_rejected():
    with pytest.raises(ValueError, match="share_of"):
        compute_momentum([], AS_OF, total_new=10, share_of="web")


@pytest.mark.parametrize(
    ("share", "text"),
    [
        (0.0, "0%"),
        (0.0004, "<0.1%"),
        (0.000999, "<0.1%"),
        (0.001, "0.1%"),
        (0.0014, "0.1%"),
        (0.025, "2.5%"),
        (0.05, "5.0%"),
        (0.0996, "10%"),
        (0.12, "12%"),
        (0.125, "13%"),
        (0.997, "99%"),
        (1.0, "100%"),
    ],
)
def test_share_formatting(share, text):
    assert format_share(share) == text


def test_to_json_shape():
    momentum = compute_momentum([ts(2026, 7, 14), ts(2026, 7, 15), ts(2026, 9, 30)], AS_OF, total_new=100)
    data = momentum.to_json()
    assert set(data) == {"last4", "prev4", "trending", "share", "share_of", "sentence", "hidden", "weeks"}
    assert data["weeks"][0] == {"start": "2026-07-13", "count": 2}
    assert data["weeks"][-1] == {"start": "2026-09-28", "count": 1}
    assert len(data["weeks"]) == 12
    assert (data["last4"], data["prev4"], data["share"], data["share_of"]) == (1, 0, 0.01, "cache")
    assert data["trending"] == momentum.score == trending_score(1, 0)


def test_datetime_wrapper_converts_offsets_and_reads_naive_times_as_utc():
    plus_two = timezone(timedelta(hours=2))
    as_of = datetime(2026, 10, 1, 12, tzinfo=timezone.utc)
    papers = [
        datetime(2026, 9, 28, 1, 0, tzinfo=plus_two),  # 27 Sep 23:00 UTC: previous week
        datetime(2026, 9, 28, 0, 30),  # naive: taken as UTC, current week
    ]
    momentum = compute_momentum_at(papers, as_of)
    assert counts(momentum)[-2:] == [1, 1]
    assert momentum == compute_momentum([ts(2026, 9, 27, 23), ts(2026, 9, 28, 0, 30)], AS_OF)


def test_trending_order_on_hand_built_topics():
    def momentum(last4: int, prev4: int) -> Momentum:
        return Momentum(weeks=(), last4=last4, prev4=prev4, share=None, share_of=None, sentence="")

    topics = [
        ("one from nothing", momentum(1, 0)),  # 1/sqrt(5)   = 0.45
        ("falling", momentum(40, 60)),  # -20/sqrt(104) = -1.96
        ("flat", momentum(3, 3)),  # 0
        ("big rise", momentum(60, 40)),  # 20/sqrt(104) = 1.96
        ("silent", momentum(0, 0)),  # 0, fewer papers than "flat"
        ("five from nothing", momentum(5, 0)),  # 5/3 = 1.67
        ("doubling", momentum(25, 10)),  # 15/sqrt(39) = 2.40
    ]
    assert sort_trending(topics) == [
        "doubling",
        "big rise",
        "five from nothing",
        "one from nothing",
        "flat",
        "silent",
        "falling",
    ]
    assert trending_score(1, 0) < trending_score(60, 40)
    assert trending_score(60, 40) == pytest.approx(20 / 104**0.5)


def test_text_chart_bars_counts_and_labels():
    papers = [ts(2026, 7, 14)] * 4 + [ts(2026, 8, 4)] + [ts(2026, 9, 29)] * 8
    momentum = compute_momentum(papers, AS_OF)
    lines = render_text_chart(momentum, width=36, height=4)
    assert len(lines) == 6
    bars, count_row, labels = lines[:4], lines[4], lines[5]
    assert count_row.split() == [str(c) for c in counts(momentum)]
    assert count_row.split() == ["4", "0", "0", "1"] + ["0"] * 7 + ["8"]
    assert labels.startswith("Jul 13 ") and labels.endswith("Week of Sep 28")
    slot = 3
    column = lambda index: "".join(line.ljust(36)[index * slot] for line in bars)  # noqa: E731
    assert column(11) == "████"  # the busiest week fills the height
    assert column(0) == "  ██"  # 4 of 8: half the height
    assert column(1) == "    "  # an empty week draws nothing
    assert column(3) == "   ▄"  # 1 of 8 is one eighth of 32 = 4 eighths, the bottom cell half full
    assert all(line == line.rstrip() for line in lines)


def test_text_chart_widens_for_big_counts_and_handles_an_empty_topic():
    big = compute_momentum([AS_OF - 5] * 12345, AS_OF)
    lines = render_text_chart(big, width=12, height=3)
    assert lines[3].split()[-1] == "12,345"
    assert lines[3].index("12,345") == 11 * 7
    # No bars to draw: the counts and dates alone, not three blank lines over them.
    empty = render_text_chart(compute_momentum([], AS_OF), width=40, height=3)
    assert len(empty) == 2
    assert empty[0].split() == ["0"] * 12
    assert empty[1].startswith("Jul 13 ") and empty[1].endswith("Week of Sep 28")


def test_a_share_says_what_it_is_a_share_of():
    """With the share taken from the cache the sentence said "of all new papers"."""
    papers = [AS_OF - day * 86_400 for day in (1, 3, 5)]
    from_arxiv = compute_momentum(papers, AS_OF, total_new=3000, share_of="arxiv")
    from_cache = compute_momentum(papers, AS_OF, total_new=3, share_of="cache")
    assert from_arxiv.sentence.endswith(" 0.1% of all new papers.")
    assert from_cache.sentence.endswith(" 100% of the papers in your cache.")
    assert "all new papers" not in from_cache.sentence
