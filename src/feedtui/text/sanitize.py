"""Make text from strangers safe and plain.

Feeds carry HTML, terminal escape sequences, bidirectional overrides,
zero-width characters and floods of combining marks. Everything a source
hands us passes through `clean_line` (titles, names) or `clean_block`
(abstracts) before it is stored, so nothing downstream ever sees a control
character. The UI additionally renders all of it as `rich.text.Text`, never
as markup.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

MAX_COMBINING = 2

# Whole escape sequences first (so `ESC [ 2 J` disappears instead of leaving
# `[2J` behind): CSI, OSC (ended by BEL or ST), and the other ESC forms.
# String sequences (OSC, DCS, ...) are removed with their payload only when
# they are terminated on the same line; otherwise just the introducer goes,
# so an unterminated `ESC ]` cannot swallow the rest of an abstract. Once
# ESC and the C1 controls are gone, what remains is inert text.
_ESCAPE_SEQUENCE = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]?            # CSI ... final byte
  | \x9b[0-?]*[ -/]*[@-~]?              # 8-bit CSI
  | \x1b\][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)   # OSC ... BEL/ST
  | \x9d[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)     # 8-bit OSC
  | \x1b[PX^_][^\x1b\x9c\n]*(?:\x1b\\|\x9c)        # DCS, SOS, PM, APC ... ST
  | [\x90\x98\x9e\x9f][^\x1b\x9c\n]*(?:\x1b\\|\x9c)
  | \x1b[ -/]*[0-~]?                    # two-character escapes, bare introducers
    """,
    re.VERBOSE,
)
_C1_CONTROL = re.compile("[\x80-\x9f]")

# C0 controls except tab and newline, DEL, C1 controls; every format
# character (Unicode category Cf: bidi embeddings, overrides and isolates,
# zero-width characters, soft hyphens, invisible operators, tags) except the
# two joiners; and lone surrogates, which cannot even be encoded for the
# terminal.
_INVISIBLE_CLASS = (
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad"
    "\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
    "\ud800-\udfff"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f]"
)
_INVISIBLE = re.compile(_INVISIBLE_CLASS)
# Tag characters are kept only as a subdivision flag, e.g. England:
# U+1F3F4, the tags `gbeng`, U+E007F. A CLDR subdivision id is two to seven
# lowercase letters and digits; anything else in tags (hidden ASCII, the
# trick used to smuggle text past a reader) is still dropped.
_BLACK_FLAG = "\U0001f3f4"
_FLAG_OR_INVISIBLE = re.compile(
    f"({_BLACK_FLAG}[\U000e0030-\U000e0039\U000e0061-\U000e007a]{{2,7}}\U000e007f)"
    f"|{_INVISIBLE_CLASS}"
)
# ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER are kept: Persian and Indic
# words and emoji sequences (woman + ZWJ + microscope is one glyph, the
# woman scientist) are spelled with them, and unlike bidi controls they
# cannot reorder or hide what is around them. They only ever act between two
# non-ASCII characters, so one next to ASCII, a space or either end is noise
# (or a way to make `pay<ZWJ>pal` look like a word it does not match) and
# goes; a run of them is cut to its last.
_JOINERS = "\u200c\u200d"
_LINE_BREAKS = re.compile("[\r\x0b\x0c\x85\u2028\u2029]")
# Only these count as markup: abstracts are full of `$k<n$` and `a<b`, which
# an HTML parser would otherwise take for the start of a tag and swallow.
_HTML_TAG_NAMES = (
    "a|abbr|acronym|address|article|aside|b|bdi|bdo|big|blockquote|body|br|"
    "caption|center|cite|code|col|colgroup|dd|del|details|dfn|div|dl|dt|em|"
    "figcaption|figure|font|footer|h[1-6]|head|header|hr|html|i|img|ins|kbd|"
    "label|li|link|main|mark|meta|nav|ol|p|pre|q|s|samp|script|section|small|"
    "span|strike|strong|style|sub|summary|sup|table|tbody|td|tfoot|th|thead|"
    "title|tr|tt|u|ul|var|wbr"
)
_HTML_TAG = rf"</?(?:{_HTML_TAG_NAMES})(?=[\s/>])"


# The two patterns below are compiled when first needed, not at import: only
# text with `<` or `&` needs them, and this module is imported on the way to
# the reader's first paint.
@cache
def _tag_or_entity() -> re.Pattern[str]:
    return re.compile(rf"{_HTML_TAG}|<!--|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);", re.IGNORECASE)


@cache
def _stray_less_than() -> re.Pattern[str]:
    """A `<` that does not open a known tag, a comment or a declaration."""
    return re.compile(rf"<(?!{_HTML_TAG[1:]}|!)", re.IGNORECASE)


# Written with a single class first so that the regex engine can skip ASCII
# quickly (`[^...]{3,}` alone is several times slower to scan).
_NON_ASCII_RUN = re.compile(rf"[^\x00-\x7f][^\x00-\x7f]{{{MAX_COMBINING},}}")
_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")



