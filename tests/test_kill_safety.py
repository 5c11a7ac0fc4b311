"""kill -9 in the middle of a refresh and of a burst of marks: a few trials of
bench/stress_kill.py (which runs hundreds) in real child processes."""

from __future__ import annotations

import random

import orjson
import pytest

from bench.stress_kill import Snapshot, check_data_dir, parse_driver_output, replay, run_marks_trials, run_refresh_trials
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.store.files import file_signature

from tests.factories import make_paper

pytestmark = pytest.mark.slow


def assert_no_failures(results, trials: int) -> None:
    assert len(results) == trials
    assert [f"{r.kind} trial {r.number}: {f}" for r in results for f in r.failures] == []


def test_refresh_killed_at_random_moments(tmp_path):
    results = run_refresh_trials(tmp_path, 5, random.Random(11), entries=30)
    assert_no_failures(results, 5)
    assert sum(r.killed for r in results) >= 3  # most kills land before the refresh ends


def test_marks_killed_at_random_moments(tmp_path):
    results = run_marks_trials(tmp_path, 5, random.Random(12))
    assert_no_failures(results, 5)
    assert all(r.killed for r in results)


def test_the_checks_see_a_lost_durable_mark(tmp_path):
    """The marks check is not vacuous: a mark reported durable but missing fails it."""
    out = b"ready\nop 0 read 2611.00001\napplied 0 1\ndurable 0\nop 1 star 2611.00002\napplied 1 2\n"
    actions, durable = parse_driver_output(out)
    assert durable == 1
    found, failures = check_data_dir(tmp_path / "data")  # an empty directory: the mark is not there
    assert failures == []
    states = list(replay(Snapshot(set(), set(), set(), {}), actions))
    assert found not in states[durable:]
    assert found == states[0]


def test_the_checks_see_a_card_without_its_paper(tmp_path):
    data = tmp_path / "data"
    engine = Engine(Config(), data, background_writes=False)
    engine.cache.store([make_paper("2609.00001"), make_paper("2609.00002")], {})
    engine.close()
    week = data / "cache" / "papers" / "2026-09-28.json"
    cache_meta = data / "cache" / "meta.json"
    # Remove one paper behind feedtui's back, and record the file as feedtui's
    # own so that only the check can notice.
    content = orjson.loads(week.read_bytes())
    del content["papers"]["2609.00002"]
    week.write_bytes(orjson.dumps(content))
    meta = orjson.loads(cache_meta.read_bytes())
    meta["files"]["papers/2026-09-28.json"] = {"sig": list(file_signature(week))}
    cache_meta.write_bytes(orjson.dumps(meta))
    _, failures = check_data_dir(data)
    assert failures == ["card 2609.00002 points at week 2026-09-28, which does not hold it"]
