"""A seeded random-key "monkey" for the reader: bursts of keys (the reader's
own bindings, letters, punctuation, accented and CJK characters, control and
page keys), terminal resizes and mouse clicks, over every screen. Used by
tests/ui/test_monkey.py (a short run) and scripts/monkey.py (a long one).

A run is reproducible from its seed: the same seed sends the same events.
It fails on any exception that escapes the app and on any crash report (the
crash boundary is a last resort, not a fix); afterwards the marks made during
the run must be on disk, as the CLI (a real process) reads them.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from textual import events
from textual.errors import NoWidget
from textual.pilot import OutOfBounds

from feedtui.config import Config
from feedtui.core.engine import open_engine
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.crash import CRASH_DIR
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW, STARRED_VIEW
from feedtui.ui.screens.detail import DetailScreen
from feedtui.ui.screens.pick_topic import PickTopicScreen
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.related_papers import RelatedPapers

SRC = Path(__file__).resolve().parents[2] / "src"

# Keys from the reader's bindings and what a hurried user types besides.
BOUND = (
    "f m M n u s o O c b t slash a E D r R S tab J K ctrl+f escape enter e j k g G home end "
    "pagedown pageup space ctrl+d ctrl+u up down question_mark ctrl+p ctrl+z y backspace "
    "shift+tab left right delete A w W l plus minus"
).split()
TYPED = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ0123456789") + list("éüßçñ中文論文") + [
    "comma", "full_stop", "exclamation_mark", "colon", "semicolon", "quotation_mark",
    "apostrophe", "left_parenthesis", "right_parenthesis", "minus", "plus", "asterisk",
]
CONTROL = ["ctrl+a", "ctrl+e", "ctrl+k", "ctrl+w", "ctrl+c", "ctrl+l", "ctrl+n", "f1"]
CHARACTERS = {
    "comma": ",", "full_stop": ".", "exclamation_mark": "!", "colon": ":", "semicolon": ";",
    "quotation_mark": '"', "apostrophe": "'", "left_parenthesis": "(", "right_parenthesis": ")",
    "minus": "-", "plus": "+", "asterisk": "*", "slash": "/", "question_mark": "?", "space": " ",
}


@dataclass
class Outcome:
    seed: int
    keys: int = 0
    resizes: int = 0
    clicks: int = 0
    sessions: int = 0
    screens: set[str] = field(default_factory=set)
    crash_reports: list[Path] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)


# What opens each screen (or view) from the main one: an action, or keys.
OPENERS = (
    "app.welcome", "app.help", "app.command_palette", "screen.add_topic", "screen.tag_jump",
    "screen.ask", "detail", "picker", ("J", "enter"), "screen.ask_everything", "for_you", "related",
)


def note_screens(app: FeedtuiApp, outcome: Outcome) -> None:
    """The screens open, and the views of the main one and the detail's
    that the coverage check names: the Ask box, For you, Ask everything,
    and the detail view's related papers chosen among (`l`)."""
    outcome.screens.update(type(screen).__name__ for screen in app.screen_stack)
    focused = app.focused
    if focused is not None and focused.id == "ask":
        outcome.screens.add("Ask")
    if isinstance(focused, RelatedPapers):
        outcome.screens.add("Related")
    current = getattr(app.main_screen, "current", None)
    if current == FOR_YOU_VIEW:
        outcome.screens.add("ForYou")
    elif current == EVERYTHING_VIEW:
        outcome.screens.add("AskEverything")


def key_event(key: str) -> events.Key:
    if len(key) == 1:
        character = key
        if not key.isalnum():
            key = {v: k for k, v in CHARACTERS.items()}.get(key, key)
    else:
        character = CHARACTERS.get(key, "\t" if key == "tab" else "\r" if key == "enter" else "\x1b" if key == "escape" else None)
    return events.Key(key, character)


def pick_key(rng: random.Random) -> str:
    pool = rng.choices((BOUND, TYPED, CONTROL), weights=(70, 25, 5))[0]
    return rng.choice(pool)


def demo_engine(data_dir: Path):
    config = Config()
    config.settings.auto_refresh = False
    engine = open_engine(config, data_dir, demo=True)
    engine.load_library()
    return engine


