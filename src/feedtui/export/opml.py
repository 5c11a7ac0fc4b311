"""OPML 2.0: feed topics out, another reader's subscriptions in.

Export. Every topic whose definition has feed URLs is written; the others
(pure arXiv queries and categories) have no feed to give another reader
(`feedtui export opml` names those you follow or made, so none is lost unseen).
A topic with one feed is one `<outline type="rss">`; a topic with several is
a folder outline holding one `type="rss"` outline per feed, named by its URL
without the user name and password it may carry. The topic's
description goes in the standard `description` attribute. What OPML has no
words for goes in attributes of feedtui's own namespace (declared on the
root as `xmlns:feedtui`), set on the topic's outline (the folder, or the
single feed): `feedtui:query`, the query narrowing the feeds, and
`feedtui:categories`, space-separated arXiv categories. Other readers ignore
them; this module reads them back, so export → import keeps feed topics whole.

Import (newsboat, nom, Thunderbird, any reader):
- a folder (an outline without `xmlUrl` that holds outlines) is a topic named
  by its `text`/`title`; its feeds are the topic's feeds. In nested folders a
  feed belongs to its nearest named folder; folders with the same name are one
  topic; a folder without a name passes its feeds up to its parent.
- a feed outside any folder is a topic of its own named by its `title`/`text`
  (or its URL's host, port and path: never its user name and password,
  which a name would show everywhere), made unique with ` (2)`, ` (3)`…; unless it carries an OPML 2.0
  `category` attribute, whose tags (`a,b` or `/a/b`, last segment) then name
  the topics it joins.
- duplicates are merged: a feed appears once per topic (the same `xmlUrl`
  twice in a folder), and a feed outside any folder is dropped when it is the
  same listing again: the same `xmlUrl` under the same name, outside folders
  or in one (some readers list every feed at the top as well as in its
  folder). Under a name of its own it stays a topic of its own, so a named
  topic never disappears; in a file feedtui wrote (it declares feedtui's
  namespace) every outline is a topic and none is dropped. A feed in two
  folders stays in both (as tags do in newsboat).
- a name longer than a topic name may be (topics/names.py) is cut short,
  ending in `…`, and so is its part before ` (2)`: journal feeds have long titles.
- only http(s) feed URLs are kept; `query:`, `exec:`, `file:` … are skipped
  with a warning. Names pass through `clean_line` (no control characters).
- a file that is not UTF-8 and says nothing of its encoding (no byte order
  mark, no `encoding=`), as older readers wrote them, is read as
  windows-1252 with a warning, as feeds are (sources/parse/document.py) and
  as feedparser does; XML would read it as UTF-8 and stop at the first accent.

A newsboat `urls` file (one `URL "tag" "~Title"` a line, `# comments`)
given instead of OPML is read as OPML feeds would be: each URL a feed, named
by its `~Title`, in the topic of each of its tags (as `category` above); tags
and titles are what `newsboat -e` leaves out. It is known by every line but
blanks and comments starting with a URL, one of them http(s); anything else
is parsed as XML.

Safety: expat parses the bytes with every entity declaration refused, so an
entity-expansion bomb never expands and an external entity (XXE) is never
resolved; references to entities defined outside the file are refused too.
"""

from __future__ import annotations

import codecs
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import format_datetime
from urllib.parse import urlsplit, urlunsplit
from xml.etree import ElementTree
from xml.parsers import expat

from feedtui.model import Topic, TopicDefinition, utcnow
from feedtui.sources.parse.document import codec_name, declared_encoding, is_utf8, leading_instructions_say_utf8, read_as
from feedtui.text.links import FeedUrlError, feed_url, safe_link
from feedtui.text.sanitize import clean_line, strip_controls
from feedtui.topics.names import fit_name

