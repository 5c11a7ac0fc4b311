"""Where the palette's Screenshot is saved, under what name, and how its path
is said in a notification without breaking a word."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import platformdirs

# A notification's width (Textual's Toast: 60 columns, at most half of its
# rack, which leaves a column each side), less its padding and coloured left
# edge (3 columns), and one to spare: the width its text may take.
TOAST_WIDTH = 60
TOAST_FRAME = 4
SCREENSHOTS = "screenshots"


def screenshot_directory(data_dir: Path) -> Path:
    """The user's Downloads folder, or else Pictures, if there is one; else
    `screenshots/` in the data directory (servers where a terminal reader
    runs often have neither, and the current directory may be a checkout)."""
    for folder in (platformdirs.user_downloads_path(), platformdirs.user_pictures_path()):
        if folder.is_dir():
            return folder
    return data_dir / SCREENSHOTS


def screenshot_name(now: datetime) -> str:
    return f"feedtui-{now:%Y-%m-%d-%H%M%S}.svg"


def toast_text_width(screen_width: int) -> int:
    return max(10, min(TOAST_WIDTH, (screen_width - 2) // 2) - TOAST_FRAME)


def said_path(path: Path, width: int) -> str:
    """The path in lines of at most `width` characters, broken after a `/`
    (never inside a name unless one name alone is wider), with the home
    directory as `~`."""
    text = str(path)
    home = str(Path.home())
    if home not in ("", "/") and (text == home or text.startswith(home + "/")):
        text = "~" + text[len(home):]
    pieces = [piece + "/" for piece in text.split("/")[:-1]] + [text.split("/")[-1]]
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        while len(piece) > width:  # one name wider than the line: no better break
            lines.append(piece[:width])
            piece = piece[width:]
        line += piece
    if line:
        lines.append(line)
    return "\n".join(lines)
