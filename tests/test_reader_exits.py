"""Every way the reader ends leaves no process behind: `q`, SIGTERM, SIGHUP,
the terminal closing, and an unexpected exception. Each runs the real
`feedtui --demo` in a real pseudo-terminal (the reader's own process, as a
user starts it) and ends it; the process must be gone within END_S. A
reader whose app loop had ended with Textual's input thread still running
stayed for ever, and spun on the closed terminal (issue 34)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from tests.child_signals import as_from_a_terminal

pytestmark = pytest.mark.slow
SRC = Path(__file__).resolve().parents[1] / "src"
# Generous: these tests are of a reader that ends, not of how fast (a loaded
# 2-core machine has taken over 4 s).
END_S = 10.0

# Loaded by the reader's interpreter at start (sitecustomize): s raises.
PLANTED = '''
from feedtui.ui.screens.main import MainScreen

def action_star(self):
    raise RuntimeError("planted for test_reader_exits")

MainScreen.action_star = action_star
'''


class Reader:
    """`feedtui --demo` on a pseudo-terminal of 120x40, its output read as it comes."""

    def __init__(self, tmp_path: Path, *, planted: bool | str = False, ignoring: tuple[int, ...] = ()) -> None:
        self.data = tmp_path / "data"
        paths = [str(SRC)]
        if planted:
            (tmp_path / "planted").mkdir()
            (tmp_path / "planted" / "sitecustomize.py").write_text(planted if isinstance(planted, str) else PLANTED)
            paths.insert(0, str(tmp_path / "planted"))
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color", "LANG": "C.UTF-8",
            "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": os.pathsep.join(paths),
            "BROWSER": "true",
        }
        argv = [sys.executable, "-m", "feedtui", "--demo", "--data-dir", str(self.data)]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the pseudo-terminal is its controlling terminal
            as_from_a_terminal(ignoring=ignoring)()
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
            os.chdir(tmp_path)  # where the palette's Screenshot would save, with no ~/Downloads
            os.execve(argv[0], argv, env)
        self.output = bytearray()
        self.status: int | None = None
        self.reading = True
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while self.reading:
            try:
                if not select.select([self.fd], [], [], 0.05)[0]:
                    continue
                chunk = os.read(self.fd, 65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            self.output += chunk

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while text.encode() not in self.output:
            assert time.monotonic() < deadline, f"{text!r} not shown: {bytes(self.output[-2000:])!r}"
            time.sleep(0.05)

    def hang_up(self) -> None:
        """Close the terminal: the master side of the pseudo-terminal, for
        good (a read under way in another thread would keep it open)."""
        self.reading = False
        self.reader.join()
        os.close(self.fd)
        self.fd = -1

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def ended_within(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return True
            time.sleep(0.02)
        return False

    def close(self) -> None:
        if self.fd >= 0:
            self.hang_up()
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass

    def left_behind(self) -> list[int]:
        """Processes still running whose command line names this reader's data directory."""
        found = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                if str(self.data).encode() in cmdline.read_bytes():
                    found.append(int(cmdline.parent.name))
            except OSError:
                continue
        return found


@pytest.fixture
def reader(tmp_path):
    readers: list[Reader] = []

    def start(**options) -> Reader:
        started = Reader(tmp_path, **options)
        readers.append(started)
        started.wait_for("Week of")
        time.sleep(0.3)  # past the first frames: keys go to the main screen
        return started

    yield start
    for started in readers:
        started.close()


def read_marks(data: Path) -> set[str]:
    return set(json.loads((data / "demo" / "state.json").read_text())["read"])


def mark_one(started: Reader) -> set[str]:
    """m on the first paper of the list; the read marks on disk before it."""
    before = read_marks(started.data)
    started.send("\t")
    time.sleep(0.2)
    started.send("m")
    time.sleep(0.5)
    return before


def test_q_ends_the_reader(reader):
    started = reader()
    started.send("q")
    assert started.ended_within(END_S)
    assert started.status == 0
    assert started.left_behind() == []
    assert b"\x1b[?1049l" in started.output  # the terminal's own screen is back


# Loaded by the reader's interpreter at start: while the app closes, a ctrl+z
# arrives as SIGTSTP (keys typed ahead, taken as signals once the terminal is
# back in its own modes).
SUSPENDED_WHILE_LEAVING = '''
import os, signal
from feedtui.ui.app import FeedtuiApp

_on_unmount = FeedtuiApp.on_unmount

def on_unmount(self):
    os.kill(os.getpid(), signal.SIGTSTP)
    _on_unmount(self)

FeedtuiApp.on_unmount = on_unmount
'''


def test_a_suspend_while_the_reader_leaves_does_not_stop_it(reader):
    """Textual's SIGTSTP handler suspended the application mode the app was
    closing: the process stopped, or waited for ever on the stopped writer."""
    started = reader(planted=SUSPENDED_WHILE_LEAVING)
    started.send("q")
    assert started.ended_within(END_S)
    assert started.status == 0
    assert started.left_behind() == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_quit_signal_ends_the_reader(reader, signum):
    started = reader()
    os.kill(started.pid, signum)
    assert started.ended_within(END_S)
    assert started.status == 128 + signum
    assert started.left_behind() == []
    assert b"\x1b[?1049l" in started.output


def test_the_terminal_closing_ends_the_reader(reader):
    """The terminal window closed: the pseudo-terminal hangs up under the reader."""
    started = reader()
    started.hang_up()
    assert started.ended_within(END_S)
    assert started.status == 128 + signal.SIGHUP  # not 120: the last flush has no terminal to fail on
    assert started.left_behind() == []


def test_the_terminal_closing_ends_a_reader_started_with_sighup_ignored(reader):
    """`nohup feedtui`, or a launcher that ignores SIGHUP: the terminal closed,
    no SIGHUP came, and the reader stayed, its input thread spinning on the
    hung-up terminal at most of a core."""
    started = reader(ignoring=(signal.SIGHUP,))
    before = mark_one(started)
    started.hang_up()
    assert started.ended_within(END_S + 2.0)  # noticed by a look every TERMINAL_CHECK_S
    assert started.status == 128 + signal.SIGHUP
    assert started.left_behind() == []
    assert len(read_marks(started.data) - before) == 1  # the mark pending was saved


def test_an_exception_it_cannot_go_on_from_ends_the_reader_and_names_the_report(reader):
    """A bug that comes back at once (s raises, planted; s five times): the
    marks are saved, the terminal is given back, the report is named."""
    started = reader(planted=True)
    before = mark_one(started)
    started.send("s")
    started.wait_for("crash-reports")  # the first: notified, and the reader goes on
    started.send("ssss")
    assert started.ended_within(END_S)
    assert started.status == 1
    assert started.left_behind() == []
    output = started.output.decode(errors="replace")
    restored = output.rindex("\x1b[?1049l")
    assert "stopped on an unexpected error" in output[restored:]
    reports = sorted((started.data / "demo" / "crash-reports").glob("crash-*.txt"))
    assert len(reports) == 5 and str(reports[-1]) in output[restored:].replace("\r\n", "")
    assert len(read_marks(started.data) - before) == 1
