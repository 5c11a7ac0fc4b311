"""The `feedtui` process entry: no collections while importing, and none of what the import built or of the heap at exit."""

from __future__ import annotations

import gc
import subprocess
import sys

import feedtui.cli as cli
from feedtui import cpu_pool, launch


def test_run_returns_mains_status_and_freezes_the_heap(monkeypatch):
    seen = {}

    def fake_main(*, exits_after: bool = False) -> int:
        seen["exits_after"] = exits_after
        seen["collecting"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()
        return 3

    monkeypatch.setattr(cli, "main", fake_main)
    # run ends with cpu_pool.finish_closing, after which the process gets no
    # more workers: this process goes on to other tests.
    monkeypatch.setattr(cpu_pool, "_exiting", False)
    gc.unfreeze()
    try:
        assert launch.run() == 3
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert seen["collecting"]  # the collector is back on for the command itself
    # What the import built is out of the collector's sight before the command runs.
    assert seen["frozen"] > 0
    assert seen["exits_after"]


def test_the_collector_is_off_while_the_app_is_imported():
    """In a fresh interpreter: importing `feedtui.cli` through `run` sees gc disabled."""
    probe = (
        "import gc, sys, importlib.abc\n"
        "states = []\n"
        "class Watch(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'feedtui.cli':\n"
        "            states.append(gc.isenabled())\n"
        "        return None\n"
        "sys.meta_path.insert(0, Watch())\n"
        "sys.argv = ['feedtui', '--version']\n"
        "from feedtui import launch\n"
        "try:\n"
        "    launch.run()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(states, gc.isenabled())\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[False] True"
