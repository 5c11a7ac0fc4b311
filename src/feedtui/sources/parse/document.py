"""Response bytes → a UTF-8 XML document both parsers can read, or a FeedError.

Encodings are settled here, once, so the fast path and feedparser see the same
text: a byte order mark wins; then the HTTP charset, the XML declaration and
UTF-8 are tried in that order and the first that decodes the bytes is used.
Two common lies are caught: bytes that are not the declared UTF-8 are read as
windows-1252, and bytes declared as Latin-1 / windows-1252 / ASCII that are
valid UTF-8 (with some non-ASCII in them) are read as UTF-8. Either way a
warning says so. A document that was not UTF-8 is re-encoded as UTF-8 and its
declaration rewritten to match.

The first element decides what the bytes are: `<html>` is a web page, text
that starts with no `<` at all is not XML (JSON, a plain-text error such as
arXiv's "Rate exceeded."), and nothing is an empty response.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from feedtui.sources.base import FeedError
from feedtui.text.sanitize import clean_line

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# `<?` in UTF-16/32 without a byte order mark.
_BOMLESS = (
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00?\x00", "utf-16-le"),
    (b"\x00<\x00?", "utf-16-be"),
)
_DECLARATION = re.compile(rb"<\?xml\s[^>]*?\?>")
_INSTRUCTION = re.compile(rb"<\?[^>]*?\?>")
_ANY_DECLARED_ENCODING = re.compile(rb"""encoding\s*=\s*(?:"[^"]*"|'[^']*')""")
_DECLARED_ENCODING = re.compile(rb"""encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']""")
_CHARSET = re.compile(r"""charset\s*=\s*["']?([A-Za-z0-9._-]{1,40})""", re.IGNORECASE)
_SINGLE_BYTE_LATIN = {"latin-1", "iso8859-1", "cp1252", "ascii"}
# Encodings read as the larger one that extends them, as web browsers read
# them (the WHATWG Encoding Standard): a feed labelled GB2312 or Shift_JIS by
# Windows software often holds characters only GBK or windows-31j have.
_SUPERSETS = {"gb2312": "gbk", "shift_jis": "cp932", "euc_kr": "cp949", "big5": "big5hkscs"}
_XML_SPACE = b" \t\r\n"
_LEADING_SPACE = re.compile(rb"[ \t\r\n]*")
_NAME = re.compile(rb"<([A-Za-z_][A-Za-z0-9_.:-]{0,59})")
_SNIPPET_BYTES = 200
_HTML = "not a feed: the response is HTML (a web page), not RSS or Atom"
# Entries read from one document at most. Under the size limit a feed can
# still hold hundreds of thousands of tiny entries, and each costs the parser
# and the cache far more than its bytes: minutes and gigabytes for such a
# feed. Real feeds hold hundreds; an arXiv API page at most 2,000.
MAX_ENTRIES = 10_000
_ENTRY_START = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:entry|item)[\s/>]")
# What closes a document cut just before an entry, by its root's local name.
_ENTRY_PARENTS_CLOSED = {"feed": "</{root}>", "rss": "</channel></{root}>", "RDF": "</{root}>"}


@dataclass(slots=True)
class Document:
    """An XML document in UTF-8 (BOM and leading white space removed)."""

    data: bytes
    # The first element's name as written (`feed`, `rss`, `rdf:RDF`).
    root: str
    has_doctype: bool
    warnings: list[str] = field(default_factory=list)

    @property
    def root_local_name(self) -> str:
        return self.root.rpartition(":")[2]


def prepare(data: bytes, content_type: str = "") -> Document:
    """Settle the encoding and check the bytes are XML other than a web page."""
    if not data or data.isspace():
        raise FeedError("not a feed: the response is empty")
    warnings: list[str] = []
    data = _as_utf8(data, content_type, warnings)
    data = leading_instructions_say_utf8(data.lstrip(_XML_SPACE))
    root, has_doctype = _sniff_root(data)
    data = _at_most_max_entries(data, root, warnings)
    return Document(data=data, root=root, has_doctype=has_doctype, warnings=warnings)


def _at_most_max_entries(data: bytes, root: str, warnings: list[str]) -> bytes:
    """The document cut before its entry number MAX_ENTRIES + 1, and closed as
    its root's kind of feed is (anything else is left for lenient reading)."""
    if data.count(b"<") <= 2 * MAX_ENTRIES:  # an entry has a start and an end tag at least
        return data
    cut, total = -1, 0
    for total, match in enumerate(_ENTRY_START.finditer(data), 1):
        if total == MAX_ENTRIES + 1:
            cut = match.start()
    if cut < 0:
        return data
    closing = _ENTRY_PARENTS_CLOSED.get(root.rpartition(":")[2], "").format(root=root)
    warnings.append(f"the feed holds {total:,} entries; read the first {MAX_ENTRIES:,}")
    return data[:cut] + closing.encode("ascii")


def _as_utf8(data: bytes, content_type: str, warnings: list[str]) -> bytes:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _reencode(data[len(bom) :].decode(encoding, errors="replace"))
    for start, encoding in _BOMLESS:
        if data.startswith(start):
            return _reencode(data.decode(encoding, errors="replace"))
    declared = declared_encoding(data)
    claimed = _charset(content_type) or declared
    if data.isascii():
        return data
    for name in (_charset(content_type), declared, "utf-8"):
        read = read_as(data, name)
        if read is None:
            continue
        encoding, utf8 = read
        if claimed and codec_name(claimed) != encoding:
            warnings.append(
                f"the feed says its encoding is {claimed} but it is {_label(encoding)}; read as {_label(encoding)}"
            )
        return utf8
    warnings.append(f"the feed says its encoding is {claimed or 'UTF-8'} but it is not; read as windows-1252")
    return _reencode(_decode_windows_1252(data))


