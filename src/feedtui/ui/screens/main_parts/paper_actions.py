"""The keys that act on the paper under the cursor outside the reader:
open it, copy its link or BibTeX, send it to Zotero. A base class of
MainScreen; what they do is ui/paper_actions.py's, imported at the first
such key, not at start."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from feedtui.core.engine import Engine
    from feedtui.ui.screens.main_parts.topic_view import TopicView


def _paper_actions():
    from feedtui.ui import paper_actions

    return paper_actions


class PaperActions:
    app: App
    engine: Engine
    topic_view: TopicView

    def _cursor_paper(self):
        paper_id = self.topic_view.acted_on_id()
        return self.engine.paper(paper_id) if paper_id is not None else None

    def action_open_abstract(self) -> None:
        if paper := self._cursor_paper():
            _paper_actions().open_abstract(self.app, paper)

    def action_open_pdf(self) -> None:
        if paper := self._cursor_paper():
            _paper_actions().open_pdf(self.app, paper)

    def action_open_html(self) -> None:
        if paper := self._cursor_paper():
            _paper_actions().open_html(self.app, paper)

    def action_copy_link(self) -> None:
        if paper := self._cursor_paper():
            _paper_actions().copy_link(self.app, paper)

    def action_copy_bibtex(self) -> None:
        if paper := self._cursor_paper():
            _paper_actions().copy_bibtex(self.app, paper)

    def action_send_to_zotero(self) -> None:
        if paper := self._cursor_paper():
            from feedtui.ui.zotero_action import send_to_zotero

            send_to_zotero(self.app, paper)
