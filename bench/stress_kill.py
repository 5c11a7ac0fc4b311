"""kill -9 at random moments; the database must load and keep what was durable.

    python bench/stress_kill.py --trials 200            half refreshes, half bursts of marks
    python bench/stress_kill.py --trials 40 --kinds marks --seed 3 --keep

Two kinds of trial, each in a real child process killed with SIGKILL:

- refresh: `feedtui refresh --force` against a loopback server (bench/server.py)
  serving generated feeds (bench/feeds.py) for feed topics, an arXiv query
  topic and an arXiv category topic; the feeds change before every trial so
  every refresh has papers to store. The kill comes at a random moment of a
  refresh's measured duration.
- marks: bench/kill_driver.py making marks, stars, follows and topic changes
  through the engine API, printing each action once the state store reports
  it durable; killed at a random moment of its burst.

After every kill the data directory is opened the way the app opens it
(Engine + load_library: StateStore, FetchState, TagStore, PaperCache index)
and checked: nothing reported as damage, no temporary file left once opened,
every card's paper present in its week's shard, every match file taken as
current equal to the rows its week's documents give, every paper from a followed
feed tagged with its topic (where the topic's tags are current), the topics
set up before a refresh all there, and for marks the state equal to the
actions applied in order up to some point at or after the last one reported
durable. Prints `trials N, failures F` then one line per failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/stress_kill.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bench.common import REPO_ROOT
from bench.feeds import FeedSetSpec, feed_file_name, render_feed
from bench.server import FeedServer

SRC = REPO_ROOT / "src"
FEED_TOPICS = 4
QUERY_TOPIC = "Kill query"
CATEGORY_TOPIC = "Kill category"
# Data directories are started afresh this often, so caches stay small and
# first refreshes (new weeks, new files) are killed as often as later ones.
REFRESH_RESET_EVERY = 4
MARKS_RESET_EVERY = 10


@dataclass(slots=True)
class TrialResult:
    kind: str
    number: int
    killed_after: float
    killed: bool  # False when the child had already finished
    failures: list[str] = field(default_factory=list)


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}
    env["PYTHONPATH"] = str(SRC) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


@dataclass(slots=True)
class Run:
    killed: bool  # False when the child had already finished
    output: bytes
    # Processes the child started that were still alive after it ended (they
    # were killed then): a killed feedtui must not leave workers behind.
    survivors: list[int] = field(default_factory=list)


def kill_at(argv: list[str], delay: float, *, ready_line: bytes | None = None) -> Run:
    """Run argv in a process group of its own; SIGKILL it `delay` seconds after
    start (or after it prints `ready_line`). Its stdout goes to a file (a pipe
    could be held open by anything it leaves behind), opened separately for
    the child so that reading here never moves the child's write position."""
    with tempfile.NamedTemporaryFile() as out:
        with open(out.name, "ab") as child_out:
            child = subprocess.Popen(
                argv, stdout=child_out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=child_env(),
                start_new_session=True,
            )
        if ready_line is not None:
            wait_for_line(out, ready_line, child)
        try:
            child.wait(timeout=delay)
            killed = False
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait()
            killed = True
        survivors = reap_group(child.pid)
        out.seek(0)
        return Run(killed, out.read(), survivors)


