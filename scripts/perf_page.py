#!/usr/bin/env python3
"""Write the performance figures of the latest benchmark run into the docs.

    python scripts/perf_page.py --bench         run bench/run.py (5 runs per figure), then write
    python scripts/perf_page.py RUN.json        take RUN.json (`bench/run.py --json RUN.json`) as the latest run
    python scripts/perf_page.py                 rewrite the tables from docs/performance.json
    python scripts/perf_page.py --check         exit 1 if a table is out of date

The latest run is kept in docs/performance.json, the JSON bench/run.py
writes with the date it was taken; it replaces the run before it (the
pages keep no history). From it come the results in docs/performance.md
and the short table in README.md, each between `<!-- begin NAME -->` and
`<!-- end NAME -->`; the text around them is written by hand.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import facts_table, format_stat, markdown_table, stat  # noqa: E402
from bench.run import FIGURES, Results  # noqa: E402

RUN = ROOT / "docs" / "performance.json"
PAGE = "docs/performance.md"
README = "README.md"
ONE_PASS = ("keys.", "marks.")  # figures measured in one pass of many keys, whatever --runs says

# The README's table: figures that have a target, under shorter names.
SHORT = {
    "refresh.cold": "Cold refresh, 50 feeds × 100 papers",
    "refresh.warm": "Refresh with nothing new (all 304)",
    "start.5k": "Start → list painted, 5,000 papers",
    "start.40k": "Start → list painted, 40,000 papers",
    "memory.40k": "Peak memory, 40,000 papers",
    "scale.floor.ratio": "Start at 5,000 papers ÷ a bare Textual app",
    "scale.growth": "Start at 100,000 papers ÷ at 5,000",
    "scale.memory.100k": "Peak memory, 100,000 papers",
    "keys.p95": "Key → repaint, p95",
    "marks.write": "1,000 read marks: bytes written",
    "marks.durable": "1,000 read marks: last mark on disk",
    "retag.50k": "Add a topic, retag 50,000 papers",
}


def load(path: Path = RUN) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def results(run: dict) -> Results:
    """bench/run.py's Results, rebuilt from its --json form."""
    found = Results()
    cells = dict(run["results"])
    found.notes = {key: list(texts) for key, texts in cells.pop("notes", {}).items()}
    found.verdicts = dict(cells.pop("met", {}))
    for name, value in cells.items():
        figure, tool = name.rsplit("/", 1)
        found.put(figure, tool, stat(value) if isinstance(value, list) else value)
    return found


def runs_per_figure(run: dict) -> int:
    counts = [
        len(value) for name, value in run["results"].items()
        if isinstance(value, list) and not name.startswith(ONE_PASS)
    ]
    return max(counts, default=1)


def measured_on(run: dict) -> str:
    facts = run["facts"]
    runs = runs_per_figure(run)
    return (
        f"{run.get('date', 'at an unknown date')}, checkout {facts.get('checkout', '?')}, "
        f"{runs} run{'s' if runs != 1 else ''} per figure (keys and marks: one pass of 1,000 keys), "
        f"load average {facts.get('load average', '?')} at the start"
    )


def results_block(run: dict) -> str:
    found = results(run)
    machine = {k: v for k, v in run["facts"].items() if k not in ("load average", "feedtui source")}
    return "\n".join([
        f"Measured {measured_on(run)}. Cells: median [min–max]; `–`: not measured in this run.",
        "",
        markdown_table(found.rows()),
        "",
        facts_table(machine),
    ])


def readme_block(run: dict) -> str:
    found = results(run)
    lines = ["| | feedtui | target | met |", "|---|---|---|---|"]
    for figure in FIGURES:
        if not figure.target:
            continue
        cell = found.cells.get((figure.key, "feedtui"))
        met = found.met(figure)
        value = "not measured in this run" if cell is None else format_stat(cell, figure.unit).split(" [")[0]
        verdict = "" if met is None else ("yes" if met else "**no**")
        lines.append(f"| {SHORT.get(figure.key, figure.label)} | {value} | {figure.target} | {verdict} |")
    facts = run["facts"]
    runs = runs_per_figure(run)
    lines += ["", (
        f"Medians of {runs} run{'s' if runs != 1 else ''}, {run.get('date', 'date unknown')}, on {facts.get('cpu', '?')}, "
        f"cores {facts.get('cores', '?')}, load average {facts.get('load average', '?')} at the start."
    )]
    return "\n".join(lines)


def _tables():
    spec = importlib.util.spec_from_file_location("readme_tables", ROOT / "scripts" / "readme_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def updated(page: str, text: str, run: dict) -> str:
    """`text`, the content of `page`, with its tables made from `run`."""
    replace_block = _tables().replace_block
    if page == PAGE:
        return replace_block(text, "results", results_block(run), page)
    if page == README:
        return replace_block(text, "perf", readme_block(run), page)
    raise ValueError(page)


def take(source: Path) -> None:
    """Keep `source`, a bench/run.py --json file, as the latest run, dated."""
    run = load(source)
    if "results" not in run or "facts" not in run:
        raise SystemExit(f"{source}: not a bench/run.py --json file (no facts and results)")
    if run["facts"].get("feedtui source") == str(ROOT / "src"):
        run["facts"]["feedtui source"] = "src/ of the checkout"
    run.setdefault("date", datetime.fromtimestamp(source.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M UTC"))
    RUN.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="?", type=Path, help="a bench/run.py --json file to take as the latest run")
    parser.add_argument("--bench", action="store_true", help="run the benchmark suite first (bench/run.py --runs 5)")
    parser.add_argument("--runs", type=int, default=5, help="with --bench: runs per figure (default 5)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a table is out of date")
    args = parser.parse_args()
    if args.bench:
        fresh = ROOT / "docs" / "performance.run.json"
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--runs", str(args.runs), "--json", str(fresh)])
        if done.returncode != 0:
            return done.returncode
        args.json = fresh
    if args.json:
        take(args.json)
        if args.bench:
            args.json.unlink()
    run = load()
    return _tables().write_pages(
        (PAGE, README), lambda page, text: updated(page, text, run), check=args.check, command="python scripts/perf_page.py"
    )


if __name__ == "__main__":
    raise SystemExit(main())
