"""Feeds from strangers: hostile text, entity bombs, external entities, huge fields, garbage.

Nothing may escape parse_feed but FeedError; no text field may carry a control,
bidi or zero-width character (a joiner only between two characters it can join)
or a flood of combining marks; no entity is
expanded beyond what the XML parser's own limits allow, and no file is read.
"""

from __future__ import annotations

import time
import unicodedata
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedtui.model import Author, Paper
from feedtui.sources.base import FeedError, ParsedFeed
from feedtui.sources.parse.document import MAX_ENTRIES
from feedtui.sources.parse.ids import web_key
from feedtui.sources.parse.read_fast import read_api_feed
from feedtui.sources.parse.route import parse_feed, parse_feed_with_feedparser
from feedtui.sources.parse.text import MAX_ABSTRACT, MAX_AUTHORS, MAX_TITLE
from feedtui.text.latex import latex_to_unicode
from feedtui.text.sanitize import clean_block, clean_line

from tests.joiners import stray_joiners

FEEDS = Path(__file__).parents[2] / "data" / "feeds"
UTC = timezone.utc
NOW = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
URL = "https://hostile.example/feed.xml"
PARSERS = [parse_feed, parse_feed_with_feedparser]

_FORBIDDEN = set(range(0x00, 0x09)) | set(range(0x0B, 0x20)) | set(range(0x7F, 0xA0))
_FORBIDDEN |= {0x200B, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2060, 0x2070))
_FORBIDDEN |= {0x061C, 0xFEFF, 0x2028, 0x2029, 0x09}


def assert_clean_text(value: str, *, multiline: bool = False) -> None:
    bad = [hex(ord(c)) for c in value if ord(c) in _FORBIDDEN or (c == "\n" and not multiline)]
    assert not bad, (bad, value)
    assert not stray_joiners(value), value
    run = 0
    for char in value:
        run = run + 1 if unicodedata.combining(char) else 0
        assert run <= 2, value
    assert value == value.strip()


def assert_clean(paper: Paper) -> None:
    for line in (paper.title, paper.title_display, paper.journal_ref, paper.doi, paper.primary_category, paper.id):
        assert_clean_text(line)
    for block in (paper.abstract, paper.abstract_display, paper.comment):
        assert_clean_text(block, multiline=True)
        assert "\n\n\n" not in block
    for author in paper.authors:
        assert_clean_text(author.name)
        assert author.name
        for affiliation in author.affiliations:
            assert_clean_text(affiliation)
    for category in paper.categories:
        assert_clean_text(category)
    for url in (paper.abs_url, paper.pdf_url):
        assert url == "" or url.lower().startswith(("http://", "https://"))
        assert_clean_text(url)
        assert " " not in url


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


# --- hostile text ------------------------------------------------------------------------


def paper(*, math_only: bool = False, **fields) -> Paper:
    """An expected Paper from the hostile feed; display forms are the LaTeX rendering
    of title and abstract (of their math only, for a web feed)."""
    expected = Paper(sources=(URL,), **fields)
    expected.title_display = clean_line(latex_to_unicode(expected.title, math_only=math_only), html_allowed=False)
    expected.abstract_display = clean_block(latex_to_unicode(expected.abstract, math_only=math_only), html_allowed=False)
    return expected


WHEN = at(2026, 10, 4, 10, 0)


