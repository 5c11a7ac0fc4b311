"""How a command ends: its exit status, the lines saying what it changed,
and what it refuses.

A command's confirmations ("following X") are held back until its changes
are saved: one that could not be saved was not made. The status it settled
on before writing its report is kept, so a reader of stdout that leaves
early (`| head`) does not turn a failed refresh into a success.
"""

from __future__ import annotations

import sys

from feedtui.output import OutputError, discard_output

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def reader_left() -> int:
    """`feedtui papers … | head`: the reader had what it wanted and closed the
    pipe. That is no failure, so the exit is the status the command had
    settled on, or 0, as for a command that wrote everything (a reader that
    failed says so in its own status); nothing more is said, and what is
    still buffered goes nowhere."""
    discard_output()
    return settled[-1] if settled else EXIT_OK


def output_failed(error: OutputError) -> int:
    """`feedtui topics > /dev/full`: the output is lost, and the command failed."""
    from feedtui.core.files import describe_os_error

    discard_output()
    print(f"feedtui: cannot write the output: {describe_os_error(error)}", file=sys.stderr)
    return EXIT_FAILED


# The exit status a command settled on before it wrote its report: `feedtui
# refresh 2>&1 | head -1` still exits 1 when sources failed.
settled: list[int] = []


def settle(status: int) -> int:
    settled.append(status)
    return status


# Lines saying what a command changed (a follow, a mark, a topic added), held
# back until the change is on disk: one that could not be saved was not made.
confirmations: list[str] = []


def confirm(line: str) -> None:
    confirmations.append(line)
