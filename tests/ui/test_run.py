"""Starting the UI: the library is loaded before Textual starts, without a collection."""

from __future__ import annotations

import gc
from datetime import timedelta

from feedtui.ui.run import load_for_app

from tests.factories import make_paper
from tests.ui.conftest import NOW


def test_loading_for_the_app_never_collects_and_freezes_the_rows(make_engine):
    papers = [
        make_paper(f"2611.{number:05d}", title=f"Widget {number}", published=NOW - timedelta(hours=number))
        for number in range(1500)
    ]
    engine = make_engine(papers)
    started: list[int] = []

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.enable()
    # Start with an empty youngest generation: the pause begins with a few
    # allocations, which could otherwise set off a collection just before it.
    gc.collect()
    gc.callbacks.append(watch)
    try:
        load_for_app(engine)
        frozen = gc.get_freeze_count()
        enabled_after = gc.isenabled()
    finally:
        gc.callbacks.remove(watch)
        gc.unfreeze()
        if not was_enabled:
            gc.disable()
    assert len(engine.library.ids) == 1500
    # Collections during the load would walk every row just read, again and again.
    assert started == []
    # Each card row is a list holding several strings: all now out of the collector's way.
    assert frozen > 1500
    assert enabled_after
