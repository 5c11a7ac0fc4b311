"""What `z` does, on a card and in the detail view: send the paper to the
Zotero desktop app through its connector (see feedtui.export.zotero), in a
thread, and say how it went.

When Zotero does not take it (not running, a read-only library, something
else at the address), the paper's BibTeX is copied instead, through the
terminal and the clipboard tool, and the notification says so and how to
import it in Zotero."""

from __future__ import annotations

from functools import partial

from textual.app import App

from feedtui.model import Paper
from feedtui.ui.paper_actions import bibtex_named, copied_how


def send_to_zotero(app: App, paper: Paper) -> None:
    url = app.engine.settings.zotero.connector_url
    app.run_worker(partial(_send, app, paper, url), thread=True, group="zotero", exit_on_error=False)


def _send(app: App, paper: Paper, url: str) -> None:
    from feedtui.export.zotero import Connector, ZoteroUnavailable

    try:
        Connector(url).save([paper])
    except ZoteroUnavailable as error:
        _bibtex_instead(app, paper, str(error))
        return
    note = ", with only what its id tells (known only from a post that links it)" if paper.secondhand else ""
    app.call_from_thread(app.notify, f"Sent {bibtex_named(paper)} to Zotero{note}", markup=False)


def _bibtex_instead(app: App, paper: Paper, why: str) -> None:
    """In the worker's thread: the terminal's copy on the event loop, the tool's here."""
    from feedtui.export.bibtex import bibtex_entry

    entry = bibtex_entry(paper)
    app.call_from_thread(app.copier.put, entry)
    how, _ = copied_how(app.copier.local(entry))
    app.call_from_thread(
        app.notify,
        f"{why}. Copied the BibTeX of {bibtex_named(paper)} instead ({how}): in Zotero, File → Import from Clipboard",
        severity="warning", timeout=10, markup=False,
    )
