"""A restart opens where the reader was left: the topic shown (or the
reading list) and the card under the cursor, kept as a pref at quit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from feedtui.ui.presenter import STARRED_VIEW

if TYPE_CHECKING:
    from textual.screen import Screen

PLACE_PREF = "last_place"


class Resume:
    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine

    def remember(self) -> None:
        """Keep the topic shown and the card under the cursor (at quit)."""
        screen = self.screen
        if not screen.ready or not screen.current:
            return
        place = {"topic": screen.current, "paper": screen.topic_view.cursor_id() or ""}
        if self.engine.pref(PLACE_PREF) != place:
            self.engine.set_pref(PLACE_PREF, place)

    def place(self) -> tuple[str, str] | None:
        """(topic, paper id or "") to open on; None when there is none, or the
        topic is gone (removed, or renamed elsewhere)."""
        place = self.engine.pref(PLACE_PREF)
        if not isinstance(place, dict):
            return None
        topic, paper = place.get("topic"), place.get("paper")
        if not isinstance(topic, str) or not (topic == STARRED_VIEW or self.engine.has_topic(topic)):
            return None
        return topic, paper if isinstance(paper, str) else ""
