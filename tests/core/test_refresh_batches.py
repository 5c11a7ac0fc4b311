"""A refresh stores its papers in bounded batches (`[fetch] store_batch`):
killed with SIGKILL between or inside any of them, the next refresh leaves
every paper stored exactly once, with its topic's tag; uninterrupted, the
counts are exact. Real `feedtui` processes against a loopback server."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from bench.feeds import feed_file_name
from bench.server import FeedServer
from bench.stress_kill import check_data_dir, child_env, reap_group
from tests.held_feeds import generated_feeds

pytestmark = pytest.mark.slow

FEEDS = 6
ENTRIES = 40
# 240 papers in batches of 15: sixteen stores, most over several weeks.
BATCH = 15


class Batched:
    """A data directory with one followed topic per feed, refreshed by the CLI."""

    def __init__(self, root: Path, server: FeedServer) -> None:
        self.root = root
        self.data_dir = root / "data"
        self.config = root / "config.toml"
        self.config.write_text(f"[general]\nauto_refresh = false\n[fetch]\nstore_batch = {BATCH}\nconcurrency = 2\n")
        self.server = server
        for index in range(FEEDS):
            self.cli("topic", "add", self.topic(index), "--feed", server.url(feed_file_name(index)))
            self.cli("follow", self.topic(index))

    @staticmethod
    def topic(index: int) -> str:
        return f"Batch feed {index}"

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "feedtui", *args, "--data-dir", str(self.data_dir), "--config", str(self.config)]

    def cli(self, *args: str) -> str:
        """Run feedtui; its stdout (what it says of a refresh is on stderr: `said`)."""
        done = subprocess.run(self.argv(*args), capture_output=True, text=True, env=child_env(), timeout=120)
        assert done.returncode == 0, done.stderr
        self.said = done.stderr
        return done.stdout

    def generation(self) -> int:
        try:
            return orjson.loads((self.data_dir / "cache" / "meta.json").read_bytes())["meta"]["cache"]["generation"]
        except (OSError, ValueError, KeyError):
            return 0

    def refresh_killed_after(self, stores: int, delay: float = 0.0) -> bool:
        """Start a refresh and SIGKILL it `delay` seconds after `stores`
        stores have landed (the next one is then under way); False if it
        ended first."""
        start = self.generation()
        child = subprocess.Popen(
            self.argv("refresh"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env(),
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        try:
            while child.poll() is None and time.monotonic() < deadline:
                if self.generation() - start >= stores:
                    time.sleep(delay)
                    child.send_signal(signal.SIGKILL)
                    child.wait()
                    return True
                time.sleep(0.002)
            return False
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            assert reap_group(child.pid) == []

    def stored_once(self) -> dict[str, int]:
        """Paper id -> how many weeks hold it (papers files and card index alike)."""
        held: dict[str, int] = {}
        for folder, table in (("papers", "papers"), ("index", "cards")):
            for path in (self.data_dir / "cache" / folder).glob("*.json"):
                for pid in orjson.loads(path.read_bytes())[table]:
                    held[f"{folder}:{pid}"] = held.get(f"{folder}:{pid}", 0) + 1
        return held

    def topic_counts(self) -> dict[str, int]:
        return {t["name"]: t["papers"] for t in json.loads(self.cli("topics", "--json")) if t["name"].startswith("Batch")}


@pytest.fixture
def batched(tmp_path):
    served = generated_feeds(tmp_path / "served", FEEDS, ENTRIES, seed=77, weeks=8)
    with FeedServer(served, latency_ms=20) as server:
        # A killed client resets its connections; that is the point, not news.
        server._httpd.handle_error = lambda request, address: None  # type: ignore[union-attr]
        yield Batched(tmp_path, server)


def assert_every_paper_once_with_its_tag(batched: Batched) -> None:
    held = batched.stored_once()
    assert len(held) == 2 * FEEDS * ENTRIES
    assert set(held.values()) == {1}
    _, failures = check_data_dir(batched.data_dir)
    assert failures == []
    assert batched.topic_counts() == {Batched.topic(i): ENTRIES for i in range(FEEDS)}


def test_a_batched_refresh_stores_exact_counts(batched):
    batched.cli("refresh")
    assert f"{FEEDS * ENTRIES} new" in batched.said
    # Stored in parts of at most two batches (a spooled week is split only
    # past that), each its own generation of the cache.
    assert batched.generation() >= FEEDS * ENTRIES // (2 * BATCH)
    assert_every_paper_once_with_its_tag(batched)
    # Nothing changed: the same counts, no paper twice.
    batched.cli("refresh")
    assert_every_paper_once_with_its_tag(batched)


# Delays spread over a store's length, so that kills land before, inside and
# after the steps of the next one.
@pytest.mark.parametrize(("stores", "delay"), [(1, 0.0), (3, 0.02), (4, 0.004), (5, 0.045), (9, 0.012)])
def test_a_refresh_killed_between_batches_loses_nothing(batched, stores, delay):
    assert batched.refresh_killed_after(stores, delay)
    held = batched.stored_once()
    assert 0 < len(held) < 2 * FEEDS * ENTRIES
    assert set(held.values()) == {1}
    _, failures = check_data_dir(batched.data_dir)
    assert failures == []
    batched.cli("refresh")
    assert_every_paper_once_with_its_tag(batched)


def test_refreshes_killed_again_and_again_lose_nothing(batched):
    kills = 0
    for stores, delay in ((2, 0.002), (3, 0.03), (5, 0.06), (7, 0.0)):
        kills += batched.refresh_killed_after(stores, delay)
    assert kills >= 3
    batched.cli("refresh")
    assert_every_paper_once_with_its_tag(batched)
