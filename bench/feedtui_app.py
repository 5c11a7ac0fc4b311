"""feedtui driven the way a user drives it: its CLI, and its TUI in a real terminal.

Everything goes through the documented command shapes —
`feedtui topic add NAME --feed URL...`, `feedtui follow NAME`,
`feedtui refresh`, `feedtui topics --json`, `feedtui topic add NAME --query Q`
and `feedtui --data-dir D` for the TUI — never through the package's
internals, so the figures are what a user gets.

Each sandbox has its own HOME, data directory and config file, and a
scrubbed environment (no proxies, no user config). By default the command is
`<this python> -m feedtui` with PYTHONPATH set to this checkout's `src/`, so
the code measured is the code next to this script.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.common import REPO_ROOT, MeasureError, ProcessSample, Stat, bare_env, repeat, run_measured, settle_disk, stat
from bench.repaint import RepaintProbe
from bench.server import FeedServer
from bench.tui_start import TerminalProgram, time_start

# The TUI's first paint: a topic name in the sidebar and the list title with its count.
LIST_TITLE = r"Latest papers \(\d[\d,]*\)"
# From the first paint to a big topic's list with the keyboard in it: the
# sidebar opens the topic under its cursor as it moves (j leaves the first
# row, Starred), and J moves the focus to the list.
OPEN_KEYS = ("j",)
FOCUS_LIST_KEYS = ("J",)
# The paper cache's folder in the data directory (feedtui.core.engine opens it):
# papers, card index, abstract heads, match rows and tags, as against the
# small state file that holds follows and read marks.
PAPER_CACHE = "cache"
# The TUI never refreshes on its own while it is being timed.
SANDBOX_CONFIG = "[general]\nauto_refresh = false\n"


@dataclass(frozen=True, slots=True)
class TopicPlan:
    name: str
    urls: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Launcher:
    """How to start feedtui: the argv prefix and extra environment."""

    argv: tuple[str, ...]
    extra_env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_checkout(cls, python: str, src: Path = REPO_ROOT / "src") -> Launcher:
        return cls((python, "-m", "feedtui"), (("PYTHONPATH", str(src)),))


class Sandbox:
    """One feedtui installation state: HOME, data dir and config under `root`."""

    def __init__(self, root: Path, launcher: Launcher) -> None:
        self.root = root
        self.launcher = launcher

    @classmethod
    def create(cls, root: Path, launcher: Launcher) -> Sandbox:
        if root.exists():
            shutil.rmtree(root)
        (root / "home").mkdir(parents=True)
        (root / "data").mkdir()
        (root / "config.toml").write_text(SANDBOX_CONFIG, encoding="utf-8")
        return cls(root, launcher)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    def env(self) -> dict[str, str]:
        return {**bare_env(self.root / "home"), **dict(self.launcher.extra_env)}

    def argv(self, *args: str) -> list[str]:
        return [*self.launcher.argv, "--data-dir", str(self.data_dir), "--config", str(self.root / "config.toml"), *args]

    def run(self, *args: str, timeout: float = 900.0) -> ProcessSample:
        return run_measured(self.argv(*args), env=self.env(), timeout=timeout)

    def add_topics(self, plans: Sequence[TopicPlan]) -> None:
        for plan in plans:
            feeds = [part for url in plan.urls for part in ("--feed", url)]
            self.run("topic", "add", plan.name, *feeds)
            self.run("follow", plan.name)

    def topics(self) -> list[dict]:
        sample = self.run("topics", "--json")
        try:
            return json.loads(sample.stdout)
        except json.JSONDecodeError as error:
            raise MeasureError(f"feedtui topics --json did not print JSON ({error}): {sample.stdout[:200]!r}") from None

    def papers_in(self, prefix: str) -> dict[str, tuple[int, int]]:
        """name -> (papers, unread) for topics whose name starts with prefix."""
        return {t["name"]: (t["papers"], t["unread"]) for t in self.topics() if t["name"].startswith(prefix)}

    def copy(self, root: Path) -> Sandbox:
        if root.exists():
            shutil.rmtree(root)
        shutil.copytree(self.root, root, symlinks=True)
        return Sandbox(root, self.launcher)

    def data_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.data_dir.rglob("*") if p.is_file())


def refresh_once(sandbox: Sandbox, server: FeedServer) -> dict[str, float]:
    server.reset()
    sample = sandbox.run("refresh")
    answered = server.stats()["by_status"]
    return {
        "wall_s": sample.wall_s,
        "cpu_s": sample.cpu_s,
        "rss_mb": sample.max_rss_kb / 1024,
        "status_200": answered.get("200", 0),
        "status_304": answered.get("304", 0),
        "requests": sum(answered.values()),
    }


def refresh_figures(template: Sandbox, server: FeedServer, work: Path, *, runs: int) -> dict[str, Stat]:
    """Cold refresh from a fresh copy of `template` (topics followed, no papers), then a second one.

    Keys: `cold.<figure>` and `warm.<figure>`.
    """

    def once(index: int) -> dict[str, float]:
        sandbox = template.copy(work / f"refresh-{index}")
        settle_disk()
        figures = {f"cold.{k}": v for k, v in refresh_once(sandbox, server).items()}
        figures.update({f"warm.{k}": v for k, v in refresh_once(sandbox, server).items()})
        shutil.rmtree(sandbox.root)
        return figures

    return repeat(runs, once)


def build_cache(root: Path, launcher: Launcher, plans: Sequence[TopicPlan]) -> Sandbox:
    """A sandbox whose topics are added, followed and refreshed once."""
    sandbox = Sandbox.create(root, launcher)
    sandbox.add_topics(plans)
    sandbox.run("refresh", timeout=3600)
    return sandbox


def start_figures(cache: Sandbox, work: Path, first_topic: str, *, runs: int, cols: int = 160, rows: int = 48) -> dict[str, Stat]:
    """TUI launch -> the sidebar shows `first_topic` and the list its title, on a fresh copy of the cache each run."""
    ready = (re.escape(first_topic), LIST_TITLE)

    def once(index: int) -> dict[str, float]:
        sandbox = cache.copy(work / f"start-{index}")
        settle_disk()
        timing = time_start(sandbox.argv(), ready, quit_keys=["q"], cols=cols, rows=rows, env=sandbox.env(), timeout=120)
        shutil.rmtree(sandbox.root)
        if timing.ready_s is None:
            raise not_painted(timing.exited_early, timing.screen)
        return {
            "ready_s": timing.ready_s,
            "rss_mb": (timing.max_rss_kb or 0) / 1024,
            "quit_s": timing.quit_s if timing.quit_s is not None else float("nan"),
        }

    return repeat(runs, once)


def not_painted(exited: bool, screen: str) -> MeasureError:
    """The error for a TUI that never showed its list; its first line names the last thing on screen."""
    lines = [line.strip() for line in screen.splitlines() if line.strip()]
    what = "exited" if exited else "did not paint its list in time"
    return MeasureError(f"feedtui {what}; screen ends with: {lines[-1][:100] if lines else '(blank)'}\n{screen}")


@contextmanager
def big_topic_in_focus(sandbox: Sandbox, prefix: str, cols: int, rows: int, quiet_s: float) -> Iterator[tuple[TerminalProgram, RepaintProbe]]:
    """The TUI, painted, showing one of the topics named `prefix`... with the keyboard in its list."""
    sizes = sorted({papers for papers, _ in sandbox.papers_in(prefix).values()})
    if not sizes:
        raise MeasureError(f"no topic named {prefix}* in the cache")
    with TerminalProgram(sandbox.argv(), cols=cols, rows=rows, env=sandbox.env()) as program:
        first = [re.compile(re.escape(prefix)), re.compile(LIST_TITLE)]
        matched, screen, _, _ = program.wait_for(first, poll_s=0.02, timeout=120)
        if matched is None:
            raise not_painted(program.report() is not None, screen)
        with RepaintProbe(program, quiet_s=quiet_s) as probe:
            for key in OPEN_KEYS:
                probe.press(key)
            shown = re.compile(r"Latest papers \((?:" + "|".join(f"{n:,}" for n in sizes) + r")\)")
            matched, screen, _, _ = program.wait_for([shown], poll_s=0.05, timeout=60)
            if matched is None:
                raise MeasureError(f"the TUI did not open a {prefix}* topic; screen:\n{screen}")
            for key in FOCUS_LIST_KEYS:
                probe.press(key)
            probe.settle()
            yield program, probe


def key_figures(cache: Sandbox, work: Path, prefix: str, *, keys: int, cols: int = 160, rows: int = 48) -> dict[str, Stat]:
    """`keys` presses of j in the list of a big topic, each timed to the end of its repaint."""
    sandbox = cache.copy(work / "keys")
    try:
        with big_topic_in_focus(sandbox, prefix, cols, rows, quiet_s=0.05) as (program, probe):
            timings = probe.time_keys(["j"] * keys)
            program.quit(["q"], 30)
    finally:
        shutil.rmtree(sandbox.root)
    if not timings.latencies_s:
        raise MeasureError(f"no repaint after any of {keys} j presses")
    latencies = stat(timings.latencies_s)
    return {
        "latency_ms": stat([v * 1000 for v in latencies.values]),
        "p95_ms": stat([latencies.percentile(95) * 1000]),
        "unanswered": stat([timings.unanswered]),
    }


class DirWatcher(threading.Thread):
    """Polls a directory tree (names, sizes, mtimes, inodes), stamps every
    change and keeps the paths that changed (made, written, replaced or
    removed), relative to `root`. A watcher that failed raises in `stop`, so
    a figure never stands on a watch that ended early."""

    def __init__(self, root: Path, interval_s: float = 0.01) -> None:
        super().__init__(name="dir-watcher", daemon=True)
        self.root = root
        self.interval_s = interval_s
        self.changes: list[float] = []
        self.changed_paths: set[str] = set()
        self.error: BaseException | None = None
        self._halt = threading.Event()
        self._signature = self._scan()

    def _scan(self) -> dict[str, tuple[int, int, int]]:
        entries = {}
        for path in sorted(self.root.rglob("*")):
            try:
                st = path.lstat()
            except FileNotFoundError:
                continue
            entries[path.relative_to(self.root).as_posix()] = (st.st_size, st.st_mtime_ns, st.st_ino)
        return entries

    def observe(self) -> bool:
        """Look once and keep what changed since the last look; whether anything did."""
        try:
            current = self._scan()
        except OSError:  # a folder went away while it was listed: the next look sees the change
            return False
        if current == self._signature:
            return False
        self.changed_paths |= _changed(self._signature, current)
        self._signature = current
        return True

    def run(self) -> None:
        try:
            while not self._halt.wait(self.interval_s):
                if self.observe():
                    self.changes.append(time.monotonic())
        except Exception as error:  # kept for stop(), which raises it
            self.error = error

    def changed_under(self, folder: str) -> set[str]:
        """The changed paths in `folder` (relative to `root`), the folder itself included."""
        return {path for path in self.changed_paths if path == folder or path.startswith(folder + "/")}

    def quiet_for(self, seconds: float, limit_s: float = 120.0) -> None:
        """Return once no change was seen for `seconds` (or after limit_s)."""
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            last = self.changes[-1] if self.changes else 0.0
            if time.monotonic() - last >= seconds:
                return
            time.sleep(0.05)

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)
        if self.error is not None:
            raise MeasureError(f"the watch of {self.root} failed: {self.error!r}")


def _changed(before: dict[str, tuple[int, int, int]], after: dict[str, tuple[int, int, int]]) -> set[str]:
    """The paths made, removed or altered (size, mtime or inode) between two looks."""
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def _write_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    raise MeasureError(f"/proc/{pid}/io has no write_bytes")


def mark_figures(cache: Sandbox, work: Path, prefix: str, *, marks: int, settle_s: float = 2.0, cols: int = 160, rows: int = 48) -> dict[str, Stat]:
    """Mark `marks` papers read one by one in a big topic: m, then j to the next card.

    Each key is sent once the previous one's repaint has finished (30 ms of
    quiet), like a reader who waits to see each card change.
    wall_s: the keys' key -> repaint times added up (the app's share of the
      elapsed time; our waits for quiet are left out).
    key_p95_ms: the 95th percentile of those key -> repaint times.
    write_mb: the app's /proc/<pid>/io write_bytes from the first key until the
      data directory has been quiet for `settle_s` (bytes that reached the
      filesystem; terminal output is not counted).
    durable_s: the last `m` sent -> the last change seen in the data
      directory (polled every 10 ms from before the first key).
    cache_paths_changed: the files and folders under the data directory's
      paper cache (`cache/`) made, written or removed from the first key until
      the reader has quit; the target is none (marks live in the small state
      file).
    Afterwards `feedtui topics --json` must show exactly `marks` fewer unread
    over the `prefix` topics (they share no papers).
    """
    sandbox = cache.copy(work / "marks")
    settle_disk()
    try:
        unread_before = sum(unread for _, unread in sandbox.papers_in(prefix).values())
        with big_topic_in_focus(sandbox, prefix, cols, rows, quiet_s=0.03) as (program, probe):
            pid = program.pid()
            if pid is None:
                raise MeasureError("could not find feedtui's pid in the tmux pane")
            written_before = _write_bytes(pid)
            watcher = DirWatcher(sandbox.data_dir)
            watcher.start()
            try:
                latencies: list[float] = []
                for _ in range(marks):
                    for key in ("m", "j"):
                        if key == "m":
                            last_mark_sent = time.monotonic()
                        latency = probe.press(key)
                        if latency is None:
                            raise MeasureError(f"no repaint after {key!r} ({len(latencies)} keys in)")
                        latencies.append(latency)
                watcher.quiet_for(settle_s)
            finally:
                watcher.stop()
            written = _write_bytes(pid) - written_before
            program.quit(["q"], 30)
        watcher.observe()  # what the reader wrote as it quit counts too
        unread_after = sum(unread for _, unread in sandbox.papers_in(prefix).values())
    finally:
        shutil.rmtree(sandbox.root)
    if unread_before - unread_after != marks:
        raise MeasureError(f"{marks} marks sent but unread went {unread_before} -> {unread_after}")
    if not watcher.changes:
        raise MeasureError("nothing in the data directory changed while marking")
    return {
        "wall_s": stat([sum(latencies)]),
        "key_p95_ms": stat([stat(latencies).percentile(95) * 1000]),
        "write_mb": stat([written / 1e6]),
        "durable_s": stat([watcher.changes[-1] - last_mark_sent]),
        "cache_paths_changed": stat([len(watcher.changed_under(PAPER_CACHE))]),
    }


def retag_figures(cache: Sandbox, work: Path, *, query: str, runs: int) -> dict[str, Stat]:
    """`feedtui topic add NAME --query Q` on a fresh copy of a big cache: start, load, retag, save."""

    def once(index: int) -> dict[str, float]:
        sandbox = cache.copy(work / f"retag-{index}")
        settle_disk()
        sample = sandbox.run("topic", "add", "Bench retag", "--query", query)
        shutil.rmtree(sandbox.root)
        return {"wall_s": sample.wall_s, "cpu_s": sample.cpu_s, "rss_mb": sample.max_rss_kb / 1024}

    return repeat(runs, once)
