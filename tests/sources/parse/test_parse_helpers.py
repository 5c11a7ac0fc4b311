"""The small pieces of the parser: ids and keys, links, dates, authors lists, document sniffing."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta, timezone

import pytest

from feedtui.sources.base import FeedError
from feedtui.sources.parse.build_arxiv_rss import _top_level_parts, split_creators
from feedtui.sources.parse.dates import DateChecker, parse_datetime
from feedtui.sources.parse.document import prepare
from feedtui.sources.parse.ids import arxiv_id_from_reference, first_version_month, web_key
from feedtui.sources.parse.links import http_url
from feedtui.sources.parse.text import MAX_AUTHORS, MAX_NAME

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://arxiv.org/abs/2609.01234v2", ("2609.01234", 2)),
        ("https://arxiv.org/abs/2609.01234", ("2609.01234", None)),
        ("https://www.arxiv.org/pdf/2609.01234v3.pdf", ("2609.01234", 3)),
        ("https://export.arxiv.org/abs/hep-th/9901001v1", ("hep-th/9901001", 1)),
        ("https://arxiv.org/abs/math.GT/0309136", ("math.GT/0309136", None)),
        ("https://arxiv.org/abs/2609.01234v2?context=cs#top", ("2609.01234", 2)),
        ("https://arxiv.org/abs/2609.01234/", ("2609.01234", None)),
        ("oai:arXiv.org:2609.01234v1", ("2609.01234", 1)),
        ("arXiv:0704.0001", ("0704.0001", None)),
        (" http://arxiv.org/abs/2611.00862v1 ", ("2611.00862", 1)),
        ("https://arxiv.org/html/2609.01234v1", ("2609.01234", 1)),
        ("https://arxiv.org/html/2609.01234v2/#S3", ("2609.01234", 2)),
        ("https://doi.org/10.48550/arXiv.2609.01234", ("2609.01234", None)),
        ("http://dx.doi.org/10.48550/ARXIV.2609.01234", ("2609.01234", None)),
        ("https://doi.org/10.48550/arxiv.hep-th/9901001", ("hep-th/9901001", None)),
        ("https://doi.org/10.48550/arXiv.2609.01234v2", ("2609.01234", 2)),
        ("https://arxiv.org/html/2609.01234v1/x1.png", None),  # a figure of the page
        ("https://doi.org/10.1145/2609.01234", None),  # another publisher's DOI
        ("https://doi.org/10.48550/arXiv.2609.01234.extra", None),
        ("https://alphaxiv.org/abs/2609.01234", None),  # third-party pages stay their own
        ("https://huggingface.co/papers/2609.01234", None),
        ("2609.01234", None),  # a bare number could be anything
        ("https://arxiv.org/list/cs.DC/recent", None),
        ("https://example.org/abs/2609.01234", None),
        ("https://arxiv.org.evil.example/abs/2609.01234", None),
        ("http://arxiv.org/api/errors#incorrect_id_format_for_x", None),
        ("", None),
        (None, None),
    ],
)
def test_arxiv_id_from_reference(text, expected):
    assert arxiv_id_from_reference(text) == expected


@pytest.mark.parametrize(
    ("arxiv_id", "expected"),
    [
        ("2609.01234", datetime(2026, 9, 1, tzinfo=UTC)),
        ("0704.0001", datetime(2007, 4, 1, tzinfo=UTC)),
        ("hep-th/9901001", datetime(1999, 1, 1, tzinfo=UTC)),
        ("cs/0601045", datetime(2006, 1, 1, tzinfo=UTC)),
        ("math.GT/0309136", datetime(2003, 9, 1, tzinfo=UTC)),
        ("2613.00001", None),
        ("web:abc", None),
    ],
)
def test_first_version_month(arxiv_id, expected):
    assert first_version_month(arxiv_id) == expected


def test_web_keys():
    key = web_key("https://blog.example.org/post/1", "https://blog.example.org/feed")
    assert re.fullmatch(r"web:[0-9a-f]{16}", key)
    assert key == web_key(" https://blog.example.org/post/1 ", "https://elsewhere.example/feed")
    assert key != web_key("https://blog.example.org/post/2", "https://blog.example.org/feed")
    assert web_key("tag:x.example,2026:1", "a") == web_key("tag:x.example,2026:1", "b")
    assert web_key("post-1", "https://a.example/feed") != web_key("post-1", "https://b.example/feed")
    assert web_key("post-1", "https://a.example/feed") == web_key("post-1", "https://a.example/feed")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("https://arxiv.org/abs/2609.01234v2", "https://arxiv.org/abs/2609.01234v2"),
        ("  http://example.org/a?b=c#d  ", "http://example.org/a?b=c#d"),
        ("HTTPS://EXAMPLE.ORG/", "HTTPS://EXAMPLE.ORG/"),
        ("http:///example.org/x", "http://example.org/x"),
        ("http://[2001:db8::1]/x", "http://[2001:db8::1]/x"),
        ("javascript:alert(1)", ""),
        ("JavaScript:alert(1)", ""),
        ("file:///etc/passwd", ""),
        ("data:text/html,<script>x</script>", ""),
        ("ftp://example.org/x", ""),
        ("/relative/path", ""),
        ("//example.org/x", ""),
        ("http://", ""),
        ("http://:80/", ""),
        ("https://arxiv.org@evil.example/", ""),
        ("https://exa mple.org/", ""),
        ("https://example.org/\x1b[2J", ""),
        ("https://example.org/\u202egnp.exe", ""),
        ("https://example.org/" + "a" * 3000, ""),
        ("", ""),
        (None, ""),
    ],
)
def test_http_url(raw, expected):
    assert http_url(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ada Lovelace, Alan Turing and Grace Hopper", ["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
        ("Ada Lovelace, Alan Turing, and Grace Hopper", ["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
        ("Ada Lovelace, Alan Turing, Grace Hopper", ["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
        ("Ada Lovelace and Alan Turing", ["Ada Lovelace", "Alan Turing"]),
        ("Alexandra Anderson, Sandra Andersen", ["Alexandra Anderson", "Sandra Andersen"]),
        ("Carlos Méndez, Jr., Amara Osei", ["Carlos Méndez Jr.", "Amara Osei"]),
        ("A. Author (Lab, City), B. Author", ["A. Author (Lab, City)", "B. Author"]),
        ("The ATLAS Collaboration", ["The ATLAS Collaboration"]),
        (
            '<a href="http://arxiv.org/find/cs/1/au:+Doe_J/0/1/0/all/0/1">Jane Doe</a>, '
            '<a href="http://arxiv.org/find/cs/1/au:+Roe_R/0/1/0/all/0/1">Rick Roe</a>',
            ["Jane Doe", "Rick Roe"],
        ),
        (" ,, and , ", []),
        ("", []),
    ],
)
def test_split_creators(raw, expected):
    assert split_creators(raw) == expected


def test_split_creators_returns_every_name():
    """The caller keeps MAX_AUTHORS and counts the rest."""
    names = split_creators(", ".join(f"Author {i} (Lab {i}, City)" for i in range(500)))
    assert len(names) == 500
    assert names[-1] == "Author 499 (Lab 499, City)"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("A, B, C", ["A", " B", " C"]),
        ("A (x, y), B", ["A (x, y)", " B"]),
        ("A, x) B, C", ["A, x) B", " C"]),
        ("A (x, y, C", ["A (x", " y", " C"]),
        ("", [""]),
    ],
)
def test_top_level_parts(line, expected):
    assert _top_level_parts(line) == expected


def test_top_level_parts_without_a_closing_parenthesis_splits_as_the_full_scan_does():
    """Such a line takes a plain split; `()` at its end forces the scan, which must agree."""
    rng = random.Random(6)
    for _ in range(5_000):
        line = "".join(rng.choice("ab ,(") for _ in range(rng.randint(0, 24)))
        *head, last = _top_level_parts(line)
        assert _top_level_parts(line + "()") == [*head, last + "()"], line


def test_split_creators_keeps_a_long_collaboration_and_cuts_a_huge_line():
    collaboration = ", ".join(f"Firstname{i} van der Lastname{i}" for i in range(MAX_AUTHORS))
    assert len(split_creators(collaboration)) == MAX_AUTHORS
    huge = ", ".join(f"{i} " + "x" * (MAX_NAME - 10) for i in range(MAX_AUTHORS))
    names = split_creators(huge)
    assert sum(len(name) + 2 for name in names) <= 64 * MAX_AUTHORS + 2
    assert names[-1].endswith("…")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-10-01T12:30:00Z", datetime(2026, 10, 1, 12, 30, tzinfo=UTC)),
        ("2026-10-01T12:30:00-04:00", datetime(2026, 10, 1, 16, 30, tzinfo=UTC)),
        ("2026-10-01T12:30:00.123456+00:00", datetime(2026, 10, 1, 12, 30, 0, 123456, tzinfo=UTC)),
        ("2026-10-01", datetime(2026, 10, 1, tzinfo=UTC)),
        ("2026-10-01T12:30:00", datetime(2026, 10, 1, 12, 30, tzinfo=UTC)),
        ("Mon, 05 Oct 2026 00:00:00 -0400", datetime(2026, 10, 5, 4, 0, tzinfo=UTC)),
        ("Mon, 05 Oct 2026 00:00:00 GMT", datetime(2026, 10, 5, tzinfo=UTC)),
        ("yesterday", None),
        ("2026-13-45T99:00:00Z", None),
        ("0001-01-01T00:00:00+01:00", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_datetime(text, expected):
    assert parse_datetime(text) == expected


def test_date_checker():
    now = datetime(2026, 10, 5, 12, tzinfo=UTC)
    checker = DateChecker(now)
    fine = datetime(2026, 10, 1, tzinfo=UTC)
    assert checker.check(fine) == (fine, False)
    assert checker.check(now + timedelta(hours=23)) == (now + timedelta(hours=23), False)
    assert checker.check(now + timedelta(hours=25)) == (now, True)
    assert checker.check(datetime(1990, 12, 31, tzinfo=UTC)) == (now, True)
    assert checker.check(datetime(1991, 1, 1, tzinfo=UTC)) == (datetime(1991, 1, 1, tzinfo=UTC), False)
    assert checker.check(None) == (now, True)
    assert (checker.future, checker.ancient, checker.missing) == (1, 1, 1)
    assert checker.plausible(fine) and not checker.plausible(None) and not checker.plausible(now + timedelta(days=2))


@pytest.mark.parametrize(
    ("data", "root", "has_doctype"),
    [
        (b'<?xml version="1.0"?><rss version="2.0"/>', "rss", False),
        (b"\xef\xbb\xbf  \n<feed xmlns='http://www.w3.org/2005/Atom'/>", "feed", False),
        (b"<!-- a comment --><?pi x?><!DOCTYPE rss SYSTEM 'x.dtd'><rss/>", "rss", True),
        (b'<!DOCTYPE rdf:RDF [<!ENTITY x "<y>">]><rdf:RDF/>', "rdf:RDF", True),
        ('<?xml version="1.0" encoding="utf-16"?><feed/>'.encode("utf-16"), "feed", False),
    ],
)
def test_prepare_finds_the_root(data: bytes, root: str, has_doctype: bool):
    document = prepare(data)
    assert (document.root, document.has_doctype) == (root, has_doctype)
    assert document.data.startswith(b"<")


def test_prepared_documents_are_utf8_with_a_matching_declaration():
    document = prepare('<?xml version="1.0" encoding="ISO-8859-1"?><rss><title>\u00e9</title></rss>'.encode("latin-1"))
    assert document.data == '<?xml version="1.0" encoding="utf-8"?><rss><title>\u00e9</title></rss>'.encode()
    utf8 = b'<?xml version="1.0" encoding="UTF-8"?><rss><title>\xc3\xa9</title></rss>'
    assert prepare(utf8).data is utf8  # nothing to do: no copy


def test_prepare_rejects_a_document_without_a_root():
    with pytest.raises(FeedError, match="^not a feed: the XML document has no root element$"):
        prepare(b'<?xml version="1.0"?>\n<!-- nothing -->\n')


def test_a_link_with_a_flood_of_combining_marks_is_dropped():
    """A relative link made of marks, resolved against the feed's address,
    gave `https://hostile.example/\u0301\u0301\u0301/…`; a link is shown, and
    no address needs more marks on one character than text may carry (found
    by the hostile-feed property test)."""
    from urllib.parse import urljoin

    from feedtui.sources.parse.links import http_url

    assert http_url(urljoin("https://hostile.example/feed", "\u0301\u0301\u0301//arxiv.org/abs/2609.01234v2")) == ""
    assert http_url("https://example.org/cafe\u0301") == "https://example.org/cafe\u0301"  # an accent is fine
