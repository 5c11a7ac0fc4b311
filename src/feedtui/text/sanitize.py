"""Make text from strangers safe and plain.

Feeds carry HTML, terminal escape sequences, bidirectional overrides,
zero-width characters and floods of combining marks. Everything a source
hands us passes through `clean_line` (titles, names) or `clean_block`
(abstracts) before it is stored, so nothing downstream ever sees a control
character. The UI additionally renders all of it as `rich.text.Text`, never
as markup.
"""

from __future__ import annotations

import html
import re
import unicodedata
from html.parser import HTMLParser

# Whole escape sequences first (so `ESC [ 2 J` disappears instead of leaving
# `[2J` behind): CSI, OSC (ended by BEL or ST), and the other ESC forms.
_ESCAPE_SEQUENCE = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]?            # CSI ... final byte
  | \x9b[0-?]*[ -/]*[@-~]?              # 8-bit CSI
  | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC ... BEL/ST
  | \x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?     # 8-bit OSC
  | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?        # DCS, SOS, PM, APC ... ST
  | [\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x1b\\|\x9c)?
  | \x1b[ -/]*[0-~]?                    # two-character escapes
    """,
    re.VERBOSE,
)

# C0 controls except tab and newline, DEL, C1 controls; bidi embeddings,
# overrides and isolates; zero-width and invisible formatting characters.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u061c\ufeff\ufff9-\ufffb"
    "\U000e0000-\U000e007f]"
)
_LINE_BREAKS = re.compile("[\r\x0b\x0c\x85\u2028\u2029]")
_SPACES = re.compile(r"[^\S\n]+")
_TAG_OR_ENTITY = re.compile(r"<[A-Za-z!/?]|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")

MAX_COMBINING = 2


def strip_controls(text: str) -> str:
    """Remove terminal escape sequences and invisible or control characters."""
    if not text:
        return ""
    text = _LINE_BREAKS.sub("\n", text.replace("\r\n", "\n"))
    if "\x1b" in text or any("\x80" <= ch <= "\x9f" for ch in text):
        text = _ESCAPE_SEQUENCE.sub("", text)
    text = text.replace("\t", " ")
    text = _INVISIBLE.sub("", text)
    return _limit_combining(text)


def _limit_combining(text: str) -> str:
    """Keep at most MAX_COMBINING combining marks on any one character."""
    if text.isascii():
        return text
    out: list[str] = []
    run = 0
    for ch in text:
        if unicodedata.combining(ch):
            run += 1
            if run > MAX_COMBINING:
                continue
        else:
            run = 0
        out.append(ch)
    return "".join(out)


class _TextExtractor(HTMLParser):
    _BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre"}
    _SKIP = {"script", "style", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BREAKS:
            self.parts.append("\n\n" if tag == "p" else "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif tag in ("p", "div", "li", "blockquote"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def looks_like_html(text: str) -> bool:
    return bool(_TAG_OR_ENTITY.search(text))


def html_to_text(text: str) -> str:
    """Plain text from an HTML fragment: tags dropped, entities decoded."""
    if not text or not looks_like_html(text):
        return text
    parser = _TextExtractor()
    try:
        parser.feed(text)
        parser.close()
    except Exception:  # HTMLParser is lenient; this is belt and braces.
        return html.unescape(re.sub(r"<[^>]*>", " ", text))
    return "".join(parser.parts)


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
    paragraphs = re.split(r"\n\s*\n", text)
    cleaned = (" ".join(_SPACES.sub(" ", p).split()) for p in paragraphs)
    return "\n\n".join(p for p in cleaned if p)


def one_line(text: str) -> str:
    """Fold a (clean) block onto one line, for list rows."""
    return " ".join(text.split())
