"""A burst of user actions through the engine API, reporting what is durable.

    python bench/kill_driver.py DATA_DIR --seed 7 --seconds 3

Opens an engine on DATA_DIR and, until killed or for --seconds, makes random
marks, stars, follows and topic changes as fast as a reader's keys would come.
stdout is a protocol, one line per event, each written with a single
`write` so lines from two threads never mix:

    ready                         the engine is open; actions start now
    op N KIND ARG...              action N is about to be applied
    applied N SEQ                 ... and was, as state operation sequence SEQ
    durable N                     action N is on disk (StateStore.durable_sequence)

An action is reported durable once the state store's `on_durable` says every
operation up to its sequence number was written; `bench/stress_kill.py` kills
this process with SIGKILL at a random moment and checks that everything
reported durable is still there.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

ID_POOL = [f"2611.{n:05d}" for n in range(1, 301)]
USER_TOPICS = [f"Kill topic {n}" for n in range(8)]
KINDS = ("read", "read", "read", "unread", "star", "unstar", "follow", "unfollow", "topic_add", "topic_rm")


class Reporter:
    """Writes protocol lines and works out which actions became durable."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._applied: list[tuple[int, int]] = []  # (action, sequence), in order
        self._reported = 0

    def line(self, text: str) -> None:
        os.write(1, (text + "\n").encode())

    def applied(self, action: int, sequence: int) -> None:
        self.line(f"applied {action} {sequence}")
        with self._lock:
            self._applied.append((action, sequence))

    def durable(self, sequence: int) -> None:
        with self._lock:
            ready = []
            while self._reported < len(self._applied) and self._applied[self._reported][1] <= sequence:
                ready.append(self._applied[self._reported][0])
                self._reported += 1
        for action in ready:
            self.line(f"durable {action}")


def choose(rng: random.Random, engine) -> tuple[str, list[str]]:
    """A random action that the engine accepts in the current state."""
    while True:
        kind = rng.choice(KINDS)
        if kind in ("read", "unread", "star", "unstar"):
            return kind, rng.sample(ID_POOL, rng.randint(1, 3))
        names = engine.registry.names()
        user = [n for n in USER_TOPICS if n in engine.registry]
        if kind == "follow":
            return kind, [rng.choice(names)]
        if kind == "unfollow":
            followed = [e.name for e in engine.followed()]
            if followed:
                return kind, [rng.choice(followed)]
        elif kind == "topic_add":
            return kind, [rng.choice(USER_TOPICS), f'abs:"kill word {rng.randrange(1000)}"']
        elif kind == "topic_rm" and user:
            return kind, [rng.choice(user)]


def apply(engine, kind: str, args: list[str]) -> None:
    from feedtui.model import TopicDefinition

    if kind == "read":
        engine.mark_read(args)
    elif kind == "unread":
        engine.mark_unread(args)
    elif kind == "star":
        engine.star(args)
    elif kind == "unstar":
        engine.unstar(args)
    elif kind == "follow":
        engine.follow(args[0])
    elif kind == "unfollow":
        engine.unfollow(args[0])
    elif kind == "topic_add":
        engine.add_topic(args[0], TopicDefinition(query=args[1]), replace=True)  # adds, or redefines
    elif kind == "topic_rm":
        engine.remove_topic(args[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kill_driver.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="stop (and close cleanly) after this long")
    parser.add_argument("--pause-ms", type=float, default=3.0, help="longest random pause between two actions")
    args = parser.parse_args(argv)

    from feedtui.config import Config
    from feedtui.core.engine import Engine

    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, args.data_dir)
    reporter = Reporter()
    engine.state.on_durable = reporter.durable
    rng = random.Random(args.seed)
    reporter.line("ready")
    deadline = time.monotonic() + args.seconds
    action = 0
    while time.monotonic() < deadline:
        kind, values = choose(rng, engine)
        reporter.line(" ".join(["op", str(action), kind, *(v.replace(" ", "\x1f") for v in values)]))
        apply(engine, kind, values)
        reporter.applied(action, engine.state.sequence)
        action += 1
        time.sleep(rng.uniform(0, args.pause_ms / 1000))
    engine.close()
    reporter.durable(engine.state.durable_sequence)
    return 0


if __name__ == "__main__":
    sys.exit(main())
