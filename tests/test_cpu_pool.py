"""The CPU pool's workers do not outlive the app: a `kill -9` gives it no
chance to shut them down, so they must notice by themselves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

APP = """\
import os
from feedtui.cpu_pool import CpuPool
pool = CpuPool(os.getpid, workers=2)
workers = set(pool.map_blocking([()] * 8))
print(" ".join(map(str, sorted(workers - {os.getpid()}))), flush=True)
import time
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def kill_app_and_expect_its_workers_gone(script: str, *, workers_expected: int | None = None) -> None:
    """Run `script` (it prints its workers' pids), kill -9 it, and wait for the workers to end."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    app = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        workers = [int(pid) for pid in app.stdout.readline().split()]
        assert workers and all(alive(pid) for pid in workers)
        if workers_expected is not None:
            assert len(workers) == workers_expected
        app.send_signal(signal.SIGKILL)
        app.wait()
        deadline = time.monotonic() + 6
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers)
    finally:
        try:
            os.killpg(app.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_workers_end_when_the_app_is_killed():
    kill_app_and_expect_its_workers_gone(APP)


SLOW_START_APP = """\
import os, threading, time
from pathlib import Path
from feedtui import cpu_pool

quiet = cpu_pool._quiet_signals
def slow_quiet():
    time.sleep(1.5)  # the app is killed while its new workers are still starting
    quiet()
