#!/usr/bin/env python3
"""The reader's memory while it answers Ask over a 40,000-paper cache, in tmux.

    python bench/bench_ask_rss.py [--runs 3] [--work DIR] [--src SRC ...] [--template ROOT]

ROOT is a sandbox (config.toml, data/, home/) holding 40,000 papers with
their vectors: by default the one bench/bench_discovery.py's speed section
leaves in /tmp/feedtui-bench-discovery/big-full. It is never modified: for
each --src it is copied into --work once and `Engine.compute_vectors()` is
run on the copy by that tree in a process of its own, which stores the whole
cache's word index in that tree's format, so the reader maps a current index
instead of building one. Each run starts the reader (`python -m feedtui`,
PYTHONPATH=SRC) on a fresh copy of that prepared cache, at 160×48, and:

  before      waits for the first paint and for the reader to settle (the
              sidebar's sparklines are drawn after it), then reads VmRSS
              from /proc/PID/status;
  first Ask   resets the peak (`5` into /proc/PID/clear_refs, which resets
              VmHWM), presses A (Ask everything), types a question, enter,
              waits until the answer's title is on screen and the screen is
              quiet, and reads VmHWM: peak − before is the figure, target
              ≤ 40 MB (issue 30);
  second Ask  the same in the same session with another question (warm:
              the index, the model and the vectors already held).

With several --src the runs are interleaved (A, B, A, B, ...), so a noisy
shared machine weighs on every tree alike. Prints per-run values and
medians, and the time from enter to the answer on screen.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/bench_ask_rss.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass

from bench.common import MeasureError, bare_env, settle_disk
from bench.feedtui_app import LIST_TITLE, Launcher, Sandbox
from bench.repaint import RepaintProbe
from bench.tui_start import TerminalProgram

TARGET_MB = 40.0
QUESTIONS = ("sparse attention accelerators", "energy efficient inference at the edge")
DEFAULT_TEMPLATE = Path(tempfile.gettempdir()) / "feedtui-bench-discovery" / "big-full"
# The reader settles after its first paint (the sidebar's sparklines come later):
# at least this long, and then until the screen and the RSS are quiet.
SETTLE_S = 5.0
# Run by each --src on its prepared copy: vectors for papers lacking them, and
# the whole cache's word index stored in that tree's format, and Ask's
# tokenizer tables made.
PREPARE = """
import sys, time
from pathlib import Path
from feedtui.config import load_config
from feedtui.core.engine import open_engine
root = Path(sys.argv[1])
engine = open_engine(load_config(root / "config.toml"), root / "data")
engine.load_library()
started = time.perf_counter()
count = engine.compute_vectors()
# The model once loaded for Ask, as after any earlier session's first Ask:
# its tokenizer's tables are then kept in the cache (cache/tokenizer/).
engine._semantic()
print(f"{len(engine.library.ids)} papers, {count} vectors computed, {time.perf_counter() - started:.1f} s")
engine.close()
"""


class Misrouted(MeasureError):
    """The typed question did not reach the Ask box (the run is made again on a fresh copy)."""


# --breakdown: the reader's calls for a first Ask, in a headless engine, one
# step at a time, with the resident memory (anonymous and file-backed) each
# step adds and the Python allocations it keeps (tracemalloc, by line).
BREAKDOWN = """
import gc, sys, threading, tracemalloc
from pathlib import Path
from feedtui.config import load_config
from feedtui.core.engine import open_engine

def status():
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return {k: int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "RssAnon", "RssFile", "VmHWM")}

def step(label, call, top=4):
    before = status()
    Path("/proc/self/clear_refs").write_text("5")
    snapshot = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
    done = []
    worker = threading.Thread(target=lambda: done.append(call()))  # the reader answers in a worker thread
    worker.start()
    worker.join()
    gc.freeze()
    after = status()
    print(f"{label:34s} RSS {after['VmRSS'] - before['VmRSS']:+6.1f} MB (anon {after['RssAnon'] - before['RssAnon']:+6.1f}, "
          f"file {after['RssFile'] - before['RssFile']:+5.1f}), peak {after['VmHWM'] - before['VmRSS']:+6.1f} MB above before")
    if snapshot is not None:
        for stat in tracemalloc.take_snapshot().compare_to(snapshot, "lineno")[:top]:
            frame = stat.traceback[0]
            print(f"    {stat.size_diff / 2**20:+6.1f} MB kept  {Path(frame.filename).name}:{frame.lineno}")
    return done[0] if done else None

