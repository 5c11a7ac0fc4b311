"""Key -> repaint timing for a program running in tmux (see tui_start.TerminalProgram).

A second control-mode client is attached to the program's session; tmux then
sends it a `%output` line whenever the program writes to its terminal. For
each key we note the time the `send-keys` command is written, then wait
until the program's output has been quiet for `quiet_s`: the key's latency
is the arrival of its last `%output` minus the send. That is "the repaint
finished", not "the first byte of it", so a program that paints in several
writes is charged for all of them. tmux's own relay adds a fraction of a
millisecond (measure it with `cat` in the pane: the floor).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.tui_start import APP_SESSION, KEY_NAME, ControlClient, TerminalProgram

# Longest a single repaint may keep writing before we stop waiting for quiet.
MAX_REPAINT_S = 5.0


@dataclass(slots=True)
class KeyTimings:
    latencies_s: list[float] = field(default_factory=list)
    unanswered: int = 0  # keys after which nothing was painted within the timeout


class RepaintProbe:
    def __init__(self, program: TerminalProgram, *, quiet_s: float = 0.05, answer_timeout_s: float = 2.0) -> None:
        self.program = program
        self.quiet_s = quiet_s
        self.answer_timeout_s = answer_timeout_s
        self.client: ControlClient | None = None

    def __enter__(self) -> RepaintProbe:
        self.client = self.program.tmux.attach(APP_SESSION)
        self.settle()
        return self

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def settle(self, quiet_s: float = 0.3, limit_s: float = 30.0) -> None:
        """Wait until the program has written nothing for quiet_s (start-up paints, toasts)."""
        assert self.client is not None
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline and self.client.pump(quiet_s):
            pass

    def send(self, keys: Sequence[str]) -> float:
        """Write one send-keys command without waiting for tmux's answer; the send time."""
        assert self.client is not None
        for key in keys:
            if not KEY_NAME.fullmatch(key):
                raise ValueError(f"not a tmux key name: {key!r}")
        self.client.output_times.clear()
        sent = time.monotonic()
        self.client.write(f"send-keys -t {APP_SESSION} {' '.join(keys)}")
        return sent

    def last_output_after(self, sent: float, quiet_s: float | None = None) -> float | None:
        """Arrival of the last %output once the program went quiet; None when it painted nothing."""
        assert self.client is not None
        quiet = self.quiet_s if quiet_s is None else quiet_s
        last: float | None = None
        while True:
            deadline = sent + self.answer_timeout_s if last is None else min(last + quiet, sent + MAX_REPAINT_S)
            if not self.client.read_one(deadline):
                return last
            if self.client.output_times and self.client.output_times[-1] >= sent:  # older output belongs to earlier keys
                last = self.client.output_times[-1]

    def press(self, key: str) -> float | None:
        """One key: seconds until its repaint finished, or None if nothing was painted."""
        sent = self.send([key])
        last = self.last_output_after(sent)
        return None if last is None else last - sent

    def time_keys(self, keys: Sequence[str]) -> KeyTimings:
        timings = KeyTimings()
        for key in keys:
            latency = self.press(key)
            if latency is None:
                timings.unanswered += 1
            else:
                timings.latencies_s.append(latency)
        return timings