def wait_for_line(out, line: bytes, child: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out.seek(0)
        first = out.readline()
        if first.endswith(b"\n"):
            if first.strip() != line:
                break
            return
        if child.poll() is not None:
            break
        time.sleep(0.005)
    child.kill()
    child.wait()
    raise RuntimeError(f"the child did not start: {first!r}")


def group_members(group: int) -> list[int]:
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":  # the process group, and not a zombie
            members.append(int(stat.parent.name))
    return members


def reap_group(group: int, grace: float = 3.0) -> list[int]:
    """Pids of the process group `group` still alive `grace` seconds after its
    leader ended (they are killed then)."""
    deadline = time.monotonic() + grace
    while (survivors := group_members(group)) and time.monotonic() < deadline:
        time.sleep(0.05)
    if survivors:
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return survivors


# -- checking a data directory -------------------------------------------------


@dataclass(slots=True)
class Snapshot:
    """What the user set, as loaded after a kill."""

    follows: set[str]
    read: set[str]
    starred: set[str]
    topics: dict[str, str]  # user topic name -> query


def check_data_dir(data_dir: Path) -> tuple[Snapshot, list[str]]:
    """Open the data directory as the app does; (what it holds, what is wrong)."""
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.store.match import read_match_rows
    from feedtui.topics.tagging import MATCH_ROWS_VERSION, MatchRows

    failures: list[str] = []
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, data_dir, background_writes=False)
    try:
        library = engine.load_library()
        failures += [f"reported at open: {m}" for m in engine.problems.messages]
        leftovers = sorted(str(p.relative_to(data_dir)) for p in data_dir.rglob(".*.tmp"))
        if leftovers:
            failures.append(f"temporary files left after open: {leftovers}")
        documents: dict[str, dict] = {}
        for shard in {row.shard for row in library.rows}:
            documents.update((pid, doc) for pid, doc in engine.cache.read_shard_documents(shard).items())
        for pid, row in zip(library.ids, library.rows):
            if pid not in engine.cache.read_shard_documents(row.shard):
                failures.append(f"card {pid} points at week {row.shard}, which does not hold it")
        # A match file taken as current must say exactly what the week's documents say.
        for shard in engine.cache.shards():
            papers_path = engine.cache.papers_dir / f"{shard}.json"
            rows = read_match_rows(papers_path, MATCH_ROWS_VERSION, width=MatchRows.width)
            if rows is None:
                continue
            week = engine.cache.read_shard_documents(shard)
            if rows != {pid: MatchRows().of_document(pid, doc) for pid, doc in week.items()}:
                failures.append(f"the match file of week {shard} is taken as current but differs from its papers")
        stored = engine.tags.load()
        for entry in engine.registry:
            feeds = set(entry.topic.definition.feeds)
            signature, ids = stored.get(entry.name, ("", []))
            if not feeds or signature != entry.signature:
                continue  # no stored tags to check: they are recomputed at load
            members = set(ids)
            for pid in library.ids:
                sources = set(documents.get(pid, {}).get("sources", ()))
                if sources & feeds and pid not in members:
                    failures.append(f"paper {pid} from a feed of '{entry.name}' has a card but not the topic's tag")
        snapshot = Snapshot(
            follows=engine.state.follows(),
            read=engine.state.read_ids(),
            starred=engine.state.starred_ids(),
            topics={name: doc.get("query", "") for name, doc in engine.state.user_topics().items()},
        )
    finally:
        engine.close()
    return snapshot, failures


# -- refresh trials ------------------------------------------------------------


@dataclass(slots=True)
class RefreshBench:
    """A loopback server and the files it serves, with a data directory to refresh into."""

    root: Path
    server: FeedServer
    entries: int
    data_dir: Path = field(init=False)
    config: Path = field(init=False)
    duration: float = 0.0
    version: int = 0

    def __post_init__(self) -> None:
        self.data_dir = self.root / "data"
        self.config = self.root / "config.toml"
        api = self.server.url("api/query")
        rss = self.server.url("rss/")
        self.config.write_text(
            "[general]\nauto_refresh = false\n"
            f'[arxiv]\napi_url = "{api}"\nrss_url = "{rss}"\nmin_interval = 0.01\npage_size = 100\n'
        )

    def write_feeds(self) -> None:
        """New papers in every feed (ids depend on the seed)."""
        self.version += 1
        now = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        api = FeedSetSpec(FEED_TOPICS + 1, self.entries, 1000 + self.version, now, weeks=6)
        served = self.root / "served"
        (served / "api").mkdir(parents=True, exist_ok=True)
        (served / "rss").mkdir(parents=True, exist_ok=True)
        for index in range(FEED_TOPICS):
            (served / feed_file_name(index)).write_bytes(render_feed(api, index))
        (served / "api" / "query").write_bytes(render_feed(api, FEED_TOPICS))
        rss = FeedSetSpec(1, self.entries, 5000 + self.version, now, weeks=1, style="rss")
        (served / "rss" / "cs.DC").write_bytes(render_feed(rss, 0))

    def reset(self) -> None:
        """A fresh data directory with the topics set up and followed (durable before any kill)."""
        from feedtui.config import Config
        from feedtui.core.engine import Engine
        from feedtui.model import TopicDefinition

        shutil.rmtree(self.data_dir, ignore_errors=True)
        engine = Engine(Config(), self.data_dir, background_writes=False)
        engine.add_topic(QUERY_TOPIC, TopicDefinition(query="ti:scalable"))
        engine.add_topic(CATEGORY_TOPIC, TopicDefinition(categories=("cs.DC",)))
        for index in range(FEED_TOPICS):
            engine.add_topic(f"Kill feed {index}", TopicDefinition(feeds=(self.server.url(feed_file_name(index)),)))
        for name in self.expected_follows():
            engine.follow(name)
        engine.retag(sorted(self.expected_follows()))  # stored tags from the start, kept current by refreshes
        engine.close()

    def expected_follows(self) -> set[str]:
        return {QUERY_TOPIC, CATEGORY_TOPIC, *(f"Kill feed {i}" for i in range(FEED_TOPICS))}

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "feedtui", *args, "--data-dir", str(self.data_dir), "--config", str(self.config)]

    def cli(self, *args: str) -> None:
        done = subprocess.run(self.argv(*args), capture_output=True, text=True, env=child_env(), timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"feedtui {' '.join(args)} failed: {done.stderr.strip()}")

    def calibrate(self) -> float:
        """How long an unkilled refresh of changed feeds takes here: the
        shorter of two, since a busy machine makes one run of it slow, and a
        duration too long sends most kills after the refresh ended."""
        durations = []
        for _ in range(2):
            self.reset()
            self.write_feeds()
            started = time.perf_counter()
            self.cli("refresh", "--force")
            durations.append(time.perf_counter() - started)
        self.duration = min(durations)
        return self.duration


