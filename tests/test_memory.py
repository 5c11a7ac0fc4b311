"""gc_paused: nested and overlapping pauses, and a forked child's own state."""

from __future__ import annotations

import gc
import os
import threading

import pytest

from feedtui.memory import gc_paused


@pytest.fixture(autouse=True)
def collector_running():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_nested_pauses_resume_the_collector_only_at_the_end():
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_pauses_in_two_threads():
    """A pause that ends in another thread while the first one still runs
    leaves the collector off; it comes back when the last pause ends."""
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with gc_paused():
            inside.set()
            release.wait(5)

    with gc_paused():
        thread = threading.Thread(target=other)
        thread.start()
        assert inside.wait(5)
    assert not gc.isenabled()  # the thread's pause still runs
    release.set()
    thread.join(5)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_during_a_pause_collects_and_can_pause():
    with gc_paused():
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report, then leave at once
            try:
                enabled = gc.isenabled()
                with gc_paused():
                    paused = not gc.isenabled()
                report = f"{int(enabled)}{int(paused)}{int(gc.isenabled())}"
                os.write(write, report.encode())
            finally:
                os._exit(0)
        os.close(write)
        report = os.read(read, 10).decode()
        os.close(read)
        os.waitpid(pid, 0)
    assert report == "111"
