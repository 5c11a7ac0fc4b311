"""A disk that fills up, or a data directory remounted read-only, under a live engine.

    python tests/disk_scenario.py full|readonly MOUNT FEED_1_URL FEED_2_URL

Run by tests/test_disk_faults.py as root inside a private mount namespace, with
MOUNT a small tmpfs of its own (so "full" and "read-only" are real: root
ignores permission bits, not a full disk or a read-only mount). Prints one
JSON object of what it observed; the test asserts on it.

The story: an engine on MOUNT/data follows topic A (FEED_1) and refreshes it.
Then the fault — the disk is filled to the last byte, or MOUNT is remounted
read-only — and the reader keeps going: marks papers, follows a topic,
refreshes topic B (FEED_2), opens papers, and the CLI is asked to star a
paper, add, edit and remove topics and import OPML and JSON (each must fail
with one message). Then the fault goes away (the
filler is deleted, or MOUNT is remounted read-write) and the engine is left to
save what it queued on its own. Finally the data directory is opened afresh.
"""

from __future__ import annotations

import asyncio
import errno
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition

NEW_MARKS = [f"2611.{n:05d}" for n in range(90_001, 90_041)]


def fingerprint(data: Path) -> dict[str, str]:
    """Every file of the data directory and a hash of its bytes (the lock files aside)."""
    out = {}
    for path in sorted(data.rglob("*")):
        if path.is_file() and not path.name.startswith(".lock"):
            out[str(path.relative_to(data))] = hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest()
    return out


def fill(mount: Path) -> None:
    """Write a filler file until not one more byte fits."""
    filler = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1):
            chunk = b"\0" * size
            while True:
                try:
                    os.write(filler, chunk)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(filler)


def remount(mount: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(mount)], check=True)


def cli(mount: Path, *args: str) -> dict:
    """Run `feedtui ARGS` on MOUNT/data: its stderr and exit status."""
    done = subprocess.run(
        [sys.executable, "-m", "feedtui", *args, "--data-dir", str(mount / "data")],
        capture_output=True, text=True, env={**os.environ, "FEEDTUI_CONFIG": str(mount / "no-config.toml")},
    )
    return {"stderr": done.stderr, "exit": done.returncode}


def write_imports(mount: Path) -> None:
    """An OPML file and a state export for the CLI to import during the fault."""
    (mount / "feeds.opml").write_text(
        '<?xml version="1.0"?><opml version="2.0"><head/><body>'
        '<outline text="Lab notes" type="rss" xmlUrl="http://127.0.0.1:9/lab-notes.xml"/></body></opml>'
    )
    state = {"feedtui": "0.1.0", "format": 1, "topics": {"Topic E": {"query": "abs:e", "description": ""}}}
    (mount / "state.json").write_text(json.dumps(state))


def topic_commands(mount: Path) -> dict[str, dict]:
    return {
        "topic add": cli(mount, "topic", "add", "Topic D", "--query", "abs:d"),
        "topic edit": cli(mount, "topic", "edit", "Topic C", "--query", "abs:z"),
        "topic rm": cli(mount, "topic", "rm", "Topic C"),
        "import opml": cli(mount, "import", "opml", str(mount / "feeds.opml")),
        "import json": cli(mount, "import", "json", str(mount / "state.json")),
    }


def open_engine(data: Path) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    return Engine(config, data)


def main(mode: str, mount: Path, feed_1: str, feed_2: str) -> dict:
    data = mount / "data"
    seen: dict = {}
    engine = open_engine(data)
    errors: list[str] = []
    engine.state.on_error = errors.append
    engine.add_topic("Topic A", TopicDefinition(feeds=(feed_1,)))
    engine.add_topic("Topic B", TopicDefinition(feeds=(feed_2,)))
    engine.add_topic("Topic C", TopicDefinition(query="abs:c"))
    engine.follow("Topic A")
    engine.load_library()
    engine.retag(["Topic A", "Topic B"])
    before = asyncio.run(engine.refresh(["Topic A"]))
    seen["before_ok"] = before.ok
    first_paper = engine.library.ids[0]
    seen["durable_before"] = engine.state.wait_durable(timeout=5)
    write_imports(mount)
    good = fingerprint(data)

    # The fault.
    if mode == "full":
        fill(mount)
    else:
        remount(mount, "ro")
    engine.mark_read(NEW_MARKS)
    engine.follow("Topic B")
    deadline = time.monotonic() + 5
    while not engine.state.last_error and time.monotonic() < deadline:
        time.sleep(0.02)
    seen["last_error"] = engine.state.last_error
    seen["on_error"] = errors
    seen["durable_during"] = engine.state.durable_sequence >= engine.state.sequence
    during = asyncio.run(engine.refresh(["Topic B"]))
    seen["refresh_errors"] = [s.error for s in during.sources if not s.ok]
    seen["unchanged"] = fingerprint(data) == good
    seen["leftovers"] = [str(p) for p in data.rglob(".*.tmp")]
    # Reads keep working: in memory, from the cache, and a fresh load of it.
    seen["read_in_memory"] = all(engine.state.is_read(pid) for pid in NEW_MARKS)
    seen["paper_title"] = engine.paper(first_paper).title
    seen["library_after_reload"] = len(engine.load_library())
    other = open_engine(data)
    seen["second_reader_papers"] = len(other.load_library())
    seen["second_reader_problems"] = other.problems.messages
    star = cli(mount, "star", first_paper)
    seen["cli_stderr"] = star["stderr"]
    seen["cli_exit"] = star["exit"]
    seen["topic_commands"] = topic_commands(mount)
    seen["unchanged_after_cli"] = fingerprint(data) == good

    # The fault goes away; the engine saves what it queued on its own.
    if mode == "full":
        (mount / "filler").unlink()
    else:
        remount(mount, "rw")
    seen["durable_after"] = engine.state.wait_durable(timeout=10)
    after = asyncio.run(engine.refresh(["Topic B"]))
    seen["refresh_after_ok"] = after.ok
    seen["new_after"] = after.new_papers
    engine.close()

    reopened = open_engine(data)
    library = reopened.load_library()
    seen["reopened_problems"] = reopened.problems.messages
    seen["reopened_read"] = all(reopened.state.is_read(pid) for pid in NEW_MARKS)
    seen["reopened_follows"] = sorted(reopened.state.follows())
    seen["reopened_user_topics"] = {name: doc.get("query") for name, doc in reopened.state.user_topics().items()}
    seen["reopened_papers"] = len(library)
    seen["reopened_topic_b"] = len(reopened.topic_positions("Topic B"))
    reopened.close()
    return seen


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4])))