FEEDTUI_NS = "https://pypi.org/project/feedtui-papers/#opml-1"
# Files exported before the project took its name on the package index
# declare this one: they are still read as feedtui's own.
FORMER_NS = ("https://pypi.org/project/feedtui/#opml-1",)
OWN_NAMESPACES = (FEEDTUI_NS, *FORMER_NS)
# UTF-32's marks begin with UTF-16's.
_BYTE_ORDER_MARKS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_DECLARES_ENCODING = re.compile(rb"<\?xml[^>]*?\sencoding\s*=")
# How deep elements may nest (opml, body, outlines): visiting the outlines
# recurses once a level, and folders of folders end long before this.
MAX_DEPTH = 100
# A newsboat `urls` line starts with its URL: http(s), or query:, exec:, filter:.
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S")
_HTTP_START = re.compile(r"https?://", re.IGNORECASE)
# Bytes 0x80–0x9F as windows-1252 reads them (Latin-1 reads them as controls).
_CP1252_FOR_C1 = {code: char for code in range(0x80, 0xA0) if (char := bytes([code]).decode("cp1252", errors="ignore"))}


class OpmlError(ValueError):
    """An OPML file that cannot be read; the message names the file and the problem."""

    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")


@dataclass(slots=True)
class OpmlImport:
    topics: list[Topic]
    warnings: list[str] = field(default_factory=list)
    # Feed outlines folded into another with the same xmlUrl.
    duplicates: int = 0
    # Outlines that are not http(s) feeds (each also a warning).
    skipped: int = 0


# -- export ---------------------------------------------------------------------


def export_opml(topics: Iterable[Topic], *, created: datetime | None = None, title: str = "feedtui topics") -> str:
    """An OPML 2.0 document with one outline (or folder) per feed topic."""
    root = ElementTree.Element("opml", {"version": "2.0", "xmlns:feedtui": FEEDTUI_NS})
    head = ElementTree.SubElement(root, "head")
    ElementTree.SubElement(head, "title").text = title
    ElementTree.SubElement(head, "dateCreated").text = format_datetime(created or utcnow(), usegmt=True)
    ElementTree.SubElement(head, "docs").text = "https://opml.org/spec2.opml"
    body = ElementTree.SubElement(root, "body")
    for topic in topics:
        feeds = topic.definition.feeds
        if not feeds:
            continue
        name = _xml_text(topic.name)
        if len(feeds) == 1:
            outline = _feed_outline(body, name, feeds[0])
        else:
            outline = ElementTree.SubElement(body, "outline", {"text": name, "title": name})
            for url in feeds:
                _feed_outline(outline, _xml_text(_without_user_info(url)), url)
        if topic.description:
            outline.set("description", _xml_text(topic.description))
        if topic.definition.query:
            outline.set("feedtui:query", _xml_text(topic.definition.query))
        if topic.definition.categories:
            outline.set("feedtui:categories", " ".join(topic.definition.categories))
    ElementTree.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _feed_outline(parent: ElementTree.Element, name: str, url: str) -> ElementTree.Element:
    return ElementTree.SubElement(
        parent, "outline", {"type": "rss", "text": name, "title": name, "xmlUrl": _xml_text(url)}
    )


def _xml_text(text: str) -> str:
    """No characters XML 1.0 forbids (and no terminal controls) in what we write."""
    return strip_controls(text).replace("\n", " ")


# -- import ---------------------------------------------------------------------


def import_opml(data: bytes, source: str) -> OpmlImport:
    """Topics from another reader's OPML; raises OpmlError for a file that is not usable OPML."""
    if not data.strip():
        raise OpmlError(source, "the file is empty (expected OPML from a feed reader or `feedtui export opml`)")
    text = _undeclared_windows_1252(data)
    if text is not None:
        data = text.encode("utf-8")
    else:
        data = _declared_as_utf8(data, source)
    url_lines = _url_lines(data)
    if url_lines is not None:
        return _import_url_lines(url_lines, source, windows_1252=text is not None)
    root, ours = _parse(data, source)
    tag = _local(root.tag)
    if tag != "opml":
        hint = " (it looks like a feed: add it with `feedtui topic add NAME --feed URL`)" if tag in ("rss", "feed", "RDF") else ""
        raise OpmlError(source, f"the root element is <{clean_line(tag)}>, not <opml>{hint}")
    body = next((child for child in root if _local(child.tag) == "body"), None)
    if body is None:
        raise OpmlError(source, "it has no <body> element, where OPML lists its feeds")
    collector = _Collector(source, ours=ours)
    if text is not None:
        collector.warnings.append(_read_as_windows_1252(source))
    for child in body:
        if _local(child.tag) == "outline":
            collector.visit(child, None)
    return collector.result()