def read_as(data: bytes, name: str | None) -> tuple[str, bytes] | None:
    """The codec `name` stands for (see `codec_name`) and `data` read with it,
    in UTF-8; None for an unknown codec or bytes it cannot decode. Bytes said
    to be Latin-1, windows-1252 or ASCII that are valid UTF-8 are read as
    UTF-8, a common lie."""
    encoding = codec_name(name)
    if encoding is None:
        return None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        return None
    if encoding in _SINGLE_BYTE_LATIN and is_utf8(data):
        encoding = "utf-8"
    return encoding, data if encoding == "utf-8" else _reencode(text)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _label(codec: str) -> str:
    return {"utf-8": "UTF-8", "cp1252": "windows-1252", "latin-1": "ISO-8859-1"}.get(codec, codec)


def _decode_windows_1252(data: bytes) -> str:
    # The five bytes windows-1252 leaves undefined are kept as the matching C1
    # code points, which the text cleaning removes.
    return "".join(
        chunk.decode("cp1252") if index % 2 == 0 else chunk.decode("latin-1")
        for index, chunk in enumerate(re.split(rb"([\x81\x8d\x8f\x90\x9d]+)", data))
    )


def declared_encoding(data: bytes) -> str | None:
    start = _LEADING_SPACE.match(data).end()
    declaration = _DECLARATION.match(data[start : start + 512])
    if not declaration:
        return None
    match = _DECLARED_ENCODING.search(declaration.group(0))
    return match.group(1).decode("ascii") if match else None


def _charset(content_type: str) -> str | None:
    match = _CHARSET.search(content_type or "")
    return match.group(1) if match else None


def codec_name(name: str | None) -> str | None:
    """The codec's canonical name (a superset's, see _SUPERSETS), or None for
    unknown codecs and ones that are not ASCII-compatible (a document whose
    first bytes are ASCII `<?xml` is not in UTF-16, whatever it says)."""
    if not name:
        return None
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return None
    codec = _SUPERSETS.get(codec, codec)
    if codec.startswith(("utf-16", "utf-32", "utf-7", "utf_16", "utf_32", "utf_7")):
        return None
    try:
        if "<?xml".encode(codec) != b"<?xml":
            return None
    except UnicodeError:
        return None
    return codec


def _reencode(text: str) -> bytes:
    return text.encode("utf-8", errors="replace").lstrip(_XML_SPACE)


def leading_instructions_say_utf8(data: bytes) -> bytes:
    """The document (in UTF-8 by now) with every processing instruction
    before its first element saying UTF-8 wherever it names an encoding. Any
    other value, however malformed ("ut\x00-8"), is replaced: feedparser
    takes an encoding from any leading `<?…?>`, not only `<?xml …?>`, and
    looks the name up as given (a name with a NUL in it raises instead of
    failing over)."""
    position = 0
    pieces: list[bytes] = []
    changed = False
    while True:
        instruction = _INSTRUCTION.match(data, position)
        if not instruction:
            break
        fixed = _ANY_DECLARED_ENCODING.sub(_as_utf8_value, instruction.group(0))
        changed = changed or fixed != instruction.group(0)
        position = _LEADING_SPACE.match(data, instruction.end()).end()
        pieces += (fixed, data[instruction.end() : position])
    return b"".join(pieces) + data[position:] if changed else data


def _as_utf8_value(declared: re.Match[bytes]) -> bytes:
    """An `encoding="…"` that names UTF-8 as it is (no copy of the document
    for `UTF-8`); any other value, `encoding="utf-8"`."""
    name = _DECLARED_ENCODING.fullmatch(declared.group(0))
    if name and codec_name(name.group(1).decode("ascii")) == "utf-8":
        return declared.group(0)
    return b'encoding="utf-8"'


def _sniff_root(data: bytes) -> tuple[str, bool]:
    """The first element's name and whether a DOCTYPE precedes it; FeedError if it is no feed."""
    position = 0
    has_doctype = False
    length = len(data)
    while position < length:
        while position < length and data[position] in _XML_SPACE:
            position += 1
        if data.startswith(b"<?", position):
            end = data.find(b"?>", position)
            position = length if end < 0 else end + 2
        elif data.startswith(b"<!--", position):
            end = data.find(b"-->", position + 4)
            position = length if end < 0 else end + 3
        elif data[position : position + 9].upper() == b"<!DOCTYPE":
            has_doctype = True
            if data[position + 9 : position + 14].strip().lower().startswith(b"html"):
                raise FeedError(_HTML)
            position = _doctype_end(data, position)
        else:
            break
    match = _NAME.match(data, position)
    if match:
        root = match.group(1).decode("ascii")
        if root.lower() == "html":
            raise FeedError(_HTML)
        return root, has_doctype
    if position == 0:
        raise FeedError(_not_xml(data))
    raise FeedError("not a feed: the XML document has no root element")


def _doctype_end(data: bytes, position: int) -> int:
    subset = data.find(b"[", position)
    close = data.find(b">", position)
    if close < 0:
        return len(data)
    if 0 <= subset < close:
        end = data.find(b"]", subset)
        close = data.find(b">", end) if end >= 0 else -1
    return len(data) if close < 0 else close + 1


def _not_xml(data: bytes) -> str:
    if data[:1] in (b"{", b"["):
        return "not a feed: the response is JSON, not RSS or Atom"
    snippet = clean_line(data[:_SNIPPET_BYTES].decode("utf-8", errors="replace"), html_allowed=False)
    if len(snippet) > 60:
        snippet = snippet[:59] + "…"
    return (
        f"not a feed: the response is not XML (it begins “{snippet}”)"
        if snippet
        else "not a feed: the response is not XML"
    )
