"""Running feedparser on a prepared document, and what kind of feed it found.

feedparser knows nothing of the arXiv namespace (`http://arxiv.org/schemas/atom`):
it files `arxiv:affiliation` under the entry, so each entry keeps only the last
affiliation of its last author; it names the elements after whatever prefix
the document happens to use; and an element it has no handler for loses its
text when it has attributes — which, for its lenient parser, includes the
`xmlns:arxiv` / `xmlns:opensearch` declarations the arXiv API puts on every
such element, so a truncated API response lost every comment, DOI, journal
reference and the `opensearch:*` totals. `_teach_arxiv_namespace` fixes all
three with feedparser's own extension convention (a namespace registered under
a canonical prefix; `_start_<prefix>_<name>` / `_end_<prefix>_<name>`
handlers): the arXiv elements always appear as `arxiv_*` keys holding their
text, the opensearch counts likewise, and every author dict gets the list of
its own affiliations under `arxiv_affiliations`. Installed once, before the
first run; every key feedparser set before is still set. After a lenient
read, the entities its loose parser leaves in those values and in author
names are decoded (`_decode_what_the_loose_parser_left`).

feedparser is run on bytes wrapped in BytesIO (a str would be taken as a URL or
file name), with HTML sanitising and URI resolution off: feedtui turns every
field into plain text itself and never renders HTML, and it keeps links as the
feed wrote them. It is imported on first use: reading arXiv API responses
(the fast path) never needs it, and importing it costs tens of milliseconds.
"""

from __future__ import annotations

import io
import re
import threading
import xml.sax
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from feedtui.sources.base import FeedError
from feedtui.sources.parse.build_api import is_api_feed_id

if TYPE_CHECKING:
    from feedparser.mixin import _FeedParserMixin

ARXIV_NAMESPACE = "http://arxiv.org/schemas/atom"
ARXIV_PREFIX = "arxiv"
MARKUP_TYPES = ("text/html", "application/xhtml+xml")


def _start_arxiv_affiliation(parser: _FeedParserMixin, attrs: dict) -> None:
    parser.push("arxiv_affiliation", 1)


def _end_arxiv_affiliation(parser: _FeedParserMixin) -> None:
    value = parser.pop("arxiv_affiliation")
    if parser.inauthor and value is not None:
        authors = parser._get_context().get("authors")
        if authors:
            authors[-1].setdefault("arxiv_affiliations", []).append(value)


# Elements whose text is kept as `<prefix>_<name>` whatever attributes they carry.
_TEXT_ELEMENTS = (
    "arxiv_comment",
    "arxiv_journal_ref",
    "arxiv_journal_reference",
    "arxiv_doi",
    "arxiv_announce_type",
    "opensearch_totalresults",
    "opensearch_startindex",
    "opensearch_itemsperpage",
)


def _text_element_handlers(key: str) -> tuple[Callable, Callable]:
    def start(parser: _FeedParserMixin, attrs: dict) -> None:
        parser.push(key, 1)

    def end(parser: _FeedParserMixin) -> None:
        parser.pop(key)

    return start, end


_teaching = threading.Lock()


def _teach_arxiv_namespace() -> None:
    from feedparser.mixin import _FeedParserMixin as mixin

    if mixin.namespaces.get(ARXIV_NAMESPACE) == ARXIV_PREFIX:
        return
    with _teaching:
        if mixin.namespaces.get(ARXIV_NAMESPACE) != ARXIV_PREFIX:
            _install(mixin)


def _install(mixin: type[_FeedParserMixin]) -> None:
    # feedparser fills this lower-cased copy of `namespaces` on first use, and
    # only when it is empty: fill it first, then add to it.
    if not mixin._matchnamespaces:
        for uri, prefix in mixin.namespaces.items():
            mixin._matchnamespaces[uri.lower()] = prefix
    mixin._matchnamespaces[ARXIV_NAMESPACE] = ARXIV_PREFIX
    mixin._start_arxiv_affiliation = _start_arxiv_affiliation
    mixin._end_arxiv_affiliation = _end_arxiv_affiliation
    for key in _TEXT_ELEMENTS:
        start, end = _text_element_handlers(key)
        setattr(mixin, f"_start_{key}", start)
        setattr(mixin, f"_end_{key}", end)
    mixin.namespaces[ARXIV_NAMESPACE] = ARXIV_PREFIX  # last: it marks the whole as installed


@dataclass(slots=True)
class FeedparserResult:
    result: dict[str, Any]  # a feedparser.FeedParserDict
    kind: str  # "arxiv-api", "arxiv-rss", "rss", "atom", or "" when no feed was found

    @property
    def feed(self) -> dict:
        return self.result.get("feed", {})

    @property
    def entries(self) -> list:
        return self.result.get("entries", [])

    @property
    def lenient(self) -> bool:
        """Read by feedparser's loose parser: its strict one found the document not well-formed."""
        return isinstance(self.result.get("bozo_exception"), xml.sax.SAXException)

    @property
    def xml_error(self) -> str:
        """Where and why the document is not well-formed XML ("" if it is)."""
        return describe_xml_error(self.result.get("bozo_exception"))


