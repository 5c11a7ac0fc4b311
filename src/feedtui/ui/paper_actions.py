"""What `o`, `O`, `c` and `b` do with a paper, on the list and in the detail
view alike: open its abstract page or PDF, copy its link or a BibTeX entry,
and say what happened (or why nothing did) in a notification."""

from __future__ import annotations

from textual.app import App

from feedtui.model import Paper, shown_title
from feedtui.sources.parse_text import cut
from feedtui.text.links import safe_link
from feedtui.ui.services import LinkRefused


def open_abstract(app: App, paper: Paper) -> None:
    _open(app, paper.abs_url)


def open_pdf(app: App, paper: Paper) -> None:
    if not paper.pdf_url.strip():
        app.notify("This paper has no PDF link", markup=False)
        return
    _open(app, paper.pdf_url)


def copy_link(app: App, paper: Paper) -> None:
    link = safe_link(paper.abs_url)
    if link is None:
        app.notify("This paper has no http or https link to copy", severity="warning", markup=False)
        return
    app.copier.put(link)
    app.notify(f"Copied link: {link}", markup=False)


def copy_bibtex(app: App, paper: Paper) -> None:
    from feedtui.export.bibtex import bibtex_entry

    app.copier.put(bibtex_entry(paper))
    # A feed item's id is feedtui's own hash, which says nothing to the reader.
    what = paper.versioned_id if paper.is_arxiv else f"“{cut(shown_title(paper.title_display or paper.title), 40)}”"
    app.notify(f"Copied BibTeX for {what}", markup=False)


def _open(app: App, url: str) -> None:
    try:
        opened = app.browser.open(url)
    except LinkRefused as refused:
        app.notify(str(refused), severity="error", markup=False)
        return
    except OSError as error:
        app.notify(f"Could not start the browser: {error}", severity="error", markup=False)
        return
    app.notify(f"Opened {opened}", markup=False)
