"""A full disk and a read-only data directory, for real: a small tmpfs mounted
in a private mount namespace (tests run as root, and root ignores permission
bits but not ENOSPC or a read-only mount). tests/disk_scenario.py (the engine
and the CLI) or tests/reader_disk_scenario.py (the reader) runs there and
reports what it saw."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.feeds import FeedSetSpec, render_feed
from bench.server import FeedServer

REPO = Path(__file__).resolve().parents[1]


def namespaces_work(tmp_path: Path) -> str:
    """"" when this machine lets us mount a tmpfs in a private mount namespace, else why not."""
    if not shutil.which("unshare") or not shutil.which("mount"):
        return "needs unshare(1) and mount(8)"
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {probe}"],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        return f"cannot mount a tmpfs in a private mount namespace here: {done.stderr.strip()}"
    return ""


@pytest.fixture
def feeds(tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    now = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    spec = FeedSetSpec(2, 25, 9, now, weeks=3)
    for index in range(2):
        (served / f"feed-{index}.xml").write_bytes(render_feed(spec, index))
    with FeedServer(served) as server:
        yield server


def run_scenario(tmp_path: Path, feeds: FeedServer, mode: str, script: str = "disk_scenario.py") -> dict:
    """Run tests/SCRIPT on a 2 MB tmpfs of its own; what it printed last, as JSON."""
    why_not = namespaces_work(tmp_path)
    if why_not:
        pytest.skip(why_not)
    mount = tmp_path / "mount"
    mount.mkdir()
    script = (
        f"mount -t tmpfs -o size=2m tmpfs {mount} && exec {sys.executable} {REPO / 'tests' / script} "
        f"{mode} {mount} {feeds.url('feed-0.xml')} {feeds.url('feed-1.xml')}"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}
    env["PYTHONPATH"] = f"{REPO / 'src'}{os.pathsep}{REPO}"
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def assert_the_story(seen: dict, words: str) -> None:
    assert seen["before_ok"] and seen["durable_before"]
    # The app says so, once, and keeps the changes in memory.
    assert seen["last_error"].startswith("could not save ")
    assert words in seen["last_error"] and "kept in memory" in seen["last_error"]
    assert seen["on_error"] == [seen["last_error"]]
    assert not seen["durable_during"]
    assert len(seen["refresh_errors"]) == 1
    assert seen["refresh_errors"][0].startswith("fetched, but could not be saved: ") and words in seen["refresh_errors"][0]
    # Nothing half-written replaced a good file, and nothing is left lying around.
    assert seen["unchanged"] and seen["leftovers"] == []
    # Reads keep working.
    assert seen["read_in_memory"]
    assert seen["paper_title"]
    assert seen["library_after_reload"] == 25
    assert seen["second_reader_papers"] == 25 and seen["second_reader_problems"] == []
    # The CLI's star could not be saved: the command fails, and does not say it starred.
    assert words in seen["cli_stderr"] and seen["cli_exit"] == 1
    assert "star: " not in seen["cli_stderr"], seen["cli_stderr"]
    assert_topic_commands_failed(seen, words)
    # Once the fault is gone, the queued changes are saved and refreshes land.
    assert seen["durable_after"]
    assert seen["refresh_after_ok"] and seen["new_after"] == 25
    assert seen["reopened_problems"] == []
    assert seen["reopened_read"]
    assert seen["reopened_follows"] == ["Topic A", "Topic B"]
    assert seen["reopened_user_topics"] == {"Topic A": None, "Topic B": None, "Topic C": "abs:c"}
    assert seen["reopened_papers"] == 50 and seen["reopened_topic_b"] == 25


def assert_topic_commands_failed(seen: dict, words: str) -> None:
    """topic add/edit/rm and import opml/json changed nothing, and said so once."""
    for command, done in seen["topic_commands"].items():
        said = done["stderr"].splitlines()
        assert done["exit"] == 1, (command, said)
        not_saved = [line for line in said if "could not save" in line]
        assert len(not_saved) == 1 and "state.json: " + words in not_saved[0], (command, said)
        # Nothing else: no traceback, and nothing announced as added, changed or imported.
        assert all(line.startswith("feedtui: ") for line in said), f"{command}:\n{done['stderr']}"
    assert seen["unchanged_after_cli"]


@pytest.mark.slow
def test_a_full_disk(tmp_path, feeds):
    assert_the_story(run_scenario(tmp_path, feeds, "full"), "the disk is full")


@pytest.mark.slow
def test_a_read_only_data_directory(tmp_path, feeds):
    assert_the_story(run_scenario(tmp_path, feeds, "readonly"), "the file system is read-only")


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "words"), [("full", "the disk is full"), ("readonly", "the file system is read-only")])
def test_the_reader_says_why_a_refresh_could_not_be_stored(tmp_path, feeds, mode, words):
    """Both feeds were fetched and neither could be stored: the reader showed
    only "refresh failed · 2 sources failed", never why (its notifications came
    from fetch failures alone). Now the first is named, with the file and the
    reason, and the other counted, as sources failing the same way to fetch are."""
    seen = run_scenario(tmp_path, feeds, mode, "reader_disk_scenario.py")
    errors = [n["message"] for n in seen["notifications"] if n["severity"] == "error"]
    assert len(errors) == 2, seen
    labels = {f"Topic A ({feeds.url('feed-0.xml')})", f"Topic B ({feeds.url('feed-1.xml')})"}
    [first] = [label for label in labels if errors[0].startswith(f"{label}: ")]
    error = errors[0].removeprefix(f"{first}: ")
    assert error.startswith("fetched, but could not be saved: could not save "), errors
    assert "/data/cache/" in error and error.endswith(words), errors
    [other] = labels - {first}
    assert errors[1] == f"“{other}” failed the same way: {error}", errors
    assert "2 topics not refreshed" in seen["status"], seen["status"]
