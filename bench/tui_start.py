"""Time a terminal program from launch until its screen shows what we wait for.

    python bench/tui_start.py --ready 'Your feeds' --ready '^\\s+1\\s' --quit q -- newsboat -u urls
    python bench/tui_start.py --ready READY --quit C-c -- bash -c 'sleep 0.3; echo READY; sleep 5'

How: a private tmux server (`tmux -L <socket> -f /dev/null`) is started with
an idle placeholder session, so the server's own start-up is not timed, and a
control-mode client (`tmux -C`) attached to it carries every capture and key
(about 0.3 ms a capture, against about 10 ms for a `tmux capture-pane`
process). The program gets its own COLS x ROWS session, launched through a
tiny Python stub that writes `time.time()` to a stamp file and `exec`s
`/usr/bin/time -v -o FILE program...`; /usr/bin/time forks the program and
reports its peak RSS and CPU (descendants it waited for included). We poll
`capture-pane -p` every --poll-ms until every --ready regex matches the
screen (re.MULTILINE), then send the --quit keys and wait for
/usr/bin/time's report, which it writes once the program has exited.

Figures (JSON on stdout):
  ready_s    stamp (just before exec) -> end of the first capture that matched
  launch_s   `tmux new-session` call -> the same moment (adds pane + stub start)
  quit_s     quit keys sent -> program gone
  polls, capture_ms (median duration of one capture: part of the resolution)
  max_rss_kb, user_s, sys_s, exit_status      from /usr/bin/time -v
  timed_out  the screen never matched within --timeout; exited_early: the
             program ended before it matched
The end of the capture is used, not its start, so ready_s never flatters the
program; its error is below one poll interval plus one capture.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import queue
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

GNU_TIME = "/usr/bin/time"
APP_SESSION = "app"
# Writes the wall-clock stamp, then becomes /usr/bin/time (which forks the program).
STUB = "import os,sys,time\nopen(sys.argv[1],'w').write(repr(time.time()))\nos.execv(sys.argv[2],sys.argv[2:])"
KEY_NAME = re.compile(r"[A-Za-z0-9_\-/]+")  # tmux key names, and "/"
_sockets = itertools.count()


class TmuxError(RuntimeError):
    pass


class ControlClient:
    """A `tmux -C` client: commands over a pipe, no process per command.

    A reader thread drains tmux's side of the pipe as fast as it comes and
    stamps each line with `time.monotonic()`: a control client that falls
    behind gets its pane output discarded by tmux, so nobody may leave the
    pipe unread. `%output` notifications (what the attached session's panes
    print) are kept as `output_times`, which is what a repaint timer needs.
    """

    def __init__(self, base: list[str], session: str, env: dict[str, str] | None) -> None:
        self.process = subprocess.Popen(
            [*base, "-C", "attach-session", "-t", session],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )
        self._lines: queue.SimpleQueue[tuple[float, bytes] | None] = queue.SimpleQueue()
        self._reader = threading.Thread(target=self._drain, name="tmux-control-reader", daemon=True)
        self._reader.start()
        self.output_times: list[float] = []
        self._read_block(timeout=10.0)  # the attach itself answers with one empty block

    def _drain(self) -> None:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        partial = b""
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self._lines.put(None)
                return
            arrived = time.monotonic()
            *complete, partial = (partial + chunk).split(b"\n")
            for line in complete:
                self._lines.put((arrived, line))

    def command(self, line: str, timeout: float = 10.0) -> list[str]:
        self.write(line)
        return self._read_block(timeout)

    def write(self, line: str) -> None:
        """Send a command without waiting for its answer (read_one/pump consume it later)."""
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def pump(self, timeout: float) -> bool:
        """Read what arrives within `timeout`; True when at least one line came."""
        deadline = time.monotonic() + timeout
        got = False
        while self.read_one(deadline):
            got = True
        return got

    def read_one(self, deadline: float) -> bool:
        """Read and handle one line (a notification, or a command answer we do not wait for)."""
        line = self._next_line(deadline)
        if line is None:
            return False
        self._notification(*line)
        return True

    def _next_line(self, deadline: float) -> tuple[float, bytes] | None:
        try:
            item = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if item is None:
            self._lines.put(None)  # stay at end-of-stream for later readers
            raise TmuxError("the tmux control client went away")
        return item

    def _notification(self, arrived: float, line: bytes) -> None:
        if line.startswith(b"%output "):
            self.output_times.append(arrived)

    def _read_block(self, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        inside, lines = False, []
        while True:
            item = self._next_line(deadline)
            if item is None:
                raise TmuxError("tmux did not answer a control command in time")
            arrived, line = item
            if line.startswith(b"%begin "):
                inside, lines = True, []
            elif inside and line.startswith((b"%end ", b"%error ")):
                if line.startswith(b"%error "):
                    raise TmuxError("tmux: " + " ".join(lines))
                return lines
            elif inside:
                lines.append(line.decode("utf-8", "replace"))
            else:
                self._notification(arrived, line)

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


class PrivateTmux:
    """A tmux server of our own, on its own socket, killed (and its socket removed) on exit."""

    def __init__(self, *, env: dict[str, str] | None = None, term: str = "tmux-256color") -> None:
        self.socket = f"ftbench-{os.getpid()}-{next(_sockets)}"
        self.base = ["tmux", "-L", self.socket, "-f", "/dev/null"]
        self.env = env
        self.term = term
        self.control: ControlClient | None = None
        self.socket_path: str = ""

    def __call__(self, *args: str, check: bool = True) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, env=self.env)
        if check and done.returncode != 0:
            raise TmuxError(f"tmux {' '.join(args[:2])}: {done.stderr.strip() or done.returncode}")
        return done.stdout

    def __enter__(self) -> PrivateTmux:
        self("new-session", "-d", "-s", "idle", "sleep 86400")
        try:
            self.socket_path = self("display-message", "-p", "-t", "idle", "#{socket_path}").strip()
            self("set-option", "-g", "default-terminal", self.term)
            self("set-option", "-g", "status", "off")
            self("set-option", "-wg", "remain-on-exit", "on")  # keep the last screen of a program that exits
            self.control = ControlClient(self.base, "idle", self.env)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.control is not None:
            self.control.close()
            self.control = None
        self("kill-server", check=False)
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)

    def attach(self, session: str) -> ControlClient:
        """Another control client, attached to `session`, that sees its output."""
        return ControlClient(self.base, session, self.env)

    def capture(self, target: str) -> str:
        assert self.control is not None
        return "\n".join(self.control.command(f"capture-pane -p -t {target}"))

    def send_keys(self, target: str, keys: Sequence[str], client: ControlClient | None = None) -> None:
        """Keys as tmux key names (q, C-c, Escape, Enter, j, J)."""
        for key in keys:
            if not KEY_NAME.fullmatch(key):
                raise ValueError(f"not a tmux key name: {key!r}")
        client = client or self.control
        assert client is not None
        client.command(f"send-keys -t {target} " + " ".join(keys))


def read_gnu_time(path: Path) -> dict[str, float] | None:
    """Fields of a complete /usr/bin/time -v report, or None while it is not written yet."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return None
    if "Exit status:" not in text:
        return None
    fields: dict[str, float] = {}
    patterns = {
        "max_rss_kb": r"Maximum resident set size \(kbytes\):\s*(\d+)",
        "user_s": r"User time \(seconds\):\s*([\d.]+)",
        "sys_s": r"System time \(seconds\):\s*([\d.]+)",
        "exit_status": r"Exit status:\s*(-?\d+)",
    }
    for name, pattern in patterns.items():
        match = re.search(pattern, text)
        if match:
            fields[name] = float(match.group(1))
    return fields


