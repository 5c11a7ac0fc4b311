"""Above the papers of Ask everything and For you: the answer, or a note.

The answer is extractive: a few sentences quoted verbatim from the top
papers' abstracts, each citing its paper by title, with the question's words
highlighted. A click on a quote opens its paper. All of it is untrusted text,
so it is built from `rich.text.Text` pieces (never markup), one line each,
with control characters removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from feedtui.ui.widgets.card_layout import highlight_pattern, one_line_safe

# Characters of a cited title shown after its quote.
CITED_TITLE = 60


class QuoteLine(NamedTuple):
    """One quoted sentence and the paper it is from."""

    paper_id: str
    sentence: str
    title: str


class AnswerPanel(Static):
    """The quoted answer (`show_answer`), a note (`show_note`), or nothing
    (`-empty`: so it is made, hidden, whenever it is mounted)."""

    DEFAULT_CSS = """
    AnswerPanel { height: auto; }
    AnswerPanel.-empty { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")

    def clear(self) -> None:
        self.update("")
        self.add_class("-empty")

    def show_answer(self, quotes: Sequence[QuoteLine], words: Sequence[str], note: str = "") -> None:
        """The quotes, best first, each on a line of its own, its words of the
        question highlighted, then its paper's title; `note` (why the ranking
        is lexical only, say) on a line under them."""
        pattern = highlight_pattern(words) if words else None
        text = Text()
        for number, quote in enumerate(quotes, 1):
            if text:
                text.append("\n")
            opens = Style(meta={"@click": ("screen.open_quoted", (quote.paper_id,))})
            line = Text(f"{number}. “", style=opens)
            sentence = Text(one_line_safe(quote.sentence), style="italic")
            if pattern is not None:
                sentence.highlight_regex(pattern, style="bold reverse")
            line.append_text(sentence)
            line.append("” — ")
            title = Text(one_line_safe(quote.title), style="underline")
            title.truncate(CITED_TITLE, overflow="ellipsis")
            line.append_text(title)
            line.stylize(opens)
            text.append_text(line)
        if note:
            if text:
                text.append("\n")
            text.append(one_line_safe(note), style="dim")
        self.update(text)
        self.set_class(not text, "-empty")

    def show_note(self, note: str) -> None:
        self.show_answer((), (), note)
