"""The reader refreshing onto a disk that is full, or a data directory remounted read-only.

    python tests/reader_disk_scenario.py full|readonly MOUNT FEED_1_URL FEED_2_URL

Run by tests/test_disk_faults.py as root inside a private mount namespace, with
MOUNT a small tmpfs of its own (see tests/disk_scenario.py). An engine on
MOUNT/data follows topic A (FEED_1) and topic B (FEED_2), nothing fetched yet;
then the fault, then the reader opens and `R` refreshes both. Prints one JSON
object: the notifications the reader gave and its status line.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.status_line import StatusLine

from tests.disk_scenario import fill, open_engine, remount
from tests.ui.test_app import lines_of, ready, refresh_over


async def refresh_in_the_reader(engine) -> dict:
    app = FeedtuiApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        main = await ready(pilot)
        await pilot.press("R")
        await pilot.pause(0.2)
        await refresh_over(pilot, main, 20.0)
        await pilot.pause(0.2)
        return {
            "notifications": [
                {"message": n.message, "title": n.title, "severity": n.severity} for n in app._notifications
            ],
            "status": lines_of(main.query_one(StatusLine).query_one("#status-text"))[0].rstrip(),
        }


def main(mode: str, mount: Path, feed_1: str, feed_2: str) -> dict:
    engine = open_engine(mount / "data")
    engine.add_topic("Topic A", TopicDefinition(feeds=(feed_1,)))
    engine.add_topic("Topic B", TopicDefinition(feeds=(feed_2,)))
    engine.follow("Topic A")
    engine.follow("Topic B")
    engine.load_library()
    assert engine.state.wait_durable(timeout=5)
    if mode == "full":
        fill(mount)
    else:
        remount(mount, "ro")
    try:
        return asyncio.run(refresh_in_the_reader(engine))
    finally:
        engine.close()


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4])))