cpu_pool._quiet_signals = slow_quiet
pool = cpu_pool.CpuPool(os.getpid, workers=2)
threading.Thread(target=pool.map_blocking, args=([()] * 8,), daemon=True).start()
time.sleep(0.5)
children = " ".join(p.read_text() for p in Path("/proc/self/task").glob("*/children"))
print(" ".join(children.split()), flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_workers_end_when_the_app_is_killed_before_they_have_started():
    kill_app_and_expect_its_workers_gone(SLOW_START_APP, workers_expected=2)


START_APP = """\
import asyncio, os, threading
from pathlib import Path
from feedtui.cpu_pool import CpuPool

started = threading.Event()
seen = {}

def initializer():
    seen["main thread"] = threading.current_thread() is threading.main_thread()
    seen["start returned first"] = started.wait(5)

def children():
    return {int(pid) for p in Path("/proc/self/task").glob("*/children") for pid in p.read_text().split()}

async def main():
    pool = CpuPool(os.getpid, initializer=initializer, workers=2)
    pool.start()
    started.set()
    await asyncio.to_thread(pool.after_preparing, lambda: None)
    forked_by_start = len(children())
    ran_in = await pool.run(1 << 20)
    workers = children()  # before close: the workers end soon after it
    pool.close()
    print(seen["main thread"], seen["start returned first"], forked_by_start, ran_in in workers)

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_start_prepares_in_a_thread_and_the_first_large_job_forks_the_workers():
    assert run_script(START_APP).split() == ["False", "True", "0", "True"]


START_AND_FORK_APP = """\
import asyncio, os, time
from pathlib import Path
from feedtui.cpu_pool import CpuPool

def children():
    return {int(pid) for p in Path("/proc/self/task").glob("*/children") for pid in p.read_text().split()}

async def main():
    pool = CpuPool(os.getpid, workers=2)
    pool.start(fork=True)
    deadline = time.monotonic() + 20
    while len(children()) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    forked_by_start = children()
    ran_in = await pool.run(1 << 20)
    pool.close()
    print(len(forked_by_start), ran_in in forked_by_start)

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_start_with_fork_forks_the_workers_once_prepared_and_jobs_run_in_them():
    assert run_script(START_AND_FORK_APP).split() == ["2", "True"]


FORK_AFTER_JOBS_APP = """\
import asyncio, os, threading, time
from feedtui.cpu_pool import CpuPool

events = []
os.register_at_fork(before=lambda: events.append("fork"))
started = threading.Event()

def task(small):
    if small:
        events.append("thread job starts")
        started.set()
        time.sleep(0.3)  # inside a lazy import, say
        events.append("thread job ends")
    return os.getpid()

async def main():
    pool = CpuPool(task, workers=2)
    small = asyncio.ensure_future(pool.run(10, True))
    await asyncio.to_thread(started.wait, 5)
    worker = await pool.run(1 << 20, False)
    await small
    pool.close()
    print(events[:3], worker != os.getpid())

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_the_workers_are_forked_only_once_no_job_runs_in_a_thread():
    assert run_script(FORK_AFTER_JOBS_APP).strip() == "['thread job starts', 'thread job ends', 'fork'] True"


def run_script(script: str) -> str:
    """Run `script` in a Python of its own (forks stay out of pytest's process); its stdout."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


GONE = """
def gone(pids):
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True
"""

CLOSE_APP = """\
import os
from feedtui.cpu_pool import CpuPool, finish_closing
""" + GONE + """
pool = CpuPool(os.getpid, workers=2)
pool.map_blocking([()] * 8)
workers = list(pool._pool._processes)  # both, even if one did every job
pool.close()
print(finish_closing(timeout=20), len(workers), gone(workers), flush=True)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_finish_closing_waits_until_the_workers_of_a_closed_pool_are_gone():
    """`close` does not wait for the workers; the process waits for them with
    `finish_closing` before it exits (on Python 3.11, exiting while a pool
    shuts down can print a traceback after the command's last word)."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", CLOSE_APP], capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True 2 True\n", "")


CLOSED_WHILE_MADE_APP = """\
import os
from feedtui.cpu_pool import CpuPool, finish_closing
""" + GONE + """
pool = CpuPool(os.getpid, workers=2)
made = []
forked = pool._forked_pool
def forked_then_closed():
    executor = forked()
    made.append(executor)
    pool.close()  # as a refresh stopped while its first large body forks the workers
    return executor
pool._forked_pool = forked_then_closed
print(pool._executor() is None, pool.map_blocking([(), ()]) == [os.getpid()] * 2, flush=True)
workers = list(made[0]._processes)
print(len(workers), finish_closing(timeout=20), gone(workers), flush=True)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_a_pool_made_while_it_is_closed_is_shut_down_not_kept():
    """Nothing would shut it down later: its workers would live on to the
    interpreter's exit, where a pool still running prints a traceback."""
    assert run_script(CLOSED_WHILE_MADE_APP).splitlines() == ["True True", "2 True True"]


BUSY_AT_EXIT_APP = """\
import os, time
from feedtui.cpu_pool import CpuPool, finish_closing
""" + GONE + """
pool = CpuPool(time.sleep, workers=2)
executor = pool._executor()
jobs = [executor.submit(time.sleep, 60) for _ in range(2)]
while not all(job.running() for job in jobs):
    time.sleep(0.01)
workers = list(executor._processes)
pool.close()
began = time.monotonic()
finished = finish_closing(timeout=0.5)
took = time.monotonic() - began
for _ in range(500):  # stopped: reaped as the pool notices, a moment later under load
    if gone(workers):
        break
    time.sleep(0.02)
print(finished, took < 10, gone(workers), flush=True)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_workers_still_busy_when_the_process_ends_are_stopped():
    """A command stopped while its workers are in a long job (a retag's
    chunk) ends within finish_closing's time: their results are wanted no more."""
    assert run_script(BUSY_AT_EXIT_APP).strip() == "False True True"


LEFT_OPEN_APP = """\
import os, sys, threading, time
from feedtui.cpu_pool import CpuPool, finish_closing
""" + GONE + """
pool = CpuPool(time.sleep, workers=2)
outcome = []
def build():
    try:
        pool.map_blocking([(60,), (60,)])
        outcome.append("done")
    except BaseException as error:
        outcome.append(type(error).__name__)
# As an Ask index built in a daemon thread while the reader quits: nobody closes the pool.
builder = threading.Thread(target=build, daemon=True)
builder.start()
while pool._pool is None or len(pool._pool._processes) < 2:
    time.sleep(0.01)
workers = list(pool._pool._processes)
time.sleep(0.2)
began = time.monotonic()
finished = finish_closing(timeout=30)
took = time.monotonic() - began
for _ in range(500):
    if gone(workers):
        break
    time.sleep(0.02)
builder.join(10)  # its jobs are not run again here instead
print(finished, took < 10, gone(workers), outcome, flush=True)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_workers_of_a_pool_left_open_are_stopped_at_once_when_the_process_ends():
    """A pool nobody closed (its jobs waited for by a daemon thread) kept the
    process from exiting until its jobs ended: the interpreter joins every
    executor's manager thread at exit, and it waits for the jobs under way.
    It is stopped without the wait a closed pool gets, its jobs are not run
    again in the process instead, and the process ends with nothing on stderr."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", LEFT_OPEN_APP], capture_output=True, text=True, env=env, timeout=90)
    took = time.monotonic() - began
    assert (done.returncode, done.stdout, done.stderr) == (0, "True True True ['BrokenProcessPool']\n", "")
    assert took < 30  # not the 60 s the jobs would have taken


AFTER_FINISH_APP = """\
import os, time
from concurrent.futures.process import BrokenProcessPool
from feedtui.cpu_pool import CpuPool, finish_closing
finish_closing()
pool = CpuPool(time.sleep, workers=2)
began = time.monotonic()
try:
    pool.map_blocking([(60,), (60,)])
    print("ran", flush=True)
except BrokenProcessPool:
    print("refused", time.monotonic() - began < 10, flush=True)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_no_pool_gets_workers_once_the_process_ends():
    """An Ask index whose workers were being forked as the reader quit kept
    the process until its build ended: finish_closing had already looked for
    open pools. After it, jobs are refused, not run."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", AFTER_FINISH_APP], capture_output=True, text=True, env=env, timeout=90)
    assert (done.returncode, done.stdout, done.stderr) == (0, "refused True\n", "")



NICER_APP = """\
import os, threading
from feedtui.cpu_pool import CpuPool

def niceness():
    return os.getpid(), os.nice(0)

done = threading.Event()
pool = CpuPool(niceness, workers=2, nice=7)
pool.start(fork=True, then=done.set)
done.wait(10)
found = set(pool.map_blocking([()] * 6))
pool.close()
here = os.nice(0)
print(all(pid != os.getpid() and nice == here + 7 for pid, nice in found), here == os.nice(0))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers are the Linux set-up")
def test_nicer_workers_run_at_a_lower_priority_and_then_follows_the_start():
    # The refresh's embedding workers take only what the parsers leave of the cores.
    assert run_script(NICER_APP).split() == ["True", "True"]
