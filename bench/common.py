"""What every benchmark shares: timing a process, summarising runs, the machine, the table.

Process figures come from `os.wait4`, in bench/child_usage.py, a small
process that starts the measured program (the program's peak RSS would
start at this runner's peak otherwise: see there): wall time is
`time.perf_counter()` from just before the program starts to the moment it
is reaped; CPU is its `ru_utime + ru_stime` and memory its `ru_maxrss` (KiB
on Linux). The kernel folds into these the usage of the program's own
descendants that it waited for, so `env VAR=x program` or a shell wrapper
reports the program's figures.
rusage reports CPU in microseconds, where `/usr/bin/time -v` prints 10 ms steps.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
CHILD_USAGE = REPO_ROOT / "bench" / "child_usage.py"
PACKAGES = ("feedtui", "textual", "httpx", "feedparser", "tinydb", "orjson")


class MeasureError(RuntimeError):
    """A measured command failed or timed out; the message says which and why."""


@dataclass(frozen=True, slots=True)
class ProcessSample:
    wall_s: float
    user_s: float
    sys_s: float
    max_rss_kb: int
    returncode: int
    stdout: str
    stderr: str

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.sys_s


LOOPBACK = "127.0.0.1,localhost,::1"


def bare_env(home: Path) -> dict[str, str]:
    """The environment a measured program runs in: a fixed PATH, a home and
    XDG folders under `home`, a UTF-8 locale, and no proxy for loopback."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "LANG": "C.UTF-8",
        "NO_PROXY": LOOPBACK,
        "no_proxy": LOOPBACK,
    }


