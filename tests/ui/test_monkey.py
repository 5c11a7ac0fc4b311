"""The reader under random keys, resizes and clicks, over every screen
(tests/ui/monkey.py). A short run; scripts/monkey.py is the long one.
A failing run is reproduced with FEEDTUI_MONKEY_SEED=<the seed it printed>."""

from __future__ import annotations

import os

import pytest

from tests.ui import monkey

SEEDS = [int(os.environ["FEEDTUI_MONKEY_SEED"])] if os.environ.get("FEEDTUI_MONKEY_SEED") else [3, 8]
KEYS = 400


EVERY_SCREEN = {
    "MainScreen", "DetailScreen", "HelpScreen", "TopicFormScreen", "PickTopicScreen",
    "GuardedPalette", "Ask", "WelcomeScreen",
}
reached: set[str] = set()


@pytest.mark.parametrize("seed", SEEDS)
async def test_random_keys_crash_nothing_and_lose_no_mark(seed, tmp_path, monkeypatch):
    print(f"monkey seed {seed} (rerun: FEEDTUI_MONKEY_SEED={seed})")
    monkeypatch.setenv("BROWSER", "true")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    outcome = await monkey.run(seed, KEYS, tmp_path)  # an exception escaping the reader fails here
    assert outcome.keys >= KEYS
    assert outcome.crash_reports == [], f"seed {seed}: {[p.read_text() for p in outcome.crash_reports]}"
    assert outcome.disagreements == [], f"seed {seed}"
    reached.update(outcome.screens)
    if seed == SEEDS[-1]:
        assert EVERY_SCREEN <= reached, f"never reached: {EVERY_SCREEN - reached}"
