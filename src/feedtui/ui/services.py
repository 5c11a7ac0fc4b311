"""The two ways feedtui reaches outside the terminal: a browser and the clipboard.

Both are small objects on the app so tests can swap in recorders. Only
http(s) links are ever opened or copied as links.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass, field

from feedtui.text.links import refusal, safe_link


class LinkRefused(ValueError):
    pass


class NoBrowser(OSError):
    """The system has no browser to open a link with (webbrowser found none)."""


@dataclass
class Browser:
    """Opens URLs with the configured command, else $BROWSER, else the system's browser."""

    command: str = ""
    launched: list[str] = field(default_factory=list)

    def checked(self, url: str) -> str:
        """`url` if it may be opened, else LinkRefused."""
        safe = safe_link(url)
        if safe is None:
            raise LinkRefused(refusal(url))
        return safe

    def start_command(self, url: str) -> bool:
        """Start the configured command on `url`, else the first of $BROWSER's
        commands that starts (a `:`-separated list, as Python's webbrowser
        reads it); False when there is no command. Nothing waits for the
        browser to exit. LinkRefused for a link that is not http(s)."""
        url = self.checked(url)
        if self.command:
            commands = [self.command]
        else:
            commands = [command for command in os.environ.get("BROWSER", "").split(os.pathsep) if command.strip()]
        failure: OSError | None = None
        for command in commands:
            try:
                _start(command, url)
            except OSError as error:
                failure = failure or error
                continue
            self.launched.append(url)
            return True
        if failure is not None:
            raise failure
        return False

    def open_in(self, browser: webbrowser.BaseBrowser, url: str) -> bool:
        """Open `url` with a browser `system_browser` gave (webbrowser's answer:
        False when it could not); LinkRefused for a link that is not http(s)."""
        return browser.open(self.checked(url), new=2)

    def system_browser(self) -> webbrowser.BaseBrowser:
        """The browser Python's webbrowser would use first, else NoBrowser."""
        try:
            return webbrowser.get()
        except webbrowser.Error:
            raise NoBrowser("no browser was found: set browser in the config file, or $BROWSER") from None


def _start(command: str, url: str) -> None:
    try:
        argv = shlex.split(command.replace("%s", "{url}"))
    except ValueError as error:
        raise OSError(f"{command!r} is not a command line: {error}") from None
    if any("{url}" in arg for arg in argv):
        argv = [arg.replace("{url}", url) for arg in argv]
    else:
        argv.append(url)
    subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def runs_in_terminal(browser: webbrowser.BaseBrowser) -> bool:
    """Whether `browser` draws in this terminal and holds it until it exits:
    the console browsers webbrowser finds (lynx, w3m, links, www-browser)
    are GenericBrowsers that wait for the program, elinks a UnixBrowser
    that does not go to the background."""
    if isinstance(browser, webbrowser.BackgroundBrowser):
        return False
    if isinstance(browser, webbrowser.GenericBrowser):
        return True
    return isinstance(browser, webbrowser.UnixBrowser) and not browser.background


@dataclass
class Copier:
    """Copies to the clipboard through the terminal (OSC 52) via the app's copy_to_clipboard."""

    copy: Callable[[str], None]
    copied: list[str] = field(default_factory=list)

    def put(self, text: str) -> None:
        self.copy(text)
        self.copied.append(text)
