"""SIGTERM and SIGHUP (`kill PID`, a terminal closed, an ssh session dropped)
end feedtui as `q` and Ctrl-C do, in real processes: the reader in a real
terminal (tmux), a refresh as a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.store.lock import DataDirLock
from tests.child_signals import as_from_a_terminal
from tests.held_feeds import held_api, paged_refresh_process
from tests.test_terminal import SCRIPT, Tmux, sidebar_count

pytestmark = pytest.mark.slow
SRC = Path(__file__).resolve().parents[1] / "src"

needs_a_terminal = pytest.mark.skipif(
    shutil.which("tmux") is None or not SCRIPT.exists(), reason="needs tmux, and the feedtui console script next to python"
)


@pytest.fixture
def tmux():
    session = Tmux(f"feedtui-signals-{os.getpid()}")
    yield session
    session("kill-server")


def start_reader(tmux: Tmux, tmp_path: Path, shell: str) -> tuple[int, Path]:
    """The demo reader in a tmux pane, run by `shell` (which has `{reader}` for
    the command); (the reader's pid, its data directory)."""
    data = tmp_path / "data"
    reader = f"{SCRIPT} --demo --data-dir {data}"
    env = f"TERM=xterm-256color HOME={tmp_path} XDG_CONFIG_HOME={tmp_path / 'config'} PYTHONPATH={SRC}"
    tmux("new-session", "-d", "-s", "app", "-x", "120", "-y", "40",
         f"env -u COLUMNS -u LINES {env} sh -c '{shell.format(reader=reader)}'")
    tmux.wait_for(r"Week of")
    pane = int(tmux("display", "-p", "-t", "app", "#{pane_pid}"))
    return children_of(pane)[0], data / "demo"


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def ended(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def read_marks(data: Path) -> int:
    return len(json.loads((data / "state.json").read_text())["read"])


def mark_one_read(tmux: Tmux) -> None:
    """m on the first paper of Edge Inference, and wait until the sidebar counts it."""
    before = sidebar_count(tmux.screen(), "Edge Inference")
    tmux("send-keys", "-t", "app", "Tab")
    tmux("send-keys", "-t", "app", "m")
    deadline = time.monotonic() + 10
    while sidebar_count(tmux.screen(), "Edge Inference") != before - 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sidebar_count(tmux.screen(), "Edge Inference") == before - 1


def until(holds, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while not holds() and time.monotonic() < deadline:
        time.sleep(0.05)
    return holds()


@needs_a_terminal
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_kill_quits_the_reader_as_q_does(tmux, tmp_path, signum):
    """`kill PID`: the read mark still waiting to be written was lost, and the
    terminal was left in the alternate screen with mouse reporting on."""
    done = tmp_path / "exited"
    # The shell outlives a SIGHUP sent to the reader alone, to say how it ended.
    reader, data = start_reader(tmux, tmp_path, f"trap : HUP; {{reader}}; echo $? > {done}; sleep 60")
    marks = read_marks(data)
    # Held, the data directory's lock keeps the mark from being written before the signal.
    with DataDirLock(data):
        mark_one_read(tmux)
        os.kill(reader, signum)
        # The terminal is given back before the last save, which waits for the lock.
        assert until(lambda: tmux("display", "-p", "-t", "app", "#{alternate_on} #{mouse_any_flag}").split() == ["0", "0"])
    assert until(done.exists)
    assert done.read_text().strip() == str(128 + signum)
    assert read_marks(data) == marks + 1


@needs_a_terminal
def test_a_terminal_closed_under_the_reader_loses_nothing(tmux, tmp_path):
    """The terminal window closed (its shell and the reader get SIGHUP, and the
    terminal is gone): the mark still waiting to be written was lost."""
    reader, data = start_reader(tmux, tmp_path, "{reader}")
    marks = read_marks(data)
    shell = int(tmux("display", "-p", "-t", "app", "#{pane_pid}"))
    with DataDirLock(data):
        mark_one_read(tmux)
        tmux("kill-session", "-t", "app")
        assert until(lambda: ended(shell))
    assert until(lambda: ended(reader))
    assert read_marks(data) == marks + 1


def test_sigterm_during_refresh_keeps_the_pages_fetched_as_ctrl_c_does(tmp_path):
    """A refresh run by cron or a script, stopped with `kill`: it died at once,
    and the 20 papers it had fetched were fetched again at the next one."""
    with held_api(30, held_start=20) as api:
        argv, env, data = paged_refresh_process(tmp_path, api.url)
        process = subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal()
        )
        assert api.asked.wait(30)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM
    assert stderr.strip().splitlines()[-1] == "feedtui: 20 new, 0 updated papers stored before it stopped"
    engine = Engine(Config(), data, background_writes=False)
    assert len(engine.library) == 20
    engine.close()


def test_sigterm_stops_a_nohup_refresh_as_it_stops_any_other(tmp_path):
    """`nohup feedtui refresh &` from a script: started with Ctrl-C and SIGHUP
    ignored, and stopped with `kill`. Ctrl-C was then a bare KeyboardInterrupt
    raised inside the refresh, which stored none of the 20 papers fetched."""
    with held_api(30, held_start=20) as api:
        argv, env, data = paged_refresh_process(tmp_path, api.url)
        process = subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=as_from_a_terminal(ignoring=(signal.SIGINT, signal.SIGHUP)),
        )
        assert api.asked.wait(30)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM, stderr[-2000:]
    assert stderr.strip().splitlines()[-1] == "feedtui: 20 new, 0 updated papers stored before it stopped"
    engine = Engine(Config(), data, background_writes=False)
    assert len(engine.library) == 20
    engine.close()


def test_a_refresh_whose_terminal_closes_ends_as_sighup_says(tmp_path):
    """`feedtui refresh` in a terminal that closed: its last words failed on the
    hung-up terminal, that error was called a data directory problem (which
    failed to print too), and it exited 1 with a traceback instead of 129."""
    import fcntl
    import pty
    import termios

    with held_api(30, held_start=20) as api:
        argv, env, data = paged_refresh_process(tmp_path, api.url)
        master, terminal = pty.openpty()

        def take_the_terminal() -> None:
            as_from_a_terminal()()
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        process = subprocess.Popen(
            argv, env=env, stdin=terminal, stdout=terminal, stderr=terminal, preexec_fn=take_the_terminal, close_fds=True
        )
        os.close(terminal)
        assert api.asked.wait(30)
        os.close(master)  # the terminal window closes: SIGHUP, and writes to it fail
        process.wait(timeout=30)
    assert process.returncode == 128 + signal.SIGHUP
    engine = Engine(Config(), data, background_writes=False)
    assert len(engine.library) == 20
    engine.close()