def _read_as_windows_1252(source: str) -> str:
    return f"{source}: the file is not UTF-8 and names no encoding; read as windows-1252"


def _url_lines(data: bytes) -> list[list[str]] | None:
    """The words of each line of a newsboat `urls` file (`URL "tag" "~Title"`,
    `# comments`), when every line but blanks and comments starts with a URL
    and at least one is http(s); None for anything else (OPML, or not)."""
    text = data.decode("utf-8-sig", errors="replace")
    if text.lstrip().startswith("<"):
        return None
    lines: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(line)
        except ValueError:  # an unbalanced quote
            words = line.split()
        if not words or not _URL_START.match(words[0]):
            return None
        lines.append(words)
    return lines if any(_HTTP_START.match(words[0]) for words in lines) else None


def _import_url_lines(lines: list[list[str]], source: str, *, windows_1252: bool) -> OpmlImport:
    """Each URL a feed, named by its `~Title` (or its URL), and a feed with tags
    in the topic of each tag, as OPML's `category` puts it; `!` (hidden in
    newsboat) is no tag."""
    collector = _Collector(source)
    collector.warnings.append(
        f"{source}: not OPML but a list of feed URLs, as in newsboat's urls file: each URL read as a feed, its tags as topics"
    )
    if windows_1252:
        collector.warnings.append(_read_as_windows_1252(source))
    for url, *words in lines:
        titles = [word[1:] for word in words if word.startswith("~")]
        tags = [fit_name(clean_line(word, html_allowed=False)) for word in words if word != "!" and word[:1] != "~"]
        outline = ElementTree.Element("outline", {"text": titles[-1] if titles else ""})
        collector.feed(outline, url, tags=[tag for tag in dict.fromkeys(tags) if tag])
    return collector.result()


def _undeclared_windows_1252(data: bytes) -> str | None:
    """The text of a file that is not UTF-8 and says nothing of its encoding,
    read as windows-1252; None for any other file."""
    if data.startswith(_BYTE_ORDER_MARKS) or b"\0" in data[:4] or _DECLARES_ENCODING.match(data.lstrip()[:512]):
        return None
    if is_utf8(data):
        return None
    return data.decode("latin-1").translate(_CP1252_FOR_C1)


def _declared_as_utf8(data: bytes, source: str) -> bytes:
    """A file whose XML declaration names an encoding other than UTF-8,
    read with it here (as feeds are, see `read_as`) and given to expat in
    UTF-8: expat reads no multi-byte encoding but UTF-8 and UTF-16
    (Shift_JIS, GBK, Big5, EUC-KR are refused). Files with a byte order mark
    or an encoding that is not ASCII-compatible are expat's to read as they are."""
    if data.startswith(_BYTE_ORDER_MARKS) or data.isascii():
        return data
    declared = declared_encoding(data)
    if codec_name(declared) in (None, "utf-8"):
        return data
    read = read_as(data, declared)
    if read is None:
        raise OpmlError(
            source, f"the file is not in the {clean_line(declared)} it says it is: save it as UTF-8, or name its real encoding"
        )
    return leading_instructions_say_utf8(read[1].lstrip())


class _Refused(Exception):
    pass


