"""A loopback-only HTTP server for a folder of feeds, with latency and validators.

    python bench/server.py FEEDS_DIR --latency-ms 200 --port 0 --port-file P [--gzip] [--log F]

Every response (200, 304 or 404) waits `--latency-ms` before it is written, to
stand in for a distant server's round trip; the sleep happens in the
request's own thread, so concurrent requests overlap like real ones. Files get
a strong ETag (a hash of the bytes) and a Last-Modified (the file's mtime);
If-None-Match, else If-Modified-Since, turns a match into a 304 with no body.
With `--gzip`, clients that accept gzip get the body compressed (and their
own ETag). TCP_NODELAY is set on every connection: without it, the client's
delayed ACK holds the last segment of each response for about 40 ms.

`GET /__stats` answers JSON counters (requests, by status, body bytes, gzip
and conditional requests, the most connections and requests open at once,
per-path counts); `GET /__reset` zeroes them. Neither is counted nor delayed.
`--log FILE` appends one JSON line per counted request, stamped on arrival
(`arrived`, seconds since the epoch; `arrived_mono`, CLOCK_MONOTONIC).

Query strings never affect which file is served: `/feed-007.xml?search_query=x`
is `feed-007.xml`. Only 127.0.0.0/8 and ::1 may be bound; anything else is
refused. The server stops by itself after `--max-seconds` (default 3600).

From Python: `with FeedServer(folder, latency_ms=200) as server: server.url("feed-000.xml")`.
"""

from __future__ import annotations

import argparse
import email.utils
import gzip
import hashlib
import ipaddress
import json
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

CONTROL_PATHS = ("/__stats", "/__reset")


class NotLoopback(ValueError):
    pass


def loopback_address(host: str) -> str:
    """The address to bind for `host`, or NotLoopback: only 127.0.0.0/8 and ::1."""
    if host == "localhost":
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise NotLoopback(f"{host!r} is not an IP address; give 127.0.0.1 (or another 127.x.y.z) or ::1") from None
    if not address.is_loopback:
        raise NotLoopback(f"refusing to bind {host}: this server only listens on loopback (127.0.0.0/8 or ::1)")
    return str(address)


@dataclass(frozen=True, slots=True)
class Representation:
    """One file as served: its bytes, validators and (lazily) its gzip form."""

    body: bytes
    etag: str
    mtime: float
    content_type: str

    @property
    def last_modified(self) -> str:
        return email.utils.formatdate(self.mtime, usegmt=True)


def _content_type(name: str, head: bytes) -> str:
    if name.endswith((".xml", ".atom", ".rss")):
        if b"<rss" in head or b"<rdf:RDF" in head:
            return "application/rss+xml; charset=utf-8"
        if b"<feed" in head:
            return "application/atom+xml; charset=utf-8"
        return "application/xml; charset=utf-8"
    if name.endswith(".json"):
        return "application/json"
    return "application/octet-stream"


