"""The detail view's related papers: asked of the engine in a worker thread
(it may load the model and the vectors), told back as RelatedReady, shown
in the view's RelatedPapers list."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from feedtui.model import shown_title
from feedtui.ui.cards import card_date
from feedtui.ui.messages import RelatedReady
from feedtui.ui.widgets.related_papers import RelatedPapers, RelatedRow

if TYPE_CHECKING:
    from textual.screen import Screen

# Related papers listed under a paper.
RELATED_SHOWN = 10


class DetailRelated:
    """Owns the related papers of the paper the detail view shows."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine

    def _widgets(self) -> tuple[Static, RelatedPapers] | None:
        """The title and the list; None once the screen's widgets are gone."""
        titles, lists = self.screen.query("#detail-related-title"), self.screen.query(RelatedPapers)
        return (titles.first(Static), lists.first(RelatedPapers)) if titles and lists else None

    def show(self, paper_id: str) -> None:
        """Look for the papers related to `paper_id`; they are shown when found."""
        widgets = self._widgets()
        if widgets is None:
            return
        title, papers = widgets
        title.update(Text("Related papers: looking…", style="dim"))
        papers.show_rows([])
        self.screen.run_worker(self._find(paper_id), group="related", exclusive=True)

    async def _find(self, paper_id: str) -> None:
        screen = self.screen
        main = getattr(screen.app, "main_screen", None)
        if main is not None:
            main.discover.used = True  # the model may stay in memory now
        try:
            hits = await asyncio.to_thread(self.engine.related, paper_id, limit=RELATED_SHOWN)
        except KeyError:  # PaperNotFound: gone from the cache
            hits = []
        except Exception as error:  # the model or vectors unreadable: said, nothing lost
            screen.notify(f"Could not find related papers: {error}", severity="warning", markup=False)
            hits = []
        screen.post_message(RelatedReady(paper_id, hits))

    def received(self, message: RelatedReady) -> None:
        widgets = self._widgets()
        if widgets is None or message.paper_id != self.screen.paper_id:
            return  # another paper shown meanwhile
        title, papers = widgets
        rows = []
        date_format = self.engine.settings.date_format
        for hit in message.hits:
            row = self.engine.card(hit.paper_id)
            if row is not None:
                rows.append(RelatedRow(hit.paper_id, card_date(row.published, date_format), shown_title(row.title), hit.why))
        heading = Text("Related papers", style="bold underline")
        if rows:
            heading.append(f"  ({self._related_key()} to choose, enter opens)", style="dim")
        else:
            heading = Text("No related paper in the cache", style="dim")
        title.update(heading)
        papers.show_rows(rows)

    def _related_key(self) -> str:
        from feedtui.ui.keymap import key_hint

        return key_hint("detail.related", self.engine.settings.keymap, self.screen.BINDINGS)

    def focus(self) -> None:
        widgets = self._widgets()
        if widgets is not None and widgets[1].option_count:
            # At once (Widget.focus waits a turn): `l` then ↓ typed fast moves in the list.
            self.screen.set_focus(widgets[1])
            if widgets[1].highlighted is None:
                widgets[1].highlighted = 0
        else:
            self.screen.notify("No related paper to choose", markup=False)