def _parse(data: bytes, source: str) -> tuple[ElementTree.Element, bool]:
    """The root element, and whether feedtui wrote the file (it declares feedtui's namespace)."""
    builder = ElementTree.TreeBuilder()
    namespaces: set[str] = set()
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse_declaration(name: str, *_details) -> None:
        raise _Refused(
            f"it declares the XML entity '{clean_line(name)}'; feedtui refuses XML entities "
            "(they can expand into gigabytes or read local files), and OPML needs none"
        )

    def refuse_reference(name: str, *_details) -> None:
        raise _Refused(
            f"it uses the entity '&{clean_line(name)};' defined outside the file; feedtui does not load outside definitions"
        )

    parser.EntityDeclHandler = refuse_declaration
    parser.UnparsedEntityDeclHandler = refuse_declaration
    parser.SkippedEntityHandler = refuse_reference
    depth = 0

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        if depth > MAX_DEPTH:
            raise _Refused(f"its outlines are nested more than {MAX_DEPTH} deep; no feed reader writes folders so deep")
        builder.start(_clark(name), {_clark(key): value for key, value in attrs.items()})

    def end(name: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(_clark(name))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartNamespaceDeclHandler = lambda _prefix, uri: namespaces.add(uri)
    try:
        parser.Parse(data, True)
    except _Refused as refusal:
        raise OpmlError(source, str(refusal)) from None
    except expat.ExpatError as error:
        problem = f"not valid XML: {expat.ErrorString(error.code)} (line {error.lineno}, column {error.offset + 1})"
        if error.code == expat.errors.codes[expat.errors.XML_ERROR_INVALID_TOKEN] and not is_utf8(data):
            if _DECLARES_ENCODING.match(data.lstrip()[:512]):
                problem += "; the file is not in the UTF-8 it says it is: save it as UTF-8, or name its real encoding"
            else:
                problem += "; the file is not UTF-8 text (is it an OPML file?)"
        raise OpmlError(source, problem) from None
    except ValueError as error:  # expat's own refusals of an encoding it cannot read
        raise OpmlError(source, f"cannot read its encoding: {clean_line(str(error))}") from None
    return builder.close(), not namespaces.isdisjoint(OWN_NAMESPACES)


def _clark(name: str) -> str:
    """expat's `uri local` to ElementTree's `{uri}local`."""
    uri, _, local = name.rpartition(" ")
    return f"{{{uri}}}{local}" if uri else local


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _attribute(element: ElementTree.Element, name: str) -> str | None:
    """An attribute by name, forgiving case (`xmlUrl`, `xmlurl`, `XMLURL`)."""
    value = element.get(name)
    if value is not None:
        return value
    folded = name.casefold()
    for key, value in element.attrib.items():
        if not key.startswith("{") and key.casefold() == folded:
            return value
    return None


def _name(element: ElementTree.Element) -> str:
    for attribute in ("text", "title"):
        name = clean_line(_attribute(element, attribute), html_allowed=False)
        if name:
            return fit_name(name)
    return ""


def _url_key(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, ""))


def _name_from_url(url: str) -> str:
    """`host[:port]/path`, never the user name and password a feed URL may
    carry: a name is shown everywhere, refresh messages and `topics` included."""
    parts = urlsplit(url)
    return fit_name(clean_line(_host_and_port(parts.netloc) + parts.path.rstrip("/"), html_allowed=False))


def _without_user_info(url: str) -> str:
    """The URL without its `user:password@`, to name a feed where people read it."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=_host_and_port(parts.netloc)))


def _host_and_port(netloc: str) -> str:
    # The user info ends at the last `@`: a password may hold an unescaped one.
    return netloc.rpartition("@")[2]


@dataclass(slots=True)
class _Draft:
    """A topic being gathered: a folder (or category tag), or a lone feed."""

    name: str
    standalone: bool
    label: str = ""  # a lone feed's own name, empty when it had none
    feeds: dict[str, str] = field(default_factory=dict)  # url key -> url
    query: str = ""
    categories: tuple[str, ...] = ()
    description: str = ""

    def take_extras(self, element: ElementTree.Element) -> None:
        """feedtui's own attributes and the description, the first time they are seen."""
        self.query = self.query or clean_line(_own_attribute(element, "query"), html_allowed=False)
        if not self.categories:
            text = clean_line(_own_attribute(element, "categories"), html_allowed=False)
            self.categories = tuple(text.replace(",", " ").split())
        self.description = self.description or clean_line(_attribute(element, "description"), html_allowed=False)


def _own_attribute(element: ElementTree.Element, name: str) -> str | None:
    """feedtui's attribute `name`, in its namespace or a former one."""
    for namespace in OWN_NAMESPACES:
        if (value := element.get(f"{{{namespace}}}{name}")) is not None:
            return value
    return None


