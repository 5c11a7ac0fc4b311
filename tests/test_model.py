from __future__ import annotations

from dataclasses import replace

from feedtui.model import Author, Paper

from tests.factories import make_paper


def test_newer_version_wins_and_sources_merge():
    v1 = make_paper("2609.00001", version=1, title="Old", sources=("http://a",), published="2026-09-01T00:00:00")
    v2 = make_paper(
        "2609.00001", version=2, title="New", sources=("http://b",), published="2026-09-20T00:00:00",
        updated="2026-09-20T00:00:00",
    )
    merged = v1.merged_with(v2)
    assert merged.title == "New" and merged.version == 2
    assert merged.sources == ("http://a", "http://b")
    # Held the other way round, the same fields win; the held record's sources come first.
    held_v2 = v2.merged_with(v1)
    assert held_v2.title == "New" and held_v2.sources == ("http://b", "http://a")
    # The first-version date is the earliest exact one.
    assert merged.published.isoformat().startswith("2026-09-01")


def test_arxivs_own_record_beats_a_blog_post_about_it():
    arxiv = make_paper("2609.00001", version=1, title="Real Title", published="2026-09-01T00:00:00")
    blog = make_paper(
        "2609.00001", version=1, title="Our new paper!", published="2026-09-05T00:00:00",
        updated="2026-09-05T00:00:00", secondhand=True, sources=("http://blog",),
    )
    for merged in (arxiv.merged_with(blog), blog.merged_with(arxiv)):
        assert merged.title == "Real Title"
        assert merged.published.isoformat().startswith("2026-09-01")
        assert not merged.secondhand
        assert "http://blog" in merged.sources


def test_an_undated_record_seen_again_keeps_its_dates_and_takes_new_text():
    """Without a date in its feed a post is dated at each fetch: the later fetch
    says nothing about when it changed."""
    first = make_paper("web:0123456789ab", title="Draft", published="2026-09-01T08:00:00", date_estimated=True)
    again = make_paper("web:0123456789ab", title="Draft", published="2026-09-03T08:00:00", date_estimated=True)
    assert again.merged_with(first) == first == first.merged_with(again)
    edited = make_paper("web:0123456789ab", title="Final", published="2026-09-05T08:00:00", date_estimated=True)
    merged = edited.merged_with(first)
    assert merged.title == "Final"
    assert (merged.published, merged.updated, merged.date_estimated) == (first.published, first.updated, True)


def test_a_web_entry_is_its_first_feeds_another_feed_with_its_guid_only_adds_a_source():
    """Two feeds naming one guid are one entry; the second cannot rewrite the
    first's title, text or link, even with a later date."""
    held = replace(
        make_paper("web:urn-e-1", title="Normal first post", abstract="Ours.", sources=("http://a/feed",),
                   published="2026-11-30T10:00:00"),
        abs_url="http://a/post/1",
    )
    other = replace(
        make_paper("web:urn-e-1", title="Replaced title", abstract="Theirs.", sources=("http://b/feed",),
                   published="2026-12-02T12:00:00"),
        abs_url="http://b/elsewhere",
    )
    merged = held.merged_with(other)
    assert (merged.title, merged.abstract, merged.abs_url) == ("Normal first post", "Ours.", "http://a/post/1")
    assert merged.sources == ("http://a/feed", "http://b/feed")
    # Seen again in both, it stays as it is (nothing to store again).
    assert merged.merged_with(other) == merged
    # Its own feed still updates it.
    edited = make_paper(
        "web:urn-e-1", title="Normal first post, edited", sources=("http://a/feed",), published="2026-12-01T09:00:00",
    )
    assert merged.merged_with(edited).title == "Normal first post, edited"


def test_an_arxiv_paper_takes_the_newer_record_from_any_source():
    api = make_paper("2609.00001", version=1, title="From the API", sources=("http://api",), published="2026-09-01T00:00:00")
    v2 = make_paper(
        "2609.00001", version=2, title="Revised", sources=("http://rss/cs.LG",), published="2026-09-20T00:00:00",
        updated="2026-09-20T00:00:00",
    )
    assert api.merged_with(v2).title == "Revised"


def test_a_correction_with_the_same_date_replaces_the_text():
    held = make_paper("web:urn-rss-1", title="Title v1 typo", abstract="Old.", sources=("http://a/rss",), published="2026-11-30T10:00:00")
    fixed = make_paper("web:urn-rss-1", title="Title v1", abstract="New.", sources=("http://a/rss",), published="2026-11-30T10:00:00")
    merged = held.merged_with(fixed)
    assert (merged.title, merged.abstract) == ("Title v1", "New.")
    assert merged.merged_with(fixed) == merged


def test_an_entry_cut_off_undated_is_replaced_by_the_whole_one_with_its_date():
    """A feed broken midway gives a partial entry dated at the fetch; read whole
    later, its real (earlier) date and text replace it."""
    partial = make_paper(
        "web:urn-br-3", title="", abstract="", sources=("http://a/feed",), published="2026-12-02T13:00:00",
        date_estimated=True,
    )
    whole = make_paper(
        "web:urn-br-3", title="Broken then fixed", abstract="All of it.", sources=("http://a/feed",),
        published="2026-11-28T09:00:00",
    )
    merged = partial.merged_with(whole)
    assert (merged.title, merged.abstract, merged.date_estimated) == ("Broken then fixed", "All of it.", False)
    assert merged.published.isoformat().startswith("2026-11-28T09:00")
    # A later fetch of a partial copy again does not undo it.
    assert merged.merged_with(partial).title == "Broken then fixed"


def test_papers_and_authors_survive_pickling_between_processes():
    """Parsed papers come back from the worker processes pickled."""
    import copy
    import pickle

    paper = make_paper(
        "2611.00042",
        authors=(("Ada Quill", ("Institute of Nowhere", "Second Lab")), ("Bo Reyes", ())),
    )
    back = pickle.loads(pickle.dumps(paper, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == paper
    assert back.authors[0].affiliations == ("Institute of Nowhere", "Second Lab")
    assert back.authors[1] == Author("Bo Reyes")
    assert copy.deepcopy(paper) == paper


def test_author_pickles_every_field():
    """`Author.__reduce__` names its fields one by one: a new field must join them."""
    import dataclasses

    assert [f.name for f in dataclasses.fields(Author)] == ["name", "affiliations"]


def test_paper_pickles_every_field():
    """`Paper.__reduce__` hands the constructor every field, in order: a paper
    whose every field differs from its default comes back equal, in the
    worker-to-app pickle and in copies."""
    import copy
    import dataclasses
    import pickle

    base = make_paper("2611.00043", authors=(("Ada Quill", ("Lab",)),))
    values = {}
    for number, f in enumerate(dataclasses.fields(Paper)):
        current = getattr(base, f.name)
        if isinstance(current, bool):
            values[f.name] = not current
        elif isinstance(current, int):
            values[f.name] = current + 7 + number
        elif isinstance(current, str):
            values[f.name] = f"{current}-{f.name}"
        elif f.name in ("authors",):
            values[f.name] = current
        elif isinstance(current, tuple):
            values[f.name] = (*current, f"x-{f.name}")
        else:  # the dates
            values[f.name] = current.replace(microsecond=number)
    paper = dataclasses.replace(base, **values)
    defaults = Paper("", 0, "", "", base.published, base.updated)
    for name, value in values.items():
        assert getattr(paper, name) == value and value != getattr(defaults, name), name
    back = pickle.loads(pickle.dumps(paper, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is Paper
    assert back == paper
    assert copy.copy(paper) == paper and copy.deepcopy(paper) == paper
