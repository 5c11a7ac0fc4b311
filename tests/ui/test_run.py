"""Starting the UI: the library is loaded and the app built before Textual starts, without a collection."""

from __future__ import annotations

import gc
from datetime import timedelta

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.run import build_app

from tests.factories import make_paper
from tests.gc_watch import collections_started
from tests.ui.conftest import NOW


def test_building_the_app_never_collects_and_freezes_what_it_built(make_engine, tmp_path):
    papers = [
        make_paper(f"2611.{number:05d}", title=f"Widget {number}", published=NOW - timedelta(hours=number))
        for number in range(1500)
    ]
    seeded = make_engine(papers, data_dir=tmp_path / "data")
    seeded.close()
    with collections_started() as started:
        try:
            app = build_app(seeded.config, tmp_path / "data")
            frozen = gc.get_freeze_count()
            enabled_after = gc.isenabled()
        finally:
            gc.unfreeze()
    try:
        assert isinstance(app, FeedtuiApp)
        assert len(app.engine.library.ids) == 1500
        # Collections while the engine opens, the rows are read or Textual is
        # imported would walk everything built so far, again and again.
        assert started == []
        # Each card row is a list holding several strings: all now out of the collector's way.
        assert frozen > 1500
        assert enabled_after
    finally:
        app.engine.close()
