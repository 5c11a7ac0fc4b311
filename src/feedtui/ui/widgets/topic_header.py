"""The top of the topic view: name, following state, definition, momentum sentence."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True, slots=True)
class HeaderData:
    name: str
    following: bool
    definition: str
    description: str = ""
    sentence: str = ""
    error: str = ""
    # For the reading list and other views that are not topics.
    virtual: bool = False


class TopicHeader(Static):
    """Untrusted text (user topic names and queries) is drawn as Text, never markup."""

    DEFAULT_CSS = """
    TopicHeader { height: auto; }
    """

    def show_header(self, data: HeaderData) -> None:
        text = Text()
        text.append(data.name, style="bold")
        if not data.virtual:
            text.append("   ")
            if data.following:
                text.append(" ★ Following ", style="reverse bold")
                text.append("  f to unfollow", style="dim")
            else:
                text.append(" ☆ Not following ", style="bold")
                text.append("  f to follow", style="dim")
        if data.description:
            text.append("\n")
            text.append(data.description, style="italic")
        if data.definition:
            text.append("\n")
            text.append(data.definition, style="dim")
        if data.error:
            text.append("\n")
            text.append(data.error, style="bold red")
        if data.sentence:
            text.append("\n")
            text.append(data.sentence)
        self.update(text)
