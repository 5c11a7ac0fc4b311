"""The fast path: an arXiv API response read with ElementTree (expat) instead of feedparser.

feedparser is slow on the arXiv API's pages of up to 2,000 entries; this
reader needs a small fraction of its time (bench/bench_parse.py measures
both). It reads exactly the layout the arXiv API serves (see
`build_api`) and collects the same raw strings feedparser would hand
over, including feedparser's small text rewrites (surrounding white space
stripped; UTF-8 that was decoded as Latin-1 repaired in the fields feedparser
repairs), so both paths build identical Papers.

Anything outside that layout — a DOCTYPE (hence no entity declarations, so no
entity expansion at all), `xml:base`, a repeated single-valued element, markup
inside a text field, an element or namespace the API does not use, a text
type other than text or html, an author with an e-mail but no name — raises
`NotApiLayout` and the caller uses feedparser instead. Malformed XML raises `xml.etree.ElementTree.ParseError`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from feedtui.sources.parse.build_api import ApiAuthor, ApiEntry, ApiFeed, ApiLink, is_api_feed_id
from feedtui.sources.parse.document import Document

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"

_FEED = ATOM + "feed"
_ENTRY = ATOM + "entry"
_ID = ATOM + "id"
_TITLE = ATOM + "title"
_SUMMARY = ATOM + "summary"
_PUBLISHED = ATOM + "published"
_UPDATED = ATOM + "updated"
_AUTHOR = ATOM + "author"
_NAME = ATOM + "name"
_LINK = ATOM + "link"
_CATEGORY = ATOM + "category"
_AFFILIATION = ARXIV + "affiliation"
_PRIMARY = ARXIV + "primary_category"
_COMMENT = ARXIV + "comment"
_JOURNAL_REF = ARXIV + "journal_ref"
_DOI = ARXIV + "doi"
_TOTAL = OPENSEARCH + "totalResults"
_START = OPENSEARCH + "startIndex"
_PER_PAGE = OPENSEARCH + "itemsPerPage"

# Single-valued entry elements whose text goes straight into an ApiEntry field.
_PLAIN_FIELDS = {
    _ID: "id",
    _PUBLISHED: "published",
    _UPDATED: "updated",
    _COMMENT: "comment",
    _JOURNAL_REF: "journal_ref",
    _DOI: "doi",
}
_ENTRY_SINGLE = frozenset({*_PLAIN_FIELDS, _TITLE, _SUMMARY, _PRIMARY})
_FEED_SINGLE = frozenset({_ID, _TITLE, _TOTAL, _START, _PER_PAGE})
# Feed-level Atom elements that carry nothing feedtui reads; allowed, ignored.
_FEED_IGNORED = frozenset(
    ATOM + name for name in ("link", "updated", "subtitle", "generator", "icon", "logo", "rights")
)
_AUTHOR_IGNORED = frozenset({ATOM + "email", ATOM + "uri"})
_PLAIN_TYPES = frozenset({"text", "plain", "text/plain"})
_HTML_TYPES = frozenset({"html", "text/html"})
_SNIFF_BYTES = 4096


class NotApiLayout(Exception):
    """Well-formed XML, but not (only) what the arXiv API serves: let feedparser read it."""


def may_be_api_response(document: Document) -> bool:
    """A cheap look at the bytes: worth trying the fast path?"""
    return (
        document.root_local_name == "feed"
        and not document.has_doctype
        and b"arxiv.org/api/" in document.data[:_SNIFF_BYTES]
        and b"xml:base" not in document.data
    )


def read_api_feed(data: bytes) -> ApiFeed:
    parser = ET.XMLParser()
    parser.feed(data)
    root = parser.close()
    if root.tag != _FEED:
        raise NotApiLayout("the root is not an Atom feed")
    if sum(1 for _ in root.iter(_ENTRY)) != sum(1 for child in root if child.tag == _ENTRY):
        raise NotApiLayout("entries nested below the feed level")
    feed = ApiFeed()
    feed_id = ""
    seen: set[str] = set()
    for child in root:
        tag = child.tag
        if tag == _ENTRY:
            feed.entries.append(_entry(child))
            continue
        if tag in _FEED_SINGLE:
            _once(tag, seen)
            _leaf(child)
        if tag == _TITLE:
            feed.title, feed.title_html = _text_construct(child)
        elif tag == _ID:
            feed_id = _repaired(child.text)
        elif tag == _TOTAL:
            feed.total_results = _repaired(child.text)
        elif tag == _START:
            feed.start_index = _repaired(child.text)
        elif tag == _PER_PAGE:
            feed.items_per_page = _repaired(child.text)
        elif tag not in _FEED_IGNORED:
            raise NotApiLayout(f"unexpected element {tag} in the feed")
    if not is_api_feed_id(feed_id):
        raise NotApiLayout("the feed id is not an arXiv API id")
    return feed


def _entry(element: ET.Element) -> ApiEntry:
    # The checks of `_leaf`, `_has_text` and `_once` are written out here and
    # in `_author`: these loops run for every element of every entry, and the
    # calls cost more than the checks.
    entry = ApiEntry()
    authors, links, categories = entry.authors, entry.links, entry.categories
    seen: set[str] = set()
    for child in element:
        tag = child.tag
        if tag == _AUTHOR:
            authors.append(_author(child))
        elif tag == _LINK:
            if len(child):
                raise NotApiLayout(f"markup inside {tag}")
            get = child.get
            links.append(
                ApiLink(
                    href=get("url", get("uri", get("href"))) or "",
                    rel=get("rel", "alternate"),
                    title=get("title") or "",
                )
            )
        elif tag == _CATEGORY:
            if len(child):
                raise NotApiLayout(f"markup inside {tag}")
            text = child.text
            if text and not text.isspace():
                raise NotApiLayout("a category with text")
            term = child.get("term")
            if term is not None:
                categories.append(term)
        elif tag in _ENTRY_SINGLE:
            if tag in seen:
                raise NotApiLayout(f"{tag} repeated")
            seen.add(tag)
            if len(child):
                raise NotApiLayout(f"markup inside {tag}")
            _single(entry, tag, child)
        else:
            raise NotApiLayout(f"unexpected element {tag} in an entry")
    return entry


def _single(entry: ApiEntry, tag: str, element: ET.Element) -> None:
    field = _PLAIN_FIELDS.get(tag)
    if field is not None:
        setattr(entry, field, _repaired(element.text))
    elif tag == _TITLE:
        entry.title, entry.title_html = _text_construct(element)
    elif tag == _SUMMARY:
        entry.summary, entry.summary_html = _text_construct(element)
    else:  # _PRIMARY
        if not element.attrib or _has_text(element.text):
            raise NotApiLayout("a primary category without a term attribute")
        entry.primary_category = element.get("term") or ""


def _author(element: ET.Element) -> ApiAuthor:
    text = element.text
    if text and not text.isspace():
        raise NotApiLayout("text directly inside an author")
    name = ""
    affiliations: list[str] = []
    named = contact = False
    for child in element:
        if len(child):
            raise NotApiLayout(f"markup inside {child.tag}")
        tail = child.tail
        if tail and not tail.isspace():
            raise NotApiLayout("text directly inside an author")
        tag = child.tag
        if tag == _NAME:
            # feedparser keeps a name as written (no repair), stripped.
            name = (child.text or "").strip()
            named = True
        elif tag == _AFFILIATION:
            affiliations.append(_repaired(child.text))
        elif tag in _AUTHOR_IGNORED:
            contact = True
        else:
            raise NotApiLayout(f"unexpected element {tag} in an author")
    if contact and not named:
        # feedparser gives such an author the previous author's name.
        raise NotApiLayout("an author with an e-mail or URI but no name")
    return ApiAuthor(name, affiliations)


def _text_construct(element: ET.Element) -> tuple[str, bool]:
    """An Atom text construct: (raw text, whether it is HTML)."""
    kind = element.get("type")
    if "mode" in element.attrib:
        raise NotApiLayout("an Atom 0.3 content mode")
    if kind is None or kind.lower() in _PLAIN_TYPES:
        return _repaired(element.text), False
    if kind.lower() in _HTML_TYPES:
        return _repaired(element.text), True
    raise NotApiLayout(f"a text of type {kind!r}")


def _repaired(raw: str | None) -> str:
    """The text as feedparser hands it over: stripped, and UTF-8 that was decoded
    as Latin-1 turned back into what it said ("Ã©" → "é")."""
    if not raw:
        return ""
    text = raw.strip()
    if text.isascii():
        return text
    try:
        return text.encode("iso-8859-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def _leaf(element: ET.Element) -> None:
    if len(element):
        raise NotApiLayout(f"markup inside {element.tag}")


def _once(tag: str, seen: set[str]) -> None:
    if tag in seen:
        raise NotApiLayout(f"{tag} repeated")
    seen.add(tag)


def _has_text(text: str | None) -> bool:
    return bool(text) and not text.isspace()
