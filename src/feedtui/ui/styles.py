"""Where the Textual CSS lives.

In a wheel the top-level `styles/` folder is shipped inside the package as
`feedtui/styles/` (hatch force-include); in a source checkout or an editable
install it is the repository's `styles/`. Textual resolves relative CSS paths
next to the app module, so the app is given absolute paths from here.
"""

from __future__ import annotations

from pathlib import Path

import feedtui


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