def test_hostile_rss_text_is_plain_visible_text():
    feed = parse_feed((FEEDS / "hostile_rss.xml").read_bytes(), URL, now=NOW)
    assert (feed.kind, feed.title, feed.warnings) == ("rss", "[reverse]Hostile[/reverse] feed", [])
    assert feed.papers == [
        paper(
            math_only=True,
            id=web_key("hostile-1", URL),
            version=1,
            # Markup stays text: the UI draws it as text, never as markup.
            title="[bold red]x[/] and [@click=app.quit]quit[/]",
            # ESC and BEL escaped as character references vanish; what is left is visible text.
            abstract="Clear: [2J done\n\nCopy: ]52;c;aGVsbG8=pasted",
            published=WHEN,
            updated=WHEN,
            abs_url="",  # javascript: is no link
        ),
        paper(
            math_only=True,
            id=web_key("https://hostile.example/2", URL),
            version=1,
            title="Safetxt.exe and invisible",
            abstract="Right-to-left isolate and override.",
            published=WHEN,
            updated=WHEN,
            authors=(Author("[link=file:///etc/passwd]click[/link]"),),
            abs_url="https://hostile.example/2",
        ),
        paper(
            math_only=True,
            id=web_key("https://hostile.example/3", URL),
            version=1,
            # The ZWJ of the woman scientist (woman, ZWJ, microscope) is kept.
            title="Z\u0301\u0301algo \u5206\u6563\u30b7\u30b9\u30c6\u30e0 \U0001f680 \U0001f469\u200d\U0001f52c",
            abstract="Wide: \uff21\uff22\uff23 and e\u0300\u0300nd.",
            published=WHEN,
            updated=WHEN,
            abs_url="https://hostile.example/3",
        ),
        paper(
            math_only=True,
            id=web_key("https://hostile.example/4", URL),
            version=1,
            title="]8;;https://evil.example/\\\\link]8;;\\\\ text",
            # C1 code points are read as the windows-1252 characters they stand for.
            abstract="C1 controls as text: \u203a31m red \u2026 next.",
            published=WHEN,
            updated=WHEN,
            abs_url="https://hostile.example/4",
        ),
    ]
    for each in feed.papers:
        assert_clean(each)


def test_raw_control_characters_make_the_feed_malformed_but_readable():
    feed = parse_feed((FEEDS / "hostile_raw_controls.xml").read_bytes(), URL, now=NOW)
    assert (feed.kind, feed.title) == ("rss", "Raw controls")
    assert feed.warnings == [
        "the feed is not well-formed (XML error at line 7, column 20: not well-formed (invalid token)); "
        "read leniently, some entries may be incomplete"
    ]
    assert feed.papers == [
        paper(
            id=web_key("https://raw.example/1", URL),
            version=1,
            title="Clear screen done",
            abstract="Bell backspace and clipboard.",
            published=WHEN,
            updated=WHEN,
            abs_url="https://raw.example/1",
        )
    ]
    assert_clean(feed.papers[0])


def test_hostile_arxiv_api_entry():
    feed = parse_feed((FEEDS / "hostile_arxiv_api.xml").read_bytes(), URL, now=NOW)
    assert (feed.kind, feed.warnings) == ("arxiv-api", [])
    assert feed.papers == [
        paper(
            id="2610.06666",
            version=1,
            title="[bold]Bold[/bold] evil claim [@click=app.quit]now[/]",
            abstract=(
                "Zerowidth, e\u0301\u0301 flood, \u2013 a dash from windows-1252, "
                "\u6df1\u5c64\u5b66\u7fd2 and \U0001f9ea; markup [red]stays[/red] text."
            ),
            published=at(2026, 10, 4, 20, 0),
            updated=at(2026, 10, 4, 20, 0),
            authors=(Author("[@click=app.quit]Mallory[/]", ("Institute of Sdrawkcab Studies",)),),
            primary_category="cs.CR",
            categories=("cs.CR",),
            comment="[link=https://evil.example]see here[/link]",
            abs_url="http://arxiv.org/abs/2610.06666v1",
            pdf_url="",  # a javascript: "PDF" link is no link
        )
    ]
    assert_clean(feed.papers[0])


# --- entities ------------------------------------------------------------------------------

BOMB_ENTITIES = '<!ENTITY lol "lol">\n' + "".join(
    f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n' for i in range(1, 10)
)


