"""The arXiv contract under load, on the server's own request log: however many
topics are followed and however a refresh is interrupted and started again,
two requests to arXiv hosts start at least `min_interval` apart and never
overlap — across both runs."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bench.feeds import FeedSetSpec, render_feed
from bench.server import FeedServer
from feedtui.config import load_config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition

from tests.atom import Entry, api_feed

CATEGORIES = ("cs.DC", "cs.AR", "cs.LG", "cs.PF", "cs.OS", "cs.NI")
QUERY_TOPICS = 30
SRC = Path(__file__).resolve().parents[1] / "src"


@dataclass
class Request:
    path: str
    started: float  # time.monotonic() when the request line arrived
    ended: float | None = None  # when the answer was written (None: the client went away)


class ArxivStandIn:
    """A loopback "arXiv" that logs every request the moment it arrives (a
    request whose client is killed mid-answer is logged too), answers after
    `latency` seconds, and counts the connections its clients hold at once.

    A connection counts as held until its client hangs up, not until this
    server's thread for it notices: that thread may be asleep in `latency` or
    held up by the test process's garbage collector, while the client has
    already closed its socket and opened the next one."""

    def __init__(self, root: Path, latency: float) -> None:
        self.root = root
        self.latency = latency
        self.requests: list[Request] = []
        self.max_connections = 0
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                with stand_in._lock:
                    stand_in._open = {c for c in stand_in._open if not hung_up(c)} | {self.connection}
                    stand_in.max_connections = max(stand_in.max_connections, len(stand_in._open))

            def finish(self) -> None:
                try:
                    super().finish()
                finally:
                    with stand_in._lock:
                        stand_in._open.discard(self.connection)

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                request = Request(self.path, time.monotonic())
                with stand_in._lock:
                    stand_in.requests.append(request)
                time.sleep(stand_in.latency)
                path = stand_in.root / urlsplit(self.path).path.lstrip("/")
                body = path.read_bytes() if path.is_file() else b"not found"
                self.send_response(200 if path.is_file() else 404)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                request.ended = time.monotonic()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # killed clients reset connections
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{name}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def in_flight(self) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.ended is None)


def hung_up(connection: socket.socket) -> bool:
    """True once the client has closed its end: the kernel holds its FIN (or
    reset) for this socket, whatever the thread serving it is doing."""
    try:
        return connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def serve_arxiv(root: Path, latency: float):
    """Every API page is the same 5 recent papers out of 15 (so a query takes
    three pages of 5), and one category feed answers for all the categories."""
    (root / "api").mkdir(parents=True)
    (root / "rss").mkdir()
    recent = datetime.now(UTC) - timedelta(days=1)
    entries = [
        Entry(f"2611.{n:05d}", title=f"Scalable widget {n}", published=(recent - timedelta(hours=n)).strftime("%Y-%m-%dT%H:%M:%SZ"))
        for n in range(1, 6)
    ]
    (root / "api" / "query").write_bytes(api_feed(entries, total=15))
    spec = FeedSetSpec(1, 5, 3, recent.replace(hour=0, minute=0, second=0, microsecond=0), weeks=1, style="rss")
    (root / "rss" / "+".join(CATEGORIES)).write_bytes(render_feed(spec, 0))
    return ArxivStandIn(root, latency)


@pytest.fixture
def other_host(tmp_path):
    """A feed on another host, which is fetched alongside arXiv, not in its lane."""
    served = tmp_path / "other"
    served.mkdir()
    spec = FeedSetSpec(1, 5, 4, datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0), weeks=2)
    (served / "feed.xml").write_bytes(render_feed(spec, 0))
    with FeedServer(served, latency_ms=50) as server:
        yield server


def setup_data(tmp_path: Path, arxiv: ArxivStandIn, other: FeedServer, interval: float) -> tuple[Path, Path]:
    config = tmp_path / "config.toml"
    config.write_text(
        "[general]\nauto_refresh = false\n"
        f'[arxiv]\napi_url = "{arxiv.url("api/query")}"\nrss_url = "{arxiv.url("rss/")}"\n'
        f"min_interval = {interval}\npage_size = 5\n"
    )
    data = tmp_path / "data"
    engine = Engine(load_config(config), data, background_writes=False)
    for n in range(QUERY_TOPICS):
        engine.add_topic(f"Query {n}", TopicDefinition(query=f'abs:"widget variant {n}" OR ti:gadget{n}'))
        engine.follow(f"Query {n}")
    for category in CATEGORIES:
        engine.add_topic(f"Category {category}", TopicDefinition(categories=(category,)))
        engine.follow(f"Category {category}")
    engine.add_topic("Elsewhere", TopicDefinition(feeds=(other.url("feed.xml"),)))
    engine.follow("Elsewhere")
    engine.close()
    return config, data


def assert_the_contract(arxiv: ArxivStandIn, interval: float) -> None:
    requests = list(arxiv.requests)
    starts = [r.started for r in requests]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert min(gaps) >= interval, [round(g, 3) for g in gaps]
    for before, after in zip(requests, requests[1:]):
        # A request whose client was killed ends when the server gives up on it.
        ended = before.ended if before.ended is not None else before.started + arxiv.latency
        assert ended <= after.started, "two requests to arXiv in flight at once"
    assert arxiv.max_connections == 1


def wait_until(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the refresh never got there")
        time.sleep(0.005)


def mid_request(arxiv: ArxivStandIn, answered: int):
    """True once `answered` requests were answered and the next is in flight."""
    return lambda: len(arxiv.requests) > answered and arxiv.in_flight() == 1


def cli(config: Path, data: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "feedtui", *args, "--data-dir", str(data), "--config", str(config)]


def env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}, "PYTHONPATH": str(SRC)}


RESTART = """\
import asyncio, sys
from pathlib import Path
import feedtui.core.fetch, feedtui.sources.parse.route
from feedtui.config import load_config
from feedtui.core.engine import Engine
engine = Engine(load_config(Path(sys.argv[1])), Path(sys.argv[2]))
engine.load_library()
print("ready", flush=True)
sys.stdin.readline()
report = asyncio.run(engine.refresh(force=True))
engine.close()
print("; ".join(s.error for s in report.sources if not s.ok), file=sys.stderr)
sys.exit(0 if report.ok else 1)
"""


def prewarmed_refresh(config: Path, data: Path) -> subprocess.Popen:
    """A process with the engine open that refreshes the moment a line arrives
    on its stdin: a restart with no start-up delay."""
    restart = subprocess.Popen(
        [sys.executable, "-c", RESTART, str(config), str(data)],
        env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert restart.stdout.readline().strip() == "ready"
    return restart


@pytest.mark.slow
def test_a_refresh_killed_mid_request_and_restarted_keeps_the_pace(tmp_path, other_host):
    """The restart is ready before the kill, so only the pause remembered in the
    data directory keeps it from asking arXiv again at once."""
    interval = 0.3
    arxiv = serve_arxiv(tmp_path / "arxiv", latency=0.1)
    try:
        config, data = setup_data(tmp_path, arxiv, other_host, interval)
        restart = prewarmed_refresh(config, data)
        first = subprocess.Popen(cli(config, data, "refresh", "--force"), env=env(), stderr=subprocess.DEVNULL)
        wait_until(mid_request(arxiv, 2))
        first.send_signal(signal.SIGKILL)
        first.wait()
        killed_at = len(arxiv.requests)
        _, errors = restart.communicate("go\n", timeout=60)
        assert restart.returncode == 0, errors
        assert len(arxiv.requests) >= killed_at + 4
        assert_the_contract(arxiv, interval)
    finally:
        arxiv.stop()


async def test_a_refresh_cancelled_mid_request_and_started_again_keeps_the_pace(tmp_path, other_host):
    interval = 0.3
    arxiv = serve_arxiv(tmp_path / "arxiv", latency=0.1)
    try:
        config, data = setup_data(tmp_path, arxiv, other_host, interval)
        engine = Engine(load_config(config), data)
        task = asyncio.ensure_future(engine.refresh(force=True))
        condition = mid_request(arxiv, 2)
        while not condition():
            await asyncio.sleep(0.005)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        report = await engine.refresh(force=True)
        engine.close()
        assert report.ok, [s.error for s in report.sources if not s.ok]
        assert len(arxiv.requests) >= 7
        assert_the_contract(arxiv, interval)
        assert other_host.stats()["by_path"]["/feed.xml"] >= 1  # fetched too, outside the lane
    finally:
        arxiv.stop()


def test_the_stand_in_counts_connections_their_clients_still_hold(tmp_path):
    """Its own check: a connection left open counts alongside the next one
    even while its thread sleeps; one its client closed does not, although
    the thread serving it has not noticed yet."""
    arxiv = serve_arxiv(tmp_path / "arxiv", latency=1.0)
    port = arxiv.server.server_address[1]
    request = b"GET /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    try:
        closed = socket.create_connection(("127.0.0.1", port))
        closed.sendall(request)
        wait_until(lambda: len(arxiv.requests) == 1)
        closed.close()
        held = socket.create_connection(("127.0.0.1", port))
        held.sendall(request)
        wait_until(lambda: len(arxiv.requests) == 2)
        assert arxiv.max_connections == 1
        second = socket.create_connection(("127.0.0.1", port))
        second.sendall(request)
        wait_until(lambda: len(arxiv.requests) == 3)
        assert arxiv.max_connections == 2
        held.close()
        second.close()
    finally:
        arxiv.stop()
