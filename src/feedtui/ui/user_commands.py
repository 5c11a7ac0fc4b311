"""The user's own commands ([commands] in the config): each a binding with
the id `command.NAME`, a key when [keymap] gives it one, a row in the help
and in the command palette; run on the paper under the cursor (the list's,
or the detail view's).

A command runs in a worker thread, never on the event loop: its argument
list is filled in (text/argv_template.py) from the paper's checked fields
(core/command_fields.py) and started without a shell, its input empty, with
`general.command_timeout` to finish (then its process group is stopped).
What it did is said in a notification: its exit status and the first line
it wrote, as plain text with control characters stripped (a program's
output is untrusted, never markup). `{bibtex_file}` is a temporary file
holding the paper's BibTeX entry, removed once the command has ended.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from textual.binding import Binding

from feedtui.core.command_fields import command_fields
from feedtui.text.argv_template import MissingField, OptionLike, expand, fields_used
from feedtui.text.sanitize import clean_line

if TYPE_CHECKING:
    from feedtui.model import Paper

BINDING_PREFIX = "command."
# The most of a command's output kept, to find its first line in.
OUTPUT_READ = 4096
# The longest first line a notification shows.
LINE_SHOWN = 200
# Seconds a stopped command has to end after SIGTERM before SIGKILL.
TERM_GRACE_S = 2.0

# How a message names a field the paper lacks.
FIELD_WORDS = {
    "id": "id",
    "url": "http(s) link",
    "pdf_url": "PDF link",
    "doi": "DOI",
    "bibtex_file": "BibTeX entry",
}


def binding_id(name: str) -> str:
    return BINDING_PREFIX + name


def command_bindings(commands: Mapping[str, Sequence[str]], keymap: Mapping[str, str]) -> list[Binding]:
    """A binding per command, for the help, the palette and the keymap's
    check: its key as [keymap] gives it ("" when it has none)."""
    return [
        Binding(
            keymap.get(binding_id(name), ""),
            f"run_command({name!r})",
            f"Run {name}",
            show=False,
            id=binding_id(name),
            tooltip=f"Run {name}: {' '.join(argv)}",
        )
        for name, argv in commands.items()
    ]


class Ran(NamedTuple):
    """How a command ended: `status` its exit status (None when it never
    started, or was stopped), `signal` the signal that ended it (0: none)."""

    status: int | None
    first_line: str = ""
    signal: int = 0
    timed_out: bool = False
    not_started: str = ""


def run_argv(
    argv: Sequence[str], timeout: float, started: Callable[[subprocess.Popen], None] | None = None
) -> Ran:
    """Run the argument list as it is (no shell), its output and errors to a
    temporary file (a chatty command never fills a pipe nor memory), for at
    most `timeout` seconds; in its own session, so that stopping it stops
    what it started too. `started` is told the process once it runs."""
    with tempfile.TemporaryFile() as output:
        try:
            process = subprocess.Popen(
                list(argv), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True, close_fds=True,
            )
        except OSError as error:
            return Ran(None, not_started=error.strerror or str(error))
        if started is not None:
            started(process)
        timed_out = False
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop(process)
        output.seek(0)
        line = first_line(output.read(OUTPUT_READ))
    status = process.returncode
    if timed_out:
        return Ran(None, line, timed_out=True)
    if status < 0:
        return Ran(None, line, signal=-status)
    return Ran(status, line)


def stop(process: subprocess.Popen) -> None:
    """Stop the command and what it started: SIGTERM to its process group,
    SIGKILL if it has not ended `TERM_GRACE_S` later."""
    _stop(process)


def _stop(process: subprocess.Popen) -> None:
    for sent, wait in ((signal.SIGTERM, TERM_GRACE_S), (signal.SIGKILL, None)):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            break
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def first_line(data: bytes) -> str:
    """The first line with something on it, as plain text: terminal control
    sequences and characters stripped, at most LINE_SHOWN characters."""
    for raw in data.decode("utf-8", errors="replace").splitlines():
        line = clean_line(raw, html_allowed=False)
        if line:
            return line if len(line) <= LINE_SHOWN else line[: LINE_SHOWN - 1] + "…"
    return ""


def describe(name: str, ran: Ran, timeout: float) -> tuple[str, str]:
    """(the notification's text, its severity) for a command that ran."""
    said = f": {ran.first_line}" if ran.first_line else ""
    if ran.not_started:
        return f"{name}: could not start it ({ran.not_started})", "error"
    if ran.timed_out:
        return f"{name}: stopped after {timeout:g} s (general.command_timeout){said}", "error"
    if ran.signal:
        return f"{name}: ended by signal {ran.signal}{said}", "error"
    if ran.status == 0:
        return f"{name}: done (exit status 0){said}", "information"
    return f"{name}: failed (exit status {ran.status}){said}", "error"


def prepare(name: str, argv: Sequence[str], paper: Paper) -> tuple[list[str], Path | None]:
    """The argument list filled in for `paper`, and the BibTeX file written
    for it (None when the command uses none). MissingField or OptionLike
    when it cannot be filled in; the file is then not left behind."""
    fields = command_fields(paper)
    used = fields_used(argv)
    for field in used:  # before writing anything
        if field != "bibtex_file" and field not in fields:
            raise MissingField(field)
    bibtex: Path | None = None
    if "bibtex_file" in used:
        from feedtui.export.bibtex import bibtex_entry

        handle, path = tempfile.mkstemp(prefix=f"feedtui-{name}-", suffix=".bib")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(bibtex_entry(paper))
        bibtex = Path(path)
        fields["bibtex_file"] = str(bibtex)
    try:
        return expand(argv, fields), bibtex
    except (MissingField, OptionLike):
        if bibtex is not None:
            bibtex.unlink(missing_ok=True)
        raise


class UserCommands:
    """The App's commands: runs one on a paper in a worker and says how it ended."""

    def __init__(self, app, commands: Mapping[str, Sequence[str]], timeout: float) -> None:
        self.app = app
        self.commands = dict(commands)
        self.timeout = timeout
        # The commands running now, stopped when the app quits (its worker
        # threads are waited for as it ends).
        self._running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def run(self, name: str, paper_id: str) -> None:
        if name not in self.commands:
            return
        self.app.run_worker(
            partial(self._run, name, paper_id), thread=True, group="user-command", exit_on_error=False
        )

    def _run(self, name: str, paper_id: str) -> None:
        """In a worker thread: the paper is read from its week file, the
        command run to its end."""
        paper = self.app.engine.paper(paper_id)
        if paper is None:
            self._say(f"{name}: {paper_id} is no longer in the cache; not run", "warning")
            return
        try:
            argv, bibtex = prepare(name, self.commands[name], paper)
        except MissingField as missing:
            word = FIELD_WORDS[missing.name]
            self._say(f"{name}: this paper has no {word} for {{{missing.name}}}; not run", "warning")
            return
        except OptionLike as option:
            self._say(f"{name}: {{{option.name}}} would start an argument with '-'; not run", "error")
            return
        except OSError as error:
            self._say(f"{name}: could not write the BibTeX file ({error.strerror or error}); not run", "error")
            return
        try:
            ran = run_argv(argv, self.timeout, self._started)
        finally:
            if bibtex is not None:
                bibtex.unlink(missing_ok=True)
        self._say(*describe(name, ran, self.timeout))

    def _started(self, process: subprocess.Popen) -> None:
        with self._lock:
            self._running = {p for p in self._running if p.poll() is None} | {process}

    def stop_all(self) -> None:
        """Stop every command still running (the app is quitting), each in a thread of its own."""
        with self._lock:
            running = [p for p in self._running if p.poll() is None]
            self._running = set()
        for process in running:
            threading.Thread(target=stop, args=(process,), daemon=True).start()

    def _say(self, text: str, severity: str) -> None:
        try:
            self.app.call_from_thread(self.app.notify, text, severity=severity, timeout=10, markup=False)
        except RuntimeError:  # the app has ended meanwhile
            pass