class _Collector:
    def __init__(self, source: str, *, ours: bool = False) -> None:
        self.source = source
        self.ours = ours
        self.drafts: list[_Draft] = []
        self.folders: dict[str, _Draft] = {}
        # (url key, name) of each feed listed in a folder, and of each lone feed.
        self.in_folders: set[tuple[str, str]] = set()
        self.standalone: set[tuple[str, str]] = set()
        self.warnings: list[str] = []
        self.duplicates = 0
        self.skipped = 0

    def visit(self, element: ElementTree.Element, folder: _Draft | None) -> int:
        """Gather an outline; returns how many feeds it held (its own or below)."""
        url = _attribute(element, "xmlUrl")
        if url is not None:
            return self.feed(element, url, folder)
        children = [child for child in element if _local(child.tag) == "outline"]
        name = _name(element)
        if not children:
            self.warnings.append(f"{self.source}: skipped '{name or '(untitled)'}': not a feed (it has no xmlUrl)")
            self.skipped += 1
            return 0
        inner = self._folder(name, element) if name else folder
        held = sum(self.visit(child, inner) for child in children)
        if not held and name:
            self.warnings.append(f"{self.source}: folder '{name}' holds no http(s) feeds; no topic made from it")
        return held

    def _folder(self, name: str, element: ElementTree.Element | None) -> _Draft:
        draft = self.folders.get(name)
        if draft is None:
            draft = self.folders[name] = _Draft(name, standalone=False)
            self.drafts.append(draft)
        if element is not None:
            draft.take_extras(element)
        return draft

    def feed(
        self, element: ElementTree.Element, raw_url: str, folder: _Draft | None = None, *, tags: list[str] | None = None
    ) -> int:
        """Gather a feed into its folder, else into the topics of its tags
        (by default its `category` attribute's), else as a topic of its own."""
        label = _name(element)
        url = safe_link(raw_url.strip())
        problem = "is not an http(s) URL"
        if url is not None:
            try:
                url = feed_url(url)
            except FeedUrlError as error:
                url, problem = None, error.problem
        if url is None:
            shown = clean_line(raw_url, html_allowed=False)[:120] or "(empty)"
            what = f"feed '{label}'" if label else "a feed"
            self.warnings.append(f"{self.source}: skipped {what}: '{shown}' {problem}")
            self.skipped += 1
            return 0
        key = _url_key(url)
        if folder is not None:
            folders = [folder]
        else:
            if tags is None:
                tags = _category_tags(_attribute(element, "category"))
            folders = [self._folder(tag, None) for tag in tags]
        if folders:
            self.in_folders.add((key, label))
            for draft in folders:
                self._add(draft, key, url)
        elif (key, label) in self.standalone and not self.ours:
            self.duplicates += 1
        else:
            self.standalone.add((key, label))
            draft = _Draft(label or _name_from_url(url), standalone=True, label=label, feeds={key: url})
            draft.take_extras(element)
            self.drafts.append(draft)
        return 1

    def _add(self, draft: _Draft, key: str, url: str) -> None:
        if key in draft.feeds:
            self.duplicates += 1
        else:
            draft.feeds[key] = url

    def result(self) -> OpmlImport:
        taken = {name for name, draft in self.folders.items() if draft.feeds}
        topics: list[Topic] = []
        for draft in self.drafts:
            if not draft.feeds:
                continue
            name = draft.name
            if draft.standalone:
                if not self.ours and (next(iter(draft.feeds)), draft.label) in self.in_folders:
                    self.duplicates += 1
                    continue
                name = _unique(name, taken)
                taken.add(name)
            definition = TopicDefinition(
                query=draft.query, categories=draft.categories, feeds=tuple(draft.feeds.values())
            )
            topics.append(Topic(name, definition, draft.description, origin="user"))
        return OpmlImport(topics, self.warnings, self.duplicates, self.skipped)


def _category_tags(text: str | None) -> list[str]:
    """OPML 2.0 `category`: comma-separated, slash-delimited; a tag is the last segment."""
    tags: dict[str, None] = {}
    for item in (text or "").split(","):
        segments = [s for s in item.split("/") if s.strip()]
        tag = clean_line(segments[-1], html_allowed=False) if segments else ""
        if tag:
            tags.setdefault(fit_name(tag), None)
    return list(tags)


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while fit_name(name, f" ({n})") in taken:
        n += 1
    return fit_name(name, f" ({n})")
