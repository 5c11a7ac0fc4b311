"""The 100,000-paper cache of issue 33, built once and kept in the bench's work folder.

    from bench.big_cache import build_100k
    root = build_100k(work_dir)        # a sandbox: root/data, root/home, root/config.toml
    sandbox = feedtui_app.Sandbox(root, launcher)

The papers are 500 feeds × 200 entries from `../shared/bench/gen_feeds.py
--seed 3` (its ids stay unique beyond the 99,999 of bench/feeds.py), dated
over the 16 weeks before `now`. The cache is what a user gets from one
`feedtui import opml FILE --follow` of an OPML with one feed per outline
(one followed topic per feed, "Bench X 000" ..), then one `feedtui refresh`
with the feeds served by bench/server.py on 127.0.0.1.

Both are kept under WORK/big-100k and reused while their arguments match:
the feeds while the generator's arguments do, the cache while those and the
feedtui launched (its argv and environment) do. A cache is written to a
temporary folder and renamed into place once complete, so an interrupted
build is never reused.

`spread_feeds` makes the papers of "a refresh of 2,000 new papers over every
week of the cache": 10 feeds × 200 entries over the same 16 weeks, their ids
moved out of the big set's range so that every one of them is new to it.

    python bench/big_cache.py [--work DIR]    build (or find) the cache, print its root
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/big_cache.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import json
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from xml.sax.saxutils import quoteattr

from bench.common import REPO_ROOT, MeasureError, log
from bench.feedtui_app import Launcher, Sandbox
from bench.server import FeedServer

GEN_FEEDS = REPO_ROOT.parent / "shared" / "bench" / "gen_feeds.py"
BIG = dict(feeds=500, entries=200, seed=3, weeks=16)
SPREAD = dict(feeds=10, entries=200, seed=4, weeks=16)
# Added to the five-digit number of every id of the spread set: the big set
# numbers each month's papers upwards from a few hundred, in steps of 1-3
# (about 25,000 papers a month, so below 80,000), the spread set's 2,000
# papers stay below 10,000 before the shift.
SPREAD_ID_SHIFT = 90_000
TOPIC_PREFIX = "Bench X "
FIRST_TOPIC = f"{TOPIC_PREFIX}000"
STAMP = "built.json"


@dataclass(frozen=True, slots=True)
class Built:
    """What a build measured, kept beside the cache (None: found built)."""

    root: Path
    refresh: dict | None


def today() -> datetime:
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def generate(out: Path, *, feeds: int, entries: int, seed: int, weeks: int, now: datetime, python: str = sys.executable) -> Path:
    """gen_feeds.py's feeds in `out`, made again only when its arguments changed."""
    args = [f"--feeds={feeds}", f"--entries={entries}", f"--seed={seed}", f"--weeks={weeks}", f"--now={now:%Y-%m-%d}"]
    stamp = out / "arguments.json"
    if stamp.exists() and json.loads(stamp.read_text()) == args:
        return out
    if not GEN_FEEDS.exists():
        raise MeasureError(f"{GEN_FEEDS} is missing: the 100k figures need the shared feed generator")
    shutil.rmtree(out, ignore_errors=True)
    log(f"generating {feeds} feeds × {entries} entries (gen_feeds.py --seed {seed}) …")
    subprocess.run([python, str(GEN_FEEDS), str(out), *args], check=True, stdout=subprocess.DEVNULL)
    stamp.write_text(json.dumps(args))
    return out


def big_feeds(work_dir: Path, now: datetime | None = None) -> Path:
    """The folder of the 500 feeds (feed-000.xml ..), under work_dir/big-100k/feeds."""
    return generate(work_dir / "big-100k" / "feeds", **BIG, now=now or today())


