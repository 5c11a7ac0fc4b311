"""What stops feedtui from starting here, in words: no terminal for the
reader, a terminal that cannot show UTF-8, a data directory it cannot use.

Both front ends ask these before they start (the CLI before it hands over to
the reader, the reader when its data directory fails it), so they live below
both: nothing here imports the CLI or Textual.
"""

from __future__ import annotations

import os
import sys

A_FILE_ON_THE_PATH = "it, or a folder on its path, is a file"


def terminal_problem() -> str:
    """Why the reader has no terminal to run on ("" when it has one). Textual
    reads keys from stdin and draws on stderr: without a terminal on both
    (cron, a pipe) the reader would wait for keys forever and draw its
    screens into a log, and with only stderr redirected (`feedtui 2>log`) it
    would draw them into the log while the keys come from the terminal."""
    keys, screen = (stream is not None and stream.isatty() for stream in (sys.__stdin__, sys.__stderr__))
    if keys and screen:
        return ""
    if keys:
        return "the reader draws on the terminal through stderr, which is redirected; run it without 2>"
    return "the reader needs a terminal; for scripts use feedtui refresh / topics / papers"


def encoding_problem() -> str:
    """Why the reader cannot draw on this terminal ("" when it can): it draws
    with characters (★ ▁▂▃ │) only UTF-8 has, and where the locale says the
    terminal takes ISO-8859-1 or ASCII, Python would write them as `\\u2605`."""
    from feedtui.output import takes_any_character

    if takes_any_character(sys.__stderr__):
        return ""
    if os.environ.get("PYTHONIOENCODING", "").partition(":")[0]:
        return f"the reader needs UTF-8 output, and PYTHONIOENCODING={os.environ['PYTHONIOENCODING']} is not: start it without PYTHONIOENCODING"
    # The variable that sets the locale's encoding: the first of these that is set.
    variable = next((name for name in ("LC_ALL", "LC_CTYPE", "LANG") if os.environ.get(name)), "LANG")
    return (
        f"the reader needs a UTF-8 locale, and {variable}={os.environ.get(variable, '')} is not one: "
        f"start it as {variable}=C.UTF-8 feedtui"
    )


def data_dir_problem(directory, error: OSError) -> str:
    from pathlib import Path

    from feedtui.core.files import describe_os_error

    a_file_on_the_path = isinstance(error, (FileExistsError, NotADirectoryError))
    if error.filename and Path(error.filename) != Path(directory):
        # One of its files (a folder where cache/tags.json should be, say).
        if isinstance(error, IsADirectoryError):
            return f"cannot read {error.filename}: it is a folder, where feedtui keeps a file (move it away)"
        if a_file_on_the_path:
            return f"cannot use {error.filename}: {A_FILE_ON_THE_PATH} where feedtui keeps a folder (move it away)"
        return f"cannot read {error.filename}: {describe_os_error(error)}"
    reason = A_FILE_ON_THE_PATH if a_file_on_the_path else describe_os_error(error)
    return (
        f"cannot use the data directory {directory}: {reason} "
        "(choose another with --data-dir DIR or FEEDTUI_DATA_DIR)"
    )
