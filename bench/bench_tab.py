#!/usr/bin/env python3
"""Key → repaint of Tab (sidebar ⇄ list) on `feedtui --demo`, in tmux.

Tab moves the focus between the sidebar and the paper list: the footer's
keys change with it, and both lists redraw their cursor in the focused or
the blurred colours. Each press is timed from tmux's `send-keys` to the last
`%output` of its repaint (bench/repaint.py), at 160×48 and at 80×24; `j` in
the list is timed alongside, for comparison.

    python bench/bench_tab.py [--keys 60]
    python bench/bench_tab.py --against /path/to/other/checkout [--rounds 4]

With `--against`, this checkout and the other one are timed in turns
(A B A B …, each round a fresh start at both sizes), so that a shared,
noisy machine weighs on both alike; the figures are pooled per checkout.

Target: Tab's p95 ≤ 50 ms (the other keys of the reader take 25–105 ms).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/bench_tab.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import re
import statistics
import tempfile

from bench.common import bare_env
from bench.repaint import RepaintProbe
from bench.tui_start import TerminalProgram

SRC = Path(__file__).resolve().parents[1] / "src"
TARGET_P95_MS = 50.0
SIZES = ((160, 48), (80, 24))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def time_keys(cols: int, rows: int, keys: int, src: Path = SRC) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(prefix="bench-tab-") as root:
        env = {**bare_env(Path(root) / "home"), "PYTHONPATH": str(src)}
        argv = [sys.executable, "-m", "feedtui", "--demo", "--data-dir", str(Path(root) / "data")]
        with TerminalProgram(argv, cols=cols, rows=rows, env=env) as program:
            matched, screen, _, _ = program.wait_for([re.compile(r"Latest papers \(")], poll_s=0.05, timeout=120)
            if matched is None:
                raise SystemExit(f"feedtui --demo did not paint its topic:\n{screen}")
            with RepaintProbe(program, quiet_s=0.05) as probe:
                probe.settle()
                tab = probe.time_keys(["Tab"] * keys)
                probe.press("J")  # the list has the keys: j moves its cursor
                probe.settle()
                j = probe.time_keys(["j"] * keys)
            program.quit(["q"], 30)
    return {"Tab": [s * 1000 for s in tab.latencies_s], "j": [s * 1000 for s in j.latencies_s]}


def summary(values: list[float]) -> str:
    p95 = percentile(values, 0.95)
    return f"median {statistics.median(values):6.1f}   p95 {p95:6.1f}   max {max(values):6.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--against", type=Path, help="another checkout, timed in turns with this one")
    parser.add_argument("--rounds", type=int, default=4, help="turns each with --against")
    args = parser.parse_args()
    if args.against is not None:
        return compare(args.against.resolve() / "src", args.keys, args.rounds)
    verdicts = []
    print(f"key → repaint on feedtui --demo in tmux, {args.keys} presses each (ms)")
    for cols, rows in SIZES:
        figures = time_keys(cols, rows, args.keys)
        for key, values in figures.items():
            if not values:
                print(f"  {cols}×{rows}  {key:4s} no repaint")
                continue
            print(f"  {cols}×{rows}  {key:4s} {summary(values)}")
            if key == "Tab":
                verdicts.append(percentile(values, 0.95) <= TARGET_P95_MS)
    ok = bool(verdicts) and all(verdicts)
    print(f"Tab p95 ≤ {TARGET_P95_MS:.0f} ms: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


def compare(other: Path, keys: int, rounds: int) -> int:
    """This checkout (A) and `other` (B) in turns; pooled figures of each."""
    trees = {"A": SRC, "B": other}
    pooled: dict[tuple[str, int, int, str], list[float]] = {}
    for _ in range(rounds):
        for name, src in trees.items():
            for cols, rows in SIZES:
                for key, values in time_keys(cols, rows, keys, src).items():
                    pooled.setdefault((name, cols, rows, key), []).extend(values)
    print(f"key → repaint on feedtui --demo in tmux, A/B in turns, {rounds} rounds × {keys} presses (ms)")
    print(f"  A = {SRC.parent}\n  B = {other.parent}")
    for (name, cols, rows, key), values in sorted(pooled.items(), key=lambda item: (item[0][1:], item[0][0])):
        print(f"  {name}  {cols}×{rows}  {key:4s} {summary(values)}" if values else f"  {name}  {cols}×{rows}  {key:4s} no repaint")
    return 0


if __name__ == "__main__":
    sys.exit(main())
