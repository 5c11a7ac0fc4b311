"""The reader under random keys, resizes and clicks, over every screen
(tests/ui/monkey.py). A short run; scripts/monkey.py is the long one.
A failing run is reproduced with FEEDTUI_MONKEY_SEED=<the seed it printed>."""

from __future__ import annotations

import os

from tests.ui import monkey

SEEDS = [int(os.environ["FEEDTUI_MONKEY_SEED"])] if os.environ.get("FEEDTUI_MONKEY_SEED") else [3, 8]
KEYS = 400
EVERY_SCREEN = {
    "MainScreen", "DetailScreen", "HelpScreen", "TopicFormScreen", "PickTopicScreen",
    "GuardedPalette", "Ask", "WelcomeScreen", "ForYou", "AskEverything", "Related",
}


async def test_random_keys_crash_nothing_and_lose_no_mark(tmp_path, monkeypatch):
    """Every seed in one test, so that between them they reach every screen."""
    monkeypatch.setenv("BROWSER", "true")
    reached: set[str] = set()
    for seed in SEEDS:
        print(f"monkey seed {seed} (rerun: FEEDTUI_MONKEY_SEED={seed})")
        data = tmp_path / f"seed-{seed}"
        data.mkdir()
        monkeypatch.setenv("HOME", str(data))
        monkeypatch.chdir(data)
        outcome = await monkey.run(seed, KEYS, data)  # an exception escaping the reader fails here
        assert outcome.keys >= KEYS
        assert outcome.crash_reports == [], f"seed {seed}: {[p.read_text() for p in outcome.crash_reports]}"
        assert outcome.disagreements == [], f"seed {seed}"
        reached |= outcome.screens
    if len(SEEDS) > 1:
        assert EVERY_SCREEN <= reached, f"seeds {SEEDS} never reached: {EVERY_SCREEN - reached}"