def refresh_trial(bench: RefreshBench, number: int, rng: random.Random) -> TrialResult:
    if number % REFRESH_RESET_EVERY == 0:
        bench.reset()
    bench.write_feeds()
    delay = rng.uniform(0.1, 1.1) * bench.duration
    run = kill_at(bench.argv("refresh", "--force"), delay)
    snapshot, failures = check_data_dir(bench.data_dir)
    if run.survivors:
        failures.append(f"{len(run.survivors)} processes of the killed refresh were still running 3 s later")
    missing = bench.expected_follows() - snapshot.follows
    if missing:
        failures.append(f"follows set up before the refresh are gone: {sorted(missing)}")
    return TrialResult("refresh", number, delay, run.killed, failures)


@contextmanager
def refresh_bench(root: Path, *, entries: int = 150) -> Iterator[RefreshBench]:
    served = root / "served"
    served.mkdir(parents=True, exist_ok=True)
    with FeedServer(served) as server:
        # A killed client resets its connections; that is the point, not news.
        server._httpd.handle_error = lambda request, address: None  # type: ignore[union-attr]
        bench = RefreshBench(root, server, entries)
        bench.calibrate()
        print(f"an unkilled refresh takes {bench.duration:.2f} s", file=sys.stderr)
        yield bench


# -- marks trials ----------------------------------------------------------------


@dataclass(slots=True)
class Action:
    number: int
    kind: str
    args: list[str]


def replay(base: Snapshot, actions: list[Action]) -> Iterator[Snapshot]:
    """The state after each prefix of the actions (the empty prefix first)."""
    state = Snapshot(set(base.follows), set(base.read), set(base.starred), dict(base.topics))
    yield Snapshot(set(state.follows), set(state.read), set(state.starred), dict(state.topics))
    for action in actions:
        kind, args = action.kind, action.args
        if kind == "read":
            state.read.update(args)
        elif kind == "unread":
            state.read.difference_update(args)
        elif kind == "star":
            state.starred.update(args)
        elif kind == "unstar":
            state.starred.difference_update(args)
        elif kind == "follow":
            state.follows.add(args[0])
        elif kind == "unfollow":
            state.follows.discard(args[0])
        elif kind == "topic_add":
            state.topics[args[0]] = args[1]
        elif kind == "topic_rm":
            state.topics.pop(args[0], None)
            state.follows.discard(args[0])
        yield Snapshot(set(state.follows), set(state.read), set(state.starred), dict(state.topics))


