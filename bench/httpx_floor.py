"""The floor of figure 2 for any reader built on httpx: a bare process that
imports asyncio and httpx and makes the same conditional GETs, all at once.

    python bench/httpx_floor.py VALIDATORS.json

VALIDATORS.json maps each URL to its ETag. The script exits 1 unless every
answer is 304, and prints one JSON line: the seconds spent importing and
making the requests, measured inside the process (the caller times the
whole process, start to exit, as it times `feedtui refresh`).

It is the cheapest way we found for httpx to do the work: clients of
CLIENT_CONNECTIONS connections each, the URLs dealt round-robin among them
(one client of 50 connections costs more: httpcore re-examines its whole
pool for every request, see bench_pool.py), no TLS context beyond httpx's
unverified one, nothing read or written but the answers. Whatever feedtui's
all-304 refresh takes beyond this is feedtui's own (planning, its data
directory, pacing, saving the validators).
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()

import asyncio  # noqa: E402  (timed: the imports are part of the floor)
import json  # noqa: E402
import sys  # noqa: E402

import httpx  # noqa: E402

IMPORTED = time.perf_counter()


CLIENT_CONNECTIONS = 8


async def conditional_gets(validators: dict[str, str]) -> list[int]:
    count = max(1, -(-len(validators) // CLIENT_CONNECTIONS))
    clients = [httpx.AsyncClient(verify=False, limits=httpx.Limits(max_connections=CLIENT_CONNECTIONS)) for _ in range(count)]

    async def one(client: httpx.AsyncClient, url: str, etag: str) -> int:
        response = await client.get(url, headers={"If-None-Match": etag})
        return response.status_code

    try:
        return await asyncio.gather(*(one(clients[i % count], url, etag) for i, (url, etag) in enumerate(validators.items())))
    finally:
        for client in clients:
            await client.aclose()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: httpx_floor.py VALIDATORS.json", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        validators = json.load(file)
    asked = time.perf_counter()
    statuses = asyncio.run(conditional_gets(validators))
    answered = time.perf_counter()
    print(json.dumps({"imports_s": IMPORTED - STARTED, "requests_s": answered - asked, "statuses": sorted(set(statuses))}))
    return 0 if set(statuses) == {304} else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
