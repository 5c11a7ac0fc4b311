"""Starting the terminal UI."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from feedtui.config import Config


def run_tui(config: Config, data_dir: Path, *, demo: bool = False) -> int:
    from feedtui.engine import open_engine
    from feedtui.store.files import StoreError

    try:
        engine = open_engine(config, data_dir, demo=demo)
        # Before the UI starts: a loading thread would share the interpreter
        # with Textual's own start-up and take twice as long.
        engine.load_library()
        # The card rows live as long as the app: out of the cyclic GC's sight
        # now, so Textual's start-up does not walk them in its collections.
        gc.freeze()
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