class TerminalProgram:
    """A program running in a private tmux pane, under /usr/bin/time.

    Use as a context manager; the tmux server (and with it the program, if
    still running) is gone on exit.
    """

    def __init__(
        self,
        cmd: Sequence[str],
        *,
        cols: int = 160,
        rows: int = 48,
        env: dict[str, str] | None = None,
        cwd: str | os.PathLike | None = None,
        term: str = "tmux-256color",
    ) -> None:
        if not os.path.exists(GNU_TIME):
            raise TmuxError(f"{GNU_TIME} is needed for peak RSS (apt-get install time)")
        self.cmd, self.cols, self.rows, self.cwd = list(cmd), cols, rows, cwd
        self.tmux = PrivateTmux(env=env, term=term)
        self._scratch = tempfile.TemporaryDirectory(prefix="tui-start-")
        self.stamp_file = Path(self._scratch.name) / "stamp"
        self.time_file = Path(self._scratch.name) / "time"
        self.launched = 0.0

    def __enter__(self) -> TerminalProgram:
        self.tmux.__enter__()
        program = [sys.executable, "-I", "-S", "-c", STUB, str(self.stamp_file), GNU_TIME, "-v", "-o", str(self.time_file), *self.cmd]
        line = shlex.join(program)
        if self.cwd is not None:
            line = f"cd {shlex.quote(str(self.cwd))} && exec {line}"
        self.launched = time.time()
        try:
            self.tmux("new-session", "-d", "-s", APP_SESSION, "-x", str(self.cols), "-y", str(self.rows), line)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.tmux.__exit__()
        self._scratch.cleanup()

    @property
    def stamp(self) -> float | None:
        try:
            return float(self.stamp_file.read_text())
        except (OSError, ValueError):
            return None

    def report(self) -> dict[str, float] | None:
        return read_gnu_time(self.time_file)

    def screen(self) -> str:
        return self.tmux.capture(APP_SESSION)

    def send_keys(self, *keys: str) -> None:
        self.tmux.send_keys(APP_SESSION, keys)

    def pid(self) -> int | None:
        """The program's own pid: the child of /usr/bin/time in the pane."""
        pane = self.tmux("display-message", "-p", "-t", APP_SESSION, "#{pane_pid}", check=False).strip()
        if not pane.isdigit():
            return None
        try:
            children = Path(f"/proc/{pane}/task/{pane}/children").read_text().split()
        except OSError:
            return None
        return int(children[0]) if children else None

    def wait_for(self, patterns: Sequence[re.Pattern], *, poll_s: float, timeout: float):
        """Poll until every pattern matches: (wall time at the end of the matching capture | None, screen, polls, capture durations)."""
        deadline = time.monotonic() + timeout
        polls, durations, screen = 0, [], ""
        while time.monotonic() < deadline:
            tick = time.monotonic()
            if self.report() is not None:  # gone, it will never match; keep the screen it left
                return None, screen, polls, durations
            began = time.monotonic()
            screen = self.screen()
            ended_wall = time.time()
            durations.append(time.monotonic() - began)
            polls += 1
            if all(p.search(screen) for p in patterns):
                return ended_wall, screen, polls, durations
            time.sleep(max(0.0, poll_s - (time.monotonic() - tick)))
        return None, screen, polls, durations

    def quit(self, keys: Sequence[str], timeout: float) -> float | None:
        """Send the quit keys; seconds until the program is gone, or None (then it is killed)."""
        sent = time.monotonic()
        if keys:
            self.send_keys(*keys)
        if self.wait_for_exit(timeout):
            return time.monotonic() - sent
        self.kill()
        return None

    def kill(self) -> None:
        """SIGTERM to the program, so /usr/bin/time still reports; then the pane itself."""
        pid = self.pid()
        if pid is not None:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if self.wait_for_exit(3.0):
                return
        self.tmux("kill-session", "-t", APP_SESSION, check=False)  # SIGHUP to everything in the pane

    def wait_for_exit(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.report() is not None:
                return True
            time.sleep(0.005)
        return False


@dataclass(slots=True)
class StartTiming:
    ready_s: float | None
    launch_s: float | None
    quit_s: float | None
    polls: int
    capture_ms: float | None
    timed_out: bool
    exited_early: bool
    max_rss_kb: int | None
    user_s: float | None
    sys_s: float | None
    exit_status: int | None
    screen: str

    def to_json(self) -> dict:
        return asdict(self)


def time_start(
    cmd: Sequence[str],
    ready: Sequence[str],
    *,
    quit_keys: Sequence[str] = ("q",),
    cols: int = 160,
    rows: int = 48,
    poll_ms: float = 15.0,
    timeout: float = 60.0,
    quit_timeout: float = 15.0,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
    term: str = "tmux-256color",
) -> StartTiming:
    """Launch cmd in a private tmux, wait for every `ready` regex, quit it, report."""
    patterns = [re.compile(r, re.MULTILINE) for r in ready]
    if not patterns:
        raise ValueError("give at least one ready pattern")
    with TerminalProgram(cmd, cols=cols, rows=rows, env=env, cwd=cwd, term=term) as program:
        matched_at, screen, polls, durations = program.wait_for(patterns, poll_s=poll_ms / 1000, timeout=timeout)
        quit_s = None
        exited_early = matched_at is None and program.report() is not None
        if matched_at is not None:
            quit_s = program.quit(quit_keys, quit_timeout)
        elif not exited_early:
            program.kill()
        report = program.report() or {}
        stamp, launched = program.stamp, program.launched
    return StartTiming(
        ready_s=round(matched_at - stamp, 4) if matched_at is not None and stamp is not None else None,
        launch_s=round(matched_at - launched, 4) if matched_at is not None else None,
        quit_s=round(quit_s, 4) if quit_s is not None else None,
        polls=polls,
        capture_ms=round(statistics.median(durations) * 1000, 2) if durations else None,
        timed_out=matched_at is None and not exited_early,
        exited_early=exited_early,
        max_rss_kb=int(report["max_rss_kb"]) if "max_rss_kb" in report else None,
        user_s=report.get("user_s"),
        sys_s=report.get("sys_s"),
        exit_status=int(report["exit_status"]) if "exit_status" in report else None,
        screen=screen,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tui_start.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ready", action="append", required=True, metavar="REGEX", help="repeatable; all must match")
    parser.add_argument("--quit", default="q", metavar="KEYS", help="space-separated tmux key names ('q', 'C-c', 'Escape q')")
    parser.add_argument("--cols", type=int, default=160)
    parser.add_argument("--rows", type=int, default=48)
    parser.add_argument("--poll-ms", type=float, default=15.0)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the screen")
    parser.add_argument("--term", default="tmux-256color", help="TERM inside the pane")
    parser.add_argument("--screen-file", type=Path, help="save the last captured screen here")
    parser.add_argument("cmd", nargs=argparse.REMAINDER, help="-- then the program and its arguments")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        print("tui_start.py: give the command after --", file=sys.stderr)
        return 2
    try:
        timing = time_start(
            cmd, args.ready, quit_keys=args.quit.split(), cols=args.cols, rows=args.rows,
            poll_ms=args.poll_ms, timeout=args.timeout, term=args.term,
        )
    except (TmuxError, re.error, ValueError) as error:
        print(f"tui_start.py: {error}", file=sys.stderr)
        return 2
    if args.screen_file:
        args.screen_file.write_text(timing.screen, encoding="utf-8")
    data = timing.to_json()
    data.pop("screen")
    print(json.dumps(data))
    return 0 if timing.ready_s is not None else 1


if __name__ == "__main__":
    sys.exit(main())