async def drive(app: FeedtuiApp, rng: random.Random, budget: int, outcome: Outcome) -> None:
    """Random events into a running app until `budget` keys are sent or it quits."""
    async with app.run_test(size=(100, 34)) as pilot:
        main = app.main_screen
        for _ in range(200):
            if main.is_mounted and main.ready:
                break
            await pilot.pause(0.02)
        width, height = 100, 34
        sent = 0
        # Every opener once, early, in an order of the seed's; then now and then.
        tour = rng.sample(OPENERS, len(OPENERS))
        while sent < budget and app.is_running and not app._exit:
            note_screens(app, outcome)
            # Every draw is made at every step, whatever the app's state, so
            # that a seed always sends the same events in the same order.
            roll = rng.random()
            size = rng.randint(20, 160), rng.randint(6, 50)
            spot, times = (rng.random(), rng.random()), rng.choice((1, 1, 2))
            opener, picked = rng.choice(OPENERS), rng.random()
            burst = [pick_key(rng) for _ in range(rng.randint(1, 12))]
            pause = rng.choice((0, 0, 0, 0.01, 0.05))
            if tour and app.screen is main:
                roll = 0.11  # the tour first: each screen is opened once, early
            elif tour:  # a few keys on the screen the tour opened, then back for the next
                burst = [*burst[:3], "escape"]
            if roll < 0.04:
                width, height = size
                await pilot.resize_terminal(width, height)
                outcome.resizes += 1
            elif roll < 0.10:
                try:
                    await pilot.click(offset=(int(spot[0] * width), int(spot[1] * height)), times=times)
                except (NoWidget, OutOfBounds):  # Pilot's own refusal: a terminal would send the click
                    pass
                outcome.clicks += 1
            elif roll < 0.12 and app.screen is main:
                # Straight to a screen the keys reach only now and then (and
                # the welcome, which no key opens once topics are followed).
                opener = tour.pop() if tour else opener
                if opener == "picker":  # as t opens it on a paper in several topics
                    names = [entry.name for entry in app.engine.followed()]
                    app.push_screen(PickTopicScreen(names[: int(picked * (len(names) + 1))]))
                    burst = []
                elif opener in ("detail", "related"):
                    if main.query_one(PaperList).cursor_card is None and (followed := app.engine.followed()):
                        main.go_to_topic(followed[0].name)  # For you or Ask everything may list nothing
                    if (card := main.query_one(PaperList).cursor_card) is not None:
                        main.open_detail(card.paper_id)
                        if opener == "related":
                            await related_chosen(app, pilot, outcome)
                    burst = []
                elif opener == "for_you":
                    main.go_to_topic(FOR_YOU_VIEW)
                    burst = []
                elif isinstance(opener, tuple):
                    burst = list(opener)
                else:
                    if opener == "screen.ask" and main.current in (FOR_YOU_VIEW, STARRED_VIEW) and (followed := app.engine.followed()):
                        main.go_to_topic(followed[0].name)  # / asks nothing there
                    app.call_later(app.run_action, opener)
                    burst = []
            if roll < 0.12 and app.screen is main and not burst:
                await opened(app, pilot, outcome)
            if roll >= 0.10 and burst:
                driver = app._driver
                for key in burst:
                    if not app.is_running or app._exit:
                        break
                    # As the terminal sends them: no wait between the keys of a burst.
                    event = key_event(key)
                    event.set_sender(app)
                    driver.send_message(event)
                    sent += 1
                    outcome.keys += 1
            await pilot.pause(pause)
            note_screens(app, outcome)
        await pilot.pause()
    outcome.sessions += 1


async def opened(app: FeedtuiApp, pilot, outcome: Outcome) -> None:
    """Wait (a second at most) for the screen an opener asked for, and count
    it as reached before the next keys can close it: on a loaded machine the
    screen comes a few frames later, and a screen closed before it was seen
    made the suite's coverage check fail by chance."""
    main = app.main_screen
    for _ in range(50):
        if app.screen is not main or (app.focused is not None and app.focused.id == "ask"):
            break
        await pilot.pause(0.02)
    note_screens(app, outcome)


async def related_chosen(app: FeedtuiApp, pilot, outcome: Outcome) -> None:
    """`l` in the detail view once its related papers are listed (they are
    looked for in the background: five seconds at most, the model loading)."""
    for _ in range(250):
        screen = app.screen
        listed = screen.query(RelatedPapers) if isinstance(screen, DetailScreen) else None
        if listed and listed.first().option_count:
            screen.action_related()
            await pilot.pause()
            note_screens(app, outcome)
            return
        await pilot.pause(0.02)


async def run(seed: int, keys: int, data_root: Path) -> Outcome:
    """`keys` random keys into the demo reader (`feedtui --demo --data-dir data_root`);
    a `q` that quits starts the reader again on the same data, as a user would."""
    os.environ.setdefault("BROWSER", "true")  # o and O launch a program that does nothing
    # The palette's Screenshot saves in ~/Downloads, else the current directory: here, the run's.
    os.environ["HOME"] = str(data_root)
    os.chdir(data_root)
    rng = random.Random(seed)
    outcome = Outcome(seed)
    while outcome.keys < keys:
        engine = demo_engine(data_root / "demo")
        app = FeedtuiApp(engine)
        try:
            await drive(app, rng, keys - outcome.keys, outcome)
            expected = marks_seen_by(engine)
        finally:
            engine.close()
        outcome.disagreements += disagreements(expected, cli_view(data_root))
    outcome.crash_reports = sorted((data_root / "demo" / CRASH_DIR).glob("*"))
    return outcome


def marks_seen_by(engine) -> dict:
    """The reader's own view of the marks: follows and unread counts of every
    topic, and the starred papers."""
    topics = {entry.name: (engine.state.is_following(entry.name), engine.library.unread_count(entry.name)) for entry in engine.topics()}
    return {"topics": topics, "starred": sorted(engine.state.starred_ids())}


def feedtui(*argv: str) -> str:
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-m", "feedtui", *argv], capture_output=True, text=True, env=environment, timeout=120)
    if done.returncode:
        raise AssertionError(f"feedtui {' '.join(argv)}: {done.returncode} {done.stderr}")
    return done.stdout


def cli_view(data_root: Path) -> dict:
    """What `feedtui topics --json` and `feedtui papers Starred --json`, real processes, say."""
    topics = json.loads(feedtui("--demo", "--data-dir", str(data_root), "topics", "--json"))
    starred = json.loads(feedtui("--demo", "--data-dir", str(data_root), "papers", "Starred", "--json"))
    return {
        "topics": {topic["name"]: (topic["following"], topic["unread"]) for topic in topics},
        "starred": sorted(paper["id"] for paper in starred),
    }


def disagreements(reader: dict, cli: dict) -> list[str]:
    found = []
    for name, seen in reader["topics"].items():
        if cli["topics"].get(name) != seen:
            found.append(f"topic {name}: reader (following, unread) {seen}, CLI {cli['topics'].get(name)}")
    if reader["starred"] != cli["starred"]:
        found.append(f"starred: reader {len(reader['starred'])}, CLI {len(cli['starred'])}")
    return found