def run_measured(
    cmd: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
    timeout: float = 600.0,
    check: bool = True,
) -> ProcessSample:
    """Run cmd once (stdin from /dev/null) and measure it with wait4, as the
    child of bench/child_usage.py."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r", suffix=".usage") as usage_file:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-S", "-E", str(CHILD_USAGE), usage_file.name, *cmd],
            stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=cwd, start_new_session=True,
        )
        timed_out = threading.Event()

        def kill_group() -> None:
            timed_out.set()
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill_group)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        figures = usage_file.read().split()
        if len(figures) == 4:  # the program's own, not the wrapper's
            wall, user, system, max_rss = float(figures[0]), float(figures[1]), float(figures[2]), int(figures[3])
        else:  # it never started, or was killed with the wrapper
            user, system, max_rss = usage.ru_utime, usage.ru_stime, usage.ru_maxrss
        out.seek(0)
        err.seek(0)
        sample = ProcessSample(
            wall_s=wall,
            user_s=user,
            sys_s=system,
            max_rss_kb=max_rss,
            returncode=process.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )
    if timed_out.is_set():
        raise MeasureError(f"still running after {timeout:g} s; killed\ncommand: {_show(cmd)}")
    if check and sample.returncode != 0:
        output = (sample.stderr.strip() or sample.stdout.strip())
        last = output.splitlines()[-1] if output else "no output"
        raise MeasureError(f"exit status {sample.returncode}: {last}\ncommand: {_show(cmd)}\n{output[-1500:]}")
    return sample


def _show(cmd: Sequence[str]) -> str:
    text = " ".join(cmd)
    return text if len(text) < 160 else text[:157] + "..."


@dataclass(frozen=True, slots=True)
class Stat:
    """Several runs of one figure."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)

    def percentile(self, q: float) -> float:
        """Nearest-rank percentile, q in 0..100."""
        ordered = sorted(self.values)
        rank = max(1, -(-len(ordered) * q // 100))
        return ordered[int(rank) - 1]


def stat(values: Sequence[float]) -> Stat:
    if not values:
        raise ValueError("no values to summarise")
    return Stat(tuple(float(v) for v in values))


def settle_disk() -> None:
    """Write the page cache's dirty pages out before something is timed.

    The suite copies caches of up to 300 MB before its runs, and the kernel
    writes such pages back lazily, while whatever comes next is timed: a run
    whose store syncs its files would wait for another run's copy."""
    os.sync()


def repeat(runs: int, once: Callable[[int], dict[str, float]]) -> dict[str, Stat]:
    """Call once(run_index) `runs` times; each call returns named figures."""
    collected: dict[str, list[float]] = {}
    for index in range(runs):
        for name, value in once(index).items():
            collected.setdefault(name, []).append(value)
    return {name: stat(values) for name, values in collected.items()}


# --- the machine ---------------------------------------------------------

def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _first_line(cmd: Sequence[str]) -> str | None:
    if not shutil.which(cmd[0]):
        return None
    try:
        done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (done.stdout or done.stderr).strip()
    return text.splitlines()[0] if text else None


def newsboat_version() -> str | None:
    line = _first_line(["newsboat", "--version"])
    match = re.search(r"newsboat\s+(\S+)", line or "")
    return match.group(1) if match else None


def git_revision() -> str:
    head = _first_line(["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"]) or "unknown"
    dirty = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True,
    ).stdout.strip()
    return head + (" (uncommitted changes)" if dirty else "")


def machine_facts() -> dict[str, str]:
    facts = {
        "cores": f"{os.cpu_count()} ({len(os.sched_getaffinity(0))} usable)",
        "cpu": _cpu_model(),
        "memory": _memory_gib(),
        "os": f"{platform.system()} {platform.release()} {platform.machine()}",
        "python": platform.python_version(),
        "checkout": git_revision(),
    }
    for name in PACKAGES:
        try:
            facts[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            facts[name] = "not installed"
    facts["newsboat"] = newsboat_version() or "not installed"
    facts["tmux"] = (_first_line(["tmux", "-V"]) or "not installed").removeprefix("tmux ")
    return facts


# --- the table -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Row:
    figure: str
    unit: str  # "s", "ms", "MB", "KB", "count"
    feedtui: Stat | str | None = None  # a string explains why there is no figure
    newsboat: Stat | str | None = None
    target: str = ""
    note: str = ""
    met: bool | None = None  # feedtui's figure against the target; None where nothing was judged


def format_value(value: float, unit: str) -> str:
    if unit == "count":
        return f"{value:,.0f}"
    if unit in ("MB", "KB"):
        return f"{value:,.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    if value == 0:
        return f"0 {unit}"
    magnitude = abs(value)
    digits = 3 if magnitude < 1 else (2 if magnitude < 10 else (1 if magnitude < 100 else 0))
    return f"{value:.{digits}f} {unit}"


def format_stat(cell: Stat | str | None, unit: str) -> str:
    if cell is None:
        return "–"
    if isinstance(cell, str):
        return cell
    if len(cell.values) == 1:
        return format_value(cell.median, unit)
    low, high = format_value(cell.low, unit).split(" ")[0], format_value(cell.high, unit).split(" ")[0]
    return f"{format_value(cell.median, unit)} [{low}–{high}]"


def ratio(feedtui: Stat | str | None, newsboat: Stat | str | None) -> str:
    if not isinstance(feedtui, Stat) or not isinstance(newsboat, Stat) or newsboat.median == 0:
        return ""
    return f"{feedtui.median / newsboat.median:.2f}×"


def markdown_table(rows: Sequence[Row]) -> str:
    header = "| figure | feedtui | newsboat | feedtui ÷ newsboat | target | met | notes |"
    lines = [header, "|---|---|---|---|---|---|---|"]
    for row in rows:
        cells = [
            row.figure,
            format_stat(row.feedtui, row.unit),
            format_stat(row.newsboat, row.unit),
            ratio(row.feedtui, row.newsboat),
            row.target,
            "" if row.met is None else ("yes" if row.met else "**no**"),
            row.note,
        ]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    return "\n".join(lines)


def facts_table(facts: dict[str, str]) -> str:
    lines = ["| machine | |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in facts.items()]
    return "\n".join(lines)


def log(message: str) -> None:
    """Progress for the person running the suite; stdout keeps only the table."""
    print(message, file=sys.stderr, flush=True)
