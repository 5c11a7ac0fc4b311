"""The top of the topic view: name, following state, definition, momentum sentence."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from feedtui.text.sanitize import strip_controls


class HeaderData(NamedTuple):
    name: str
    following: bool
    definition: str
    description: str = ""
    sentence: str = ""
    error: str = ""
    # For the reading list and other views that are not topics.
    virtual: bool = False
    # The key that follows and unfollows (the keymap may change it).
    follow_key: str = "f"


class TopicHeader(Vertical):
    """One line each: title and state, description, definition, momentum sentence.

    Untrusted text (user topic names and queries) is drawn as Text, never markup.
    """

    DEFAULT_CSS = """
    TopicHeader { height: auto; }
    TopicHeader > Static { height: auto; }
    TopicHeader > #header-definition { text-wrap: nowrap; text-overflow: ellipsis; }
    TopicHeader > .-empty { display: none; }
    """

    _data: HeaderData | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="header-title")
        yield Static(id="header-description")
        yield Static(id="header-definition")
        yield Static(id="header-error")
        yield Static(id="header-sentence")

    def show_header(self, data: HeaderData) -> None:
        # Topic names, descriptions and queries come from users and imported files.
        data = data._replace(
            name=strip_controls(data.name),
            definition=strip_controls(data.definition),
            description=strip_controls(data.description),
            error=strip_controls(data.error),
        )
        self._data = data
        self._show_title()
        self._set("#header-description", Text(data.description, style="italic") if data.description else None)
        self._set("#header-definition", Text(data.definition, style="dim") if data.definition else None)
        self._set("#header-error", Text(data.error, style="bold") if data.error else None)
        self._set("#header-sentence", Text(data.sentence) if data.sentence else None)

    def on_resize(self) -> None:
        if self._data is not None:
            self._show_title()

    def _show_title(self) -> None:
        """Name and state on one line, and the follow key's hint after them
        while it fits on that line too: a hint wrapped onto a line of its own
        reads as if it were a description."""
        data = self._data
        title = Text()
        title.append(data.name, style="bold")
        if not data.virtual:
            title.append("   ")
            if data.following:
                title.append(" ★ Following ", style="reverse bold")
                hint = f"  {data.follow_key} unfollows"
            else:
                title.append(" ☆ Not following ", style="bold")
                hint = f"  {data.follow_key} follows"
            width = self.query_one("#header-title", Static).size.width
            if not width or title.cell_len + len(hint) <= width:
                title.append(hint, style="dim")
        self._set("#header-title", title)

    def _set(self, selector: str, text: Text | None) -> None:
        widget = self.query_one(selector, Static)
        widget.set_class(text is None, "-empty")
        widget.update(text if text is not None else "")

    @property
    def text(self) -> str:
        """What the header says, line by line (for tests and the screen reader)."""
        return "\n".join(
            str(w.render()) for w in self.query(Static) if not w.has_class("-empty")
        )
