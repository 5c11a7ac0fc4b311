"""Which followed topics are due for a refresh: each on its own, by when its
sources last answered for the topic as it is now defined."""

from __future__ import annotations

from datetime import timedelta

from feedtui.config import Config
from feedtui.engine import Engine
from feedtui.model import TopicDefinition, utcnow

from tests.test_refresh_unchanged import serve


async def test_a_topic_is_due_until_its_sources_answer_and_again_once_redefined_or_old(tmp_path, httpserver):
    good = serve(httpserver, 2)
    httpserver.expect_request("/gone.xml").respond_with_data("no such feed", status=404)
    config = Config()
    config.settings.auto_refresh = False
    config.settings.refresh_age_hours = 6
    now = [utcnow()]
    engine = Engine(config, tmp_path / "data", background_writes=False, clock=lambda: now[0])
    engine.add_topic("Answers", TopicDefinition(feeds=(good,)))
    engine.add_topic("Gone", TopicDefinition(feeds=(httpserver.url_for("/gone.xml"),)))
    engine.add_topic("Broken", TopicDefinition(query="abs:widget"))
    for name in ("Answers", "Gone", "Broken"):
        engine.follow(name)
    engine.state.put_topic("Broken", {"query": "abs:(widget", "description": ""})  # a query that does not parse
    engine.reload_topics()
    assert engine.stale_followed() == ["Answers", "Gone"]  # never refreshed; a topic with an error never is

    report = await engine.refresh()
    assert [s.ok for s in report.sources if s.url] == [True, False]
    assert engine.stale_followed() == ["Gone"]  # its only source failed

    now[0] += timedelta(hours=5)
    assert engine.stale_followed() == ["Gone"]
    now[0] += timedelta(hours=2)
    assert engine.stale_followed() == ["Answers", "Gone"]  # older than refresh_age_hours

    await engine.refresh(["Answers"])
    assert engine.stale_followed() == ["Gone"]
    engine.edit_topic("Answers", query="abs:paper")
    assert engine.stale_followed() == ["Answers", "Gone"]  # what it matches changed
    now[0] -= timedelta(days=1)
    assert "Answers" in engine.stale_followed()  # the clock went back: "refreshed" in the future
    engine.close()
