"""One paper in full: abstract, every author with affiliations, references, links."""

from __future__ import annotations

import asyncio

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from feedtui.core.engine import Engine
from feedtui.model import Paper, shown_title
from feedtui.text.links import safe_link, shown_link
from feedtui.ui import paper_actions, zotero_action
from feedtui.ui.crash import Guarded
from feedtui.ui.messages import RelatedReady
from feedtui.ui.cards import paper_date
from feedtui.ui.screens.detail_related import DetailRelated
from feedtui.ui.widgets.related_papers import RelatedPapers


def _on_click(action: str, *arguments: str) -> Style:
    """A style that runs `action` with `arguments` when clicked, given as
    they are (never parsed from text); underlined, to show it can be."""
    return Style(underline=True, meta={"@click": (action, arguments)})


# Authors shown before "… and N more": a collaboration's 3,000 take a second
# to lay out on the UI thread, again at every resize.
SHOWN_AUTHORS = 250


class DetailScreen(Guarded, Screen):
    BINDINGS = [
        Binding("escape,q,backspace", "back", "Back", id="detail.back"),
        Binding("o", "open_abstract", "Open abstract page", id="detail.open"),
        Binding("O", "open_pdf", "Open PDF", id="detail.open_pdf"),
        Binding("h", "open_html", "Open HTML version", show=False, id="detail.open_html"),
        Binding("c", "copy_link", "Copy link", id="detail.copy_link"),
        Binding("b", "copy_bibtex", "Copy BibTeX", id="detail.copy_bibtex"),
        Binding("z", "send_to_zotero", "Send to Zotero", show=False, id="detail.zotero"),
        Binding("s", "star", "Star", id="detail.star"),
        Binding("m", "toggle_read", "Read/unread", id="detail.toggle_read"),
        Binding("a", "all_authors", "Show every author", show=False, id="detail.all_authors"),
        Binding("w", "author_papers", "Author's papers", show=False, id="detail.author_papers"),
        Binding("W", "follow_author", "Follow an author", show=False, id="detail.follow_author"),
        Binding("l", "related", "Related papers", id="detail.related"),
        Binding("j,down", "scroll_down", "Scroll", show=False, id="detail.down"),
        Binding("k,up", "scroll_up", "Scroll", show=False, id="detail.up"),
        Binding("space,pagedown", "page_down", "Page down", show=False, id="detail.page_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="detail.page_up"),
        Binding("g,home", "top", "Top", show=False, id="detail.top"),
        Binding("G,end", "bottom", "Bottom", show=False, id="detail.bottom"),
        Binding("J", "next_paper", "Next paper", id="detail.next_paper"),
        Binding("K", "previous_paper", "Previous paper", id="detail.previous_paper"),
    ]

    def __init__(self, engine: Engine, paper_id: str) -> None:
        super().__init__()
        self.engine = engine
        self.paper_id = paper_id
        self.paper: Paper | None = None
        self.every_author = False
        self.related = DetailRelated(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield Static(Text("Loading…", style="dim"), id="detail-body")
            # Indented by its style, so that a wrapped affiliation keeps the indent.
            yield Static(id="detail-authors")
            yield Static(id="detail-facts")
            yield Static(id="detail-related-title")
            yield RelatedPapers(id="detail-related")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        for view in self.query("#detail"):  # none once the app is ending
            view.focus()
        self.load()

    @work(exclusive=True)
    async def load(self) -> None:
        self.related.show(self.paper_id)
        self.paper = await asyncio.to_thread(self.engine.paper, self.paper_id)
        self.render_paper()

    def render_paper(self) -> None:
        paper = self.paper
        if not self.query("#detail-body"):  # loaded after the screen went (q typed at once)
            return
        body = self.query_one("#detail-body", Static)
        if paper is None:
            error = self.app.get_css_variables().get("error", "")
            body.update(Text(f"{self.paper_id} is no longer in the cache (refresh its topic to fetch it again)", style=f"bold {error}"))
            return
        engine = self.engine
        text = Text()
        date_format = self.engine.settings.date_format
        head = paper_date(paper.published, date_format)
        if paper.primary_category:
            head += f" · {paper.primary_category}"
        if paper.is_arxiv:  # a feed item's id is feedtui's own hash: its link says where it is from
            head += f" · {paper.versioned_id}"
        if paper.updated.date() != paper.published.date():
            head += f" · updated {paper_date(paper.updated, date_format)}"
        text.append(head, style="dim")
        text.append("   ")
        text.append("● unread" if not engine.is_read(paper.id) else "read", style="bold" if not engine.is_read(paper.id) else "dim")
        if engine.is_starred(paper.id):
            text.append("  ★ starred", style="bold")
        text.append("\n\n")
        text.append(shown_title(paper.readable_title), style="bold")
        if paper.readable_abstract.strip():
            text.append("\n\n")
            text.append(paper.readable_abstract)
        if paper.authors:
            text.append("\n\n")
            text.append("Authors", style="bold underline")
        body.update(text)
        self._show_authors(paper)
        self._show_facts(paper)

    def _show_authors(self, paper: Paper) -> None:
        shown = paper.authors if self.every_author else paper.authors[:SHOWN_AUTHORS]
        authors = Text()
        for author in shown:
            if authors:
                authors.append("\n")
            # A click lists the author's papers (the name is given as it is, never parsed).
            authors.append(author.name, style=_on_click("screen.author_papers_of", author.name))
            if author.affiliations:
                authors.append(" — " + "; ".join(author.affiliations), style="italic")
        hidden = len(paper.authors) - len(shown)
        count = hidden + paper.authors_omitted
        if count:
            authors.append(f"\n… and {count:,} more author{'' if count == 1 else 's'}", style="dim")
        if hidden:
            authors.append(f" ({self._all_authors_key()} shows all {len(paper.authors):,} kept; it takes a moment)", style="dim")
        widget = self.query_one("#detail-authors", Static)
        widget.display = bool(paper.authors)
        widget.update(authors)

    def _all_authors_key(self) -> str:
        from feedtui.ui.keymap import key_hint

        return key_hint("detail.all_authors", self.engine.settings.keymap, self.BINDINGS)

    def _topics_of(self, paper_id: str) -> tuple[str, ...]:
        library = self.engine.library
        position = library.pos.get(paper_id)
        return () if position is None else library.tags_of(position)

    def _show_facts(self, paper: Paper) -> None:
        """The facts, one a line. A click on a link opens it as `o` or `O`
        does, one on a topic goes to it as a card's tag does: the action is
        in the style's meta, put there by code (no markup is made of the text)."""
        abstract, pdf = safe_link(paper.abs_url), safe_link(paper.pdf_url)
        topics = self._topics_of(paper.id)
        facts: list[tuple[str, Text]] = [
            ("Categories", Text(" ".join(paper.categories))),
            ("Comment", Text(paper.comment)),
            ("Journal ref", Text(paper.journal_ref)),
            ("DOI", Text(paper.doi)),
            ("Abstract page", Text(shown_link(abstract or ""), style=_on_click("screen.open_abstract"))),
            ("PDF", Text(shown_link(pdf or ""), style=_on_click("screen.open_pdf"))),
            ("HTML version", Text(paper.html_url, style=_on_click("screen.open_html"))),
            ("Topics", Text("  ").join(Text(name, style=_on_click("screen.go_to_topic", name)) for name in topics)),
        ]
        if paper.date_estimated:
            facts.append(("Note", Text("the first-version date is estimated")))
        text = Text()
        for label, value in facts:
            if value:
                if text:
                    text.append("\n")
                text.append(f"{label}: ", style="bold")
                text.append_text(value)
        self.query_one("#detail-facts", Static).update(text)

    def action_go_to_topic(self, name: str) -> None:
        """Back to the list, on that topic, as a click on a card's tag goes:
        escape there comes back to the topic and card the detail was opened from."""
        if not self.is_active:
            return
        main = self.app.main_screen
        self.app.pop_screen()
        main.jump_to_topic(name)

    def _scroll(self, how) -> None:
        """Scroll the paper's view, if it is there: a key typed as the
        screen goes (q, escape) comes after its widgets are removed."""
        for view in self.query("#detail"):
            how(view)

    def action_back(self) -> None:
        """Back to the list, once: a second escape typed fast came to this
        screen after it was popped, and popped the main screen from under it."""
        if self.is_active:
            self.app.pop_screen()

    def action_open_abstract(self) -> None:
        if self.paper:
            paper_actions.open_abstract(self.app, self.paper)

    def action_open_pdf(self) -> None:
        if self.paper:
            paper_actions.open_pdf(self.app, self.paper)

    def action_open_html(self) -> None:
        if self.paper:
            paper_actions.open_html(self.app, self.paper)

    def action_copy_link(self) -> None:
        if self.paper:
            paper_actions.copy_link(self.app, self.paper)

    def action_copy_bibtex(self) -> None:
        if self.paper:
            paper_actions.copy_bibtex(self.app, self.paper)

    def action_send_to_zotero(self) -> None:
        if self.paper:
            zotero_action.send_to_zotero(self.app, self.paper)

    def action_star(self) -> None:
        if self.paper:
            self.app.main_screen.toggle_star(self.paper.id)
            self.render_paper()

    def action_toggle_read(self) -> None:
        if self.paper:
            self.app.main_screen.toggle_read(self.paper.id)
            self.render_paper()

    def action_next_paper(self) -> None:
        self._step(1)

    def action_previous_paper(self) -> None:
        self._step(-1)

    def _step(self, delta: int) -> None:
        """The list's next (or previous) paper here, its cursor moved along, so
        that back lands on the paper read last."""
        if not self.is_active:
            return
        paper_id = self.app.main_screen.triage.step(delta)
        if paper_id is None:
            self.notify(f"No {'next' if delta > 0 else 'previous'} paper in the list", markup=False)
            return
        self.paper_id, self.paper, self.every_author = paper_id, None, False
        self._scroll(lambda view: view.scroll_home(animate=False))
        self.load()

    def action_related(self) -> None:
        self.related.focus()

    def on_related_papers_chosen(self, message: RelatedPapers.Chosen) -> None:
        self.open_paper(message.paper_id)

    def on_related_ready(self, message: RelatedReady) -> None:
        self.related.received(message)

    def open_paper(self, paper_id: str) -> None:
        """Show another paper here (a related one): back goes to the list."""
        if not self.is_active or self.engine.card(paper_id) is None:
            return
        self.paper_id, self.paper, self.every_author = paper_id, None, False
        self._scroll(lambda view: view.scroll_home(animate=False))
        self.focus_view()
        self.load()

    def focus_view(self) -> None:
        for view in self.query("#detail"):
            view.focus()

    def _to_reader(self):
        """Back to the reader, for what it shows next; None if gone already."""
        if not self.is_active or self.paper is None:
            return None
        main = self.app.main_screen
        self.app.pop_screen()
        return main

    def action_author_papers(self) -> None:
        paper_id = self.paper_id
        if main := self._to_reader():
            main.discover.choose_author(paper_id, main.discover.author_papers)

    def action_follow_author(self) -> None:
        paper_id = self.paper_id
        if main := self._to_reader():
            main.discover.choose_author(paper_id, main.discover.follow_author)

    def action_author_papers_of(self, name: str) -> None:
        """A click on an author's name: their papers, in the reader."""
        if main := self._to_reader():
            main.discover.author_papers(name)

    def action_all_authors(self) -> None:
        if self.paper and not self.every_author and len(self.paper.authors) > SHOWN_AUTHORS:
            self.every_author = True
            self._show_authors(self.paper)

    def action_scroll_down(self) -> None:
        self._scroll(lambda view: view.scroll_down())

    def action_scroll_up(self) -> None:
        self._scroll(lambda view: view.scroll_up())

    def action_page_down(self) -> None:
        self._scroll(lambda view: view.scroll_page_down(animate=False))

    def action_page_up(self) -> None:
        self._scroll(lambda view: view.scroll_page_up(animate=False))

    def action_top(self) -> None:
        self._scroll(lambda view: view.scroll_home(animate=False))

    def action_bottom(self) -> None:
        self._scroll(lambda view: view.scroll_end(animate=False))
