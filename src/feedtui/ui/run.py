"""Starting the terminal UI."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from feedtui.config import Config
from feedtui.memory import gc_paused

if TYPE_CHECKING:
    from feedtui.engine import Engine


def run_tui(config: Config, data_dir: Path, *, demo: bool = False) -> int:
    from feedtui.engine import open_engine
    from feedtui.store.files import StoreError

    try:
        engine = open_engine(config, data_dir, demo=demo)
        load_for_app(engine)
    except StoreError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        from feedtui.cli import data_dir_problem

        print(f"feedtui: {data_dir_problem(data_dir, error)}", file=sys.stderr)
        return 1
    from feedtui.ui.app import FeedtuiApp

    app = FeedtuiApp(engine)
    try:
        app.run()
    finally:
        try:
            engine.close()
        except StoreError as error:
            print(f"feedtui: {error}", file=sys.stderr)
            return 1
    return app.return_code or 0


def load_for_app(engine: Engine) -> None:
    """Load the library before the UI starts (a loading thread would share the
    interpreter with Textual's own start-up and take twice as long), then put
    the card rows, which live as long as the app, out of the cyclic
    collector's sight so that Textual's start-up does not walk them.

    The collector stays off from the first row read to the freeze: objects
    made during a pause all sit in the youngest generation, so the first
    collection after it would walk every one of them (80–100 ms at 40,000
    papers, between reading the index and building the library)."""
    with gc_paused():
        engine.load_library()
        gc.freeze()
