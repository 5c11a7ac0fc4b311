"""Starting the terminal UI."""

from __future__ import annotations

import sys
from pathlib import Path

from feedtui.config import Config


def run_tui(config: Config, data_dir: Path, *, demo: bool = False) -> int:
    print("feedtui: the interactive reader is not built yet; use the subcommands (feedtui --help)", file=sys.stderr)
    return 1
