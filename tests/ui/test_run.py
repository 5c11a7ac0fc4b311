"""Starting the UI: the library is loaded before Textual starts, without a collection."""

from __future__ import annotations

import gc
from datetime import timedelta

from feedtui.ui.run import load_for_app

from tests.factories import make_paper
from tests.gc_watch import collections_started
from tests.ui.conftest import NOW


def test_loading_for_the_app_never_collects_and_freezes_the_rows(make_engine):
    papers = [
        make_paper(f"2611.{number:05d}", title=f"Widget {number}", published=NOW - timedelta(hours=number))
        for number in range(1500)
    ]
    engine = make_engine(papers)
    with collections_started() as started:
        try:
            load_for_app(engine)
            frozen = gc.get_freeze_count()
            enabled_after = gc.isenabled()
        finally:
            gc.unfreeze()
    assert len(engine.library.ids) == 1500
    # Collections during the load would walk every row just read, again and again.
    assert started == []
    # Each card row is a list holding several strings: all now out of the collector's way.
    assert frozen > 1500
    assert enabled_after