def parse_driver_output(out: bytes) -> tuple[list[Action], int]:
    """(actions announced, in order; how many of the first are durable)."""
    actions: list[Action] = []
    durable = -1
    for line in out.decode().splitlines():
        parts = line.split(" ")
        if parts[0] == "op" and len(parts) >= 3:
            actions.append(Action(int(parts[1]), parts[2], [p.replace("\x1f", " ") for p in parts[3:]]))
        elif parts[0] == "durable" and len(parts) == 2:
            durable = max(durable, int(parts[1]))
    return actions, durable + 1


def compare(found: Snapshot, expected: Snapshot) -> list[str]:
    out = []
    for name in ("follows", "read", "starred", "topics"):
        have, want = getattr(found, name), getattr(expected, name)
        if have != want:
            if isinstance(have, set):
                out.append(f"{name}: missing {sorted(want - have)[:5]}, extra {sorted(have - want)[:5]}")
            else:
                out.append(f"{name}: {have} != {want}")
    return out


def marks_trial(data_dir: Path, base: Snapshot, number: int, rng: random.Random) -> tuple[TrialResult, Snapshot]:
    delay = rng.uniform(0.0, 1.2)
    argv = [sys.executable, str(REPO_ROOT / "bench" / "kill_driver.py"), str(data_dir), "--seed", str(rng.randrange(2**31)), "--seconds", "1.5"]
    run = kill_at(argv, delay, ready_line=b"ready")
    actions, durable = parse_driver_output(run.output)
    snapshot, failures = check_data_dir(data_dir)
    states = list(replay(base, actions))
    if not any(snapshot == state for state in states[durable:]):
        closest = min(states[durable:], key=lambda s: len(compare(snapshot, s)))
        failures.append(
            f"state is no prefix of the {len(actions)} actions at or after the {durable} reported durable: "
            + "; ".join(compare(snapshot, closest))
        )
    return TrialResult("marks", number, delay, run.killed, failures), snapshot


def run_marks_trials(root: Path, trials: int, rng: random.Random) -> list[TrialResult]:
    results = []
    data_dir = root / "marks-data"
    base = Snapshot(set(), set(), set(), {})
    for number in range(trials):
        if number % MARKS_RESET_EVERY == 0:
            shutil.rmtree(data_dir, ignore_errors=True)
            base, _ = check_data_dir(data_dir)
        result, base = marks_trial(data_dir, base, number, rng)
        results.append(result)
    return results


def run_refresh_trials(root: Path, trials: int, rng: random.Random, *, entries: int = 150) -> list[TrialResult]:
    with refresh_bench(root / "refresh", entries=entries) as bench:
        return [refresh_trial(bench, number, rng) for number in range(trials)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stress_kill.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=200, help="trials in all, shared between the kinds")
    parser.add_argument("--kinds", default="refresh,marks", help="comma-separated: refresh, marks")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--entries", type=int, default=150, help="entries per served feed")
    parser.add_argument("--work", type=Path, help="keep data directories here (default: a temporary directory)")
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if not kinds or set(kinds) - {"refresh", "marks"}:
        parser.error("--kinds takes refresh and/or marks")
    rng = random.Random(args.seed)
    root = args.work or Path(tempfile.mkdtemp(prefix="feedtui-kill-"))
    root.mkdir(parents=True, exist_ok=True)
    per_kind = [args.trials // len(kinds) + (1 if i < args.trials % len(kinds) else 0) for i in range(len(kinds))]
    results: list[TrialResult] = []
    started = time.perf_counter()
    try:
        for kind, count in zip(kinds, per_kind):
            if kind == "refresh":
                results += run_refresh_trials(root, count, rng, entries=args.entries)
            else:
                results += run_marks_trials(root, count, rng)
    finally:
        if args.work is None:
            shutil.rmtree(root, ignore_errors=True)
    failures = [r for r in results if r.failures]
    print(f"trials {len(results)}, failures {len(failures)}")
    for kind in kinds:
        mine = [r for r in results if r.kind == kind]
        killed = sum(r.killed for r in mine)
        print(f"  {kind}: {len(mine)} trials, {killed} killed mid-run, {sum(1 for r in mine if r.failures)} failed")
    print(f"  {time.perf_counter() - started:.0f} s")
    for result in failures:
        for failure in result.failures[:5]:
            print(f"  {result.kind} trial {result.number} (killed after {result.killed_after:.2f} s): {failure}")
        if len(result.failures) > 5:
            print(f"  {result.kind} trial {result.number}: … and {len(result.failures) - 5} more")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
