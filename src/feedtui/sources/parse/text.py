"""Untrusted feed text → the clean, bounded strings a `Paper` keeps.

Every text field of every parsed paper goes through `line` (titles, names,
categories: one line) or `block` (abstracts, comments: paragraphs kept), which
apply `feedtui.text.sanitize` and then the limits below.

Limits (a hostile or broken feed must not make one paper huge):
- a title keeps at most `MAX_TITLE` characters and an abstract `MAX_ABSTRACT`;
  a cut text ends with "…" (the ellipsis counts towards the limit);
- a paper keeps its first `MAX_AUTHORS` authors, twice the longest author
  list published (5,154 names, ATLAS and CMS, 2015); `Paper.authors_omitted`
  counts the rest, so "+N", "and N more" and BibTeX's `and others` stay true;
- every other field has a limit of its own, generous for real data.

Speed: `sanitize.clean_line` / `clean_block` examine text character by
character in Python, which costs more for one abstract than the fast path
spends on a whole arXiv entry. Nearly all feed text contains nothing
they would change except white space, so `line` and `block` first ask C-speed
checks (`_is_plain`) whether the text holds anything sanitising acts on, and
call the sanitiser only then; otherwise they fold the white space themselves,
exactly as the sanitiser would. Tests check that both ways give identical
strings.

C1 code points (U+0080–U+009F) in feed text are almost always windows-1252
bytes read as Latin-1; like feedparser, they are read as the windows-1252
characters they stand for (U+0093 → “), and the few with no such character
are removed by the sanitiser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from feedtui.text.latex import latex_to_unicode
from feedtui.text.sanitize import clean_block, clean_line, looks_like_html

MAX_TITLE = 1_000
MAX_ABSTRACT = 20_000
MAX_AUTHORS = 10_000
MAX_NAME = 300
MAX_AFFILIATIONS = 20
MAX_AFFILIATION = 500
MAX_CATEGORIES = 50
MAX_CATEGORY = 100
MAX_COMMENT = 2_000
MAX_JOURNAL_REF = 1_000
MAX_DOI = 300
MAX_URL = 2_000
# Words that end a person's name after the family name (`Carlos Méndez, Jr.`),
# compared in lower case.
NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})

# Raw text beyond this many times the limit is cut before cleaning, so a
# 100 MB field costs no more than a long one (HTML can shrink a lot when its
# tags go, hence the generous factor).
_RAW_FACTOR = 8

# UTF-8 bytes → one byte per character: b"X" for a character from U+0300 up
# (lead bytes 0xCC-0xFF), b"." for any other; continuation bytes are deleted.
# Scanning that for b"XXX" is far quicker than a character-class regex.
_FROM_U0300 = bytes(ord("X") if byte >= 0xCC else ord(".") for byte in range(256))
_CONTINUATION_BYTES = bytes(range(0x80, 0xC0))
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SPACE_RUN = re.compile(" {2,}")
_C1 = re.compile("[\x80-\x9f]")
_C1_AS_CP1252 = {code: char for code in range(0x80, 0xA0) if (char := bytes([code]).decode("cp1252", errors="ignore"))}


def _is_plain(text: str, html: bool) -> bool:
    """True when the sanitiser could change nothing in `text` but white space,
    and the only white space in it is spaces and line feeds.

    `str.isprintable` is false for every control, format, line-separator and
    non-ASCII space character — a superset of what the sanitiser removes or
    turns into spaces. Combining marks are printable, so a run of three
    characters from U+0300 up (which any run of three combining marks is)
    sends the text to the sanitiser too.
    """
    if not text.replace("\n", " ").isprintable():
        return False
    if html and looks_like_html(text):
        return False
    return text.isascii() or _has_no_combining_run(text)


def _has_no_combining_run(text: str) -> bool:
    marks = text.encode("utf-8", "surrogatepass").translate(_FROM_U0300, _CONTINUATION_BYTES)
    return b"XXX" not in marks


def _fold_spaces(text: str) -> str:
    """`" ".join(text.split())` for text whose only white space is spaces and line feeds."""
    text = text.replace("\n", " ")
    if "  " in text:
        text = _SPACE_RUN.sub(" ", text)
    return text.strip(" ")


def fold_line(text: str, *, html: bool) -> str:
    """`sanitize.clean_line` of the text with C1 code points read as windows-1252,
    computed without the sanitiser when it would only fold white space."""
    if _is_plain(text, html):
        return _fold_spaces(text)
    return clean_line(_c1_as_cp1252(text), html_allowed=html)


def fold_block(text: str, *, html: bool) -> str:
    """`sanitize.clean_block` of the text with C1 code points read as windows-1252,
    computed without the sanitiser when it would only fold white space."""
    if not _is_plain(text, html):
        return clean_block(_c1_as_cp1252(text), html_allowed=html)
    if "\n" not in text or not _PARAGRAPH_BREAK.search(text):
        return _fold_spaces(text)
    paragraphs = (_fold_spaces(p) for p in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(p for p in paragraphs if p)


def _c1_as_cp1252(text: str) -> str:
    if not text.isascii() and _C1.search(text):
        return text.translate(_C1_AS_CP1252)
    return text


def _bounded(raw: str | None, limit: int) -> str:
    if not raw:
        return ""
    return raw[: limit * _RAW_FACTOR] if len(raw) > limit * _RAW_FACTOR else raw


def cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def line(raw: str | None, limit: int, *, html: bool = False) -> str:
    """One line of plain text (titles, names, categories), at most `limit` characters."""
    if not raw:
        return ""
    if not html and _is_clean_line(raw, limit):
        return raw
    text = _bounded(raw, limit)
    return cut(fold_line(text, html=html), limit)


def _is_clean_line(text: str, limit: int) -> bool:
    """Already what `line` would make of it (the common case for names and categories)."""
    return (
        len(text) <= limit
        and text.isprintable()
        and text[0] != " "
        and text[-1] != " "
        and "  " not in text
        and (text.isascii() or _has_no_combining_run(text))
    )


def block(raw: str | None, limit: int, *, html: bool = False) -> str:
    """Plain text with paragraphs (abstracts, comments), at most `limit` characters."""
    text = _bounded(raw, limit)
    return cut(fold_block(text, html=html), limit) if text else ""


def title_display(title: str, *, math_only: bool = False) -> str:
    """The title with LaTeX rendered (only its math, for web feeds), still one clean line."""
    rendered = latex_to_unicode(title, math_only=math_only) if title else ""
    return rendered if rendered == title else fold_line(rendered, html=False)


def abstract_display(abstract: str, *, math_only: bool = False) -> str:
    """The abstract with LaTeX rendered (only its math, for web feeds), still clean plain text."""
    rendered = latex_to_unicode(abstract, math_only=math_only) if abstract else ""
    return rendered if rendered == abstract else fold_block(rendered, html=False)


def entries(count: int) -> str:
    """Say "1 entry" or "3 entries" (for warnings)."""
    return "1 entry" if count == 1 else f"{count} entries"


def named(raw_names: Iterable[str]) -> int:
    """How many of these raw names are not blank: the authors past
    `MAX_AUTHORS`, counted without the cost of cleaning each."""
    return sum(1 for name in raw_names if name and not name.isspace())
