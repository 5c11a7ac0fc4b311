"""A long refresh stores what has come every PERIODIC_COMMIT_S and says so,
so the reader can show it before the slowest source has answered — the pages
of an arXiv API query as they come, too."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from feedtui.core import refresh as engine_module
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.core.events import RefreshProgress
from feedtui.model import TopicDefinition
from feedtui.store.files import StoreError
from tests.child_signals import as_from_a_terminal
from tests.held_feeds import held_api, held_feeds, paged_refresh_process


async def test_papers_from_prompt_sources_land_while_a_slow_one_is_still_fetched(tmp_path, monkeypatch):
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    landed: list[tuple[int, int, bool]] = []
    with held_feeds(["Prompt widget one", "Prompt widget two"], ["Late gadget"]) as feeds:
        engine.add_topic("Prompt", TopicDefinition(feeds=(feeds.prompt_url,)))
        engine.add_topic("Held", TopicDefinition(feeds=(feeds.held_url,)))

        def on_landed() -> None:
            library = engine.library
            landed.append((library.unread_count("Prompt"), library.unread_count("Held"), feeds.release.is_set()))

        refresh = asyncio.ensure_future(engine.refresh(["Prompt", "Held"], on_landed=on_landed))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if landed:
                break
        assert landed == [(2, 0, False)]
        # On disk too: another process reading the cache now sees them.
        other = Engine(config, tmp_path / "data", background_writes=False)
        assert len(other.library) == 2
        other.close()
        feeds.release.set()
        report = await refresh
    assert report.new_papers == 3
    # The last step is the caller's to show, as before: no call for it.
    assert len(landed) == 1
    assert engine.library.unread_count("Held") == 1


async def test_a_refresh_stopped_stores_what_it_has_fetched(tmp_path, monkeypatch):
    """The reader quitting mid-refresh stops it: sources that had answered were
    lost until fetched again (the periodic store comes only every 10 s)."""
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 60.0)
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    answered = []
    with held_feeds(["Prompt widget one", "Prompt widget two"], ["Late gadget"]) as feeds:
        engine.add_topic("Prompt", TopicDefinition(feeds=(feeds.prompt_url,)))
        engine.add_topic("Held", TopicDefinition(feeds=(feeds.held_url,)))
        engine.subscribe(answered.append, RefreshProgress)
        refresh = asyncio.ensure_future(engine.refresh(["Prompt", "Held"]))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if answered and feeds.asked.is_set():
                break
        assert [p.label for p in answered if p.ok] and not feeds.release.is_set()
        refresh.cancel()
        with pytest.raises(asyncio.CancelledError):
            await refresh
    engine.close()
    other = Engine(config, tmp_path / "data", background_writes=False)
    assert len(other.library) == 2
    other.close()


async def test_a_refresh_stopped_while_storing_its_last_batch_stores_it_and_says_so(tmp_path, monkeypatch):
    """The stop cut the last store short: its batch was lost, and `stopped_refresh`
    left unset ("0 papers kept")."""
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 60.0)
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    storing, go_on = threading.Event(), threading.Event()
    compile_matchers = engine_module.build_matchers

    def held_compile(entries):
        storing.set()
        go_on.wait(10)
        return compile_matchers(entries)

    with held_feeds(["Prompt widget one", "Prompt widget two"], []) as feeds:
        engine.add_topic("Prompt", TopicDefinition(feeds=(feeds.prompt_url,)))
        monkeypatch.setattr(engine_module, "build_matchers", held_compile)
        refresh = asyncio.ensure_future(engine.refresh(["Prompt"]))
        for _ in range(200):
            await asyncio.sleep(0.05)
            if storing.is_set():
                break
        assert storing.is_set()
        refresh.cancel()
        go_on.set()
        with pytest.raises(asyncio.CancelledError):
            await refresh
    assert engine.stopped_refresh is not None and engine.stopped_refresh.new_papers == 2
    engine.close()
    other = Engine(config, tmp_path / "data", background_writes=False)
    assert len(other.library) == 2
    other.close()


def api_engine(data_dir, api_url: str) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    config.settings.arxiv.api_url = api_url
    config.settings.arxiv.min_interval = 0.01
    config.settings.arxiv.page_size = 10
    engine = Engine(config, data_dir, background_writes=False)
    if "Paged" not in engine.registry:
        engine.add_topic("Paged", TopicDefinition(query="ti:paged"))
    return engine


async def test_pages_of_an_arxiv_query_land_while_its_last_page_is_still_fetched(tmp_path, monkeypatch):
    """The pages of one query waited for the whole query: 50 pages (2.5 minutes) showed nothing."""
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    with held_api(30, held_start=20) as api:
        engine = api_engine(tmp_path / "data", api.url)
        landed: list[tuple[int, bool]] = []

        def on_landed() -> None:
            landed.append((engine.library.unread_count("Paged"), api.release.is_set()))

        refresh = asyncio.ensure_future(engine.refresh(["Paged"], on_landed=on_landed))
        for _ in range(200):
            await asyncio.sleep(0.05)
            if landed and landed[-1][0] == 20:
                break
        assert landed and landed[-1] == (20, False)
        api.release.set()
        report = await refresh
    assert report.ok and report.new_papers == 30
    assert engine.library.unread_count("Paged") == 30
    engine.close()


async def test_a_paper_repeated_on_the_next_page_is_new_once_not_also_updated(tmp_path, monkeypatch):
    """A paper pushed onto the next page by a newcomer was stored again with that
    page's URL among its sources: "20 new, 1 updated" for 20 papers."""
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    with held_api(20, held_start=10, arrivals=1) as api:
        engine = api_engine(tmp_path / "data", api.url)
        landed: list[int] = []
        refresh = asyncio.ensure_future(
            engine.refresh(["Paged"], on_landed=lambda: landed.append(engine.library.unread_count("Paged")))
        )
        for _ in range(200):
            await asyncio.sleep(0.05)
            if landed:
                break
        assert landed == [10]
        api.release.set()
        report = await refresh
    assert report.ok and (report.new_papers, report.updated_papers) == (20, 0)
    assert engine.library.unread_count("Paged") == 20
    engine.close()


