"""The installed console script in a real terminal (tmux), in demo mode."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("feedtui")
pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not SCRIPT.exists(), reason="the feedtui console script is not installed next to python"),
]


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True, timeout=20
        )
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "app")

    def wait_for(self, pattern: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if re.search(pattern, screen, re.MULTILINE):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{screen}")


def sidebar_count(screen: str, topic: str) -> int | None:
    """The unread count on a topic's sidebar row (the sidebar ends at its border)."""
    for line in screen.splitlines():
        left = line.split("▎")[0]
        if topic in left:
            found = re.search(r"(\d+)\s*$", left)
            return int(found.group(1)) if found else None
    return None


@pytest.fixture
def tmux(tmp_path):
    session = Tmux(f"feedtui-test-{os.getpid()}")
    yield session
    session("kill-server")


def test_demo_in_a_real_terminal(tmux, tmp_path):
    done = tmp_path / "exited"
    command = f"{SCRIPT} --demo --data-dir {tmp_path / 'data'}; echo $? > {done}"
    env = {"TERM": "xterm-256color", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    exports = " ".join(f"{k}={v}" for k, v in env.items())
    tmux("new-session", "-d", "-s", "app", "-x", "120", "-y", "40", f"env -u COLUMNS -u LINES {exports} sh -c '{command}'")
    tmux("resize-window", "-t", "app", "-x", "120", "-y", "40")
    screen = tmux.wait_for(r"Latest papers \(\d+\)")
    screen = tmux.wait_for(r"Week of")
    assert "Following" in screen and "★ Edge Inference" in screen
    assert re.search(r"papers in the last four weeks, against \d+ the four weeks before", screen)
    assert "Week of" in screen
    # Into the list, mark the first paper read: the sidebar count drops by one.
    before = sidebar_count(screen, "Edge Inference")
    assert before
    tmux("send-keys", "-t", "app", "Tab")
    tmux("send-keys", "-t", "app", "m")
    deadline = time.monotonic() + 10
    while sidebar_count(tmux.screen(), "Edge Inference") != before - 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sidebar_count(tmux.screen(), "Edge Inference") == before - 1
    tmux("send-keys", "-t", "app", "?")
    tmux.wait_for(r"feedtui keys")
    tmux("send-keys", "-t", "app", "Escape")
    deadline = time.monotonic() + 10
    while "feedtui keys" in tmux.screen() and time.monotonic() < deadline:
        time.sleep(0.1)
    # A key right after Escape would read as Alt+key.
    time.sleep(0.3)
    tmux("send-keys", "-t", "app", "q")
    deadline = time.monotonic() + 15
    while not done.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert done.exists() and done.read_text().strip() == "0"
