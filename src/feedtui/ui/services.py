"""The two ways feedtui reaches outside the terminal: a browser and the clipboard.

Both are small objects on the app so tests can swap in recorders. Only
http(s) links are ever opened or copied as links.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from feedtui.clipboard import Copied, copy_locally
from feedtui.text.links import refusal, safe_link


# Browsers that draw in the terminal: a command naming one runs with the
# reader suspended, as webbrowser's console browsers do, instead of being
# started in the background, where it has no terminal and opens nothing.
TERMINAL_BROWSERS = frozenset({"lynx", "w3m", "links", "links2", "elinks", "www-browser", "browsh", "cha", "carbonyl"})


class LinkRefused(ValueError):
    pass


class NoBrowser(OSError):
    """The system has no browser to open a link with (webbrowser found none)."""


class Browser:
    """Opens URLs with the configured command, else $BROWSER, else the system's browser.
    (The app's services are plain classes: a dataclass's methods are compiled
    when its module is imported, on the way to the first paint.)"""

    def __init__(self, command: str = "") -> None:
        self.command = command
        self.launched: list[str] = []

    def checked(self, url: str) -> str:
        """`url` if it may be opened, else LinkRefused."""
        safe = safe_link(url)
        if safe is None:
            raise LinkRefused(refusal(url))
        return safe

    def command_for(self, url: str) -> BrowserCommand | None:
        """The command that opens `url`: the configured one, else the first of
        $BROWSER's commands whose program is found (a `:`-separated list, as
        Python's webbrowser reads it); None when there is no command, OSError
        when none is found. LinkRefused for a link that is not http(s)."""
        url = self.checked(url)
        if self.command:
            commands = [self.command]
        else:
            commands = [command for command in os.environ.get("BROWSER", "").split(os.pathsep) if command.strip()]
        failure: OSError | None = None
        for command in commands:
            try:
                return _command_line(command, url)
            except OSError as error:
                failure = failure or error
        if failure is not None:
            raise failure
        return None

    def start(self, command: BrowserCommand) -> None:
        """Start a browser that opens its own window; nothing waits for it to exit."""
        subprocess.Popen(
            command.argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.launched.append(command.url)

    def run(self, command: BrowserCommand) -> bool:
        """Run a browser that draws in this terminal until it exits (the
        caller has handed the terminal over); whether it exited cleanly."""
        finished = subprocess.run(command.argv, check=False)
        self.launched.append(command.url)
        return finished.returncode == 0

    def open_in(self, browser: webbrowser.BaseBrowser, url: str) -> bool:
        """Open `url` with a browser `system_browser` gave (webbrowser's answer:
        False when it could not); LinkRefused for a link that is not http(s)."""
        url = self.checked(url)
        opened = browser.open(url, new=2)
        if opened:
            self.launched.append(url)
        return opened

    def system_browser(self) -> webbrowser.BaseBrowser:
        """The browser Python's webbrowser would use first, else NoBrowser."""
        try:
            return webbrowser.get()
        except webbrowser.Error:
            raise NoBrowser("no browser was found: set browser in the config file, or $BROWSER") from None


class BrowserCommand(NamedTuple):
    """A browser's command line for one link."""

    argv: tuple[str, ...]
    url: str

    @property
    def program(self) -> str:
        return Path(self.argv[0]).name

    @property
    def in_terminal(self) -> bool:
        """Whether the program draws in this terminal and holds it until it exits."""
        return self.program in TERMINAL_BROWSERS


def _command_line(command: str, url: str) -> BrowserCommand:
    """`command` split as a shell would, with the link in place of {url} or
    %s, else after it; OSError when it is not a command line or its program
    is not found."""
    try:
        argv = shlex.split(command.replace("%s", "{url}"))
    except ValueError as error:
        raise OSError(f"{command!r} is not a command line: {error}") from None
    if not argv:
        raise OSError(f"{command!r} is not a command line")
    if shutil.which(argv[0]) is None:
        raise FileNotFoundError(f"{argv[0]!r} was not found")
    if any("{url}" in arg for arg in argv):
        argv = [arg.replace("{url}", url) for arg in argv]
    else:
        argv.append(url)
    return BrowserCommand(tuple(argv), url)


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


class Copier:
    """Copies to the clipboard two ways: through the terminal (OSC 52, the
    app's copy_to_clipboard, at once) and with the desktop's clipboard tool
    when this session has one (`local`, which blocks: run it in a thread).
    See feedtui.clipboard for which tool, and when none is used."""

    def __init__(self, copy: Callable[[str], None], local: Callable[[str], Copied] = copy_locally) -> None:
        self.copy = copy
        self.copied: list[str] = []
        self.local = local

    def put(self, text: str) -> None:
        self.copy(text)
        self.copied.append(text)
