#!/usr/bin/env python3
"""Write the README's screenshot: the main screen in demo mode, as SVG.

    python scripts/screenshot.py [--out docs/screenshot.svg] [--theme textual-dark]
                                 [--size 120x40] [--topic "Heterogeneous Computing"]

The app runs headless (Textual's `run_test`) on the bundled demo papers in a
temporary data directory, with the clock fixed at the demo's epoch, so the
same code gives the same picture. No network, no terminal needed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from feedtui.config import Config  # noqa: E402
from feedtui.demo import demo_epoch  # noqa: E402
from feedtui.core.engine import open_engine  # noqa: E402
from feedtui.ui.app import FeedtuiApp  # noqa: E402
from feedtui.ui.widgets.paper_list import PaperList  # noqa: E402


async def screenshot(theme: str, size: tuple[int, int], topic: str, data_dir: Path) -> str:
    config = Config()
    config.settings.auto_refresh = False
    config.settings.theme = theme
    epoch = demo_epoch()
    engine = open_engine(config, data_dir, demo=True, clock=lambda: epoch)
    app = FeedtuiApp(engine)
    try:
        async with app.run_test(size=size) as pilot:
            main = app.main_screen
            for _ in range(500):
                await pilot.pause(0.02)
                if main.ready and main.current:
                    break
            else:
                raise SystemExit("the app did not become ready on the demo data")
            if topic not in engine.registry:
                raise SystemExit(f"no topic called {topic!r} in the demo (feedtui --demo topics lists them)")
            main.go_to_topic(topic)
            main.query_one(PaperList).focus()
            await pilot.pause(0.3)
            return app.export_screenshot(title=f"feedtui --demo · {topic}")
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.svg")
    parser.add_argument("--theme", default="textual-dark")
    parser.add_argument("--size", default="120x40", help="columns x rows")
    parser.add_argument("--topic", default="Heterogeneous Computing")
    args = parser.parse_args()
    try:
        columns, rows = (int(n) for n in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size: expected COLUMNSxROWS like 120x40, not {args.size!r}")
    with tempfile.TemporaryDirectory(prefix="feedtui-screenshot-") as folder:
        svg = asyncio.run(screenshot(args.theme, (columns, rows), args.topic, Path(folder) / "demo"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg, encoding="utf-8")
    print(f"wrote {args.out} ({len(svg):,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
