"""One-shot commands: run with the cyclic collector off (and leave it as it was); their JSON output."""

from __future__ import annotations

import gc
import json
from datetime import datetime, timedelta

import pytest

from feedtui.cli import dispatch, json_text, main
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition

from tests.factories import make_paper
from tests.gc_watch import collections_started

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
PAPERS = 3000


@pytest.fixture
def cached(tmp_path):
    engine = Engine(Config(), tmp_path / "data", background_writes=False, clock=lambda: NOW)
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.cache.store(
        [
            make_paper(f"2611.{n:05d}", title=f"Widget {n}", abstract=f"Widget number {n}.", published=NOW - timedelta(hours=n))
            for n in range(PAPERS)
        ],
        {},
        NOW,
    )
    engine.close()
    return ["--data-dir", str(tmp_path / "data"), "--config", str(tmp_path / "absent.toml")]


@pytest.fixture
def collections():
    """Collections that start while a command runs (`dispatch._run_command` on the stack)."""
    with collections_started(within=dispatch._run_command.__code__) as started:
        yield started


def test_a_large_listing_runs_without_a_collection(cached, collections, capsys):
    assert main([*cached, "papers", "Widgets", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert len(printed) == PAPERS
    # Thousands of documents read and printed: with the collector on, dozens
    # of collections walking them all.
    assert collections == []
    assert gc.isenabled()


def test_the_collector_comes_back_after_a_failed_command(cached, collections, capsys):
    assert main([*cached, "papers", "No Such Topic"]) == 2
    assert "No Such Topic" in capsys.readouterr().err
    assert gc.isenabled()


def test_a_command_that_ends_the_process_freezes_what_it_built(cached, capsys):
    """`feedtui papers …` as a process: the papers read stay out of the first
    collection after the pause (the exit is next); called in-process, nothing is frozen."""
    gc.unfreeze()
    try:
        assert main([*cached, "papers", "Widgets", "--json"]) == 0
        assert gc.get_freeze_count() == 0
        assert main([*cached, "papers", "Widgets", "--json"], exits_after=True) == 0
        # Frozen before the collector came back on, so the next collection does not walk it.
        assert gc.get_freeze_count() > 0
        assert gc.isenabled()
    finally:
        gc.unfreeze()
    capsys.readouterr()


def test_json_output_is_indented_utf8_and_survives_a_lone_surrogate():
    plain = {"title": "Über widgets", "shares": [0.25, 1], "read": False}
    text = json_text(plain)
    assert json.loads(text) == plain
    assert "Über" in text and "\n  " in text
    # orjson refuses a lone surrogate; the fallback escapes it, so any terminal prints it.
    odd = {"title": "half a pair \ud800"}
    text = json_text(odd)
    assert json.loads(text) == odd
    assert text.isascii()
