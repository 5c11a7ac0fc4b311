"""gc_paused: nested and overlapping pauses, and a forked child's own state;
the freed memory a store or a prune leaves, given back to the system; and
threads kept to one C heap."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import feedtui.core.refresh as refresh_module
import feedtui.core.upkeep as upkeep_module
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.memory import IdleCollector, _malloc_trim, gc_paused, give_back_freed_memory
from feedtui.model import TopicDefinition
from tests.core.test_refresh_match_rows import rss as feed_rss, serve

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(autouse=True)
def collector_running():
    was = gc.isenabled()
    gc.enable()
    yield
    # As it was, whatever the test did (one of them turns the collector off).
    if was:
        gc.enable()
    else:
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
    gc.unfreeze()
    with gc_paused():
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report, then leave at once
            try:
                enabled = gc.isenabled()
                frozen = gc.get_freeze_count() > 0  # the parent's objects, before collecting again
                with gc_paused():
                    paused = not gc.isenabled()
                report = f"{int(enabled)}{int(frozen)}{int(paused)}{int(gc.isenabled())}"
                os.write(write, report.encode())
            finally:
                os._exit(0)
        os.close(write)
        report = os.read(read, 10).decode()
        os.close(read)
        os.waitpid(pid, 0)
    assert report == "1111"


@contextmanager
def running(collector: IdleCollector) -> Iterator[IdleCollector]:
    """The collector started, and stopped again whatever the test does."""
    collector.start()
    try:
        yield collector
    finally:
        collector.stop()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def young_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(1)


def test_idle_collector_turns_off_the_automatic_full_collections_and_spaces_out_the_young_ones():
    before = gc.get_threshold()
    with running(IdleCollector(young_threshold=10_000)):
        young, middle, oldest = gc.get_threshold()
        assert young == max(before[0], 10_000)
        assert middle == before[1] and oldest == IdleCollector.OFF
    assert gc.get_threshold() == before


async def test_the_young_generations_are_collected_once_the_keys_pause():
    with running(IdleCollector(young_after_s=0.3)) as collector:
        garbage = [[n] for n in range(500)]  # something young to collect
        del garbage
        collector.input_seen()
        await asyncio.sleep(0.2)
        collector.input_seen()  # another key: the countdown starts again
        await asyncio.sleep(0.15)  # 0.35 s after the first key, 0.15 s after the second
        assert collector.young_collections == 0
        await asyncio.sleep(0.4)
        assert collector.young_collections == 1
        assert gc.get_count()[0] < 500


async def test_the_middle_generation_is_collected_between_keys_when_it_is_due():
    with running(IdleCollector(young_after_s=0.01)) as collector:
        gc.collect(1)
        due = gc.get_threshold()[1]
        for _ in range(due - 1):
            gc.collect(0)  # one short of Python collecting the middle generation itself
        oldest_before = gc.get_count()[2]
        collector.input_seen()
        await asyncio.sleep(0.05)
        assert collector.young_collections == 1
        young, middle, oldest = gc.get_count()
        assert middle == 0 and oldest == oldest_before + 1


def test_without_an_event_loop_nothing_is_scheduled():
    with running(IdleCollector()) as collector:
        collector.input_seen()
        assert collector._young is None


def test_idle_collector_waits_for_the_reader_to_pause():
    clock = FakeClock()
    with running(IdleCollector(idle_s=2.0, force_after=10_000, clock=clock)) as collector:
        gc.collect()
        assert not collector.tick()  # nothing pending since that full collection
        young_collections(3)
        collector.input_seen()
        clock.now += 1.0
        assert not collector.tick()  # a key a second ago
        assert gc.get_count()[2] >= 3
        clock.now += 1.5
        assert collector.tick()
        assert gc.get_count()[2] == 0 and collector.full_collections == 1


def test_idle_collector_collects_anyway_after_long_activity():
    clock = FakeClock()
    with running(IdleCollector(idle_s=2.0, force_after=5, clock=clock)) as collector:
        gc.collect()
        young_collections(6)
        collector.input_seen()
        assert collector.tick()


def test_no_young_collection_inside_a_pause():
    with running(IdleCollector()) as collector:
        garbage = [[n] for n in range(500)]
        del garbage
        with gc_paused():
            collector.collect_young()
            assert collector.young_collections == 0
        collector.collect_young()
        assert collector.young_collections == 1


def test_no_full_collection_inside_a_pause():
    """An Ask's index, built in a thread with the collector paused, was walked
    by the idle full collection all the same: a 160 ms stall of the keys."""
    clock = FakeClock()
    with running(IdleCollector(idle_s=2.0, force_after=5, clock=clock)) as collector:
        gc.collect()
        young_collections(6)
        clock.now += 3.0
        with gc_paused():
            assert not collector.tick()
            assert collector.full_collections == 0
        assert collector.tick()


# --- giving freed memory back ---------------------------------------------

needs_malloc_trim = pytest.mark.skipif(_malloc_trim() is None, reason="the C library has no malloc_trim")


# Run in a fresh interpreter: the pytest process's heap, fragmented by every
# test before this one, holds freed pages of its own that a trim may or may
# not give back, and that made the measurement depend on what ran first.
MEASURE_FREED_MEMORY = r"""
import json
from pathlib import Path