class FileCatalog:
    """Reads files under a root on demand; re-reads one when its mtime or size changes."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._lock = threading.Lock()
        self._cache: dict[Path, tuple[tuple[float, int], Representation]] = {}
        self._gzipped: dict[str, bytes] = {}

    def lookup(self, url_path: str) -> Representation | None:
        relative = unquote(url_path).lstrip("/")
        if not relative:
            return None
        candidate = (self.root / relative).resolve()
        if not candidate.is_relative_to(self.root) or not candidate.is_file():
            return None
        stat = candidate.stat()
        key = (stat.st_mtime, stat.st_size)
        with self._lock:
            cached = self._cache.get(candidate)
            if cached and cached[0] == key:
                return cached[1]
        body = candidate.read_bytes()
        representation = Representation(
            body=body,
            etag='"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"',
            mtime=stat.st_mtime,
            content_type=_content_type(candidate.name, body[:512]),
        )
        with self._lock:
            self._cache[candidate] = (key, representation)
        return representation

    def gzipped(self, representation: Representation) -> bytes:
        with self._lock:
            packed = self._gzipped.get(representation.etag)
        if packed is None:
            packed = gzip.compress(representation.body, compresslevel=6, mtime=0)
            with self._lock:
                self._gzipped[representation.etag] = packed
        return packed


@dataclass(slots=True)
class Counters:
    since: float = field(default_factory=time.time)
    requests: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    body_bytes: int = 0
    gzip_responses: int = 0
    conditional_requests: int = 0
    open_connections: int = 0
    max_connections: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    by_path: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "since": self.since,
            "requests": self.requests,
            "by_status": dict(sorted(self.by_status.items())),
            "body_bytes": self.body_bytes,
            "gzip_responses": self.gzip_responses,
            "conditional_requests": self.conditional_requests,
            "open_connections": self.open_connections,
            "max_connections": self.max_connections,
            "in_flight": self.in_flight,
            "max_in_flight": self.max_in_flight,
            "by_path": dict(sorted(self.by_path.items())),
        }


class _LoopbackHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def __init__(self, address: tuple[str, int], feed_server: FeedServer) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.feed_server = feed_server
        super().__init__(address, _FeedRequestHandler)


class _FeedRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "feedtui-bench/1"
    server: _LoopbackHTTPServer

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server.feed_server._connection_opened()

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.feed_server._connection_closed()

    def log_message(self, format: str, *args) -> None:  # the JSON log replaces stderr lines
        pass

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _answer(self, send_body: bool) -> None:
        feed_server = self.server.feed_server
        path = urlsplit(self.path).path
        if path in CONTROL_PATHS:
            if path == "/__reset":
                feed_server.reset()
            self._send_json(feed_server.stats())
            return
        arrived, arrived_mono = time.time(), time.monotonic()
        feed_server._request_started()
        try:
            status, sent, gzipped = self._serve_file(path, send_body, feed_server)
        finally:
            feed_server._request_finished()
        feed_server._record(
            {
                "arrived": round(arrived, 6),
                "arrived_mono": round(arrived_mono, 6),
                "ms": round((time.monotonic() - arrived_mono) * 1000, 2),
                "method": self.command,
                "path": self.path,
                "status": status,
                "bytes": sent,
                "gzip": gzipped,
                "if_none_match": self.headers.get("If-None-Match"),
                "if_modified_since": self.headers.get("If-Modified-Since"),
                "user_agent": self.headers.get("User-Agent"),
            },
            path,
        )

    def _serve_file(self, path: str, send_body: bool, feed_server: FeedServer) -> tuple[int, int, bool]:
        if feed_server.latency_s:
            time.sleep(feed_server.latency_s)
        representation = feed_server.catalog.lookup(path)
        if representation is None:
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if send_body:
                self.wfile.write(body)
            return 404, len(body) if send_body else 0, False
        use_gzip = feed_server.gzip and "gzip" in self.headers.get("Accept-Encoding", "").lower()
        etag = representation.etag[:-1] + '-gz"' if use_gzip else representation.etag
        if self._not_modified(etag, representation):
            self.send_response(304)
            self._send_validators(etag, representation)
            self.end_headers()
            return 304, 0, False
        body = feed_server.catalog.gzipped(representation) if use_gzip else representation.body
        self.send_response(200)
        self.send_header("Content-Type", representation.content_type)
        self.send_header("Content-Length", str(len(body)))
        if use_gzip:
            self.send_header("Content-Encoding", "gzip")
        self._send_validators(etag, representation)
        self.end_headers()
        if send_body:
            self.wfile.write(body)
        return 200, len(body) if send_body else 0, use_gzip

    def _send_validators(self, etag: str, representation: Representation) -> None:
        if self.server.feed_server.etags:
            self.send_header("ETag", etag)
        if self.server.feed_server.last_modified:
            self.send_header("Last-Modified", representation.last_modified)
        if self.server.feed_server.gzip:
            self.send_header("Vary", "Accept-Encoding")

    def _not_modified(self, etag: str, representation: Representation) -> bool:
        """RFC 9110: If-None-Match (weak comparison) wins; If-Modified-Since only without it."""
        feed_server = self.server.feed_server
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            if not feed_server.etags:
                return False
            offered = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
            return "*" in offered or etag in offered
        if_modified_since = self.headers.get("If-Modified-Since")
        if if_modified_since and feed_server.last_modified:
            try:
                since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
            except (TypeError, ValueError):
                return False
            return int(representation.mtime) <= since
        return False

    def _send_json(self, data: dict) -> None:
        body = (json.dumps(data, indent=1) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class FeedServer:
    """The server as a library: start() in a background thread, stop() when done."""

    def __init__(
        self,
        root: str | os.PathLike,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        latency_ms: float = 0.0,
        gzip: bool = False,
        etags: bool = True,
        last_modified: bool = True,
        log_path: str | os.PathLike | None = None,
    ) -> None:
        self.host = loopback_address(host)
        self.requested_port = port
        self.latency_s = max(0.0, latency_ms) / 1000.0
        self.gzip = gzip
        self.etags = etags
        self.last_modified = last_modified
        self.catalog = FileCatalog(Path(root))
        self._log_path = Path(log_path) if log_path else None
        self._log_file = None
        self._lock = threading.Lock()
        self._counters = Counters()
        self._httpd: _LoopbackHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -----------------------------------------------------
    def start(self) -> FeedServer:
        if not self.catalog.root.is_dir():
            raise FileNotFoundError(f"not a directory: {self.catalog.root}")
        if self._log_path:
            self._log_file = self._log_path.open("a", encoding="utf-8")
        self._httpd = _LoopbackHTTPServer((self.host, self.requested_port), self)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1}, name="feed-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def __enter__(self) -> FeedServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running")
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def url(self, name: str) -> str:
        return self.base_url + name.lstrip("/")

    # --- counters ------------------------------------------------------
    def stats(self) -> dict:
        with self._lock:
            return self._counters.to_json()

    def reset(self) -> None:
        with self._lock:
            fresh = Counters(open_connections=self._counters.open_connections, in_flight=self._counters.in_flight)
            fresh.max_connections, fresh.max_in_flight = fresh.open_connections, fresh.in_flight
            self._counters = fresh

    def _connection_opened(self) -> None:
        with self._lock:
            c = self._counters
            c.open_connections += 1
            c.max_connections = max(c.max_connections, c.open_connections)

    def _connection_closed(self) -> None:
        with self._lock:
            self._counters.open_connections = max(0, self._counters.open_connections - 1)

    def _request_started(self) -> None:
        with self._lock:
            c = self._counters
            c.in_flight += 1
            c.max_in_flight = max(c.max_in_flight, c.in_flight)

    def _request_finished(self) -> None:
        with self._lock:
            self._counters.in_flight = max(0, self._counters.in_flight - 1)

    def _record(self, entry: dict, path: str) -> None:
        status = str(entry["status"])
        line = json.dumps(entry, ensure_ascii=False) + "\n" if self._log_file else ""
        with self._lock:
            c = self._counters
            c.requests += 1
            c.by_status[status] = c.by_status.get(status, 0) + 1
            c.body_bytes += entry["bytes"]
            c.gzip_responses += int(entry["gzip"])
            c.conditional_requests += int(bool(entry["if_none_match"] or entry["if_modified_since"]))
            c.by_path[path] = c.by_path.get(path, 0) + 1
            if self._log_file:
                self._log_file.write(line)
                self._log_file.flush()


def write_port_file(path: Path, port: int) -> None:
    """Atomically, so a process polling for the file never reads half of it."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(f"{port}\n", encoding="ascii")
    os.replace(partial, path)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="server.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="directory whose files are served")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind (127.0.0.0/8 or ::1)")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (default)")
    parser.add_argument("--port-file", type=Path, help="write the port number here once listening")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay before every response")
    parser.add_argument("--gzip", action="store_true", help="gzip bodies for clients that accept it")
    parser.add_argument("--no-etag", action="store_true")
    parser.add_argument("--no-last-modified", action="store_true")
    parser.add_argument("--log", type=Path, help="append one JSON line per request")
    parser.add_argument("--max-seconds", type=float, default=3600.0, help="stop after this long (0: never)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        server = FeedServer(
            args.folder, host=args.host, port=args.port, latency_ms=args.latency_ms, gzip=args.gzip,
            etags=not args.no_etag, last_modified=not args.no_last_modified, log_path=args.log,
        ).start()
    except (NotLoopback, FileNotFoundError, OSError) as error:
        print(f"server.py: {error}", file=sys.stderr)
        return 2
    if args.port_file:
        write_port_file(args.port_file, server.port)
    print(f"serving {server.catalog.root} at {server.base_url} (latency {args.latency_ms:g} ms, gzip {'on' if args.gzip else 'off'})", flush=True)
    stop = threading.Event()
    try:
        stop.wait(args.max_seconds if args.max_seconds > 0 else None)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