def spread_feeds(work_dir: Path, now: datetime | None = None) -> Path:
    """2,000 papers over every week of the big set's 16, none of them in it."""
    out = work_dir / "big-100k" / "spread"
    stamp = out / "shifted.json"
    folder = generate(out, **SPREAD, now=now or today())
    if stamp.exists():
        return folder
    moved = re.compile(rb"(?<=/)(\d{4})\.(\d{5})")
    for path in sorted(folder.glob("feed-*.xml")):
        def shift(match: re.Match[bytes]) -> bytes:
            number = int(match.group(2)) + SPREAD_ID_SHIFT
            if number > 99_999:
                raise MeasureError(f"an id of {path.name} does not fit beside the big set's: {match.group(0)!r}")
            return match.group(1) + b"." + b"%05d" % number
        path.write_bytes(moved.sub(shift, path.read_bytes()))
    stamp.write_text(json.dumps({"shift": SPREAD_ID_SHIFT}))
    return folder


def opml(urls: list[str], prefix: str = TOPIC_PREFIX) -> str:
    """One outline per feed, outside any folder: one topic per feed."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<opml version="2.0">', "<head><title>bench</title></head>", "<body>"]
    for index, url in enumerate(urls):
        name = quoteattr(f"{prefix}{index:03d}")
        lines.append(f'<outline type="rss" text={name} title={name} xmlUrl={quoteattr(url)}/>')
    lines += ["</body>", "</opml>", ""]
    return "\n".join(lines)


def followed_template(root: Path, launcher: Launcher, urls: list[str]) -> Sandbox:
    """A sandbox with one followed topic per URL, imported from one OPML file, and no papers."""
    sandbox = Sandbox.create(root, launcher)
    listing = root / "feeds.opml"
    listing.write_text(opml(urls), encoding="utf-8")
    sandbox.run("import", "opml", str(listing), "--follow", timeout=600)
    return sandbox


def _key(launcher: Launcher, now: datetime) -> dict:
    return {"big": BIG, "now": f"{now:%Y-%m-%d}", "argv": list(launcher.argv), "env": [list(p) for p in launcher.extra_env]}


def build(work_dir: Path, launcher: Launcher | None = None, *, now: datetime | None = None) -> Built:
    """The 100k cache's sandbox, built unless one with the same arguments is
    kept; its feeds are served by a private server at no latency."""
    launcher = launcher or Launcher.from_checkout(sys.executable)
    now = now or today()
    base = work_dir / "big-100k"
    root = base / "cache"
    key = _key(launcher, now)
    try:
        if json.loads((root / STAMP).read_text())["key"] == key:
            return Built(root, None)
    except (OSError, ValueError, KeyError):
        pass
    big_feeds(work_dir, now)
    with FeedServer(base) as server:
        return _build(base, root, launcher, server, key)


def _build(base: Path, root: Path, launcher: Launcher, server: FeedServer, key: dict) -> Built:
    building = Path(tempfile.mkdtemp(prefix="building-", dir=base))
    try:
        urls = [server.url(f"feeds/feed-{i:03d}.xml") for i in range(BIG["feeds"])]
        sandbox = followed_template(building, launcher, urls)
        log("feedtui: refreshing 500 feeds into the 100k cache …")
        started = time.perf_counter()
        sample = sandbox.run("refresh", timeout=3600)
        refresh = {"wall_s": sample.wall_s, "cpu_s": sample.cpu_s, "rss_mb": sample.max_rss_kb / 1024}
        log(f"feedtui: 100k cache built in {time.perf_counter() - started:.0f} s, peak RSS {refresh['rss_mb']:.0f} MB")
        (building / STAMP).write_text(json.dumps({"key": key, "refresh": refresh}))
        shutil.rmtree(root, ignore_errors=True)
        building.rename(root)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return Built(root, refresh)


def build_100k(work_dir: Path) -> Path:
    """The root of a sandbox holding the 100,000-paper cache (root/data is
    its data directory), built with this checkout's feedtui unless kept."""
    return build(work_dir).root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="big_cache.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--src", type=Path, default=REPO_ROOT / "src")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    built = build(args.work, Launcher.from_checkout(args.python, args.src))
    print(built.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
