"""Which followed topics are due for a refresh: each on its own, by when it was
last refreshed, as it is now defined."""

from __future__ import annotations

from datetime import timedelta

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition, utcnow

from tests.core.test_refresh_unchanged import serve


async def test_a_topic_is_due_until_refreshed_and_again_once_redefined_old_or_removed(tmp_path, httpserver):
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
    # Gone's failure was reported; it is tried again in refresh_age_hours, not at every check.
    assert engine.stale_followed() == []

    engine.add_topic("Later", TopicDefinition(feeds=(good,)))
    engine.follow("Later")
    assert engine.stale_followed() == ["Later"]  # followed since: never fetched, so due now
    await engine.refresh(["Later"])
    assert engine.stale_followed() == []

    now[0] += timedelta(hours=7)
    assert engine.stale_followed() == ["Answers", "Gone", "Later"]  # older than refresh_age_hours
    await engine.refresh(["Answers", "Later"])
    assert engine.stale_followed() == ["Gone"]
    engine.edit_topic("Answers", query="abs:paper")
    assert engine.stale_followed() == ["Answers", "Gone"]  # what it matches changed
    now[0] -= timedelta(days=1)
    assert "Later" in engine.stale_followed()  # the clock went back: "refreshed" in the future
    engine.remove_topic("Later")
    assert "refreshed:Later" not in engine.state.export()["prefs"]
    engine.close()


async def test_a_refresh_in_which_every_source_failed_leaves_the_topics_due(tmp_path, httpserver):
    httpserver.expect_request("/gone.xml").respond_with_data("no such feed", status=404)
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    engine.add_topic("Gone", TopicDefinition(feeds=(httpserver.url_for("/gone.xml"),)))
    engine.follow("Gone")
    await engine.refresh()
    assert engine.stale_followed() == ["Gone"]  # offline, say: the next check tries again
    engine.close()


async def test_a_refresh_that_fetched_nothing_and_failed_is_not_one_and_a_topic_removed_meanwhile_stays_gone(tmp_path, httpserver):
    """"Already fetched today" is no fetch: with it and a refused connection the
    refresh was offline. A topic removed while its refresh ran gets no
    refreshed: record back (re-added, it would wait refresh_age_hours empty)."""
    from feedtui.model import TopicDefinition

    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    engine.add_topic("Refused", TopicDefinition(feeds=("http://127.0.0.1:9/feed.xml",)))
    engine.follow("Refused")
    report = await engine.refresh()
    assert not any(s.ok for s in report.sources)
    assert engine.stale_followed() == ["Refused"]

    good = serve(httpserver, 1)
    engine.add_topic("Brief", TopicDefinition(feeds=(good,)))
    engine.follow("Brief")
    original = engine.refresh

    async def removed_meanwhile(*args, **kwargs):
        engine.remove_topic("Brief")  # before the refresh records anything
        return await original(*args, **kwargs)

    entries = [engine.topic("Brief")]
    engine.followed = lambda: entries  # the refresh works on the topics as they were when it began
    await removed_meanwhile()
    assert "refreshed:Brief" not in engine.state.export()["prefs"]
    engine.close()
