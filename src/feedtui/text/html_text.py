"""The words of an HTML fragment: tags dropped (script and style with their
content), breaks where blocks end, entities decoded. Apart from sanitize so
that html.parser is imported only when some text has HTML in it."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser


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


def extract_text(markup: str, *, fallback: str) -> str:
    """The text of `markup`; if the parser gives up, `fallback` with its tags
    blanked out and its entities decoded."""
    parser = _TextExtractor()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # HTMLParser is lenient; this is belt and braces.
        return html.unescape(re.sub(r"<[^>]*>", " ", fallback))
    return "".join(parser.parts)
