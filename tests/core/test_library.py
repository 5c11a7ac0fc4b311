from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from feedtui.core.library import Library
from feedtui.store.codec import card_row

from tests.factories import make_paper


def rows(*specs, estimated=()):
    out = {}
    for pid, published in specs:
        paper = make_paper(pid, published=published, date_estimated=pid in estimated)
        out[pid] = card_row(paper, "2026-11-01T00:00:00+00:00", "w")
    return out


def assert_consistent(library: Library) -> None:
    """What the library's fast paths rely on, checked from scratch."""
    assert library.published_at == [row.published for row in library.rows]
    assert library.estimated == {i for i, row in enumerate(library.rows) if row.estimated}
    for topic, members in library.members.items():
        assert members == sorted(set(members), key=lambda i: (-library.published_at[i], i))
        for position, tags in enumerate(library.tags):
            assert tags.count(topic) == (position in members)


def epoch(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())


def test_members_are_newest_first_and_unread_counts_follow_marks():
    read: dict = {}
    library = Library(rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00"), ("c", "2026-08-01T00:00:00")), lambda: read)
    library.set_members("T", ["a", "b", "c", "unknown"])
    assert [library.ids[i] for i in library.topic_positions("T")] == ["b", "a", "c"]
    assert library.unread_count("T") == 3
    read["b"] = {}
    library.read_changed(["b"], True)
    assert library.unread_count("T") == 2
    library.recount()
    assert library.unread_count("T") == 2
    assert_consistent(library)


def test_update_tags_moves_papers_between_topics_and_keeps_other_topics():
    read: dict = {}
    library = Library(rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00")), lambda: read)
    library.set_members("T", ["a"])
    library.set_members("Other", ["a"])
    library.upsert_rows(rows(("c", "2026-11-01T00:00:00")))
    changed = library.update_tags(["a", "c"], {"T": {"c"}, "U": {"a", "c"}})
    assert changed == {"T", "U"}
    assert [library.ids[i] for i in library.topic_positions("T")] == ["c"]
    assert [library.ids[i] for i in library.topic_positions("U")] == ["c", "a"]
    # "Other" was not judged: a keeps it.
    assert library.tags_of(library.pos["a"]) == ("Other", "U")
    assert library.unread_count("U") == 2 and library.unread_count("T") == 1
    assert_consistent(library)


def test_a_changed_date_resorts_the_topics_of_that_paper():
    library = Library(rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00")), dict)
    library.set_members("T", ["a", "b"])
    library.upsert_rows(rows(("a", "2026-11-01T00:00:00")))
    assert [library.ids[i] for i in library.topic_positions("T")] == ["a", "b"]
    assert_consistent(library)


def test_published_is_newest_first_without_guessed_dates_and_stops_at_since():
    library = Library(
        rows(
            ("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00"), ("c", "2026-08-01T00:00:00"),
            ("d", "2026-10-15T00:00:00"), ("e", "2026-09-01T00:00:00"),
            estimated={"d"},
        ),
        dict,
    )
    library.set_members("T", ["a", "b", "c", "d", "e"])
    sept, aug, oct1 = epoch("2026-09-01T00:00:00"), epoch("2026-08-01T00:00:00"), epoch("2026-10-01T00:00:00")
    assert library.published("T") == [oct1, sept, sept, aug]
    assert library.published("T", since=sept) == [oct1, sept, sept]
    assert library.published("T", since=sept + 1) == [oct1]
    assert library.published("T", since=epoch("2026-12-01T00:00:00")) == []
    assert library.published("unknown", since=sept) == []
    assert sorted(library.all_published()) == [aug, sept, sept, oct1]
    assert_consistent(library)


def test_a_date_that_becomes_exact_or_a_guess_moves_in_and_out_of_published():
    library = Library(rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00"), estimated={"a"}), dict)
    library.set_members("T", ["a", "b"])
    assert library.published("T") == [epoch("2026-10-01T00:00:00")]
    library.upsert_rows(rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00"), estimated={"b"}))
    assert library.published("T") == [epoch("2026-09-01T00:00:00")]
    library.upsert_rows(rows(("c", "2026-11-01T00:00:00"), estimated={"c"}))
    library.set_members("T", ["a", "b", "c"])
    assert library.published("T") == [epoch("2026-09-01T00:00:00")]
    assert library.all_published() == [epoch("2026-09-01T00:00:00")]
    assert_consistent(library)


def test_setting_a_topic_again_tags_each_paper_once():
    library = Library(rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00"), ("c", "2026-11-01T00:00:00")), dict)
    library.set_members("Other", ["b"])
    library.set_members("T", ["a", "b"])
    library.set_members("T", ["b", "c"])
    assert [library.tags[library.pos[pid]] for pid in "abc"] == [(), ("Other", "T"), ("T",)]
    assert [library.ids[i] for i in library.topic_positions("T")] == ["c", "b"]
    assert_consistent(library)


IDS = "abcdefgh"
DATES = [f"2026-{month:02d}-{day:02d}T00:00:00" for month in (8, 9, 10) for day in (1, 15)]
TOPICS = ("T", "U", "V")
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("upsert"), st.lists(st.tuples(st.sampled_from(IDS), st.sampled_from(DATES), st.booleans()), max_size=4)),
        st.tuples(st.just("set"), st.sampled_from(TOPICS), st.sets(st.sampled_from(IDS + "z"))),
        st.tuples(st.just("tags"), st.sets(st.sampled_from(IDS)), st.dictionaries(st.sampled_from(TOPICS), st.sets(st.sampled_from(IDS)))),
        st.tuples(st.just("drop"), st.sampled_from(TOPICS)),
    ),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(OPERATIONS, st.sampled_from(DATES))
def test_any_sequence_of_changes_keeps_members_tags_and_dates_consistent(operations, since_text):
    library = Library(rows(("a", DATES[0]), ("b", DATES[3])), dict)
    since = epoch(since_text)
    for operation in operations:
        kind = operation[0]
        if kind == "upsert":
            for pid, date, guessed in operation[1]:
                library.upsert_rows(rows((pid, date), estimated={pid} if guessed else ()))
        elif kind == "set":
            library.set_members(operation[1], operation[2])
        elif kind == "tags":
            library.update_tags(operation[1], operation[2])
        else:
            library.drop_topic(operation[1])
        assert_consistent(library)
        for topic in library.members:
            exact = [library.published_at[i] for i in library.topic_positions(topic) if i not in library.estimated]
            assert library.published(topic) == exact
            assert library.published(topic, since) == [t for t in exact if t >= since]


def test_a_lean_row_has_its_bylines_read_and_a_row_with_them_keeps_its_own():
    full = rows(("a", "2026-09-01T00:00:00"), ("b", "2026-10-01T00:00:00"))
    lean = {pid: row._replace(authors="", affiliations="") for pid, row in full.items()}
    asked: list[tuple[str, str]] = []

    def bylines(shard: str, paper_id: str) -> tuple[str, str]:
        asked.append((shard, paper_id))
        return full[paper_id].authors, full[paper_id].affiliations

    library = Library(lean, lambda: {}, bylines)
    assert library.bylines_of(library.pos["b"]) == ("Ada Quill", "Institute of Nowhere")
    assert asked == [("w", "b")]
    # A store's row (as a refresh gives the library) carries its own.
    paper = make_paper("b", authors=(("Grace Hopper", ("Navy",)),))
    library.upsert_rows({"b": card_row(paper, "2026-11-01T00:00:00+00:00", "w")})
    assert library.bylines_of(library.pos["b"]) == ("Grace Hopper", "Navy")
    assert asked == [("w", "b")]
    # Without a way to read them, a lean row's are what it holds.
    assert Library(lean, lambda: {}).bylines_of(0) == ("", "")
