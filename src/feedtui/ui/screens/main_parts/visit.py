"""What is new since the last visit: the papers that came into the cache
after the previous reader session started, counted per topic for the
sidebar, marked on their cards, and reached with N."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen

# When the latest reader session started (epoch seconds): the next session's
# "new since the last visit" is what came after it.
SESSION_PREF = "session_started"


class Visit:
    """Owns the time the previous session started (`since`, None on a first
    run: then nothing is called new) and the new papers' counts per topic."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = engine = screen.engine
        previous = engine.pref(SESSION_PREF)
        self.since: int | None = previous if isinstance(previous, int) and not isinstance(previous, bool) else None
        # Kept at quit, with the place left (a write now, on a full or
        # read-only disk, would be one more failure to tell for nothing).
        self.started = int(engine.clock().timestamp())
        # When a paper came: when it was first stored; in the demo, whose
        # papers are all stored again when its dates move on, its date.
        self._came = attrgetter("published" if engine.demo else "first_seen")
        self._counted: tuple[object, Counter[str]] | None = None

    def remember(self) -> None:
        """Keep when this session started, for the next one (at quit)."""
        if self.engine.pref(SESSION_PREF) != self.started:
            self.engine.set_pref(SESSION_PREF, self.started)

    def is_new(self, position: int) -> bool:
        return self.since is not None and self._came(self.engine.library.rows[position]) > self.since

    def counts(self) -> Counter[str]:
        """New papers per topic, counted in one pass over the library (again
        only when the library changed)."""
        library = self.engine.library
        key = (id(library), len(library), library.version, self.since)
        if self._counted is not None and self._counted[0] == key:
            return self._counted[1]
        counts: Counter[str] = Counter()
        since = self.since
        if since is not None:
            tags = library.tags
            came = self._came
            for position, row in enumerate(library.rows):
                if came(row) > since:
                    counts.update(tags[position])
        self._counted = (key, counts)
        return counts

    def first_new(self) -> None:
        """The first new paper of the topic shown; with none here, the first
        of the next topic in the sidebar that has any."""
        screen = self.screen
        library = self.engine.library
        cards = screen.topic_view.cards
        if cards is not None and not screen.asking.question:
            for index, position in enumerate(cards.positions):
                if self.is_new(position):
                    from feedtui.ui.widgets.paper_list import PaperList

                    paper_list = screen.query_one(PaperList)
                    paper_list.go_to(index)
                    screen.focus_now(paper_list)
                    return
        counts = self.counts()
        from feedtui.ui.widgets.topic_list import TopicList

        names = [row.name for row in screen.query_one(TopicList).rows if counts.get(row.name)]
        after = names[names.index(screen.current) + 1 :] + names if screen.current in names else names
        for name in after:
            if name == screen.current:
                continue
            first = next((p for p in library.topic_positions(name) if self.is_new(p)), None)
            if first is not None:
                screen.go_to_topic(name, keep=library.ids[first])
                return
        if self.since is None:
            screen.notify("Nothing is new yet: new papers are counted from your previous visit", markup=False)
        else:
            screen.notify("Nothing new since your last visit", markup=False)
