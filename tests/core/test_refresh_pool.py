"""A refresh that expects bodies prepares its parse pool once its requests
are out (PREPARE_AFTER_S after they begin), so the imports and compiled
topics are ready by the first answer;
the workers are forked by the first body large enough to need them. A
refresh of 304s prepares nothing, a refresh of small bodies forks nothing,
and a refresh cancelled mid-preparation still forgets its topics."""

from __future__ import annotations

import asyncio
import os
import threading
import time

from pytest_httpserver import HTTPServer
from werkzeug import Response

from feedtui.core import fetch as refresh
from feedtui.cpu_pool import POOL_MIN_BYTES
from feedtui.model import TopicDefinition
from feedtui.topics import tagging
from tests.core.test_refresh_unchanged import ETAG, engine_at, feed

FORKS = [0]
os.register_at_fork(after_in_parent=lambda: FORKS.__setitem__(0, FORKS[0] + 1))


def watch_preparations(monkeypatch) -> threading.Event:
    """Set once a pool's topics are registered in this process."""
    prepared = threading.Event()
    real = refresh.register_topics

    def register(token, specs):
        real(token, specs)
        prepared.set()

    monkeypatch.setattr(refresh, "register_topics", register)
    return prepared


def serve(httpserver, body: bytes, etag: str | None, before_answer=lambda: None) -> str:
    def answer(request):
        if etag and request.headers.get("If-None-Match") == etag:
            return Response(status=304, headers={"ETag": etag})
        before_answer()
        headers = {"Content-Type": "application/rss+xml", **({"ETag": etag} if etag else {})}
        return Response(body, headers=headers)

    httpserver.expect_request("/feed.xml").respond_with_handler(answer)
    return httpserver.url_for("/feed.xml")


async def test_the_pool_is_prepared_before_the_first_answer_and_not_for_304s(tmp_path, httpserver, monkeypatch):
    prepared = watch_preparations(monkeypatch)
    body = feed(400)
    assert len(body) >= POOL_MIN_BYTES  # parsed by the workers
    ready_before_answer: list[bool] = []
    url = serve(httpserver, body, ETAG, lambda: ready_before_answer.append(prepared.wait(5)))
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Pooled", TopicDefinition(feeds=(url,)))
    engine.follow("Pooled")
    forks = FORKS[0]
    assert (await engine.refresh()).new_papers == 400
    assert ready_before_answer == [True]
    assert FORKS[0] > forks

    prepared.clear()
    forks = FORKS[0]
    report = await engine.refresh(force=True)
    assert [(s.ok, s.not_modified) for s in report.sources] == [(True, True)]
    assert not prepared.is_set() and FORKS[0] == forks
    engine.close()


async def test_the_requests_go_out_before_the_pool_prepares(tmp_path, monkeypatch):
    """Preparing holds the interpreter for 0.1-0.3 s: begun with the requests,
    it spread 50 of them over 0.2 s instead of 0.05 s. It begins once they are
    out, and still before the answers (which here come a second later)."""
    monkeypatch.setattr(refresh, "PREPARE_AFTER_S", 0.5)
    began: list[float] = []
    real = refresh.register_topics

    def register(token, specs):
        began.append(time.monotonic())
        real(token, specs)

    monkeypatch.setattr(refresh, "register_topics", register)
    arrived: list[float] = []

    def answer(request):
        arrived.append(time.monotonic())
        time.sleep(1.0)
        body = feed(3).replace(b"unchanged-", request.path.encode() + b"-")
        return Response(body, headers={"Content-Type": "application/rss+xml"})

    server = HTTPServer(threaded=True)
    server.start()
    try:
        engine = engine_at(tmp_path / "data")
        for name in ("A", "B", "C"):
            server.expect_request(f"/{name}.xml").respond_with_handler(answer)
            engine.add_topic(f"Feed {name}", TopicDefinition(feeds=(server.url_for(f"/{name}.xml"),)))
            engine.follow(f"Feed {name}")
        report = await engine.refresh()
        engine.close()
    finally:
        server.clear()
        server.stop()
    assert report.new_papers == 9
    assert len(arrived) == 3 and len(began) == 1
    assert max(arrived) < began[0] < min(arrived) + 1.0


async def test_small_bodies_fork_no_workers(tmp_path, httpserver, monkeypatch):
    prepared = watch_preparations(monkeypatch)
    url = serve(httpserver, feed(3), etag=None)  # no validators: a body every time
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Small", TopicDefinition(feeds=(url,)))
    engine.follow("Small")
    forks = FORKS[0]
    for _ in range(2):
        assert (await engine.refresh(force=True)).sources[0].ok
    assert prepared.is_set() and FORKS[0] == forks
    engine.close()


async def test_topics_prepared_after_a_cancelled_close_are_still_forgotten(monkeypatch):
    release = threading.Event()
    registered: list[int] = []
    real = refresh.register_topics

    def slow_register(token, specs):
        release.wait(5)
        real(token, specs)
        registered.append(token)

    monkeypatch.setattr(refresh, "register_topics", slow_register)
    parser = refresh.Parser([])
    parser.start()
    closing = asyncio.ensure_future(parser.close())
    await asyncio.sleep(0.05)
    assert not closing.done()  # waiting for the preparation, in a thread
    closing.cancel()
    release.set()
    for _ in range(250):
        if registered and parser.token not in tagging._REGISTERED:
            break
        await asyncio.sleep(0.02)
    assert registered == [parser.token]
    assert parser.token not in tagging._REGISTERED


async def test_storing_compiles_the_topics_off_the_event_loop(tmp_path, httpserver, monkeypatch):
    """Parsing and compiling every topic's query (100 ms the first time, for
    the catalogue) happens in a thread, never on the loop that runs the reader."""
    from feedtui.core import refresh as engine_module

    threads: list[threading.Thread] = []
    real = engine_module.build_matchers

    def build(entries):
        threads.append(threading.current_thread())
        return real(entries)

    monkeypatch.setattr(engine_module, "build_matchers", build)
    url = serve(httpserver, feed(3), ETAG)
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Small", TopicDefinition(feeds=(url,)))
    engine.follow("Small")
    assert (await engine.refresh()).new_papers == 3
    assert threads and threading.main_thread() not in threads
    assert engine.topic_positions("Small")
