"""Connection pools: plain and TLS apart, several small pools in place of one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import httpx

# Connections in one of ShardedTransport's pools.
SHARD_CONNECTIONS = 8


class LazyTLSTransport(httpx.AsyncBaseTransport):
    """Routes http and https to two pools; the https one, with full certificate
    verification, is built on the first https request. Loading the CA bundle
    costs CPU that a refresh of plain-http feeds (or a test on 127.0.0.1)
    should not pay."""

    def __init__(self, limits: httpx.Limits) -> None:
        self._limits = limits
        # Only ever given http:// requests, so it never negotiates TLS.
        self._plain = ShardedTransport(limits, verify=False)
        self._tls: ShardedTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "https":
            if self._tls is None:
                self._tls = ShardedTransport(self._limits)
            return await self._tls.handle_async_request(request)
        return await self._plain.handle_async_request(request)

    async def aclose(self) -> None:
        await self._plain.aclose()
        if self._tls is not None:
            await self._tls.aclose()


class ShardedTransport(httpx.AsyncBaseTransport):
    """Several small connection pools in place of one large one.

    httpcore 1.0's pool re-examines every connection for every waiting request
    each time a request starts or ends (`_assign_requests_to_connections`, a
    known quadratic cost: encode/httpcore#1035), which with many requests in
    flight on one pool costs several times the CPU of small pools
    (bench/bench_pool.py measures both). Pools of at most SHARD_CONNECTIONS
    keep it small. A request goes to the pool with the
    fewest requests under way, so no pool is asked for more connections than
    it has while the limit as a whole is kept (the Fetcher's semaphores hold
    requests in flight to `limits.max_connections`)."""

    def __init__(self, limits: httpx.Limits, *, verify: bool = True) -> None:
        # One TLS context for every pool: each pool making its own would load
        # the CA bundle once per pool, on the event loop.
        context = httpx.create_ssl_context(verify=verify)
        total = limits.max_connections or SHARD_CONNECTIONS
        count = max(1, -(-total // SHARD_CONNECTIONS))
        each = -(-total // count)
        kept = limits.max_keepalive_connections
        shard_limits = httpx.Limits(
            max_connections=each,
            max_keepalive_connections=None if kept is None else -(-kept // count),
            keepalive_expiry=limits.keepalive_expiry,
        )
        self._pools = [httpx.AsyncHTTPTransport(limits=shard_limits, verify=context) for _ in range(count)]
        self._busy = [0] * count

    @property
    def pools(self) -> int:
        return len(self._pools)

    @property
    def busy(self) -> list[int]:
        """Requests under way in each pool."""
        return list(self._busy)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        number = min(range(len(self._pools)), key=self._busy.__getitem__)
        self._busy[number] += 1
        try:
            response = await self._pools[number].handle_async_request(request)
        except BaseException:
            self._busy[number] -= 1
            raise
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_CountedStream(response.stream, lambda: self._release(number)),
            extensions=response.extensions,
            request=request,
        )

    def _release(self, number: int) -> None:
        self._busy[number] -= 1

    async def aclose(self) -> None:
        for pool in self._pools:
            await pool.aclose()


class _CountedStream(httpx.AsyncByteStream):
    """A response body that says once when it is closed (its request is then
    no longer under way in its pool)."""

    def __init__(self, stream: httpx.AsyncByteStream, on_close: Callable[[], None]) -> None:
        self._stream = stream
        self._on_close: Callable[[], None] | None = on_close

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            if self._on_close is not None:
                self._on_close, on_close = None, self._on_close
                on_close()
