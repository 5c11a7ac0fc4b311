"""A small HTTP/1.1 server on 127.0.0.1 that does exactly what a test tells it.

Each server runs its own asyncio loop in its own thread, so its timestamps and
connection counts are its own, whatever the client under test does with its
loop. Routes are async handlers that answer through a `Reply`: whole responses,
or raw bytes at their own pace (stalls, drips, endless bodies, broken
connections). Servers are stopped, and their handlers cancelled, at teardown.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

import pytest


@dataclass(slots=True)
class Request:
    method: str
    target: str
    headers: dict[str, str]
    # time.monotonic() when the request line arrived.
    arrived: float
    # Serial number of the connection the request came on.
    connection: int

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    @property
    def query(self) -> dict[str, str]:
        return {name: values[-1] for name, values in parse_qs(urlsplit(self.target).query).items()}


class Reply:
    """How a handler answers one request."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        # Close the connection after this exchange.
        self.close = False

    async def send(
        self,
        status: int,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
    ) -> None:
        """A complete response with a Content-Length (unless headers set one)."""
        headers = dict(headers or {})
        if "Content-Length" not in headers and status != 304:
            headers["Content-Length"] = str(len(body))
        await self.head(status, headers)
        await self.raw(body)

    async def head(self, status: int, headers: dict[str, str] | None = None) -> None:
        """The status line and headers only; the body is up to the handler."""
        lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        await self.raw(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    async def raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()


Handler = Callable[[Request, Reply], Awaitable[None]]


@dataclass
class LoopbackServer:
    routes: dict[str, Handler] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    connections_opened: int = 0
    max_connections: int = 0
    max_in_flight: int = 0
    port: int = 0
    # When set, sent as soon as a connection opens, which is then closed: a
    # server that does not speak the protocol the client expects (TLS, say).
    greeting: bytes = b""

    def __post_init__(self) -> None:
        self._open = 0
        self._in_flight = 0
        self._serials = itertools.count(1)
        self._tasks: set[asyncio.Task] = set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def respond(status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None, delay: float = 0.0) -> Handler:
        """A handler that answers every request the same way, after `delay` seconds."""

        async def handler(request: Request, reply: Reply) -> None:
            if delay:
                await asyncio.sleep(delay)
            await reply.send(status, body, headers)

        return handler

    @staticmethod
    def in_turn(*handlers: Handler) -> Handler:
        """Successive requests get successive handlers; the last one repeats."""
        calls = itertools.count()

        async def handler(request: Request, reply: Reply) -> None:
            await handlers[min(next(calls), len(handlers) - 1)](request, reply)

        return handler

    @staticmethod
    def hold_until(count: int, body: bytes = b"", limit: float = 5.0) -> Handler:
        """A handler that holds every request until `count` of them are waiting
        at once (or `limit` seconds pass), then answers 200 with `body`.

        Proves concurrency without depending on how fast the client ramps up."""
        arrived = 0
        opened: asyncio.Event | None = None

        async def handler(request: Request, reply: Reply) -> None:
            nonlocal arrived, opened
            opened = opened or asyncio.Event()
            arrived += 1
            if arrived >= count:
                opened.set()
            try:
                await asyncio.wait_for(opened.wait(), limit)
            except TimeoutError:
                pass
            await reply.send(200, body)

        return handler

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}{path}"

    def route(self, path: str, handler: Handler) -> str:
        """Serve `path` with `handler`; returns the path's full URL."""
        self.routes[path] = handler
        return self.url(path)

    def requests_to(self, path: str) -> list[Request]:
        return [r for r in self.requests if r.path == path]

    def start(self) -> LoopbackServer:
        self._thread.start()
        if not self._ready.wait(5):
            raise RuntimeError("loopback server did not start")
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._shutdown)
        self._thread.join(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=128))
        self._server = server
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
        self._loop.close()

    def _shutdown(self) -> None:
        self._server.close()
        for task in self._tasks:
            task.cancel()
        self._loop.stop()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        serial = next(self._serials)
        self.connections_opened += 1
        self._open += 1
        self.max_connections = max(self.max_connections, self._open)
        try:
            if self.greeting:
                writer.write(self.greeting)
                await writer.drain()
                return
            while await self._exchange(reader, writer, serial):
                pass
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            # Stopped at teardown; ending quietly spares Python 3.11's stream
            # callback from logging the cancellation as an error.
            pass
        finally:
            self._open -= 1
            writer.close()
            self._tasks.discard(task)

    async def _exchange(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, serial: int) -> bool:
        """Read one request and answer it; False when the connection is done."""
        line = await reader.readline()
        if not line.strip():
            return False
        arrived = time.monotonic()
        parts = line.decode("latin-1").split(" ", 2)
        if len(parts) != 3:
            return False
        method, target, _ = parts
        headers: dict[str, str] = {}
        while (header := await reader.readline()).strip():
            name, _, value = header.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        request = Request(method, target, headers, arrived, serial)
        self.requests.append(request)
        reply = Reply(writer)
        self._in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            handler = self.routes.get(request.path, self.respond(404, b"not here"))
            await handler(request, reply)
        finally:
            self._in_flight -= 1
        return not reply.close


@pytest.fixture
def loopback() -> Iterator[Callable[[], LoopbackServer]]:
    """A factory of started loopback servers (each its own host:port)."""
    servers: list[LoopbackServer] = []

    def start() -> LoopbackServer:
        server = LoopbackServer().start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def unanswered_port() -> Iterator[int]:
    """A loopback port whose accept queue is full, so new connections hang in the handshake."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        try:
            filler.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        fillers.append(filler)
    time.sleep(0.05)
    yield port
    for sock in fillers + [listener]:
        sock.close()
