"""Where the Textual CSS lives.

In a wheel the top-level `styles/` folder is shipped inside the package as
`feedtui/styles/` (hatch force-include); in a source checkout or an editable
install it is the repository's `styles/`. Textual resolves relative CSS paths
next to the app module, so the app is given absolute paths from here.

The sheets in `styles/screens/` style the detail view and the dialogs. They
are not the app's CSS_PATH: parsing them, and matching their rules against
every widget of the reader, was work on the way to its first paint. They are
added to the app's stylesheet when the first other screen is pushed
(`add_screen_sheets`), as user CSS like the others, so their rules weigh as
they did in app.tcss.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import feedtui

if TYPE_CHECKING:
    from textual.css.stylesheet import Stylesheet

SCREEN_SHEETS = "screens"


def styles_dir() -> Path:
    package = Path(feedtui.__file__).resolve().parent
    for candidate in (package / "styles", package.parent.parent / "styles"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("feedtui's styles/ folder is missing from this installation")


def stylesheets() -> list[Path]:
    """Every .tcss file, app.tcss first so widget sheets can refine it."""
    folder = styles_dir()
    sheets = sorted(folder.glob("*.tcss"), key=lambda p: (p.name != "app.tcss", p.name))
    return sheets


def screen_sheets() -> list[Path]:
    """The sheets of the screens pushed over the reader, in name order."""
    return sorted((styles_dir() / SCREEN_SHEETS).glob("*.tcss"))


def add_screen_sheets(stylesheet: Stylesheet) -> None:
    """Add the screens' sheets to `stylesheet`, once. Only they are parsed
    (the others' rules are cached); Textual's own loading of a screen's CSS
    would parse every sheet again and restyle every widget."""
    sheets = [path for path in screen_sheets() if not stylesheet.has_source(str(path), "")]
    if sheets:
        stylesheet.read_all(sheets)
        stylesheet.parse()  # the rules and their map by selector, with the new ones
