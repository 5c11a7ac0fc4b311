"""newsboat on the same feeds, for the side-by-side columns.

Every run gets a fresh sandbox (its own HOME, urls file, config and cache) and
a scrubbed environment, so the user's newsboat set-up never leaks in. The
config holds only `reload-threads N` and `download-timeout 60`.

newsboat 2.21 saves a feed's ETag / Last-Modified only from its second fetch
(the feed row does not exist yet when the first fetch tries to store them),
so its first warm reload downloads everything again; only the third reload is
all-304. `reload_figures` therefore reports three phases, cold, warm1 and
warm2, and warm2 is the one to compare with another reader's second refresh.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.common import MeasureError, Stat, newsboat_version, repeat, run_measured, settle_disk
from bench.server import FeedServer
from bench.tui_start import time_start

# The feed list is drawn: its title, and a first row with an (unread/total) count.
READY_PATTERNS = (r"Your feeds", r"^\s+1\s.*\(\d+/\d+\)")
PHASES = ("cold", "warm1", "warm2")


def available() -> bool:
    return newsboat_version() is not None


@dataclass(frozen=True, slots=True)
class Sandbox:
    root: Path

    @classmethod
    def create(cls, root: Path, urls: Sequence[str], threads: int) -> Sandbox:
        if root.exists():
            shutil.rmtree(root)
        (root / "home").mkdir(parents=True)
        (root / "urls").write_text("".join(f"{u}\n" for u in urls), encoding="utf-8")
        (root / "config").write_text(f"reload-threads {threads}\ndownload-timeout 60\n", encoding="utf-8")
        return cls(root)

    @property
    def cache(self) -> Path:
        return self.root / "cache.db"

    def env(self) -> dict[str, str]:
        home = self.root / "home"
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "LANG": "C.UTF-8",
            "TERM": "tmux-256color",
            "no_proxy": "127.0.0.1,localhost,::1",
        }

    def command(self, *extra: str) -> list[str]:
        return ["newsboat", "-u", str(self.root / "urls"), "-c", str(self.cache), "-C", str(self.root / "config"), *extra]


def cached_articles(cache: Path) -> int:
    with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
        return db.execute("SELECT COUNT(*) FROM rss_item").fetchone()[0]


def reload_once(sandbox: Sandbox, server: FeedServer) -> dict[str, float]:
    """One `newsboat -x reload`: wall, CPU, peak RSS and what the server answered."""
    server.reset()
    sample = run_measured(sandbox.command("-x", "reload"), env=sandbox.env(), timeout=900)
    answered = server.stats()["by_status"]
    return {
        "wall_s": sample.wall_s,
        "cpu_s": sample.cpu_s,
        "rss_mb": sample.max_rss_kb / 1024,
        "status_200": answered.get("200", 0),
        "status_304": answered.get("304", 0),
        "articles": cached_articles(sandbox.cache),
    }


def reload_figures(urls: Sequence[str], server: FeedServer, work: Path, *, runs: int, threads: int = 10) -> dict[str, Stat]:
    """Three reloads in a row from an empty cache, `runs` times.

    Keys are `<phase>.<figure>`, e.g. `cold.wall_s`, `warm2.status_304`.
    """

    def once(index: int) -> dict[str, float]:
        sandbox = Sandbox.create(work / f"reload-{index}", urls, threads)
        figures: dict[str, float] = {}
        for phase in PHASES:
            for name, value in reload_once(sandbox, server).items():
                figures[f"{phase}.{name}"] = value
        return figures

    return repeat(runs, once)


def build_cache(urls: Sequence[str], server: FeedServer, work: Path, *, threads: int = 10) -> Path:
    """A cache holding every entry of the feeds (one reload); returns its path."""
    sandbox = Sandbox.create(work, urls, threads)
    run_measured(sandbox.command("-x", "reload"), env=sandbox.env(), timeout=1800)
    return sandbox.cache


def start_figures(cache: Path, urls: Sequence[str], work: Path, *, runs: int, cols: int = 160, rows: int = 48) -> dict[str, Stat]:
    """TUI start -> feed list drawn, on a fresh copy of `cache` each run."""

    def once(index: int) -> dict[str, float]:
        sandbox = Sandbox.create(work / f"start-{index}", urls, 10)
        shutil.copyfile(cache, sandbox.cache)
        settle_disk()  # the copied database is on disk before the start is timed
        env = sandbox.env()
        env.pop("TERM")  # tmux sets it in the pane
        timing = time_start(sandbox.command(), READY_PATTERNS, quit_keys=["q"], cols=cols, rows=rows, env=env, timeout=300)
        if timing.ready_s is None:
            raise MeasureError(f"newsboat never drew its feed list; last screen:\n{timing.screen[-800:]}")
        return {
            "ready_s": timing.ready_s,
            "rss_mb": (timing.max_rss_kb or 0) / 1024,
            "quit_s": timing.quit_s if timing.quit_s is not None else float("nan"),
        }

    return repeat(runs, once)
