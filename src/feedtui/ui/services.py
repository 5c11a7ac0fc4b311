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

    def open(self, url: str) -> str:
        safe = safe_link(url)
        if safe is None:
            raise LinkRefused(refusal(url))
        command = self.command or os.environ.get("BROWSER", "")
        if command:
            argv = shlex.split(command.replace("%s", "{url}"))
            if any("{url}" in arg for arg in argv):
                argv = [arg.replace("{url}", safe) for arg in argv]
            else:
                argv.append(safe)
            subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        elif not webbrowser.open(safe, new=2):
            raise NoBrowser("no browser was found: set browser in the config file, or $BROWSER")
        self.launched.append(safe)
        return safe


@dataclass
class Copier:
    """Copies to the clipboard through the terminal (OSC 52) via the app's copy_to_clipboard."""

    copy: Callable[[str], None]
    copied: list[str] = field(default_factory=list)

    def put(self, text: str) -> None:
        self.copy(text)
        self.copied.append(text)