def run(data: bytes) -> FeedparserResult:
    import feedparser

    _teach_arxiv_namespace()
    try:
        result = feedparser.parse(io.BytesIO(data), sanitize_html=False, resolve_relative_uris=False)
    except ValueError as error:
        # feedparser looks up the name of an encoding it finds on the first
        # line as given; one it cannot even look up (a NUL in it) raises.
        raise FeedError(f"not a feed: its first line names an encoding that cannot be read ({error})") from None
    parsed = FeedparserResult(result, _kind(result))
    if parsed.lenient:
        _decode_what_the_loose_parser_left(parsed.entries)
    return parsed


# The loose parser decodes the five XML entities (by name or number) only in
# what it takes as content (titles, summaries); everywhere else it leaves them
# as written, where the strict parser decodes them: `J. Foo &amp; Bar` in a
# journal ref, `R&amp;D` in a name. They are decoded here, once and in one
# pass, so `&amp;lt;` in the document is the text `&lt;`, as read strictly.
# (feedparser writes a number it keeps in lower case: `&#x3c;`.)
_LEFT_ENCODED = {
    "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'",
    "&#60;": "<", "&#62;": ">", "&#38;": "&", "&#34;": '"', "&#39;": "'",
    "&#x3c;": "<", "&#x3e;": ">", "&#x26;": "&", "&#x22;": '"', "&#x27;": "'",
}
_LEFT_ENCODED_PATTERN = re.compile("|".join(map(re.escape, _LEFT_ENCODED)))
# What feedtui reads of an entry that is not content: the arXiv elements,
# and each author's name and affiliations.
_ENTRY_TEXT = tuple(key for key in _TEXT_ELEMENTS if key.startswith(ARXIV_PREFIX + "_")) + ("author",)


def _decoded(value: str) -> str:
    return _LEFT_ENCODED_PATTERN.sub(lambda match: _LEFT_ENCODED[match.group()], value)


def _decode_what_the_loose_parser_left(entries: list) -> None:
    for entry in entries:
        for key in _ENTRY_TEXT:
            value = dict.get(entry, key)
            if isinstance(value, str):
                entry[key] = _decoded(value)
        for author in dict.get(entry, "authors") or ():
            name = author.get("name")
            if isinstance(name, str):
                author["name"] = _decoded(name)
            affiliations = author.get("arxiv_affiliations")
            if affiliations:
                author["arxiv_affiliations"] = [_decoded(str(a)) for a in affiliations]


def _kind(result: dict[str, Any]) -> str:
    version = result.get("version") or ""
    feed = result.get("feed", {})
    entries = result.get("entries", [])
    if not version and not entries:
        return ""
    if version.startswith("atom") and is_api_feed_id(dict.get(feed, "id")):
        return "arxiv-api"
    if _is_arxiv_listing(feed, entries):
        return "arxiv-rss"
    return "atom" if version.startswith("atom") else "rss"


def _is_arxiv_listing(feed: dict, entries: list) -> bool:
    """arXiv's category feeds (rss.arxiv.org, RSS 2.0 or Atom): announce types and oai guids."""
    for entry in entries:
        if dict.get(entry, "arxiv_announce_type") or string(entry, "id").lower().startswith("oai:arxiv.org:"):
            return True
    return any("rss.arxiv.org/" in string(feed, key).lower() for key in ("link", "id"))


def describe_xml_error(error: object) -> str:
    """`XML error at line 3, column 14: undefined entity` for a SAX parse error; "" for anything else."""
    if not isinstance(error, xml.sax.SAXParseException):
        return ""
    return xml_error_text(error.getMessage(), error.getLineNumber(), error.getColumnNumber())


def xml_error_text(message: str, line: int | None, column: int | None) -> str:
    """Columns are counted from 1, as editors show them (expat counts from 0)."""
    if line is None or column is None:
        return f"XML error: {message}"
    return f"XML error at line {line}, column {column + 1}: {message}"


def string(mapping: dict, key: str) -> str:
    """The str feedparser stored under exactly this key ("" if none).

    `dict.get` on purpose: FeedParserDict answers some missing keys with
    another key's value (`updated` with `published`), which is not wanted here.
    """
    value = dict.get(mapping, key)
    return value if isinstance(value, str) else ""


def is_markup(mapping: dict, detail_key: str) -> bool:
    """Whether feedparser took the field as HTML / XHTML (its `*_detail` type)."""
    detail = dict.get(mapping, detail_key)
    return isinstance(detail, dict) and detail.get("type") in MARKUP_TYPES