async def test_an_arxiv_query_stopped_midway_keeps_its_pages_and_is_asked_for_in_full_next_time(tmp_path, monkeypatch):
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 60.0)
    with held_api(30, held_start=20) as api:
        engine = api_engine(tmp_path / "data", api.url)
        refresh = asyncio.ensure_future(engine.refresh(["Paged"]))
        for _ in range(200):
            await asyncio.sleep(0.05)
            if api.asked.is_set():
                break
        refresh.cancel()
        with pytest.raises(asyncio.CancelledError):
            await refresh
        engine.close()
        other = api_engine(tmp_path / "data", api.url)
        assert other.library.unread_count("Paged") == 20
        assert engine.stopped_refresh is not None and engine.stopped_refresh.new_papers == 20
        # Cut short, the query is not "answered today": asked for again, from the first page.
        api.release.set()
        report = await other.refresh(["Paged"])
    assert report.ok and report.new_papers == 10
    assert other.library.unread_count("Paged") == 30
    other.close()


async def test_a_page_that_could_not_be_saved_is_still_said_when_the_query_then_fails(tmp_path, monkeypatch):
    """The query's own failure replaced "fetched, but could not be saved" in the report they share."""
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    with held_api(30, held_start=20) as api:
        engine = api_engine(tmp_path / "data", api.url)
        store, refused = engine.cache.store, threading.Event()

        def full_disk_once(*args, **kwargs):
            if not refused.is_set():
                refused.set()
                raise StoreError("could not save the cache: the disk is full")
            return store(*args, **kwargs)

        monkeypatch.setattr(engine.cache, "store", full_disk_once)
        api.held_status = 500
        refresh = asyncio.ensure_future(engine.refresh(["Paged"]))
        for _ in range(200):
            await asyncio.sleep(0.05)
            if refused.is_set():
                break
        assert refused.is_set() and not api.release.is_set()
        api.release.set()
        report = await refresh
    [failed] = report.failed
    assert failed.error.startswith("fetched, but could not be saved: could not save the cache: the disk is full; then ")
    assert failed.error.endswith("(while reading results from 20 on)")
    engine.close()


def test_ctrl_c_during_refresh_keeps_the_pages_fetched_and_says_so(tmp_path):
    with held_api(30, held_start=20) as api:
        argv, env, data = paged_refresh_process(tmp_path, api.url)
        process = subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal()
        )
        assert api.asked.wait(30)
        # Said if Ctrl-C goes unheard: how the child and this process treat SIGINT.
        masks = (_signal_masks(process.pid), _signal_masks("self"))
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, (masks, stderr[-2000:])
    assert stderr.strip().splitlines()[-1] == "feedtui: 20 new, 0 updated papers stored before it stopped"
    engine = Engine(Config(), data, background_writes=False)
    assert len(engine.library) == 20
    engine.close()


def _signal_masks(pid) -> list[str]:
    """The Sig* lines of a process's /proc status (blocked, ignored, caught)."""
    try:
        return [line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("Sig")]
    except OSError:
        return []