from feedtui.memory import give_back_freed_memory


def resident_mb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


give_back_freed_memory()
before = resident_mb()
documents, survivors = [], []
for n in range(200_000):
    documents.append({"abstract": f"paper {n} " + "x" * 1_000})
    if n % 50 == 0:
        survivors.append(f"row {n} " + "y" * 1_000)
grown = resident_mb() - before
del documents
kept = resident_mb() - before
give_back_freed_memory()
left = resident_mb() - before
print(json.dumps({"grown": grown, "kept": kept, "left": left, "survivors": len(survivors)}))
"""


@needs_malloc_trim
def test_freed_memory_goes_back_to_the_system():
    """What a store leaves behind: documents whose abstracts (over 512 bytes,
    so malloc's rather than Python's small-object arenas) were read among
    objects that outlive them, then dropped. malloc keeps the pages between
    the survivors for reuse until it is told to trim."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    done = subprocess.run([sys.executable, "-c", MEASURE_FREED_MEMORY], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout)
    grown, kept, left = measured["grown"], measured["kept"], measured["left"]
    assert grown > 150, measured
    assert kept > grown / 2, measured  # freed, but still the process's
    assert left < grown / 10, measured


async def test_a_refresh_and_a_prune_give_back_what_they_read(tmp_path, httpserver, monkeypatch):
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    engine.add_topic("Alpha", TopicDefinition(feeds=(serve(httpserver, "/alpha.xml", feed_rss("alpha", 40)),)))
    engine.follow("Alpha")
    papers_files = engine.cache.papers_dir
    trimmed_with: list[int] = []  # the week files on disk at each trim
    for module in (refresh_module, upkeep_module):  # the refresh's store, and the prune
        monkeypatch.setattr(module, "give_back_freed_memory", lambda: trimmed_with.append(len(list(papers_files.glob("*.json")))))

    report = await engine.refresh()
    assert report.new_papers == 40
    assert len(trimmed_with) == 1 and trimmed_with[0] >= 5  # after the store wrote its weeks

    assert engine.prune(limit=10) == 30
    assert len(trimmed_with) == 2
    engine.close()


HEAPS_OF_THREADS = """
import ctypes, sys, tempfile, threading
from feedtui.memory import one_heap
if sys.argv[1] == "one":
    one_heap()
def allocate():
    held = [bytes(200_000) for _ in range(20)] + [str(n) * 50 for n in range(20_000)]
    del held
threads = [threading.Thread(target=allocate) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
libc = ctypes.CDLL(None)
libc.fdopen.restype = ctypes.c_void_p
with tempfile.TemporaryFile() as out:
    stream = libc.fdopen(libc.dup(out.fileno()), b"w")
    libc.malloc_info(0, ctypes.c_void_p(stream))
    libc.fclose(ctypes.c_void_p(stream))
    out.seek(0)
    print(out.read().count(b"<heap nr="))
"""


@pytest.mark.skipif(_malloc_trim() is None, reason="glibc only")
def test_after_one_heap_threads_allocate_from_the_one_heap():
    def heaps(mode: str) -> int:
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        env.pop("MALLOC_ARENA_MAX", None)
        done = subprocess.run([sys.executable, "-c", HEAPS_OF_THREADS, mode], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    assert heaps("one") == 1
    assert heaps("many") > 1, "without it, threads get heaps of their own"
