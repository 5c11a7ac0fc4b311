from __future__ import annotations

from feedtui.model import Author

from tests.factories import make_paper


def test_newer_version_wins_and_sources_merge():
    v1 = make_paper("2609.00001", version=1, title="Old", sources=("http://a",), published="2026-09-01T00:00:00")
    v2 = make_paper(
        "2609.00001", version=2, title="New", sources=("http://b",), published="2026-09-20T00:00:00",
        updated="2026-09-20T00:00:00",
    )
    merged = v2.merged_with(v1)
    assert merged.title == "New" and merged.version == 2
    assert merged.sources == ("http://a", "http://b")
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
