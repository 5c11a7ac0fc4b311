"""Fake clipboard tools: real executables that record what they were given."""

from __future__ import annotations

import shutil


def fake_clipboard_tool(directory, name: str = "xclip", status: int = 0):
    """A real executable `name` in `directory` that writes its stdin to
    `name`.got and its arguments to `name`.args there, and exits `status`."""
    directory.mkdir(parents=True, exist_ok=True)
    got = directory / f"{name}.got"
    cat = shutil.which("cat")  # by its full path: the tests' PATH may hold only `directory`
    script = directory / name
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$@" > "{directory}/{name}.args"\n'
        f'{cat} > "{got}"\n'
        f"exit {status}\n"
    )
    script.chmod(0o755)
    return got
