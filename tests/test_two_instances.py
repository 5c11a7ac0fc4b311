"""Several feedtui processes on one data directory at once — two writers making
marks, stars, follows and topics, a `feedtui refresh`, and a `feedtui --demo`
(which keeps to <data-dir>/demo) — lose no one's writes; and a process that
holds the database too long is named by the one that waits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.feeds import FeedSetSpec, render_feed
from bench.server import FeedServer
from feedtui.config import Config
from feedtui.demo.seed import DEMO_FOLLOWS
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition
from feedtui.store.lock import DataDirLock, LockTimeoutError
from feedtui.store.state import StateStore

SRC = Path(__file__).resolve().parents[1] / "src"
ACTIONS = 80

WRITER = """\
import sys, time
from pathlib import Path
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition
data, prefix = Path(sys.argv[1]), sys.argv[2]
engine = Engine(Config(), data)
print("ready", flush=True)
sys.stdin.readline()
for n in range(int(sys.argv[3])):
    paper = f"{prefix}.{n:05d}"
    engine.mark_read([paper])
    if n % 5 == 0:
        engine.star([paper])
    if n % 15 == 0:
        name = f"Topic {prefix} {n}"
        engine.add_topic(name, TopicDefinition(query=f"abs:w{prefix}x{n}"))
        engine.follow(name)
    time.sleep(0.025)
engine.close()
"""


def env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}, "PYTHONPATH": str(SRC)}


def feedtui(data: Path, config: Path, *args: str) -> subprocess.Popen:
    argv = [sys.executable, "-m", "feedtui", *args, "--data-dir", str(data), "--config", str(config)]
    return subprocess.Popen(argv, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def writer(data: Path, prefix: str) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(data), prefix, str(ACTIONS)],
        env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout.readline().strip() == "ready"
    return process


def expected_of(prefix: str) -> tuple[set[str], set[str], set[str]]:
    papers = [f"{prefix}.{n:05d}" for n in range(ACTIONS)]
    return (
        set(papers),
        {p for n, p in enumerate(papers) if n % 5 == 0},
        {f"Topic {prefix} {n}" for n in range(ACTIONS) if n % 15 == 0},
    )


@pytest.fixture
def feed(tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    spec = FeedSetSpec(1, 40, 5, datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0), weeks=4)
    (served / "feed.xml").write_bytes(render_feed(spec, 0))
    with FeedServer(served) as server:
        yield server


@pytest.mark.slow
def test_writers_a_refresh_and_the_demo_at_once_lose_nothing(tmp_path, feed):
    data = tmp_path / "data"
    config = tmp_path / "config.toml"
    config.write_text("[general]\nauto_refresh = false\n")
    setup = Engine(Config(), data, background_writes=False)
    setup.add_topic("Lab feed", TopicDefinition(feeds=(feed.url("feed.xml"),)))
    setup.follow("Lab feed")
    setup.close()

    writers = [writer(data, "2701"), writer(data, "2702")]
    for process in writers:
        process.stdin.write("go\n")
        process.stdin.flush()
    others = [
        feedtui(data, config, "refresh", "Lab feed"),
        feedtui(data, config, "--demo", "topic", "add", "Demo only", "--query", "abs:widget"),
    ]
    for process in [*writers, *others]:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    demo_follow = feedtui(data, config, "--demo", "follow", "Demo only")
    assert demo_follow.wait(timeout=60) == 0

    final = Engine(Config(), data, background_writes=False)
    library = final.load_library()
    assert final.problems.messages == []
    read, starred, topics = set(), set(), set()
    for prefix in ("2701", "2702"):
        r, s, t = expected_of(prefix)
        read |= r
        starred |= s
        topics |= t
    assert final.state.read_ids() == read
    assert final.state.starred_ids() == starred
    assert set(final.state.user_topics()) == topics | {"Lab feed"}
    assert final.state.follows() == topics | {"Lab feed"}
    final.retag()  # topics never tagged before (all of them here) are tagged at load
    assert len(library) == 40 and len(final.topic_positions("Lab feed")) == 40
    final.close()

    # The demo kept to its own directory, and the user's state to theirs.
    demo = Engine(Config(), data / "demo", background_writes=False)
    assert "Demo only" in demo.state.user_topics() and "Demo only" in demo.state.follows()
    assert set(DEMO_FOLLOWS) <= demo.state.follows()
    assert not demo.state.read_ids() & read
    demo.close()
    assert not set(DEMO_FOLLOWS) & final.state.follows()


def test_a_process_holding_the_database_too_long_is_named(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable, "-c",
            "import sys, time\nfrom pathlib import Path\nfrom feedtui.store.lock import DataDirLock\n"
            "lock = DataDirLock(Path(sys.argv[1]))\nlock.acquire()\nprint('held', flush=True)\ntime.sleep(30)\n",
            str(data),
        ],
        env=env(), stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        state = StateStore(data / "state.json", DataDirLock(data, timeout=0.3), background=False)
        state.follow("Edge Inference")
        with pytest.raises(LockTimeoutError) as refused:
            state.flush()
        assert str(refused.value) == (
            f"another feedtui process (pid {holder.pid}) has held the database in {data} for more than 0.3 s; "
            "close it or try again"
        )
        assert state.is_following("Edge Inference")  # kept in memory meanwhile
    finally:
        holder.kill()
        holder.wait()
    state.flush()  # the kernel let go of the dead holder's lock
    assert json.loads((data / "state.json").read_text())["follows"].keys() == {"Edge Inference"}
