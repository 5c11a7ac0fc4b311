"""What `o`, `O`, `h`, `c` and `b` do with a paper, on the list and in the
detail view alike: open its abstract page, PDF or arXiv's HTML version, copy
its link or a BibTeX entry (through the terminal and the desktop's clipboard
tool, see feedtui.clipboard), and say what happened (or why nothing did) in a
notification.

Nothing here waits for a browser on the event loop: a command is started
and left to run, the system's browser is found and started in a thread,
and a browser that runs in the terminal gets it, with the app suspended
and its event loop still running."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from textual.app import App, SuspendNotSupported

from feedtui.clipboard import Copied
from feedtui.model import Paper, shown_title
from feedtui.sources.parse.text import cut
from feedtui.text.links import safe_link, shown_link
from feedtui.ui.services import LinkRefused, NoBrowser, runs_in_terminal


def open_abstract(app: App, paper: Paper) -> None:
    _open(app, paper.abs_url)


def open_pdf(app: App, paper: Paper) -> None:
    if not paper.pdf_url.strip():
        app.notify("This paper has no PDF link", markup=False)
        return
    _open(app, paper.pdf_url)


def open_html(app: App, paper: Paper) -> None:
    if not paper.html_url:
        app.notify(
            "This item is not an arXiv paper: arXiv has no HTML version of it",
            markup=False,
        )
        return
    _open(app, paper.html_url)


def copy_link(app: App, paper: Paper) -> None:
    link = safe_link(paper.abs_url)
    if link is None:
        app.notify("This paper has no http or https link to copy", severity="warning", markup=False)
        return
    copy_text(app, link, f"Copied link: {shown_link(link)}")


def copy_bibtex(app: App, paper: Paper) -> None:
    from feedtui.export.bibtex import SECONDHAND_NOTE, bibtex_entry

    if paper.secondhand:
        copy_text(app, bibtex_entry(paper), f"Copied BibTeX for {paper.id}, {SECONDHAND_NOTE}", warning=True)
        return
    copy_text(app, bibtex_entry(paper), f"Copied BibTeX for {bibtex_named(paper)}")


def bibtex_named(paper: Paper) -> str:
    """The paper as a notification names it: a feed item's id is feedtui's
    own hash, which says nothing to the reader, so its title instead."""
    return paper.versioned_id if paper.is_arxiv else f"“{cut(shown_title(paper.readable_title), 40)}”"


def copy_text(app: App, text: str, said: str, *, warning: bool = False) -> None:
    """Copy through the terminal at once, then with the clipboard tool in a
    thread (a tool may take its time), and say `said` with how it was copied."""
    app.copier.put(text)
    app.run_worker(partial(_copy_locally, app, text, said, warning), thread=True, group="clipboard", exit_on_error=False)


def _copy_locally(app: App, text: str, said: str, warning: bool) -> None:
    how, failed = copied_how(app.copier.local(text))
    severity = "warning" if warning or failed else "information"
    app.call_from_thread(app.notify, f"{said} ({how})", severity=severity, markup=False)


def copied_how(copied: Copied) -> tuple[str, bool]:
    """How a copy reached the clipboard, for a notification, and whether the tool failed."""
    if copied.tool is None:
        return "through the terminal, OSC 52", False
    if copied.error:
        return f"through the terminal only: {copied.tool} failed, {copied.error}", True
    return f"with {copied.tool}, and through the terminal", False


def _open(app: App, url: str) -> None:
    try:
        link = app.browser.checked(url)
        command = app.browser.command_for(link)
        if command is not None and not command.in_terminal:
            app.browser.start(command)
    except LinkRefused as refused:
        app.notify(str(refused), severity="error", markup=False)
        return
    except OSError as error:
        _could_not_start(app, error)
        return
    if command is None:
        app.run_worker(partial(_open_with_system_browser, app, link), thread=True, group="browser", exit_on_error=False)
    elif command.in_terminal:
        app.run_worker(
            _hand_over_terminal(app, command.program, partial(app.browser.run, command), command.url),
            group="browser", exit_on_error=False,
        )
    else:
        app.notify(f"Opened {shown_link(command.url)}", markup=False)


def _open_with_system_browser(app: App, link: str) -> None:
    """In a thread: webbrowser may run a program to find the system's
    browser, and waits up to seconds for some browsers to answer."""
    try:
        browser = app.browser.system_browser()
    except NoBrowser as error:
        app.call_from_thread(_could_not_start, app, error)
        return
    if runs_in_terminal(browser):
        app.call_from_thread(_hand_over_terminal, app, browser.basename, partial(app.browser.open_in, browser, link), link)
        return
    try:
        opened = app.browser.open_in(browser, link)
    except OSError as error:
        app.call_from_thread(_could_not_start, app, error)
        return
    app.call_from_thread(_say_opened, app, browser.basename, link, opened)


async def _hand_over_terminal(app: App, name: str, run_browser: Callable[[], bool], link: str) -> None:
    """A browser that draws in this terminal (lynx, w3m) gets it to itself
    until it exits, with the app suspended. It runs in a thread, so the
    event loop goes on meanwhile (a refresh under way keeps fetching and
    storing); the screen is repainted once the reader has the terminal back."""
    try:
        with app.batch_update(), app.suspend():
            opened = await asyncio.to_thread(run_browser)
    except SuspendNotSupported:
        app.notify(
            f"Could not start the browser: {name} runs in the terminal, which feedtui cannot hand over here; "
            "set browser in the config file, or $BROWSER",
            severity="error", markup=False,
        )
        return
    except OSError as error:
        _could_not_start(app, error)
        return
    _say_opened(app, name, link, opened)


def _say_opened(app: App, name: str, link: str, opened: bool) -> None:
    if opened:
        app.notify(f"Opened {shown_link(link)}", markup=False)
    else:
        app.notify(f"Could not open {shown_link(link)} with {name}", severity="error", markup=False)


def _could_not_start(app: App, error: OSError) -> None:
    app.notify(f"Could not start the browser: {error}", severity="error", markup=False)
