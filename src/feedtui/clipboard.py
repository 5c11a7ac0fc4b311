"""The desktop's clipboard, through the program that holds it here:
`wl-copy` (Wayland), `xclip` or `xsel` (X11), `pbcopy` (macOS).

The reader also copies through the terminal (OSC 52, see ui.services.Copier),
which many terminals ignore (macOS Terminal, GNOME Terminal, tmux without
`set-clipboard`); a local tool is what makes `c` and `b` work there.

Only a session at this machine's own display gets a tool. Over SSH the
display a tool reaches is the remote machine's, not the one in front of the
user, so none is used, with one exception: X11 forwarded by `ssh -X`, whose
DISPLAY is the user's own screen (xclip or xsel then copy to it). Wayland is
not forwarded by SSH, and pbcopy on a remote Mac fills that Mac's clipboard.
OSC 52 is what reaches the user's terminal over SSH.

A tool is run with the text on its stdin and nothing else: it is looked up
on PATH, given a fixed argument list, and allowed `TOOL_TIMEOUT_S` (xclip
and wl-copy stay behind to serve the selection, detached from our pipes).
Callers run it off the UI thread.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from typing import NamedTuple

# Seconds a clipboard tool gets to take the text.
TOOL_TIMEOUT_S = 3.0


class ClipboardTool(NamedTuple):
    name: str
    argv: tuple[str, ...]


class Copied(NamedTuple):
    """What a local copy did: the tool used (None: no tool applies here),
    and why it failed ("" when it worked)."""

    tool: str | None
    error: str = ""


def over_ssh(environ: Mapping[str, str]) -> bool:
    return any(environ.get(name) for name in ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"))


def clipboard_tool(environ: Mapping[str, str] | None = None, platform: str | None = None) -> ClipboardTool | None:
    """The tool that reaches the user's clipboard from this session, or None."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    remote = over_ssh(environ)
    path = environ.get("PATH")
    candidates: list[tuple[str, tuple[str, ...]]] = []
    if environ.get("WAYLAND_DISPLAY") and not remote:
        candidates.append(("wl-copy", ()))
    if environ.get("DISPLAY"):  # over SSH: forwarded X11, the user's own screen
        candidates += [("xclip", ("-selection", "clipboard", "-in")), ("xsel", ("--clipboard", "--input"))]
    if platform == "darwin" and not remote:
        candidates.append(("pbcopy", ()))
    for name, arguments in candidates:
        program = shutil.which(name, path=path)
        if program:
            return ClipboardTool(name, (program, *arguments))
    return None


def copy_locally(text: str, environ: Mapping[str, str] | None = None, platform: str | None = None) -> Copied:
    """Put `text` on the clipboard with the local tool, if one applies. Blocks
    up to TOOL_TIMEOUT_S: call it from a thread."""
    tool = clipboard_tool(environ, platform)
    if tool is None:
        return Copied(None)
    try:
        finished = subprocess.run(
            tool.argv, input=text.encode("utf-8"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=TOOL_TIMEOUT_S, check=False, start_new_session=True,
            env=None if environ is None else dict(environ),
        )
    except subprocess.TimeoutExpired:
        return Copied(tool.name, f"it did not finish in {TOOL_TIMEOUT_S:g} s")
    except OSError as error:
        return Copied(tool.name, error.strerror or str(error))
    if finished.returncode != 0:
        return Copied(tool.name, f"it exited with status {finished.returncode}")
    return Copied(tool.name)