def strip_controls(text: str) -> str:
    """Remove terminal escape sequences and invisible or control characters.

    Tabs become spaces; other line breaks (CR, FF, U+2028, ...) become `\n`.
    """
    if not text:
        return ""
    if _may_hold_controls(text):
        text = _LINE_BREAKS.sub("\n", text.replace("\r\n", "\n"))
        if "\x1b" in text or (not text.isascii() and _C1_CONTROL.search(text)):
            text = _ESCAPE_SEQUENCE.sub("", text)
        text = _strip_invisible(text)
    if "\t" in text:
        text = text.replace("\t", " ")
    text = _limit_combining(text)
    if not text.isascii() and ("\u200c" in text or "\u200d" in text):
        text = _tidy_joiners(text)
    return text


def _strip_invisible(text: str) -> str:
    """Drop invisible and control characters other than joiners and flag tags."""
    if _BLACK_FLAG in text:
        return _FLAG_OR_INVISIBLE.sub(_keep_flag, text)
    return _INVISIBLE.sub("", text)


def _keep_flag(match: re.Match[str]) -> str:
    return match.group(1) or ""


def _tidy_joiners(text: str) -> str:
    """Keep a joiner (the last of a run) only between two characters it can join.

    Joiners are found with str.find: a regex character class scans a long
    abstract several times slower, and the joiners are few.
    """
    pieces: list[str] = []
    done = 0
    for start in _joiner_positions(text):
        if start < done:
            continue  # inside a run already handled
        end = start + 1
        while end < len(text) and text[end] in _JOINERS:
            end += 1
        pieces.append(text[done:start])
        if 0 < start and end < len(text) and _joinable(text[start - 1]) and _joinable(text[end]):
            pieces.append(text[end - 1])
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _joiner_positions(text: str) -> list[int]:
    positions = []
    for joiner in _JOINERS:
        at = text.find(joiner)
        while at != -1:
            positions.append(at)
            at = text.find(joiner, at + 1)
    return sorted(positions)


def _joinable(ch: str) -> bool:
    return not ch.isascii() and not ch.isspace()


def _may_hold_controls(text: str) -> bool:
    """False when `text` certainly has nothing for strip_controls to remove.

    A quick test that lets the common, clean case skip the regex passes,
    which cost far more per character (this runs on every abstract).
    """
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _PLAIN_ASCII))
    if "\n" in text or "\t" in text:
        text = text.replace("\n", "").replace("\t", "")
    # Not printable: categories C*, Z* other than the space; all we remove is in there.
    return not text.isprintable()


def has_mark_flood(text: str) -> bool:
    """Whether some character carries more than MAX_COMBINING marks (what
    strip_controls would cut)."""
    return not text.isascii() and _limit_combining(text) != text


def _limit_combining(text: str) -> str:
    """Keep at most MAX_COMBINING non-spacing marks on any one character.

    Marks are non-ASCII, so a flood can only sit in a run of several
    non-ASCII characters; only such runs are examined character by character.
    """
    if text.isascii():
        return text
    return _NON_ASCII_RUN.sub(_limit_marks_in_run, text)


def _limit_marks_in_run(match: re.Match[str]) -> str:
    out: list[str] = []
    marks = 0
    for ch in match.group():
        if ch in _JOINERS:
            # A joiner neither counts as a mark nor ends the stack, else
            # mark, mark, ZWJ repeated would get a flood through. Joiners
            # left side by side by the cut are merged afterwards.
            out.append(ch)
            continue
        # Non-spacing and enclosing marks stack; combining() alone misses
        # the enclosing ones (U+20DD has combining class 0).
        if unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_COMBINING:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


def looks_like_html(text: str) -> bool:
    """Whether `text` has a known HTML tag, a comment or a character reference."""
    return ("<" in text or "&" in text) and _tag_or_entity().search(text) is not None


def html_to_text(text: str) -> str:
    """Plain text from an HTML fragment: tags dropped, entities decoded."""
    if not text or not looks_like_html(text):
        return text
    from feedtui.text.html_text import extract_text  # html.parser: only for text that has HTML

    return extract_text(_stray_less_than().sub("&lt;", text), fallback=text)


def clean_line(text: str | None, *, html_allowed: bool = True) -> str:
    """A single line of plain text: titles, names, categories."""
    if not text:
        return ""
    if html_allowed:
        text = html_to_text(text)
    text = strip_controls(text)
    return " ".join(text.split())


def clean_block(text: str | None, *, html_allowed: bool = True) -> str:
    """Plain text that may have paragraphs: abstracts, comments.

    Single line breaks are hard wrapping (arXiv wraps abstracts at 80 columns)
    and become spaces; blank lines separate paragraphs and are kept.
    """
    if not text:
        return ""
    if html_allowed:
        text = html_to_text(text)
    text = strip_controls(text)
    if "\n" not in text:
        return " ".join(text.split())
    cleaned = (" ".join(p.split()) for p in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(p for p in cleaned if p)


def one_line(text: str) -> str:
    """Fold a (clean) block onto one line, for list rows."""
    return " ".join(text.split())
