"""The OPML merge rules on plain data: which topic an imported one joins, and under what name."""

from __future__ import annotations

from feedtui.core.opml_merge import (
    FEEDS_SUFFIX,
    AddAs,
    AlreadyHere,
    Holder,
    MergeInto,
    free_name,
    merged_feeds,
    place_topic,
)
from feedtui.topics.names import MAX_TOPIC_NAME

READING_LIST = Holder("★ Starred", None)


def holders(*topics: Holder, reading_list: bool = True):
    """A `holder_of` over these topics (names compared case aside, as the engine does)."""
    by_key = {topic.name.casefold(): topic for topic in topics}

    def holder_of(name: str) -> Holder | None:
        if reading_list and name.casefold() in ("starred", "★ starred"):
            return READING_LIST
        return by_key.get(name.casefold())

    return holder_of


def test_a_new_name_is_added_as_it_is():
    assert place_topic("Lab blog", ("https://a.example.org/rss",), holders()) == AddAs("Lab blog", None)


def test_a_topic_with_feeds_gains_only_the_feeds_it_lacks_after_its_own():
    lab = Holder("Lab Blog", ("https://a.example.org/rss", "https://b.example.org/rss"))
    placed = place_topic("lab blog", ("https://c.example.org/rss", "https://a.example.org/rss"), holders(lab))
    assert placed == MergeInto("Lab Blog", ("https://a.example.org/rss", "https://b.example.org/rss", "https://c.example.org/rss"), 1)


def test_a_topic_that_has_every_feed_already_is_left_alone():
    lab = Holder("Lab blog", ("https://a.example.org/rss", "https://b.example.org/rss"))
    assert place_topic("Lab blog", ("https://b.example.org/rss",), holders(lab)) == AlreadyHere("Lab blog")


def test_a_name_held_by_a_query_topic_sends_the_feeds_to_a_feeds_topic():
    query_topic = Holder("Edge Inference", ())
    assert place_topic("edge inference", ("https://a.example.org/rss",), holders(query_topic)) == AddAs(
        "edge inference (feeds)", query_topic
    )


def test_the_reading_lists_name_is_never_taken_by_an_import():
    assert place_topic("Starred", ("https://a.example.org/rss",), holders()) == AddAs("Starred (feeds)", READING_LIST)


def test_a_second_import_joins_the_feeds_topic_made_by_the_first():
    """Not `NAME (feeds) 2` at every import of the same file."""
    query_topic = Holder("Edge Inference", ())
    first = Holder("Edge Inference (feeds)", ("https://a.example.org/rss",))
    lookup = holders(query_topic, first)
    assert place_topic("Edge Inference", ("https://a.example.org/rss",), lookup) == AlreadyHere("Edge Inference (feeds)")
    assert place_topic("Edge Inference", ("https://b.example.org/rss",), lookup) == MergeInto(
        "Edge Inference (feeds)", ("https://a.example.org/rss", "https://b.example.org/rss"), 1
    )


def test_a_feeds_name_held_by_a_topic_without_feeds_takes_the_next_number():
    query_topic, also_query = Holder("Edge Inference", ()), Holder("Edge Inference (feeds)", ())
    placed = place_topic("Edge Inference", ("https://a.example.org/rss",), holders(query_topic, also_query))
    assert placed == AddAs("Edge Inference (feeds) 2", query_topic)


def test_a_long_name_is_cut_to_leave_room_for_the_suffix():
    name = "W" * MAX_TOPIC_NAME
    taken = {name.casefold(), free_name(name, lambda _: False).casefold()}
    second = free_name(name, lambda candidate: candidate.casefold() in taken)
    assert len(second) <= MAX_TOPIC_NAME and second.endswith(f"…{FEEDS_SUFFIX} 2")


def test_merged_feeds_keep_the_order_and_each_feed_once():
    assert merged_feeds(("a", "b"), ("b", "c", "a", "c")) == ("a", "b", "c")