root = Path(sys.argv[1])
trace = sys.argv[2] == "trace"
engine = open_engine(load_config(root / "config.toml"), root / "data")
engine.load_library()
gc.freeze()
if trace:
    tracemalloc.start(1)
print(f"before: {status()['VmRSS']:.1f} MB ({'tracemalloc on: Python allocations listed' if trace else 'no tracemalloc'})")
step("import numpy", lambda: __import__("numpy"))
step("word index (_whole_index)", engine._whole_index)
step("model + vectors (_semantic)", engine._semantic)
step("first Ask (engine.ask, limit 100)", lambda: engine.ask(sys.argv[3], limit=100), top=8)
step("second Ask", lambda: engine.ask(sys.argv[4], limit=100))
print(f"after: {status()['VmRSS']:.1f} MB")
"""


@dataclass(slots=True)
class AskMemory:
    before_mb: float
    peak_mb: float
    after_mb: float
    answer_s: float

    @property
    def increase_mb(self) -> float:
        return self.peak_mb - self.before_mb


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise MeasureError(f"/proc/{pid}/status has no {field}")


def rss_parts(pid: int) -> dict[str, float]:
    """The resident memory by kind: anonymous (the heap, numpy's arrays), file-backed (mapped files, libraries)."""
    return {part: status_mb(pid, part) for part in ("RssAnon", "RssFile", "RssShmem")}


def file_mappings(pid: int) -> list[tuple[str, float]]:
    """Resident MB of each mapped file (from /proc/PID/smaps)."""
    sizes: dict[str, float] = {}
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if not head:
            continue
        if not head[0].endswith(":"):  # a mapping's first line: range perms offset dev inode [path]
            name = Path(head[5]).name if len(head) > 5 and head[5].startswith("/") else (head[5] if len(head) > 5 else "[anon]")
        elif head[0] == "Rss:":
            sizes[name] = sizes.get(name, 0.0) + int(head[1]) / 1024
    return [(n, mb) for n, mb in sizes.items() if n != "[anon]"]


def reset_peak(pid: int) -> None:
    """VmHWM back to VmRSS; checked, since a kernel may refuse it."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")
    peak, now = status_mb(pid, "VmHWM"), status_mb(pid, "VmRSS")
    if peak > now + 2.0:
        raise MeasureError(f"writing 5 to /proc/{pid}/clear_refs did not reset VmHWM ({peak:.1f} MB, RSS {now:.1f} MB)")


def reader_pid(program: TerminalProgram) -> int:
    """The reader's pid (python -m feedtui under /usr/bin/time in the pane), checked by its command line."""
    pid = program.pid()
    if pid is None:
        raise MeasureError("could not find the reader's pid in the tmux pane")
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    if b"-m" not in argv or b"feedtui" not in argv:
        raise MeasureError(f"pid {pid} is not the reader: {argv!r}")
    return pid


def settle(program: TerminalProgram, probe: RepaintProbe, pid: int, *, at_least_s: float, limit_s: float = 60.0) -> None:
    """Wait `at_least_s`, then until the screen is quiet and the RSS has stopped moving (within 0.5 MB over 1 s)."""
    time.sleep(at_least_s)
    deadline = time.monotonic() + limit_s
    last = status_mb(pid, "VmRSS")
    while time.monotonic() < deadline:
        probe.settle(quiet_s=0.5, limit_s=10.0)
        time.sleep(1.0)
        now = status_mb(pid, "VmRSS")
        if abs(now - last) < 0.5:
            return
        last = now


def ask(program: TerminalProgram, probe: RepaintProbe, pid: int, question: str) -> AskMemory:
    """A (Ask everything), the question, enter; memory from just before A to the answer on screen, settled."""
    before = status_mb(pid, "VmRSS")
    parts_before, files_before = rss_parts(pid), dict(file_mappings(pid))
    reset_peak(pid)
    for _ in range(3):  # a key can land while the sidebar still opens the topic under its cursor
        probe.press("A")
        box, screen, _, _ = program.wait_for([re.compile(r"Ask every paper")], poll_s=0.02, timeout=5)
        if box is not None:
            break
        log("A did not open the question box within 5 s: pressed again")
    else:
        raise MeasureError(f"A did not open the question box; screen:\n{screen}")
    # Keys sent in the same instant as the box appears can land before the
    # focus is in it (seen in tmux): wait for the screen to be quiet first.
    probe.settle(quiet_s=0.3)
    time.sleep(0.5)
    program.send_keys("C-e", "C-u")  # the box holds the question asked before, if any
    # Keys sent right behind these two are lost (a bare Textual Input loses
    # them too): wait a moment before the question.
    time.sleep(0.5)
    program.send_keys(*("Space" if ch == " " else ch for ch in question))
    probe.settle(quiet_s=0.2)
    typed, screen, _, _ = program.wait_for([re.compile(r"▊\s+" + re.escape(question))], poll_s=0.02, timeout=5)
    if typed is None:  # the keys went elsewhere: this session's state is no longer the one measured
        raise Misrouted(f"the question {question!r} did not land in the Ask box; screen:\n{screen}")
    sent = time.time()
    program.send_keys("Enter")
    answered = re.compile(r"Ask: " + re.escape(question) + r"\s*— [\d,]+ papers?")
    shown, screen, _, _ = program.wait_for([answered], poll_s=0.02, timeout=180)
    if shown is None:
        raise MeasureError(f"no answer to {question!r} within 180 s; screen:\n{screen}")
    settle(program, probe, pid, at_least_s=1.0)
    memory = AskMemory(before, status_mb(pid, "VmHWM"), status_mb(pid, "VmRSS"), shown - sent)
    grown = {part: rss_parts(pid)[part] - mb for part, mb in parts_before.items()}
    log(f"  {question!r}: RSS after − before by kind: " + ", ".join(f"{part} {mb:+.1f} MB" for part, mb in grown.items()))
    files = sorted(((n, mb - files_before.get(n, 0.0)) for n, mb in file_mappings(pid)), key=lambda item: -item[1])
    log("  mapped files grown most: " + ", ".join(f"{name} {mb:+.1f} MB" for name, mb in files[:6]))
    return memory


def one_run(prepared: Sandbox, root: Path) -> tuple[AskMemory, AskMemory | None]:
    sandbox = prepared.copy(root)
    settle_disk()
    try:
        with TerminalProgram(sandbox.argv(), cols=160, rows=48, env=sandbox.env()) as program:
            painted, screen, _, _ = program.wait_for([re.compile(LIST_TITLE)], poll_s=0.05, timeout=120)
            if painted is None:
                raise MeasureError(f"the reader did not paint its list within 120 s; screen:\n{screen}")
            pid = reader_pid(program)
            with RepaintProbe(program, quiet_s=0.05) as probe:
                settle(program, probe, pid, at_least_s=SETTLE_S)
                first = ask(program, probe, pid, QUESTIONS[0])
                try:
                    second = ask(program, probe, pid, QUESTIONS[1])
                except Misrouted as error:  # the first figure stands; the second is missing
                    log(f"second question not measured: {str(error).splitlines()[0]}")
                    second = None
            program.quit(["Escape", "q"], 30)
        return first, second
    finally:
        shutil.rmtree(sandbox.root, ignore_errors=True)


def prepare(template: Path, root: Path, src: Path, python: str) -> Sandbox:
    """A copy of the template whose vectors and word index `src` has computed."""
    if root.exists():
        shutil.rmtree(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(template), str(root)], check=True)
    env = {**bare_env(root / "home"), "PYTHONPATH": str(src)}
    done = subprocess.run([python, "-c", PREPARE, str(root)], env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise MeasureError(f"compute_vectors with {src} failed:\n{done.stderr[-2000:]}")
    log(f"prepared {root} with {src}: {done.stdout.strip()}")
    return Sandbox(root, Launcher.from_checkout(python, src))


def span(values: list[float], unit: str, digits: int = 1) -> str:
    return f"{statistics.median(values):.{digits}f} {unit} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def report(src: Path, runs: list[tuple[AskMemory, AskMemory | None]]) -> None:
    print(f"{src}: {len(runs)} runs, 160×48 in tmux, 40k papers, median [min–max]")
    for label, index in (("first Ask", 0), ("second Ask", 1)):
        asks = [run[index] for run in runs if run[index] is not None]
        if not asks:
            print(f"  {label}: not measured (the question never landed in the Ask box)")
            continue
        increase = [a.increase_mb for a in asks]
        verdict = "ok" if statistics.median(increase) <= TARGET_MB else "OVER"
        target = f"  target ≤ {TARGET_MB:.0f} MB: {verdict}" if index == 0 else ""
        print(f"  {label}: peak − before   {span(increase, 'MB')}{target}")
        print(f"    before {span([a.before_mb for a in asks], 'MB')}, peak {span([a.peak_mb for a in asks], 'MB')}, "
              f"after {span([a.after_mb for a in asks], 'MB')}")
        print(f"    enter → answer on screen {span([a.answer_s for a in asks], 's', 2)}")
        print("    per run (before/peak/+): " + ", ".join(f"{a.before_mb:.1f}/{a.peak_mb:.1f}/+{a.increase_mb:.1f}" for a in asks))


def breakdown(prepared: Sandbox, root: Path, src: Path, python: str) -> None:
    """Where a first Ask's memory goes, step by step, in a headless engine (without and with tracemalloc)."""
    for mode in ("plain", "trace"):
        sandbox = prepared.copy(root)
        try:
            env = {**bare_env(root / "home"), "PYTHONPATH": str(src)}
            done = subprocess.run([python, "-c", BREAKDOWN, str(root), mode, *QUESTIONS], env=env, capture_output=True, text=True, timeout=1800)
            print(f"breakdown, headless engine, {src}:")
            print(done.stdout.rstrip() or done.stderr[-2000:])
        finally:
            shutil.rmtree(sandbox.root, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench-askrss")
    parser.add_argument("--src", type=Path, action="append", help="a feedtui tree measured (repeatable; default: this checkout's)")
    parser.add_argument("--breakdown", action="store_true", help="also break a first Ask's memory down in a headless engine")
    parser.add_argument("--template", type=Path, default=DEFAULT_TEMPLATE, help="a 40k sandbox with vectors (never modified)")
    args = parser.parse_args()
    sources = [s.resolve() for s in (args.src or [Path(__file__).resolve().parents[1] / "src"])]
    if not (args.template / "data" / "cache" / "vectors.bin").exists():
        raise SystemExit(f"{args.template} holds no 40k cache with vectors: run bench/bench_discovery.py --only speed first")
    python = sys.executable
    prepared = [prepare(args.template, args.work / f"prepared-{i}", src, python) for i, src in enumerate(sources)]
    results: list[list[tuple[AskMemory, AskMemory | None]]] = [[] for _ in sources]
    for run in range(args.runs):
        for i, src in enumerate(sources):
            for attempt in range(3):
                try:
                    first, second = one_run(prepared[i], args.work / "run")
                    break
                except Misrouted as error:
                    log(f"run {run + 1} {src}, attempt {attempt + 1}: {error}")
            else:
                raise MeasureError(f"the question never landed in the Ask box in 3 attempts ({src})")
            results[i].append((first, second))
            warm = f"second +{second.increase_mb:.1f} MB ({second.answer_s:.2f} s)" if second else "second not measured"
            log(f"run {run + 1}/{args.runs} {src}: first +{first.increase_mb:.1f} MB ({first.before_mb:.1f} → {first.peak_mb:.1f}, "
                f"{first.answer_s:.2f} s), {warm}")
    for src, runs in zip(sources, results):
        if runs:
            report(src, runs)
    if args.breakdown:
        for src, sandbox in zip(sources, prepared):
            breakdown(sandbox, args.work / "breakdown", src, python)
    for root in prepared:
        shutil.rmtree(root.root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