def api_document(doctype: str, title: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE feed [
{doctype}]>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>http://arxiv.org/api/EntityTest</id>
  <title>entity test</title>
  <entry>
    <id>http://arxiv.org/abs/2610.01111v1</id>
    <published>2026-10-01T00:00:00Z</published>
    <title>{title}</title>
    <summary>before {title} after</summary>
  </entry>
</feed>""".encode()


def rss_document(doctype: str, title: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE rss [
{doctype}]>
<rss version="2.0"><channel><title>entity test</title>
<item><guid>https://x.example/1</guid><title>{title}</title><description>before {title} after</description></item>
</channel></rss>""".encode()


def all_text(feed: ParsedFeed) -> str:
    parts = [feed.title, *feed.warnings]
    for paper in feed.papers:
        parts += [paper.title, paper.abstract, paper.comment, *(a.name for a in paper.authors)]
    return "\n".join(parts)


@pytest.mark.parametrize("document", [api_document, rss_document])
@pytest.mark.parametrize("parser", PARSERS)
def test_billion_laughs_is_not_expanded(parser, document):
    data = document(BOMB_ENTITIES, "&lol9;")
    started = time.process_time()
    try:
        feed = parser(data, URL, now=NOW)
    except FeedError:
        pass
    else:
        assert all_text(feed).count("lol") < 100
    assert time.process_time() - started < 5  # not a timing target: a runaway expansion takes far longer


def test_expat_itself_refuses_the_bomb():
    """The fast path never sees a DOCTYPE, but its parser would refuse the bomb anyway (expat ≥ 2.4)."""
    with pytest.raises(ET.ParseError):
        read_api_feed(api_document(BOMB_ENTITIES, "&lol9;"))


@pytest.mark.parametrize("document", [api_document, rss_document])
@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize(
    "declaration",
    [
        '<!ENTITY secret SYSTEM "file://{path}">\n',
        '<!ENTITY % remote SYSTEM "file://{path}">\n%remote;\n<!ENTITY secret "x">\n',
    ],
    ids=["general", "parameter"],
)
def test_external_entities_are_never_read(tmp_path: Path, parser, document, declaration: str):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-0042")
    data = document(declaration.format(path=secret), "&secret;")
    try:
        feed = parser(data, URL, now=NOW)
    except FeedError as error:
        assert "TOP-SECRET" not in str(error)
    else:
        assert "TOP-SECRET" not in all_text(feed)


def test_expat_does_not_read_external_entities_either(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-0042")
    data = api_document(f'<!ENTITY secret SYSTEM "file://{secret}">\n', "&secret;")
    try:
        feed = read_api_feed(data)
    except ET.ParseError:
        return
    assert all("TOP-SECRET" not in e.title + e.summary for e in feed.entries)


def test_harmless_internal_entities_work_through_feedparser():
    feed = parse_feed(rss_document('<!ENTITY team "the Tessera team">\n', "By &team;"), URL, now=NOW)
    assert feed.papers[0].title == "By the Tessera team"


# --- size limits ---------------------------------------------------------------------------


def huge_api_entry(authors: int, abstract_chars: int, title_chars: int) -> bytes:
    names = "".join(f"<author><name>Author {i:03d}</name></author>" for i in range(authors))
    abstract = ("lorem ipsum " * (abstract_chars // 12 + 1))[:abstract_chars]
    title = ("T" * 9 + " ") * (title_chars // 10)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>http://arxiv.org/api/Huge</id>
  <title>huge</title>
  <entry>
    <id>http://arxiv.org/abs/2610.02222v1</id>
    <published>2026-10-01T00:00:00Z</published>
    <title>{title}</title>
    <summary>{abstract}</summary>
    {names}
  </entry>
</feed>""".encode()


@pytest.mark.parametrize("parser", PARSERS)
def test_huge_fields_are_cut(parser):
    [paper] = parser(huge_api_entry(MAX_AUTHORS + 298, 100_000, 5_000), URL, now=NOW).papers
    assert len(paper.authors) == MAX_AUTHORS == 10_000
    assert paper.authors[-1] == Author("Author 9999")
    assert paper.authors_omitted == 298  # said on the card, in the detail and in BibTeX
    assert len(paper.abstract) == MAX_ABSTRACT == 20_000
    assert paper.abstract.endswith("…")
    assert paper.abstract.startswith("lorem ipsum lorem")
    assert len(paper.title) <= MAX_TITLE == 1_000
    assert paper.title.endswith("TTTTTTTTT…")


def test_fields_at_the_limit_are_kept_whole():
    [paper] = parse_feed(huge_api_entry(MAX_AUTHORS, 20_000, 1_000), URL, now=NOW).papers
    assert (len(paper.authors), paper.authors_omitted) == (MAX_AUTHORS, 0)
    assert not paper.abstract.endswith("…")
    assert paper.title.endswith("TTTTTTTTT")


def test_a_ten_thousand_entry_feed():
    items = "".join(
        f"<item><guid>https://big.example/{i}</guid><title>Post {i}</title>"
        f"<pubDate>Sun, 04 Oct 2026 10:00:00 GMT</pubDate></item>"
        for i in range(10_000)
    )
    data = f'<rss version="2.0"><channel><title>big</title>{items}</channel></rss>'.encode()
    feed = parse_feed(data, URL, now=NOW)
    assert len(feed.papers) == 10_000
    assert len({p.id for p in feed.papers}) == 10_000


def _flood(kind: str, entries: int) -> bytes:
    """A feed of `kind` with this many tiny entries, newest first."""
    if kind == "atom":
        body = "".join(f"<entry><id>urn:flood:{i}</id><title>t{i}</title><updated>2026-10-04T10:00:00Z</updated></entry>" for i in range(entries))
        return f'<feed xmlns="http://www.w3.org/2005/Atom"><title>flood</title>{body}</feed>'.encode()
    if kind == "rdf":
        body = "".join(f'<item rdf:about="https://flood.example/{i}"><title>t{i}</title><link>https://flood.example/{i}</link></item>' for i in range(entries))
        return (
            '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">'
            f'<channel rdf:about="https://flood.example/"><title>flood</title></channel>{body}</rdf:RDF>'
        ).encode()
    body = "".join(f"<item><guid>urn:flood:{i}</guid><title>t{i}</title></item>" for i in range(entries))
    return f'<rss version="2.0"><channel><title>flood</title>{body}</channel></rss>'.encode()


@pytest.mark.parametrize("kind", ["rss", "atom", "rdf"])
def test_a_flood_of_tiny_entries_is_read_up_to_the_entry_limit(kind: str):
    """Hundreds of thousands of entries fit under the size limit; the first
    MAX_ENTRIES are read, the document closed after them as its kind is (so it
    is not read as malformed), and the feed says so."""
    feed = parse_feed(_flood(kind, MAX_ENTRIES + 2_500), URL, now=NOW)
    assert len(feed.papers) == MAX_ENTRIES
    assert feed.papers[0].title == "t0" and feed.papers[-1].title == f"t{MAX_ENTRIES - 1}"
    assert f"the feed holds {MAX_ENTRIES + 2_500:,} entries; read the first {MAX_ENTRIES:,}" in feed.warnings
    assert not feed.xml_error


def test_a_feed_at_the_entry_limit_is_read_whole_and_says_nothing():
    feed = parse_feed(_flood("atom", MAX_ENTRIES), URL, now=NOW)
    assert len(feed.papers) == MAX_ENTRIES and feed.warnings == []


# --- fuzzing ---------------------------------------------------------------------------------

SEEDS = sorted(FEEDS.glob("*.xml"))


def parse_or_feed_error(data: bytes, content_type: str = "") -> ParsedFeed | None:
    try:
        feed = parse_feed(data, URL, content_type, now=NOW)
    except FeedError as error:
        assert str(error).startswith("not a feed: ")
        assert_clean_text(str(error))
        return None
    assert feed.kind in ("arxiv-api", "arxiv-rss", "rss", "atom")
    for paper in feed.papers:
        assert_clean(paper)
    for warning in feed.warnings:
        assert_clean_text(warning)
    return feed


PREFIXES = [
    b"",
    b"<rss version='2.0'><channel><item>",
    b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><id>http://arxiv.org/api/x</id><entry>',
    b"\xff\xfe<\x00",
    b'<?xml version="1.0" encoding="bogus"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(PREFIXES),
    st.binary(max_size=2000),
    st.sampled_from(["", "text/xml", "application/xml; charset=utf-16", "text/html; charset=bogus"]),
)
def test_arbitrary_bytes_give_a_feed_or_a_feed_error(prefix: bytes, data: bytes, content_type: str):
    parse_or_feed_error(prefix + data, content_type)


@st.composite
def mutated_feeds(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)).read_bytes())
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "flip", "truncate", "splice"]))
        start = draw(st.integers(0, len(data)))
        end = min(len(data), start + draw(st.integers(0, 200)))
        if kind == "delete":
            del data[start:end]
        elif kind == "insert":
            data[start:start] = draw(
                st.one_of(
                    st.binary(max_size=20),
                    st.sampled_from(
                        [
                            b"<",
                            b">",
                            b"&",
                            b"&amp;",
                            b"&#0;",
                            b"&#x1b;",
                            b"<![CDATA[",
                            b"]]>",
                            b"<entry>",
                            b"</entry>",
                            b"<item>",
                            b"<!DOCTYPE x>",
                            b"\xff\xfe",
                            b"\xc3",
                        ]
                    ),
                )
            )
        elif kind == "duplicate":
            data[end:end] = data[start:end]
        elif kind == "flip" and start < len(data):
            data[start] ^= draw(st.integers(1, 255))
        elif kind == "truncate":
            del data[start:]
        elif kind == "splice":
            other = draw(st.sampled_from(SEEDS)).read_bytes()
            data[start:end] = other[start:end]
    return bytes(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_feeds())
def test_mutated_feeds_give_a_feed_or_a_feed_error(data: bytes):
    parse_or_feed_error(data)


def test_an_encoding_name_with_a_nul_is_not_looked_up():
    data = (
        b'<?xml version="1.0" encoding="ut\x00-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        b"<title>T</title><entry><id>tag:x,2026:1</id><title>One</title>"
        b"<updated>2026-10-04T07:45:00Z</updated></entry></feed>"
    )
    feed = parse_feed(data, "https://example.org/feed.xml")
    assert [p.title for p in feed.papers] == ["One"]


def test_an_encoding_with_a_nul_in_any_leading_instruction_is_not_looked_up():
    """feedparser takes an encoding from any leading `<?…?>` (found by the
    mutation test above: `<?ml … encoding="\\x00UTF-8"?>`)."""
    entry = b"<entry><id>tag:x,2026:1</id><title>One</title><updated>2026-10-04T07:45:00Z</updated></entry>"
    for start in (
        b'<?ml version="1.0" encoding="\x00UTF-8"?>\n',
        b'<?xml version="1.0" encoding="utf-8"?><?style encoding="\x00x"?>\n',
    ):
        feed = parse_feed(start + b'<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>' + entry + b"</feed>")
        assert [p.title for p in feed.papers] == ["One"]


def test_text_that_looks_like_an_encoding_is_left_alone_and_a_nul_one_on_the_first_line_is_a_feed_error():
    one_line = b'<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>encoding="keep" me</title>'
    feed = parse_feed(one_line + b"<link>https://a.example/1</link></item></channel></rss>")
    assert [p.title for p in feed.papers] == ['encoding="keep" me']
    with pytest.raises(FeedError, match="names an encoding that cannot be read"):
        parse_feed(b'<?xml version="1.0"?><rss version="2.0"><channel><title>encoding="\x00x" ?></title></channel></rss>')


def test_entities_are_decoded_once_in_a_feed_read_leniently():
    """feedparser's loose parser left `&amp;` and `&lt;` as written in author
    names, affiliations and arXiv's comment, journal ref and DOI (then BibTeX
    wrote `{\\&}amp;`); the strict parser, and titles in both, decode them."""
    data = (FEEDS / "lenient_arxiv_api.xml").read_bytes()
    lenient = parse_feed(data, URL, now=NOW)
    assert "read leniently" in lenient.warnings[0]
    strict = parse_feed(data.replace(b"\x1b", b""), URL, now=NOW)
    assert strict.warnings == []
    paper = lenient.papers[1]
    assert paper == strict.papers[1]
    assert paper.title == "Q&A on &lt;tags&gt;"
    assert paper.authors == (
        Author("Research & Development Team", ("Lab of R&D &amp; &lt;Things&gt;",)),
        Author('Sean O\'Brien & "Friends"'),
    )
    assert (paper.comment, paper.journal_ref, paper.doi) == (
        "10 pages & 3 figures; see &lt;i&gt;",
        "J. Foo & Bar 12 (2026) 1-2 <x>",
        "10.1234/a&b",
    )
