"""A refresh that expects bodies starts its parse pool while the requests are
out, so preparing it (imports, compiled topics, the fork) overlaps the wait
for the first answer; a refresh of 304s never starts one."""

from __future__ import annotations

import threading

from werkzeug import Response

from feedtui.cpu_pool import CpuPool
from feedtui.model import TopicDefinition
from tests.test_refresh_unchanged import ETAG, engine_at, feed


async def test_the_pool_is_ready_before_the_first_answer_and_not_started_for_304s(tmp_path, httpserver, monkeypatch):
    started = threading.Event()
    real_start = CpuPool.start

    async def start(self):
        await real_start(self)
        started.set()

    monkeypatch.setattr(CpuPool, "start", start)
    body = feed(3)
    ready_before_answer: list[bool] = []

    def answer(request):
        if request.headers.get("If-None-Match") == ETAG:
            return Response(status=304, headers={"ETag": ETAG})
        ready_before_answer.append(started.wait(5))
        return Response(body, headers={"ETag": ETAG, "Content-Type": "application/rss+xml"})

    httpserver.expect_request("/feed.xml").respond_with_handler(answer)
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Pooled", TopicDefinition(feeds=(httpserver.url_for("/feed.xml"),)))
    engine.follow("Pooled")
    assert (await engine.refresh()).new_papers == 3
    assert ready_before_answer == [True]

    started.clear()
    report = await engine.refresh(force=True)
    assert [(s.ok, s.not_modified) for s in report.sources] == [(True, True)]
    assert not started.is_set()
    engine.close()
